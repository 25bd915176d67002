// Money display, currency by currency (the README's money display): every home locale of the spec's list plus
// ISO codes without one (KWD, BHD, IQD: 3 decimals; ISK: 0; CLF: 4), each through the same
// table of amounts: grouping, a negative, zero, half-even ties both ways at the minor unit,
// a value that rounds to zero from below, and an amount of 19+ digits.
//
// The expected strings are what Foundation's FormatStyle (ICU/CLDR, swift-foundation-icu on
// Linux) produces for `Decimal.FormatStyle.Currency(code:locale:)` with
// `.precision(.fractionLength(n)).rounded(rule: .toNearestOrEven)`, checked by hand against
// CLDR: lakh/crore grouping for en_IN, de_CH's `’` grouping and `CHF-` negative pattern,
// en_ZA's no-break-space grouping and decimal comma, ar_SA/ar_QA's Arabic-Indic digits with
// U+066C/U+066B separators, the right-to-left mark U+200F around Arabic amounts, and the
// minus signs U+200E- (ar_AE, Latin digits) and U+061C- (ar_SA, ar_QA, Arabic digits).
// Invisible and look-alike characters are written as escapes:
//   U+00A0 no-break space, U+200F RLM, U+200E LRM, U+061C ALM, U+2019 right single quote,
//   U+066B/U+066C Arabic decimal/thousands separators, U+00A5 yen sign.
// Two places where this machine's Foundation data differs from the newest upstream CLDR
// (CLDR 48, as in Node's ICU 78): ja_JP's yen is U+00A5 here (upstream U+FFE5 `￥`), and
// de_CH groups with U+2019 here (upstream U+0027). Abacus shows Foundation's, so do these.
//
// Abacus's own rules win over plain FormatStyle where they differ:
//   * a value that rounds to zero at the minor unit shows with no sign (FormatStyle alone
//     gives `-₹0.00`, `CHF-0.00`, `\u{200F}\u{200E}-0.00…`);
//   * the number of decimals is ISO 4217's minor unit (IQD 3, where CLDR's default is 0).

import AbacusCore
@testable import AbacusShell
import Foundation
import Testing

/// One amount of one currency and the text expected for it.
struct MoneyDisplayCase: Sendable, CustomTestStringConvertible {
    let value: String
    let code: String
    let expected: String
    let what: String

    var testDescription: String { "\(code) \(value) (\(what))" }
}

/// A currency's expected strings, one per kind of amount (see `MoneyDisplayTests.inputs`).
struct CurrencyRow: Sendable {
    let code: String
    /// ISO 4217 minor unit.
    let digits: Int
    let positive: String
    let negative: String
    let zero: String
    let tieDown: String
    let tieUp: String
    let large: String
}

@Suite struct MoneyDisplayTests {
    /// The amounts every currency is shown with, by ISO minor unit, in the order
    /// positive, negative, zero, tie down, tie up, rounds to zero from below,
    /// exact tie to zero from below, large.
    static func inputs(_ digits: Int) -> [String] {
        switch digits {
        case 0: ["1234567.891", "-1234567.891", "0", "2.5", "3.5", "-0.4", "-0.5", "12345678901234567.89"]
        case 3: ["1234567.891", "-1234567.891", "0", "2.3445", "2.3455", "-0.0004", "-0.0005", "12345678901234567.891"]
        case 4: ["1234567.891", "-1234567.891", "0", "2.34445", "2.34455", "-0.00004", "-0.00005", "12345678901234567.8912"]
        default: ["1234567.891", "-1234567.891", "0", "2.345", "2.355", "-0.004", "-0.005", "12345678901234567.89"]
        }
    }

    static let kinds = ["grouping", "negative", "zero", "half-even tie down", "half-even tie up",
                        "rounds to zero from below", "tie to zero from below", "large"]

    static let rows: [CurrencyRow] = [
        CurrencyRow(code: "INR", digits: 2,
                    positive: "₹12,34,567.89", negative: "-₹12,34,567.89", zero: "₹0.00",
                    tieDown: "₹2.34", tieUp: "₹2.36", large: "₹12,34,56,78,90,12,34,567.89"),
        CurrencyRow(code: "USD", digits: 2,
                    positive: "$1,234,567.89", negative: "-$1,234,567.89", zero: "$0.00",
                    tieDown: "$2.34", tieUp: "$2.36", large: "$12,345,678,901,234,567.89"),
        CurrencyRow(code: "EUR", digits: 2,
                    positive: "€1,234,567.89", negative: "-€1,234,567.89", zero: "€0.00",
                    tieDown: "€2.34", tieUp: "€2.36", large: "€12,345,678,901,234,567.89"),
        CurrencyRow(code: "GBP", digits: 2,
                    positive: "£1,234,567.89", negative: "-£1,234,567.89", zero: "£0.00",
                    tieDown: "£2.34", tieUp: "£2.36", large: "£12,345,678,901,234,567.89"),
        // en_CA, en_AU, en_SG, en_NZ: the local dollar is plain `$`; en_HK's is `HK$`.
        CurrencyRow(code: "CAD", digits: 2,
                    positive: "$1,234,567.89", negative: "-$1,234,567.89", zero: "$0.00",
                    tieDown: "$2.34", tieUp: "$2.36", large: "$12,345,678,901,234,567.89"),
        CurrencyRow(code: "AUD", digits: 2,
                    positive: "$1,234,567.89", negative: "-$1,234,567.89", zero: "$0.00",
                    tieDown: "$2.34", tieUp: "$2.36", large: "$12,345,678,901,234,567.89"),
        CurrencyRow(code: "SGD", digits: 2,
                    positive: "$1,234,567.89", negative: "-$1,234,567.89", zero: "$0.00",
                    tieDown: "$2.34", tieUp: "$2.36", large: "$12,345,678,901,234,567.89"),
        CurrencyRow(code: "HKD", digits: 2,
                    positive: "HK$1,234,567.89", negative: "-HK$1,234,567.89", zero: "HK$0.00",
                    tieDown: "HK$2.34", tieUp: "HK$2.36", large: "HK$12,345,678,901,234,567.89"),
        // No decimals: 1234567.891 → 1,234,568; ties 2.5 → 2 and 3.5 → 4.
        CurrencyRow(code: "JPY", digits: 0,
                    positive: "\u{A5}1,234,568", negative: "-\u{A5}1,234,568", zero: "\u{A5}0",
                    tieDown: "\u{A5}2", tieUp: "\u{A5}4", large: "\u{A5}12,345,678,901,234,568"),
        // de_CH: `CHF` + no-break space, `’` grouping, negative pattern `¤-#,##0.00`.
        CurrencyRow(code: "CHF", digits: 2,
                    positive: "CHF\u{A0}1\u{2019}234\u{2019}567.89", negative: "CHF-1\u{2019}234\u{2019}567.89",
                    zero: "CHF\u{A0}0.00", tieDown: "CHF\u{A0}2.34", tieUp: "CHF\u{A0}2.36",
                    large: "CHF\u{A0}12\u{2019}345\u{2019}678\u{2019}901\u{2019}234\u{2019}567.89"),
        // ar_AE: Latin digits, RLM … no-break space, symbol, RLM; minus is LRM + `-`.
        CurrencyRow(code: "AED", digits: 2,
                    positive: "\u{200F}1,234,567.89\u{A0}د.إ.\u{200F}",
                    negative: "\u{200F}\u{200E}-1,234,567.89\u{A0}د.إ.\u{200F}",
                    zero: "\u{200F}0.00\u{A0}د.إ.\u{200F}",
                    tieDown: "\u{200F}2.34\u{A0}د.إ.\u{200F}", tieUp: "\u{200F}2.36\u{A0}د.إ.\u{200F}",
                    large: "\u{200F}12,345,678,901,234,567.89\u{A0}د.إ.\u{200F}"),
        // ar_SA, ar_QA: Arabic-Indic digits, U+066C grouping, U+066B decimal; minus is ALM + `-`.
        CurrencyRow(code: "SAR", digits: 2,
                    positive: "\u{200F}١\u{66C}٢٣٤\u{66C}٥٦٧\u{66B}٨٩\u{A0}ر.س.\u{200F}",
                    negative: "\u{61C}-\u{200F}١\u{66C}٢٣٤\u{66C}٥٦٧\u{66B}٨٩\u{A0}ر.س.\u{200F}",
                    zero: "\u{200F}٠\u{66B}٠٠\u{A0}ر.س.\u{200F}",
                    tieDown: "\u{200F}٢\u{66B}٣٤\u{A0}ر.س.\u{200F}", tieUp: "\u{200F}٢\u{66B}٣٦\u{A0}ر.س.\u{200F}",
                    large: "\u{200F}١٢\u{66C}٣٤٥\u{66C}٦٧٨\u{66C}٩٠١\u{66C}٢٣٤\u{66C}٥٦٧\u{66B}٨٩\u{A0}ر.س.\u{200F}"),
        CurrencyRow(code: "QAR", digits: 2,
                    positive: "\u{200F}١\u{66C}٢٣٤\u{66C}٥٦٧\u{66B}٨٩\u{A0}ر.ق.\u{200F}",
                    negative: "\u{61C}-\u{200F}١\u{66C}٢٣٤\u{66C}٥٦٧\u{66B}٨٩\u{A0}ر.ق.\u{200F}",
                    zero: "\u{200F}٠\u{66B}٠٠\u{A0}ر.ق.\u{200F}",
                    tieDown: "\u{200F}٢\u{66B}٣٤\u{A0}ر.ق.\u{200F}", tieUp: "\u{200F}٢\u{66B}٣٦\u{A0}ر.ق.\u{200F}",
                    large: "\u{200F}١٢\u{66C}٣٤٥\u{66C}٦٧٨\u{66C}٩٠١\u{66C}٢٣٤\u{66C}٥٦٧\u{66B}٨٩\u{A0}ر.ق.\u{200F}"),
        CurrencyRow(code: "NZD", digits: 2,
                    positive: "$1,234,567.89", negative: "-$1,234,567.89", zero: "$0.00",
                    tieDown: "$2.34", tieUp: "$2.36", large: "$12,345,678,901,234,567.89"),
        // en_ZA: `R` + no-break space, no-break-space grouping, decimal comma.
        CurrencyRow(code: "ZAR", digits: 2,
                    positive: "R\u{A0}1\u{A0}234\u{A0}567,89", negative: "-R\u{A0}1\u{A0}234\u{A0}567,89",
                    zero: "R\u{A0}0,00", tieDown: "R\u{A0}2,34", tieUp: "R\u{A0}2,36",
                    large: "R\u{A0}12\u{A0}345\u{A0}678\u{A0}901\u{A0}234\u{A0}567,89"),
        // No home locale: en_US, the ISO code as symbol, ISO 4217's minor unit.
        CurrencyRow(code: "KWD", digits: 3,
                    positive: "KWD\u{A0}1,234,567.891", negative: "-KWD\u{A0}1,234,567.891", zero: "KWD\u{A0}0.000",
                    tieDown: "KWD\u{A0}2.344", tieUp: "KWD\u{A0}2.346", large: "KWD\u{A0}12,345,678,901,234,567.891"),
        CurrencyRow(code: "BHD", digits: 3,
                    positive: "BHD\u{A0}1,234,567.891", negative: "-BHD\u{A0}1,234,567.891", zero: "BHD\u{A0}0.000",
                    tieDown: "BHD\u{A0}2.344", tieUp: "BHD\u{A0}2.346", large: "BHD\u{A0}12,345,678,901,234,567.891"),
        CurrencyRow(code: "ISK", digits: 0,
                    positive: "ISK\u{A0}1,234,568", negative: "-ISK\u{A0}1,234,568", zero: "ISK\u{A0}0",
                    tieDown: "ISK\u{A0}2", tieUp: "ISK\u{A0}4", large: "ISK\u{A0}12,345,678,901,234,568"),
        // 1234567.891 padded to four decimals.
        CurrencyRow(code: "CLF", digits: 4,
                    positive: "CLF\u{A0}1,234,567.8910", negative: "-CLF\u{A0}1,234,567.8910", zero: "CLF\u{A0}0.0000",
                    tieDown: "CLF\u{A0}2.3444", tieUp: "CLF\u{A0}2.3446", large: "CLF\u{A0}12,345,678,901,234,567.8912"),
        // ISO 4217 gives IQD 3 decimals; CLDR's default is 0. The ISO minor unit wins (the README's money display).
        CurrencyRow(code: "IQD", digits: 3,
                    positive: "IQD\u{A0}1,234,567.891", negative: "-IQD\u{A0}1,234,567.891", zero: "IQD\u{A0}0.000",
                    tieDown: "IQD\u{A0}2.344", tieUp: "IQD\u{A0}2.346", large: "IQD\u{A0}12,345,678,901,234,567.891"),
    ]

    static var formatCases: [MoneyDisplayCase] {
        rows.flatMap { r in
            // Abacus rule: both values below zero round to zero and show exactly like zero,
            // without the sign plain FormatStyle would keep.
            let expected = [r.positive, r.negative, r.zero, r.tieDown, r.tieUp, r.zero, r.zero, r.large]
            return zip(zip(inputs(r.digits), expected), kinds).map { pair, kind in
                MoneyDisplayCase(value: pair.0, code: r.code, expected: pair.1, what: kind)
            }
        }
    }

    /// `plain` depends only on the minor unit: no symbol, no grouping, `.` decimal, padded.
    static func plainExpected(_ digits: Int) -> [String] {
        switch digits {
        case 0: ["1234568", "-1234568", "0", "2", "4", "0", "0", "12345678901234568"]
        case 3: ["1234567.891", "-1234567.891", "0.000", "2.344", "2.346", "0.000", "0.000", "12345678901234567.891"]
        case 4: ["1234567.8910", "-1234567.8910", "0.0000", "2.3444", "2.3446", "0.0000", "0.0000",
                 "12345678901234567.8912"]
        default: ["1234567.89", "-1234567.89", "0.00", "2.34", "2.36", "0.00", "0.00", "12345678901234567.89"]
        }
    }

    static var plainCases: [MoneyDisplayCase] {
        rows.flatMap { r in
            zip(zip(inputs(r.digits), plainExpected(r.digits)), kinds).map { pair, kind in
                MoneyDisplayCase(value: pair.0, code: r.code, expected: pair.1, what: kind)
            }
        }
    }

    @Test(arguments: formatCases)
    func formatsInTheHomeLocale(_ c: MoneyDisplayCase) throws {
        let v = try #require(ExactDecimal(c.value))
        let currency = try #require(Currency(code: c.code))
        #expect(MoneyFormat().format(v, currency) == c.expected)
    }

    @Test(arguments: plainCases)
    func plainTextForMachines(_ c: MoneyDisplayCase) throws {
        let v = try #require(ExactDecimal(c.value))
        let currency = try #require(Currency(code: c.code))
        #expect(MoneyFormat.plain(v, currency) == c.expected)
    }

    @Test(arguments: rows.map { ($0.code, $0.digits) })
    func minorUnitsAreISO4217(code: String, digits: Int) throws {
        #expect(try #require(Currency(code: code)).minorUnits == digits)
    }

    @Test func homeLocalesAreSpecSection5s() {
        #expect(MoneyFormat.homeLocales == [
            "INR": "en_IN", "USD": "en_US", "EUR": "en_IE", "GBP": "en_GB", "CAD": "en_CA", "AUD": "en_AU",
            "SGD": "en_SG", "HKD": "en_HK", "JPY": "ja_JP", "CHF": "de_CH", "AED": "ar_AE", "SAR": "ar_SA",
            "QAR": "ar_QA", "NZD": "en_NZ", "ZAR": "en_ZA",
        ])
    }

    static let compactCases: [MoneyDisplayCase] = [
        MoneyDisplayCase(value: "1234567", code: "INR", expected: "₹12L", what: "lakh"),
        MoneyDisplayCase(value: "12345678", code: "INR", expected: "₹1.2Cr", what: "crore"),
        MoneyDisplayCase(value: "123456789", code: "INR", expected: "₹12Cr", what: "crore"),
        MoneyDisplayCase(value: "-1234567", code: "INR", expected: "-₹12L", what: "negative"),
        MoneyDisplayCase(value: "1234567", code: "USD", expected: "$1.2M", what: "million"),
        MoneyDisplayCase(value: "12345678", code: "USD", expected: "$12M", what: "million"),
        MoneyDisplayCase(value: "-1234567", code: "USD", expected: "-$1.2M", what: "negative"),
        MoneyDisplayCase(value: "0", code: "USD", expected: "$0.00", what: "zero"),
        // Abacus rule: rounded to the minor unit first, so no sign (FormatStyle alone: `-$0.004`).
        MoneyDisplayCase(value: "-0.004", code: "USD", expected: "$0.00", what: "rounds to zero"),
        // Below 1,000 nothing is abbreviated: two significant digits would show 145.00 as $140.
        MoneyDisplayCase(value: "145", code: "SGD", expected: "$145.00", what: "small, in full"),
        MoneyDisplayCase(value: "-999.994", code: "USD", expected: "-$999.99", what: "just below 1,000"),
        MoneyDisplayCase(value: "999.995", code: "USD", expected: "$1K", what: "rounds up to 1,000"),
        MoneyDisplayCase(value: "999", code: "JPY", expected: "\u{A5}999", what: "small yen"),
        MoneyDisplayCase(value: "1234567", code: "EUR", expected: "€1.2M", what: "million"),
        MoneyDisplayCase(value: "1500", code: "GBP", expected: "£1.5K", what: "thousand"),
        MoneyDisplayCase(value: "1234567", code: "JPY", expected: "\u{A5}120万", what: "man"),
        MoneyDisplayCase(value: "123456789", code: "JPY", expected: "\u{A5}1.2億", what: "oku"),
        // Where the locale has no short form for thousands (ja below 万, de_CH), two significant
        // digits would show another number (¥9900): the amount in full instead.
        MoneyDisplayCase(value: "9876", code: "JPY", expected: "\u{A5}9,876", what: "yen thousands in full"),
        MoneyDisplayCase(value: "1234.5", code: "CHF", expected: "CHF\u{A0}1’234.50", what: "franc thousands in full"),
    ]

    @Test(arguments: compactCases)
    func compactStyleForSummaries(_ c: MoneyDisplayCase) throws {
        let v = try #require(ExactDecimal(c.value))
        let currency = try #require(Currency(code: c.code))
        #expect(MoneyFormat().compact(v, currency) == c.expected)
    }

    /// `--locale de_DE`: every currency in de_DE's pattern (amount, no-break space, symbol),
    /// `.` grouping and `,` decimal, still at the ISO minor unit.
    static let germanCases: [MoneyDisplayCase] = [
        MoneyDisplayCase(value: "1234567.891", code: "INR", expected: "1.234.567,89\u{A0}₹", what: "no lakh grouping"),
        MoneyDisplayCase(value: "-1234567.891", code: "INR", expected: "-1.234.567,89\u{A0}₹", what: "negative"),
        MoneyDisplayCase(value: "1234567.891", code: "USD", expected: "1.234.567,89\u{A0}$", what: "grouping"),
        MoneyDisplayCase(value: "2.345", code: "USD", expected: "2,34\u{A0}$", what: "half-even tie down"),
        MoneyDisplayCase(value: "2.355", code: "EUR", expected: "2,36\u{A0}€", what: "half-even tie up"),
        // Abacus rule: rounds to zero, so no sign (FormatStyle alone: `-0,00 €`).
        MoneyDisplayCase(value: "-0.004", code: "EUR", expected: "0,00\u{A0}€", what: "rounds to zero"),
        MoneyDisplayCase(value: "1234567.891", code: "JPY", expected: "1.234.568\u{A0}\u{A5}", what: "no decimals"),
        MoneyDisplayCase(value: "2.5", code: "JPY", expected: "2\u{A0}\u{A5}", what: "half-even tie down"),
        MoneyDisplayCase(value: "1234567.891", code: "KWD", expected: "1.234.567,891\u{A0}KWD", what: "3 decimals"),
        // At three decimals -0.004 is not zero and keeps its sign; -0.0004 is.
        MoneyDisplayCase(value: "-0.004", code: "KWD", expected: "-0,004\u{A0}KWD", what: "small negative"),
        MoneyDisplayCase(value: "-0.0004", code: "KWD", expected: "0,000\u{A0}KWD", what: "rounds to zero"),
        MoneyDisplayCase(value: "1234567.891", code: "CHF", expected: "1.234.567,89\u{A0}CHF", what: "no apostrophes"),
        MoneyDisplayCase(value: "-1234567.891", code: "SAR", expected: "-1.234.567,89\u{A0}SAR", what: "Latin digits"),
        MoneyDisplayCase(value: "1234567.891", code: "AED", expected: "1.234.567,89\u{A0}AED", what: "no bidi marks"),
        MoneyDisplayCase(value: "1234567.891", code: "ZAR", expected: "1.234.567,89\u{A0}ZAR", what: "grouping"),
    ]

    @Test(arguments: germanCases)
    func aLocaleOverrideAppliesToEveryCurrency(_ c: MoneyDisplayCase) throws {
        let v = try #require(ExactDecimal(c.value))
        let currency = try #require(Currency(code: c.code))
        #expect(MoneyFormat(locale: "de_DE").format(v, currency) == c.expected)
    }

    @Test func aLocaleOverrideAppliesToCompactToo() throws {
        let money = MoneyFormat(locale: "de_DE")
        #expect(money.compact(ExactDecimal("1234567")!, Currency(code: "USD")!) == "1,2\u{A0}Mio.\u{A0}$")
        #expect(money.compact(ExactDecimal("12345678")!, Currency(code: "INR")!) == "12\u{A0}Mio.\u{A0}₹")
        // No short form for thousands in German: in full, not `1200 ¥`.
        #expect(money.compact(ExactDecimal("1234")!, Currency(code: "JPY")!) == "1.234\u{A0}\u{A5}")
    }
}
