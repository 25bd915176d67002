// Conversion under the default (booked) valuation, step by step (docs/conversion.md),
// on a small ledger whose every expected figure is worked out in the comments.

import AbacusCore
@testable import AbacusQuery
import Testing

/// Books: Home (INR), Trip (SGD, locked 1 SGD = 55 INR), US (USD, no lock).
/// Market: snapshots (base USD) 2025-01-03 {INR 83.0, EUR 0.9} and 2025-01-04
/// {INR 83.5, EUR 0.92}; a pair USD→INR 84 on 2025-01-04 (beats the snapshot that day);
/// a pair JPY→USD 0.0067 on 2025-01-02 (the only JPY source: JPY/INR needs a chain).
/// Custom: EUR→INR 90 from 2025-02-01.
let conversionLedger = """
{"version": 1, "defaultCurrency": "INR",
 "books": [
  {"id": "h", "name": "Home", "currency": "INR"},
  {"id": "t", "name": "Trip", "currency": "SGD", "lockedExchangeRate": 55, "targetCurrency": "INR", "rateLockedAt": "2025-01-01"},
  {"id": "u", "name": "US", "currency": "USD", "lockedExchangeRate": null}
 ],
 "entries": [
  {"id": "e1", "bookId": "h", "amount": -100.00, "date": "2025-01-10", "category": "Food"},
  {"id": "e2", "bookId": "t", "amount": -10.00, "date": "2025-01-10", "category": "Food"},
  {"id": "e3", "bookId": "t", "amount": -20.00, "date": "2025-01-10", "category": "Hotel", "normalizedAmount": -1100.50, "normalizedCurrency": "INR", "conversionRate": 55.025},
  {"id": "e4", "bookId": "t", "amount": -2.00, "date": "2025-01-11", "category": "Food", "normalizedCurrency": "INR", "conversionRate": 54.3210},
  {"id": "e5", "bookId": "u", "amount": -10.00, "date": "2025-01-05", "category": "Food"},
  {"id": "e6", "bookId": "u", "amount": -1.00, "date": "2025-01-01", "category": "Food"},
  {"id": "e7", "bookId": "u", "amount": -3.00, "currency": "EUR", "date": "2025-01-06", "category": "Food"},
  {"id": "e8", "bookId": "u", "amount": -1.00, "currency": "EUR", "date": "2025-02-02", "category": "Food"},
  {"id": "e9", "bookId": "u", "amount": 500.00, "date": "2025-01-05", "category": "Salary"}
 ],
 "rates": [
  {"base": "USD", "date": "2025-01-03", "rates": {"INR": 83.0, "EUR": 0.9}},
  {"base": "USD", "date": "2025-01-04", "rates": {"INR": 83.5, "EUR": 0.92}},
  {"from": "USD", "to": "INR", "rate": 84, "date": "2025-01-04", "source": "bank"},
  {"from": "JPY", "to": "USD", "rate": 0.0067, "date": "2025-01-02"}
 ],
 "customRates": [
  {"from": "EUR", "to": "INR", "rate": 90, "date": "2025-02-01"}
 ]
}
"""

func session(_ text: String = conversionLedger) throws -> Session {
    let ledger = try LedgerLoader.load(documents: [("test.json", text)])
    return Session(ledger: ledger, today: Day(year: 2025, month: 12, day: 31)!)
}

/// The text of a cell as a plain value (money unformatted, at its minor unit).
func plainText(_ c: Cell?) -> String? {
    switch c {
    case .money(let d, _)?: return d.description
    case .count(let n)?: return String(n)
    case .number(let d)?, .decimal(let d)?: return d.description
    case .text(let s)?: return s
    case .currency(let c)?: return c.code
    case .period(let p)?: return p.description
    case .date(let d)?: return d.description
    case .none?: return "(none)"
    default: return nil
    }
}

/// Group labels (joined with "/") → value.
func amounts(_ r: ResultSet) -> [String: String] {
    var out: [String: String] = [:]
    for row in r.rows {
        let keys = row.dropLast().compactMap(plainText)
        out[keys.joined(separator: "/")] = plainText(row.last)
    }
    return out
}

/// The total row's value, or the single value of an ungrouped result.
func total(_ r: ResultSet) -> String? {
    plainText(r.totals.first?.last ?? r.rows.first?.last)
}

@Suite struct BookedValuationTests {
    @Test func eachStepOfTheBookedValuation() throws {
        let r = try session().run("sum expenses in INR by book")
        // Home: e1 is already INR: 100.00.
        // Trip: e2 at the book's locked rate 10 × 55 = 550; e3's normalizedAmount 1100.50
        //       (not 20 × 55.025 = 1100.50 by coincidence: the stored value is used);
        //       e4's conversionRate 2 × 54.3210 = 108.642.  550 + 1100.50 + 108.642 = 1759.142 → 1759.14.
        // US: e5 (2025-01-05) at the USD→INR pair of 2025-01-04, which beats that day's snapshot: 10 × 84 = 840;
        //     e6 (2025-01-01) precedes every source: the oldest, snapshot 2025-01-03, 1 × 83 = 83;
        //     e7 (EUR, 2025-01-06): snapshot 2025-01-04 crosses EUR/INR = 83.5 / 0.92: 3 × 83.5 / 0.92 = 272.28260869…;
        //     e8 (EUR, 2025-02-02): custom EUR→INR 90 applies from 2025-02-01: 90.
        //     840 + 83 + 272.2826086956… + 90 = 1285.2826086956… → 1285.28.
        #expect(amounts(r) == ["Home": "100.00", "Trip": "1759.14", "US": "1285.28"])
        // Total from exact values: 100 + 1759.142 + 1285.28260869… = 3144.42460869… → 3144.42.
        #expect(total(r) == "3144.42")
        let p = try #require(r.provenance)
        #expect(p.unconverted == 1)
        #expect(p.bookedLocked == 1 && p.bookedNormalized == 1 && p.bookedConversionRate == 1)
        #expect(p.custom == 1 && p.market == 3)
        #expect(p.oldestMarketDay == Day(year: 2025, month: 1, day: 3))
        #expect(p.newestMarketDay == Day(year: 2025, month: 1, day: 4))
    }

    @Test func aSourceDatedAfterTheEntryWarns() throws {
        let r = try session().run("sum expenses in INR since 2025-01-01")
        #expect(r.warnings == ["no market rate for USD/INR on or before 2025-01-01; used the oldest, dated 2025-01-03, for 1 entry"])
    }

    @Test func aCountThatComparesAmountsSaysWhichRatesItUsed() throws {
        // The count converts only for `amount > 0`, at the same rates as the sum: same warning.
        let s = try session()
        let r = try s.run("count expenses in INR where amount > 0 since 2025-01-01")
        #expect(r.warnings == ["no market rate for USD/INR on or before 2025-01-01; used the oldest, dated 2025-01-03, for 1 entry"])
        guard case .explain(_, let rates, _) = try s.execute("explain count expenses in INR where amount > 0") else { Issue.record("no plan"); return }
        #expect(rates.contains { $0.contains("at market rates") })
        // Without an amount filter a count converts nothing and has no rates to name.
        #expect(try s.run("count expenses in INR").warnings.isEmpty)
    }

    @Test func aBookLockIsListedOnlyInTheDirectionItConverts() throws {
        // Trip locks 1 SGD = 55 INR: its SGD entries convert into INR at 55, never INR into SGD.
        let s = try session()
        _ = try s.execute("set rate SGD/INR = 60")
        let forward = try s.run("rate SGD/INR")
        #expect(forward.rows.contains { plainText($0[1]) == "55" })
        let backward = try s.run("rate INR/SGD")
        #expect(!backward.rows.contains { row in plainText(row[2])?.contains("locked") == true })
        #expect(backward.rows.count == 1)
    }

    /// A rate no decimal here holds (10^38 or more, or below 10^-38: the inverse or cross rate
    /// of an extreme quote) shows in scientific notation, to 28 significant digits: never as 0.
    @Test func aRateTooLargeForADecimalShowsInScientificNotation() throws {
        let s = try session(#"""
            {"version": 1, "defaultCurrency": "INR", "books": [], "entries": [],
             "rates": [{"from": "INR", "to": "USD", "rate": 1e-38, "date": "2025-01-01"},
                       {"base": "EUR", "date": "2025-01-01", "rates": {"GBP": 3e-38, "JPY": 7}}]}
            """#)
        #expect(plainText(try s.run("rate USD/INR").rows.first?[1]) == "1E+38")
        #expect(plainText(try s.run("rate INR/USD").rows.first?[1]) == "0.00000000000000000000000000000000000001")
        // 7 ÷ 3e-38 = 2.333…e38, half-even at 28 digits; its inverse, 4.285714…e-39, is below what a decimal holds.
        #expect(plainText(try s.run("rate GBP/JPY").rows.first?[1]) == "2.333333333333333333333333333E+38")
        #expect(plainText(try s.run("rate JPY/GBP").rows.first?[1]) == "4.285714285714285714285714286E-39")
        // Below 10^38 a decimal holds it: 1 ÷ 2e-38, in 38 digits.
        let tiny = try #require(ExactDecimal("0.00000000000000000000000000000000000002"))
        #expect(Rate(numerator: ExactDecimal(1), denominator: tiny).description == "50000000000000000000000000000000000000")
    }

    /// A chain's rate is its legs' exact product (docs/conversion.md#chains): past 10^38 or under
    /// 10^-38 with its power of ten, in lowest terms where the plain products pass 38 digits.
    /// A product of 10^38 crashed the process, one under 10^-38 was taken as 0, one past 10^39
    /// was "no rate", and a 39-digit product was rounded and then taken as exact.
    @Test func aChainsRateIsItsLegsExactProduct() throws {
        func chain(_ first: String, _ second: String, amount: String = "-1") throws -> Session {
            try session(#"""
                {"version": 1, "defaultCurrency": "INR", "books": [{"id": "b", "name": "B", "currency": "SGD"}],
                 "entries": [{"id": "e1", "bookId": "b", "amount": \#(amount), "date": "2025-10-01", "category": "T"}],
                 "rates": [{"from": "SGD", "to": "USD", "rate": \#(first), "date": "2025-10-01"},
                           {"from": "USD", "to": "INR", "rate": \#(second), "date": "2025-10-01"}]}
                """#)
        }
        func failure(_ s: Session, _ statement: String) -> QueryError? {
            do { _ = try s.execute(statement) } catch { return error }
            return nil
        }
        // 10^19 × 10^19 = 10^38: the rate shows, and 1 SGD of it is a result past 38 digits, an error.
        let big = try chain("10000000000000000000", "10000000000000000000")
        #expect(plainText(try big.run("rate SGD/INR").rows.first?[1]) == "1E+38")
        #expect(plainText(try big.run("rate INR/SGD").rows.first?[1]) == "0.00000000000000000000000000000000000001")
        #expect(failure(big, "sum expenses")?.kind == .overflow)
        #expect(failure(big, "convert 1 SGD to INR")?.kind == .overflow)
        // 10^-20 × 10^-19 = 10^-39: 5 × 10^37 SGD is ₹0.05, not 0.
        let tiny = try chain("0.00000000000000000001", "0.0000000000000000001", amount: "-50000000000000000000000000000000000000")
        #expect(total(try tiny.run("sum expenses")) == "0.05")
        #expect(plainText(try tiny.run("count expenses where amount = 0").rows.first?[0]) == "0")
        #expect(plainText(try tiny.run("rate SGD/INR").rows.first?[1]) == "1E-39")
        // 10^20 × 10^20 = 10^40 prices the pair (it said no rate did): 10^-20 SGD is ₹10^20.
        let huge = try chain("100000000000000000000", "100000000000000000000", amount: "-0.00000000000000000001")
        #expect(plainText(try huge.run("rate SGD/INR").rows.first?[1]) == "1E+40")
        #expect(plainText(try huge.run("rate INR/SGD").rows.first?[1]) == "1E-40")
        // 2.0100000000000000000000000000000000001 × 0.5 = 1.00500000000000000000000000000000000005, 39
        // digits, held as 2.01…01 / 2: just above the tie, 1 SGD is ₹1.01 (it was rounded to 1.005, ₹1.00).
        let tie = try chain("2.0100000000000000000000000000000000001", "0.5")
        #expect(total(try tie.run("sum expenses")) == "1.01")
        #expect(plainText(try tie.run("count expenses where amount > 1.005").rows.first?[0]) == "1")
        let below = try chain("2.0099999999999999999999999999999999999", "0.5")
        #expect(total(try below.run("sum expenses")) == "1.00")
        #expect(plainText(try below.run("count expenses where amount < 1.005").rows.first?[0]) == "1")
        // 1.00000000000000000001² = 1.0000000000000000000200000000000000000001, 41 digits in lowest
        // terms: no rate holds it, and the error says the chain exists and why it is not used.
        let long = try chain("1.00000000000000000001", "1.00000000000000000001")
        let e = failure(long, "sum expenses")
        #expect(e?.kind == .missingRates([MissingRate(pair: CurrencyPair(Currency(code: "SGD")!, Currency(code: "INR")!), entries: 1)], target: Currency(code: "INR")!))
        #expect(e?.message.hasSuffix("\nSGD/INR is chained through USD (SGD/USD × USD/INR), but the product of those rates needs more than 38 digits and cannot be held exactly") == true)
        #expect(failure(long, "rate SGD/INR")?.message.contains("SGD/INR is chained through USD") == true)
        // With a custom rate for the pair, it answers.
        _ = try long.execute("set rate SGD/INR = 1")
        #expect(total(try long.run("sum expenses")) == "1.00")
    }

    /// A quotient rate below 10^-10 has its 28 significant digits past the 38th decimal: it shows
    /// in scientific notation with all 28 (it showed the 23 that fit), an exact short one as itself.
    @Test func aSmallQuotientRateShowsItsTwentyEightDigits() throws {
        let s = try session(#"""
            {"version": 1, "defaultCurrency": "INR", "books": [], "entries": [],
             "rates": [{"from": "SGD", "to": "INR", "rate": 3000000000000000, "date": "2025-01-01"},
                       {"from": "USD", "to": "INR", "rate": 4000000000000000, "date": "2025-01-01"}]}
            """#)
        #expect(plainText(try s.run("rate INR/SGD").rows.first?[1]) == "3.333333333333333333333333333E-16")
        #expect(plainText(try s.run("rate INR/USD").rows.first?[1]) == "0.00000000000000025")
        #expect(plainText(try s.run("rate SGD/INR").rows.first?[1]) == "3000000000000000")
    }

    @Test func incomeKeepsItsSign() throws {
        // e9: 500 USD on 2025-01-05 at 84 = 42000.00.
        let r = try session().run("sum income in INR")
        #expect(total(r) == "42000.00")
    }

    @Test func convertingIntoAnotherTargetInvertsTheRate() throws {
        // h2: 100 INR on 2025-01-12, into USD at the newest USD/INR source on or before that day,
        // the pair USD→INR 84 of 2025-01-04, inverted: 100 / 84 = 1.190476… → 1.19.
        let text = conversionLedger.replacingOccurrences(
            of: "{\"id\": \"e9\",",
            with: "{\"id\": \"h2\", \"bookId\": \"h\", \"amount\": -100, \"date\": \"2025-01-12\", \"category\": \"Books\"},\n  {\"id\": \"e9\",")
        let r = try session(text).run("sum expenses in USD during 2025-01-12")
        #expect(total(r) == "1.19")
    }

    @Test func aBookedRateIntoAnotherCurrencyDoesNotApply() throws {
        // Trip's lock is SGD→INR, and SGD has no market source: in USD, e2 and e3 (2025-01-10) have no rate.
        let missing = #expect(throws: QueryError.self) { try session().run("sum expenses in USD during 2025-01-10") }
        guard case .missingRates(let pairs, let target)? = missing?.kind else {
            Issue.record("expected a missing-rate error"); return
        }
        #expect(target.code == "USD")
        // e1 (INR) converts: the snapshots quote INR against USD.
        #expect(pairs.map(\.pair.description) == ["SGD/USD"])
        #expect(pairs.map(\.entries) == [2])
        #expect(missing?.message.contains("set rate SGD/USD = …") == true)
        #expect(missing?.message.contains("with rate SGD/USD = …") == true)
    }

    @Test func aChainThroughUSDWhenNoSingleSourceExists() throws {
        // JPY/INR is priced by no single source: JPY→USD (pair 2025-01-02, 0.0067) then USD→INR
        // (on 2025-01-05: the pair of 2025-01-04, 84). 1000 × 0.0067 × 84 = 562.80.
        let text = conversionLedger.replacingOccurrences(
            of: "{\"id\": \"e9\",",
            with: "{\"id\": \"j1\", \"bookId\": \"u\", \"amount\": -1000, \"currency\": \"JPY\", \"date\": \"2025-01-05\", \"category\": \"Sushi\"},\n  {\"id\": \"e9\",")
        let r = try session(text).run("sum expenses in INR by category")
        #expect(amounts(r)["Sushi"] == "562.80")
    }

    @Test func sessionRatesBeatFileCustomRatesAndMarket() throws {
        let s = try session()
        // set rate INR/EUR = 0.01 means EUR/INR = 100 for every EUR entry (e7, e8): 3 × 100 + 1 × 100 = 400.
        _ = try s.execute("set rate INR/EUR = 0.01")
        let r = try s.run("sum expenses in INR by currency")
        #expect(amounts(r)["EUR"] == "400.00")
        // Unset, the file's custom and market rates are back: e7 at market 272.28…, e8 at custom 90 → 362.28.
        _ = try s.execute("unset rate EUR/INR")
        #expect(amounts(try s.run("sum expenses in INR by currency"))["EUR"] == "362.28")
    }

    @Test func undatedCustomRatesAlwaysApplyAndTheNewestApplicableWins() throws {
        // Undated EUR→INR 80 applies to e7 (2025-01-06): 240; the dated 90 (from 2025-02-01) is newer
        // for e8 (2025-02-02): 90. Total 330.
        let text = conversionLedger.replacingOccurrences(
            of: "\"customRates\": [",
            with: "\"customRates\": [\n  {\"from\": \"INR\", \"to\": \"EUR\", \"rate\": 0.0125},")
        let r = try session(text).run("sum expenses in INR by currency")
        // INR→EUR 0.0125 inverted is EUR→INR 80 exactly.
        #expect(amounts(r)["EUR"] == "330.00")
    }

    @Test func aMissingRateFailsTheStatementInsteadOfSkippingTheEntry() throws {
        // On 2025-01-10: e1 (100 INR) has no INR/SGD source at any date; e2 and e3 are SGD already.
        let error = #expect(throws: QueryError.self) { try session().run("sum expenses in SGD during 2025-01-10") }
        guard case .missingRates(let pairs, _)? = error?.kind else { Issue.record("expected missing rates"); return }
        #expect(pairs == [MissingRate(pair: CurrencyPair(Currency(code: "INR")!, Currency(code: "SGD")!), entries: 1)])
    }

    @Test func inNativeConvertsNothing() throws {
        // SGD: e2 10 + e3 20 + e4 2 = 32.00; INR: e1 100.00; USD: e5 10 + e6 1 = 11.00; EUR: e7 3 + e8 1 = 4.00.
        let r = try session().run("sum expenses in native")
        #expect(amounts(r) == ["EUR": "4.00", "INR": "100.00", "SGD": "32.00", "USD": "11.00"])
    }
}

@Suite struct ExactAggregationTests {
    static func ledger(_ amounts: [String]) -> String {
        let entries = amounts.enumerated().map { i, a in
            "{\"id\": \"\(i)\", \"bookId\": \"h\", \"amount\": \(a), \"date\": \"2025-01-0\(i % 9 + 1)\", \"category\": \"C\(i % 2)\"}"
        }
        return "{\"version\": 1, \"defaultCurrency\": \"INR\", \"books\": [{\"id\": \"h\", \"name\": \"Home\", \"currency\": \"INR\"}], \"entries\": [\(entries.joined(separator: ","))]}"
    }

    @Test func seventeenDigitAmountsSumToTheCent() throws {
        // 12345678901234567.89 + 0.01 + 0.005 - 0.015 = 12345678901234567.89 exactly (a Double
        // holds about 16 digits: 12345678901234568 at best).
        let r = try session(ExactAggregationTests.ledger(["12345678901234567.89", "0.01", "0.005", "-0.015"])).run("sum entries in INR")
        #expect(total(r) == "12345678901234567.89")
    }

    @Test func roundingHappensOnceAtTheEndHalfEven() throws {
        // C0 holds entries 0 and 2: 0.005 + 0.005 = 0.010 → 0.01, where rounding each first
        // (half-even, 0.005 → 0.00) would give 0.00. C1 holds 1 and 3: 0.015 + 0.025 = 0.040 → 0.04,
        // where rounding each first would give 0.02 + 0.02. The total, 0.050, is rounded once: 0.05.
        let r = try session(ExactAggregationTests.ledger(["0.005", "0.015", "0.005", "0.025"])).run("sum entries by category")
        #expect(amounts(r) == ["C0": "0.01", "C1": "0.04"])
        #expect(total(r) == "0.05")
    }
}

@Suite struct LatestValuationTests {
    @Test func atLatestUsesTheNewestRateAndSaysHowOldItIs() throws {
        let ledger = try LedgerLoader.load(documents: [("test.json", conversionLedger)])
        let s = Session(ledger: ledger, today: Day(year: 2025, month: 1, day: 14)!)
        // e5 and e6 (USD) both at the newest USD/INR source, the pair of 2025-01-04 (84): 10 × 84 + 1 × 84 = 924.
        let r = try s.run("sum expenses in INR where currency = USD at latest")
        #expect(total(r) == "924.00")
        // 2025-01-04 is 10 days before 2025-01-14.
        #expect(r.warnings == ["the newest USD/INR rate is dated 2025-01-04, 10 days before today"])
        guard case .table(let rate) = try s.execute("rate USD/INR at latest") else { Issue.record("no table"); return }
        #expect(rate.warnings == r.warnings)
    }

    /// A chain is as old as its older leg, and says when that leg was fetched: not when the
    /// other leg was (EUR/CHF, a pair of 2025-09-08 with no fetch, beside a snapshot fetched later).
    @Test func aChainsAgeNamesItsOlderLegsFetch() throws {
        let s = try session(#"""
            {"version": 1, "defaultCurrency": "KWD", "books": [{"id": "b", "name": "Zurich", "currency": "CHF"}],
             "entries": [{"id": "e", "bookId": "b", "amount": -100, "date": "2025-06-01", "category": "Food"}],
             "rates": [{"from": "EUR", "to": "CHF", "rate": 0.9, "date": "2025-09-08"},
                       {"base": "USD", "date": "2025-09-22", "rates": {"EUR": 0.8, "KWD": 0.3}, "fetchedAt": "2025-10-06T08:00:00Z"}]}
            """#)
        let latest = Session(ledger: s.ledger, today: Day(year: 2025, month: 12, day: 31)!)
        #expect(try latest.run("sum entries in KWD at latest").warnings == ["the newest CHF/KWD rate is dated 2025-09-08, 114 days before today"])
        // The snapshot's own fetch is named where it is the older leg: EUR/KWD alone is that snapshot.
        #expect(try latest.run("rate EUR/KWD at latest").warnings == ["the newest EUR/KWD rate is dated 2025-09-22, 100 days before today (fetched on 2025-10-06)"])
    }
}

@Suite struct ReviewRegressionTests {
    /// An entry whose conversionRate has 37 digits: amount × rate needs more than 38 digits.
    static let wide = """
    {"version": 1, "defaultCurrency": "INR",
     "books": [{"id": "s", "name": "S", "currency": "SGD"}],
     "entries": [
      {"id": "1", "bookId": "s", "amount": -1.25, "date": "2025-01-01", "category": "A", "normalizedCurrency": "INR", "conversionRate": 0.0163456789012345678901234567890123456},
      {"id": "2", "bookId": "s", "amount": -2, "date": "2025-01-01", "category": "B", "normalizedCurrency": "INR", "normalizedAmount": -120}
     ]}
    """

    /// INR into USD at the inverse of USD/INR = 3: a quotient, cut to 34 digits. 0.045 INR is
    /// exactly 0.015 USD and 0.105 INR exactly 0.035 USD, each halfway between two cents: the cut
    /// products (0.01499…, 0.03499…) lie within their error of the boundary, so each is rounded
    /// from its exact value, half-even: 0.02 and 0.04 (rounded as cut, they would be 0.01 and 0.03).
    static let halfway = """
    {"version": 1, "defaultCurrency": "INR",
     "books": [{"id": "h", "name": "H", "currency": "INR"}],
     "rates": [{"from": "USD", "to": "INR", "rate": 3, "date": "2025-01-01"}],
     "entries": [
      {"id": "1", "bookId": "h", "amount": -0.045, "date": "2025-01-02", "category": "A"},
      {"id": "2", "bookId": "h", "amount": -0.105, "date": "2025-01-03", "category": "A"},
      {"id": "3", "bookId": "h", "amount": -0.105, "date": "2025-01-04", "category": "B"}
     ]}
    """

    @Test func aMinOrMaxHalfwayAtAQuotientRateIsRoundedFromItsExactValue() throws {
        for dense in [true, false] {
            let s = try session(ReviewRegressionTests.halfway)
            s.useDenseKernel = dense
            #expect(amounts(try s.run("min expenses in USD by category")) == ["A": "0.02", "B": "0.04"], "dense: \(dense)")
            #expect(amounts(try s.run("max expenses in USD by category")) == ["A": "0.04", "B": "0.04"], "dense: \(dense)")
            #expect(total(try s.run("min expenses in USD")) == "0.02", "dense: \(dense)")
            #expect(total(try s.run("max expenses in USD by book")) == "0.04", "dense: \(dense)")
            #expect(plainText(try s.run("list expenses in USD order by amount").rows.first?.last) == "0.02", "dense: \(dense)")
        }
    }

    @Test func minAndMaxOfProductsPast38Digits() throws {
        let s = try session(ReviewRegressionTests.wide)
        // 1.25 × 0.0163456789012345678901234567890123456 = 0.0204320986265432098626543209862654320 → 0.02; entry 2 is 120.
        #expect(total(try s.run("max expenses")) == "120.00")
        #expect(total(try s.run("min expenses")) == "0.02")
        #expect(total(try s.run("sum expenses")) == "120.02")
    }
}

@Suite struct LateLegTests {
    /// SGD/USD through EUR: the SGD leg is dated 2025-01-01, the USD leg only 2025-10-01, so on
    /// 2025-06-30 the USD leg is the late one, and the warning names it and its date; the SGD
    /// leg, 180 days old then, is stale, and says so too.
    @Test func aChainsLateLegIsNamedWithItsOwnDate() throws {
        let json = """
        {"version": 1, "defaultCurrency": "INR", "books": [{"id": "b", "name": "B", "currency": "INR"}], "entries": [],
         "rates": [{"from": "SGD", "to": "EUR", "rate": 0.7, "date": "2025-01-01"}, {"from": "USD", "to": "EUR", "rate": 0.9, "date": "2025-10-01"}]}
        """
        let s = Session(ledger: try LedgerLoader.load(documents: [("c.json", json)]), today: Day(year: 2025, month: 12, day: 31)!)
        let r = try s.run("rate SGD/USD at 2025-06-30")
        #expect(r.warnings == ["no market rate for SGD/USD (its leg EUR/USD) on or before 2025-06-30; used the oldest, dated 2025-10-01",
                               "the market rate for SGD/USD on 2025-06-30 is more than 7 days old: leg SGD/EUR dated 2025-01-01, 180 days old"])
    }
}
