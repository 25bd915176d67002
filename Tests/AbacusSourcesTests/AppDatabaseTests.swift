// The expense tracker app's SQLite database as a ledger: databases built here, in the
// app's schema, through SQLite itself, so that REAL columns hold real doubles.

import AbacusCore
@testable import AbacusSources
import CSQLite
import Foundation
import Testing

/// The app's two tables, as the app creates them, and one table of its own that is ignored.
let appSchema = """
    CREATE TABLE books (id TEXT PRIMARY KEY, name TEXT NOT NULL, description TEXT,
      currency TEXT DEFAULT 'INR', currencyHistory TEXT, lockedExchangeRate REAL,
      targetCurrency TEXT, rateLockedAt TEXT, createdAt TEXT NOT NULL,
      updatedAt TEXT NOT NULL, userId TEXT NOT NULL);
    CREATE TABLE entries (id TEXT PRIMARY KEY, bookId TEXT NOT NULL, amount REAL NOT NULL,
      currency TEXT DEFAULT 'INR', date TEXT NOT NULL, category TEXT NOT NULL, party TEXT,
      paymentMode TEXT, remarks TEXT, historicalRates TEXT, conversionHistory TEXT,
      normalizedAmount REAL, normalizedCurrency TEXT, conversionRate REAL,
      createdAt TEXT NOT NULL, updatedAt TEXT NOT NULL, userId TEXT NOT NULL);
    CREATE INDEX idx_entries_normalizedCurrency ON entries(normalizedCurrency);
    CREATE TABLE migration_log (id INTEGER PRIMARY KEY, note TEXT);
    """

/// Two books: Home (INR) and a Singapore trip (SGD, locked at 55.5 INR); both target INR.
let appBooks = """
    INSERT INTO books VALUES ('b-home', 'Home', NULL, 'INR', NULL, NULL, 'INR', NULL, '2025-01-01T09:00:00Z', '2025-01-01', 'u1');
    INSERT INTO books VALUES ('b-sg', 'Singapore', 'trip', 'SGD', '[]', 55.5, 'INR', '2025-10-01', '2025-09-30', '2025-10-01', 'u1');
    """

/// An entry of the app's table; the columns the app needs but Abacus does not are filled in.
func appEntry(_ id: String, book: String = "b-home", amount: String, currency: String = "NULL", date: String = "'2025-10-04'",
              category: String = "'Food'", party: String = "NULL", extra: (historical: String, normalized: String, normalizedCurrency: String, rate: String) = ("NULL", "NULL", "NULL", "NULL")) -> String {
    "INSERT INTO entries VALUES ('\(id)', '\(book)', \(amount), \(currency), \(date), \(category), \(party), 'UPI', NULL, "
        + "\(extra.historical), NULL, \(extra.normalized), \(extra.normalizedCurrency), \(extra.rate), 'c', 'u', 'u1');"
}

enum TestDatabase {
    static let folder: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("abacus-sources-tests-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    /// A new database file holding what `sql` makes.
    static func make(_ name: String, _ sql: String) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try? FileManager.default.removeItem(atPath: path)
        var db: OpaquePointer?
        guard sqlite3_open(path, &db) == SQLITE_OK else { throw SQLiteError(message: "cannot create \(path)") }
        defer { sqlite3_close(db) }
        var failure: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(db, sql, nil, nil, &failure) == SQLITE_OK else {
            let message = failure.map { String(cString: $0) } ?? "?"
            sqlite3_free(failure)
            throw SQLiteError(message: message)
        }
        return path
    }

    static func file(_ name: String, _ text: String) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}

extension SQLiteError: CustomStringConvertible {
    public var description: String { message }
}

func loadError(_ paths: [String]) -> LoadError? {
    do {
        _ = try LedgerSources.load(paths: paths)
        return nil
    } catch {
        return error
    }
}

extension Ledger {
    func row(ofID id: String) -> Int? {
        (0..<entries.count).first { entries.id(at: $0) == id }
    }
}

struct AppDatabaseTests {
    /// A BLOB, or TEXT that is not UTF-8, where the ledger takes text or a number is refused,
    /// naming the row and column: it was read as the text "a BLOB of 4 bytes" (two BLOB ids
    /// then matched each other) or with U+FFFD in place of the bad bytes (two ids collided).
    @Test func aBlobOrTextThatIsNotUTF8IsRefusedWhereItStands() throws {
        let blob = try TestDatabase.make("blob.db", appSchema + appBooks + appEntry("e1", amount: "-5", category: "X'466F6F64'"))
        #expect(loadError([blob])?.description == "\(blob): entries row 1 (id \"e1\").category: found a BLOB of 4 bytes, expected text")
        let blobAmount = try TestDatabase.make("blob-amount.db", appSchema + appBooks + appEntry("e1", amount: "X'01'"))
        #expect(loadError([blobAmount])?.description == "\(blobAmount): entries row 1 (id \"e1\").amount: found a BLOB of 1 byte, expected a number")
        let utf8 = try TestDatabase.make("utf8.db", appSchema + appBooks + appEntry("e1", amount: "-5", category: "CAST(X'466FFF6F64' AS TEXT)"))
        #expect(loadError([utf8])?.description == "\(utf8): entries row 1 (id \"e1\").category: found text that is not UTF-8 (byte 0xFF), expected text")
        // An infinite REAL (the app's arithmetic overflowed) and rates that are not one JSON value
        // say what they are (they read as the string "inf", and as "found a string").
        let infinite = try TestDatabase.make("inf.db", appSchema + appBooks + appEntry("e1", amount: "9e999"))
        #expect(loadError([infinite])?.description == "\(infinite): entries row 1 (id \"e1\").amount: found a REAL that is not a finite number (inf), expected a number")
        let rates = try TestDatabase.make("rates-dup.db", appSchema + appBooks
            + appEntry("e1", amount: "-5", extra: (#"'{"USD": 1, "USD": 2}'"#, "NULL", "NULL", "NULL")))
        #expect(loadError([rates])?.description.hasSuffix(#"historicalRates: found "{\"USD\": 1, \"USD\": 2}", which is not one JSON value (duplicate key "USD" in an object at character 12), expected a JSON object of rates"#) == true)
        // Valid UTF-8 of every width still reads as it is.
        let fine = try TestDatabase.make("utf8-fine.db", appSchema + appBooks + appEntry("e1", amount: "-5", category: "'Café 日本 🚀'"))
        #expect(try LedgerSources.load(paths: [fine]).entries.categories.contains("Café 日本 🚀"))
    }

    /// A FIFO (or any file that is not regular) is never opened to look for SQLite's header:
    /// opening it waited for a writer, or took what its writer sent and threw it away.
    @Test func aPipeIsNotOpenedToLookForADatabase() throws {
        let fifo = TestDatabase.folder.appendingPathComponent("ledger.fifo").path
        try? FileManager.default.removeItem(atPath: fifo)
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { try? FileManager.default.removeItem(atPath: fifo) }
        // No writer: opening it to read would block for ever.
        #expect(!LedgerSources.isSQLiteDatabase(path: fifo))
    }

    @Test func realColumnsAreReadAsTheShortestDecimalThatGivesBackTheDouble() throws {
        let path = try TestDatabase.make("exact.db", appSchema + appBooks
            // 0.1 + 0.2 computed by SQLite: the double next to 0.3.
            + appEntry("e-sum", amount: "-(0.1 + 0.2)")
            + appEntry("e-big", amount: "123456789012.345", category: "'Salary'")
            + appEntry("e-int", amount: "-250")
            + appEntry("e-text", amount: "'-19.99'")
            + appEntry("e-sg", book: "b-sg", amount: "-12.5", currency: "'SGD'",
                       extra: ("'{\"INR\": 64.1, \"USD\": 0.74}'", "-800.25", "'INR'", "64.02")))
        let ledger = try LedgerSources.load(paths: [path])
        #expect(ledger.entries.count == 5)
        let amounts = Dictionary(uniqueKeysWithValues: ["e-sum", "e-big", "e-int", "e-text", "e-sg"].map { id in
            (id, ledger.row(ofID: id).map { ledger.entries.amount(at: $0).normalized.description } ?? "missing")
        })
        #expect(amounts == ["e-sum": "-0.30000000000000004", "e-big": "123456789012.345", "e-int": "-250",
                            "e-text": "-19.99", "e-sg": "-12.5"])
        let sg = try #require(ledger.books.first { $0.id == "b-sg" })
        #expect(sg.lockedExchangeRate?.description == "55.5")
        #expect(sg.currency.code == "SGD" && sg.targetCurrency.code == "INR")
        // The entry without a currency takes its book's.
        let sum = try #require(ledger.row(ofID: "e-sum"))
        #expect(ledger.entries.currency[sum].code == "INR")
        let booked = try #require(ledger.row(ofID: "e-sg"))
        let index = Int(ledger.entries.bookedIndex[booked])
        let columns = ledger.entries.booked
        #expect(columns.normalizedAmount(index)?.description == "-800.25")
        #expect(columns.conversionRate(index)?.description == "64.02")
        #expect(columns.normalizedCurrency[index].code == "INR")
    }

    @Test func anyTextComesThroughUnchanged() throws {
        let party = "Dosa \"Corner\" \\ back\tslash\nline \u{01} ₹ 寿司"
        let sqlText = "'" + party.replacingOccurrences(of: "'", with: "''") + "'"
        let path = try TestDatabase.make("text.db", appSchema + appBooks + appEntry("e-1", amount: "-1", party: sqlText))
        let ledger = try LedgerSources.load(paths: [path])
        #expect(ledger.entries.parties[Int(ledger.entries.party[0])] == party)
    }

    @Test func theDefaultCurrencyIsTheTargetCurrencyMostBooksName() throws {
        let path = try TestDatabase.make("default.db", appSchema + """
            INSERT INTO books VALUES ('a', 'A', NULL, 'SGD', NULL, NULL, 'USD', NULL, 'c', 'u', 'u1');
            INSERT INTO books VALUES ('b', 'B', NULL, 'INR', NULL, NULL, 'EUR', NULL, 'c', 'u', 'u1');
            INSERT INTO books VALUES ('c', 'C', NULL, 'JPY', NULL, NULL, 'EUR', NULL, 'c', 'u', 'u1');
            """)
        #expect(try LedgerSources.load(paths: [path]).defaultCurrency.code == "EUR")
        // No book names a target: the first book's currency.
        let untargeted = try TestDatabase.make("untargeted.db", appSchema + """
            INSERT INTO books VALUES ('a', 'A', NULL, 'SGD', NULL, NULL, NULL, NULL, 'c', 'u', 'u1');
            INSERT INTO books VALUES ('b', 'B', NULL, 'INR', NULL, NULL, NULL, NULL, 'c', 'u', 'u1');
            """)
        #expect(try LedgerSources.load(paths: [untargeted]).defaultCurrency.code == "SGD")
        // A JSON ledger loaded with it that names a default currency wins.
        let json = try TestDatabase.file("usd.json", #"{"version": 1, "defaultCurrency": "JPY"}"#)
        #expect(try LedgerSources.load(paths: [path, json]).defaultCurrency.code == "JPY")
    }

    @Test func aDatabaseMissingAColumnIsRefusedSayingWhatIsMissing() throws {
        let schema = appSchema.replacingOccurrences(of: "amount REAL NOT NULL,", with: "")
        let path = try TestDatabase.make("nocolumn.db", schema + appBooks)
        let error = try #require(loadError([path]))
        #expect(error.description == "\(path): not the expense tracker app's database: table \"entries\" has no column \"amount\" "
                + "(expected tables books and entries; see README.md, \"Bringing in data\")")
        let noBooks = try TestDatabase.make("nobooks.db", "CREATE TABLE entries (id TEXT);")
        let both = try #require(loadError([noBooks]))
        #expect(both.message.contains("no table \"books\""))
        #expect(both.message.contains("table \"entries\" has no columns \"bookId\", \"amount\", \"currency\", \"date\""))
    }

    @Test(arguments: [
        (appEntry("e-99", amount: "-1", currency: "'XYZ'"), "entries row 1 (id \"e-99\").currency",
         "found \"XYZ\", expected an ISO 4217 currency code such as \"INR\" or \"USD\""),
        (appEntry("e-1", amount: "'12,50'"), "entries row 1 (id \"e-1\").amount",
         "expected a number (negative for an expense, positive for income)"),
        (appEntry("e-2", amount: "-1", date: "'2025-02-30'"), "entries row 1 (id \"e-2\").date",
         "found \"2025-02-30\", expected a date YYYY-MM-DD"),
        (appEntry("e-3", book: "b-nowhere", amount: "-1"), "entries row 1 (id \"e-3\").bookId", "no book has id \"b-nowhere\""),
        (appEntry("e-4", amount: "-1", extra: ("'{\"usd\": 83}'", "NULL", "NULL", "NULL")), "entries row 1 (id \"e-4\").historicalRates.usd",
         "expected an ISO 4217 currency code as the key"),
        (appEntry("e-5", amount: "-1", extra: ("NULL", "5", "'INR'", "NULL")), "entries row 1 (id \"e-5\").normalizedAmount",
         "has the opposite sign of amount"),
    ])
    func aBrokenRuleNamesTheRowAndTheEntry(row: String, place: String, words: String) throws {
        let path = try TestDatabase.make("broken-\(UUID().uuidString).db", appSchema + appBooks + row)
        let error = try #require(loadError([path]))
        #expect(error.line == nil)
        #expect(error.description.hasPrefix("\(path): \(place): "), "\(error)")
        #expect(error.message.contains(words), "\(error)")
    }

    @Test func rowsAreNamedByRowidNotByPosition() throws {
        let path = try TestDatabase.make("rowid.db", appSchema + appBooks + appEntry("e-1", amount: "-1")
            + appEntry("e-2", amount: "-2") + "DELETE FROM entries WHERE id = 'e-1';"
            + appEntry("e-3", amount: "-3", currency: "'inr'"))
        let error = try #require(loadError([path]))
        #expect(error.path == "entries row 3 (id \"e-3\").currency")
        #expect(error.message.hasSuffix("did you mean \"INR\"?"))
    }

    @Test func aDatabaseLoadsWithJSONFilesAndIDsStayUniqueAcrossThem() throws {
        let db = try TestDatabase.make("with-json.db", appSchema + appBooks + appEntry("e-1", amount: "-10", currency: "'SGD'"))
        // A ledger holding only rates: what the app does not keep.
        let rates = try TestDatabase.file("rates.json", """
            {"version": 1, "rates": [{"from": "SGD", "to": "INR", "rate": 64.5, "date": "2025-01-01"}],
             "customRates": [{"from": "USD", "to": "INR", "rate": 83}]}
            """)
        let ledger = try LedgerSources.load(paths: [db, rates])
        #expect(ledger.pairs.count == 1 && ledger.customRates.count == 1)
        #expect(ledger.entries.count == 1 && ledger.defaultCurrency.code == "INR")

        let clash = try TestDatabase.file("clash.json", """
            {"version": 1, "entries": [{"id": "e-1", "bookId": "b-home", "amount": 1, "date": "2025-10-01", "category": "X"}]}
            """)
        let error = try #require(loadError([db, clash]))
        #expect(error.file == clash)
        #expect(error.message == "duplicate entry id \"e-1\" (also \(db): entries row 1 (id \"e-1\"))")
    }

    @Test func aDatabaseIsKnownByItsHeaderNotItsName() throws {
        let db = try TestDatabase.make("looks-like.json", appSchema + appBooks + appEntry("e-1", amount: "-1"))
        #expect(try LedgerSources.load(paths: [db]).entries.count == 1)
        #expect(LedgerSources.isSQLiteDatabase(path: db))
        let json = try TestDatabase.file("looks-like.db", "{\"version\": 1}")
        #expect(!LedgerSources.isSQLiteDatabase(path: json))
        let error = try #require(loadError([json]))
        #expect(error.message.contains("defaultCurrency"))
    }

    /// A database of an older app, without the columns Abacus can do without, loads: they are
    /// NULL. The columns every entry needs are still required (above).
    @Test func optionalColumnsMayBeMissing() throws {
        var schema = appSchema
        for column in ["remarks TEXT, ", "historicalRates TEXT, ", "normalizedAmount REAL, ", "normalizedCurrency TEXT, ", "conversionRate REAL,",
                       "description TEXT,", "lockedExchangeRate REAL,", "rateLockedAt TEXT, "] {
            #expect(schema.contains(column), "\(column)")
            schema = schema.replacingOccurrences(of: column, with: "")
        }
        schema = schema.replacingOccurrences(of: "CREATE INDEX idx_entries_normalizedCurrency ON entries(normalizedCurrency);", with: "")
        let path = try TestDatabase.make("older.db", schema + """
            INSERT INTO books VALUES ('b-home', 'Home', 'INR', NULL, 'INR', '2025-01-01', '2025-01-01', 'u1');
            INSERT INTO entries VALUES ('e-1', 'b-home', -12.5, 'INR', '2025-10-04', 'Food', NULL, 'UPI', NULL, 'c', 'u', 'u1');
            """)
        let ledger = try LedgerSources.load(paths: [path])
        #expect(ledger.entries.count == 1 && ledger.defaultCurrency.code == "INR")
    }

    /// A new database has no books yet: the error says where a default currency can come from,
    /// in words for a database (it has no `defaultCurrency` key to add), and that way works.
    @Test func aDatabaseWithNoBooksNeedsADefaultCurrencyFromAJSONFile() throws {
        let path = try TestDatabase.make("new.db", appSchema)
        let error = try #require(loadError([path]))
        #expect(error.description == "\(path): no default currency: the database has no book whose targetCurrency or currency could give one; "
                + #"load a JSON ledger naming it beside the database, e.g. {"version": 1, "defaultCurrency": "INR"}"#)
        let json = try TestDatabase.file("default.json", #"{"version": 1, "defaultCurrency": "INR"}"#)
        #expect(try LedgerSources.load(paths: [path, json]).entries.count == 0)
    }

    /// A save the app left unfinished (its journal beside the file) cannot be rolled back by a
    /// reader: the error says so and what to do, not SQLite's "attempt to write a readonly database".
    @Test func anUnfinishedSaveIsNamedWithItsJournal() throws {
        let rows = (1...400).map { appEntry("e-\($0)", amount: "-\($0)") }.joined()
        let path = try TestDatabase.make("saving.db", appSchema + appBooks + rows)
        let hot = TestDatabase.folder.appendingPathComponent("hot.db").path
        for p in [hot, hot + "-journal"] { try? FileManager.default.removeItem(atPath: p) }
        // A write in progress, its pages spilled into the file (a cache of 5 pages), copied with
        // its journal as a crash would leave them; then rolled back here.
        var db: OpaquePointer?
        guard sqlite3_open(path, &db) == SQLITE_OK else { Issue.record("open"); return }
        defer { sqlite3_close(db) }
        #expect(sqlite3_exec(db, "PRAGMA cache_size = 5; BEGIN; UPDATE entries SET amount = -7, remarks = 'x' || id || hex(randomblob(200));", nil, nil, nil) == SQLITE_OK)
        try FileManager.default.copyItem(atPath: path, toPath: hot)
        try FileManager.default.copyItem(atPath: path + "-journal", toPath: hot + "-journal")
        #expect(sqlite3_exec(db, "ROLLBACK;", nil, nil, nil) == SQLITE_OK)
        let error = try #require(loadError([hot]))
        #expect(error.message.contains("\(hot)-journal holds a save the app did not finish"), "\(error)")
        #expect(error.message.contains("open the database once in the app"))
        // The file itself is left as it was: nothing written, the journal still there.
        #expect(FileManager.default.fileExists(atPath: hot + "-journal"))
    }
}
