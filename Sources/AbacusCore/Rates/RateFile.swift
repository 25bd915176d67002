// Market rates from a file outside the ledger: the ECB's history CSV, a long CSV
// of `date,base,currency,rate`, or a JSON array of snapshots and pairs.
//
// The format is told from the content: `[` opens the JSON form, a header row the
// CSV forms (`Date,USD,JPY,…` the ECB's wide one, `date,base,currency,rate` the
// long one). The ECB file is taken exactly as the bank publishes it: one row a
// day in any order, `N/A` or an empty field for a rate it did not fix, a comma
// after the last field of every line, and columns for currencies the euro has
// since replaced (CYP, EEK, …), which are read, checked and left out. Each ECB
// row becomes one snapshot based on EUR; the long form groups its rows by date and
// base into snapshots; the JSON form is read by the ledger's own `FileParser`, so
// its objects obey exactly the rules of a ledger's `rates`, and, as in the CSV forms,
// a date and base may have one snapshot only.
//
// Every number is an exact decimal (`ExactDecimal`'s parser: nothing that cannot be
// held exactly), every code ISO 4217, every rate positive, every date real. Loading
// is all or nothing: the first broken rule is a `LoadError` with the file, line and
// column, what was found and what was expected. The source of every rate is the
// file's name, so `rate`, `rates` and `explain` can say where it came from.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What one rate file held, ready to be added to a ledger (`Ledger.addRates`).
public struct RateFileContents: Sendable {
    public enum Format: String, Sendable {
        case ecbHistory = "ECB history CSV"
        case longCSV = "long CSV (date,base,currency,rate)"
        case json = "JSON array of snapshots and pairs"
    }

    /// The path as given.
    public var path: String
    /// The file's name: the source every rate of it carries.
    public var source: String
    public var format: Format
    /// In the file's order (an ECB row is one snapshot of base EUR).
    public var snapshots: [RateSnapshot]
    public var pairs: [RatePair]
    /// ECB columns of withdrawn currencies (CYP, EEK, …), read and left out.
    public var skippedCurrencies: [String]

    /// How many single rates the file gave (a snapshot counts each of its currencies).
    public var rateCount: Int { snapshots.reduce(0) { $0 + $1.rates.count } + pairs.count }
    /// The dates the file covers.
    public var days: ClosedRange<Day>? {
        let all = snapshots.map(\.day) + pairs.compactMap(\.day)
        guard let lo = all.min(), let hi = all.max() else { return nil }
        return lo...hi
    }

    /// One line for a person: `ecb.csv: 1,234 rates on 3 days (2025-10-01..2025-10-03), ECB history CSV`.
    public var summary: String {
        let n = rateCount
        var s = "\(source): \(n) \(n == 1 ? "rate" : "rates")"
        if let d = days {
            let dayCount = Set(snapshots.map(\.day) + pairs.compactMap(\.day)).count
            s += " on \(dayCount) \(dayCount == 1 ? "day" : "days") (" + (d.lowerBound == d.upperBound ? "\(d.lowerBound)" : "\(d.lowerBound)..\(d.upperBound)") + ")"
        }
        s += ", " + format.rawValue
        if !skippedCurrencies.isEmpty { s += "; left out withdrawn " + skippedCurrencies.joined(separator: ", ") }
        return s
    }
}

public enum RateFile {
    /// Reads and checks a rate file, all or nothing.
    public static func load(path: String) throws(LoadError) -> RateFileContents {
        let file = try MappedFile(path: path, what: "the rate file", expected: "a rate file (CSV or JSON)")
        defer { file.unmap() }
        return try parse(file.bytes, path: path)
    }

    /// Reads a rate file held in memory (`path` names it in messages and gives the source).
    public static func parse(text: String, path: String) throws(LoadError) -> RateFileContents {
        let bytes = Array(text.utf8)
        return try bytes.withUnsafeBufferPointer { (b) throws(LoadError) in try parse(b, path: path) }
    }

    /// The name rates of this file are attributed to: its last path component.
    public static func sourceName(_ path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return name.isEmpty ? path : name
    }

    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, path: String) throws(LoadError) -> RateFileContents {
        let source = sourceName(path)
        var start = 0
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { start = 3 }
        while start < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
        guard start < bytes.count else {
            throw LoadError(file: path, message: "the file is empty, expected rates: the ECB's history CSV (Date,USD,JPY,…), a CSV with the header date,base,currency,rate, or a JSON array of snapshots and pairs")
        }
        switch bytes[start] {
        case UInt8(ascii: "["):
            return try parseJSON(bytes, path: path, source: source)
        case UInt8(ascii: "{"):
            let (line, column) = CSVRows.lineAndColumn(bytes, start)
            throw LoadError(file: path, line: line, column: column,
                            message: "found a JSON object, expected a JSON array of rate snapshots and pairs ([{\"base\", \"date\", \"rates\"}, {\"from\", \"to\", \"rate\", \"date\"}]); a whole ledger is loaded as a ledger, not with --rates")
        default:
            return try CSVRateReader(bytes, path: path, source: source).read()
        }
    }

    // MARK: JSON

    static func parseJSON(_ bytes: UnsafeBufferPointer<UInt8>, path: String, source: String) throws(LoadError) -> RateFileContents {
        var builder = LedgerBuilder()
        builder.files.append(path)
        var parser = FileParser(reader: JSONReader(bytes), fileIndex: 0)
        do {
            try parser.parseRateArray(into: &builder)
        } catch {
            throw LedgerBuilder.located(error, parser: parser, name: path)
        }
        guard !builder.snapshots.isEmpty || !builder.pairs.isEmpty else {
            throw LoadError(file: path, message: "the array holds no rates, expected rate snapshots or pairs")
        }
        // A rate names the file it came from; one that carried its own source keeps it beside.
        func named(_ own: String?) -> String { own.map { "\(source): \($0)" } ?? source }
        let snapshots = builder.snapshots.map { s -> RateSnapshot in var s = s; s.source = named(s.source); return s }
        let pairs = builder.pairs.map { p -> RatePair in var p = p; p.source = named(p.source); return p }
        return RateFileContents(path: path, source: source, format: .json, snapshots: snapshots, pairs: pairs, skippedCurrencies: [])
    }
}

extension FileParser {
    /// A JSON array of market rate objects (snapshots and pairs), nothing after it. As in the
    /// CSV forms, a date and base may appear once (README.md, "Rate files"): a second snapshot
    /// of them is refused where it begins.
    mutating func parseRateArray(into b: inout LedgerBuilder) throws {
        try reader.beginArray("a JSON array of rate snapshots and pairs")
        var first = true
        // Where the snapshot of each date and base begins.
        var snapshotAt: [DayAndBase: Int] = [:]
        index = 0
        while try reader.nextElement(&first) {
            field = ""
            let objectStart = reader.skipSpace(from: reader.pos)
            let before = b.snapshots.count
            try parseRate(into: &b, custom: false)
            if b.snapshots.count > before, let s = b.snapshots.last {
                let key = DayAndBase(day: s.day, base: s.base)
                if let earlier = snapshotAt[key] {
                    let line = reader.lineAndColumn(of: earlier).line
                    throw rule("found \(s.base) on \(s.day) again (first on line \(line)), expected one snapshot a day for each base", at: objectStart)
                }
                snapshotAt[key] = objectStart
            }
            index += 1
        }
        index = -1
        try reader.expectEnd()
    }
}

/// A snapshot's date and base: a rate file holds one snapshot of each.
struct DayAndBase: Hashable { var day: Day; var base: Currency }

// MARK: - CSV

/// The rows of a CSV document: fields split at commas (a field in double quotes may hold
/// commas and `""`), lines ended by LF or CRLF, blank lines skipped. Fields are byte ranges.
struct CSVRows {
    let bytes: UnsafeBufferPointer<UInt8>
    var pos: Int
    /// 1-based line of the row last read.
    var line = 0
    var nextLine = 1

    struct Field {
        var start: Int
        var end: Int
        /// Quoted: the text between the quotes still holds `""` for each quote.
        var quoted: Bool
    }

    init(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) {
        self.bytes = bytes
        self.pos = start
        nextLine = CSVRows.lineAndColumn(bytes, start).line
    }

    /// The next non-blank row's fields into `fields`; false at the end.
    mutating func next(into fields: inout [Field]) throws(CSVFailure) -> Bool {
        let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ",")
        while pos < bytes.count {
            line = nextLine
            fields.removeAll(keepingCapacity: true)
            var holdsSomething = false
            while true {
                let fieldStart = pos
                if pos < bytes.count && bytes[pos] == quote {
                    pos += 1
                    let inner = pos
                    while true {
                        guard pos < bytes.count else { throw CSVFailure(offset: fieldStart, message: "a quoted field is never closed: expected a closing \"") }
                        if bytes[pos] == quote {
                            if pos + 1 < bytes.count && bytes[pos + 1] == quote { pos += 2; continue }
                            break
                        }
                        if LineBreak.ends(in: bytes, at: pos) { nextLine += 1 }
                        pos += 1
                    }
                    fields.append(Field(start: inner, end: pos, quoted: true))
                    pos += 1
                    holdsSomething = true
                    guard pos >= bytes.count || bytes[pos] == comma || bytes[pos] == 0x0A || bytes[pos] == 0x0D else {
                        throw CSVFailure(offset: pos, message: "found text after a closing quote, expected a comma or the end of the line")
                    }
                } else {
                    while pos < bytes.count {
                        let b = bytes[pos]
                        if b == comma || b == 0x0A || b == 0x0D { break }
                        if b != 0x20 && b != 0x09 { holdsSomething = true }
                        pos += 1
                    }
                    fields.append(Field(start: fieldStart, end: pos, quoted: false))
                }
                guard pos < bytes.count && bytes[pos] == comma else { break }
                pos += 1
                holdsSomething = true
            }
            // Line end: LF, CRLF or a lone CR.
            if pos < bytes.count && bytes[pos] == 0x0D { pos += 1 }
            if pos < bytes.count && bytes[pos] == 0x0A { pos += 1 }
            nextLine += 1
            if holdsSomething { return true }
        }
        return false
    }

    /// A field's bytes without surrounding blanks (a quoted field's inner text as written).
    func trimmed(_ f: Field) -> Field {
        var s = f.start, e = f.end
        if !f.quoted {
            while s < e && (bytes[s] == 0x20 || bytes[s] == 0x09) { s += 1 }
            while e > s && (bytes[e - 1] == 0x20 || bytes[e - 1] == 0x09) { e -= 1 }
        }
        return Field(start: s, end: e, quoted: f.quoted)
    }

    func text(_ f: Field) -> String {
        let t = trimmed(f)
        let s = String(decoding: UnsafeBufferPointer(rebasing: bytes[t.start..<t.end]), as: UTF8.self)
        return t.quoted ? s.replacingOccurrences(of: "\"\"", with: "\"") : s
    }

    func slice(_ f: Field) -> UnsafeBufferPointer<UInt8> {
        let t = trimmed(f)
        return UnsafeBufferPointer(rebasing: bytes[t.start..<t.end])
    }

    /// 1-based line and column (in Unicode scalars) of a byte offset, counted as for JSON.
    static func lineAndColumn(_ bytes: UnsafeBufferPointer<UInt8>, _ offset: Int) -> (line: Int, column: Int) {
        JSONReader(bytes).lineAndColumn(of: offset)
    }
}

struct CSVFailure: Error {
    var offset: Int
    var message: String
}

/// Reads the two CSV forms; every failure is located by byte offset and becomes a `LoadError`.
struct CSVRateReader {
    let bytes: UnsafeBufferPointer<UInt8>
    let path: String
    let source: String

    /// Currencies the ECB still has columns for although the euro (or a redenomination) replaced
    /// them: withdrawn from ISO 4217, so they have no place in a ledger, but not an error in its file.
    static let withdrawnECBCurrencies: Set<String> = ["CYP", "EEK", "HRK", "LTL", "LVL", "MTL", "ROL", "SIT", "SKK", "TRL"]

    init(_ bytes: UnsafeBufferPointer<UInt8>, path: String, source: String) {
        self.bytes = bytes
        self.path = path
        self.source = source
    }

    func read() throws(LoadError) -> RateFileContents {
        var start = 0
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { start = 3 }
        var rows = CSVRows(bytes, from: start)
        do throws(CSVFailure) {
            var header: [CSVRows.Field] = []
            guard try rows.next(into: &header) else { throw CSVFailure(offset: start, message: "the file is empty, expected a header row") }
            let names = header.map { rows.text($0) }
            // A trailing comma leaves an empty last column name: the ECB's habit.
            let columns = names.last == "" ? Array(names.dropLast()) : names
            let lowered = columns.map { $0.lowercased() }
            let long: Set = ["date", "base", "currency", "rate"]
            if long.isSubset(of: Set(lowered)) {
                return try readLong(&rows, header: header, lowered: lowered)
            }
            // Most of the long form's names but not all: a long CSV with a column missing or
            // misspelt, not an ECB file of currencies called "base" and "currency".
            if lowered.filter(long.contains).count >= 3 || (lowered.contains("base") && lowered.contains("currency")) {
                let lacking = ["date", "base", "currency", "rate"].filter { !lowered.contains($0) }
                throw CSVFailure(offset: header.first.map { rows.trimmed($0).start } ?? start,
                                 message: "found the header \(quoted(String(names.joined(separator: ",").prefix(60)))) without \(lacking.map { "\"\($0)\"" }.joined(separator: " or ")), expected the long form's date,base,currency,rate")
            }
            if lowered.first == "date", columns.count > 1 {
                return try readECB(&rows, header: header, columns: columns)
            }
            throw CSVFailure(offset: header.first.map { rows.trimmed($0).start } ?? start,
                             message: "found the header \(quoted(String(names.joined(separator: ",").prefix(60)))), expected the ECB's `Date,USD,JPY,…` or `date,base,currency,rate`")
        } catch {
            let (line, column) = CSVRows.lineAndColumn(bytes, error.offset)
            throw LoadError(file: path, line: line, column: column, message: error.message)
        }
    }

    /// A date field, or the failure that names it.
    func day(_ rows: CSVRows, _ f: CSVRows.Field) throws(CSVFailure) -> Day {
        let s = rows.slice(f)
        if s.count == 10, let d = Day.parse(s) { return d }
        throw CSVFailure(offset: rows.trimmed(f).start, message: "found \(quoted(rows.text(f))), expected a date YYYY-MM-DD that exists in the calendar")
    }

    /// A positive exact rate, or nil for `N/A` or an empty field when `allowMissing`.
    func rate(_ rows: CSVRows, _ f: CSVRows.Field, _ what: String, allowMissing: Bool) throws(CSVFailure) -> ExactDecimal? {
        let s = rows.slice(f)
        let at = rows.trimmed(f).start
        if s.isEmpty || (s.count == 3 && (s[0] | 0x20) == UInt8(ascii: "n") && s[1] == UInt8(ascii: "/") && (s[2] | 0x20) == UInt8(ascii: "a")) {
            if allowMissing { return nil }
            throw CSVFailure(offset: at, message: "found \(s.isEmpty ? "nothing" : quoted(rows.text(f))), expected \(what) (a positive decimal number)")
        }
        switch ExactDecimal.parse(s) {
        case .success(let v):
            guard v.isPositive else { throw CSVFailure(offset: at, message: "found \(v), expected \(what): rates must be positive") }
            return v
        case .failure(.notExact):
            throw CSVFailure(offset: at, message: ExactDecimal.notExactMessage(ShownText.quoted(rows.text(f))))
        case .failure(.notANumber):
            throw CSVFailure(offset: at, message: "found \(quoted(rows.text(f))), expected \(what) (a decimal number such as 1.0876\(allowMissing ? ", or N/A" : ""))")
        }
    }

    func currency(_ rows: CSVRows, _ f: CSVRows.Field) throws(CSVFailure) -> Currency {
        let text = rows.text(f)
        if let c = Currency(code: text) { return c }
        var message = "found \(quoted(text)), expected an ISO 4217 currency code such as \"EUR\" or \"USD\""
        if let c = Currency(caseInsensitiveCode: text) { message += "; did you mean \"\(c.code)\"?" }
        throw CSVFailure(offset: rows.trimmed(f).start, message: message)
    }

    /// Each row as many fields as the header names columns, and perhaps one more, empty, after a
    /// trailing comma (the ECB ends every line with one; other files may end none, or only some).
    func checkWidth(_ rows: CSVRows, _ fields: [CSVRows.Field], columns: Int) throws(CSVFailure) {
        if fields.count == columns { return }
        if fields.count == columns + 1, let last = fields.last {
            if rows.slice(last).isEmpty { return }
            throw CSVFailure(offset: rows.trimmed(last).start, message: "found \(quoted(rows.text(last))) after the last column, expected nothing (the header names \(columns) columns)")
        }
        let at = fields.count > columns ? rows.trimmed(fields[columns]).start : (fields.last?.end ?? rows.pos)
        throw CSVFailure(offset: at, message: "found \(fields.count) \(fields.count == 1 ? "field" : "fields"), expected \(columns) as the header names")
    }

    // MARK: ECB

    func readECB(_ rows: inout CSVRows, header: [CSVRows.Field], columns: [String]) throws(CSVFailure) -> RateFileContents {
        guard let eur = Currency(code: "EUR") else { throw CSVFailure(offset: 0, message: "EUR is missing from the currency table") }
        // Column k of the file is currency codes[k] (nil for `Date` and withdrawn currencies).
        var codes: [Currency?] = [nil]
        var skipped: [String] = []
        var seen: [Currency: Int] = [:]
        for k in 1..<columns.count {
            let name = columns[k]
            if CSVRateReader.withdrawnECBCurrencies.contains(name) { codes.append(nil); skipped.append(name); continue }
            let c = try currency(rows, header[k])
            if c == eur { throw CSVFailure(offset: rows.trimmed(header[k]).start, message: "found EUR as a column, expected the currencies 1 EUR is quoted in") }
            if seen[c] != nil { throw CSVFailure(offset: rows.trimmed(header[k]).start, message: "found \(c) a second time in the header, expected each currency once") }
            seen[c] = k
            codes.append(c)
        }
        var snapshots: [RateSnapshot] = []
        snapshots.reserveCapacity(bytes.count / max(1, 8 * columns.count))
        var dayLines: [Day: Int] = [:]
        var fields: [CSVRows.Field] = []
        /// Where the first row is: a file of rows whose rates are all missing is refused there.
        var firstRow: Int?
        while try rows.next(into: &fields) {
            try checkWidth(rows, fields, columns: columns.count)
            if firstRow == nil { firstRow = rows.trimmed(fields[0]).start }
            let d = try day(rows, fields[0])
            if let earlier = dayLines[d] {
                throw CSVFailure(offset: rows.trimmed(fields[0]).start, message: "found \(d) again (first on line \(earlier)), expected one row a day")
            }
            dayLines[d] = rows.line
            var rates: [Currency: ExactDecimal] = [:]
            rates.reserveCapacity(codes.count)
            for k in 1..<columns.count {
                let what = "the value of 1 EUR in \(columns[k])"
                guard let v = try rate(rows, fields[k], what, allowMissing: true), let c = codes[k] else { continue }
                rates[c] = v
            }
            // A day on which none of the currencies was fixed says nothing.
            if rates.isEmpty { continue }
            snapshots.append(RateSnapshot(base: eur, day: d, rates: rates, source: source, fetchedAt: nil, order: snapshots.count))
        }
        if snapshots.isEmpty, let firstRow {
            throw CSVFailure(offset: firstRow, message: "every rate of its \(dayLines.count) \(dayLines.count == 1 ? "row is" : "rows are") N/A or empty, expected at least one rate")
        }
        guard !snapshots.isEmpty else { throw CSVFailure(offset: rows.pos, message: "the file holds no rates, expected a row a day under the header") }
        return RateFileContents(path: path, source: source, format: .ecbHistory, snapshots: snapshots, pairs: [], skippedCurrencies: skipped)
    }

    // MARK: Long form

    func readLong(_ rows: inout CSVRows, header: [CSVRows.Field], lowered: [String]) throws(CSVFailure) -> RateFileContents {
        func column(_ name: String) throws(CSVFailure) -> Int {
            let all = lowered.indices.filter { lowered[$0] == name }
            guard all.count == 1, let k = all.first else {
                throw CSVFailure(offset: rows.trimmed(header[all.count > 1 ? all[1] : 0]).start, message: "found the column \(name) twice in the header, expected it once")
            }
            return k
        }
        let (dateAt, baseAt, currencyAt, rateAt) = (try column("date"), try column("base"), try column("currency"), try column("rate"))
        let width = lowered.count
        var snapshots: [RateSnapshot] = []
        // The snapshot of each (date, base), and the line each (date, base, currency) was first given on.
        var snapshotOf: [DayAndBase: Int] = [:]
        var firstLine: [DayBaseCurrency: Int] = [:]
        var fields: [CSVRows.Field] = []
        while try rows.next(into: &fields) {
            try checkWidth(rows, fields, columns: width)
            let d = try day(rows, fields[dateAt])
            let base = try currency(rows, fields[baseAt])
            let to = try currency(rows, fields[currencyAt])
            if to == base { throw CSVFailure(offset: rows.trimmed(fields[currencyAt]).start, message: "found \(to) as both base and currency, expected a rate between two currencies") }
            guard let v = try rate(rows, fields[rateAt], "how many \(to) 1 \(base) is worth", allowMissing: false) else { continue }
            let key = DayBaseCurrency(day: d, base: base, currency: to)
            if let earlier = firstLine[key] {
                throw CSVFailure(offset: rows.trimmed(fields[dateAt]).start, message: "found \(base)/\(to) on \(d) again (first on line \(earlier)), expected each rate once")
            }
            firstLine[key] = rows.line
            let group = DayAndBase(day: d, base: base)
            if let i = snapshotOf[group] {
                snapshots[i].rates[to] = v
            } else {
                snapshotOf[group] = snapshots.count
                snapshots.append(RateSnapshot(base: base, day: d, rates: [to: v], source: source, fetchedAt: nil, order: snapshots.count))
            }
        }
        guard !snapshots.isEmpty else { throw CSVFailure(offset: rows.pos, message: "the file holds no rates, expected rows of date,base,currency,rate under the header") }
        return RateFileContents(path: path, source: source, format: .longCSV, snapshots: snapshots, pairs: [], skippedCurrencies: [])
    }

    struct DayBaseCurrency: Hashable { var day: Day; var base: Currency; var currency: Currency }
}

// MARK: - Adding to a ledger

extension Ledger {
    /// Adds a rate file's market rates after every market source already there: on one date,
    /// a file added later wins among equals (a pair still beats a snapshot). The ledger files are never touched.
    public mutating func addRates(_ file: RateFileContents) {
        addMarketSources(snapshots: file.snapshots, pairs: file.pairs)
        rateFiles.append(file.path)
    }

    /// Adds market snapshots and pairs after every market source already there, in the order given.
    public mutating func addMarketSources(snapshots more: [RateSnapshot], pairs morePairs: [RatePair]) {
        var order = nextMarketOrder
        // Snapshots and pairs interleave by their order within the file.
        let merged = more.map { (order: $0.order, snapshot: Optional($0), pair: RatePair?.none) }
            + morePairs.map { (order: $0.order, snapshot: RateSnapshot?.none, pair: Optional($0)) }
        snapshots.reserveCapacity(snapshots.count + more.count)
        for item in merged.sorted(by: { $0.order < $1.order }) {
            if var s = item.snapshot { s.order = order; snapshots.append(s) }
            if var p = item.pair { p.order = order; pairs.append(p) }
            order += 1
        }
    }
}
