// Fetched rates, outside the ledger: reading a provider's response, and the
// cache file that keeps what was fetched.
//
// A provider answers `{"base": "USD", "date": "2025-10-01", "rates": {…}}`
// (exchangerate-api v4 and Frankfurter both do; other fields are ignored). It is
// checked as strictly as a ledger's snapshot — ISO base, a real date, positive
// exact rates — except that codes outside ISO 4217 (providers list a few, such
// as FOK or GGP) are skipped and counted rather than refused.
//
// The cache is a small JSON document in the ledger's own format (`version` and
// `rates` only), so it is read by the same loader. It is written atomically: a
// temporary file beside it, fsync, then rename, so a crash or a full disk leaves
// the old cache, never half a new one.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

public enum RateCache {
    public struct ProviderSnapshot: Sendable {
        public var snapshot: RateSnapshot
        /// Codes in the response that are not ISO 4217, left out.
        public var skipped: [String]
    }

    /// Reads a provider's response. `source` and `fetchedAt` are recorded on the snapshot.
    public static func parseResponse(_ bytes: [UInt8], source: String, fetchedAt: String) throws(LoadError) -> ProviderSnapshot {
        do {
            return try bytes.withUnsafeBufferPointer { buffer in
                var reader = JSONReader(buffer)
                func fail(_ message: String) -> LoadError {
                    let (line, column) = reader.lineAndColumn(of: reader.pos)
                    return LoadError(file: "rates response", line: line, column: column, message: message)
                }
                do {
                    try reader.beginObject("a rates object ({\"base\", \"date\", \"rates\"})")
                    var first = true
                    var base: Currency?, day: Day?, rates: [Currency: ExactDecimal] = [:], skipped: [String] = []
                    var sawRates = false
                    while let key = try reader.nextKey(&first) {
                        switch reader.string(key) {
                        case "base":
                            guard reader.peek() == UInt8(ascii: "\"") else { throw fail("\"base\" must be a currency code") }
                            let raw = try reader.readString()
                            let s = reader.string(raw)
                            guard let c = Currency(code: s) else { throw fail("\"base\" is \"\(s)\", not an ISO 4217 code") }
                            base = c
                        case "date":
                            guard reader.peek() == UInt8(ascii: "\"") else { throw fail("\"date\" must be a date string") }
                            let raw = try reader.readString()
                            let s = reader.string(raw)
                            guard let d = Day.parse(s) else { throw fail("\"date\" is \"\(s)\", not a date") }
                            day = d
                        case "rates":
                            sawRates = true
                            try reader.beginObject("an object of currency codes to rates")
                            var firstRate = true
                            while let code = try reader.nextKey(&firstRate) {
                                let name = reader.string(code)
                                let value: ExactDecimal
                                do { value = try reader.readNumber() } catch let e as JSONReader.NumberFailure { throw fail("the rate for \(name) is not an exact number: \(e.text)") }
                                guard let c = Currency(code: name) else { skipped.append(name); continue }
                                guard value.isPositive else { throw fail("the rate for \(name) must be positive, found \(value)") }
                                guard rates[c] == nil else { throw fail("\(name) appears twice in \"rates\"") }
                                rates[c] = value
                            }
                        default:
                            try reader.skipValue()
                        }
                    }
                    try reader.expectEnd()
                    guard let base else { throw fail("the response has no \"base\"") }
                    guard let day else { throw fail("the response has no \"date\"") }
                    guard sawRates, !rates.isEmpty else { throw fail("the response has no rates") }
                    rates[base] = nil
                    let snap = RateSnapshot(base: base, day: day, rates: rates, source: source, fetchedAt: fetchedAt, order: 0)
                    return ProviderSnapshot(snapshot: snap, skipped: skipped.sorted())
                } catch let e as JSONSyntaxError {
                    let (line, column) = reader.lineAndColumn(of: e.offset)
                    throw LoadError(file: "rates response", line: line, column: column, message: e.message)
                }
            }
        } catch let e as LoadError {
            throw e
        } catch {
            throw LoadError(file: "rates response", message: "\(error)")
        }
    }

    /// The snapshots of a cache file (a rates-only ledger document).
    public static func read(path: String) throws(LoadError) -> [RateSnapshot] {
        let file = try MappedFile(path: path)
        defer { file.unmap() }
        var builder = LedgerBuilder()
        try builder.read(file.bytes, name: path)
        return builder.snapshots
    }

    /// The cache document for these snapshots.
    public static func document(_ snapshots: [RateSnapshot]) -> String {
        func quote(_ s: String) -> String {
            var out = "\""
            for u in s.unicodeScalars {
                switch u {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                default: if u.value < 0x20 { out += "?" } else { out.unicodeScalars.append(u) }
                }
            }
            return out + "\""
        }
        let items = snapshots.map { s in
            let rates = s.rates.keys.sorted().map { "\(quote($0.code)): \(s.rates[$0]?.description ?? "0")" }.joined(separator: ", ")
            var fields = ["\"base\": \(quote(s.base.code))", "\"date\": \(quote(s.day.description))", "\"rates\": {\(rates)}"]
            if let source = s.source { fields.append("\"source\": \(quote(source))") }
            if let fetched = s.fetchedAt { fields.append("\"fetchedAt\": \(quote(fetched))") }
            return "    {" + fields.joined(separator: ", ") + "}"
        }
        return "{\n  \"version\": 1,\n  \"rates\": [\n" + items.joined(separator: ",\n") + "\n  ]\n}\n"
    }

    public struct WriteError: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// Writes `text` to `path` atomically: a temporary file in the same folder, fsync, rename.
    public static func writeAtomically(_ text: String, to path: String) throws(WriteError) {
        let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        if !folder.isEmpty { makeFolders(folder) }
        let temporary = path + ".tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw WriteError(description: "cannot write \(temporary): \(String(cString: strerror(errno)))") }
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBufferPointer { write(fd, $0.baseAddress! + written, bytes.count - written) }
            if n <= 0 {
                let reason = String(cString: strerror(errno))
                close(fd)
                unlink(temporary)
                throw WriteError(description: "cannot write \(temporary): \(reason)")
            }
            written += n
        }
        guard fsync(fd) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            unlink(temporary)
            throw WriteError(description: "cannot sync \(temporary): \(reason)")
        }
        close(fd)
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw WriteError(description: "cannot replace \(path): \(reason)")
        }
    }

    static func makeFolders(_ folder: String) {
        var current = folder.hasPrefix("/") ? "" : "."
        for part in folder.split(separator: "/") {
            current += "/" + part
            mkdir(current, 0o755)
        }
    }
}

extension Ledger {
    /// The order the next market source added would take: after every one there is.
    public var nextMarketOrder: Int {
        (snapshots.map(\.order) + pairs.map(\.order)).max().map { $0 + 1 } ?? 0
    }

    /// Adds market snapshots from outside the ledger (the rates cache), after the file's own:
    /// on one date, a later source wins among equals.
    public mutating func addMarketSnapshots(_ more: [RateSnapshot]) {
        var order = nextMarketOrder
        for var s in more {
            s.order = order
            order += 1
            snapshots.append(s)
        }
    }
}
