// `list … top N` has a fast path: each of two threads keeps its best N while
// scanning, reading the rate column and its factors directly. On generated ledgers
// it must list exactly what a plain reference lists: every matching entry
// converted alone at its exact rate, sorted by that exact value (ties in date
// order), cut to N, each rounded once, and a total of the exact values rounded once.

import AbacusCore
@testable import AbacusQuery
import BigInt
import Testing

@Suite struct ListPropertyTests {
    /// (date, category, amount) of each listed row, and the total, as the reference works them out.
    static func reference(_ ledger: Ledger, target: Currency, valuation: Valuation, descending: Bool, top: Int) throws -> (rows: [[String]], total: String?) {
        let store = ledger.entries
        let column = RateColumn(ledger: ledger, resolver: RateResolver(ledger: ledger), target: target, valuation: valuation, today: nil)
        let converter = RowConverter(column: column, store: store, whatIf: [:])
        var values: [(row: Int, value: Fraction)] = []
        for row in 0..<store.count where store.amount[row] < 0 && !store.isTransfer[row] {
            let amount = -store.amount[row]
            let id = converter.id(row)
            if id >= 0 {
                values.append((row, converter.exactValue(amount: amount, id: id)))
            } else {
                let (p, scale) = try #require(converter.product(row, id: id, amount: amount, negate: true))
                values.append((row, Fraction(WideDecimal(p.big, scale: scale))))
            }
        }
        // A stable sort: equal values keep date (row) order.
        let ranked = values.enumerated().sorted { a, b in
            if a.element.value == b.element.value { return a.offset < b.offset }
            return descending ? b.element.value < a.element.value : a.element.value < b.element.value
        }.map(\.element).prefix(top)
        let rows = ranked.map { r in
            [Day(number: store.day[r.row]).description, store.categories[Int(store.category[r.row])],
             r.value.rounded(toScale: target.minorUnits)?.description ?? "?"]
        }
        let total = ranked.reduce(Fraction.zero) { $0 + $1.value }.rounded(toScale: target.minorUnits)?.description
        return (rows, ranked.isEmpty ? nil : total)
    }

    /// `list … order by NAME` ranks each distinct name once and puts the rows in order of their
    /// ranks (Executor.orderedByName): the ids it lists must be those of the rows sorted by the
    /// name they show (Listing.before: any letter case, "(none)" last) and then by date, cut to N.
    @Test func orderByANameListsWhatSortingByThatNameLists() throws {
        let ledger = try LedgerLoader.load(documents: [("gen.json", LargeGroupingTests.ledger(seed: 8))])
        let store = ledger.entries
        let session = Session(ledger: ledger, today: Day(year: 2025, month: 12, day: 31)!)
        let expenses = (0..<store.count).filter { store.amount[$0] < 0 && !store.isTransfer[$0] }
        // The name a row shows for a key; nil for "(none)".
        func name(_ k: GroupKey, _ row: Int) -> String? {
            switch k {
            case .book: return ledger.books[Int(store.book[row])].name
            case .category: return store.categories[Int(store.category[row])]
            case .party: return store.party[row] == 0 ? nil : store.parties[Int(store.party[row])]
            default: return store.currency[row].code
            }
        }
        for (key, k) in [("book", GroupKey.book), ("category", .category), ("party", .party), ("currency", .currency)] {
            for descending in [false, true] {
                for top in [nil, 25] as [Int?] {
                    let want = expenses.sorted { a, b in
                        Listing.before(name(k, a), a, name(k, b), b, descending: descending)
                    }.prefix(top ?? expenses.count).map { store.id(at: $0) }
                    let q = "list expenses\(k == .currency ? " in native" : "") order by \(key)\(descending ? " desc" : "")\(top.map { " top \($0)" } ?? "")"
                    let r = try session.run(q)
                    let got = r.rows.map { row -> String in if case .text(let id) = row[0] { return id } else { return "?" } }
                    #expect(got == Array(want), "\(q)")
                }
            }
        }
    }

    /// `list … order by date [desc] top N` keeps only the first N rows as it scans, or the last
    /// N when the newest come first; by amount or by a name it keeps the best N seen so far,
    /// cutting them back in batches. On one thread or two, and for an N larger than a batch,
    /// the rows it lists are those the whole listing starts with, ties included.
    @Test func topNListsWhatTheWholeListingStartsWith() throws {
        let ledger = try LedgerLoader.load(documents: [("gen.json", LargeGroupingTests.ledger(seed: 8))])
        for threads in [Executor.parallelRows, 16] {
            let session = Session(ledger: ledger, today: Day(year: 2025, month: 12, day: 31)!)
            session.parallelRows = threads
            for listing in ["list expenses in USD order by date", "list expenses in USD order by date desc",
                            "list entries in EUR where party ~ \"1\" order by date desc", "list income in native order by date",
                            "list expenses in USD order by amount desc", "list entries in INR at market order by amount",
                            "list expenses order by category desc", "list entries in EUR order by party"] {
                let whole = try session.run(listing).rows
                #expect(whole.count > 1_000, "\(listing)")
                for n in [1, 25, 1_000, whole.count / 3, whole.count, whole.count + 3] {
                    let r = try session.run(listing + " top \(n)")
                    #expect(r.rows == Array(whole.prefix(n)), "threshold \(threads): \(listing) top \(n)")
                }
            }
        }
    }

    @Test(arguments: [11, 12, 13, 14, 15, 16] as [UInt64])
    func topNListsWhatTheReferenceLists(seed: UInt64) throws {
        let ledger = try LedgerLoader.load(documents: [("gen.json", ExactAggregationPropertyTests.ledger(seed: seed))])
        let cases: [(String, String, Valuation, Bool, Int)] = [
            ("list expenses in INR order by amount desc top 7", "INR", .booked, true, 7),
            ("list expenses in USD at market order by amount top 5", "USD", .market, false, 5),
            ("list expenses in EUR top 12", "EUR", .booked, true, 12),
            ("list expenses in SGD order by amount desc top 400", "SGD", .booked, true, 400),
        ]
        for threads in [Executor.parallelRows, 16] {
            let session = Session(ledger: ledger, today: Day(year: 2025, month: 12, day: 31)!)
            // A low threshold makes even this small ledger take the two-thread path.
            session.parallelRows = threads
            for (query, code, valuation, descending, top) in cases {
                let currency = try #require(Currency(code: code))
                let expected = try ListPropertyTests.reference(ledger, target: currency, valuation: valuation, descending: descending, top: top)
                let r = try session.run(query)
                let date = try #require(r.names.firstIndex(of: "date")), category = try #require(r.names.firstIndex(of: "category"))
                let listed = r.rows.map { row in [plainText(row[date]) ?? "", plainText(row[category]) ?? "", plainText(row.last) ?? ""] }
                #expect(listed == expected.rows, "seed \(seed), threshold \(threads): \(query)")
                #expect(total(r) == expected.total, "seed \(seed), threshold \(threads): \(query)")
            }
        }
    }
}
