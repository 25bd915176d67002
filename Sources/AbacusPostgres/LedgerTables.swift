// A ledger into the tables and back (docs/postgres.md).
//
// Import: the JSON files are read by the same loader as `abacus LEDGER.json`, together
// with the ledger already in the database, so every rule of the ledger format (unique ids
// across everything, books that exist, known currencies, exact numbers) is checked in one
// place; then, in the same transaction, the tables are rewritten with the result. A file
// that is refused leaves the database as it was.
//
// Reading: the small tables (books, rates, custom rates, budgets) and the entries become a
// ledger document again, read by that same loader, so the statements that work on the
// ledger in memory (`books`, `rate`, `convert`, …) see exactly what a file would give.

import AbacusCore
import Foundation

public enum LedgerTables {
    public struct ImportSummary: Sendable {
        public var entries: Int
        public var books: Int
        public var files: [String]
        /// What the loader said a person should hear of.
        public var notes: [String]
    }

    /// Rows sent in one INSERT.
    static let batch = 20_000
    /// Entries read back in one statement.
    static let entrySlice = 100_000

    /// Loads `paths` into the database, all or nothing, in one transaction.
    public static func importFiles(_ paths: [String], into db: Database) throws(ImportError) -> ImportSummary {
        do { try db.query("BEGIN") } catch { throw .database(error) }
        do throws(ImportError) {
            let summary = try importInTransaction(paths, db)
            do { try db.query("COMMIT") } catch { throw ImportError.database(error) }
            return summary
        } catch {
            if !db.isBroken { _ = try? db.query("ROLLBACK") }
            throw error
        }
    }

    static func importInTransaction(_ paths: [String], _ db: Database) throws(ImportError) -> ImportSummary {
        let existing: [UInt8]?
        do {
            try Schema.ensure(db, create: true)
            // One importer at a time; readers go on seeing the ledger as it was until COMMIT.
            try db.query("LOCK TABLE abacus_imports IN EXCLUSIVE MODE")
            existing = try document(db)
        } catch { throw .database(error) }
        var inputs: [LedgerInput] = []
        if let existing { inputs.append(.document(name: db.url.shown, bytes: existing)) }
        inputs += paths.map { .file(path: $0) }
        let ledger: Ledger
        do { ledger = try LedgerLoader.load(inputs) } catch { throw .ledger(error) }
        do { try write(ledger, files: paths, into: db) } catch { throw .database(error) }
        return ImportSummary(entries: ledger.entries.count, books: ledger.books.count, files: paths, notes: ledger.notes)
    }

    public enum ImportError: Error, Sendable, CustomStringConvertible {
        case ledger(LoadError)
        case database(DatabaseError)
        public var description: String {
            switch self {
            case .ledger(let e): return e.description + " (nothing was imported)"
            case .database(let e): return e.description + " (nothing was imported)"
            }
        }
    }

    /// The ledger in the database, read by the ledger loader: the whole of it, or (without
    /// `entries`) the small tables and one entry for each name the entries use
    /// (`Ledger.entriesElsewhere`), which is what a statement that runs in SQL needs.
    public static func load(_ db: Database, entries: Bool = true) throws(DatabaseError) -> Result<Ledger, LoadError> {
        // An older layout is upgraded all or nothing.
        try db.transaction { () throws(DatabaseError) in try Schema.ensure(db, create: false) }
        guard let bytes = try document(db, entries: entries ? .all : .representatives) else {
            throw DatabaseError("the database \(db.url.shown) holds an Abacus schema but no ledger yet: load one with `--import LEDGER.json`")
        }
        var ledger: Ledger
        do { ledger = try LedgerLoader.load([.document(name: db.url.shown, bytes: bytes)]) } catch { return .failure(error) }
        if !entries {
            guard let text = try db.query("SELECT entries::text FROM abacus_imports ORDER BY import_no DESC LIMIT 1").first?.first ?? nil, let n = Int(text) else {
                throw DatabaseError("the database gave no count of its entries")
            }
            ledger.entriesElsewhere = n
        }
        return .success(ledger)
    }

    enum EntryRead { case all, representatives }

    /// An entry row as the ledger file writes it.
    static let entryJSON = """
        json_strip_nulls(json_build_object(
            'id', id, 'bookId', book_id, 'amount', amount, 'currency', currency, 'date', day::text, 'category', category,
            'party', party, 'paymentMode', payment, 'remarks', remarks, 'tags', array_to_json(tags),
            'isTransfer', is_transfer, 'normalizedAmount', normalized_amount, 'normalizedCurrency', normalized_currency,
            'conversionRate', conversion_rate, 'splits', splits))
        """

    // MARK: Writing

    static func write(_ ledger: Ledger, files: [String], into db: Database) throws(DatabaseError) {
        for table in ["abacus_entries", "abacus_books", "abacus_rates", "abacus_budgets", "abacus_parts", "abacus_names"] {
            try db.query("DELETE FROM \(table)")
        }
        let next = try db.query("SELECT (coalesce(max(import_no), 0) + 1)::text FROM abacus_imports")
        guard let importNo = next.first?.first ?? nil else { throw DatabaseError("the database gave no number for the next import") }
        try db.query("INSERT INTO abacus_imports (import_no, files, default_currency, entries) VALUES ($1::integer, $2, $3, $4::bigint)",
                     [importNo, files.joined(separator: "\n"), ledger.defaultCurrency.code, String(ledger.entries.count)])

        var books = JSONText.array()
        for (i, b) in ledger.books.enumerated() {
            var o = JSONText.object()
            o.field("id", b.id); o.field("position", i); o.field("name", b.name); o.field("currency", b.currency.code)
            o.field("locked_exchange_rate", b.lockedExchangeRate?.description); o.field("target_currency", b.targetCurrency.code)
            o.field("rate_locked_at", b.rateLockedAt?.description); o.field("description", b.description); o.field("archived", b.archived)
            o.field("opening_balance", b.openingBalance?.description); o.field("include_in_net_worth", b.includeInNetWorth)
            books.append(o)
        }
        try insert(books, into: "abacus_books", columns: "id text, position integer, name text, currency char(3), locked_exchange_rate numeric, target_currency char(3), rate_locked_at date, description text, archived boolean, opening_balance numeric, include_in_net_worth boolean", importNo: importNo, db)

        var rates = JSONText.array()
        func rate(_ kind: String, _ position: Int, _ base: Currency, _ quote: Currency, _ r: ExactDecimal, _ day: Day?, _ source: String?, _ fetchedAt: String?) {
            var o = JSONText.object()
            o.field("kind", kind); o.field("position", position); o.field("base", base.code); o.field("quote", quote.code)
            o.field("rate", r.description); o.field("day", day?.description); o.field("source", source); o.field("fetched_at", fetchedAt)
            rates.append(o)
        }
        for s in ledger.snapshots {
            for (c, r) in s.rates.sorted(by: { $0.key.code < $1.key.code }) { rate("snapshot", s.order, s.base, c, r, s.day, s.source, s.fetchedAt) }
        }
        for p in ledger.pairs { rate("pair", p.order, p.from, p.to, p.rate, p.day, p.source, nil) }
        for (i, p) in ledger.customRates.enumerated() { rate("custom", i, p.from, p.to, p.rate, p.day, p.source, nil) }
        try insert(rates, into: "abacus_rates", columns: "kind text, position integer, base char(3), quote char(3), rate numeric, day date, source text, fetched_at text", importNo: importNo, db)

        var budgets = JSONText.array()
        for (i, b) in ledger.budgets.enumerated() {
            var o = JSONText.object()
            o.field("position", i); o.field("category", b.category); o.field("month", b.month?.description)
            o.field("limit_amount", b.limitAmount.description); o.field("currency", b.currency.code)
            o.field("book_id", b.bookID); o.raw("alerts", "[" + b.alerts.map(\.description).joined(separator: ",") + "]")
            o.field("carry_over", b.carryOver); o.field("start_month", b.startMonth?.description)
            budgets.append(o)
        }
        try insert(budgets, into: "abacus_budgets", columns: "position integer, category text, month date, limit_amount numeric, currency char(3), book_id text, alerts json, carry_over boolean, start_month date", importNo: importNo, db)
        try insert(LedgerTables.parts(ledger), into: "abacus_parts", columns: "part text, position integer, body json", importNo: importNo, db)

        let s = ledger.entries
        var entries = JSONText.array()
        for r in 0..<s.count {
            var o = JSONText.object()
            o.field("id", s.id(at: r)); o.field("position", r); o.field("book_id", ledger.books[Int(s.book[r])].id)
            o.field("day", Day(number: s.day[r]).description); o.field("amount", s.amount(at: r).description)
            o.field("currency", s.currency[r].code); o.field("category", s.categories[Int(s.category[r])])
            o.field("party", s.party[r] == 0 ? nil : s.parties[Int(s.party[r])])
            o.field("payment", s.payment[r] == 0 ? nil : s.payments[Int(s.payment[r])])
            o.field("remarks", s.remarks[r] == 0 ? nil : s.remarkTexts[Int(s.remarks[r])])
            o.field("tags", s.tags(at: r).map { s.tags[Int($0)] })
            o.field("is_transfer", s.isTransfer[r])
            let b = Int(s.bookedIndex[r])
            if b >= 0 {
                o.field("normalized_amount", s.booked.normalizedAmount(b)?.description)
                o.field("normalized_currency", s.booked.normalizedCurrency[b].code)
                o.field("conversion_rate", s.booked.conversionRate(b)?.description)
            }
            if let parts = ledger.splits.parts(ofRow: r) { o.raw("splits", LedgerTables.splits(parts)) }
            entries.append(o)
            if entries.count == batch {
                try insertEntries(entries, importNo: importNo, db)
                entries = JSONText.array()
            }
        }
        try insertEntries(entries, importNo: importNo, db)
        try db.query(Schema.fillNames)
        // Statistics for the planner now, not when autovacuum gets to it.
        for table in ["abacus_entries", "abacus_books", "abacus_rates", "abacus_names"] { try db.query("ANALYZE \(table)") }
    }

    static func insertEntries(_ rows: JSONText, importNo: String, _ db: Database) throws(DatabaseError) {
        try insert(rows, into: "abacus_entries", columns: "id text, position bigint, book_id text, day date, amount numeric, currency char(3), category text, party text, payment text, remarks text, tags text[], is_transfer boolean, normalized_amount numeric, normalized_currency char(3), conversion_rate numeric, splits json", importNo: importNo, db)
    }

    /// A split entry's parts as the ledger file writes them.
    static func splits(_ parts: [SplitPart]) -> String {
        var a = JSONText.array()
        for p in parts {
            var o = JSONText.object()
            o.number("amount", p.amount.description); o.field("category", p.category); o.field("memo", p.memo)
            a.append(o)
        }
        return a.finished
    }

    /// The category tree, assets, liabilities, holdings and prices: one row per record, its
    /// body the record as the ledger file writes it (they are small and read whole).
    static func parts(_ ledger: Ledger) -> JSONText {
        var rows = JSONText.array()
        func row(_ part: String, _ position: Int, _ body: JSONText) {
            var o = JSONText.object()
            o.field("part", part); o.field("position", position); o.raw("body", body.finished)
            rows.append(o)
        }
        for (i, c) in ledger.categoryLinks.enumerated() {
            var o = JSONText.object()
            o.field("name", c.name); o.field("parent", c.parent)
            row("categories", i, o)
        }
        for (i, a) in ledger.assets.enumerated() {
            var o = JSONText.object()
            o.field("id", a.id); o.field("name", a.name); o.field("type", a.tangible ? "tangible" : "intangible")
            o.number("value", a.value.description); o.field("currency", a.currency.code); o.field("date", a.day.description)
            o.field("volatile", a.volatile); o.field("includeInCore", a.includeInCore)
            row("assets", i, o)
        }
        for (i, l) in ledger.liabilities.enumerated() {
            var o = JSONText.object()
            o.field("id", l.id); o.field("name", l.name); o.field("type", l.type); o.number("balance", l.balance.description)
            o.field("currency", l.currency.code); o.field("date", l.day.description)
            o.number("interestRate", l.interestRate?.description); o.field("dueDate", l.dueDate?.description)
            row("liabilities", i, o)
        }
        for (i, h) in ledger.holdings.enumerated() {
            var o = JSONText.object()
            o.field("id", h.id); o.field("account", h.account); o.field("symbol", h.symbol); o.number("quantity", h.quantity.description)
            o.number("costPerUnit", h.costPerUnit.description); o.number("fee", h.fee.description)
            o.field("currency", h.currency.code); o.field("date", h.day.description)
            row("holdings", i, o)
        }
        for (i, p) in ledger.prices.enumerated() {
            var o = JSONText.object()
            o.field("symbol", p.symbol); o.field("date", p.day.description); o.number("price", p.price.description)
            o.field("currency", p.currency.code); o.field("source", p.source)
            row("prices", i, o)
        }
        return rows
    }

    /// Inserts rows given as a JSON array of objects (one statement, one parameter).
    static func insert(_ rows: JSONText, into table: String, columns: String, importNo: String, _ db: Database) throws(DatabaseError) {
        guard rows.count > 0 else { return }
        let names = columns.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).split(separator: " ")[0] }.joined(separator: ", ")
        try db.query("INSERT INTO \(table) (import_no, \(names)) SELECT $2::integer, \(names) FROM json_to_recordset($1::json) AS r(\(columns))",
                     [rows.finished, importNo])
    }

    // MARK: Reading

    /// The whole ledger as one ledger document (nil when no import was ever made).
    static func document(_ db: Database, entries read: EntryRead = .all) throws(DatabaseError) -> [UInt8]? {
        let imports = try db.query("SELECT default_currency FROM abacus_imports ORDER BY import_no DESC LIMIT 1")
        guard let currency = imports.first?.first ?? nil else { return nil }
        var doc = JSONText.object()
        doc.field("version", 1)
        doc.field("defaultCurrency", currency)

        var books = JSONText.array()
        for r in try db.query("SELECT id, name, currency, locked_exchange_rate::text, target_currency, rate_locked_at::text, description, archived::text, opening_balance::text, include_in_net_worth::text FROM abacus_books ORDER BY position") {
            var o = JSONText.object()
            o.field("id", r[0]); o.field("name", r[1]); o.field("currency", r[2]); o.number("lockedExchangeRate", r[3])
            // A book without a target currency is stored with a blank one (the column is NOT NULL).
            o.field("targetCurrency", r[4].flatMap { $0.allSatisfy(\.isWhitespace) ? nil : $0 }); o.field("rateLockedAt", r[5]); o.field("description", r[6]); o.field("archived", r[7] == "true")
            o.number("openingBalance", r[8]); o.field("includeInNetWorth", r[9] != "false")
            books.append(o)
        }
        doc.raw("books", books.finished)

        var market: [(position: Int, text: String)] = []
        var custom = JSONText.array()
        var snapshot: (position: Int, o: JSONText, rates: JSONText)?
        func flushSnapshot() {
            guard var s = snapshot else { return }
            s.o.raw("rates", s.rates.finished)
            market.append((s.position, s.o.finished))
            snapshot = nil
        }
        for r in try db.query("SELECT kind, position::text, base, quote, rate::text, day::text, source, fetched_at FROM abacus_rates ORDER BY kind, position, quote") {
            guard let kind = r[0], let position = r[1].flatMap({ Int($0) }), ["snapshot", "pair", "custom"].contains(kind) else {
                throw DatabaseError("the database's abacus_rates holds a row without a known kind and position")
            }
            if kind == "snapshot" {
                if let s = snapshot, s.position != position { flushSnapshot() }
                if snapshot == nil {
                    var o = JSONText.object()
                    o.field("base", r[2]); o.field("date", r[5]); o.field("source", r[6]); o.field("fetchedAt", r[7])
                    snapshot = (position, o, JSONText.object())
                }
                guard let quote = r[3] else { throw DatabaseError("the database's abacus_rates holds a snapshot rate without its currency") }
                snapshot?.rates.number(quote, r[4])
                continue
            }
            flushSnapshot()
            var o = JSONText.object()
            o.field("from", r[2]); o.field("to", r[3]); o.number("rate", r[4]); o.field("date", r[5]); o.field("source", r[6])
            if kind == "custom" { custom.append(o) } else { market.append((position, o.finished)) }
        }
        flushSnapshot()
        var rates = JSONText.array()
        for m in market.sorted(by: { $0.position < $1.position }) { rates.appendRaw(m.text) }
        doc.raw("rates", rates.finished)
        doc.raw("customRates", custom.finished)

        var budgets = JSONText.array()
        for r in try db.query("SELECT category, to_char(month, 'YYYY-MM'), limit_amount::text, currency, book_id, alerts::text, carry_over::text, to_char(start_month, 'YYYY-MM') FROM abacus_budgets ORDER BY position") {
            var o = JSONText.object()
            o.field("category", r[0]); o.field("month", r[1]); o.number("limitAmount", r[2]); o.field("currencyCode", r[3])
            o.field("bookId", r[4]); o.number("alerts", r[5]); o.field("carryOver", r[6] == "true"); o.field("startMonth", r[7])
            budgets.append(o)
        }
        doc.raw("budgets", budgets.finished)
        var parts: [String: [String]] = [:]
        for r in try db.query("SELECT part, body::text FROM abacus_parts ORDER BY part, position") {
            if let part = r[0], let body = r[1] { parts[part, default: []].append(body) }
        }
        for (part, bodies) in parts.sorted(by: { $0.key < $1.key }) { doc.raw(part, "[" + bodies.joined(separator: ",") + "]") }

        // The entries as JSON made by the server, in slices (a cell per slice, not per field).
        var entries = "["
        if read == .representatives {
            // One entry for each name the entries use (`Schema.fillNames`), found by position.
            let rows = try db.query("""
                SELECT string_agg(\(entryJSON)::text, ',' ORDER BY position)
                FROM abacus_entries WHERE position IN (SELECT position FROM abacus_names)
                """)
            if let text = rows.first?.first ?? nil { entries += text }
            entries += "]"
            doc.raw("entries", entries)
            return Array(doc.finished.utf8)
        }
        guard let lastText = try db.query("SELECT coalesce(max(position), -1)::text FROM abacus_entries").first?.first ?? nil, let last = Int(lastText) else {
            throw DatabaseError("the database gave no last position of abacus_entries")
        }
        var from = 0
        while from <= last {
            let rows = try db.query("""
                SELECT string_agg(\(entryJSON)::text, ',' ORDER BY position)
                FROM abacus_entries WHERE position >= $1::bigint AND position < $2::bigint
                """, [String(from), String(from + entrySlice)])
            if let text = rows.first?.first ?? nil {
                if entries.count > 1 { entries += "," }
                entries += text
            }
            from += entrySlice
        }
        entries += "]"
        doc.raw("entries", entries)

        return Array(doc.finished.utf8)
    }
}

/// JSON text written field by field (the ledger loader reads it back).
struct JSONText {
    private var text: String
    private let close: Character
    private(set) var count = 0

    static func object() -> JSONText { JSONText(text: "{", close: "}") }
    static func array() -> JSONText { JSONText(text: "[", close: "]") }

    var finished: String { text + String(close) }

    private mutating func key(_ k: String) {
        if count > 0 { text += "," }
        count += 1
        JSONText.quote(k, into: &text)
        text += ":"
    }

    /// A string field; nil leaves the field out.
    mutating func field(_ k: String, _ v: String?) {
        guard let v else { return }
        key(k)
        JSONText.quote(v, into: &text)
    }

    mutating func field(_ k: String, _ v: Int) { key(k); text += String(v) }
    mutating func field(_ k: String, _ v: Bool) { key(k); text += v ? "true" : "false" }
    mutating func field(_ k: String, _ v: [String]) {
        key(k)
        text += "["
        for (i, s) in v.enumerated() {
            if i > 0 { text += "," }
            JSONText.quote(s, into: &text)
        }
        text += "]"
    }

    /// A number written as the exact decimal text the database gave; nil leaves it out.
    mutating func number(_ k: String, _ v: String?) {
        guard let v else { return }
        key(k)
        text += v
    }

    mutating func raw(_ k: String, _ json: String) { key(k); text += json }

    mutating func append(_ o: JSONText) { appendRaw(o.finished) }

    mutating func appendRaw(_ json: String) {
        if count > 0 { text += "," }
        count += 1
        text += json
    }

    static func quote(_ s: String, into out: inout String) { out += s.jsonQuoted }
}
