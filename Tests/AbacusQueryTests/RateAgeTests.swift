// Rate age: a market rate dated more than 7 days before the date it converts for is
// stale (a warning naming pairs, entries and the oldest age); a maximum age makes
// older rates an error, as a missing rate is, and holds each leg of a chain to it.

import AbacusCore
@testable import AbacusQuery
import Testing

/// Market: USD→INR 84 on 2025-03-01; SGD→USD 0.75 on 2025-03-06 (SGD/INR has no single
/// source, so it chains through USD). Entries: USD -10 on 2025-03-08 (USD/INR 7 days old),
/// USD -20 on 2025-03-09 (8 days), USD -1 on 2025-03-20 (19 days), SGD -5 on 2025-03-08
/// (legs SGD/USD 2 days, USD/INR 7 days old).
let agingLedger = """
{"version": 1, "defaultCurrency": "INR",
 "books": [
  {"id": "u", "name": "US", "currency": "USD"},
  {"id": "s", "name": "SG", "currency": "SGD"}
 ],
 "entries": [
  {"id": "a", "bookId": "u", "amount": -10.00, "date": "2025-03-08", "category": "Food"},
  {"id": "b", "bookId": "u", "amount": -20.00, "date": "2025-03-09", "category": "Food"},
  {"id": "c", "bookId": "u", "amount": -1.00, "date": "2025-03-20", "category": "Taxi"},
  {"id": "d", "bookId": "s", "amount": -5.00, "date": "2025-03-08", "category": "Food"}
 ],
 "rates": [
  {"from": "USD", "to": "INR", "rate": 84, "date": "2025-03-01", "source": "bank"},
  {"from": "SGD", "to": "USD", "rate": 0.75, "date": "2025-03-06", "source": "bank"}
 ]
}
"""

@Suite struct RateAgeTests {
    @Test func sevenDaysOldIsNotStale() throws {
        let s = try session(agingLedger)
        let r = try s.run("sum expenses in INR where book = US on 2025-03-08")
        // 10 × 84 = 840.00, at a rate exactly 7 days old: no warning.
        #expect(plainText(r.rows.first?.last) == "840.00")
        #expect(r.warnings == [])
    }

    @Test func eightDaysOldWarns() throws {
        let s = try session(agingLedger)
        let r = try s.run("sum expenses in INR where book = US on 2025-03-09")
        #expect(plainText(r.rows.first?.last) == "1680.00")
        #expect(r.warnings == ["1 entry converted at market rates more than 7 days old: USD/INR (1, oldest 8 days)"])
    }

    @Test func oneWarningLineCountsEntriesAndTheOldestAge() throws {
        let s = try session(agingLedger)
        // a (7 days) is fresh; b (8) and c (19) are stale, each on a day of its own.
        let r = try s.run("sum expenses in INR where book = US")
        #expect(r.warnings == ["2 entries converted at market rates more than 7 days old: USD/INR (2, oldest 19 days)"])
        // What `explain` can say of them.
        #expect(r.provenance?.market == 3)
        #expect(r.provenance?.staleMarket == 2)
        #expect(r.provenance?.oldestMarketAgeInDays == 19)
    }

    @Test func maximumAgeRefusesOneLegOfAChain() throws {
        let s = try session(agingLedger)
        s.maxRateAge = 5
        // SGD/INR via USD on 2025-03-08: SGD/USD is 2 days old (within 5), USD/INR 7 (past it).
        do {
            let r = try s.run("sum expenses in INR where book = SG")
            Issue.record("converted at a rate past the maximum age: \(r.rows)")
        } catch {
            guard case .ratesTooOld(let uses, let limit, let target) = error.kind else {
                Issue.record("wrong error: \(error.message)")
                return
            }
            #expect(limit == 5)
            #expect(target.code == "INR")
            #expect(uses.count == 1)
            #expect(uses.first?.pair.description == "SGD/INR")
            #expect(uses.first?.via?.code == "USD")
            #expect(uses.first?.entries == 1)
            // Only the old leg is named.
            #expect(uses.first?.legs.mapKeys(\.description) == ["USD/INR": 7])
            #expect(error.message.contains("SGD/INR via USD: 1 entry, leg USD/INR 7 days old"))
        }
        // Within the limit the same statement runs: 5 × 0.75 × 84 = 315.00, and 7 days is not stale.
        s.maxRateAge = 7
        let r = try s.run("sum expenses in INR where book = SG")
        #expect(plainText(r.rows.first?.last) == "315.00")
        #expect(r.warnings == [])
    }

    @Test func maximumAgeNamesPairsAndCounts() throws {
        let s = try session(agingLedger)
        s.maxRateAge = 10
        do {
            _ = try s.run("sum expenses in INR")
            Issue.record("converted at a 19-day-old rate under a 10-day limit")
        } catch {
            // Only c (19 days) is past 10; b (8 days) is stale but allowed.
            guard case .ratesTooOld(let uses, _, _) = error.kind else { Issue.record("wrong error: \(error.message)"); return }
            #expect(uses.map(\.pair.description) == ["USD/INR"])
            #expect(uses.first?.entries == 1)
            #expect(uses.first?.oldestAgeInDays == 19)
        }
        // No limit: the statement runs and warns.
        s.maxRateAge = nil
        let r = try s.run("sum expenses in INR")
        // 10×84 + 20×84 + 1×84 = 2604.00; 5 SGD = 315.00; total 2919.00.
        #expect(plainText(r.rows.first?.last) == "2919.00")
        #expect(r.warnings.count == 1)
    }

    /// `convert`, `rate` and the reports use one rate on one day: past the maximum age it fails
    /// them as it fails a query, naming the old leg of a chain (docs/conversion.md#rate-age).
    @Test func maximumAgeRefusesConvertRateAndReports() throws {
        let s = try session(agingLedger)
        s.maxRateAge = 5
        for (statement, pair, legs) in [("convert 1 USD to INR at 2025-03-08", "USD/INR", ["USD/INR dated 2025-03-01, 7 days old"]),
                                        ("rate SGD/INR at 2025-03-08", "SGD/INR", ["USD/INR dated 2025-03-01, 7 days old"]),
                                        ("convert 5 SGD to INR at 2025-03-09", "SGD/INR", ["USD/INR dated 2025-03-01, 8 days old"])] {
            do {
                let r = try s.run(statement)
                Issue.record("\(statement): converted at a rate past the maximum age: \(r.rows)")
            } catch {
                guard case .rateTooOld(let p, let old, _, let limit) = error.kind else { Issue.record("\(statement): wrong error: \(error.message)"); continue }
                #expect(p.description == pair && limit == 5, "\(statement)")
                #expect(old.map { "\($0.pair) dated \($0.day), \($0.ageInDays) days old" } == legs, "\(statement)")
            }
        }
        // Within the limit, and the legs of a chain each within it: 5 × 0.75 × 84 = 315.
        #expect(plainText(try s.run("convert 5 SGD to INR at 2025-03-05").rows.first?[1]) == "315.00")
        s.maxRateAge = 7
        #expect(plainText(try s.run("convert 5 SGD to INR at 2025-03-08").rows.first?[1]) == "315.00")
        // A report converting on its date: an account in USD on 2025-03-20 is 19 days from USD/INR.
        let accounts = try session(agingLedger.replacingOccurrences(of: #""currency": "USD"}"#, with: #""currency": "USD", "openingBalance": 100}"#))
        accounts.maxRateAge = 10
        #expect(throws: QueryError.self) { try accounts.run("balance in INR at 2025-03-20") }
        accounts.maxRateAge = nil
        #expect(try accounts.run("balance in INR at 2025-03-20").rows.count == 1)
    }

    /// `convert`, `rate` and the reports warn of a stale rate as a query does (docs/conversion.md#rate-age):
    /// exactly 7 days old is fresh; of a chain, the old leg is named; a report names each rate
    /// once however many of its dates it served.
    @Test func convertRateAndReportsWarnOfStaleRates() throws {
        let s = try session(agingLedger)
        #expect(try s.run("convert 1 USD to INR at 2025-03-08").warnings == [])
        #expect(try s.run("convert 1 USD to INR at 2025-03-20").warnings == ["the market rate for USD/INR on 2025-03-20 is more than 7 days old: dated 2025-03-01, 19 days old"])
        #expect(try s.run("rate SGD/INR at 2025-03-09").warnings == ["the market rate for SGD/INR on 2025-03-09 is more than 7 days old: leg USD/INR dated 2025-03-01, 8 days old"])
        // A what-if rate has no age.
        #expect(try s.run("convert 1 USD to INR at 2025-03-20 with rate USD/INR = 85").warnings == [])
        let accounts = try session(agingLedger.replacingOccurrences(of: #""currency": "USD"}"#, with: #""currency": "USD", "openingBalance": 100}"#))
        #expect(try accounts.run("balance in INR at 2025-03-08").warnings == [])
        #expect(try accounts.run("balance in INR at 2025-03-20").warnings == ["the market rate for USD/INR dated 2025-03-01 is more than 7 days older than 2025-03-20 (19 days)"])
        // The month ends of March and April: one rate, two report dates, the older 60 days.
        #expect(try accounts.run("networth by month in INR since 2025-03 until 2025-04").warnings
                == ["the market rate for USD/INR dated 2025-03-01 is more than 7 days older than 2025-03-31 and 1 later report date (up to 60 days)"])
    }

    /// A chain with one leg dated after the day and the other stale warns of both (the late leg
    /// hid the other's age), in `rate` and `convert`, and under `at latest`.
    @Test func aLateLegDoesNotHideTheOtherLegsAge() throws {
        let s = try session(agingLedger.replacingOccurrences(of: #""rate": 0.75, "date": "2025-03-06""#, with: #""rate": 0.75, "date": "2025-03-20""#))
        let both = ["no market rate for SGD/INR (its leg SGD/USD) on or before 2025-03-12; used the oldest, dated 2025-03-20",
                    "the market rate for SGD/INR on 2025-03-12 is more than 7 days old: leg USD/INR dated 2025-03-01, 11 days old"]
        #expect(try s.run("rate SGD/INR at 2025-03-12").warnings == both)
        #expect(try s.run("convert 1 SGD to INR at 2025-03-12").warnings == both)
        // A query names the late leg too (no SGD/INR source exists to be late).
        #expect(try s.run("sum expenses where currency = SGD").warnings.contains(
            "no market rate for SGD/INR (its leg SGD/USD) on or before 2025-03-08; used the oldest, dated 2025-03-20, for 1 entry"))
        // At latest (today 2025-12-31), no leg is late: the older leg's age.
        #expect(try s.run("rate SGD/INR at latest").warnings.count == 1)
        #expect(try s.run("rate SGD/INR at latest").warnings.first?.contains("2025-03-01") == true)
    }

    /// A chain's late legs are named in the chain's order, and only those dated after an entry
    /// the statement converts (a leg late for an entry the filter left out was named too; the
    /// engines named two legs in different orders).
    @Test func aChainsLateLegsAreThoseOfTheEntriesConverted() throws {
        let s = try session("""
            {"version": 1, "defaultCurrency": "BHD", "books": [{"id": "b", "name": "Trip", "currency": "GBP"}],
             "entries": [{"id": "e1", "bookId": "b", "date": "2025-03-25", "amount": 0.5, "category": "Misc", "party": "Zed"},
                         {"id": "e2", "bookId": "b", "date": "2024-12-27", "amount": 100, "category": "Misc"}],
             "rates": [{"base": "USD", "date": "2026-03-06", "rates": {"BHD": 0.3816}}, {"from": "GBP", "to": "USD", "rate": 2.0, "date": "2025-03-18"}]}
            """)
        #expect(try s.run("sum entries where party = Zed").warnings.contains(
            "no market rate for GBP/BHD (its leg USD/BHD) on or before 2025-03-25; used the oldest, dated 2026-03-06, for 1 entry"))
        #expect(try s.run("sum entries").warnings.contains { $0.hasPrefix("no market rate for GBP/BHD (its legs GBP/USD and USD/BHD) on or before the dates of 2 entries") })
        let both = try session("""
            {"version": 1, "defaultCurrency": "THB", "books": [{"id": "b", "name": "Home", "currency": "INR"}],
             "entries": [{"id": "e1", "bookId": "b", "date": "2025-02-01", "amount": -100, "category": "Food"},
                         {"id": "e2", "bookId": "b", "date": "2025-04-01", "amount": -100, "category": "Food"}],
             "rates": [{"from": "INR", "to": "CHF", "rate": 0.01, "date": "2025-03-01"}, {"from": "CHF", "to": "THB", "rate": 40, "date": "2025-05-01"}]}
            """)
        #expect(try both.run("sum expenses").warnings.contains { $0.hasPrefix("no market rate for INR/THB (its legs INR/CHF and CHF/THB) on or before the dates of 2 entries") })
    }

    /// A rate column built again numbers its rates afresh: under a maximum age of 4 days, the
    /// uses of a rate older than that are told apart (USD on 2025-01-06 is a rate of its own),
    /// and under none they are one rate again. What a scan keeps by rate id (its sum slots)
    /// must come from the column it reads, not from the one built before: the EUR entry once
    /// converted at the USD rate that had its id before (₹2,400.00 instead of ₹3,200.00).
    @Test func aColumnBuiltAgainIsReadByItsOwnNumbering() throws {
        let ledger = """
        {"version": 1, "defaultCurrency": "INR", "books": [{"id": "b", "name": "B", "currency": "INR"}],
         "rates": [{"base": "USD", "date": "2025-01-01", "rates": {"INR": 80, "EUR": 0.5}}],
         "entries": [
          {"id": "1", "bookId": "b", "amount": -10, "currency": "USD", "date": "2025-01-03", "category": "C"},
          {"id": "2", "bookId": "b", "amount": -10, "currency": "USD", "date": "2025-01-06", "category": "C"},
          {"id": "3", "bookId": "b", "amount": -10, "currency": "EUR", "date": "2025-01-06", "category": "C"}]}
        """
        let s = try session(ledger)
        s.maxRateAge = 4
        #expect(plainText(try s.run("sum expenses in INR at market during 2025-01-03").rows.first?.last) == "800.00")
        s.maxRateAge = nil
        // 10 × 80 + 10 × 80 + 10 × 160 (EUR/INR from the USD snapshot: 80 ÷ 0.5).
        #expect(plainText(try s.run("sum expenses in INR at market").rows.first?.last) == "3200.00")
        #expect(plainText(try s.run("sum expenses in INR by category at market").rows.first?.last) == "3200.00")
    }

    /// Statements that read categories run on the split view, with rate columns of their own:
    /// a maximum age set or unset after the first of them holds there too (it kept the one in
    /// force when the view was made).
    @Test func theMaximumAgeHoldsForStatementsThatReadSplits() throws {
        let split = agingLedger.replacingOccurrences(of: #""amount": -20.00, "date": "2025-03-09", "category": "Food"}"#,
                                                     with: #""amount": -20.00, "date": "2025-03-09", "category": "Food", "splits": [{"amount": -15.00, "category": "Food"}, {"amount": -5.00, "category": "Taxi"}]}"#)
        #expect(split != agingLedger)
        let s = try session(split)
        // USD/INR is 8 days old on 2025-03-09.
        #expect(plainText(try s.run("sum expenses in INR where category = Taxi on 2025-03-09").rows.first?.last) == "420.00")
        s.maxRateAge = 5
        #expect(throws: QueryError.self) { try s.run("sum expenses in INR where category = Taxi on 2025-03-09") }
        s.maxRateAge = nil
        #expect(plainText(try s.run("sum expenses in INR by category on 2025-03-09").rows.last?.last) == "420.00")
    }

    @Test func rateAgeOfAChainIsItsOldestLeg() throws {
        let ledger = try LedgerLoader.load(documents: [("aging.json", agingLedger)])
        let sgd = Currency(code: "SGD")!, usd = Currency(code: "USD")!, inr = Currency(code: "INR")!
        let q = try #require(RateResolver(ledger: ledger).market(CurrencyPair(sgd, inr), on: Day.parse("2025-03-09")!))
        let age = RateAge(q, usedOn: Day.parse("2025-03-09")!)
        // SGD/USD of 2025-03-06 is 3 days old, USD/INR of 2025-03-01 is 8.
        #expect(age.legs.map(\.ageInDays) == [3, 8])
        #expect(age.ageInDays == 8)
        #expect(age.legs(olderThan: 7).map(\.pair) == [CurrencyPair(usd, inr)])
    }
}

extension Dictionary {
    func mapKeys<K: Hashable>(_ f: (Key) -> K) -> [K: Value] { Dictionary<K, Value>(uniqueKeysWithValues: map { (f($0.key), $0.value) }) }
}
