// `balance`, `budget`, `networth` and `holdings` on a ledger in PostgreSQL
// (docs/postgres.md, What runs in SQL): each sum a report asks runs in SQL, so the entries
// are never read into memory, and every report gives the output the in-memory engine gives,
// in every format, with the same warnings and errors.

import AbacusCore
import AbacusPostgres
import AbacusQuery
@testable import AbacusShell
import Foundation
import Testing

@Suite(.serialized) struct PostgresReportTests {
    /// The demo ledger without its split entries' parts (each stays one entry, under its own
    /// category): a budget's test of a category reads the parts, which run in memory.
    static func demoWithoutSplits() throws -> String {
        let text = try String(contentsOf: Binary.root.appendingPathComponent(PG.demo), encoding: .utf8)
        let splits = try NSRegularExpression(pattern: #", "splits": \[[^\]]*\]"#)
        let stripped = splits.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "")
        #expect(stripped != text && !stripped.contains("\"splits\""))
        return try Binary.temporaryFile("demo-without-splits.json", stripped)
    }

    final class Reads: @unchecked Sendable {
        var count = 0
    }

    /// A shell on the ledger at `path` and one on the same ledger imported into a new
    /// database, which counts how often the entries are read from it.
    static func shells(_ path: String) throws -> (memory: (Shell, Differential.Capture), database: (Shell, Differential.Capture), reads: Reads) {
        let url = try PostgresServer.get().newDatabase()
        let imported = try Binary.run(["--db", url, "--import", path])
        #expect(imported.status == 0, "\(imported.stderr)")
        let db = try Database.connect(try DatabaseURL.parse(url, environment: [:]))
        let memory = Differential.shell(try LedgerLoader.load(paths: [path]), engine: nil)
        let database = try Differential.shell(db)
        let reads = Reads()
        database.0.session.entrySource = { () throws(QueryError) -> Ledger in
            reads.count += 1
            do { return try LedgerTables.load(db).get() } catch { throw QueryError(.database("\(error)"), at: nil) }
        }
        return (memory, database, reads)
    }

    static let reports = [
        "balance", "balance in USD", "balance by book in EUR at 2025-06-30", "balance at 2025-01-01", "balance in CHF",
        "budget", "budget since 2025-01", "budget during 2025-Q3 in USD", "budget during 2024-12", "budget since 2025-10 in EUR",
        "networth", "networth in USD at 2025-06-30", "networth at 2024-12-31", "networth by month", "networth by quarter during 2025 in EUR",
        "networth by year in SGD", "networth by month since 2025-09 in USD",
        "holdings", "holdings in INR at 2025-09-30", "holdings in USD",
        "explain balance in USD", "explain budget since 2025-10", "explain networth by quarter", "explain holdings in INR",
        "set rate USD/INR = 90", "balance in INR", "budget during 2025-11 in USD", "networth by quarter", "unset rate USD/INR",
        "set max rate age 10 days", "balance in USD", "networth in EUR", "unset max rate age",
    ]

    @Test func reportsRunInTheDatabaseAndNeverReadTheEntries() throws {
        let (memory, database, reads) = try Self.shells(try Self.demoWithoutSplits())
        for statement in Self.reports {
            for format in ["table", "csv", "json", "markdown", "chart"] {
                let expected = Differential.run(memory.0, memory.1, kind: "query", format: format, statement)
                let actual = Differential.run(database.0, database.1, kind: "query", format: format, statement)
                #expect(actual == expected, "\(format): \(statement)")
                if statement.hasPrefix("set") || statement.hasPrefix("unset") { break }
            }
        }
        #expect(reads.count == 0, "the entries were read \(reads.count) times")
        #expect(database.0.session.ledger.entriesElsewhere != nil)
    }

    /// The ledger made to meet every rule of conversion (booked values, a locked book, custom
    /// and market rates, the oldest-after fallback, a chain, a currency without any rate),
    /// with accounts, budgets (one carrying over from the first entry's month) and two more
    /// entries: the earliest, that uses no name another entry does not use (the month a
    /// carry-over starts from comes from the entries read at start), and one in April in a
    /// currency without any rate (a balance from then on fails, one before it answers).
    static func conversionsWithReports() throws -> String {
        var text = try String(contentsOf: Binary.root.appendingPathComponent("Tests/Fixtures/conversions.json"), encoding: .utf8)
        for (name, opening) in [("Home", "25000"), ("Singapore", "-40.5"), ("SG Card", "300"), ("Europe", "1200.75"), ("US", "800"), ("Japan", "50000")] {
            text = text.replacingOccurrences(of: "\"name\": \"\(name)\",", with: "\"name\": \"\(name)\", \"openingBalance\": \(opening),")
        }
        text = text.replacingOccurrences(of: "\"entries\": [", with: """
            "entries": [{"id": "early", "bookId": "b-home", "amount": -12.5, "currency": "INR", "date": "2025-01-15", "category": "Food", "party": "Acme"},
              {"id": "no-rate", "bookId": "b-home", "amount": -20, "currency": "CHF", "date": "2025-04-10", "category": "Fees"},
            """)
        text = text.replacingOccurrences(of: "\"customRates\": [", with: """
            "budgets": [
              {"category": "Food", "limitAmount": 50, "currencyCode": "INR", "carryOver": true},
              {"category": "Travel", "limitAmount": 200, "currencyCode": "USD", "bookId": "b-sg"},
              {"category": "Rent", "limitAmount": 900, "currencyCode": "EUR", "month": "2025-04"},
              {"category": "Fees", "limitAmount": 10, "currencyCode": "SGD", "alerts": [10, 50]}
            ],
            "customRates": [
            """)
        #expect(text.contains("\"openingBalance\": 1200.75") && text.contains("\"carryOver\": true") && text.contains("\"id\": \"early\""))
        return try Binary.temporaryFile("conversions-with-reports.json", text)
    }

    static let conversionReports = [
        "budget until 2025-06", "budget since 2025-02 in USD", "budget during 2025-04", "budget during 2025-03 in EUR", "explain budget during 2025-03",
        "balance", "balance in INR", "balance at 2025-03-15 in EUR", "networth in USD", "networth by month in INR", "networth by quarter in EUR",
        "explain networth by quarter in INR", "networth by month until 2025-03 in USD", "networth by month since 2025-02 in INR",
        "explain networth by month during 2025-Q1 in EUR", "set rate CHF/INR = 105", "networth by month in INR", "balance in INR",
        "networth by quarter in EUR", "set rate SGD/INR = 57", "budget since 2025-02", "unset rate SGD/INR",
        "set max rate age 20 days", "budget until 2025-06", "balance in USD", "unset max rate age",
    ]

    @Test func reportsOverEveryRuleOfConversionRunInTheDatabase() throws {
        let (memory, database, reads) = try Self.shells(try Self.conversionsWithReports())
        var answered = 0
        for statement in Self.conversionReports {
            for format in ["table", "csv", "json", "markdown", "chart"] {
                let expected = Differential.run(memory.0, memory.1, kind: "query", format: format, statement)
                let actual = Differential.run(database.0, database.1, kind: "query", format: format, statement)
                #expect(actual == expected, "\(format): \(statement)")
                if format == "table" && expected.hasPrefix("true") { answered += 1 }
                if statement.hasPrefix("set") || statement.hasPrefix("unset") { break }
            }
        }
        // Most answer; the rest fail alike (a currency without any rate).
        #expect(answered >= 12, "only \(answered) statements answered")
        #expect(reads.count == 0, "the entries were read \(reads.count) times")
    }

    /// On the demo ledger itself, a budget tests categories that split entries divide: its
    /// sums read the parts (docs/postgres.md, the split view in SQL), still without reading
    /// the entries, and so do statements grouped by category; one that tests amounts beside
    /// a category there reads them, once.
    @Test func aBudgetOverSplitEntriesRunsInTheDatabaseToo() throws {
        let (memory, database, reads) = try Self.shells(Binary.root.appendingPathComponent(PG.demo).path)
        let statements = ["budget since 2025-01", "budget in USD", "budget during 2025-06 in EUR", "explain budget since 2025-10",
                          "sum expenses in INR where category = Household during 2025-Q1", "sum expenses in native where category in (Groceries, Sightseeing) by currency, month",
                          "sum expenses in USD at market where category = \"Food & Dining\" by book",
                          // A split part of an entry with a normalizedAmount converts at its share of it.
                          "sum expenses in INR where category = Sightseeing during 2025-06", "explain sum expenses in INR where category = Sightseeing during 2025-06",
                          "sum expenses in INR where category in (\"Food & Dining\", Sightseeing) by book, day during 2025-06-15", "balance in USD", "networth by quarter", "holdings in INR"]
        for statement in statements {
            for format in ["table", "json", "csv"] {
                #expect(Differential.run(database.0, database.1, kind: "query", format: format, statement)
                        == Differential.run(memory.0, memory.1, kind: "query", format: format, statement), "\(format): \(statement)")
            }
        }
        #expect(reads.count == 0)
        for statement in ["sum expenses in INR by category", "count expenses where category = Groceries", "sum expenses in INR where amount > 1000 by category"] {
            #expect(Differential.run(database.0, database.1, kind: "query", format: "json", statement)
                    == Differential.run(memory.0, memory.1, kind: "query", format: "json", statement), "\(statement)")
            #expect(reads.count == (statement.contains("amount >") ? 1 : 0), "\(statement)")
        }
    }

    /// A least or greatest by category over a split entry whose parts fall in two rows: the
    /// total row sees the entry whole (and says so), in a crosstab's Total too, in both engines.
    @Test func anExtremeOverSplitEntriesIsTheEntryWholeInTheTotalRow() throws {
        let path = try Binary.temporaryFile("split-extremes.json", """
            {"version": 1, "defaultCurrency": "INR", "books": [{"id": "b", "name": "B", "currency": "INR"}],
             "entries": [{"id": "e1", "bookId": "b", "amount": -20, "date": "2025-01-10", "category": "Food",
                          "splits": [{"amount": -10, "category": "Food"}, {"amount": -10, "category": "Rent"}]},
                         {"id": "e2", "bookId": "b", "amount": -15, "date": "2025-01-11", "category": "Rent"}]}
            """)
        let (memory, database, _) = try Self.shells(path)
        func both(_ statement: String, _ format: String) -> String {
            let m = Differential.run(memory.0, memory.1, kind: "query", format: format, statement)
            #expect(Differential.run(database.0, database.1, kind: "query", format: format, statement) == m, "\(format): \(statement)")
            return m
        }
        // Rows: Food 10, Rent 10 and 15; the entries whole: 20 and 15.
        #expect(both("max expenses in INR by category", "markdown").hasSuffix("| **Overall (each entry once)** | ₹20.00 |\n"))
        #expect(both("min expenses in INR by category", "markdown").hasSuffix("| **Overall (each entry once)** | ₹15.00 |\n"))
        #expect(both("max expenses in INR per category", "csv").contains("out: 10.00,15.00"))
        #expect(both("max expenses in INR per category", "markdown").hasSuffix("| ₹10.00 | ₹15.00 | ₹20.00 |\n"))
        #expect(both("max expenses in INR by book", "markdown").hasSuffix("| **Overall** | ₹20.00 |\n"))
        _ = both("avg expenses in INR by category", "markdown")
        _ = both("max expenses in INR by category during 2025 vs 2024", "markdown")
    }

    /// Through the binary: `holdings` and `balance` print no line about reading the entries.
    @Test func theBinaryReadsNoEntriesForReports() throws {
        let path = try Self.demoWithoutSplits()
        let url = try PostgresServer.get().newDatabase()
        #expect(try Binary.run(["--db", url, "--import", path]).status == 0)
        let script = ["holdings in USD", "balance in USD", "budget since 2025-06", "networth by month in EUR"]
        let files = try Binary.run([path, "--today", "2025-12-31"] + script.flatMap { ["-e", $0] })
        let database = try Binary.run(["--db", url, "--today", "2025-12-31"] + script.flatMap { ["-e", $0] })
        #expect(files.status == 0)
        #expect(database.status == 0)
        #expect(database.stdout == files.stdout)
        #expect(database.stderr == files.stderr, "\(database.stderr)")
        #expect(!database.stderr.contains("reading"))
    }
}
