// The expense tracker app's SQLite database, read as a ledger document.
//
// The app keeps its books and entries in two tables (README.md, "Bringing in data").
// This reader checks that the tables and the columns it needs are there, then writes
// every row, in rowid order, into a ledger document in memory: `books[i]` and
// `entries[i]` of the document are the i-th rows of the tables. The JSON loader reads
// that document like any file, so every rule of the ledger format is checked once, in
// the loader, whatever the source. Values are not judged here, only carried: a number
// column's value goes in as a number when its text is a number and as a string
// otherwise (for the loader to refuse, with what it found). The loader's messages say
// `entries[4127]`; `RowPlace` turns that back into the table's row and the entry's id.

import AbacusCore

/// Where a document's `books[i]` or `entries[i]` came from.
struct RowPlace {
    /// The row's rowid, or its position from 1 when the table has no rowid.
    var row: Int64
    /// The row's id as text, when it has one.
    var id: String?

    /// `entries row 4127 (id "e-99")`.
    func shown(table: String) -> String {
        let which = id.map { "id \"" + ShownText.shown($0) + "\"" } ?? "no id"
        return "\(table) row \(row) (\(which))"
    }
}

struct AppDatabaseDocument {
    /// The database's path, as messages name it.
    var name: String
    /// The rows as a ledger document (version 1, books and entries).
    var bytes: [UInt8]
    var bookRows: [RowPlace]
    var entryRows: [RowPlace]
    /// Each book's targetCurrency and currency, as far as they are currency codes,
    /// in row order: what the default currency is chosen from.
    var bookCurrencies: [(currency: Currency?, target: Currency?)]

    /// `entries[12].currency` of the document as the table's row: `entries row 4127 (id "e-99").currency`.
    func place(ofPath path: String) -> String? {
        for (table, rows) in [("books", bookRows), ("entries", entryRows)] {
            guard path.hasPrefix(table + "["), let close = path.firstIndex(of: "]") else { continue }
            let digits = path[path.index(path.startIndex, offsetBy: table.count + 1)..<close]
            guard let i = Int(digits), rows.indices.contains(i) else { continue }
            return rows[i].shown(table: table) + path[path.index(after: close)...]
        }
        return nil
    }
}

enum AppDatabaseReader {
    /// How a column's value goes into the document.
    enum Kind {
        case text, number, json

        /// What a value of the kind is, as a message says it expected one.
        var expected: String {
            switch self {
            case .text: "text"
            case .number: "a number"
            case .json: "a JSON object of rates"
            }
        }
    }

    /// The columns read from each table, with the names the ledger format gives them
    /// (the same as the app's); the app's other columns are not needed.
    static let bookColumns: [(String, Kind)] = [
        ("id", .text), ("name", .text), ("description", .text), ("currency", .text),
        ("lockedExchangeRate", .number), ("targetCurrency", .text), ("rateLockedAt", .text),
    ]
    static let entryColumns: [(String, Kind)] = [
        ("id", .text), ("bookId", .text), ("amount", .number), ("currency", .text), ("date", .text),
        ("category", .text), ("party", .text), ("paymentMode", .text), ("remarks", .text),
        ("historicalRates", .json), ("normalizedAmount", .number), ("normalizedCurrency", .text),
        ("conversionRate", .number),
    ]
    /// The columns a table must have; the others may be missing (a database of an older
    /// version of the app), and read as NULL: the ledger's fields they fill are optional.
    static let requiredColumns: Set<String> = ["id", "name", "currency", "bookId", "amount", "date", "category"]

    static func read(path: String) throws(LoadError) -> AppDatabaseDocument {
        var document = AppDatabaseDocument(name: path, bytes: [], bookRows: [], entryRows: [], bookCurrencies: [])
        var out = JSONText()
        let missing: [String]
        /// The first value no field can take (a BLOB, TEXT that is not UTF-8), where it is: the
        /// database is refused for it, as a JSON ledger is for a value of the wrong type.
        var unreadable: (place: String, message: String)?
        do {
            let db = try SQLiteDatabase(readOnlyPath: path)
            let present: [String: Set<String>]
            (missing, present) = try schema(db)
            if missing.isEmpty {
                var currencies: [(currency: Currency?, target: Currency?)] = []
                out.beginObject()
                out.key("version"); out.raw("1")
                out.key("books")
                document.bookRows = try writeRows(of: "books", bookColumns, present: present["books"] ?? [], db, into: &out, unreadable: &unreadable) { values in
                    let code: (SQLiteValue) -> Currency? = { if case .text(let t) = $0 { Currency(code: t) } else { nil } }
                    currencies.append((code(values[3]), code(values[5])))
                }
                out.key("entries")
                document.entryRows = try writeRows(of: "entries", entryColumns, present: present["entries"] ?? [], db, into: &out, unreadable: &unreadable) { _ in }
                out.endObject()
                document.bookCurrencies = currencies
            }
        } catch {
            throw LoadError(file: path, message: "cannot read the SQLite database: \(error.message)")
        }
        if let unreadable { throw LoadError(file: path, path: unreadable.place, message: unreadable.message) }
        guard missing.isEmpty else {
            throw LoadError(file: path, message: "not the expense tracker app's database: " + missing.joined(separator: "; ")
                            + " (expected tables books and entries; see README.md, \"Bringing in data\")")
        }
        document.bytes = out.bytes
        return document
    }

    /// What the app's tables and required columns lack in this database, and each table's
    /// columns (in lower case: SQLite's names are case-insensitive).
    private static func schema(_ db: SQLiteDatabase) throws(SQLiteError) -> (missing: [String], present: [String: Set<String>]) {
        var missing: [String] = []
        var tables: [String: Set<String>] = [:]
        for (table, columns) in [("books", bookColumns), ("entries", entryColumns)] {
            guard let present = try db.columns(of: table) else {
                missing.append("no table \"\(table)\"")
                continue
            }
            let have = Set(present.map { $0.lowercased() })
            tables[table] = have
            let lacking = columns.map(\.0).filter { requiredColumns.contains($0) && !have.contains($0.lowercased()) }
            if !lacking.isEmpty {
                let names = lacking.map { "\"\($0)\"" }.joined(separator: ", ")
                missing.append("table \"\(table)\" has no column\(lacking.count == 1 ? "" : "s") \(names)")
            }
        }
        return (missing, tables)
    }

    /// Writes the table's rows as an array of objects; returns where each came from.
    private static func writeRows(of table: String, _ columns: [(String, Kind)], present: Set<String>, _ db: SQLiteDatabase,
                                  into out: inout JSONText, unreadable: inout (place: String, message: String)?,
                                  each: ([SQLiteValue]) -> Void) throws(SQLiteError) -> [RowPlace] {
        let list = columns.map { present.contains($0.0.lowercased()) ? SQLiteDatabase.quotedName($0.0) : "NULL" }.joined(separator: ", ")
        let name = SQLiteDatabase.quotedName(table)
        var places: [RowPlace] = []
        out.beginArray()
        func row(_ values: [SQLiteValue], _ rowid: Int64) {
            out.newline()
            out.beginObject()
            for ((column, kind), value) in zip(columns, values) where !isNull(value) {
                out.key(column)
                guard let found = unreadableValue(value, as: kind) else {
                    write(value, as: kind, into: &out)
                    continue
                }
                // Refused before the document is read: a placeholder of no meaning.
                out.null()
                if unreadable == nil {
                    unreadable = (RowPlace(row: rowid, id: text(of: values[0])).shown(table: table) + "." + column, found + ", expected " + kind.expected)
                }
            }
            out.endObject()
            places.append(RowPlace(row: rowid, id: text(of: values[0])))
            each(values)
        }
        do {
            try db.forEachRow("SELECT \(list), rowid FROM \(name) ORDER BY rowid") { values in
                let rowid: Int64 = if case .integer(let r) = values[columns.count] { r } else { Int64(places.count + 1) }
                row(values, rowid)
            }
        } catch where places.isEmpty && db.lacksRowid(table) {
            // A table declared WITHOUT ROWID: rows are counted from 1 in its key's order.
            try db.forEachRow("SELECT \(list) FROM \(name)") { values in row(values, Int64(places.count + 1)) }
        }
        out.endArray()
        return places
    }

    /// What a value is when no ledger field can take it (a BLOB, TEXT that is not UTF-8, an
    /// infinite REAL, rates that are not one JSON value); nil otherwise.
    private static func unreadableValue(_ value: SQLiteValue, as kind: Kind) -> String? {
        switch (value, kind) {
        case (.blob(let count), _): return "found a BLOB of \(count) \(count == 1 ? "byte" : "bytes")"
        case (.invalidText(_, let bad), _): return "found text that is not UTF-8 (byte 0x\(String(bad, radix: 16, uppercase: true)))"
        // A double the app's arithmetic overflowed: no amount.
        case (.real(let r), _) where r == "inf" || r == "-inf" || r == "nan": return "found a REAL that is not a finite number (\(r))"
        case (.text(let t), .json):
            guard !trimmed(t).isEmpty, let problem = LedgerInput.jsonValueProblem(Array(t.utf8)) else { return nil }
            return "found \(ShownText.literal(t, limit: ShownText.limit)), which is not one JSON value (\(problem))"
        default: return nil
        }
    }

    private static func isNull(_ value: SQLiteValue) -> Bool {
        if case .null = value { return true }
        return false
    }

    /// A value's text, whatever its storage class (nil for NULL and BLOB).
    private static func text(of value: SQLiteValue) -> String? {
        switch value {
        case .null, .blob: nil
        case .integer(let i): String(i)
        case .real(let r): r
        case .text(let t), .invalidText(let t, _): t
        }
    }

    private static func write(_ value: SQLiteValue, as kind: Kind, into out: inout JSONText) {
        switch (kind, value) {
        case (.text, _):
            out.string(text(of: value) ?? "")
        case (.number, .integer(let i)):
            out.raw(String(i))
        case (.number, _):
            // A number's text goes in as a JSON number when it has a number's form (the loader
            // then refuses one too long to hold exactly); anything else as a string.
            let t = trimmed(text(of: value) ?? "")
            if looksLikeNumber(t) { out.raw(t) } else { out.string(t) }
        case (.json, _):
            // One JSON value: text that is not was refused first (`unreadableValue`).
            let t = text(of: value) ?? ""
            if trimmed(t).isEmpty { out.null() } else { out.raw(t) }
        }
    }

    private static func looksLikeNumber(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            switch ExactDecimal.parse(bytes) {
            case .success: true
            case .failure(let failure): failure == .notExact
            }
        }
    }

    /// The text without blanks at either end (on its bytes: this runs for every value of a number column).
    private static func trimmed(_ text: String) -> String {
        let bytes = text.utf8
        let blank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        guard let first = bytes.firstIndex(where: { !blank($0) }), let last = bytes.lastIndex(where: { !blank($0) }) else { return "" }
        if first == bytes.startIndex && last == bytes.index(before: bytes.endIndex) { return text }
        return String(text[first...last])
    }

    /// The app keeps no default currency: the targetCurrency most books name (the first
    /// named among equals), else the first book's currency.
    static func defaultCurrency(of documents: [AppDatabaseDocument]) -> Currency? {
        let books = documents.flatMap(\.bookCurrencies)
        var votes: [Currency: Int] = [:]
        var order: [Currency] = []
        for target in books.compactMap(\.target) {
            if votes[target] == nil { order.append(target) }
            votes[target, default: 0] += 1
        }
        var best: Currency?
        for c in order where best.map({ votes[c, default: 0] > votes[$0, default: 0] }) ?? true { best = c }
        return best ?? books.first?.currency
    }
}

extension SQLiteDatabase {
    /// Whether the table has no rowid (declared WITHOUT ROWID).
    func lacksRowid(_ table: String) -> Bool {
        var sql: String?
        try? forEachRow("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = '\(table)'") { row in
            if case .text(let t) = row[0] { sql = t }
        }
        return sql?.uppercased().contains("WITHOUT ROWID") ?? false
    }
}
