// Units of length, mass and temperature, converted exactly (`convert 5 kg to lb`).
//
// Every unit is an exact affine map onto its kind's base unit (metre, kilogram,
// kelvin): base = amount × factor + offset, with factor and offset exact fractions
// taken from the definitions (1 in = 0.0254 m, 1 ft = 12 in, 1 yd = 3 ft,
// 1 mi = 1760 yd, 1 lb = 0.45359237 kg, 1 oz = 1/16 lb, 1 st = 14 lb,
// K = C + 273.15, F = C × 9/5 + 32). A conversion is worked out as a `Fraction`
// and rounded once: shown exactly when it terminates within 10 decimals, else to
// 10 significant digits, half-even, whatever its magnitude. Converting between
// kinds (a unit and a currency among them), or below absolute zero, is an error
// that says so.

import BigInt

public struct MeasureUnit: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        case length, mass, temperature
    }

    /// The symbol a result shows: `kg`, `mi`, `C`.
    public let symbol: String
    /// The English name: `kilogram`, `mile`, `degree Celsius`.
    public let name: String
    public let kind: Kind
    /// Other spellings accepted (`kilograms`, `lbs`, `°C`), compared without regard to case.
    public let aliases: [String]
    /// base = amount × factor + offset (base: metre, kilogram, kelvin).
    let factor: Fraction
    let offset: Fraction

    public var description: String { symbol }

    public static func == (a: MeasureUnit, b: MeasureUnit) -> Bool { a.symbol == b.symbol }
    public func hash(into hasher: inout Hasher) { hasher.combine(symbol) }
}

public enum UnitError: Error, Sendable, Equatable, CustomStringConvertible {
    case unknownUnit(String, suggestion: String?)
    case differentKinds(from: MeasureUnit, to: MeasureUnit)
    /// A unit on one side and an ISO 4217 currency code on the other (`convert 5 kg to USD`).
    case unitAndCurrency(MeasureUnit, Currency, unitFirst: Bool)
    /// A temperature below 0 K.
    case belowAbsoluteZero(ExactDecimal, MeasureUnit)
    /// A result beyond 38 digits.
    case tooLarge
    /// A result under 10^-28 that does not end: its 10 significant digits need more than 38 decimals.
    case tooSmall

    public var description: String {
        switch self {
        case .unknownUnit(let text, let suggestion):
            return "unknown unit '\(ShownText.shown(text))': expected one of " + UnitConversion.units.map(\.symbol).joined(separator: ", ")
                + (suggestion.map { "; did you mean \($0)?" } ?? "")
        case .differentKinds(let from, let to):
            return "cannot convert \(from.symbol) (\(from.kind.rawValue)) to \(to.symbol) (\(to.kind.rawValue)): a \(from.kind.rawValue) converts only to another unit of \(from.kind.rawValue)"
        case .unitAndCurrency(let unit, let currency, unitFirst: true):
            return "cannot convert \(unit.symbol) (\(unit.kind.rawValue)) to \(currency.code) (a currency): a \(unit.kind.rawValue) converts only to another unit of \(unit.kind.rawValue)"
        case .unitAndCurrency(let unit, let currency, unitFirst: false):
            return "cannot convert \(currency.code) (a currency) to \(unit.symbol) (\(unit.kind.rawValue)): a currency converts only to another currency"
        case .belowAbsoluteZero(let amount, let unit):
            return "\(amount) \(unit.symbol) is below absolute zero (0 K)"
        case .tooLarge:
            return "the result needs more than 38 digits and cannot be held exactly"
        case .tooSmall:
            return "the result is below 10^-28: its 10 significant digits need more than 38 decimals and cannot be held"
        }
    }
}

/// A conversion's result: `value` as shown, whether that is the exact answer, and the units.
public struct UnitConversionResult: Sendable, Equatable {
    public var value: ExactDecimal
    /// True when `value` is the answer exactly (it terminates within 10 decimals).
    public var exact: Bool
    public var from: MeasureUnit
    public var to: MeasureUnit
}

public enum UnitConversion {
    /// Significant digits of a result that does not terminate within `exactDecimals`.
    public static let significantDigits = 10
    public static let exactDecimals = 10

    private static func ratio(_ n: Int, _ d: Int = 1) -> Fraction { Fraction(BigInt(n), BigInt(d)) }
    private static func decimal(_ text: StaticString) -> Fraction {
        Fraction(ExactDecimal(text.description) ?? .zero)
    }

    /// Every unit, by kind, smallest first.
    public static let units: [MeasureUnit] = {
        let metre = ratio(1), inch = decimal("0.0254"), foot = inch * ratio(12), yard = foot * ratio(3), mile = yard * ratio(1760)
        let kilogram = ratio(1), pound = decimal("0.45359237"), ounce = pound * ratio(1, 16), stone = pound * ratio(14)
        func unit(_ symbol: String, _ name: String, _ kind: MeasureUnit.Kind, _ factor: Fraction, offset: Fraction = .zero, _ aliases: [String]) -> MeasureUnit {
            MeasureUnit(symbol: symbol, name: name, kind: kind, aliases: aliases, factor: factor, offset: offset)
        }
        return [
            unit("mm", "millimetre", .length, metre * ratio(1, 1000), ["millimetre", "millimetres", "millimeter", "millimeters"]),
            unit("cm", "centimetre", .length, metre * ratio(1, 100), ["centimetre", "centimetres", "centimeter", "centimeters"]),
            unit("m", "metre", .length, metre, ["metre", "metres", "meter", "meters"]),
            unit("km", "kilometre", .length, metre * ratio(1000), ["kilometre", "kilometres", "kilometer", "kilometers"]),
            unit("in", "inch", .length, inch, ["inch", "inches"]),
            unit("ft", "foot", .length, foot, ["foot", "feet"]),
            unit("yd", "yard", .length, yard, ["yard", "yards"]),
            unit("mi", "mile", .length, mile, ["mile", "miles"]),
            unit("mg", "milligram", .mass, kilogram * ratio(1, 1_000_000), ["milligram", "milligrams"]),
            unit("g", "gram", .mass, kilogram * ratio(1, 1000), ["gram", "grams"]),
            unit("kg", "kilogram", .mass, kilogram, ["kilogram", "kilograms", "kilo", "kilos"]),
            unit("oz", "ounce", .mass, ounce, ["ounce", "ounces"]),
            unit("lb", "pound", .mass, pound, ["lbs", "pound", "pounds"]),
            unit("st", "stone", .mass, stone, ["stone", "stones"]),
            // Kelvin is the base: K = C + 273.15 = (F + 459.67) × 5/9.
            unit("C", "degree Celsius", .temperature, ratio(1), offset: decimal("273.15"), ["°C", "celsius"]),
            unit("F", "degree Fahrenheit", .temperature, ratio(5, 9), offset: decimal("459.67") * ratio(5, 9), ["°F", "fahrenheit"]),
            unit("K", "kelvin", .temperature, ratio(1), ["kelvin", "kelvins"]),
        ]
    }()

    /// Every name a unit answers to, symbols first (for completion).
    public static let names: [String] = units.map(\.symbol) + units.flatMap(\.aliases)

    private static let byName: [String: MeasureUnit] = {
        var table: [String: MeasureUnit] = [:]
        for u in units {
            for n in [u.symbol] + u.aliases { table[n.lowercased()] = u }
        }
        return table
    }()

    /// The unit a word names (any letter case), or nil.
    public static func unit(named text: String) -> MeasureUnit? {
        byName[text.lowercased()]
    }

    /// The unit a word names, or the error that says what was expected.
    public static func unit(_ text: String) throws(UnitError) -> MeasureUnit {
        if let u = unit(named: text) { return u }
        throw .unknownUnit(text, suggestion: nearest(text, in: names))
    }

    /// `amount` of `from` in `to`: exact when the answer terminates within 10 decimals,
    /// else to 10 significant digits (half-even).
    public static func convert(_ amount: ExactDecimal, from: String, to: String) throws(UnitError) -> UnitConversionResult {
        // A currency code (any letter case, as statements take them) against a unit is a
        // conversion between kinds, not a misspelt unit: no "did you mean" for it.
        switch (unit(named: from), unit(named: to)) {
        case (let u?, nil): if let c = Currency(caseInsensitiveCode: to) { throw .unitAndCurrency(u, c, unitFirst: true) }
        case (nil, let u?): if let c = Currency(caseInsensitiveCode: from) { throw .unitAndCurrency(u, c, unitFirst: false) }
        default: break
        }
        let source = try unit(from), target = try unit(to)
        guard source.kind == target.kind else { throw .differentKinds(from: source, to: target) }
        let base = Fraction(amount) * source.factor + source.offset
        if source.kind == .temperature && base < .zero { throw .belowAbsoluteZero(amount, source) }
        let exact = (base - target.offset) / target.factor
        let (value, isExact) = try shown(exact)
        return UnitConversionResult(value: value, exact: isExact, from: source, to: target)
    }

    /// The decimal a result shows, and whether it is the result exactly.
    static func shown(_ x: Fraction) throws(UnitError) -> (ExactDecimal, Bool) {
        // Whether x ends within 10 decimals is asked of the fraction (x × 10^10 whole), not of a
        // rounding: a long result that does not end is shown to 10 significant digits even where
        // its 10 decimals would not fit 38 digits. One that ends but does not fit is too large.
        if (x.numerator * BigInt(10).power(exactDecimals)) % x.denominator == 0 {
            for scale in 0...exactDecimals {
                guard let r = x.rounded(toScale: scale) else { throw .tooLarge }
                if Fraction(r) == x { return (r.normalized, true) }
            }
        }
        // Not ending within 10 decimals: 10 significant digits whatever the magnitude. With
        // 10^e ≤ |x| < 10^(e+1) they are 9 − e decimals, one more for each zero after the point;
        // past ten digits before it, a whole number whose digits after the tenth are rounded to
        // zeros (76712492247.15… is 76712492250), as plain decimals are always shown, never with
        // an exponent.
        let e = exponent(of: x)
        let r = try rounded(x, decimals: significantDigits - 1 - e)
        // Rounding up to the next power of ten (9.99999999996 to 10.000000000) gains a digit
        // before the point: one decimal fewer keeps the 10 (10.00000000).
        if Fraction(r.magnitude) >= power(e + 1) { return (try rounded(x, decimals: significantDigits - 2 - e), false) }
        return (r, false)
    }

    /// e with 10^e ≤ |x| < 10^(e+1), for x not zero.
    private static func exponent(of x: Fraction) -> Int {
        let n = x.numerator.magnitude, d = x.denominator.magnitude
        if n >= d { return (n / d).description.count - 1 }
        var e = -1, shifted = n * 10
        while shifted < d {
            shifted *= 10
            e -= 1
        }
        return e
    }

    /// 10^e as a fraction.
    private static func power(_ e: Int) -> Fraction {
        e >= 0 ? Fraction(BigInt(10).power(e), BigInt(1)) : Fraction(BigInt(1), BigInt(10).power(-e))
    }

    /// x rounded half-even to `decimals` decimals; fewer than none rounds to a multiple of
    /// 10^-decimals (-1: tens). More than 38 decimals (10 significant digits of a result under
    /// 10^-28) cannot be held: an error, never the digits that fit (a tiny result shown as 0).
    private static func rounded(_ x: Fraction, decimals: Int) throws(UnitError) -> ExactDecimal {
        if decimals >= 0 {
            guard decimals <= ExactDecimal.maxScale else { throw .tooSmall }
            guard let r = x.rounded(toScale: decimals) else { throw .tooLarge }
            return r
        }
        let unit = BigInt(10).power(-decimals)
        guard let units = Fraction(x.numerator, x.denominator * unit).rounded(toScale: 0),
              let r = (Fraction(units) * unit).rounded(toScale: 0) else { throw .tooLarge }
        return r
    }
}

extension Fraction {
    static func * (a: Fraction, b: Fraction) -> Fraction {
        Fraction(a.numerator * b.numerator, a.denominator * b.denominator)
    }

    static func - (a: Fraction, b: Fraction) -> Fraction {
        a + Fraction(-b.numerator, b.denominator)
    }

    static func / (a: Fraction, b: Fraction) -> Fraction {
        Fraction(a.numerator * b.denominator, a.denominator * b.numerator)
    }
}
