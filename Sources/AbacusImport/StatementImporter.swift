// A bank statement (CSV) turned into a ledger file of entries, by rules in TOML.
//
// The whole statement is read and every row checked before anything is written: a row
// that cannot be read stops the import with the file, the line and what was expected,
// and no output appears. The output is a ledger file (version 1) holding only entries;
// their book is defined in the ledger it is loaded beside, and the loader checks that.
//
// Entry ids are stable: the same row gives the same id on every run, whatever file it
// comes from (README.md, "Bringing in data"). The id is `csv-` and 16 hex digits of a
// 64-bit FNV-1a hash of what the row says — book, date, amount, currency, party and
// remarks, as read, not as written — so a re-export with other columns or formatting
// gives the same ids. A row identical to an earlier one in the same statement (two
// coffees on one day) gets `-2`, `-3`, … after the hash, counted in file order.
//
// With ledgers to compare against, a row is skipped when an entry there has the same
// book, date, amount and party (party compared without regard to case or surrounding
// blanks). Each entry there stands for one row: two identical rows against one entry
// import one of them.

import AbacusCore
import AbacusSources
import Foundation

public struct ImportSummary: Sendable {
    /// The ledger file, as JSON text.
    public var output: [UInt8]
    public var imported: Int
    /// Rows left out because the ledgers compared against already hold them.
    public var skipped: Int
}

/// One entry of the output, as read from its row.
struct ImportedEntry {
    var day: Day
    var amount: ExactDecimal
    var currency: Currency
    var category: String
    var party: String?
    var paymentMode: String?
    var remarks: String?
    /// The line its row starts on.
    var line: Int
}

public enum StatementImporter {
    /// Reads the statement, its rules and the ledgers to compare with; returns the output
    /// without writing it.
    public static func run(statement: String, rules rulesPath: String, against: [String]) throws(ImportError) -> ImportSummary {
        let rulesText = String(decoding: try contents(of: rulesPath), as: UTF8.self)
        let rules = try ImportRules.parse(rulesText, name: rulesPath)
        let csv = try contents(of: statement)
        let entries = try read(csv, name: statement, rules: rules)
        var existing = try existingKeys(against, rules: rules)
        // Ids are the rows' own, numbered over the whole statement before any is skipped: a
        // row keeps its id whatever `--against` leaves out.
        var seen: [UInt64: Int] = [:]
        let ids = entries.map { stableID($0, book: rules.book, seen: &seen) }
        var kept: [(entry: ImportedEntry, id: String)] = []
        for (entry, id) in zip(entries, ids) {
            let key = duplicateKey(book: rules.book, day: entry.day, amount: entry.amount, party: entry.party)
            if let n = existing[key], n > 0 {
                existing[key] = n - 1
                continue
            }
            kept.append((entry, id))
        }
        return ImportSummary(output: document(kept, book: rules.book), imported: kept.count, skipped: entries.count - kept.count)
    }

    /// Refuses an output path that is one of the ledgers compared against: the new file
    /// would replace the entries its rows were skipped for.
    public static func checkOutput(_ path: String, statement: String, rules: String, against: [String]) throws(ImportError) {
        let resolved: (String) -> String = { URL(fileURLWithPath: $0).standardizedFileURL.resolvingSymlinksInPath().path }
        let out = resolved(path)
        if against.map(resolved).contains(out) {
            throw ImportError(file: path, message: "is also given with --against: writing it would replace the entries the import was compared with; write the output to another file")
        }
        if out == resolved(statement) || out == resolved(rules) {
            throw ImportError(file: path, message: "is the \(out == resolved(statement) ? "statement" : "rules file") being read: writing it would replace it; write the output to another file")
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw ImportError(file: path, message: "is a directory: --out names the ledger file to write")
        }
    }

    /// Writes the output whole or not at all: to a file beside it first, then renamed over it.
    public static func write(_ output: [UInt8], to path: String) throws(ImportError) {
        do {
            try Data(output).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw ImportError(file: path, message: "cannot write the output: \(error.localizedDescription)")
        }
    }

    static func contents(of path: String) throws(ImportError) -> [UInt8] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ImportError(file: path, message: "cannot open: no such file")
        }
        guard !isDirectory.boolValue else { throw ImportError(file: path, message: "is a directory, expected a file") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ImportError(file: path, message: "cannot read the file")
        }
        return Array(data)
    }

    /// Every row of the statement as an entry, or the first row that cannot be read.
    static func read(_ csv: [UInt8], name: String, rules: ImportRules, patternLimit: Int = StatementImporter.patternSeconds) throws(ImportError) -> [ImportedEntry] {
        let records: [CSVRecord]
        do { records = try CSVReader.records(csv, skip: rules.skip) } catch {
            throw ImportError(file: name, line: error.line, message: error.message)
        }
        // The rows are read on a thread of their own, watched from here: a category pattern
        // that backtracks without end on one row (`^(\w+\s?)*$` on a long party) stops the
        // import with a message after `patternLimit` seconds without progress, not a hang.
        // Nothing is written before every row is read.
        let progress = ReadProgress(), read = Slot<Result<[ImportedEntry], ImportError>>(), done = DispatchSemaphore(value: 0)
        let job = ReadJob(records: records, name: name, rules: rules, progress: progress)
        DispatchQueue.global().async {
            do throws(ImportError) {
                var entries: [ImportedEntry] = []
                entries.reserveCapacity(job.records.count)
                for record in job.records where !record.isBlank {
                    var row = RowReader(record: record, file: job.name, rules: job.rules, progress: job.progress)
                    entries.append(try row.entry())
                }
                read.value = .success(entries)
            } catch {
                read.value = .failure(error)
            }
            done.signal()
        }
        var last = progress.state, still = 0
        while done.wait(timeout: .now() + 1) == .timedOut {
            let now = progress.state
            if now.steps != last.steps { (last, still) = (now, 0); continue }
            still += 1
            guard still >= patternLimit, now.rule >= 0, now.rule < rules.categories.count else { continue }
            throw ImportError(file: name, line: now.line, key: "categories[\(now.rule)].pattern",
                              message: "\"\(ShownText.quoted(rules.categories[now.rule].pattern))\" has run for \(still == 1 ? "1 second" : "\(still) seconds") on this row's party or remarks "
                                + "without an answer (a pattern that backtracks, as nested repeats like (\\w+\\s?)* do, can take longer than anyone waits): simplify it")
        }
        let entries: [ImportedEntry]
        switch read.value {
        case .success(let e)?: entries = e
        case .failure(let error)?: throw error
        case nil: entries = []
        }
        try checkCommonScale(entries, name: name, rules: rules)
        return entries
    }

    /// How long a category pattern may run on one row without an answer.
    static let patternSeconds = 10

    /// A ledger holds its amounts at one scale, the finest among them, in 38 digits
    /// (docs/ledger-format.md#numbers): an amount that cannot be held beside the finest stops
    /// the import, as loading the output would stop, naming both rows.
    static func checkCommonScale(_ entries: [ImportedEntry], name: String, rules: ImportRules) throws(ImportError) {
        guard let finest = entries.max(by: { $0.amount.scale < $1.amount.scale }) else { return }
        for e in entries where e.amount.scale < finest.amount.scale {
            let (v, o) = e.amount.significand.multipliedReportingOverflow(by: pow10[finest.amount.scale - e.amount.scale])
            guard o || v.magnitude > ExactDecimal.maxSignificand.magnitude else { continue }
            let column = if case .signed(let c) = rules.amount { "column \(c) (amount)" } else { "the amount" }
            throw ImportError(file: name, line: e.line, key: column,
                              message: "\(e.amount) cannot be held exactly beside the amount of line \(finest.line), \(finest.amount), with \(finest.amount.scale) decimals (38 digits at most in a ledger)")
        }
    }

    /// Book, date, amount and party of every entry of the ledgers, each with how many
    /// entries have it. The ledgers are loaded as for a query, except that a book they
    /// name but do not define (an earlier import's output, given alone) is assumed.
    static func existingKeys(_ paths: [String], rules: ImportRules) throws(ImportError) -> [String: Int] {
        guard !paths.isEmpty else { return [:] }
        let someCurrency: Currency = if case .fixed(let c) = rules.currency { c } else { Currency(code: "XXX") ?? .none }
        let ledger: Ledger
        do {
            ledger = try LedgerSources.load(paths: paths, assuming: LoadAssumptions(defaultCurrency: someCurrency, missingBookCurrency: someCurrency))
        } catch {
            throw ImportError(whole: "--against: " + error.description)
        }
        let store = ledger.entries
        var keys: [String: Int] = [:]
        for r in 0..<store.count {
            let party: String? = store.party[r] == 0 ? nil : store.parties[Int(store.party[r])]
            let key = duplicateKey(book: ledger.books[Int(store.book[r])].id, day: Day(number: store.day[r]),
                                   amount: store.amount(at: r), party: party)
            keys[key, default: 0] += 1
        }
        return keys
    }

    static func duplicateKey(book: String, day: Day, amount: ExactDecimal, party: String?) -> String {
        let who = party.map { String($0.trimmingBlanks).lowercased() } ?? ""
        return [book, day.description, amount.normalized.description, who].joined(separator: "\u{1F}")
    }

    /// The ledger file: version 1 and the entries, one a line.
    static func document(_ entries: [(entry: ImportedEntry, id: String)], book: String) -> [UInt8] {
        var out = JSONText()
        out.beginObject()
        out.key("version"); out.raw("1")
        out.newline()
        out.key("entries")
        out.beginArray()
        for (e, id) in entries {
            out.newline()
            out.beginObject()
            out.key("id"); out.string(id)
            out.key("bookId"); out.string(book)
            out.key("amount"); out.raw(e.amount.description)
            out.key("currency"); out.string(e.currency.code)
            out.key("date"); out.string(e.day.description)
            out.key("category"); out.string(e.category)
            if let p = e.party { out.key("party"); out.string(p) }
            if let p = e.paymentMode { out.key("paymentMode"); out.string(p) }
            if let r = e.remarks { out.key("remarks"); out.string(r) }
            out.endObject()
        }
        out.newline()
        out.endArray()
        out.endObject()
        return out.bytes + [UInt8(ascii: "\n")]
    }

    static func stableID(_ e: ImportedEntry, book: String, seen: inout [UInt64: Int]) -> String {
        let fields = [book, e.day.description, e.amount.normalized.description, e.currency.code, e.party ?? "", e.remarks ?? ""]
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in fields.joined(separator: "\u{1F}").utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        let id = "csv-" + String(repeating: "0", count: 16 - hex.count) + hex
        let n = (seen[hash] ?? 0) + 1
        seen[hash] = n
        return n == 1 ? id : "\(id)-\(n)"
    }
}

/// What the thread reading the rows has reached, for the watch on it (`read`): the line, the
/// category pattern being tried (-1: none), and a count that moves with each step.
private final class ReadProgress: @unchecked Sendable {
    private let lock = NSLock()
    private var current = (line: 0, rule: -1, steps: 0)

    func at(line: Int, rule: Int) {
        lock.lock()
        current = (line, rule, current.steps &+ 1)
        lock.unlock()
    }

    var state: (line: Int, rule: Int, steps: Int) {
        lock.lock()
        defer { lock.unlock() }
        return current
    }
}

/// What the reading thread reads (and only reads).
private final class ReadJob: @unchecked Sendable {
    let records: [CSVRecord]
    let name: String
    let rules: ImportRules
    let progress: ReadProgress
    init(records: [CSVRecord], name: String, rules: ImportRules, progress: ReadProgress) {
        (self.records, self.name, self.rules, self.progress) = (records, name, rules, progress)
    }
}

/// Reads one row by the rules, naming the line and column of anything wrong.
private struct RowReader {
    let record: CSVRecord
    let file: String
    let rules: ImportRules
    let progress: ReadProgress

    func fail(_ key: String, _ message: String) -> ImportError {
        ImportError(file: file, line: record.line, key: key, message: message)
    }

    func cell(_ column: Int, _ what: String) throws(ImportError) -> String {
        guard column <= record.fields.count else {
            throw fail("column \(column) (\(what))", "the row has only \(record.fields.count) field\(record.fields.count == 1 ? "" : "s")")
        }
        return record.fields[column - 1]
    }

    func optionalCell(_ column: Int?, _ what: String) throws(ImportError) -> String? {
        guard let column else { return nil }
        let text = String(try cell(column, what).trimmingBlanks)
        return text.isEmpty ? nil : text
    }

    func shown(_ text: String) -> String { "\"" + ShownText.quoted(text) + "\"" }

    func amount(_ column: Int, _ what: String) throws(ImportError) -> ExactDecimal? {
        let text = try cell(column, what)
        switch AmountText.read(text, decimalComma: rules.decimalComma) {
        case .empty: return nil
        case .amount(let v): return v
        case .notAnAmount:
            let example = rules.decimalComma ? "1.204,75" : "1,204.75"
            throw fail("column \(column) (\(what))", "found \(shown(text)), expected an amount such as \(example) (decimal = \"\(rules.decimalComma ? "," : ".")\" in the rules)")
        case .notExact:
            throw fail("column \(column) (\(what))", ExactDecimal.notExactMessage(shown(text)))
        }
    }

    mutating func entry() throws(ImportError) -> ImportedEntry {
        let dateText = try cell(rules.dateColumn, "date")
        guard let day = rules.dateFormat.day(dateText) else {
            throw fail("column \(rules.dateColumn) (date)", "found \(shown(dateText)), expected a date written \(rules.dateFormat.pattern) that exists in the calendar")
        }
        let value: ExactDecimal
        switch rules.amount {
        case .signed(let column):
            guard let v = try amount(column, "amount") else { throw fail("column \(column) (amount)", "is empty, expected an amount") }
            value = v
        case .split(let debitColumn, let creditColumn):
            // A bank may write 0.00 in the column that does not apply: zero counts as empty.
            let debit = try amount(debitColumn, "debit").flatMap { $0.isZero ? nil : $0 }
            let credit = try amount(creditColumn, "credit").flatMap { $0.isZero ? nil : $0 }
            switch (debit, credit) {
            // Money out, whether the bank writes a debit with a minus or without.
            case (let d?, nil): value = d.isNegative ? d : d.negated
            case (nil, let c?):
                // A credit written negative contradicts its column: which way the money went is a guess.
                guard !c.isNegative else {
                    throw fail("column \(creditColumn) (credit)", "found \(shown(try cell(creditColumn, "credit"))), expected an amount received, without a minus sign (money out belongs in the debit column \(debitColumn))")
                }
                value = c
            case (nil, nil):
                throw fail("columns \(debitColumn) and \(creditColumn) (debit, credit)", "both are empty or 0, expected an amount in one of them")
            case (_?, _?):
                throw fail("columns \(debitColumn) and \(creditColumn) (debit, credit)", "both hold an amount, expected one of them only")
            }
        }
        let currency: Currency
        switch rules.currency {
        case .fixed(let c): currency = c
        case .column(let column):
            let text = String(try cell(column, "currency").trimmingBlanks)
            guard let c = Currency(code: text) else {
                var message = "found \(shown(text)), expected an ISO 4217 currency code such as \"INR\" or \"USD\""
                if let c = Currency(caseInsensitiveCode: text) { message += "; did you mean \"\(c.code)\"?" }
                throw fail("column \(column) (currency)", message)
            }
            currency = c
        }
        let party = try optionalCell(rules.party, "party")
        let remarks = try optionalCell(rules.remarks, "remarks")
        // The rules' patterns first (they are the user's own choice), then the statement's
        // category column, then the default.
        progress.at(line: record.line, rule: -1)
        let matched = rules.categories.enumerated().first { i, rule in
            progress.at(line: record.line, rule: i)
            return [party, remarks].contains { text in text.map { $0.contains(rule.regex) } ?? false }
        }?.element
        progress.at(line: record.line, rule: -1)
        let column = try optionalCell(rules.category, "category")
        let category = matched?.category ?? column ?? rules.defaultCategory
        return ImportedEntry(day: day, amount: value, currency: currency, category: category,
                             party: party, paymentMode: try optionalCell(rules.paymentMode, "paymentMode"), remarks: remarks, line: record.line)
    }
}
