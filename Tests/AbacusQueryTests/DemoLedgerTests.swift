// The first query form on the demo ledger, against totals worked out apart from
// Abacus: Examples/make-demo-ledger.py's own check (native sums, counts) and an
// independent Python implementation of docs/conversion.md with exact fractions (the converted
// totals), which agreed to the paisa with the figures below.

import AbacusCore
@testable import AbacusQuery
import Foundation
import Testing

@Suite struct DemoLedgerTests {
    static let ledger = Result { try LedgerLoader.load(paths: [Repository.root.appendingPathComponent("Examples/demo.json").path]) }

    /// A session of its own for each test: sessions cache rates and are not shared across threads.
    func session() throws -> Session {
        Session(ledger: try DemoLedgerTests.ledger.get(), today: Day(year: 2025, month: 12, day: 31)!)
    }

    func run(_ q: String) throws -> ResultSet {
        try session().run(q)
    }

    @Test func theDemoLoads() throws {
        let s = try session()
        // 1200 entries in 6 books; 365 daily snapshots and 2 pairs.
        #expect(s.ledger.entries.count == 1200)
        #expect(s.ledger.books.count == 6)
        #expect(s.ledger.snapshots.count == 365 && s.ledger.pairs.count == 2)
    }

    @Test func nativeSumsMatchTheGeneratorsOwnTotals() throws {
        // All entries by currency, stored sign: EUR -5519.23, GBP -1388.71, INR 6020319.91,
        // JPY -356166, SGD -4202.96, USD 12297.46.
        #expect(amounts(try run("sum entries in native")) ==
                ["EUR": "-5519.23", "GBP": "-1388.71", "INR": "6020319.91", "JPY": "-356166", "SGD": "-4202.96", "USD": "12297.46"])
        // Expenses read as positive spending: EUR 7111.53 … INR 2443374.02.
        #expect(amounts(try run("sum expenses in native")) ==
                ["EUR": "7111.53", "GBP": "1388.71", "INR": "2443374.02", "JPY": "459166", "SGD": "5402.96", "USD": "10877.54"])
        // Home's INR expenses of October 2025 (50 entries, a date-time at 00:20+05:30 on the 1st counted
        // in October, the transfer e-00909 and the SGD entry e-00960 not): 176457.96.
        #expect(amounts(try run("sum expenses in native by book during 2025-10"))["Home/INR"] == "176457.96")
    }

    @Test func countsByBook() throws {
        #expect(amounts(try run("count entries by book")) ==
                ["Europe Tour": "142", "Home": "521", "Office": "185", "Singapore Trip": "93", "Tokyo Trip": "114", "US Consulting": "145"])
        #expect(total(try run("count entries by book")) == "1200")
    }

    /// Totals from the independent implementation (exact fractions, rounded once).
    @Test(arguments: [
        ("sum expenses in INR by book", "4748506.89"),
        ("sum expenses in INR by category since 2025-10", "1045648.89"),
        ("sum income in INR by month", "10754190.26"),
        ("sum entries in INR by book", "5973146.76"),
        ("sum expenses in USD by book", "56442.56"),
        ("sum expenses in EUR by month", "51500.52"),
    ])
    func convertedTotals(query: String, expected: String) throws {
        let r = try run(query)
        #expect(total(r) == expected)
        #expect(r.warnings.isEmpty)
    }

    @Test func expensesByBookGroupByGroup() throws {
        // The same independent computation, group by group (₹ in the table: 9,26,829.73 …).
        #expect(amounts(try run("sum expenses in INR by book")) == [
            "Europe Tour": "926829.73", "Home": "1470048.07", "Office": "551637.19",
            "Singapore Trip": "333260.27", "Tokyo Trip": "335817.92", "US Consulting": "1130913.71",
        ])
    }

    @Test func whereEachRateCameFrom() throws {
        // Expenses in INR: 216 at a booked normalizedAmount, 104 at a book's locked rate,
        // 20 at the custom EUR/INR rate, 112 at market rates; the rest are INR already.
        let p = try #require(try run("sum expenses in INR").provenance)
        #expect(p.bookedNormalized == 216)
        #expect(p.bookedLocked == 104)
        #expect(p.custom == 20)
        #expect(p.market == 112)
    }
}
