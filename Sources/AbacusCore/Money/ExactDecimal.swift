// Exact decimal numbers: every amount and rate from the JSON text to the output.
//
// A value is `significand × 10^-scale` with a 128-bit significand of at most 38
// decimal digits and a scale of 0...38. Addition and multiplication are exact
// or they fail with `ExactDecimal.Overflow`; nothing is ever rounded silently.
// Rounding happens only when asked for (`rounded(toScale:)`), half-even.
// Binary floating point never touches these values.

import BigInt

public struct ExactDecimal: Sendable, CustomStringConvertible {
    public var significand: Int128
    /// Number of fractional digits, 0...38.
    public var scale: Int

    public static let maxDigits = 38
    public static let maxScale = 38
    /// 10^38 - 1: the largest significand this type carries.
    public static let maxSignificand: Int128 = pow10[38] - 1

    public struct Overflow: Error, Sendable {}

    @inlinable
    public init(significand: Int128, scale: Int) {
        self.significand = significand
        self.scale = scale
    }

    public init(_ integer: Int) {
        self.init(significand: Int128(integer), scale: 0)
    }

    public static let zero = ExactDecimal(significand: 0, scale: 0)
    public static let one = ExactDecimal(significand: 1, scale: 0)

    public var isZero: Bool { significand == 0 }
    public var isNegative: Bool { significand < 0 }
    public var isPositive: Bool { significand > 0 }
    public var negated: ExactDecimal { ExactDecimal(significand: -significand, scale: scale) }
    public var magnitude: ExactDecimal { ExactDecimal(significand: significand < 0 ? -significand : significand, scale: scale) }

    /// The same value with trailing fractional zeros removed.
    public var normalized: ExactDecimal {
        var s = significand, k = scale
        while k > 0 && s % 10 == 0 { s /= 10; k -= 1 }
        return ExactDecimal(significand: s, scale: k)
    }

    /// The value at a larger scale (more fractional digits), exactly.
    public func rescaled(to newScale: Int) throws(Overflow) -> ExactDecimal {
        precondition(newScale >= scale)
        if newScale == scale { return self }
        guard newScale <= Self.maxScale else { throw Overflow() }
        let (p, o) = significand.multipliedReportingOverflow(by: pow10[newScale - scale])
        guard !o, p.magnitude <= Self.maxSignificand.magnitude else { throw Overflow() }
        return ExactDecimal(significand: p, scale: newScale)
    }

    public func adding(_ other: ExactDecimal) throws(Overflow) -> ExactDecimal {
        let s = max(scale, other.scale)
        let a = try rescaled(to: s), b = try other.rescaled(to: s)
        let (sum, o) = a.significand.addingReportingOverflow(b.significand)
        guard !o, sum.magnitude <= Self.maxSignificand.magnitude else { throw Overflow() }
        return ExactDecimal(significand: sum, scale: s)
    }

    public func subtracting(_ other: ExactDecimal) throws(Overflow) -> ExactDecimal {
        try adding(other.negated)
    }

    /// The exact product; fails only when it needs more than 38 digits.
    public func multiplied(by other: ExactDecimal) throws(Overflow) -> ExactDecimal {
        let a = normalized, b = other.normalized
        let (p, o) = a.significand.multipliedReportingOverflow(by: b.significand)
        guard !o, p.magnitude <= Self.maxSignificand.magnitude else { throw Overflow() }
        var result = ExactDecimal(significand: p, scale: a.scale + b.scale)
        if result.scale > Self.maxScale {
            result = result.normalized
            guard result.scale <= Self.maxScale else { throw Overflow() }
        }
        return result
    }

    /// Rounds half-even to `newScale` fractional digits (no-op when already that fine).
    public func rounded(toScale newScale: Int) -> ExactDecimal {
        guard newScale < scale else { return self }
        let divisor = pow10[scale - newScale]
        return ExactDecimal(significand: Self.divideHalfEven(significand, divisor), scale: newScale)
    }

    /// `n / d` rounded half-even; `d > 0`.
    @usableFromInline
    static func divideHalfEven(_ n: Int128, _ d: Int128) -> Int128 {
        var q = n / d
        let r = n % d
        let twice = r.magnitude * 2
        if twice > d.magnitude || (twice == d.magnitude && q % 2 != 0) {
            q += n < 0 ? -1 : 1
        }
        return q
    }

    /// Plain decimal text: `-1234.50`, no grouping, no exponent. Keeps the scale.
    public var description: String {
        var bytes: [UInt8] = []
        appendDescription(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `description`'s UTF-8 bytes to `out` (renderers write thousands of amounts
    /// without a `String` for each).
    public func appendDescription(to out: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: ExactDecimal.descriptionBytes) { buffer in
            guard let base = buffer.baseAddress else { return }
            out.append(contentsOf: UnsafeBufferPointer(start: base, count: writeDescription(to: base)))
        }
    }

    /// The most bytes `description` takes: a sign, 39 digits and a point, or `0.` and 38 decimals.
    public static let descriptionBytes = 42

    /// Writes `description`'s UTF-8 bytes at `out` (room for `descriptionBytes`) and returns how
    /// many it wrote: the digits worked out 19 at a time in 64-bit words.
    @inlinable
    public func writeDescription(to out: UnsafeMutablePointer<UInt8>) -> Int {
        // Up to 39 digits (Int128), least significant first, in 40 bytes.
        var digits: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)
        return withUnsafeMutableBytes(of: &digits) { raw in
            var count = 0
            var m = significand.magnitude
            let chunk: UInt128 = 10_000_000_000_000_000_000   // 10^19
            repeat {
                // Below 10^19 (nearly every amount) no 128-bit division is needed.
                let (q, r) = m < chunk ? (0, m) : m.quotientAndRemainder(dividingBy: chunk)
                var word = UInt64(r)
                let last = q == 0
                // A lower 19-digit word keeps its leading zeros; the last one does not.
                var n = 0
                repeat {
                    raw[count] = UInt8(ascii: "0") &+ UInt8(word % 10)
                    word /= 10
                    count += 1
                    n += 1
                } while last ? word > 0 : n < 19
                m = q
            } while m > 0
            var at = 0
            if significand < 0 { out[at] = UInt8(ascii: "-"); at += 1 }
            let whole = count - scale
            if whole <= 0 {
                out[at] = UInt8(ascii: "0"); out[at + 1] = UInt8(ascii: "."); at += 2
                for _ in 0 ..< -whole { out[at] = UInt8(ascii: "0"); at += 1 }
                for i in stride(from: count - 1, through: 0, by: -1) { out[at] = raw[i]; at += 1 }
                return at
            }
            for i in stride(from: count - 1, through: count - whole, by: -1) { out[at] = raw[i]; at += 1 }
            if scale > 0 {
                out[at] = UInt8(ascii: "."); at += 1
                for i in stride(from: scale - 1, through: 0, by: -1) { out[at] = raw[i]; at += 1 }
            }
            return at
        }
    }

    /// Parses a JSON-style number (`-12.5`, `1e3`, `0.10`). Fails on anything that
    /// is not such a number, or that needs more than 38 digits or a scale over 38.
    public init?(_ text: String) {
        var text = text
        let parsed = text.withUTF8 { buffer in
            ExactDecimal.parse(buffer)
        }
        guard case .success(let value) = parsed else { return nil }
        self = value
    }

    public enum ParseFailure: Error, Sendable, Equatable {
        case notANumber
        /// More significant digits or a larger exponent than 38 digits can hold.
        case notExact
    }

    /// What a refusal says of `text`, a number that is `.notExact`: the one wording of the
    /// ledger, rate files and bank statements (docs/ledger-format.md#numbers).
    public static func notExactMessage(_ text: String) -> String {
        "\(text) cannot be held exactly (at most \(maxDigits) significant digits and \(maxScale) decimals); it is refused rather than rounded"
    }

    /// Parses the JSON number grammar `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
    /// over exactly the given bytes.
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<ExactDecimal, ParseFailure> {
        if let quick = parseShort(bytes) { return .success(quick) }
        var i = 0
        let n = bytes.count
        var negative = false
        if i < n && bytes[i] == UInt8(ascii: "-") { negative = true; i += 1 }
        guard i < n, isDigit(bytes[i]) else { return .failure(.notANumber) }
        if bytes[i] == UInt8(ascii: "0") && i + 1 < n && isDigit(bytes[i + 1]) { return .failure(.notANumber) }
        var sig: Int128 = 0
        var digitCount = 0  // significant digits accumulated (leading zeros skipped)
        var scale = 0
        var droppedNonZero = false
        // Zeros of the integer part past the digit budget: a power of ten, not digits
        // (1 and fifty zeros, e50 less, is 1).
        var extraZeros = 0
        while i < n && isDigit(bytes[i]) {
            let d = bytes[i] &- 48
            if sig != 0 || d != 0 {
                if digitCount == maxDigits {
                    if d == 0 { extraZeros += 1 } else { droppedNonZero = true }
                } else {
                    sig = sig &* 10 &+ Int128(d); digitCount += 1
                }
            }
            i += 1
        }
        if i < n && bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard i < n, isDigit(bytes[i]) else { return .failure(.notANumber) }
            // Trailing zeros of the fraction carry no value; keep them out of the digit budget.
            var end = i
            while end < n && isDigit(bytes[end]) { end += 1 }
            var lastNonZero = end
            while lastNonZero > i && bytes[lastNonZero - 1] == UInt8(ascii: "0") { lastNonZero -= 1 }
            var j = i
            while j < lastNonZero {
                let d = bytes[j] &- 48
                if sig != 0 || d != 0 {
                    if digitCount == maxDigits { droppedNonZero = true } else { sig = sig &* 10 &+ Int128(d); digitCount += 1 }
                }
                scale += 1
                j += 1
            }
            i = end
        }
        var exponent = 0
        if i < n && (bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E")) {
            i += 1
            var expNegative = false
            if i < n && (bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-")) {
                expNegative = bytes[i] == UInt8(ascii: "-"); i += 1
            }
            guard i < n, isDigit(bytes[i]) else { return .failure(.notANumber) }
            while i < n && isDigit(bytes[i]) {
                if exponent < 100_000 { exponent = exponent * 10 + Int(bytes[i] &- 48) }
                i += 1
            }
            if expNegative { exponent = -exponent }
        }
        guard i == n else { return .failure(.notANumber) }
        if droppedNonZero { return .failure(.notExact) }
        if sig == 0 { return .success(.zero) }
        // value = sig × 10^(exponent + extraZeros - scale)
        var effectiveScale = scale - exponent - extraZeros
        if extraZeros > 0 { while effectiveScale > 0 && sig % 10 == 0 { sig /= 10; effectiveScale -= 1 } }
        if effectiveScale < 0 {
            guard digitCount - effectiveScale <= maxDigits else { return .failure(.notExact) }
            sig *= pow10[-effectiveScale]
            effectiveScale = 0
        }
        // Trailing zeros of the integer part may bring a large scale back in range.
        while effectiveScale > maxScale && sig % 10 == 0 { sig /= 10; effectiveScale -= 1 }
        guard effectiveScale <= maxScale else { return .failure(.notExact) }
        return .success(ExactDecimal(significand: negative ? -sig : sig, scale: effectiveScale))
    }

    /// The common case in 64 bits: at most 18 digits, an optional fraction, no exponent.
    /// Nil for anything else, which `parse` then reads the long way (and judges).
    @inline(__always)
    static func parseShort(_ bytes: UnsafeBufferPointer<UInt8>) -> ExactDecimal? {
        let n = bytes.count
        guard n > 0, n <= 20 else { return nil }
        var i = 0
        let negative = bytes[0] == UInt8(ascii: "-")
        if negative { i = 1 }
        guard i < n, isDigit(bytes[i]) else { return nil }
        // A leading zero may only stand alone before the point.
        if bytes[i] == UInt8(ascii: "0") && i + 1 < n && bytes[i + 1] != UInt8(ascii: ".") { return nil }
        var v: UInt64 = 0
        var digits = 0
        while i < n && isDigit(bytes[i]) { v = v &* 10 &+ UInt64(bytes[i] &- 48); digits += 1; i += 1 }
        var scale = 0
        if i < n {
            guard bytes[i] == UInt8(ascii: "."), i + 1 < n else { return nil }
            i += 1
            while i < n && isDigit(bytes[i]) { v = v &* 10 &+ UInt64(bytes[i] &- 48); digits += 1; scale += 1; i += 1 }
            guard i == n else { return nil }
        }
        guard digits <= 18 else { return nil }
        while scale > 0 && v % 10 == 0 { v /= 10; scale -= 1 }
        let sig = Int128(v)
        return ExactDecimal(significand: negative ? -sig : sig, scale: v == 0 ? 0 : scale)
    }

    @inline(__always)
    static func isDigit(_ b: UInt8) -> Bool { b &- 48 < 10 }
}

extension ExactDecimal: Comparable, Hashable {
    public static func == (a: ExactDecimal, b: ExactDecimal) -> Bool {
        compare(a, b) == 0
    }

    public static func < (a: ExactDecimal, b: ExactDecimal) -> Bool {
        compare(a, b) < 0
    }

    public func hash(into hasher: inout Hasher) {
        let n = normalized
        hasher.combine(n.significand)
        hasher.combine(n.scale)
    }

    static func compare(_ a: ExactDecimal, _ b: ExactDecimal) -> Int {
        if a.significand.signum() != b.significand.signum() {
            return a.significand.signum() < b.significand.signum() ? -1 : 1
        }
        let s = max(a.scale, b.scale)
        // A product of two decimals may carry a scale past 38: then only the wide path can align.
        if s - a.scale <= maxScale && s - b.scale <= maxScale {
            let (x, ox) = a.significand.multipliedReportingOverflow(by: pow10[s - a.scale])
            let (y, oy) = b.significand.multipliedReportingOverflow(by: pow10[s - b.scale])
            if !ox && !oy { return x < y ? -1 : (x == y ? 0 : 1) }
        }
        // Alignment overflowed 128 bits: compare wide.
        let wx = BigInt(a.significand) * BigInt(10).power(s - a.scale)
        let wy = BigInt(b.significand) * BigInt(10).power(s - b.scale)
        return wx < wy ? -1 : (wx == wy ? 0 : 1)
    }
}

/// Powers of ten that fit in `Int128`: 10^0 ... 10^38.
public let pow10: [Int128] = {
    var table: [Int128] = [1]
    for _ in 1...38 { table.append(table[table.count - 1] * 10) }
    return table
}()
