// Units of length, mass and temperature, converted exactly (`convert 5 kg to lb`).
//
// Every unit is an exact affine map onto its kind's base unit (metre, kilogram,
// kelvin): base = amount × factor + offset, with factor and offset exact fractions
// taken from the definitions (1 in = 0.0254 m, 1 ft = 12 in, 1 yd = 3 ft,
// 1 mi = 1760 yd, 1 lb = 0.45359237 kg, 1 oz = 1/16 lb, 1 st = 14 lb,
// K = C + 273.15, F = C × 9/5 + 32). A conversion is worked out as a `Fraction`
// and rounded once: shown exactly when it terminates within 10 decimals, else to
// 10 significant digits, half-even. Converting between kinds, or below absolute
// zero, is an error that says so.

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
    /// A temperature below 0 K.
    case belowAbsoluteZero(ExactDecimal, MeasureUnit)
    /// A result beyond 38 digits.
    case tooLarge

    public var description: String {
        switch self {
        case .unknownUnit(let text, let suggestion):
            return "unknown unit '\(ShownText.shown(text))': expected one of " + UnitConversion.units.map(\.symbol).joined(separator: ", ")
                + (suggestion.map { "; did you mean \($0)?" } ?? "")
        case .differentKinds(let from, let to):
            return "cannot convert \(from.symbol) (\(from.kind.rawValue)) to \(to.symbol) (\(to.kind.rawValue)): a \(from.kind.rawValue) converts only to another unit of \(from.kind.rawValue)"
        case .belowAbsoluteZero(let amount, let unit):
            return "\(amount) \(unit.symbol) is below absolute zero (0 K)"
        case .tooLarge:
            return "the result needs more than 38 digits and cannot be held exactly"
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
        for scale in 0...exactDecimals {
            guard let r = x.rounded(toScale: scale) else { throw .tooLarge }
            if Fraction(r) == x { return (r.normalized, true) }
        }
        // Not terminating within 10 decimals: 10 significant digits. The scale that gives them
        // follows from the magnitude: one decimal fewer for each digit before the point, one more
        // for each zero after it.
        let magnitude = Fraction(x.numerator.magnitude.asSigned, x.denominator)
        var scale = significantDigits
        if magnitude < Fraction(BigInt(1), BigInt(1)) {
            var shifted = magnitude
            while shifted < Fraction(BigInt(1), BigInt(10)) && scale < ExactDecimal.maxScale {
                shifted = shifted * BigInt(10)
                scale += 1
            }
        } else {
            let integerDigits = (x.numerator.magnitude / x.denominator.magnitude).description.count
            scale = max(0, significantDigits - integerDigits)
        }
        guard let r = x.rounded(toScale: scale) else { throw .tooLarge }
        return (r, false)
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

private extension BigUInt {
    var asSigned: BigInt { BigInt(self) }
}
