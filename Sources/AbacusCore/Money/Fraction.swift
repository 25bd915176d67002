// Exact rationals and 256-bit integers: the two tools that keep conversion exact.
//
// Amounts are multiplied by a rate's decimal factor, and those products are summed
// in 256 bits (`Int256`). A factor is exact when the rate is a decimal; a quotient
// rate (an inverse, a cross rate inside a snapshot, a chain) has a factor carrying
// 34 significant digits, off by at most half a unit in its last place. That error
// is tracked, and a result whose rounding it could change — only a result within
// a hair of a rounding tie, such as 85.26 INR at 84 INR per USD, exactly $1.015 —
// is worked out again as a `Fraction`, so every figure Abacus prints is the exact
// value rounded once, half-even.

import BigInt

/// A signed 256-bit integer: the exact product of two 128-bit integers, and sums of them.
@frozen
public struct Int256: Comparable, Sendable {
    public var high: Int128
    public var low: UInt128

    @inlinable @inline(__always)
    public init(high: Int128, low: UInt128) {
        self.high = high
        self.low = low
    }

    @inlinable @inline(__always)
    public init(_ v: Int128) {
        high = v < 0 ? -1 : 0
        low = UInt128(truncatingIfNeeded: v)
    }

    /// `a × b`, exactly. Amounts nearly always fit 64 bits: then the product is two 64-by-64-bit
    /// multiplications, signed, where a checked 128-bit multiply is a slow library call; no
    /// branch on the signs (amounts of both signs would mispredict it).
    @inlinable @inline(__always)
    public init(_ a: Int128, times b: Int128) {
        let a64 = Int64(truncatingIfNeeded: a)
        guard _fastPath(Int128(a64) == a) else {
            let w = a.multipliedFullWidth(by: b)
            self.init(high: w.high, low: w.low)
            return
        }
        let bl = UInt64(truncatingIfNeeded: b), bh = Int64(truncatingIfNeeded: b >> 64)
        // a × bl (bl unsigned), in 128 bits: the unsigned product less bl·2^64 when a is negative.
        var (h1, l1) = UInt64(bitPattern: a64).multipliedFullWidth(by: bl)
        h1 &-= bl & UInt64(bitPattern: a64 >> 63)
        // a × bh, both signed, in 128 bits.
        let (h2, l2) = a64.multipliedFullWidth(by: bh)
        // a × b = a × bl + (a × bh)·2^64, each sign-extended to four limbs:
        // [l1, h1, s1, s1] + [0, l2, h2, s2].
        let s1 = UInt64(bitPattern: Int64(bitPattern: h1) >> 63), s2 = UInt64(bitPattern: h2 >> 63)
        let (r1, c1) = h1.addingReportingOverflow(l2)
        let (t2, c2) = UInt64(bitPattern: h2).addingReportingOverflow(s1)
        let (r2, c3) = t2.addingReportingOverflow(c1 ? 1 : 0)
        let r3 = s1 &+ s2 &+ (c2 ? 1 : 0) &+ (c3 ? 1 : 0)
        self.init(high: Int128(bitPattern: UInt128(r3) << 64 | UInt128(r2)), low: UInt128(r1) << 64 | UInt128(l1))
    }

    /// Made where it is used, not a stored constant: reading a stored one from another module
    /// goes through a call that checks it was initialised (`swift_once`), in loops over groups.
    @inlinable
    public static var zero: Int256 { Int256(high: 0, low: 0) }

    /// Adds, reporting an overflow past 2^255 instead of wrapping.
    @inlinable @inline(__always)
    public mutating func add(_ other: Int256) -> Bool {
        let (newLow, carry) = low.addingReportingOverflow(other.low)
        // No branch on the carry (sums of both signs carry half the time): the high halves and
        // the carry added in one wrapping sum, which overflowed when both halves had one sign
        // and it has the other.
        let sum = high &+ other.high &+ Int128(truncatingIfNeeded: carry ? 1 : 0)
        let overflowed = (high ^ sum) & (other.high ^ sum) < 0
        low = newLow
        high = sum
        return overflowed
    }

    public var big: BigInt { (BigInt(high) << 128) + BigInt(low) }

    /// The value as an Int128, when it fits.
    @inlinable
    public var int128: Int128? {
        let small = Int128(truncatingIfNeeded: low)
        return high == (small < 0 ? -1 : 0) ? small : nil
    }

    /// The value times 10^k, or nil past 255 bits.
    @inlinable
    public func timesPowerOfTen(_ k: Int) -> Int256? {
        // Nearly always a value of 64 bits times at most 10^38: two 64-bit multiplications, inline.
        if k <= 38, let small = int128, let v = Int64(exactly: small) { return Int256(Int128(v), times: pow10[k]) }
        return timesPowerOfTenStepwise(k)
    }

    /// `timesPowerOfTen` of a value past 64 bits, or of a power past 10^38.
    @usableFromInline
    func timesPowerOfTenStepwise(_ k: Int) -> Int256? {
        var v = self
        var k = k
        while k > 0 {
            let step = Swift.min(k, 38)
            guard let next = v.multipliedReportingOverflow(by: UInt128(pow10[step])) else { return nil }
            v = next
            k -= step
        }
        return v
    }

    /// The value times a positive 128-bit factor, or nil past 255 bits.
    func multipliedReportingOverflow(by m: UInt128) -> Int256? {
        let negative = high < 0
        // Magnitude as two UInt128 halves.
        var (mh, ml) = (UInt128(bitPattern: high), low)
        if negative { ml = ~ml &+ 1; mh = ~mh &+ (ml == 0 ? 1 : 0) }
        let (lh, ll) = ml.multipliedFullWidth(by: m)
        let (hh, hl) = mh.multipliedFullWidth(by: m)
        let (h, o) = hl.addingReportingOverflow(lh)
        guard hh == 0, !o, h < UInt128(1) << 127 else { return nil }
        var (rh, rl) = (h, ll)
        if negative { rl = ~rl &+ 1; rh = ~rh &+ (rl == 0 ? 1 : 0) }
        return Int256(high: Int128(bitPattern: rh), low: rl)
    }

    @inlinable @inline(__always)
    public static func < (a: Int256, b: Int256) -> Bool {
        a.high != b.high ? a.high < b.high : a.low < b.low
    }

    /// The value negated, or nil for -2^255.
    public var negated: Int256? {
        guard !(high == .min && low == 0) else { return nil }
        let l = ~low &+ 1
        return Int256(high: ~high &+ (l == 0 ? 1 : 0), low: l)
    }

    /// The value divided by 10^digits, rounded half-even (to the nearest, ties to the even
    /// neighbour, alike on both sides of zero): what `WideDecimal.rescaled` does with a BigInt,
    /// here on four 64-bit limbs, one division per limb and step of 19 digits (`LimbDivisor`).
    public func roundedHalfEven(droppingDigits digits: Int) -> Int256 {
        guard digits > 0 else { return self }
        let negative = high < 0
        var limbs = magnitudeLimbs
        // Every dropped digit but the last, remembering whether any was not zero; then the last.
        var sticky = false
        var left = digits - 1
        while left > 0 {
            let k = Swift.min(left, 19)
            if LimbDivisor.powerOfTen[k].divide(&limbs) != 0 { sticky = true }
            left -= k
        }
        let last = LimbDivisor.ten.divide(&limbs)
        let q = Int256.magnitude(limbs)
        let up = last > 5 || (last == 5 && (sticky || limbs.0 & 1 == 1))
        return Int256.signed(up ? q.incremented : q, negative: negative)
    }

    /// The magnitude split at 10^digits (1...38): |value| = quotient × 10^digits + remainder.
    public func magnitudeSplit(atDigits digits: Int) -> (quotient: Int256, remainder: UInt128) {
        var limbs = magnitudeLimbs
        guard digits > 19 else {
            let r = LimbDivisor.powerOfTen[digits].divide(&limbs)
            return (Int256.magnitude(limbs), UInt128(r))
        }
        let r1 = LimbDivisor.powerOfTen[19].divide(&limbs)
        let r2 = LimbDivisor.powerOfTen[digits - 19].divide(&limbs)
        return (Int256.magnitude(limbs), UInt128(r2) * UInt128(pow10[19]) + UInt128(r1))
    }

    /// The value divided by a positive 64-bit `n`, truncated toward zero, and whether anything
    /// was left over: an average's 256-bit approximation (one hardware division a limb).
    public func dividedTruncating(by n: UInt64) -> (quotient: Int256, inexact: Bool) {
        precondition(n > 0)
        var limbs = magnitudeLimbs
        var r: UInt64 = 0
        (limbs.3, r) = n.dividingFullWidth((r, limbs.3))
        (limbs.2, r) = n.dividingFullWidth((r, limbs.2))
        (limbs.1, r) = n.dividingFullWidth((r, limbs.1))
        (limbs.0, r) = n.dividingFullWidth((r, limbs.0))
        // Below 2^255 unless the value was -2^255 and n 1, which negates to itself.
        return (Int256.signed(Int256.magnitude(limbs), negative: high < 0), r != 0)
    }

    /// The magnitude (that of -2^255 is 2^255, fine unsigned), least significant limb first.
    private var magnitudeLimbs: (UInt64, UInt64, UInt64, UInt64) {
        let negative = high < 0
        let ml = negative ? ~low &+ 1 : low
        let mh = negative ? ~UInt128(bitPattern: high) &+ (ml == 0 ? 1 : 0) : UInt128(bitPattern: high)
        return (UInt64(truncatingIfNeeded: ml), UInt64(truncatingIfNeeded: ml >> 64),
                UInt64(truncatingIfNeeded: mh), UInt64(truncatingIfNeeded: mh >> 64))
    }

    private static func magnitude(_ limbs: (UInt64, UInt64, UInt64, UInt64)) -> Int256 {
        Int256(high: Int128(bitPattern: UInt128(limbs.3) << 64 | UInt128(limbs.2)), low: UInt128(limbs.1) << 64 | UInt128(limbs.0))
    }

    /// A magnitude with a digit dropped (below 2^252) plus one.
    var incremented: Int256 {
        let (l, carry) = low.addingReportingOverflow(1)
        return Int256(high: high &+ (carry ? 1 : 0), low: l)
    }

    /// A magnitude with a digit dropped (below 2^252: its negation exists) with a sign.
    static func signed(_ magnitude: Int256, negative: Bool) -> Int256 {
        negative ? (magnitude.negated ?? magnitude) : magnitude
    }
}

/// A 64-bit divisor with its reciprocal worked out once, so that dividing by it takes two
/// multiplications instead of a division (Möller and Granlund, "Improved division by
/// invariant integers", 2011, algorithm 4): a 128-by-64-bit division that Swift cannot prove
/// fits 64 bits becomes a library call several times slower.
struct LimbDivisor {
    /// The divisor shifted left until its top bit is set, and by how much.
    let normalized: UInt64
    let shift: Int
    /// ⌊(2^128 − 1) / normalized⌋ − 2^64.
    let reciprocal: UInt64

    init(_ d: UInt64) {
        precondition(d > 0)
        shift = d.leadingZeroBitCount
        normalized = d << shift
        let (q, _) = (UInt128(~normalized) << 64 | UInt128(UInt64.max)).quotientAndRemainder(dividingBy: UInt128(normalized))
        reciprocal = UInt64(truncatingIfNeeded: q)
    }

    static let ten = LimbDivisor(10)
    /// 10^0 ... 10^19.
    static let powerOfTen: [LimbDivisor] = (0...19).map { LimbDivisor(UInt64(pow10[$0])) }

    /// (high, low) ÷ normalized, for high < normalized: the quotient and remainder.
    @inline(__always)
    private func step(_ high: UInt64, _ low: UInt64) -> (UInt64, UInt64) {
        let p = reciprocal.multipliedFullWidth(by: high)
        let (q0, carry) = p.low.addingReportingOverflow(low)
        var q1 = p.high &+ high &+ (carry ? 1 : 0) &+ 1
        var r = low &- q1 &* normalized
        if r > q0 { q1 &-= 1; r &+= normalized }
        if _slowPath(r >= normalized) { q1 &+= 1; r &-= normalized }
        return (q1, r)
    }

    /// Divides four limbs (least significant first) by the divisor in place; the remainder.
    @inline(__always)
    func divide(_ limbs: inout (UInt64, UInt64, UInt64, UInt64)) -> UInt64 {
        var r: UInt64
        if limbs.3 == 0 && limbs.2 == 0 {
            // Below 2^128 (nearly every sum of money): the top limbs' quotient limbs are zero and
            // leave no remainder, so two steps do.
            guard shift > 0 else {
                (limbs.1, r) = step(0, limbs.1)
                (limbs.0, r) = step(r, limbs.0)
                return r
            }
            let s = UInt64(shift), back = 64 - s
            r = limbs.1 >> back
            let u1 = limbs.1 << s | limbs.0 >> back, u0 = limbs.0 << s
            (limbs.1, r) = step(r, u1)
            (limbs.0, r) = step(r, u0)
            return r >> s
        }
        guard shift > 0 else {
            r = 0
            (limbs.3, r) = step(r, limbs.3)
            (limbs.2, r) = step(r, limbs.2)
            (limbs.1, r) = step(r, limbs.1)
            (limbs.0, r) = step(r, limbs.0)
            return r
        }
        // The dividend shifted as the divisor was: five limbs, the top one below the divisor.
        let s = UInt64(shift), back = 64 - s
        r = limbs.3 >> back
        let u3 = limbs.3 << s | limbs.2 >> back, u2 = limbs.2 << s | limbs.1 >> back
        let u1 = limbs.1 << s | limbs.0 >> back, u0 = limbs.0 << s
        (limbs.3, r) = step(r, u3)
        (limbs.2, r) = step(r, u2)
        (limbs.1, r) = step(r, u1)
        (limbs.0, r) = step(r, u0)
        return r >> s
    }
}

/// An exact rational number `numerator / denominator`, denominator positive.
public struct Fraction: Sendable, Comparable {
    public var numerator: BigInt
    public var denominator: BigInt

    public init(_ numerator: BigInt, _ denominator: BigInt) {
        precondition(denominator != 0)
        if denominator < 0 {
            self.numerator = -numerator
            self.denominator = -denominator
        } else {
            self.numerator = numerator
            self.denominator = denominator
        }
    }

    public init(_ w: WideDecimal) {
        self.init(w.significand, BigInt(10).power(w.scale))
    }

    public init(_ d: ExactDecimal) {
        self.init(WideDecimal(d))
    }

    public static let zero = Fraction(BigInt(0), BigInt(1))

    public static func + (a: Fraction, b: Fraction) -> Fraction {
        if a.denominator == b.denominator { return Fraction(a.numerator + b.numerator, a.denominator) }
        let g = a.denominator.greatestCommonDivisor(with: b.denominator)
        let bd = b.denominator / g
        return Fraction(a.numerator * bd + b.numerator * (a.denominator / g), a.denominator * bd)
    }

    public static func * (a: Fraction, b: BigInt) -> Fraction {
        Fraction(a.numerator * b, a.denominator)
    }

    public func divided(by n: Int) -> Fraction {
        Fraction(numerator, denominator * BigInt(n))
    }

    public static func < (a: Fraction, b: Fraction) -> Bool {
        a.numerator * b.denominator < b.numerator * a.denominator
    }

    public static func == (a: Fraction, b: Fraction) -> Bool {
        a.numerator * b.denominator == b.numerator * a.denominator
    }

    /// Rounded half-even to `scale` decimals; nil past 38 digits.
    public func rounded(toScale scale: Int) -> ExactDecimal? {
        let q = WideDecimal.divideHalfEven(numerator * BigInt(10).power(scale), denominator)
        return WideDecimal(q, scale: scale).rounded(toScale: scale)
    }
}

extension Rate {
    /// The rate as an exact fraction.
    public var fraction: Fraction {
        Fraction(BigInt(numerator.significand) * BigInt(10).power(denominator.scale),
                 BigInt(denominator.significand) * BigInt(10).power(numerator.scale))
    }

    /// `amount × 10^-scale` converted at this rate, exactly.
    public func converted(_ amount: BigInt, scale: Int) -> Fraction {
        let f = fraction
        return Fraction(f.numerator * amount, f.denominator * BigInt(10).power(scale))
    }
}

/// A value computed with quotient factors: `approximate` is within `error` of the exact
/// value, which `exact` can work out when the rounding of the approximation is in doubt.
///
/// Nearly always both fit 256 bits (a group's sum of a million converted amounts does): then
/// they are kept as `Int256`s and rounded with 64-bit divisions, and their BigInt forms are
/// made only when asked for. Past 256 bits, everything is done in BigInt.
public struct BoundedValue {
    /// The 256-bit form: `approximate` at `scale`, `error` at `scale + 1` (in ½ units).
    private var small: (approximate: Int256, error: Int256, scale: Int)?
    private var wide: (approximate: WideDecimal, error: WideDecimal)

    public var approximate: WideDecimal {
        if let small { return WideDecimal(small.approximate.big, scale: small.scale) }
        return wide.approximate
    }

    /// Non-negative; zero when `approximate` is exact.
    public var error: WideDecimal {
        if let small { return WideDecimal(small.error.big, scale: small.scale + 1) }
        return wide.error
    }

    /// Whether `approximate` is the value itself.
    public var isExact: Bool { small.map { $0.error == .zero } ?? (wide.error.significand == 0) }

    public init(approximate: WideDecimal, error: WideDecimal = .zero) {
        wide = (approximate, error)
    }

    /// `approximate` at `scale`, within `error` (non-negative) at `scale + 1`.
    public init(approximate: Int256, scale: Int, error: Int256) {
        small = (approximate, error, scale)
        wide = (.zero, .zero)
    }

    /// Rounded half-even to `scale` decimals when every value within the error rounds the
    /// same way; nil when the exact value is needed to decide (or past 38 digits).
    public func roundedIfCertain(toScale scale: Int) -> ExactDecimal? {
        if let small, let r = BoundedValue.roundedIfCertain(small.approximate, scale: small.scale, error: small.error, toScale: scale) { return r }
        let approximate = self.approximate, error = self.error
        guard let r = approximate.rounded(toScale: scale) else { return nil }
        if error.significand == 0 { return r }
        let low = approximate + WideDecimal(-error.significand, scale: error.scale)
        let high = approximate + error
        guard let a = low.rounded(toScale: scale), let b = high.rounded(toScale: scale), a == r, b == r else { return nil }
        return r
    }

    /// `approximate` at `scale`, within `error` (non-negative) at `scale + 1`, rounded half-even
    /// to `target` decimals in 256 bits, with no bounded value made: `.some(nil)` when the exact
    /// value is needed to decide (or past 38 digits); nil when 256 bits cannot tell and the
    /// BigInt form must.
    public static func roundedIfCertain(_ approximate: Int256, scale: Int, error: Int256, toScale target: Int) -> ExactDecimal?? {
        guard target <= scale else { return nil }
        let drop = scale - target
        if error == .zero { return .some(decimal(approximate.roundedHalfEven(droppingDigits: drop), scale: target)) }
        // Nearly always the error, brought up to the approximation's scale (a bound a little wider),
        // settles it with no multiplication of the approximation by ten; when it does not, the
        // exact bound at the error's scale decides below.
        if drop > 0, error.high == 0, case let r?? = roundedIfCertain(approximate, within: Int256(high: 0, low: error.low / 10 + (error.low % 10 == 0 ? 0 : 1)), droppingDigits: drop) {
            return .some(decimal(r, scale: target))
        }
        // The approximation and both ends of its error, at the error's scale.
        guard let a = approximate.timesPowerOfTen(1) else { return nil }
        if let r = roundedIfCertain(a, within: error, droppingDigits: drop + 1) { return .some(r.flatMap { decimal($0, scale: target) }) }
        guard let e = error.negated else { return nil }
        var low = a, high = a
        guard !low.add(e), !high.add(error) else { return nil }
        let r = a.roundedHalfEven(droppingDigits: drop + 1)
        guard low.roundedHalfEven(droppingDigits: drop + 1) == r, high.roundedHalfEven(droppingDigits: drop + 1) == r else { return .some(nil) }
        return .some(decimal(r, scale: target))
    }

    /// `a` with `digits` (1...38) dropped, rounded half-even, when every value within `e` of it
    /// rounds the same: one division of `a` where rounding it and both ends of its error would
    /// take three. `.some(nil)`: in doubt; nil: the error is too wide to tell here.
    static func roundedIfCertain(_ a: Int256, within e: Int256, droppingDigits digits: Int) -> Int256?? {
        guard digits <= 38, e.high == 0 else { return nil }
        let d = UInt128(pow10[digits]), half = d / 2, e = e.low
        guard e < d else { return nil }
        let (q, t) = a.magnitudeSplit(atDigits: digits)
        // Near zero an end may have the other sign: the general path decides.
        guard !(q == .zero && t < e) else { return nil }
        let odd = q.low & 1 == 1
        /// Where q·10^digits + x (x in [0, 10^digits)) rounds, as an offset from q; `odd` is q's parity.
        func offset(_ x: UInt128, odd: Bool) -> Int { x > half || (x == half && odd) ? 1 : 0 }
        let centre = offset(t, odd: odd)
        let low = t >= e ? offset(t - e, odd: odd) : offset(t + d - e, odd: !odd) - 1
        let high = t + e < d ? offset(t + e, odd: odd) : offset(t + e - d, odd: !odd) + 1
        guard low == centre, high == centre else { return .some(nil) }
        return Int256.signed(centre == 1 ? q.incremented : q, negative: a.high < 0)
    }

    /// `v` at `scale`, or nil past 38 digits.
    private static func decimal(_ v: Int256, scale: Int) -> ExactDecimal? {
        guard let sig = v.int128, sig.magnitude <= ExactDecimal.maxSignificand.magnitude else { return nil }
        return ExactDecimal(significand: sig, scale: scale)
    }
}
