// Support code for abacus-generate: a seeded PRNG, calendar arithmetic,
// exact integer rounding and a fast buffered byte writer.
//
// Nothing here uses floating point: every amount and rate is an integer count
// of its last written digit and is printed as decimal text by `Writer.decimal`.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

// MARK: - PRNG

/// SplitMix64 (Steele, Lea, Flood 2014). Small, fast, and fully determined by
/// its seed on every platform.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    @inline(__always)
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in 0..<n (n > 0), by the multiply-high method (Lemire); the bias
    /// is below 2^-40 for every n used here.
    @inline(__always)
    mutating func below(_ n: Int) -> Int {
        Int(truncatingIfNeeded: next().multipliedFullWidth(by: UInt64(n)).high)
    }

    /// Uniform in lo...hi.
    @inline(__always)
    mutating func range(_ lo: Int, _ hi: Int) -> Int { lo + below(hi - lo + 1) }

    /// True with probability perMille / 1000.
    @inline(__always)
    mutating func chance(_ perMille: Int) -> Bool { below(1000) < perMille }
}

// MARK: - Calendar (proleptic Gregorian, days since 1970-01-01)

/// Howard Hinnant's days_from_civil.
func daysFromCivil(_ y0: Int, _ m: Int, _ d: Int) -> Int {
    let y = m <= 2 ? y0 - 1 : y0
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let mp = (m + 9) % 12
    let doy = (153 * mp + 2) / 5 + d - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
}

/// Howard Hinnant's civil_from_days.
func civilFromDays(_ z0: Int) -> (year: Int, month: Int, day: Int) {
    let z = z0 + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let d = doy - (153 * mp + 2) / 5 + 1
    let m = mp < 10 ? mp + 3 : mp - 9
    return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
}

/// 0 = Monday ... 6 = Sunday.
func weekday(_ epochDay: Int) -> Int { ((epochDay + 3) % 7 + 7) % 7 }

func pad(_ v: Int, _ width: Int) -> String {
    let s = String(v)
    return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
}

/// "YYYY-MM-DD"
func isoDate(_ epochDay: Int) -> String {
    let c = civilFromDays(epochDay)
    return "\(pad(c.year, 4))-\(pad(c.month, 2))-\(pad(c.day, 2))"
}

/// "YYYY-MM"
func isoMonth(_ epochDay: Int) -> String {
    let c = civilFromDays(epochDay)
    return "\(pad(c.year, 4))-\(pad(c.month, 2))"
}

/// Parses "YYYY-MM-DD" strictly; nil when malformed or not a real date.
func parseISODate(_ s: String) -> Int? {
    let b = Array(s.utf8)
    guard b.count == 10, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-") else { return nil }
    func num(_ r: Range<Int>) -> Int? {
        var v = 0
        for i in r {
            guard b[i] >= 48, b[i] <= 57 else { return nil }
            v = v * 10 + Int(b[i] - 48)
        }
        return v
    }
    guard let y = num(0..<4), let m = num(5..<7), let d = num(8..<10),
          (1...12).contains(m), d >= 1 else { return nil }
    let z = daysFromCivil(y, m, d)
    let back = civilFromDays(z)
    guard back.year == y, back.month == m, back.day == d else { return nil }
    return z
}

// MARK: - Exact arithmetic

let powersOfTen: [Int] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000]

/// a / b rounded half to even (b > 0).
@inline(__always)
func divideHalfEven(_ a: Int, _ b: Int) -> Int {
    var q = a / b
    let r = a - q * b          // same sign as a
    let twice = 2 * abs(r)
    if twice > b || (twice == b && q & 1 != 0) {
        q += a < 0 ? -1 : 1
    }
    return q
}

// MARK: - JSON text

/// A JSON string literal (with its quotes) as UTF-8 bytes.
func jsonString(_ s: String) -> [UInt8] {
    var out: [UInt8] = [UInt8(ascii: "\"")]
    let hex = Array("0123456789abcdef".utf8)
    for c in s.utf8 {
        switch c {
        case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
        case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
        case 0x0A: out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
        case 0x09: out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
        case 0..<0x20:
            out += Array("\\u00".utf8) + [hex[Int(c >> 4)], hex[Int(c & 15)]]
        default: out.append(c)
        }
    }
    out.append(UInt8(ascii: "\""))
    return out
}

func jsonStringText(_ s: String) -> String { String(decoding: jsonString(s), as: UTF8.self) }

// MARK: - Writer

/// Appends bytes to a large private buffer and hands it to `fwrite` whenever
/// it fills. All entry output goes through `raw`, `lit`, `byte`, `uint` and
/// `decimal`, none of which allocates.
final class Writer {
    private let file: UnsafeMutablePointer<FILE>
    private let buffer: UnsafeMutablePointer<UInt8>
    private let capacity = 1 << 22
    private var count = 0
    private(set) var failed = false
    private(set) var bytesWritten = 0

    init(file: UnsafeMutablePointer<FILE>) {
        self.file = file
        buffer = .allocate(capacity: capacity)
    }

    deinit { buffer.deallocate() }

    func flush() {
        if count > 0 {
            if fwrite(buffer, 1, count, file) != count { failed = true }
            bytesWritten += count
            count = 0
        }
    }

    /// Closes the file; false when any write failed.
    func close() -> Bool {
        flush()
        if fflush(file) != 0 { failed = true }
        if fclose(file) != 0 { failed = true }
        return !failed
    }

    @inline(__always)
    private func reserve(_ n: Int) {
        if count + n > capacity { flush() }
    }

    @inline(__always)
    func raw(_ p: UnsafeRawBufferPointer) {
        let n = p.count
        if n == 0 { return }
        if n > capacity {
            flush()
            if fwrite(p.baseAddress!, 1, n, file) != n { failed = true }
            bytesWritten += n
            return
        }
        reserve(n)
        (buffer + count).update(from: p.baseAddress!.assumingMemoryBound(to: UInt8.self), count: n)
        count += n
    }

    @inline(__always)
    func raw(_ a: [UInt8]) { a.withUnsafeBytes { raw($0) } }

    @inline(__always)
    func lit(_ s: StaticString) {
        s.withUTF8Buffer { raw(UnsafeRawBufferPointer($0)) }
    }

    func text(_ s: String) {
        var s = s
        s.withUTF8 { raw(UnsafeRawBufferPointer($0)) }
    }

    @inline(__always)
    func byte(_ b: UInt8) {
        reserve(1)
        buffer[count] = b
        count += 1
    }

    /// A non-negative integer, zero-padded to at least `width` digits.
    @inline(__always)
    func uint(_ v0: Int, width: Int = 1) {
        reserve(24)
        var tmp: (UInt64, UInt64, UInt64) = (0, 0, 0)   // 24 bytes of scratch
        var v = UInt64(v0)
        var n = 0
        withUnsafeMutableBytes(of: &tmp) { t in
            repeat {
                t[23 - n] = UInt8(truncatingIfNeeded: v % 10) &+ 48
                v /= 10
                n += 1
            } while v != 0 || n < width
            (buffer + count).update(from: t.baseAddress!.assumingMemoryBound(to: UInt8.self) + (24 - n), count: n)
        }
        count += n
    }

    /// `units` × 10^-scale as exact decimal text: `-1234.50` for (-123450, 2),
    /// `1500` for (1500, 0).
    @inline(__always)
    func decimal(_ units: Int, scale: Int) {
        if units < 0 { byte(UInt8(ascii: "-")) }
        let mag = units.magnitude
        if scale == 0 {
            uint(Int(mag))
            return
        }
        let p = UInt(powersOfTen[scale])
        uint(Int(mag / p))
        byte(UInt8(ascii: "."))
        uint(Int(mag % p), width: scale)
    }
}
