// Loading ledger files (SPEC §2, version 1) into a `Ledger`.
//
// The loader reads each file whole (memory-mapped), walks it once with
// `JSONReader`, and writes each entry field straight into the columns of a
// builder: no intermediate objects, no `Double`, no `String` per repeated value.
// Every rule of §2 is checked on the way; the first broken rule stops the load
// with a `LoadError` naming the file, the line and column, the JSON path, what was
// found and what was expected. Loading is all or nothing: a `Ledger` exists only
// when every file passed. References that may point forward or into another file
// (an entry's book) are resolved once all files are read.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

public struct LoadError: Error, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var column: Int?
    /// JSON path of the offending value (`entries[4127].currency`), when there is one.
    public var path: String?
    public var message: String

    public var description: String {
        var s = file
        if let line, let column { s += ":\(line):\(column)" }
        s += ": "
        if let path, !path.isEmpty { s += path + ": " }
        return s + message
    }
}

public enum LedgerLoader {
    /// Loads and validates the files, all or nothing.
    public static func load(paths: [String]) throws(LoadError) -> Ledger {
        var builder = LedgerBuilder()
        var mapped: [MappedFile] = []
        defer { mapped.forEach { $0.unmap() } }
        for path in paths {
            let file = try MappedFile(path: path)
            mapped.append(file)
            try builder.read(file.bytes, name: path)
        }
        return try builder.finish()
    }

    /// Loads documents held in memory (`name` is used in messages).
    public static func load(documents: [(name: String, text: String)]) throws(LoadError) -> Ledger {
        var builder = LedgerBuilder()
        var copies: [UnsafeMutableBufferPointer<UInt8>] = []
        defer { copies.forEach { $0.deallocate() } }
        for (name, text) in documents {
            let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: text.utf8.count)
            _ = copy.initialize(from: text.utf8)
            copies.append(copy)
            try builder.read(UnsafeBufferPointer(copy), name: name)
        }
        return try builder.finish()
    }
}

/// A file mapped read-only into memory.
struct MappedFile {
    let bytes: UnsafeBufferPointer<UInt8>
    private let mappedLength: Int

    init(path: String) throws(LoadError) {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            let reason = errno == ENOENT ? "no such file" : String(cString: strerror(errno))
            throw LoadError(file: path, message: "cannot open the ledger: \(reason)")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw LoadError(file: path, message: "cannot read the ledger: \(String(cString: strerror(errno)))")
        }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            throw LoadError(file: path, message: "is a directory, expected a ledger JSON file")
        }
        let size = Int(info.st_size)
        if size == 0 {
            bytes = UnsafeBufferPointer(start: nil, count: 0)
            mappedLength = 0
            return
        }
        guard let p = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), p != MAP_FAILED else {
            throw LoadError(file: path, message: "cannot read the ledger: \(String(cString: strerror(errno)))")
        }
        _ = madvise(p, size, MADV_SEQUENTIAL)
        bytes = UnsafeBufferPointer(start: p.assumingMemoryBound(to: UInt8.self), count: size)
        mappedLength = size
    }

    func unmap() {
        if mappedLength > 0, let base = bytes.baseAddress {
            munmap(UnsafeMutableRawPointer(mutating: base), mappedLength)
        }
    }
}

/// A rule of §2 broken at a place in the document; becomes a `LoadError`.
struct LedgerRuleError: Error {
    var offset: Int
    var path: String
    var message: String
}

/// Accumulates all files, then validates cross-references and builds the store.
struct LedgerBuilder {
    var files: [String] = []
    var defaultCurrency: Currency?
    var defaultCurrencyFile = ""

    var books: [Book] = []
    var bookIDs: [String: Int] = [:]
    var bookNames: [String: Int] = [:]
    /// Where each book was defined (file, path), for duplicate messages.
    var bookPlaces: [String] = []

    // Entry columns in load order.
    var day: [Int32] = []
    var amount: [Int128] = []
    var amountScale: [UInt8] = []
    var currency: [Currency] = []
    var bookRef: [UInt32] = []
    var category: [UInt32] = []
    var party: [UInt32] = []
    var payment: [UInt32] = []
    var remarks: [UInt32] = []
    var isTransfer: [Bool] = []
    var tagStart: [UInt32] = [0]
    var tagCodes: [UInt32] = []
    var bookedIndex: [Int32] = []
    var booked = BookedColumns()

    var ids = ByteInterner(capacity: 1024)
    var categories = ByteInterner()
    var parties = ByteInterner()
    var payments = ByteInterner()
    var tags = ByteInterner()
    var remarkTexts = ByteInterner()
    /// Book ids as entries name them, resolved in `finish`.
    var bookRefs = ByteInterner()
    /// For each book reference: the first entry that used it (global row) and where.
    var bookRefFirstUse: [(file: Int, index: Int, offset: Int)] = []
    /// Each file's bytes, alive until `finish` (for line and column in late errors).
    var fileBytes: [UnsafeBufferPointer<UInt8>] = []

    /// First global row of each file, for turning a row back into `entries[i]` of a file.
    var fileFirstRow: [Int] = []

    var snapshots: [RateSnapshot] = []
    var pairs: [RatePair] = []
    var customRates: [RatePair] = []
    var budgets: [Budget] = []
    var marketOrder = 0

    mutating func read(_ bytes: UnsafeBufferPointer<UInt8>, name: String) throws(LoadError) {
        files.append(name)
        fileBytes.append(bytes)
        fileFirstRow.append(day.count)
        var parser = FileParser(reader: JSONReader(bytes), fileIndex: files.count - 1)
        do {
            try parser.parseDocument(into: &self)
        } catch let e as JSONSyntaxError {
            let (line, column) = parser.reader.lineAndColumn(of: e.offset)
            throw LoadError(file: name, line: line, column: column, path: parser.path.isEmpty ? nil : parser.path, message: e.message)
        } catch let e as LedgerRuleError {
            let (line, column) = parser.reader.lineAndColumn(of: e.offset)
            throw LoadError(file: name, line: line, column: column, path: e.path.isEmpty ? nil : e.path, message: e.message)
        } catch let e as LoadError {
            throw e
        } catch {
            throw LoadError(file: name, message: "\(error)")
        }
    }

    func place(ofRow row: Int) -> (file: String, index: Int) {
        var f = fileFirstRow.count - 1
        while f > 0 && fileFirstRow[f] > row { f -= 1 }
        return (files[f], row - fileFirstRow[f])
    }

    mutating func finish() throws(LoadError) -> Ledger {
        guard let defaultCurrency else {
            throw LoadError(file: files.first ?? "ledger", path: "defaultCurrency",
                            message: "missing \"defaultCurrency\": add the ISO 4217 code to convert into by default, e.g. \"defaultCurrency\": \"INR\"")
        }
        // Resolve book references.
        var bookOfRef = [UInt32](repeating: 0, count: bookRefs.count)
        for ref in 0..<bookRefs.count {
            let id = bookRefs.string(UInt32(ref))
            guard let b = bookIDs[id] else {
                let use = bookRefFirstUse[ref]
                let (line, column) = JSONReader(fileBytes[use.file]).lineAndColumn(of: use.offset)
                let known = books.map(\.id)
                var message = "no book has id \"\(id)\""
                if let near = nearest(id, in: known) { message += "; did you mean \"\(near)\"?" }
                else if known.isEmpty { message += "; the ledger defines no books" }
                throw LoadError(file: files[use.file], line: line, column: column,
                                path: "entries[\(use.index)].bookId", message: message)
            }
            bookOfRef[ref] = UInt32(b)
        }
        let n = day.count
        var book = [UInt32](repeating: 0, count: n)
        for r in 0..<n {
            let b = bookOfRef[Int(bookRef[r])]
            book[r] = b
            if currency[r] == .none { currency[r] = books[Int(b)].currency }
        }
        // One common scale for amounts.
        var scale = 0
        for s in amountScale where Int(s) > scale { scale = Int(s) }
        for r in 0..<n where Int(amountScale[r]) != scale {
            let (v, o) = amount[r].multipliedReportingOverflow(by: pow10[scale - Int(amountScale[r])])
            guard !o, v.magnitude <= ExactDecimal.maxSignificand.magnitude else {
                let (file, index) = place(ofRow: r)
                throw LoadError(file: file, path: "entries[\(index)].amount",
                                message: "\(ExactDecimal(significand: amount[r], scale: Int(amountScale[r]))) cannot be held exactly beside amounts with \(scale) decimals (38 digits at most)")
            }
            amount[r] = v
        }
        var store = EntryStore()
        store.setCount(n)
        store.amountScale = scale
        // Stable sort by day.
        let order = LedgerBuilder.stableOrder(byDay: day)
        store.day = order.map { day[Int($0)] }
        store.amount = order.map { amount[Int($0)] }
        store.currency = order.map { currency[Int($0)] }
        store.book = order.map { book[Int($0)] }
        store.category = order.map { category[Int($0)] }
        store.party = order.map { party[Int($0)] }
        store.payment = order.map { payment[Int($0)] }
        store.remarks = order.map { remarks[Int($0)] }
        store.isTransfer = order.map { isTransfer[Int($0)] }
        store.entryID = order
        store.bookedIndex = order.map { bookedIndex[Int($0)] }
        var starts: [UInt32] = [0]
        var codes: [UInt32] = []
        starts.reserveCapacity(n + 1)
        for r in order {
            codes.append(contentsOf: tagCodes[Int(tagStart[Int(r)])..<Int(tagStart[Int(r) + 1])])
            starts.append(UInt32(codes.count))
        }
        store.tagStart = starts
        store.tagCodes = codes
        store.booked = booked
        store.categories = categories.allStrings()
        store.parties = [""] + parties.allStrings()
        store.payments = [""] + payments.allStrings()
        store.tags = tags.allStrings()
        store.remarkTexts = [""] + remarkTexts.allStrings()
        store.ids = ids
        store.byCategory = PostingIndex(codes: store.category, codeCount: store.categories.count)
        store.byBook = PostingIndex(codes: store.book, codeCount: books.count)
        store.byCurrency = PostingIndex(codes: store.currency.map { UInt32($0.packed) }, codeCount: 26 * 26 * 26 + 1)
        store.currencies = (0..<(store.byCurrency.starts.count - 1)).filter { store.byCurrency.starts[$0 + 1] > store.byCurrency.starts[$0] }
            .map { Currency(packed: UInt16($0)) }
        return Ledger(files: files, defaultCurrency: defaultCurrency, books: books, entries: store,
                      snapshots: snapshots, pairs: pairs, customRates: customRates, budgets: budgets)
    }

    /// Row numbers in order of day, ties in load order (counting sort when the span allows).
    static func stableOrder(byDay day: [Int32]) -> [UInt32] {
        guard let lo = day.min(), let hi = day.max() else { return [] }
        let span = Int(hi) - Int(lo) + 1
        if span <= max(1 << 20, day.count * 4) {
            var counts = [UInt32](repeating: 0, count: span + 1)
            for d in day { counts[Int(d - lo) + 1] += 1 }
            for i in 1..<counts.count { counts[i] += counts[i - 1] }
            var order = [UInt32](repeating: 0, count: day.count)
            for (row, d) in day.enumerated() {
                let k = Int(d - lo)
                order[Int(counts[k])] = UInt32(row)
                counts[k] += 1
            }
            return order
        }
        return (0..<UInt32(day.count)).sorted { (day[Int($0)], $0) < (day[Int($1)], $1) }
    }
}

/// The closest candidate by edit distance, when it is close enough to be a likely typo.
public func nearest(_ word: String, in candidates: [String]) -> String? {
    let w = word.lowercased()
    var best: (String, Int)?
    for c in candidates {
        let d = editDistance(w, c.lowercased())
        guard d <= max(1, min(w.count, c.count) / 3) else { continue }
        if let b = best, b.1 <= d { continue }
        best = (c, d)
    }
    return best?.0
}

/// Edit distance over characters, counting a swap of two neighbours as one edit
/// (optimal string alignment), so `wrok` is one edit from `work`.
public func editDistance(_ a: String, _ b: String) -> Int {
    let x = Array(a), y = Array(b)
    if x.isEmpty { return y.count }
    if y.isEmpty { return x.count }
    var d = [[Int]](repeating: [Int](repeating: 0, count: y.count + 1), count: x.count + 1)
    for i in 0...x.count { d[i][0] = i }
    for j in 0...y.count { d[0][j] = j }
    for i in 1...x.count {
        for j in 1...y.count {
            let cost = x[i - 1] == y[j - 1] ? 0 : 1
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
            if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] {
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
            }
        }
    }
    return d[x.count][y.count]
}
