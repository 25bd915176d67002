// The differential test (docs/postgres.md): every statement of every golden query file
// (Tests/Golden/*.test) and every example script (Examples/*.abq) runs against the demo
// ledger from its file and from a database, and must give the same output, in the same
// format, with the same warnings and errors. Only what `explain` says about how a
// statement runs differs: the in-memory access path against the SQL.

import AbacusCore
import AbacusPostgres
import AbacusQuery
@testable import AbacusShell
import Foundation
import Testing

enum Differential {
    static let golden = Binary.root.appendingPathComponent("Tests/Golden")
    static var goldenFiles: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: golden.path)) ?? []).filter { $0.hasSuffix(".test") }.sorted()
    }

    /// The statements of a golden file: (kind, format, statement), in order.
    static func cases(_ text: String) -> [(kind: String, format: String?, statement: String)] {
        let lines = text.components(separatedBy: "\n")
        var out: [(String, String?, String)] = []
        for (i, line) in lines.enumerated() where i + 1 < lines.count {
            let header = line.split(separator: " ").map(String.init)
            guard let kind = header.first, ["query", "error", "plan"].contains(kind), header.count <= 2 else { continue }
            out.append((kind, header.count > 1 ? header[1] : nil, lines[i + 1]))
        }
        return out
    }

    final class Capture: @unchecked Sendable {
        var text = ""
    }

    /// A shell on a ledger, its output captured; `engine` runs its queries when given.
    static func shell(_ ledger: Ledger, engine: (any QueryEngine)?) -> (Shell, Capture) {
        let shell = Shell(options: ShellOptions(), environment: [:])
        shell.session = Session(ledger: ledger, today: Day(year: 2025, month: 12, day: 31)!)
        shell.session.engine = engine
        let capture = Capture()
        shell.writeOut = { capture.text += "out: " + $0 }
        shell.writeErr = { capture.text += "err: " + $0 }
        return (shell, capture)
    }

    /// A shell on the ledger in a database as `--db` opens it: the small tables and one entry
    /// per name, the entries read when a statement first needs them in memory.
    static func shell(_ db: Database) throws -> (Shell, Capture) {
        let skeleton = try LedgerTables.load(db, entries: false).get()
        #expect(skeleton.entriesElsewhere != nil)
        let (shell, capture) = shell(skeleton, engine: SQLEngine(db: db))
        shell.session.entrySource = { () throws(QueryError) -> Ledger in
            do { return try LedgerTables.load(db).get() } catch { throw QueryError(.database("\(error)"), at: nil) }
        }
        return (shell, capture)
    }

    /// Standard error without the line that says the entries were read from the database.
    static func withoutReading(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !($0.hasPrefix("reading ") && $0.hasSuffix(" from the database to run this statement in memory")) }
            .joined(separator: "\n")
    }

    /// What a statement gave, without the lines that say how it ran.
    static func run(_ shell: Shell, _ capture: Capture, kind: String, format: String?, _ statement: String) -> String {
        capture.text = ""
        shell.renderer.format = format.flatMap(OutputFormat.init(rawValue:)) ?? .table
        if kind == "plan" {
            do { return how(try shell.session.plan(statement).logical.description) } catch { return "error: \(error)" }
        }
        let ok = shell.execute(statement, location: nil)
        return "\(ok)\n" + how(capture.text)
    }

    /// Drops an explain's `access path:`, `sql:` or (a crosstab's) `runs:` section (its
    /// indented lines after it; in JSON, the rest of the plan's string): how the statement
    /// runs on each engine (the database runs a crosstab's totals as plans of their own).
    static func how(_ text: String) -> String {
        let json = (try? NSRegularExpression(pattern: #"\\n(access path|sql|runs):\\n(?:[^"\\]|\\.)*"#))
        let text = json.map { $0.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "") } ?? text
        var out: [Substring] = []
        var skipping = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasSuffix("access path:") || line.hasSuffix("sql:") || line.hasSuffix("runs:") { skipping = true; continue }
            if skipping && (line.hasPrefix("  ") || line.hasPrefix("out:   ") || line.hasPrefix("\"  ")) { continue }
            skipping = false
            out.append(line)
        }
        return out.joined(separator: "\n")
    }
}

@Suite(.serialized) struct PostgresDifferentialTests {
    @Test(arguments: Differential.goldenFiles)
    func goldenFileGivesTheSameOutputFromTheDatabase(_ name: String) throws {
        let url = try PG.demoDatabase()
        let db = try Database.connect(try DatabaseURL.parse(url, environment: [:]))
        let fromFile = try LedgerLoader.load(paths: [Binary.root.appendingPathComponent(PG.demo).path])
        let (memory, memoryOut) = Differential.shell(fromFile, engine: nil)
        let (database, databaseOut) = try Differential.shell(db)
        let text = try String(contentsOf: Differential.golden.appendingPathComponent(name), encoding: .utf8)
        let cases = Differential.cases(text)
        #expect(cases.count > 5)
        var lowered = 0
        for c in cases {
            let expected = Differential.run(memory, memoryOut, kind: c.kind, format: c.format, c.statement)
            let actual = Differential.run(database, databaseOut, kind: c.kind, format: c.format, c.statement)
            #expect(actual == expected, "\(name): \(c.statement)")
            if (try? database.session.logicalPlan(c.statement)).flatMap({ SQLEngine(db: db).explain($0, in: database.session) }) != nil { lowered += 1 }
        }
        // The file's queries really ran in the database, not only in memory.
        if name == "queries.test" { #expect(lowered >= 10, "only \(lowered) statements of \(name) ran in SQL") }
    }

    /// Statements that run as SQL, each in every format: every group key, tags with and
    /// without, `(none)`, `not`, `or`, days, ranking, `top N`, shares and running totals;
    /// counts, sums, averages, least and greatest amounts.
    /// (Grouping or testing by category reads split entries' parts, which the demo has:
    /// `groupingByCategoryOverSplitEntries…` below.)
    static let loweredStatements = [
        "count entries by tag", "count expenses by tag, book top 5", "count entries where tag = (none) by book",
        "count entries where not (tag = work or book = Home) by year", "count income by week during 2025-Q4",
        "count entries by quarter, currency", "count entries by day since 2025-12-20", "count transfers by book",
        "count entries where party = (none) and payment = (none) by book order by count desc top 3",
        "sum expenses in native by tag order by amount desc top 4", "sum entries in native by book, currency",
        "sum income in native by month since 2025-07", "sum expenses in native where book = \"Tokyo Trip\" by payment with share",
        "count expenses by book with share with running total", "count entries where date != 2025-10-04 and currency in (USD, EUR) by currency",
        "count entries during 2031", "sum expenses in native during 2031",
        "avg expenses in native by currency", "avg income in native by month, currency since 2025-07",
        "avg expenses in native by tag, currency order by amount desc top 3", "avg entries in native by currency, book",
        "min expenses in native by currency", "max expenses in native by book, currency", "min income in native by currency, tag",
        "max transfers in native by currency, book", "max expenses in native by tag, currency",
        "min entries in native by currency, payment order by amount top 2", "avg expenses in native during 2031",
        "sum expenses in native where amount > 100 by currency", "count entries in native where amount < 0 or amount >= 1000 by currency",
        "avg expenses in native where book = Home and amount <= 50 by currency, tag", "max income in native where not amount > 5000 by currency",
        "count expenses in native where amount in (5, 10, 12.5, 40) by currency", "min expenses in native where amount != 10 by currency, book",
        // Listings: in date order, by date descending, by a native amount (ORDER BY and LIMIT
        // in SQL), by a name (in Swift), converted and native, with `show`.
        "list expenses top 5", "list expenses in native top 3", "list entries on 2025-10-04 show id, currency",
        "list transfers order by date desc top 3", "list transfers order by date desc", "list income in native order by amount desc top 3",
        "list expenses in native where currency = USD order by amount top 4", "list expenses in native where currency = SGD order by amount desc",
        "list expenses where tag = work top 6 show remarks, tags, payment", "list expenses order by party top 5",
        "list expenses in native order by currency desc top 6", "list expenses order by amount desc top 5", "list expenses order by amount top 5",
        "list entries where party = (none) top 3 show id", "list expenses in native where amount > 100 top 5", "list expenses where amount > 40000",
        "list expenses during 2031", "list expenses in native during 2031", "list expenses order by book desc top 4 show id",
        "list income in USD where book = \"US Consulting\" order by amount top 3", "list expenses in EUR at market top 4",
        "list expenses in INR at latest where tag = (none) top 4", "list expenses with rate SGD/INR = 56 top 3 show currency",
        // Crosstabs: the cells, the rows and the column totals are three plans, each in SQL.
        "count entries by book per quarter during 2025", "sum expenses by book per month during 2025-Q4 top 2",
        "avg expenses in native by book per month during 2025-Q4", "sum expenses in native by currency per book top 3",
        "count entries per payment during 2025-12", "sum expenses by tag per quarter during 2025",
        "max expenses in USD by book per quarter during 2025 order by amount desc top 3", "sum expenses per month since 2025-10",
        "count expenses by party per book top 4", "min expenses in native by currency per quarter during 2025",
        "sum expenses in native by tag per book top 3", "count entries by tag per year", "explain sum expenses by book per month during 2025-Q4",
        "sum income in EUR at market by book per quarter during 2025 where amount > 100",
        // Comparisons: each side (and, after `top N`, each side's totals) a plan in SQL.
        "sum expenses by book during 2025-Q4 vs same period last year", "sum expenses by book at market vs booked",
        "sum expenses in INR by book during 2025-10 vs with rate SGD/INR = 60", "count expenses in native by book during 2025-10 vs 2025-09",
        "max expenses by book since 2025-12-01 until 2025-12-10 vs previous period", "sum expenses by tag during 2025-11 vs previous period top 3",
        "avg expenses in native by currency during 2025-Q3 vs previous period", "count entries by payment during 2025-12 vs 2025-11 order by count desc top 2",
        "sum expenses in native by book, currency during 2025-Q4 vs previous period order by book top 4", "sum expenses during 2025-10 vs 2025-09",
        "min income in USD by book during 2025 vs at latest", "explain sum expenses by book during 2025-10 at market vs booked",
        "sum expenses in native by currency during 2025-10 vs previous period order by amount desc",
    ]

    @Test func loweredStatementsGiveTheSameOutputInEveryFormat() throws {
        let url = try PG.demoDatabase()
        let db = try Database.connect(try DatabaseURL.parse(url, environment: [:]))
        let engine = SQLEngine(db: db)
        let (memory, memoryOut) = Differential.shell(try LedgerLoader.load(paths: [Binary.root.appendingPathComponent(PG.demo).path]), engine: nil)
        let (database, databaseOut) = try Differential.shell(db)
        for statement in PostgresDifferentialTests.loweredStatements {
            #expect(engine.explain(try database.session.logicalPlan(statement), in: database.session) != nil, "not lowered: \(statement)")
            for format in ["table", "csv", "json", "markdown", "chart"] {
                let expected = Differential.run(memory, memoryOut, kind: "query", format: format, statement)
                let actual = Differential.run(database, databaseOut, kind: "query", format: format, statement)
                #expect(actual == expected, "\(format): \(statement)")
            }
        }
    }

    /// Converted sums, averages, least and greatest amounts, and tests of converted amounts
    /// (the entries that reach the test counted for the rates), run in SQL with a rate calendar (docs/postgres.md, Converted sums), over
    /// a ledger made to meet every rule: booked values (normalizedAmount, conversionRate, a
    /// locked book), custom rates dated and not, market snapshots and pairs, a chain through
    /// USD, inverse and cross rates (denominators), entries dated before every rate (the
    /// oldest-after fallback), rates more than a week old, and a currency without any rate.
    /// Statements other than queries (`set rate`, `set max rate age`) change the session
    /// between them, on both sides alike.
    static let convertedStatements = [
        "sum expenses in INR by category", "sum expenses in INR by book", "sum expenses in INR at market by book",
        "sum expenses in USD by month", "sum entries in JPY by currency", "sum expenses in EUR by category, book",
        "sum expenses in INR by tag", "sum expenses in INR by tag top 2", "sum expenses in INR by category order by amount desc top 2",
        "sum expenses in INR by category order by count desc", "sum expenses in INR with rate SGD/INR = 56 by book",
        "sum expenses in INR with rate INR/SGD = 0.018 by currency", "sum expenses in INR with rate GBP/INR = 100",
        "sum expenses in INR at latest by currency", "sum expenses in INR at 2025-03-10 by currency",
        "sum expenses in INR at 2025-01-15", "sum transfers in INR", "sum transfers in INR by book",
        "sum expenses in native by currency, book", "sum income in EUR by quarter with share with running total",
        "sum expenses in INR where party = Acme by week", "sum expenses in INR during 2031", "sum expenses in INR during 2031 by book",
        "sum expenses in USD where tag = (none) and currency in (SGD, EUR) by day",
        "explain sum expenses in INR by book", "explain sum transfers in INR", "explain sum expenses in USD at 2025-01-15 by tag",
        "set rate SGD/INR = 57", "sum expenses in INR at market by currency", "sum expenses in INR by book", "unset rate SGD/INR",
        "set rate CHF/INR = 70.5", "sum transfers in INR", "unset rate CHF/INR",
        "set max rate age 60 days", "sum expenses in INR at market by category", "explain sum expenses in INR at market",
        "unset max rate age",
        "avg expenses in INR by category", "avg expenses in INR", "avg expenses in USD by tag", "avg expenses in INR by tag top 2",
        "avg income in EUR by quarter", "avg expenses in INR at latest by currency", "avg expenses in INR during 2031",
        "avg expenses in INR during 2031 by book", "avg transfers in INR by book", "avg expenses in INR with rate SGD/INR = 56 by book",
        "max expenses in INR by category", "min expenses in INR by category", "max expenses in INR", "min expenses in INR",
        "max expenses in USD by tag", "min expenses in USD by tag top 2", "max expenses in INR by book order by amount desc top 2",
        "max income in JPY by currency", "min entries in JPY by currency", "max transfers in INR", "min transfers in EUR by book",
        "max expenses in INR at market by currency", "min expenses in INR at 2025-03-10 by currency", "max expenses in INR during 2031",
        "min expenses in INR with rate INR/SGD = 0.018 by currency", "max expenses in EUR by category, book",
        "explain avg expenses in INR by book", "explain max expenses in USD at 2025-01-15 by tag", "explain min transfers in INR",
        "set max rate age 60 days", "max expenses in INR at market by category", "avg expenses in INR at market", "unset max rate age",
        "sum expenses in INR where amount > 1000 by category", "count expenses in INR where amount > 1000 by book",
        "count expenses in USD where amount >= 20 by currency", "avg expenses in INR where amount < 500 by book",
        "max expenses in USD where amount <= 100 by tag", "min income in EUR where amount > 10", "count entries in JPY where amount > 5",
        "sum expenses in INR where amount in (100, 101, 102) by currency", "count expenses in INR where amount != 100 by tag",
        "sum expenses in INR where book = Singapore and amount > 100 by payment", "count expenses in INR where amount > 100 and currency = SGD",
        "sum expenses in INR where party = Acme or amount > 500 by week", "sum expenses in INR where not (currency = CHF or amount <= 300) by book",
        "sum expenses in INR with rate SGD/INR = 56 where amount > 1000 by book", "count expenses in INR at latest where amount < 200 by currency",
        "max expenses in INR at 2025-03-10 where currency in (SGD, EUR) and amount > 10 by currency",
        "count expenses in INR where amount > 100 or amount < 5", "sum transfers in INR where amount > 0",
        "count expenses in INR where party = Acme or amount > 500 by book", "count entries in INR where not amount in (100, 101) by currency",
        "explain count expenses in INR where currency != CHF and amount > 100 by book", "explain sum expenses in INR where currency != CHF and amount > 1000",
        "set max rate age 60 days", "count expenses in INR at market where currency != CHF and amount > 100",
        "sum expenses in INR at market where currency = SGD and amount > 100 by book", "unset max rate age",
        "list expenses in INR", "list entries in JPY show currency, tags", "list expenses in INR at market top 5",
        "list expenses in USD order by amount desc top 4", "list expenses in INR order by amount", "list transfers in INR order by date desc top 2",
        "list expenses in INR with rate INR/SGD = 0.018 order by book top 5", "list expenses in INR at 2025-03-10 where currency in (SGD, EUR)",
        "list expenses in INR where amount > 1000", "list expenses in INR where party = Acme or amount > 500 order by amount desc top 3",
        "list expenses in INR where amount > 100 and currency = SGD", "list expenses in INR during 2031",
        "explain list expenses in INR top 3", "explain list expenses in USD where amount > 100 order by amount top 2",
        "set max rate age 60 days", "list expenses in INR at market top 3", "explain list expenses in INR at market", "unset max rate age",
        "sum expenses in INR by book per month", "avg expenses in INR by currency per month", "sum expenses in INR by tag per quarter top 2",
        "max expenses in USD by book per month order by amount desc top 2", "sum expenses in INR where amount > 1000 by book per month",
        "count expenses in INR where amount > 100 by book per month", "sum expenses in INR at market by currency per month",
        "min transfers in EUR per book", "explain sum expenses in INR by book per month",
        "sum expenses in INR by book during 2025-04 vs previous period", "sum expenses in INR by currency at market vs booked",
        "avg expenses in USD by tag during 2025-Q2 vs with rate SGD/USD = 0.8 top 2", "count expenses in INR where amount > 1000 by book during 2025-05 vs 2025-04",
        "max expenses in INR by book vs at 2025-03-10", "explain sum expenses in INR by book vs at latest",
    ]

    @Test func convertedAggregatesGiveTheSameOutputInEveryFormat() throws {
        let fixture = "Tests/Fixtures/conversions.json"
        let url = try PostgresServer.get().newDatabase()
        let imported = try Binary.run(["--db", url, "--import", fixture])
        #expect(imported.status == 0, "\(imported.stderr)")
        let db = try Database.connect(try DatabaseURL.parse(url, environment: [:]))
        let engine = SQLEngine(db: db)
        let (memory, memoryOut) = Differential.shell(try LedgerLoader.load(paths: [Binary.root.appendingPathComponent(fixture).path]), engine: nil)
        let (database, databaseOut) = try Differential.shell(db)
        for statement in PostgresDifferentialTests.convertedStatements {
            // A posting list could serve the test after the amount's (the in-memory engine would
            // then convert fewer entries), or two tests of amounts: these run in memory.
            let inMemory = ["amount > 100 and currency = SGD", "amount > 100 or amount < 5"].contains { statement.hasSuffix($0) }
            if ["sum", "avg", "min", "max", "count", "list", "explain"].contains(where: { statement.hasPrefix($0) }) {
                #expect(inMemory == (engine.explain(try database.session.logicalPlan(statement), in: database.session) == nil), "lowered or not: \(statement)")
            }
            for format in ["table", "csv", "json", "markdown", "chart"] {
                let expected = Differential.run(memory, memoryOut, kind: "query", format: format, statement)
                let actual = Differential.run(database, databaseOut, kind: "query", format: format, statement)
                #expect(actual == expected, "\(format): \(statement)")
                if statement.hasPrefix("set") || statement.hasPrefix("unset") { break }
            }
        }
    }

    /// A ledger of names in mixed letter case and beyond ASCII (a party, a payment, tags,
    /// missing in some entries), two entries a day, in a database and read from its file:
    /// (the in-memory shell, the database's shell, the database's engine).
    static func namesLedger() throws -> (memory: (Shell, Differential.Capture), database: (Shell, Differential.Capture), engine: SQLEngine) {
        var entries: [String] = []
        let parties = ["zeta", "Alpha", "alpha", "Émile", "beta", nil, "ALPHA", "émile", "Zeta", "ärger", "Beta", nil]
        let payments = ["Card", nil, "card", "CASH", "Überweisung"]
        let tags = [["Work"], [], ["work", "Trip"], ["ÜBER"], [], ["trip"]]
        for (i, party) in parties.enumerated() {
            var fields = ["\"id\": \"n\(i)\"", "\"bookId\": \"\(i % 3 == 0 ? "b2" : "b1")\"", "\"amount\": -\(10 + i % 4).5",
                          "\"currency\": \"\(["INR", "usd", "EUR"][i % 3].uppercased())\"", "\"date\": \"2025-03-0\(1 + i / 2)\"",
                          "\"category\": \"\(["food", "Food", "Öl", "rent"][i % 4])\"",
                          "\"tags\": [\(tags[i % 6].map { "\"\($0)\"" }.joined(separator: ", "))]"] + (party.map { ["\"party\": \"\($0)\""] } ?? [])
            if let payment = payments[i % 5] { fields.append("\"paymentMode\": \"\(payment)\"") }
            entries.append("{" + fields.joined(separator: ", ") + "}")
        }
        let ledger = """
            {"version": 1, "defaultCurrency": "INR",
             "books": [{"id": "b1", "name": "home", "currency": "INR"}, {"id": "b2", "name": "Äway", "currency": "INR"}],
             "customRates": [{"from": "USD", "to": "INR", "rate": 83}, {"from": "INR", "to": "EUR", "rate": 0.011}],
             "entries": [\(entries.joined(separator: ",\n"))]}
            """
        let path = try Binary.temporaryFile("pg-names.json", ledger)
        let url = try PostgresServer.get().newDatabase()
        let imported = try Binary.run(["--db", url, "--import", path])
        #expect(imported.status == 0, "\(imported.stderr)")
        let db = try Database.connect(try DatabaseURL.parse(url, environment: [:]))
        return (Differential.shell(try LedgerLoader.load(paths: [path]), engine: nil), try Differential.shell(db), SQLEngine(db: db))
    }

    /// `list … order by` a name runs in SQL in the order Swift gives the names: any letter
    /// case (names equal in lower case keep date order), letters beyond ASCII by Swift's
    /// rules whatever the server's collation, "(none)" last (first descending), every tie in
    /// the ledger's order (two entries a day).
    @Test func listingsOrderedByANameAgreeWithMemory() throws {
        let ((memory, memoryOut), (database, databaseOut), engine) = try PostgresDifferentialTests.namesLedger()
        for statement in ["list expenses order by party", "list expenses order by party desc", "list expenses order by party top 4 show id",
                          "list expenses in native order by party desc top 5", "list expenses order by book show id", "list expenses order by book desc top 3",
                          "list expenses in native order by currency", "list expenses in native order by currency desc top 4",
                          "list expenses order by category show id", "list expenses order by category desc top 5",
                          "list expenses order by amount top 5 show id", "list expenses in native where currency = INR order by amount desc"] {
            #expect(engine.explain(try database.session.logicalPlan(statement), in: database.session) != nil, "not lowered: \(statement)")
            for format in ["table", "json"] {
                let expected = Differential.run(memory, memoryOut, kind: "query", format: format, statement)
                let actual = Differential.run(database, databaseOut, kind: "query", format: format, statement)
                #expect(actual == expected, "\(format): \(statement)")
            }
        }
    }

    /// Each statement gives the same output from memory and from the database in every
    /// format, the database's lowered (a crosstab's or a comparison's plans are each offered
    /// on their own) and never reading the entries.
    static func agreeWithoutReading(_ statements: [String], memory: (Shell, Differential.Capture), database: (Shell, Differential.Capture),
                                    _ engine: SQLEngine) throws {
        for statement in statements {
            if !statement.contains(" per ") && !statement.contains(" vs ") {
                #expect(engine.explain(try database.0.session.logicalPlan(statement), in: database.0.session) != nil, "not lowered: \(statement)")
            }
            for format in ["table", "csv", "json", "markdown", "chart"] {
                let expected = Differential.run(memory.0, memory.1, kind: "query", format: format, statement)
                let actual = Differential.run(database.0, database.1, kind: "query", format: format, statement)
                #expect(actual == expected, "\(format): \(statement)")
                #expect(!actual.contains("from the database to run this statement in memory"), "read the entries: \(statement)")
            }
        }
        #expect(database.0.session.ledger.entriesElsewhere != nil, "the entries were read")
    }

    /// Text compared in any letter case (`~`, `<`, `>`, `<=`, `>=`) on a name runs in SQL:
    /// Swift resolves the test against the names the ledger uses, with the in-memory engine's
    /// folding, and sends the names that pass; a missing value passes none (`not` then
    /// keeps it), `~ ""` passes every value, and no name passing is FALSE. The entries are
    /// never read.
    @Test func textInAnyLetterCaseRunsInSQLWithoutReadingTheEntries() throws {
        let ((memory, memoryOut), (database, databaseOut), engine) = try PostgresDifferentialTests.namesLedger()
        let statements = [
            "count expenses where party ~ \"alp\" by party", "count expenses where party ~ \"\" by book", "count expenses where not party ~ \"ÉM\" by party",
            "count entries where party ~ \"zzz\"", "count entries where category ~ \"FOOD\" by category", "count entries where category ~ \"ö\" by book",
            "count entries where payment ~ \"CARD\" by payment", "count entries where not payment ~ \"a\" by payment", "count entries where payment ~ \"üb\"",
            "count entries where book ~ \"WAY\" by book", "count entries where book < \"b\" by book", "count entries where tag ~ \"WOR\" by tag",
            "count entries where not tag ~ \"trip\" by tag", "count entries where tag ~ \"\" by book", "count entries where tag >= \"u\" by tag",
            "count expenses where party < \"b\" by party", "count expenses where party >= \"Beta\" by party", "count expenses where party > \"zz\"",
            "count expenses where party <= \"ALPHA\" or category > \"p\" by category", "count expenses where currency ~ \"us\" by currency",
            "count expenses where currency < \"F\" by currency", "sum expenses in native where party ~ \"a\" by currency",
            "avg expenses in native where payment ~ \"c\" and not party ~ \"e\" by currency, book", "max expenses in native where category ~ \"o\" by currency",
            "sum expenses in INR where party ~ \"alpha\" by book", "sum expenses in INR where party ~ \"e\" and amount > 900 by category",
            "count expenses in USD where tag ~ \"o\" by payment", "list expenses where party ~ \"et\" show id, payment",
            "list expenses in INR where category ~ \"FO\" order by party top 4", "count entries where party ~ \"a\" by book per category",
            "sum expenses in native where payment ~ \"card\" by currency during 2025-03 vs 2025-02",
            "explain count expenses where party ~ \"alp\" by party", "explain sum expenses in INR where tag ~ \"w\" by book",
        ]
        try PostgresDifferentialTests.agreeWithoutReading(statements, memory: (memory, memoryOut), database: (database, databaseOut), engine)
    }

    /// `by top category` runs in SQL on a ledger without split entries: the category tree
    /// and the names are known at start, so each category's group (its root, as the
    /// in-memory engine finds it, `Ledger.topCategoryGroups`) is sent as a CASE and grouped
    /// by. The demo ledger's tree without its splits; a root that no entry uses is no group
    /// there, in memory or in SQL. The entries are never read.
    @Test func topCategoryRunsInSQLWithoutReadingTheEntries() throws {
        let demo = try String(contentsOf: Binary.root.appendingPathComponent(PG.demo), encoding: .utf8)
        let unsplit = try NSRegularExpression(pattern: #", "splits": \[[^\]]*\]"#)
            .stringByReplacingMatches(in: demo, range: NSRange(demo.startIndex..., in: demo), withTemplate: "")
        #expect(unsplit != demo && !unsplit.contains("\"splits\""))
        let path = try Binary.temporaryFile("pg-unsplit.json", unsplit)
        let url = try PostgresServer.get().newDatabase()
        let imported = try Binary.run(["--db", url, "--import", path])
        #expect(imported.status == 0, "\(imported.stderr)")
        let db = try Database.connect(try DatabaseURL.parse(url, environment: [:]))
        let engine = SQLEngine(db: db)
        let (memory, memoryOut) = Differential.shell(try LedgerLoader.load(paths: [path]), engine: nil)
        let (database, databaseOut) = try Differential.shell(db)
        #expect(!database.session.ledger.topCategoryGroups.isEmpty)
        let statements = [
            "count entries by top category", "count expenses by top category, book", "sum expenses in native by top category, currency",
            "sum expenses in INR by top category order by amount desc top 2", "sum expenses in USD by top category with share", "avg expenses in USD by top category",
            "max expenses in native by top category, currency", "min expenses in INR at market by top category, month during 2025-Q4",
            "sum expenses in INR by top category order by count desc", "count expenses where category ~ \"o\" by top category",
            "sum expenses in INR where amount > 1000 by top category", "count expenses by top category, tag with running total",
            "sum expenses in INR where category = Essentials by top category", "explain sum expenses in INR by top category",
            "sum expenses by top category per quarter during 2025", "count expenses by book per top category",
            "sum expenses in INR by top category during 2025-Q4 vs previous period top 2",
        ]
        try PostgresDifferentialTests.agreeWithoutReading(statements, memory: (memory, memoryOut), database: (database, databaseOut), engine)
    }

    /// Grouping by category (or top category) on a ledger with split entries runs in SQL on
    /// the split view: each part in its own category's group; a count, and an average's
    /// divisor, count each entry once per group however many of its parts are there (and
    /// once in the whole), as the in-memory engine counts them. The demo ledger's split
    /// entries; the entries are never read.
    @Test func groupingByCategoryOverSplitEntriesRunsInSQLWithoutReadingTheEntries() throws {
        let url = try PG.demoDatabase()
        let db = try Database.connect(try DatabaseURL.parse(url, environment: [:]))
        let memory = Differential.shell(try LedgerLoader.load(paths: [Binary.root.appendingPathComponent(PG.demo).path]), engine: nil)
        let database = try Differential.shell(db)
        #expect(!database.0.session.ledger.splits.isEmpty)
        let statements = [
            "count expenses by category", "count expenses by category, book top 5", "count entries by category order by count desc top 4",
            "sum expenses by category", "sum expenses in native by category, currency", "sum expenses in INR by category order by count desc top 3",
            "avg expenses in INR by category", "avg expenses in native by category, currency", "avg expenses in USD by top category",
            "min expenses in native by category, currency", "max expenses in USD by category", "max expenses in INR by top category",
            "count expenses by top category", "sum expenses in INR by top category with share", "count expenses by category, tag",
            "count expenses where category = Household by book", "avg expenses in INR where category = Household by month",
            "count expenses where category ~ \"house\" by category", "sum expenses by category with share with running total top 3",
            "count expenses by category, month during 2025-Q1", "explain count expenses by category", "explain avg expenses in INR by category",
            "count expenses by category per quarter during 2025", "sum expenses in INR by book per category top 3",
            "avg expenses in INR by category per quarter during 2025", "count expenses by category during 2025-Q4 vs previous period top 4",
            "sum expenses by category during 2025-Q4 vs previous period", "avg expenses in INR by category top 3",
            "avg expenses in native by category, currency top 4", "count expenses by category top 3 with share", "min expenses in INR by category top 2",
            "count expenses by book per category", "sum expenses in native by category per month during 2025-Q1", "count expenses by tag, top category top 5",
            "avg expenses in native by top category, currency order by count desc top 3", "count expenses where category in (Groceries, Household)",
        ]
        try PostgresDifferentialTests.agreeWithoutReading(statements, memory: memory, database: database, SQLEngine(db: db))
    }

    @Test(arguments: [
        (["--today", "2025-12-31", "-f", "Examples/trips.abq"], [String]()),
        (["-f", "Examples/monthly.abq"], []),
        (["--rates", "Examples/ecb-sample.csv", "-f", "Examples/ecb.abq"], []),
        (["-f", "Examples/bank.abq"], ["statement"]),
    ])
    func exampleScriptGivesTheSameOutputFromTheDatabase(_ arguments: [String], _ extra: [String]) throws {
        var files = [PG.demo]
        if extra.contains("statement") {
            let out = try Binary.temporaryFile("pg-statement.json", "")
            let made = try Binary.run(["import-csv", "Examples/statement.csv", "--rules", "Examples/statement.toml", "--out", out])
            #expect(made.status == 0)
            files.append(out)
        }
        let url = try PostgresServer.get().newDatabase()
        let imported = try Binary.run(["--db", url, "--import"] + files)
        #expect(imported.status == 0, "\(imported.stderr)")
        let fromFiles = try Binary.run(files + arguments)
        let fromDatabase = try Binary.run(["--db", url] + arguments)
        #expect(fromFiles.status == 0)
        #expect(fromDatabase.status == fromFiles.status)
        #expect(Differential.how(fromDatabase.stdout) == Differential.how(fromFiles.stdout))
        #expect(Differential.withoutReading(fromDatabase.stderr) == fromFiles.stderr)
    }
}
