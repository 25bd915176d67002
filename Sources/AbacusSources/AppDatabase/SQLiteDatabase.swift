// A SQLite database opened read-only, and its values as SQLite stored them.
//
// A thin layer over the system's libsqlite3: open, ask which columns a table has, step
// through a query's rows. A value comes back in its storage class; a REAL is handed on
// as the shortest decimal text that gives back the same double (what the app's user
// typed), never as a number to compute with. Errors are SQLite's own words, for the
// caller to place.

import CSQLite

/// One value of a row, in SQLite's storage class.
enum SQLiteValue {
    case null
    case integer(Int64)
    /// A REAL as the shortest decimal text that reads back as the same double
    /// (`0.30000000000000004`, `1e-05`; `inf` for an infinity).
    case real(String)
    case text(String)
    /// TEXT whose bytes are not UTF-8: `repaired` has U+FFFD in their place (for naming the
    /// row), `firstBad` is the first byte that is not; the reader refuses the value.
    case invalidText(repaired: String, firstBad: UInt8)
    case blob(count: Int)

    /// The first bytes of every SQLite database file.
    static let headerMagic = Array("SQLite format 3\u{0}".utf8)
}

struct SQLiteError: Error {
    var message: String
}

final class SQLiteDatabase {
    private let handle: OpaquePointer
    private let path: String

    init(readOnlyPath path: String) throws(SQLiteError) {
        var db: OpaquePointer?
        // One thread uses the connection: SQLite need not lock around each call.
        let status = sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil)
        guard status == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
            sqlite3_close(db)
            throw SQLiteError(message: message)
        }
        // The app may be saving: wait for its write, as long as a save takes, rather than fail at once.
        sqlite3_busy_timeout(db, SQLiteDatabase.busyMilliseconds)
        sqlite3_extended_result_codes(db, 1)
        handle = db
        self.path = path
    }

    /// How long a read waits for another program's write to end.
    static let busyMilliseconds: Int32 = 5000

    /// The connection's last error, in words a user can act on where SQLite's own would
    /// mislead (a read-only reader told it cannot write, to roll back a save the app left unfinished).
    private var lastError: SQLiteError {
        switch sqlite3_extended_errcode(handle) {
        case SQLiteDatabase.readOnlyRollback:
            return SQLiteError(message: "\(path)-journal holds a save the app did not finish, which Abacus (reading only) cannot roll back: "
                               + "open the database once in the app, or run `sqlite3 \(path) 'PRAGMA quick_check'`, then load it again")
        case SQLITE_BUSY, SQLITE_LOCKED:
            return SQLiteError(message: "another program (the app, saving?) kept the database locked for \(SQLiteDatabase.busyMilliseconds / 1000) seconds: try again when it is done")
        default:
            return SQLiteError(message: String(cString: sqlite3_errmsg(handle)))
        }
    }

    /// SQLITE_READONLY_ROLLBACK (SQLITE_READONLY | 3 << 8), a macro Swift does not import.
    static let readOnlyRollback = SQLITE_READONLY | 3 << 8

    deinit { sqlite3_close(handle) }

    /// The table's column names as declared, or nil when there is no such table.
    func columns(of table: String) throws(SQLiteError) -> [String]? {
        var names: [String] = []
        try forEachRow("PRAGMA table_info(\(SQLiteDatabase.quotedName(table)))") { row in
            if case .text(let name) = row[1] { names.append(name) }
        }
        return names.isEmpty ? nil : names
    }

    /// Runs a query, calling `body` with each row's values in the order selected.
    func forEachRow(_ sql: String, _ body: ([SQLiteValue]) throws(SQLiteError) -> Void) throws(SQLiteError) {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else { throw lastError }
        defer { sqlite3_finalize(statement) }
        let width = Int(sqlite3_column_count(statement))
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { return }
            guard status == SQLITE_ROW else { throw lastError }
            var row: [SQLiteValue] = []
            row.reserveCapacity(width)
            for i in 0..<Int32(width) { row.append(SQLiteDatabase.value(statement, i)) }
            try body(row)
        }
    }

    private static func value(_ statement: OpaquePointer, _ i: Int32) -> SQLiteValue {
        switch sqlite3_column_type(statement, i) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(statement, i))
        case SQLITE_FLOAT:
            // Swift's description of a Double is the shortest text that reads back as the
            // same Double; that text, not the binary value, is what the ledger gets.
            return .real("\(sqlite3_column_double(statement, i))")
        case SQLITE_TEXT:
            let count = Int(sqlite3_column_bytes(statement, i))
            guard let bytes = sqlite3_column_text(statement, i) else { return .text("") }
            let buffer = UnsafeBufferPointer(start: bytes, count: count)
            if let valid = String(validating: buffer, as: UTF8.self) { return .text(valid) }
            // The first byte where decoding fails: the lead of the first scalar that does not decode.
            var offset = 0, firstBad: UInt8 = buffer.first ?? 0
            var it = buffer.makeIterator(), decoder = UTF8()
            scan: while true {
                switch decoder.decode(&it) {
                case .scalarValue(let s): offset += UTF8.width(s)
                case .emptyInput: break scan
                case .error: firstBad = buffer[min(offset, count - 1)]; break scan
                }
            }
            return .invalidText(repaired: String(decoding: buffer, as: UTF8.self), firstBad: firstBad)
        case SQLITE_BLOB:
            return .blob(count: Int(sqlite3_column_bytes(statement, i)))
        default:
            return .null
        }
    }

    /// An identifier in double quotes, inner quotes doubled (SQL's own quoting).
    static func quotedName(_ name: String) -> String {
        "\"" + name.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
    }
}
