// Money for people: each currency in its home locale through Foundation's
// `FormatStyle` (ICU/CLDR), so INR groups in lakhs and crores, JPY shows no
// decimals, CHF uses de_CH's apostrophes — none of it written by hand here.
// Amounts arrive exact; they are rounded half-even to the ISO minor unit once,
// here, at display. Machine output (JSON, CSV) uses `plain`, never this.

import AbacusCore
import Foundation

public final class MoneyFormat {
    /// SPEC §5's home locales.
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
        return MoneyFormat.decimal(MoneyFormat.displayValue(value, c)).formatted(style)
    }

    private static let thousand = ExactDecimal(significand: 1000, scale: 0)

    /// Rounded half-even to the minor unit; a value that rounds to zero loses its sign.
    static func displayValue(_ value: ExactDecimal, _ c: Currency) -> ExactDecimal {
        let r = value.rounded(toScale: c.minorUnits)
        return r.isZero ? .zero : r
    }

    /// Plain decimal text at the minor unit, for JSON and CSV: `-15000.00`, `1200`, `1.250`.
    public static func plain(_ value: ExactDecimal, _ c: Currency) -> String {
        let r = displayValue(value, c)
        let padded = (try? r.rescaled(to: c.minorUnits)) ?? r
        return padded.description
    }

    static func decimal(_ v: ExactDecimal) -> Decimal {
        // Foundation's Decimal carries 38 digits: the value passes unchanged.
        Decimal(string: v.description, locale: posix) ?? Decimal(0)
    }
}
