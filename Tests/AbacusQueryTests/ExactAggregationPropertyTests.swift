// Aggregating before converting is allowed only where it gives the same result as
// converting each entry first (docs/conversion.md). On generated ledgers, every grouped sum
// the engine computes (products with rate factors added in 256-bit sums per scale,
// worked out again exactly where a cut quotient factor leaves the rounding in
// doubt) must equal the sum of the entries converted one by one at their exact
// rates, as fractions, rounded once.

import AbacusCore
@testable import AbacusQuery
import BigInt
import Testing

@Suite struct ExactAggregationPropertyTests {
    /// A small random ledger: four currencies, a locked book, booked values, snapshots and pairs.
    static func ledger(seed: UInt64) -> String {
        let dice = IndexPropertyTests.Dice(seed: seed)
        func digits(_ n: Int) -> String { String(dice.next() % UInt64(n)) }
        let currencies = ["INR", "USD", "EUR", "SGD"]
        var entries: [String] = []
        for i in 0..<300 {
            let book = dice.pick(["h", "t", "u"])
            let currency = dice.pick(currencies)
            let amount = "-" + digits(100000) + "." + String(format: "%02d", Int(digits(100)) ?? 0)
            let day = String(format: "2025-%02d-%02d", Int(dice.next() % 3) + 1, Int(dice.next() % 28) + 1)
            var booked = ""
            if currency != "INR" && dice.next() % 3 == 0 {
                booked = ", \"normalizedCurrency\": \"INR\", \"conversionRate\": \(Int(digits(90)) ?? 0 + 1).\(digits(10000))"
            }
            entries.append("{\"id\": \"\(i)\", \"bookId\": \"\(book)\", \"amount\": \(amount), \"currency\": \"\(currency)\", \"date\": \"\(day)\", \"category\": \"C\(digits(5))\"\(booked)}")
        }
        var rates: [String] = []
        for m in 1...3 {
            for d in stride(from: 1, through: 28, by: 3) {
                rates.append("{\"base\": \"USD\", \"date\": \"2025-\(String(format: "%02d-%02d", m, d))\", \"rates\": {\"INR\": 8\(digits(10)).\(digits(10000)), \"EUR\": 0.9\(digits(1000)), \"SGD\": 1.3\(digits(1000))}}")
            }
        }
        rates.append("{\"from\": \"SGD\", \"to\": \"INR\", \"rate\": 6\(digits(10)).\(digits(100)), \"date\": \"2025-02-10\"}")
        return """
        {"version": 1, "defaultCurrency": "INR",
         "books": [{"id": "h", "name": "H", "currency": "INR"},
                   {"id": "t", "name": "T", "currency": "SGD", "lockedExchangeRate": 55.5, "targetCurrency": "INR"},
                   {"id": "u", "name": "U", "currency": "USD"}],
         "entries": [\(entries.joined(separator: ",\n"))],
         "rates": [\(rates.joined(separator: ",\n"))],
         "customRates": [{"from": "EUR", "to": "INR", "rate": 91.25, "date": "2025-03-01"}]}
        """
    }

    /// An expense row converted alone at its exact rate: a fraction, never a cut quotient.
    static func exactExpense(_ row: Int, _ converter: RowConverter, _ store: EntryStore) throws -> Fraction {
        let amount = -store.amount[row]
        let id = converter.id(row)
        if id >= 0 { return converter.exactValue(amount: amount, id: id) }
        let (p, scale) = try #require(converter.product(row, id: id, amount: amount, negate: true))
        return Fraction(WideDecimal(p.big, scale: scale))
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func groupedSumsEqualEntryByEntryConversion(seed: UInt64) throws {
        let ledger = try LedgerLoader.load(documents: [("gen.json", ExactAggregationPropertyTests.ledger(seed: seed))])
        let store = ledger.entries
        for (target, valuation, query) in [("INR", Valuation.booked, "sum expenses in INR by category"),
                                           ("USD", .market, "sum expenses in USD by category at market"),
                                           ("EUR", .booked, "sum expenses in EUR by category")] {
            let session = Session(ledger: ledger, today: Day(year: 2025, month: 12, day: 31)!)
            let result = try session.run(query)
            // Entry by entry: each converted alone at its exact rate (a fraction, never a cut
            // quotient), summed as fractions, rounded once.
            let currency = try #require(Currency(code: target))
            let column = RateColumn(ledger: ledger, resolver: RateResolver(ledger: ledger), target: currency, valuation: valuation, today: nil)
            let converter = RowConverter(column: column, store: store, whatIf: [:])
            var perCategory: [String: Fraction] = [:]
            var all = Fraction.zero
            for row in 0..<store.count where store.amount[row] < 0 && !store.isTransfer[row] {
                let v = try ExactAggregationPropertyTests.exactExpense(row, converter, store)
                perCategory[store.categories[Int(store.category[row])], default: .zero] = perCategory[store.categories[Int(store.category[row])], default: .zero] + v
                all = all + v
            }
            let expected = perCategory.mapValues { $0.rounded(toScale: currency.minorUnits)?.description ?? "" }
            #expect(amounts(result) == expected, "seed \(seed): \(query)")
            #expect(total(result) == all.rounded(toScale: currency.minorUnits)?.description, "seed \(seed): \(query)")
        }
    }
}
