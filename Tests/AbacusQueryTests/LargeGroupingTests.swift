// Groupings with thousands of groups take paths of their own in the dense kernel: a product
// of keys numbers only the groups it meets (in product order, marked by both threads), the
// groups' sums are read where the scan left them, and their sums and roundings are worked
// out by two threads, each over half the groups. On a generated ledger with thousands of
// (party, day) groups, each group's sum must be the sum of its entries converted one by one
// at their exact rates, rounded once, and the dense kernel must agree with the general path
// on every aggregate, with tags, missing parties and several currencies.

import AbacusCore
@testable import AbacusQuery
import Testing

@Suite struct LargeGroupingTests {
    /// 8,000 entries: 400 parties and none, 120 days, five currencies converted through USD
    /// snapshots (cut quotient factors), booked values, a locked book, up to three tags.
    static func ledger(seed: UInt64) -> String {
        let dice = IndexPropertyTests.Dice(seed: seed)
        func digits(_ n: Int) -> String { String(dice.next() % UInt64(n)) }
        let currencies = ["INR", "USD", "EUR", "SGD", "JPY"]
        let tags = ["a", "b", "c", "d", "e"]
        var entries: [String] = []
        for i in 0..<8000 {
            let book = dice.pick(["h", "t", "u"])
            let currency = dice.pick(currencies)
            let sign = dice.next() % 5 == 0 ? "" : "-"
            let amount = sign + digits(100000) + (currency == "JPY" ? "" : "." + String(format: "%02d", Int(digits(100)) ?? 0))
            let day = String(format: "2025-%02d-%02d", Int(dice.next() % 4) + 1, Int(dice.next() % 28) + 1)
            var extra = ""
            if dice.next() % 6 != 0 { extra += ", \"party\": \"P\(digits(400))\"" }
            let n = Int(dice.next() % 4)
            if n > 0 { extra += ", \"tags\": [" + Set((0..<n).map { _ in dice.pick(tags) }).sorted().map { "\"\($0)\"" }.joined(separator: ", ") + "]" }
            if currency != "INR" && dice.next() % 4 == 0 {
                extra += ", \"normalizedCurrency\": \"INR\", \"conversionRate\": \(Int(digits(90)) ?? 0 + 1).\(digits(10000))"
            }
            entries.append("{\"id\": \"\(i)\", \"bookId\": \"\(book)\", \"amount\": \(amount), \"currency\": \"\(currency)\", \"date\": \"\(day)\", \"category\": \"C\(digits(7))\"\(extra)}")
        }
        var rates: [String] = []
        for m in 1...4 {
            for d in stride(from: 1, through: 28, by: 2) {
                rates.append("{\"base\": \"USD\", \"date\": \"2025-\(String(format: "%02d-%02d", m, d))\", \"rates\": {\"INR\": 8\(digits(10)).\(digits(10000)), \"EUR\": 0.9\(digits(1000)), \"SGD\": 1.3\(digits(1000)), \"JPY\": 15\(digits(10)).\(digits(100))}}")
            }
        }
        return """
        {"version": 1, "defaultCurrency": "INR",
         "books": [{"id": "h", "name": "H", "currency": "INR"},
                   {"id": "t", "name": "T", "currency": "SGD", "lockedExchangeRate": 55.5, "targetCurrency": "INR"},
                   {"id": "u", "name": "U", "currency": "USD"}],
         "entries": [\(entries.joined(separator: ",\n"))],
         "rates": [\(rates.joined(separator: ",\n"))]}
        """
    }

    @Test(arguments: [3, 4] as [UInt64])
    func everyGroupIsTheExactSumOfItsEntries(seed: UInt64) throws {
        let ledger = try LedgerLoader.load(documents: [("gen.json", LargeGroupingTests.ledger(seed: seed))])
        let store = ledger.entries
        for target in ["EUR", "INR"] {
            let query = "sum expenses in \(target) by party, day"
            let session = Session(ledger: ledger, today: Day(year: 2025, month: 12, day: 31)!)
            // Numbering only the groups met, as the product of 401 parties by 120 days does.
            session.compactAbove = 0
            session.parallelRows = 2
            let result = try session.run(query)
            // Thousands of groups: their sums and roundings are shared between two threads.
            #expect(result.rows.count > 2048, "\(query)")
            let currency = try #require(Currency(code: target))
            let column = RateColumn(ledger: ledger, resolver: RateResolver(ledger: ledger), target: currency, valuation: .booked, today: nil)
            let converter = RowConverter(column: column, store: store, whatIf: [:])
            var perGroup: [String: Fraction] = [:]
            var all = Fraction.zero
            for row in 0..<store.count where store.amount[row] < 0 && !store.isTransfer[row] {
                let v = try ExactAggregationPropertyTests.exactExpense(row, converter, store)
                let party = store.party[row] == 0 ? "" : store.parties[Int(store.party[row])]
                let key = party + "|" + Day(number: store.day[row]).description
                perGroup[key, default: .zero] = perGroup[key, default: .zero] + v
                all = all + v
            }
            var got: [String: String] = [:]
            for row in result.rows {
                guard case .period(let p) = row[1], case .money(let v, _) = row[2] else { continue }
                let party: String
                switch row[0] {
                case .text(let s): party = s
                default: party = ""
                }
                got[party + "|" + p.description] = v.description
            }
            #expect(got == perGroup.mapValues { $0.rounded(toScale: currency.minorUnits)?.description ?? "" }, "seed \(seed): \(query)")
            guard case .money(let whole, _)? = result.totals.first?.last else { Issue.record("no total: \(query)"); continue }
            #expect(whole.description == all.rounded(toScale: currency.minorUnits)?.description, "seed \(seed): \(query)")
        }
    }

    @Test func theDenseKernelAgreesWithTheGeneralPathOnThousandsOfGroups() throws {
        let ledger = try LedgerLoader.load(documents: [("gen.json", LargeGroupingTests.ledger(seed: 5))])
        let today = Day(year: 2025, month: 12, day: 31)!
        for q in ["sum expenses in EUR by party, day", "avg entries in USD by party, day", "min expenses in INR by day, party",
                  "max income in SGD by party, week, currency", "count entries by party, day", "sum entries in native by currency, party, month",
                  "sum expenses in JPY by party, tag, month", "count entries by tag, party, day", "avg expenses in EUR by day, party order by amount desc top 50",
                  "sum expenses in INR by party, day with share"] {
            for (parallelRows, compactAbove) in [(2, 0), (2, Executor.compactAbove), (Executor.parallelRows, 0)] {
                let dense = Session(ledger: ledger, today: today)
                dense.parallelRows = parallelRows
                dense.compactAbove = compactAbove
                let general = Session(ledger: ledger, today: today)
                general.useDenseKernel = false
                IndexPropertyTests.expectSame(Result { try dense.run(q) }, Result { try general.run(q) }, q)
            }
        }
    }

    @Test func mapInHalvesKeepsTheOrder() {
        for n in [0, 1, 2047, 2048, 2049, 10_001] {
            #expect(Executor.mapInHalves(n) { $0 &* 7 &+ 1 } == (0..<n).map { $0 &* 7 &+ 1 })
        }
    }
}
