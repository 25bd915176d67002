// Units: every family of the list (metric length, imperial length, across the two;
// metric mass, imperial mass, across; temperature both ways), each answer worked out
// by hand from the definitions (1 in = 0.0254 m, 1 lb = 0.45359237 kg, K = C + 273.15,
// F = C × 9/5 + 32). Exact when the answer terminates within 10 decimals, else 10
// significant digits, half-even.

import Testing
@testable import AbacusCore

@Suite struct UnitTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var amount: String
        var from: String
        var to: String
        var shown: String
        var exact: Bool
        var testDescription: String { "\(amount) \(from) → \(to)" }
    }

    static let cases: [Case] = [
        // Metric length: 1500 mm = 1.5 m.
        Case(amount: "1500", from: "mm", to: "m", shown: "1.5", exact: true),
        // 2.5 km = 250000 cm.
        Case(amount: "2.5", from: "km", to: "cm", shown: "250000", exact: true),
        // Imperial length: 1 yd = 3 ft = 36 in; 1 mi = 1760 yd = 5280 ft.
        Case(amount: "1", from: "yd", to: "in", shown: "36", exact: true),
        Case(amount: "1", from: "mi", to: "ft", shown: "5280", exact: true),
        // Across: 1 in = 2.54 cm; 3 mi = 3 × 1609.344 m = 4828.032 m = 4.828032 km exactly.
        Case(amount: "1", from: "in", to: "cm", shown: "2.54", exact: true),
        Case(amount: "3", from: "mi", to: "km", shown: "4.828032", exact: true),
        // 10 km = 10000 / 1609.344 mi = 6.21371192237… → 6.213711922 (10 significant digits).
        Case(amount: "10", from: "km", to: "mi", shown: "6.213711922", exact: false),
        // 100 cm = 1 / 0.0254 in = 39.3700787401… → 39.37007874.
        Case(amount: "100", from: "cm", to: "in", shown: "39.37007874", exact: false),
        // 1 m = 1 / 0.3048 ft = 3.28083989501… → 3.280839895.
        Case(amount: "1", from: "m", to: "ft", shown: "3.280839895", exact: false),
        // Metric mass: 1000 mg = 1 g; 1 lb = 453.59237 g.
        Case(amount: "1000", from: "mg", to: "g", shown: "1", exact: true),
        Case(amount: "1", from: "lb", to: "g", shown: "453.59237", exact: true),
        // Imperial mass: 1 lb = 16 oz; 1 st = 14 lb.
        Case(amount: "1", from: "lb", to: "oz", shown: "16", exact: true),
        Case(amount: "2", from: "st", to: "lb", shown: "28", exact: true),
        // Across: 1 st = 14 × 0.45359237 kg = 6.35029318 kg; 1 oz = 453.59237 / 16 g = 28.349523125 g.
        Case(amount: "1", from: "st", to: "kg", shown: "6.35029318", exact: true),
        Case(amount: "1", from: "oz", to: "g", shown: "28.349523125", exact: true),
        // 5 kg = 5 / 0.45359237 lb = 11.0231131092… → 11.02311311.
        Case(amount: "5", from: "kg", to: "lb", shown: "11.02311311", exact: false),
        // 100 g = 100 / 28.349523125 oz = 3.52739619495… → 3.527396195.
        Case(amount: "100", from: "g", to: "oz", shown: "3.527396195", exact: false),
        // 1 kg = 1 / 6.35029318 st = 0.157473044417… → 0.1574730444 (10 significant digits after the zero).
        Case(amount: "1", from: "kg", to: "st", shown: "0.1574730444", exact: false),
        // Temperature: 72 F = (72 − 32) × 5/9 C = 200/9 = 22.222… → 22.22222222.
        Case(amount: "72", from: "F", to: "C", shown: "22.22222222", exact: false),
        // 98.6 F = 66.6 × 5/9 = 37 C; 100 C = 100 × 9/5 + 32 = 212 F; −40 is −40 in both.
        Case(amount: "98.6", from: "F", to: "C", shown: "37", exact: true),
        Case(amount: "100", from: "C", to: "F", shown: "212", exact: true),
        Case(amount: "-40", from: "C", to: "F", shown: "-40", exact: true),
        // 0 C = 273.15 K; 300 K = 26.85 C = 26.85 × 9/5 + 32 = 80.33 F; 0 K = −459.67 F.
        Case(amount: "0", from: "C", to: "K", shown: "273.15", exact: true),
        Case(amount: "300", from: "K", to: "F", shown: "80.33", exact: true),
        Case(amount: "0", from: "K", to: "F", shown: "-459.67", exact: true),
        // 10 significant digits whatever the magnitude. 123456789123 km = 123456789123000 / 1609.344 mi
        // = 76712492247.15… → 76712492250: past ten digits before the point, the rest round to zeros,
        // with no exponent (not 76712492247, eleven digits).
        Case(amount: "123456789123", from: "km", to: "mi", shown: "76712492250", exact: false),
        // 1234567891234567 km = 767124922474354.1467… mi → 767124922500000 (not 767124922474354).
        Case(amount: "1234567891234567", from: "km", to: "mi", shown: "767124922500000", exact: false),
        // 12345678901234567890123456789012 m = 40504195870192151870483782116181.10… ft: 32 digits before
        // the point, more with 10 decimals than 38 digits hold, yet 10 significant digits fit.
        Case(amount: "12345678901234567890123456789012", from: "m", to: "ft", shown: "40504195870000000000000000000000", exact: false),
        // Small: 1 mm = 0.001 / 1609.344 mi = 0.00000062137119223… → 0.0000006213711922.
        Case(amount: "1", from: "mm", to: "mi", shown: "0.0000006213711922", exact: false),
        // As small as 10 significant digits can be held: 38 decimals. 10^-22 mm = 10^-25 / 1609.344 mi
        // = 6.21371192237…e-29 → 0.00000000000000000000000000006213711922.
        Case(amount: "0.0000000000000000000001", from: "mm", to: "mi", shown: "0.00000000000000000000000000006213711922", exact: false),
        // 49.999999999999 F = 17.999999999999 × 5/9 C = 9.99999999999944… rounds up to ten: 10.00000000,
        // 10 significant digits, not 10.000000000.
        Case(amount: "49.999999999999", from: "F", to: "C", shown: "10.00000000", exact: false),
        // An exact answer of any length stays exact: 10^18 mm = 10^12 km.
        Case(amount: "1000000000000000000", from: "mm", to: "km", shown: "1000000000000", exact: true),
        // Names in other spellings and cases.
        Case(amount: "2", from: "Kilograms", to: "pounds", shown: "4.409245244", exact: false),
        Case(amount: "1", from: "°C", to: "kelvin", shown: "274.15", exact: true),
    ]

    @Test(arguments: cases)
    func converts(_ c: Case) throws {
        let r = try UnitConversion.convert(try #require(ExactDecimal(c.amount)), from: c.from, to: c.to)
        #expect(r.value.description == c.shown)
        #expect(r.exact == c.exact)
    }

    @Test func resultNamesItsUnits() throws {
        let r = try UnitConversion.convert(ExactDecimal(5), from: "kg", to: "lb")
        #expect(r.from.symbol == "kg" && r.from.name == "kilogram")
        #expect(r.to.symbol == "lb" && r.to.kind == .mass)
    }

    /// Below 10^-28 a result's 10 significant digits need more than 38 decimals: an error, never
    /// the decimals that fit (10^-38 in = 1.578…e-44 mi was shown as 0, and 10^-31 mg in lb with 2 digits).
    @Test func aResultTooSmallForItsDigitsIsAnError() throws {
        for (amount, from, to) in [("0.00000000000000000000000000000000000001", "in", "mi"), ("-0.00000000000000000000000000000000000001", "in", "mi"),
                                   ("0.0000000000000000000000000000001", "mg", "lb"), ("0.00000000000000000000001", "mm", "mi")] {
            #expect(throws: UnitError.tooSmall, "\(amount) \(from)") { try UnitConversion.convert(try #require(ExactDecimal(amount)), from: from, to: to) }
        }
        #expect(UnitError.tooSmall.description.contains("10 significant digits need more than 38 decimals"))
        // One that ends within 10 decimals is exact however small its unit: 10^-10 km = 0.0000001 m.
        #expect(try UnitConversion.convert(try #require(ExactDecimal("0.0000000001")), from: "km", to: "m").value.description == "0.0000001")
    }

    @Test func differentKindsNameBoth() {
        #expect(throws: UnitError.self) { try UnitConversion.convert(ExactDecimal(5), from: "kg", to: "km") }
        do {
            _ = try UnitConversion.convert(ExactDecimal(5), from: "kg", to: "km")
        } catch {
            #expect(error.description == "cannot convert kg (mass) to km (length): a mass converts only to another unit of mass")
        }
    }

    @Test func aUnitAndACurrencyNameBoth() {
        #expect(throws: UnitError.unitAndCurrency(UnitConversion.unit(named: "kg")!, Currency(code: "USD")!, unitFirst: true)) {
            try UnitConversion.convert(ExactDecimal(5), from: "kg", to: "USD")
        }
        do {
            _ = try UnitConversion.convert(ExactDecimal(5), from: "kg", to: "usd")
            Issue.record("kg to usd converted")
        } catch {
            #expect(error.description == "cannot convert kg (mass) to USD (a currency): a mass converts only to another unit of mass")
        }
        do {
            _ = try UnitConversion.convert(ExactDecimal(5), from: "USD", to: "kg")
            Issue.record("USD to kg converted")
        } catch {
            #expect(error.description == "cannot convert USD (a currency) to kg (mass): a currency converts only to another currency")
        }
        // A word that is neither stays an unknown unit, near ones suggested.
        #expect(throws: UnitError.unknownUnit("USF", suggestion: nil)) { try UnitConversion.convert(ExactDecimal(1), from: "kg", to: "USF") }
        #expect(throws: UnitError.unknownUnit("kgg", suggestion: "kg")) { try UnitConversion.convert(ExactDecimal(1), from: "kgg", to: "USD") }
    }

    @Test func belowAbsoluteZeroIsRefused() {
        #expect(throws: UnitError.belowAbsoluteZero(ExactDecimal(-300), UnitConversion.unit(named: "C")!)) {
            try UnitConversion.convert(ExactDecimal(-300), from: "C", to: "F")
        }
    }

    @Test func unknownUnitSuggestsANearOne() {
        #expect(throws: UnitError.unknownUnit("kgg", suggestion: "kg")) { try UnitConversion.convert(ExactDecimal(1), from: "kgg", to: "lb") }
        #expect(throws: UnitError.unknownUnit("parsec", suggestion: nil)) { try UnitConversion.convert(ExactDecimal(1), from: "km", to: "parsec") }
    }

    @Test func namesForCompletion() {
        let names = UnitConversion.names
        for symbol in ["mm", "cm", "m", "km", "in", "ft", "yd", "mi", "mg", "g", "kg", "oz", "lb", "st", "C", "F", "K"] {
            #expect(names.contains(symbol))
        }
        #expect(Set(names.map { $0.lowercased() }).count == names.count, "no name means two units")
    }
}
