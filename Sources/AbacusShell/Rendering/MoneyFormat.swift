// Money for people: each currency in its home locale through Foundation's
// `FormatStyle` (ICU/CLDR), so INR groups in lakhs and crores, JPY shows no
// decimals, CHF uses de_CH's apostrophes — none of it written by hand here.
// Amounts arrive exact; they are rounded half-even to the ISO minor unit once,
// here, at display. Machine output (JSON, CSV) uses `plain`, never this.
//
// No two currencies of one result show the same symbol. Home locales give `$` to
// USD, SGD, AUD, CAD, NZD (and MXN, TWD…), `¥` to JPY and CNY, `kr` to SEK, NOK,
// DKK and ISK. When a result holds two or more currencies whose symbols would look
// the same (`kr` and `kr.` count as the same), each of them says which: the symbol
// the currency apps use (`US$`, `S$`, `A$`, `C$`, `HK$`, `NZ$`), else CLDR's
// qualified symbol (`JP¥`, `CN¥`, `MX$`, `NT$`), else the ISO code, placed by
// Foundation's ISO-code presentation (`1 234,50 SEK`). Currencies whose symbol no
// other currency of the result shares keep their home symbol: USD alone is `$`.

import AbacusCore
import Foundation

public final class MoneyFormat {
    /// Each currency's home locale (README, Using it: --locale).
    public static let homeLocales: [String: String] = [
        "INR": "en_IN", "USD": "en_US", "EUR": "en_IE", "GBP": "en_GB", "CAD": "en_CA", "AUD": "en_AU",
        "SGD": "en_SG", "HKD": "en_HK", "JPY": "ja_JP", "CHF": "de_CH", "AED": "ar_AE", "SAR": "ar_SA",
        "QAR": "ar_QA", "NZD": "en_NZ", "ZAR": "en_ZA",
    ]

    /// `--locale`: one locale for every currency.
    public let localeOverride: Locale?
    private var styles: [Currency: Decimal.FormatStyle.Currency] = [:]
    private static let posix = Locale(identifier: "en_US_POSIX")

    public init(locale: String? = nil) {
        localeOverride = locale.map { Locale(identifier: $0) }
    }

    public func locale(for c: Currency) -> Locale {
        localeOverride ?? Locale(identifier: MoneyFormat.homeLocales[c.code] ?? "en_US")
    }

    /// `₹12,34,567.89`.
    public func format(_ value: ExactDecimal, _ c: Currency) -> String {
        let style: Decimal.FormatStyle.Currency
        if let s = styles[c] {
            style = s
        } else {
            style = Decimal.FormatStyle.Currency(code: c.code, locale: locale(for: c))
                .precision(.fractionLength(c.minorUnits))
                .rounded(rule: .toNearestOrEven)
            styles[c] = style
        }
        return MoneyFormat.decimal(MoneyFormat.displayValue(value, c)).formatted(style)
    }

    /// Compact style for charts and summaries: `₹12L`, `₹1.2Cr`, `$1.2M`. Below 1,000 there is
    /// nothing to abbreviate, and two significant digits would visibly round (145.00 → 140):
    /// such amounts are shown in full.
    public func compact(_ value: ExactDecimal, _ c: Currency) -> String {
        let shown = MoneyFormat.displayValue(value, c)
        if shown.magnitude < MoneyFormat.thousand { return format(value, c) }
        let style = Decimal.FormatStyle.Currency(code: c.code, locale: locale(for: c))
            .notation(.compactName)
            .precision(.significantDigits(1...2))
            .rounded(rule: .toNearestOrEven)
        return MoneyFormat.abbreviated(MoneyFormat.decimal(MoneyFormat.displayValue(value, c)).formatted(style)) ?? format(value, c)
    }

    private static let thousand = ExactDecimal(significand: 1000, scale: 0)

    /// A compact text that abbreviates (`₹12L`, `$9.9K`, `1.2万`: at most three digits, as two
    /// significant digits and a unit give), else nil: where the locale's CLDR data has no short
    /// form for the magnitude (thousands in `ja` or `de`), two significant digits would show
    /// ¥9,876 as a plain `¥9900`, another number, and the amount is shown in full instead.
    static func abbreviated(_ text: String) -> String? {
        let digits = text.unicodeScalars.filter { scalar in MoneyFormat.digitBlocks.contains { $0.contains(scalar.value) } }
        return digits.count <= 3 ? text : nil
    }

    /// The decimal digits of the numbering systems CLDR's locales write money in (Latin,
    /// Arabic-Indic, Persian, Devanagari, Bengali, Thai).
    private static let digitBlocks: [ClosedRange<UInt32>] = [0x30...0x39, 0x660...0x669, 0x6F0...0x6F9, 0x966...0x96F, 0x9E6...0x9EF, 0xE50...0xE59]

    // MARK: Distinct symbols

    /// The symbols that tell one currency from others sharing its home symbol: the currency
    /// apps' for the dollars, CLDR's qualified ones (its `en` symbols) for the others it has.
    public static let distinguishingSymbols: [String: String] = [
        "USD": "US$", "SGD": "S$", "AUD": "A$", "CAD": "C$", "HKD": "HK$", "NZD": "NZ$",
        "JPY": "JP¥", "CNY": "CN¥", "MXN": "MX$", "TWD": "NT$",
    ]

    /// How one currency's symbol shows in a result.
    public enum SymbolChoice: Sendable, Equatable {
        /// The symbol of the currency's locale, as FormatStyle gives it.
        case home
        /// Another symbol in its place (`US$`).
        case symbol(String)
        /// The ISO code, placed as FormatStyle places it (`SEK 1,234.50`, `1 234,50 SEK`).
        case isoCode
    }

    /// The symbol a currency shows on its own: the currency symbol of the locale it is shown in.
    public func homeSymbol(_ c: Currency) -> String {
        if let s = homeSymbols[c] { return s }
        var id = locale(for: c).identifier
        if let at = id.firstIndex(of: "@") { id = String(id[..<at]) }
        let s = Locale(identifier: id + "@currency=" + c.code).currencySymbol ?? c.code
        homeSymbols[c] = s
        return s
    }
    private var homeSymbols: [Currency: String] = [:]

    /// What tells symbols apart for a reader: `kr` and `kr.` are one, and marks of direction are invisible.
    static func lookalikeKey(_ symbol: String) -> String {
        String(symbol.unicodeScalars.filter { !CharacterSet.whitespaces.contains($0) && $0 != "." && !ShownText.isInvisible($0) && $0 != "\u{200E}" && $0 != "\u{200F}" && $0 != "\u{061C}" }.map(Character.init))
    }

    /// The symbol choice for each currency of one result, so that no two show alike.
    public func symbolChoices(for currencies: some Sequence<Currency>) -> [Currency: SymbolChoice] {
        let all = Array(Set(currencies)).sorted()
        var choices: [Currency: SymbolChoice] = [:]
        var shown: [Currency: String] = [:]
        for c in all { shown[c] = homeSymbol(c); choices[c] = .home }
        // Each round gives every currency of a clash a more telling symbol: table, then code.
        for _ in 0..<2 {
            let groups = Dictionary(grouping: all) { MoneyFormat.lookalikeKey(shown[$0] ?? $0.code) }
            let clashing = groups.values.filter { $0.count > 1 }.flatMap { $0 }
            if clashing.isEmpty { break }
            for c in clashing {
                if choices[c] == .home, let s = MoneyFormat.distinguishingSymbols[c.code], s != shown[c] {
                    choices[c] = .symbol(s)
                    shown[c] = s
                } else {
                    choices[c] = .isoCode
                    shown[c] = c.code
                }
            }
        }
        return choices
    }

    /// A formatter for one result: the currencies it shows, each with a symbol no other shares.
    public func distinct(for currencies: some Sequence<Currency>) -> DistinctMoneyFormat {
        DistinctMoneyFormat(base: self, choices: symbolChoices(for: currencies))
    }

    /// `format` with a symbol choice.
    public func format(_ value: ExactDecimal, _ c: Currency, symbol choice: SymbolChoice) -> String {
        switch choice {
        case .home: return format(value, c)
        case .isoCode:
            let style = Decimal.FormatStyle.Currency(code: c.code, locale: locale(for: c))
                .precision(.fractionLength(c.minorUnits))
                .rounded(rule: .toNearestOrEven)
                .presentation(.isoCode)
            return MoneyFormat.decimal(MoneyFormat.displayValue(value, c)).formatted(style)
        case .symbol(let s): return replacingSymbol(format(value, c), c, with: s) ?? format(value, c, symbol: .isoCode)
        }
    }

    /// `compact` with a symbol choice.
    public func compact(_ value: ExactDecimal, _ c: Currency, symbol choice: SymbolChoice) -> String {
        if MoneyFormat.displayValue(value, c).magnitude < MoneyFormat.thousand { return format(value, c, symbol: choice) }
        switch choice {
        case .home: return compact(value, c)
        case .isoCode:
            let style = Decimal.FormatStyle.Currency(code: c.code, locale: locale(for: c))
                .notation(.compactName)
                .precision(.significantDigits(1...2))
                .rounded(rule: .toNearestOrEven)
                .presentation(.isoCode)
            return MoneyFormat.abbreviated(MoneyFormat.decimal(MoneyFormat.displayValue(value, c)).formatted(style)) ?? format(value, c, symbol: .isoCode)
        case .symbol(let s): return replacingSymbol(compact(value, c), c, with: s) ?? compact(value, c, symbol: .isoCode)
        }
    }

    /// The formatted text with its home symbol replaced; nil when the symbol is not in it.
    private func replacingSymbol(_ text: String, _ c: Currency, with symbol: String) -> String? {
        let home = homeSymbol(c)
        guard !home.isEmpty, let range = text.range(of: home) else { return nil }
        return text.replacingCharacters(in: range, with: symbol)
    }

    /// Rounded half-even to the minor unit; a value that rounds to zero loses its sign.
    static func displayValue(_ value: ExactDecimal, _ c: Currency) -> ExactDecimal {
        let r = value.rounded(toScale: c.minorUnits)
        return r.isZero ? .zero : r
    }

    /// Plain decimal text at the minor unit, for JSON and CSV: `-15000.00`, `1200`, `1.250`.
    public static func plain(_ value: ExactDecimal, _ c: Currency) -> String {
        plainValue(value, c).description
    }

    /// The value `plain` writes: rounded to the minor unit and padded to it.
    static func plainValue(_ value: ExactDecimal, _ c: Currency) -> ExactDecimal {
        let r = displayValue(value, c)
        return (try? r.rescaled(to: c.minorUnits)) ?? r
    }

    static func decimal(_ v: ExactDecimal) -> Decimal {
        // Foundation's Decimal carries 38 digits: the value passes unchanged.
        Decimal(string: v.description, locale: posix) ?? Decimal(0)
    }
}

/// Money of one result: each currency formatted with the symbol chosen for it among the
/// result's currencies (`MoneyFormat.distinct(for:)`).
public struct DistinctMoneyFormat {
    public let base: MoneyFormat
    public let choices: [Currency: MoneyFormat.SymbolChoice]

    public func choice(_ c: Currency) -> MoneyFormat.SymbolChoice { choices[c] ?? .home }

    /// The symbol the currency shows in this result: `US$`, `$`, `SEK`.
    public func symbol(_ c: Currency) -> String {
        switch choice(c) {
        case .home: return base.homeSymbol(c)
        case .symbol(let s): return s
        case .isoCode: return c.code
        }
    }

    public func format(_ value: ExactDecimal, _ c: Currency) -> String { base.format(value, c, symbol: choice(c)) }
    public func compact(_ value: ExactDecimal, _ c: Currency) -> String { base.compact(value, c, symbol: choice(c)) }
}
