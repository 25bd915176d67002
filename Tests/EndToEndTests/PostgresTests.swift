// Ledgers in PostgreSQL (docs/postgres.md), against a real server the tests start
// (`PostgresServer`): import all or nothing, the schema's version, every way the
// connection can fail, and the differential test — every golden query file and every
// example script gives the same output from the database as from the files.

import AbacusCore
import AbacusPostgres
import AbacusQuery
@testable import AbacusShell
import Foundation
import Testing

enum PG {
    static let demo = "Examples/demo.json"

    /// A new database of the shared server holding the demo ledger.
    static func demoDatabase() throws -> String {
        let url = try PostgresServer.get().newDatabase()
        let r = try Binary.run(["--db", url, "--import", demo])
        guard r.status == 0 else { throw PostgresServer.Failure(description: "import failed: \(r.stderr)") }
        return url
    }

    /// A fingerprint of every Abacus table's contents.
    static func fingerprint(_ url: String) throws -> String {
        let server = try PostgresServer.get()
        let db = String(url.split(separator: "/").last ?? "")
        let tables = try server.psql("SELECT string_agg(table_name, ',' ORDER BY table_name) FROM information_schema.tables WHERE table_schema = 'public'", database: db)
        var parts = [tables]
        for t in tables.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",") {
            parts.append(try server.psql("SELECT count(*) || ':' || coalesce(md5(string_agg(t::text, '|' ORDER BY t::text)), '') FROM \(t) t", database: db))
        }
        return parts.joined()
    }
}

@Suite(.serialized) struct PostgresImportTests {
    /// Parts of both signs in one split entry: in SQL as in memory, a part is an expense or an
    /// income by its entry's amount (`SQLSplitView`'s `entry_amount`).
    @Test func splitPartsOfBothSignsAnswerAsTheFileDoes() throws {
        let ledger = try Binary.temporaryFile("mixed-splits.json", """
            {"version": 1, "defaultCurrency": "INR", "books": [{"id": "h", "name": "Home", "currency": "INR"}],
             "entries": [{"id": "e1", "bookId": "h", "amount": -100, "date": "2025-10-05", "category": "X", "splits": [{"amount": -160, "category": "G"}, {"amount": 60, "category": "H"}]},
                         {"id": "e2", "bookId": "h", "amount": 50, "date": "2025-10-06", "category": "Y", "splits": [{"amount": 70, "category": "G"}, {"amount": -20, "category": "H"}]}]}
            """)
        let url = try PostgresServer.get().newDatabase()
        #expect(try Binary.run(["--db", url, "--import", ledger]).status == 0)
        for statement in ["sum expenses by category", "sum income by category", "count expenses by category", "sum expenses in INR by category per month"] {
            let files = try Binary.run([ledger, "--format", "csv", "-e", statement])
            let database = try Binary.run(["--db", url, "--format", "csv", "-e", statement])
            #expect(files.status == 0 && database.status == 0, "\(statement): \(database.stderr)")
            #expect(database.stdout == files.stdout, "\(statement)")
        }
        #expect(try Binary.run(["--db", url, "--format", "csv", "-e", "sum expenses by category"]).stdout == "category,amount\r\nG,160.00\r\nH,-60.00\r\n")
    }

    /// An entry's parts in one group are one amount there for `min` and `max`, as for `count`
    /// and `avg` (docs/ledger-format.md#splits): never an average above the greatest. In SQL
    /// as in memory, native and converted.
    @Test func anEntrysPartsInOneGroupAreOneAmountForMinAndMax() throws {
        let ledger = try Binary.temporaryFile("parts-in-one-group.json", """
            {"version": 1, "defaultCurrency": "INR", "books": [{"id": "h", "name": "Home", "currency": "INR"}],
             "categories": [{"name": "Food"}, {"name": "Groceries", "parent": "Food"}, {"name": "Dining", "parent": "Food"}],
             "entries": [{"id": "e1", "bookId": "h", "amount": -100, "date": "2025-10-05", "category": "X", "splits": [{"amount": -40, "category": "Rent"}, {"amount": -60, "category": "Rent"}]},
                         {"id": "e2", "bookId": "h", "amount": -70, "date": "2025-10-06", "category": "Y", "splits": [{"amount": -30, "category": "Groceries"}, {"amount": -40, "category": "Dining"}]},
                         {"id": "e3", "bookId": "h", "amount": -50, "date": "2025-10-07", "category": "Rent"}],
             "rates": [{"from": "USD", "to": "INR", "rate": 80, "date": "2025-10-01"}]}
            """)
        let url = try PostgresServer.get().newDatabase()
        #expect(try Binary.run(["--db", url, "--import", ledger]).status == 0)
        // Rent: e1 (40 + 60 = 100) and e3 (50); Food: e2's two parts, 70.
        let expected = [
            ("max expenses by category", "category,amount\r\nDining,40.00\r\nGroceries,30.00\r\nRent,100.00\r\n"),
            ("min expenses by category", "category,amount\r\nDining,40.00\r\nGroceries,30.00\r\nRent,50.00\r\n"),
            ("avg expenses by category", "category,amount\r\nDining,40.00\r\nGroceries,30.00\r\nRent,75.00\r\n"),
            ("max expenses by top category", "top category,amount\r\nFood,70.00\r\nRent,100.00\r\n"),
            ("min expenses in USD by top category", "top category,amount\r\nFood,0.88\r\nRent,0.62\r\n"),
            ("max expenses in USD where category = Rent", "amount\r\n1.25\r\n"),
            ("min expenses where category = Food", "amount\r\n70.00\r\n"),
            ("max expenses in native by category, currency", "category,currency,amount\r\nDining,INR,40.00\r\nGroceries,INR,30.00\r\nRent,INR,100.00\r\n"),
        ]
        for (statement, csv) in expected {
            let files = try Binary.run([ledger, "--format", "csv", "-e", statement])
            let database = try Binary.run(["--db", url, "--format", "csv", "-e", statement])
            #expect(files.stdout == csv, "\(statement): \(files.stderr)")
            #expect(database.stdout == files.stdout, "\(statement): \(database.stderr)")
            // In SQL: the entries are not read to run it in memory.
            #expect(database.stderr == files.stderr, "\(statement)")
        }
        // `order by count` ranks by entries (Rent: e1 and e3, two, not three parts), and an order
        // by category alone lists entries, in both engines.
        for statement in ["sum expenses by category order by count desc", "max expenses in USD by category order by count desc top 1",
                          "list expenses order by category", "sum expenses by top category order by top category desc",
                          "min expenses by category order by count desc top 1", "max expenses by category order by count top 2",
                          "sum expenses by category per month order by count desc top 1"] {
            let files = try Binary.run([ledger, "--format", "csv", "-e", statement])
            let database = try Binary.run(["--db", url, "--format", "csv", "-e", statement])
            #expect(files.status == 0, "\(statement): \(files.stderr)")
            #expect(database.stdout == files.stdout, "\(statement): \(database.stderr)")
        }
        #expect(try Binary.run([ledger, "--format", "csv", "-e", "sum expenses by category order by count desc"]).stdout
                == "category,amount\r\nRent,150.00\r\nDining,40.00\r\nGroceries,30.00\r\n")
    }

    /// Names with invisible characters (an escape sequence, a newline, a bidi override) in SQL:
    /// written as escapes in the literal, so the statement answers as the file does and
    /// `explain`, which shows the SQL, sends none of them to the terminal.
    @Test func namesWithInvisibleCharactersAreEscapesInTheSQL() throws {
        let ledger = try Binary.temporaryFile("invisible-names.json", #"""
            {"version": 1, "defaultCurrency": "INR", "books": [{"id": "h", "name": "Home\u001b]0;x\u0007", "currency": "INR"}],
             "categories": [{"name": "Food"}, {"name": "Snacks\u001b[2J\u202eX\nY's", "parent": "Food"}],
             "entries": [{"id": "e1", "bookId": "h", "amount": -100, "date": "2025-10-05", "category": "Snacks\u001b[2J\u202eX\nY's"},
                         {"id": "e2", "bookId": "h", "amount": -7, "date": "2025-10-06", "category": "Food"},
                         {"id": "e3", "bookId": "h", "amount": -5, "date": "2025-10-07", "category": "Rent"}]}
            """#)
        let url = try PostgresServer.get().newDatabase()
        #expect(try Binary.run(["--db", url, "--import", ledger]).status == 0)
        // `category = Food` names its child too: the child's name is a literal in the SQL.
        for statement in ["sum expenses where category = Food", "count entries by category, book", "list expenses where category = Food"] {
            let files = try Binary.run([ledger, "--format", "csv", "-e", statement])
            let database = try Binary.run(["--db", url, "--format", "csv", "-e", statement])
            #expect(files.status == 0 && database.status == 0, "\(statement): \(database.stderr)")
            #expect(database.stdout == files.stdout, "\(statement)")
        }
        #expect(try Binary.run(["--db", url, "--format", "csv", "-e", "sum expenses where category = Food"]).stdout == "amount\r\n107.00\r\n")
        let explained = try Binary.run(["--db", url, "-e", "explain sum expenses where category = Food"])
        #expect(explained.status == 0, "\(explained.stderr)")
        #expect(explained.stdout.contains(#"E'Snacks\u001B[2J\u202EX\u000AY''s'"#), "\(explained.stdout)")
        #expect(!explained.stdout.unicodeScalars.contains { ShownText.isInvisible($0) && $0 != "\n" })
    }

    @Test func importedLedgerAnswersAsTheFileDoes() throws {
        let url = try PostgresServer.get().newDatabase()
        let imported = try Binary.run(["--db", url, "--import", PG.demo])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout == "")
        #expect(imported.stderr.contains("imported 1 file into postgres://abacus@127.0.0.1:"))
        #expect(!imported.stderr.contains("abacus-test-password"))
        // The second statement runs in memory (a test of amounts by category on the demo's
        // split entries): the entries are read from the database for it, and it says so. A
        // listing runs in SQL.
        let reading = "reading 1200 entries from the database to run this statement in memory\n"
        for (statement, inMemory) in [("count entries by book", false), ("sum expenses in INR where amount > 1000 by category", true), ("books", false),
                                      ("sum expenses in INR by book", false), ("list entries top 5 order by amount desc", false),
                                      ("list expenses in USD where tag = work order by party top 3 show remarks", false)] {
            let files = try Binary.run([PG.demo, "--today", "2025-12-31", "-e", statement])
            let database = try Binary.run(["--db", url, "--today", "2025-12-31", "-e", statement])
            #expect(files.status == 0)
            #expect(database.status == files.status)
            #expect(database.stdout == files.stdout, "\(statement)")
            #expect(database.stderr == (inMemory ? reading : "") + files.stderr, "\(statement)")
        }
    }

    @Test func statementsThatNeedNoEntriesInMemoryNeverReadThem() throws {
        let url = try PG.demoDatabase()
        let script = ["books", "categories", "rate SGD/INR", "rates SGD/INR since 2025-12-28", "convert 100 SGD to INR",
                      "count entries by book, month", "sum expenses in INR by book, currency", "sum entries in native where currency = INR by tag top 3",
                      "explain sum income in USD at market by quarter", "list expenses in USD top 3",
                      "sum expenses by book per month during 2025-Q4 top 2", "sum expenses by tag during 2025-11 vs previous period top 3"].joined(separator: "\n")
        let files = try Binary.run([PG.demo, "--today", "2025-12-31", "-e", script])
        let database = try Binary.run(["--db", url, "--today", "2025-12-31", "-e", script])
        #expect(files.status == 0)
        #expect(database.status == 0)
        #expect(database.stderr == files.stderr)
        // Then a statement that runs in memory reads them, once, for every statement after it.
        let more = script + "\nbalance\nlist expenses top 1\ncount entries where remarks ~ x"
        let later = try Binary.run(["--db", url, "--today", "2025-12-31", "-e", more])
        #expect(later.status == 0)
        #expect(later.stderr.components(separatedBy: "reading 1200 entries from the database").count == 2, "\(later.stderr)")
        #expect(Differential.how(later.stdout) == Differential.how(try Binary.run([PG.demo, "--today", "2025-12-31", "-e", more]).stdout))
    }

    @Test func theURLCanComeFromTheEnvironment() throws {
        let server = try PostgresServer.get()
        let url = try PG.demoDatabase()
        let db = String(url.split(separator: "/").last ?? "")
        // Only the database in the URL: host, port, user and password from the libpq variables.
        let r = try Binary.run(["-e", "count entries"], environment: [
            "ABACUS_DATABASE_URL": "postgres:///\(db)", "PGHOST": "127.0.0.1", "PGPORT": String(server.port),
            "PGUSER": server.user, "PGPASSWORD": server.password,
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let files = try Binary.run([PG.demo, "-e", "count entries"])
        #expect(r.stdout == files.stdout)
    }

    @Test func aRefusedFileLeavesTheDatabaseAsItWas() throws {
        let url = try PG.demoDatabase()
        let before = try PG.fingerprint(url)
        // A good file and a bad one: the bad one (an unknown currency) refuses both.
        let good = try Binary.temporaryFile("pg-good.json", """
            {"version":1,"defaultCurrency":"INR","books":[{"id":"pg-b","name":"PG book","currency":"INR","targetCurrency":"INR"}],
             "entries":[{"id":"pg-e1","bookId":"pg-b","amount":-10,"date":"2025-11-02","category":"Food"}]}
            """)
        let bad = try Binary.temporaryFile("pg-bad.json", """
            {"version":1,"defaultCurrency":"INR","books":[{"id":"pg-c","name":"PG other","currency":"INR","targetCurrency":"INR"}],
             "entries":[{"id":"pg-e2","bookId":"pg-c","amount":-10,"currency":"XYZ","date":"2025-11-02","category":"Food"}]}
            """)
        let r = try Binary.run(["--db", url, "--import", good, bad])
        #expect(r.status == 2)
        #expect(r.stderr.contains("\(bad):2:"), "\(r.stderr)")
        #expect(r.stderr.contains("entries[0].currency"))
        #expect(r.stderr.contains("nothing was imported"))
        #expect(try PG.fingerprint(url) == before)
        // An id already in the database is a duplicate across files, as with two files.
        let dup = try Binary.temporaryFile("pg-dup.json", """
            {"version":1,"defaultCurrency":"INR","books":[{"id":"pg-d","name":"PG dup","currency":"INR","targetCurrency":"INR"}],
             "entries":[{"id":"\(try firstEntryID())","bookId":"pg-d","amount":-10,"date":"2025-11-02","category":"Food"}]}
            """)
        let d = try Binary.run(["--db", url, "--import", dup])
        #expect(d.status == 2)
        #expect(d.stderr.contains("duplicate"), "\(d.stderr)")
        #expect(try PG.fingerprint(url) == before)
        // The good file alone is taken.
        let ok = try Binary.run(["--db", url, "--import", good])
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(try PG.fingerprint(url) != before)
    }

    @Test func aRefusedFirstImportCreatesNothing() throws {
        let url = try PostgresServer.get().newDatabase()
        let empty = try PG.fingerprint(url)
        let bad = try Binary.temporaryFile("pg-bad-first.json", #"{"version":1,"defaultCurrency":"INR","books":[],"entries":[{"id":"x","bookId":"nope","amount":1,"date":"2025-01-01","category":"A"}]}"#)
        let r = try Binary.run(["--db", url, "--import", bad])
        #expect(r.status == 2)
        #expect(r.stderr.contains("nothing was imported"))
        #expect(try PG.fingerprint(url) == empty)
    }

    @Test func dotLoadIsRefusedAndDotReloadReadsTheDatabaseAgain() throws {
        let url = try PG.demoDatabase()
        let load = try Binary.run(["--db", url, "-e", ".load Examples/demo.json"])
        #expect(load.status == 1)
        #expect(load.stderr.contains(".load reads ledger files; put them in the database with `abacus --db URL --import FILE`"), "\(load.stderr)")
        let reload = try Binary.run(["--db", url, "-e", ".reload", "-e", "count entries"])
        #expect(reload.status == 0, "\(reload.stderr)")
        #expect(reload.stderr.contains("reloaded postgres://abacus@127.0.0.1:"))
        #expect(reload.stderr.contains("now 1,200 entries in 6 books"))
    }

    @Test func theREPLBannerNamesTheDatabase() throws {
        let url = try PG.demoDatabase()
        let state = try StateDirectory()
        let s = try PTYSession(stateDirectory: state.path, arguments: ["--db", url])
        // The URL (without a password) in place of a file's name; never "the demo ledger".
        #expect(s.expect("Abacus "), "output: \(s.output.debugDescription)")
        #expect(s.expect("postgres://abacus@127.0.0.1:"), "output: \(s.output.debugDescription)")
        #expect(s.expect(": 1,200 entries in 6 books"), "output: \(s.output.debugDescription)")
        #expect(s.expectPrompt(REPLTests.prompt), "output: \(s.output.debugDescription)")
        #expect(!s.output.contains("the demo ledger"), "output: \(s.output.debugDescription)")
    }

    func firstEntryID() throws -> String {
        let ledger = try LedgerLoader.load(paths: [Binary.root.appendingPathComponent(PG.demo).path])
        return ledger.entries.id(at: 0)
    }
}

@Suite(.serialized) struct PostgresFailureTests {
    @Test func aDatabaseWithoutAnAbacusSchemaIsRefused() throws {
        let url = try PostgresServer.get().newDatabase()
        let r = try Binary.run(["--db", url, "-e", "count entries"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("holds no Abacus ledger"), "\(r.stderr)")
    }

    @Test func aNewerSchemaIsRefusedNotMisread() throws {
        let url = try PG.demoDatabase()
        let db = String(url.split(separator: "/").last ?? "")
        try PostgresServer.get().psql("UPDATE abacus_schema SET version = 99", database: db)
        let r = try Binary.run(["--db", url, "-e", "count entries"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("schema version 99; this Abacus reads up to \(Schema.version)"), "\(r.stderr)")
        let i = try Binary.run(["--db", url, "--import", PG.demo])
        #expect(i.status == 2)
    }

    /// A database written by the first Abacus that kept ledgers in PostgreSQL (schema version
    /// 1: no accounts, budget rules, splits or other ledger parts, no names table), made here
    /// by hand as that version laid it out, is upgraded in place, step by step, when opened,
    /// and answers as the same ledger from a file does.
    @Test func aVersion1DatabaseIsUpgradedAndAnswersTheSame() throws {
        let server = try PostgresServer.get()
        let url = try server.newDatabase()
        let db = String(url.split(separator: "/").last ?? "")
        try server.psql("""
            CREATE TABLE abacus_schema (version integer NOT NULL, created_by text NOT NULL);
            CREATE TABLE abacus_imports (import_no integer PRIMARY KEY, files text NOT NULL, default_currency char(3) NOT NULL);
            CREATE TABLE abacus_books (id text PRIMARY KEY, import_no integer NOT NULL, position integer NOT NULL, name text NOT NULL,
                currency char(3) NOT NULL, locked_exchange_rate numeric, target_currency char(3) NOT NULL, rate_locked_at date,
                description text, archived boolean NOT NULL);
            CREATE TABLE abacus_entries (id text PRIMARY KEY, import_no integer NOT NULL, position bigint NOT NULL, book_id text NOT NULL,
                day date NOT NULL, amount numeric NOT NULL, currency char(3) NOT NULL, category text NOT NULL, party text, payment text,
                remarks text, tags text[] NOT NULL, is_transfer boolean NOT NULL, normalized_amount numeric, normalized_currency char(3),
                conversion_rate numeric);
            CREATE INDEX abacus_entries_day ON abacus_entries (day);
            CREATE TABLE abacus_rates (import_no integer NOT NULL, position integer NOT NULL, kind text NOT NULL, base char(3) NOT NULL,
                quote char(3) NOT NULL, rate numeric NOT NULL, day date, source text, fetched_at text);
            CREATE TABLE abacus_budgets (import_no integer NOT NULL, position integer NOT NULL, category text NOT NULL, month date,
                limit_amount numeric NOT NULL, currency char(3) NOT NULL);
            INSERT INTO abacus_schema VALUES (1, 'abacus');
            INSERT INTO abacus_imports VALUES (1, 'old.json', 'INR');
            INSERT INTO abacus_books VALUES ('b-home', 1, 0, 'Home', 'INR', NULL, 'INR', NULL, NULL, false),
                ('b-sg', 1, 1, 'Singapore', 'SGD', 54.31, 'INR', '2025-03-01', 'a trip', false);
            INSERT INTO abacus_entries VALUES
                ('e1', 1, 0, 'b-home', '2025-03-02', -1200.50, 'INR', 'Rent', 'Landlord', 'bank', NULL, '{}', false, NULL, NULL, NULL),
                ('e2', 1, 1, 'b-sg', '2025-03-03', -45.20, 'SGD', 'Food', NULL, 'card', 'hawker', '{trip}', false, NULL, NULL, NULL),
                ('e3', 1, 2, 'b-home', '2025-03-04', -30, 'USD', 'Food', NULL, NULL, NULL, '{trip,work}', false, -2500, 'INR', NULL),
                ('e4', 1, 3, 'b-home', '2025-03-05', 5000, 'INR', 'Salary', 'Acme', NULL, NULL, '{work}', false, NULL, NULL, NULL);
            INSERT INTO abacus_rates VALUES (1, 0, 'pair', 'USD', 'INR', 83.10, '2025-03-01', 'bank', NULL),
                (1, 0, 'custom', 'SGD', 'INR', 60, NULL, NULL, NULL);
            INSERT INTO abacus_budgets VALUES (1, 0, 'Food', '2025-03-01', 5000, 'INR');
            """, database: db)
        let file = try Binary.temporaryFile("v1-ledger.json", """
            {"version": 1, "defaultCurrency": "INR",
             "books": [{"id": "b-home", "name": "Home", "currency": "INR"},
                       {"id": "b-sg", "name": "Singapore", "currency": "SGD", "lockedExchangeRate": 54.31, "targetCurrency": "INR",
                        "rateLockedAt": "2025-03-01", "description": "a trip"}],
             "entries": [
               {"id": "e1", "bookId": "b-home", "date": "2025-03-02", "amount": -1200.50, "currency": "INR", "category": "Rent",
                "party": "Landlord", "paymentMode": "bank", "tags": []},
               {"id": "e2", "bookId": "b-sg", "date": "2025-03-03", "amount": -45.20, "currency": "SGD", "category": "Food",
                "paymentMode": "card", "remarks": "hawker", "tags": ["trip"]},
               {"id": "e3", "bookId": "b-home", "date": "2025-03-04", "amount": -30, "currency": "USD", "category": "Food",
                "tags": ["trip", "work"], "normalizedAmount": -2500, "normalizedCurrency": "INR"},
               {"id": "e4", "bookId": "b-home", "date": "2025-03-05", "amount": 5000, "currency": "INR", "category": "Salary",
                "party": "Acme", "tags": ["work"]}],
             "rates": [{"from": "USD", "to": "INR", "rate": 83.10, "date": "2025-03-01", "source": "bank"}],
             "customRates": [{"from": "SGD", "to": "INR", "rate": 60}],
             "budgets": [{"category": "Food", "month": "2025-03", "limitAmount": 5000, "currencyCode": "INR"}]}
            """)
        let script = ["books", "count entries by book, tag", "sum expenses in INR by category", "sum entries in INR at market by book",
                      "sum expenses in native by currency", "list entries order by amount desc", "budget 2025-03"].joined(separator: "\n")
        let fromFile = try Binary.run([file, "--today", "2025-03-31", "-e", script])
        #expect(fromFile.status == 0, "\(fromFile.stderr)")
        for round in ["upgrades it", "already upgraded"] {
            let fromDatabase = try Binary.run(["--db", url, "--today", "2025-03-31", "-e", script])
            #expect(fromDatabase.status == 0, "\(round): \(fromDatabase.stderr)")
            #expect(fromDatabase.stdout == fromFile.stdout, "\(round)")
            #expect(try server.psql("SELECT version FROM abacus_schema", database: db).trimmingCharacters(in: .whitespacesAndNewlines) == String(Schema.version), "\(round)")
        }
        let columns = try server.psql("SELECT string_agg(column_name, ',' ORDER BY column_name) FROM information_schema.columns WHERE table_name = 'abacus_books'", database: db)
        #expect(columns.contains("opening_balance") && columns.contains("include_in_net_worth"))
        // Version 3: an entry for each name, and the number of entries, both filled from the entries.
        #expect(try server.psql("SELECT count(DISTINCT position) || '/' || max(i.entries) FROM abacus_names, abacus_imports i", database: db)
            .trimmingCharacters(in: .whitespacesAndNewlines) == "4/4")
    }

    @Test func aWrongPasswordIsAClearError() throws {
        let server = try PostgresServer.get()
        let r = try Binary.run(["--db", server.url("postgres", password: "wrong"), "-e", "count entries"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("cannot connect to postgres://abacus@127.0.0.1:\(server.port)/postgres"), "\(r.stderr)")
        #expect(r.stderr.contains("password authentication failed"), "\(r.stderr)")
        #expect(!r.stderr.contains("wrong"))
    }

    @Test func noServerIsAClearError() throws {
        let port = try PostgresServer.freePort()
        let r = try Binary.run(["--db", "postgres://abacus@127.0.0.1:\(port)/x", "-e", "count entries"])
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("error: cannot connect to postgres://abacus@127.0.0.1:\(port)/x"), "\(r.stderr)")
    }

    @Test func aBadURLIsAClearError() throws {
        let r = try Binary.run(["--db", "mysql://x", "-e", "count entries"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("--db must be a URL postgres://"))
        let both = try Binary.run([PG.demo, "--db", "postgres://x@127.0.0.1/x", "-e", "count entries"])
        #expect(both.status == 2)
        #expect(both.stderr.contains("not both"))
    }

    @Test func aServerThatGoesAwayMidStatementIsAnErrorNotAHang() throws {
        // A server of its own, killed while a statement runs.
        let server = try PostgresServer()
        defer { server.stop() }
        let db = try Database.connect(try DatabaseURL.parse(server.url("postgres"), environment: [:]))
        let started = Date()
        let killer = Thread { usleep(700_000); try? server.kill() }
        killer.start()
        var failure: DatabaseError?
        do { try db.query("SELECT pg_sleep(60)") } catch { failure = error }
        #expect(Date().timeIntervalSince(started) < 20)
        #expect(failure?.description.contains("closed the connection") == true || failure?.description.contains("terminat") == true, "\(String(describing: failure))")
        // The next statement says the connection is gone, at once.
        var again: DatabaseError?
        do { try db.query("SELECT 1") } catch { again = error }
        #expect(again != nil)
    }

    @Test func aLostServerFailsOneStatementNotTheSession() throws {
        // A server of its own: the shell keeps running when a statement's server goes away.
        let server = try PostgresServer()
        defer { server.stop() }
        let url = server.url("postgres")
        let imported = try Binary.run(["--db", url, "--import", PG.demo])
        #expect(imported.status == 0, "\(imported.stderr)")
        let db = try Database.connect(try DatabaseURL.parse(url, environment: [:]))
        let (shell, out) = Differential.shell(try LedgerTables.load(db).get(), engine: SQLEngine(db: db))
        #expect(shell.execute("count entries by book", location: nil))
        try server.kill()
        out.text = ""
        #expect(!shell.execute("count entries by book", location: nil))
        #expect(out.text.contains("error: the database failed the statement: the server closed the connection"), "\(out.text)")
        out.text = ""
        #expect(!shell.execute("count entries by book", location: nil))
        #expect(out.text.contains("the connection to postgres://abacus@127.0.0.1:\(server.port)/postgres was lost earlier"), "\(out.text)")
        // What needs no database still answers.
        #expect(shell.execute("books", location: nil))
    }

    @Test func aStatementPastItsTimeIsGivenUp() throws {
        let server = try PostgresServer.get()
        let db = try Database.connect(try DatabaseURL.parse(server.url("postgres") + "?statement_timeout=1", environment: [:]))
        let started = Date()
        var failure: DatabaseError?
        do { try db.query("SELECT pg_sleep(30)") } catch { failure = error }
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(failure?.description.contains("did not answer within 1 seconds") == true, "\(String(describing: failure))")
    }
}
