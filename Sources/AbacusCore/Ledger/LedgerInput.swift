// Ledgers given as a mix of files and documents made in memory, and what to assume
// where none of them says.
//
// Sources other than JSON files (the expense tracker app's SQLite database, read in
// AbacusSources) are turned into a document in the ledger format and read by the same
// builder as the files, so every rule of the format is checked in one place whatever the
// entries came from. Such sources lack things a ledger file has: the app keeps no default
// currency, and a file of imported bank-statement entries names a book that lives in
// another file. `LoadAssumptions` fills those in only where no file loaded gave them.

public enum LedgerInput: Sendable {
    /// A ledger file on disk (mapped, as `LedgerLoader.load(paths:)` does).
    case file(path: String)
    /// A ledger document made in memory; `name` is what messages call it.
    case document(name: String, bytes: [UInt8])

    public var name: String {
        switch self {
        case .file(let path): path
        case .document(let name, _): name
        }
    }

    /// Why `bytes` are not one JSON value (a duplicate key, a cut object, more after it), with
    /// the character where that shows; nil when they are one, and can be spliced into a
    /// document as a field's value without changing the document around them.
    public static func jsonValueProblem(_ bytes: [UInt8]) -> String? {
        bytes.withUnsafeBufferPointer { buffer -> String? in
            var reader = JSONReader(buffer)
            guard reader.peek() != nil else { return "it is empty" }
            do throws(JSONSyntaxError) {
                try reader.skipValue()
                try reader.expectEnd()
                return nil
            } catch {
                let character = String(decoding: bytes.prefix(error.offset), as: UTF8.self).count + 1
                return error.message + " at character \(character)"
            }
        }
    }
}

public struct LoadAssumptions: Sendable {
    /// The default currency when no file names one.
    public var defaultCurrency: Currency?
    /// When set, a book that entries name but no file defines is assumed to exist, in
    /// this currency. Only for reading entries to compare with (an import's `--against`),
    /// never for a ledger that answers queries: there, such an entry is an error.
    public var missingBookCurrency: Currency?

    public init(defaultCurrency: Currency? = nil, missingBookCurrency: Currency? = nil) {
        self.defaultCurrency = defaultCurrency
        self.missingBookCurrency = missingBookCurrency
    }
}

extension LedgerLoader {
    /// Loads and validates files and in-memory documents together, all or nothing.
    public static func load(_ inputs: [LedgerInput], assuming assumptions: LoadAssumptions = LoadAssumptions()) throws(LoadError) -> Ledger {
        var mapped: [MappedFile] = []
        defer { mapped.forEach { $0.unmap() } }
        var copies: [UnsafeMutableBufferPointer<UInt8>] = []
        defer { copies.forEach { $0.deallocate() } }
        var buffers: [(name: String, bytes: UnsafeBufferPointer<UInt8>, mapped: Bool)] = []
        var paths: [String] = []
        for input in inputs {
            switch input {
            case .file(let path):
                let file = try MappedFile(path: path)
                mapped.append(file)
                paths.append(path)
                buffers.append((path, file.bytes, file.isMapping))
            case .document(let name, let bytes):
                let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
                _ = copy.initialize(from: bytes)
                copies.append(copy)
                buffers.append((name, UnsafeBufferPointer(copy), false))
            }
        }
        let guardRail = ShrinkGuard(paths: paths)
        defer { guardRail.remove() }
        return try load(buffers: buffers) { $0.fillIn(assumptions) }
    }
}

extension LedgerBuilder {
    /// What the files left unsaid, from the assumptions; anything a file said stands.
    mutating func fillIn(_ assumptions: LoadAssumptions) {
        if defaultCurrency == nil { defaultCurrency = assumptions.defaultCurrency }
        guard let currency = assumptions.missingBookCurrency else { return }
        for ref in 0..<bookRefs.count {
            let id = bookRefs.string(UInt32(ref))
            guard bookIDs[id] == nil else { continue }
            bookIDs[id] = books.count
            books.append(Book(id: id, name: id, currency: currency, lockedExchangeRate: nil, targetCurrency: currency,
                              rateLockedAt: nil, description: nil, archived: false))
            bookPlaces.append("(assumed)")
        }
    }
}

extension LoadError {
    /// A load error from a source other than a JSON file: no line or column to give.
    public init(file: String, path: String? = nil, message: String) {
        self.init(file: file, line: nil, column: nil, path: path, message: message)
    }
}
