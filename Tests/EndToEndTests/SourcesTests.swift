// Where entries come from, through the real binary: the app's SQLite database named
// on the command line, and `abacus import-csv` writing a ledger file from a statement.

import CSQLite
import Foundation
import Testing

/// A database made by SQLite from `sql`, in the tests' folder.
func sqliteFile(_ name: String, _ sql: String) throws -> String {
    let path = try Binary.temporaryFile(name, "")
    try FileManager.default.removeItem(atPath: path)
    var db: OpaquePointer?
    defer { sqlite3_close(db) }
    let made = sqlite3_open(path, &db) == SQLITE_OK && sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK
    #expect(made, "could not make \(name)")
    return path
}

struct AppDatabaseBinaryTests {
    static let schema = """
        CREATE TABLE books (id TEXT PRIMARY KEY, name TEXT NOT NULL, description TEXT, currency TEXT DEFAULT 'INR',
          currencyHistory TEXT, lockedExchangeRate REAL, targetCurrency TEXT, rateLockedAt TEXT, createdAt TEXT NOT NULL,
          updatedAt TEXT NOT NULL, userId TEXT NOT NULL);
        CREATE TABLE entries (id TEXT PRIMARY KEY, bookId TEXT NOT NULL, amount REAL NOT NULL, currency TEXT DEFAULT 'INR',
          date TEXT NOT NULL, category TEXT NOT NULL, party TEXT, paymentMode TEXT, remarks TEXT, historicalRates TEXT,
          conversionHistory TEXT, normalizedAmount REAL, normalizedCurrency TEXT, conversionRate REAL,
          createdAt TEXT NOT NULL, updatedAt TEXT NOT NULL, userId TEXT NOT NULL);
        INSERT INTO books VALUES ('b-sg', 'Singapore', NULL, 'SGD', NULL, NULL, 'USD', NULL, 'c', 'u', 'u1');
        INSERT INTO entries VALUES ('e-1', 'b-sg', -(0.1 + 0.2), NULL, '2025-10-04', 'Food', 'Hawker', NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'c', 'u', 'u1');
        INSERT INTO entries VALUES ('e-2', 'b-sg', -123456789012.345, NULL, '2025-10-05', 'Hotels', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'c', 'u', 'u1');
        """

    @Test func theAppsDatabaseLoadsWithRatesFromAJSONLedger() throws {
        let db = try sqliteFile("expenses.db", AppDatabaseBinaryTests.schema)
        let rates = try Binary.temporaryFile("sgd-rates.json", """
            {"version": 1, "customRates": [{"from": "SGD", "to": "USD", "rate": 2}]}
            """)
        let r = try Binary.run([db, rates, "--format", "json", "-e", "sum expenses in native", "-e", "sum expenses"])
        #expect(r.status == 0, "\(r.stderr)")
        // In SGD, as read (0.30000000000000004 + 123456789012.345, rounded only for display); then
        // in USD, the default currency that the book's targetCurrency names.
        #expect(r.stdout == """
            {"columns":["currency","amount"],"rows":[{"currency":"SGD","amount":"123456789012.65"}],"currency":null,"warnings":[]}
            {"columns":["amount"],"rows":[{"amount":"246913578025.29"}],"currency":"USD","warnings":[]}

            """)
    }

    @Test func aBrokenRowIsNamedByTableRowAndIDAndNothingLoads() throws {
        let db = try sqliteFile("broken.db", AppDatabaseBinaryTests.schema + """
            INSERT INTO entries VALUES ('e-99', 'b-sg', -1, 'XYZ', '2025-10-06', 'Food', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'c', 'u', 'u1');
            """)
        let r = try Binary.run([db, "-e", "count entries"])
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr == "error: \(db): entries row 3 (id \"e-99\").currency: found \"XYZ\", expected an ISO 4217 currency code such as \"INR\" or \"USD\"\n")
    }

    @Test func aDatabaseOfAnotherSchemaIsRefused() throws {
        let db = try sqliteFile("other.db", "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT);")
        let r = try Binary.run([db, "-e", "count entries"])
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("error: \(db): not the expense tracker app's database: no table \"books\"; no table \"entries\""))
    }
}

struct ImportCSVBinaryTests {
    @Test func theExampleStatementLoadsBesideTheDemoLedger() throws {
        let out = try Binary.temporaryFile("statement.json", "")
        let imported = try Binary.run(["import-csv", "Examples/statement.csv", "--rules", "Examples/statement.toml", "--out", out])
        #expect(imported.status == 0)
        #expect(imported.stdout.isEmpty)
        #expect(imported.stderr == "Examples/statement.csv: 9 entries written to \(out)\n")
        let r = try Binary.run(["Examples/demo.json", out, "-f", "Examples/bank.abq"])
        #expect(r.status == 0, "\(r.stderr)")
        try expectMatchesRecording(r.stdout, "Examples/bank.expected")
    }

    @Test func reImportingAgainstTheFirstOutputSkipsEveryRowAndSaysHowMany() throws {
        let first = try Binary.temporaryFile("first.json", "")
        let second = try Binary.temporaryFile("second.json", "")
        let arguments = ["import-csv", "Examples/statement.csv", "--rules", "Examples/statement.toml"]
        #expect(try Binary.run(arguments + ["--out", first]).status == 0)
        let again = try Binary.run(arguments + ["--against", first, "--out", second])
        #expect(again.status == 0)
        #expect(again.stderr == "Examples/statement.csv: 0 entries written to \(second); 9 rows skipped, already in \(first)\n")
        #expect(try String(contentsOfFile: second, encoding: .utf8) == "{\"version\":1,\n\"entries\":[\n]}\n")
        // Against the demo ledger nothing repeats: all nine rows, to stdout.
        let demo = try Binary.run(arguments + ["--against", "Examples/demo.json"])
        #expect(demo.stderr.hasSuffix("9 entries written to stdout; 0 rows skipped, already in Examples/demo.json\n"))
        #expect(demo.stdout.components(separatedBy: "\"id\":\"csv-").count == 10)
    }

    /// `--no-rc`, which scripts give every call, is accepted after `import-csv` and before it:
    /// the import reads no rc file, so the output is the same.
    @Test func noRCIsAcceptedAfterOrBeforeImportCSV() throws {
        let arguments = ["import-csv", "Examples/statement.csv", "--rules", "Examples/statement.toml"]
        let plain = try Binary.run(arguments)
        #expect(plain.status == 0)
        for withNoRC in [arguments + ["--no-rc"], ["--no-rc"] + arguments] {
            let r = try Binary.run(withNoRC)
            #expect(r.status == 0, "\(withNoRC): \(r.stderr)")
            #expect(r.stdout == plain.stdout)
        }
        #expect(try Binary.run(["import-csv", "--help"]).stdout.contains("--no-rc"))
    }

    @Test func aBadRowStopsTheImportNamingFileAndLineAndWritesNothing() throws {
        let csv = try Binary.temporaryFile("bad-row.csv", """
            Date,Narration,Ref No,Withdrawal Amt,Deposit Amt,Mode,Remarks
            01/11/25,SWIGGY,1,"1,204.75",,UPI,
            02/11/25,ACME,2,,"2,45,000.00",NEFT,
            31/11/25,BESCOM,3,"2,318.00",,BBPS,

            """)
        let out = try Binary.temporaryFile("kept.json", "what was there before\n")
        let r = try Binary.run(["import-csv", csv, "--rules", "Examples/statement.toml", "--out", out])
        #expect(r.status == 2)
        #expect(r.stderr == "error: \(csv):4: column 1 (date): found \"31/11/25\", expected a date written dd/MM/yy that exists in the calendar\n")
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "what was there before\n")
        let fresh = out + ".new"
        #expect(try Binary.run(["import-csv", csv, "--rules", "Examples/statement.toml", "--out", fresh]).status == 2)
        #expect(!FileManager.default.fileExists(atPath: fresh))
    }

    @Test func theOutputMayNotReplaceALedgerItIsComparedWith() throws {
        let kept = try Binary.temporaryFile("compared.json", #"{"version": 1, "entries": []}"#)
        let r = try Binary.run(["import-csv", "Examples/statement.csv", "--rules", "Examples/statement.toml", "--against", kept, "--out", kept])
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("error: \(kept): is also given with --against"))
        #expect(try String(contentsOfFile: kept, encoding: .utf8) == #"{"version": 1, "entries": []}"#)
    }

    /// `--out` naming the statement or the rules being read (or a folder) is refused before
    /// anything is written: the bank's file is never replaced by the ledger made from it.
    @Test func theOutputMayNotReplaceTheStatementOrItsRules() throws {
        let csv = try Binary.temporaryFile("own.csv", try String(contentsOfFile: Binary.root.appendingPathComponent("Examples/statement.csv").path, encoding: .utf8))
        let rules = try Binary.temporaryFile("own.toml", try String(contentsOfFile: Binary.root.appendingPathComponent("Examples/statement.toml").path, encoding: .utf8))
        for (out, what) in [(csv, "the statement"), (rules, "the rules file")] {
            let before = try String(contentsOfFile: out, encoding: .utf8)
            let r = try Binary.run(["import-csv", csv, "--rules", rules, "--out", out])
            #expect(r.status == 2)
            #expect(r.stderr.hasPrefix("error: \(out): is \(what) being read"), "\(r.stderr)")
            #expect(try String(contentsOfFile: out, encoding: .utf8) == before)
        }
        let folder = (csv as NSString).deletingLastPathComponent
        let r = try Binary.run(["import-csv", csv, "--rules", rules, "--out", folder])
        #expect(r.status == 2)
        #expect(r.stderr == "error: \(folder): is a directory: --out names the ledger file to write\n")
    }

    @Test func theOutputAloneNamesABookNoFileDefines() throws {
        let out = try Binary.temporaryFile("alone.json", "")
        #expect(try Binary.run(["import-csv", "Examples/statement.csv", "--rules", "Examples/statement.toml", "--out", out]).status == 0)
        let main = try Binary.temporaryFile("main.json", #"{"version": 1, "defaultCurrency": "INR", "books": [{"id": "b-office", "name": "Office", "currency": "INR"}]}"#)
        let r = try Binary.run([main, out, "-e", "count entries"])
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("error: \(out):3:"))
        #expect(r.stderr.contains("entries[0].bookId: no book has id \"b-home\""))
    }
}
