// A conversion factor between two currencies, kept as an exact fraction.
//
// A rate straight from the ledger is `n / 1`. An inverse (`1 / n`), a cross rate
// inside a snapshot (`rates[Y] / rates[X]`) and a two-leg chain (a product of
// two fractions) stay fractions until a `factor` is needed: then one division
// gives the quotient to 34 significant digits (at least 28 are promised: docs/conversion.md#exactness), and
// every amount times that factor is an exact product.

import BigInt

public struct Rate: Hashable, Sendable, CustomStringConvertible {
    /// 1 unit of the source currency = numerator / denominator units of the target.
    public var numerator: ExactDecimal
    public var denominator: ExactDecimal

    public init(_ value: ExactDecimal) {
        numerator = value
        denominator = .one
    }

    public init(numerator: ExactDecimal, denominator: ExactDecimal) {
        self.numerator = numerator
        self.denominator = denominator
    }

    public var inverse: Rate { Rate(numerator: denominator, denominator: numerator) }

    /// The composition of two legs (`X→C` then `C→Y`), exactly; nil only where the product, in
    /// lowest terms, needs more than 38 digits above or below the line (legs of 20 digits and
    /// more): never a rounded product taken as exact.
    public func then(_ next: Rate) -> Rate? {
        // The products of the terms, nearly always; else the product in lowest terms, which holds
        // 2.01…01 × 0.5 as 2.01…01 / 2 and a product past 10^38 or under 10^-38 with its powers of ten.
        if let n = try? numerator.multiplied(by: next.numerator), let d = try? denominator.multiplied(by: next.denominator) {
            return Rate(numerator: n, denominator: d)
        }
        let (a, b) = (fraction, next.fraction)
        return Rate(exactly: Fraction(a.numerator * b.numerator, a.denominator * b.denominator))
    }

    /// A positive fraction as two decimals of at most 38 digits each (a power of ten moved to
    /// whichever side has room), exactly; nil where its lowest terms need more.
    init?(exactly f: Fraction) {
        let g = f.numerator.greatestCommonDivisor(with: f.denominator)
        guard g != 0 else { return nil }
        var n = f.numerator / g, d = f.denominator / g
        guard n > 0, d > 0 else { return nil }
        // n/d × 10^(a − b), with no zeros left at the end of n or d.
        var a = 0, b = 0
        while n % 10 == 0 { n /= 10; a += 1 }
        while d % 10 == 0 { d /= 10; b += 1 }
        let max = ExactDecimal.maxDigits
        let (nDigits, dDigits) = (n.description.count, d.description.count)
        guard nDigits <= max, dDigits <= max, let n128 = n.exactInt128, let d128 = d.exactInt128 else { return nil }
        // 10^e: zeros after n and a scale on d, or a scale on n and zeros after d.
        let e = a - b
        let (nZeros, dScale) = e >= 0 ? (Swift.min(e, max - nDigits), e - Swift.min(e, max - nDigits)) : (0, 0)
        let (nScale, dZeros) = e < 0 ? (Swift.min(-e, ExactDecimal.maxScale), -e - Swift.min(-e, ExactDecimal.maxScale)) : (0, 0)
        guard dScale <= ExactDecimal.maxScale, dZeros <= max - dDigits else { return nil }
        numerator = ExactDecimal(significand: n128 * pow10[nZeros], scale: nScale)
        denominator = ExactDecimal(significand: d128 * pow10[dZeros], scale: dScale)
    }

    public var isExactDecimal: Bool { denominator == .one }

    /// Significant digits a quotient rate (an inverse, a cross rate, a chain) keeps: at least
    /// 28 are promised (docs/conversion.md#exactness). Amounts are then multiplied by this decimal, and those products are exact.
    public static let quotientDigits = 34

    /// What amounts are multiplied by: the rate itself when it is a decimal, else the quotient
    /// to `quotientDigits` significant digits, rounded half-even.
    public var factor: ExactDecimal? { factorAndExactness?.factor }

    /// `factor`, and whether it is the rate exactly (a decimal, or a quotient that terminates
    /// within its digits). Worked out with one 256-by-128-bit division; rates too far from 1
    /// for that take the wide path.
    public var factorAndExactness: (factor: ExactDecimal, isExact: Bool)? {
        if denominator == .one { return (numerator, true) }
        if let fast = quotient256() { return fast }
        guard let f = decimalValue(significantDigits: Rate.quotientDigits) else { return nil }
        return (f, Fraction(f) == fraction)
    }

    /// Decimal digits of a positive integer.
    static func digits(_ x: UInt128) -> Int {
        var n = 1
        while n < 39 && x >= UInt128(pow10[n]) { n += 1 }
        return n
    }

    /// The quotient to `quotientDigits` significant digits in 256-bit arithmetic, or nil when it
    /// does not fit that path (the caller then divides wide).
    func quotient256() -> (factor: ExactDecimal, isExact: Bool)? {
        guard numerator.significand > 0, denominator.significand > 0 else { return nil }
        let n = UInt128(numerator.significand), d = UInt128(denominator.significand)
        let digits = Rate.quotientDigits
        var k = digits - (Rate.digits(n) - Rate.digits(d))
        for _ in 0..<2 {
            guard k >= 0, k <= 2 * ExactDecimal.maxDigits else { return nil }
            // n × 10^k in 256 bits, in two steps when 10^k passes 128 bits.
            let first = min(k, ExactDecimal.maxDigits)
            var (high, low) = n.multipliedFullWidth(by: UInt128(pow10[first]))
            if k > first {
                let m = UInt128(pow10[k - first])
                let (hh, hl) = high.multipliedFullWidth(by: m)
                let (lh, ll) = low.multipliedFullWidth(by: m)
                let (h, o) = hl.addingReportingOverflow(lh)
                guard hh == 0, !o else { return nil }
                (high, low) = (h, ll)
            }
            guard high < d else { return nil }
            var (q, r) = d.dividingFullWidth((high: high, low: low))
            let twice = r << 1
            if twice > d || (twice == d && q & 1 == 1) { q += 1 }
            if q >= UInt128(pow10[digits]) { k -= 1; continue }
            var scale = k + numerator.scale - denominator.scale
            var sig = q
            while scale > 0 && sig % 10 == 0 { sig /= 10; scale -= 1 }
            guard scale >= 0, scale <= ExactDecimal.maxScale else { return nil }
            return (ExactDecimal(significand: Int128(sig), scale: scale), r == 0)
        }
        return nil
    }

    /// The rate as a decimal with `digits` significant digits (exact when it is one), rounded
    /// half-even once from the exact quotient. Fewer digits only below 10^-10, where the 38-decimal
    /// scale runs out; nil for a quotient beyond 10^38, which no decimal here can hold.
    public func decimalValue(significantDigits digits: Int = 28) -> ExactDecimal? {
        if denominator == .one { return numerator }
        let (n, d) = wideTerms
        func quotient(_ s: Int) -> BigInt { WideDecimal.divideHalfEven(n * BigInt(10).power(s), d) }
        func length(_ q: BigInt) -> Int { q.magnitude.description.count }
        var scale = min(max(digits - (length(n) - length(d)), 0), ExactDecimal.maxScale)
        var q = quotient(scale)
        while length(q) > digits && scale > 0 { scale -= 1; q = quotient(scale) }
        while length(q) < digits && scale < ExactDecimal.maxScale {
            let next = quotient(scale + 1)
            if length(next) > digits { break }
            scale += 1
            q = next
        }
        guard let sig = q.exactInt128, sig.magnitude <= ExactDecimal.maxSignificand.magnitude else { return nil }
        return ExactDecimal(significand: sig, scale: scale).normalized
    }

    /// The rate as shown: a decimal where one holds it exactly or to 28 significant digits, else
    /// (10^38 or more, or a quotient below 10^-10, whose 28 digits pass the 38th decimal) its 28
    /// significant digits and a power of ten, `1.25E+40`, `3.333333333333333333333333333E-16`.
    /// Never 0: no rate is.
    public enum Shown: Sendable, Equatable {
        case decimal(ExactDecimal)
        case scientific(String)
    }

    public var shown: Shown {
        // From 10^-10 up, 28 significant digits end by the 38th decimal.
        if let d = decimalValue(), !d.isZero, d >= ExactDecimal(significand: 1, scale: 10) || Fraction(d) == fraction { return .decimal(d) }
        return .scientific(scientificText())
    }

    /// The quotient as two integers at one scale, n ÷ d.
    private var wideTerms: (n: BigInt, d: BigInt) {
        (BigInt(numerator.significand) * BigInt(10).power(denominator.scale), BigInt(denominator.significand) * BigInt(10).power(numerator.scale))
    }

    /// `digits` significant digits of the quotient, half-even, and its power of ten (`1.25E+40`, `3E-45`).
    public func scientificText(significantDigits digits: Int = 28) -> String {
        let (n, d) = wideTerms
        guard n > 0, d > 0 else { return "0" }
        func length(_ q: BigInt) -> Int { q.description.count }
        func scaled(_ x: BigInt, _ k: Int) -> BigInt { k > 0 ? x * BigInt(10).power(k) : x }
        // n ÷ d lies in [10^e, 10^(e+1)).
        var e = length(n) - length(d)
        if scaled(n, -e) < scaled(d, e) { e -= 1 }
        let shift = digits - 1 - e
        var q = WideDecimal.divideHalfEven(scaled(n, shift), scaled(d, -shift))
        if length(q) > digits { q /= 10; e += 1 }
        var text = q.description
        while text.count > 1, text.hasSuffix("0") { text.removeLast() }
        let mantissa = text.count == 1 ? text : String(text.prefix(1)) + "." + text.dropFirst()
        return mantissa + "E" + (e < 0 ? "-" : "+") + String(abs(e))
    }

    public var description: String {
        switch shown {
        case .decimal(let d): return d.normalized.description
        case .scientific(let s): return s
        }
    }
}

/// A decimal with a wide (arbitrary-size) significand: the accumulator of converted sums.
public struct WideDecimal: Sendable {
    public var significand: BigInt
    public var scale: Int

    public init(_ significand: BigInt, scale: Int) {
        self.significand = significand
        self.scale = scale
    }

    public init(_ d: ExactDecimal) {
        self.init(BigInt(d.significand), scale: d.scale)
    }

    public static let zero = WideDecimal(BigInt(0), scale: 0)

    public func rescaled(to s: Int) -> WideDecimal {
        if s == scale { return self }
        if s > scale { return WideDecimal(significand * BigInt(10).power(s - scale), scale: s) }
        return WideDecimal(WideDecimal.divideHalfEven(significand, BigInt(10).power(scale - s)), scale: s)
    }

    public static func + (a: WideDecimal, b: WideDecimal) -> WideDecimal {
        let s = max(a.scale, b.scale)
        return WideDecimal(a.rescaled(to: s).significand + b.rescaled(to: s).significand, scale: s)
    }

    /// `n / d` rounded half-even; `d > 0`.
    public static func divideHalfEven(_ n: BigInt, _ d: BigInt) -> BigInt {
        let (q, r) = n.quotientAndRemainder(dividingBy: d)
        let twice = r.magnitude * 2
        if twice > d.magnitude || (twice == d.magnitude && !q.isMultiple(of: 2)) {
            return n.signum() < 0 ? q - 1 : q + 1
        }
        return q
    }

    /// Rounded half-even to `scale` decimals; nil when the result exceeds 38 digits.
    public func rounded(toScale s: Int) -> ExactDecimal? {
        let r = rescaled(to: s)
        guard let sig = r.significand.exactInt128, sig.magnitude <= ExactDecimal.maxSignificand.magnitude else { return nil }
        return ExactDecimal(significand: sig, scale: s)
    }

    /// The closest decimal with at most `digits` significant digits and scale ≤ 38;
    /// nil when the integer part alone needs more than 38 digits.
    public func approximated(significantDigits digits: Int) -> ExactDecimal? {
        var w = self
        let length = w.significand.magnitude.description.count
        if length > digits {
            w = w.rescaled(to: max(0, w.scale - (length - digits)))
        }
        if w.scale > ExactDecimal.maxScale { w = w.rescaled(to: ExactDecimal.maxScale) }
        // Rounding up may add a digit (999… → 1000…); drop one more when it does.
        if w.significand.magnitude.description.count > ExactDecimal.maxDigits { w = w.rescaled(to: w.scale - 1) }
        // A whole number of 39 digits or more has no such decimal (a scale below 0 is none).
        guard w.scale >= 0, let sig = w.significand.exactInt128, sig.magnitude <= ExactDecimal.maxSignificand.magnitude else { return nil }
        return ExactDecimal(significand: sig, scale: w.scale).normalized
    }
}

extension WideDecimal: Comparable {
    public static func == (a: WideDecimal, b: WideDecimal) -> Bool {
        let s = max(a.scale, b.scale)
        return a.rescaled(to: s).significand == b.rescaled(to: s).significand
    }

    public static func < (a: WideDecimal, b: WideDecimal) -> Bool {
        let s = max(a.scale, b.scale)
        return a.rescaled(to: s).significand < b.rescaled(to: s).significand
    }
}

extension BigInt {
    /// The value as an `Int128`, or nil when it does not fit. Read from the magnitude's words
    /// and the sign, not through the generic `Int128(exactly:)`, which gets large negative
    /// BigInts wrong (-2^64 - 1 comes back as -1).
    public var exactInt128: Int128? {
        var value: UInt128 = 0
        for (i, word) in magnitude.words.enumerated() {
            if i >= 2 { if word != 0 { return nil } else { continue } }
            value |= UInt128(word) << (64 * i)
        }
        if sign == .minus {
            guard value <= UInt128(Int128.max) + 1 else { return nil }
            return value == UInt128(Int128.max) + 1 ? Int128.min : -Int128(value)
        }
        guard value <= UInt128(Int128.max) else { return nil }
        return Int128(value)
    }
}
