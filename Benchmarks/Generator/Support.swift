// Support code for abacus-generate: a seeded PRNG, date text (via
// AbacusCore's `Day`), exact integer rounding and a fast buffered byte writer.
//
// Nothing here uses floating point: every amount and rate is an integer count
// of its last written digit and is printed as decimal text by `Writer.decimal`.

import AbacusCore

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

// MARK: - Calendar
//
// Dates are AbacusCore `Day`s. The generator does its arithmetic on day
// numbers (`Day.number`, days since 1970-01-01) as `Int` and only turns them
// into text here.

/// "YYYY-MM-DD"
func isoDate(_ epochDay: Int) -> String { Day(number: Int32(epochDay)).description }

/// "YYYY-MM"
func isoMonth(_ epochDay: Int) -> String { String(isoDate(epochDay).dropLast(3)) }

// MARK: - Exact arithmetic

let powersOfTen: [Int] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000]

/// `v` as decimal text, zero-padded on the left to at least `width` characters.
func pad(_ v: Int, _ width: Int) -> String {
    let s = String(v)
    return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
}

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
