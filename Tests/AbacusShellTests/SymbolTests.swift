// No two currencies of one result show the same symbol. The home symbols are what
// Foundation's FormatStyle gives in each currency's home locale on this machine
// (run and checked: USD en_US `$`, SGD en_SG `$`, AUD en_AU `$`, CAD en_CA `$`,
// NZD en_NZ `$`, HKD en_HK `HK$`, JPY ja_JP `¥`, CNY `¥`, SEK sv_SE `kr`, NOK `kr`,
// DKK da_DK `kr.`); a clash is settled with the currency apps' symbols (`US$`, `S$`,
// `A$`, `C$`, `HK$`, `NZ$`), CLDR's qualified ones (`JP¥`, `CN¥`), else the ISO code.

import AbacusCore
@testable import AbacusShell
import Testing

private func c(_ code: String) -> Currency { Currency(code: code)! }
private let amount = ExactDecimal(significand: 123450, scale: 2)

@Suite struct SymbolTests {
    @Test func fourCurrenciesSideBySideShowFourSymbols() {
        let money = MoneyFormat().distinct(for: [c("USD"), c("SGD"), c("AUD"), c("JPY")])
        let shown = ["USD", "SGD", "AUD", "JPY"].map { money.format(amount, c($0)) }
        #expect(shown == ["US$1,234.50", "S$1,234.50", "A$1,234.50", "\u{00A5}1,234"])
        let symbols = ["USD", "SGD", "AUD", "JPY"].map { money.symbol(c($0)) }
        #expect(Set(symbols).count == 4, "\(symbols)")
    }

    @Test func usdAloneKeepsTheDollarSign() {
        let money = MoneyFormat().distinct(for: [c("USD")])
        #expect(money.format(amount, c("USD")) == "$1,234.50")
        #expect(money.symbol(c("USD")) == "$")
        // A currency with another symbol changes nothing either.
        let withRupees = MoneyFormat().distinct(for: [c("USD"), c("INR")])
        #expect(withRupees.format(amount, c("USD")) == "$1,234.50")
        #expect(withRupees.format(amount, c("INR")) == "₹1,234.50")
    }

    @Test func yenAndYuanAreToldApartByCLDR() {
        // JPY in ja_JP is `¥`; CNY has no home locale in the list, and en_US's CLDR symbol is `CN¥`.
        let money = MoneyFormat().distinct(for: [c("JPY"), c("CNY")])
        #expect(money.symbol(c("JPY")) == "\u{00A5}")
        #expect(money.symbol(c("CNY")) == "CN\u{00A5}")
    }

    @Test func aClashWithoutAnAppSymbolFallsBackToTheISOCode() {
        // The dollars of the home locales are all `$`; each gets the apps' symbol (MXN is `MX$` in
        // en_US already and keeps it).
        let money = MoneyFormat().distinct(for: [c("USD"), c("SGD"), c("AUD"), c("CAD"), c("NZD"), c("MXN")])
        #expect(["USD", "SGD", "AUD", "CAD", "NZD", "MXN"].map { money.symbol(c($0)) } == ["US$", "S$", "A$", "C$", "NZ$", "MX$"])
        // Under one locale for all (`--locale en_AU`), only AUD is `$`: nothing clashes, nothing changes.
        let australian = MoneyFormat(locale: "en_AU").distinct(for: [c("AUD"), c("USD")])
        #expect(australian.symbol(c("AUD")) == "$")
        #expect(australian.symbol(c("USD")) == "USD")
        // Central and West African francs: en_US gives `FCFA` and `F CFA`, alike to a reader and in
        // no app's table: both show their codes, placed by Foundation's ISO-code presentation.
        let francs = MoneyFormat().distinct(for: [c("XAF"), c("XOF")])
        #expect(francs.symbol(c("XAF")) == "XAF" && francs.symbol(c("XOF")) == "XOF")
        #expect(francs.format(amount.negated, c("XOF")) == "-XOF\u{00A0}1,234")
    }

    @Test func lookalikeSymbolsCountAsTheSame() {
        #expect(MoneyFormat.lookalikeKey("kr.") == MoneyFormat.lookalikeKey("kr"))
        #expect(MoneyFormat.lookalikeKey("US$") != MoneyFormat.lookalikeKey("$"))
    }

    @Test func hongKongDollarNeedsNothingBesideTheUSDollar() {
        let money = MoneyFormat().distinct(for: [c("USD"), c("HKD")])
        #expect(money.symbol(c("USD")) == "$")
        #expect(money.symbol(c("HKD")) == "HK$")
    }

    @Test func compactStyleKeepsTheChoice() {
        let money = MoneyFormat().distinct(for: [c("USD"), c("SGD")])
        #expect(money.compact(ExactDecimal(1_200_000), c("SGD")) == "S$1.2M")
        #expect(money.compact(ExactDecimal(1_200_000), c("USD")) == "US$1.2M")
    }

    @Test func existingFormatIsUnchanged() {
        #expect(MoneyFormat().format(amount, c("SGD")) == "$1,234.50")
    }
}
