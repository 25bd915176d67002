// Fetched rates, outside the ledger: reading a provider's response, and the
// cache file that keeps what was fetched.
//
// A provider answers `{"base": "USD", "date": "2025-10-01", "rates": {…}}`
// (exchangerate-api v4 and Frankfurter both do; other fields are ignored). It is
// checked as strictly as a ledger's snapshot — no duplicate keys, the base that
// was asked for, a real date no later than tomorrow, positive exact rates —
// except that codes outside ISO 4217 (providers list a few, such as FOK or GGP)
// are skipped and counted rather than refused. Whatever of the response reaches a
// message goes through `printable` first: a provider cannot write escape
// sequences to the terminal.
//
// The cache is a small JSON document in the ledger's own format (`version` and
// `rates`), so it is read by the same loader, opened by a marker member
// (`"generator": "abacus rates cache"`). Abacus replaces a file only when it is
// missing, empty, or a regular file that opens with that marker: pointed at a
// ledger, a script or a device by mistake, `--rates-cache` refuses instead of
// destroying it. The write is atomic: a fresh temporary file beside the cache,
// fsync, rename, fsync of the folder, so a crash or a full disk leaves the old
// cache, never half a new one.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

public enum RateCache {
    /// The first member of every cache Abacus writes.
    public static let markerKey = "generator"
    public static let markerValue = "abacus rates cache"
    /// A rates response is a few kilobytes; anything past this is not one.
    public static let responseLimit = 1 << 20
    /// A cache gains one snapshot per refresh of a base and a day: years of them stay far below this.
    static let cacheLimit = 64 << 20

    public struct ProviderSnapshot: Sendable {
        public var snapshot: RateSnapshot
        /// Codes in the response that are not ISO 4217, left out (already made printable).
        public var skipped: [String]
    }

    /// What a response must agree with.
    public struct Expectation: Sendable {
        /// The base that was asked for.
        public var base: Currency
        /// The latest date a snapshot may carry (tomorrow, allowing for time zones).
        public var latestDay: Day
        public init(base: Currency, latestDay: Day) {
            self.base = base
            self.latestDay = latestDay
        }
    }

    /// Reads a provider's response. `source` and `fetchedAt` are recorded on the snapshot.
    public static func parseResponse(_ bytes: [UInt8], expecting expected: Expectation, source: String, fetchedAt: String) throws(LoadError) -> ProviderSnapshot {
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
                    var keys: Set<String> = []
                    var base: Currency?, day: Day?, rates: [Currency: ExactDecimal] = [:], skipped: [String] = []
                    var sawRates = false
                    while let key = try reader.nextKey(&first) {
                        let name = reader.string(key)
                        // "base" twice would let the last one win unseen, as a ledger never does.
                        guard keys.insert(name).inserted else { throw fail("\"\(printable(name))\" appears twice in the response") }
                        switch name {
                        case "base":
                            guard reader.peek() == UInt8(ascii: "\"") else { throw fail("\"base\" must be a currency code, found \(reader.foundHere())") }
                            let s = reader.string(try reader.readString())
                            guard let c = Currency(code: s) else { throw fail("\"base\" is \"\(printable(s))\", not an ISO 4217 code") }
                            base = c
                        case "date":
                            guard reader.peek() == UInt8(ascii: "\"") else { throw fail("\"date\" must be a date string, found \(reader.foundHere())") }
                            let s = reader.string(try reader.readString())
                            guard let d = Day.parse(s) else { throw fail("\"date\" is \"\(printable(s))\", not a date") }
                            guard d <= expected.latestDay else {
                                throw fail("\"date\" is \(d), after \(expected.latestDay): latest rates cannot be dated in the future")
                            }
                            day = d
                        case "rates":
                            sawRates = true
                            try reader.beginObject("an object of currency codes to rates")
                            var firstRate = true
                            var codes: Set<String> = []
                            while let code = try reader.nextKey(&firstRate) {
                                let text = reader.string(code)
                                guard looksLikeCode(text) else { throw fail("\"rates\" has a key that is not a currency code: \"\(printable(text))\"") }
                                guard codes.insert(text).inserted else { throw fail("\(text) appears twice in \"rates\"") }
                                let value: ExactDecimal
                                do { value = try reader.readNumber() } catch let e as JSONReader.NumberFailure {
                                    throw e.kind == .notANumber || e.text.isEmpty
                                        ? fail("the rate for \(text) is not a number: found \(e.text.isEmpty ? reader.foundHere() : printable(e.text))")
                                        : fail("the rate for \(text) cannot be held exactly (at most 38 digits): \(printable(e.text))")
                                }
                                guard let c = Currency(code: text) else { skipped.append(text); continue }
                                guard value.isPositive else { throw fail("the rate for \(text) must be positive, found \(value)") }
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
                    // A frequent and harmless habit (exchangerate-api lists "USD": 1 in USD rates);
                    // any other rate of the base for itself is nonsense.
                    if let own = rates[base], own != .one {
                        throw fail("the response quotes its own base \(base) at \(own), not 1")
                    }
                    rates[base] = nil
                    guard base == expected.base else {
                        throw fail("the provider answered with \(base) rates, but \(expected.base) was asked for (does the URL pass {base}?)")
                    }
                    let snap = RateSnapshot(base: base, day: day, rates: rates, source: source, fetchedAt: fetchedAt, order: 0)
                    return ProviderSnapshot(snapshot: snap, skipped: skipped.sorted())
                } catch let e as JSONSyntaxError {
                    let (line, column) = reader.lineAndColumn(of: e.offset)
                    throw LoadError(file: "rates response", line: line, column: column, message: printable(e.message))
                }
            }
        } catch let e as LoadError {
            throw e
        } catch {
            throw LoadError(file: "rates response", message: printable("\(error)"))
        }
    }

    /// Letters and digits, 1 to 8 of them: a code some provider might use (FOK, GGP, XDR…).
    /// Anything else in "rates" is not a sloppy code but a broken or hostile response.
    static func looksLikeCode(_ s: String) -> Bool {
        let u = s.utf8
        return (1...8).contains(u.count) && u.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
    }

    /// Text from a response or the cache as a message quotes it: `ShownText`, at most `limit` characters.
    public static func printable(_ s: String, limit: Int = 200) -> String {
        ShownText.shown(s, limit: limit)
    }

    // MARK: The cache file

    /// The snapshots of a cache file Abacus wrote. Anything else — not a regular file, not
    /// opening with the marker, not a valid rates-only document — is an error to report.
    public static func read(path: String) throws(LoadError) -> [RateSnapshot] {
        let bytes: [UInt8]
        switch readRegularFile(path, limit: cacheLimit) {
        case .failure(let problem): throw LoadError(file: path, message: problem.description)
        case .success(let b): bytes = b
        }
        // An empty file is an empty cache (`touch` before a first refresh).
        if bytes.isEmpty { return [] }
        guard opensWithMarker(bytes) else { throw LoadError(file: path, message: CacheFileProblem.notACache.description) }
        var builder = LedgerBuilder()
        try bytes.withUnsafeBufferPointer { (b) throws(LoadError) in try builder.read(b, name: path) }
        // The cache holds snapshots only: anything else in it was not written by Abacus.
        guard builder.pairs.isEmpty, builder.books.isEmpty, builder.day.isEmpty else {
            throw LoadError(file: path, message: "a rates cache holds rate snapshots only, this file has rate pairs, books or entries")
        }
        return builder.snapshots
    }

    /// The cache document for these snapshots; the marker comes first, so that a prefix of the file tells.
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
        return "{\n  \(quote(markerKey)): \(quote(markerValue)),\n  \"version\": 1,\n  \"rates\": [\n" + items.joined(separator: ",\n") + "\n  ]\n}\n"
    }

    /// Why a cache file could not be read or replaced.
    public enum CacheFileProblem: Error, Sendable, CustomStringConvertible {
        case notRegular(kind: String)
        case notACache
        case tooLarge
        case unreadable(String)

        public var description: String {
            switch self {
            case .notRegular(let kind): return "not a regular file but \(kind)"
            case .notACache: return "not a rates cache written by Abacus (it does not open with \"\(markerKey)\": \"\(markerValue)\")"
            case .tooLarge: return "larger than \(cacheLimit >> 20) MB, too large for a rates cache"
            case .unreadable(let reason): return "cannot be read (\(reason))"
            }
        }
    }

    public enum WriteError: Error, Sendable, CustomStringConvertible {
        case noPath
        case cannotCreateFolder(String, reason: String)
        case wouldDestroy(String, CacheFileProblem)
        case cannotWrite(String, reason: String)
        case cannotReplace(String, reason: String)

        public var description: String {
            switch self {
            case .noPath: return "no cache file is named (--rates-cache is empty)"
            case .cannotCreateFolder(let folder, let reason): return "cannot create the folder \(folder): \(reason)"
            case .wouldDestroy(let path, let problem): return "\(path): \(problem); left as it is (name another file with --rates-cache)"
            case .cannotWrite(let path, let reason): return "cannot write \(path): \(reason)"
            case .cannotReplace(let path, let reason): return "cannot replace \(path): \(reason)"
            }
        }
    }

    /// Writes `text` to `path` atomically: a new temporary file in the same folder, fsync,
    /// rename, fsync of the folder. `path` itself must be missing, empty or a cache Abacus wrote.
    public static func writeAtomically(_ text: String, to path: String) throws(WriteError) {
        guard !path.isEmpty else { throw .noPath }
        let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        if !folder.isEmpty { try makeFolders(folder) }
        if let problem = replaceProblem(path) { throw .wouldDestroy(path, problem) }
        let bytes = Array(text.utf8)
        try AtomicFile.replace(path) { fd in
            var written = 0
            while written < bytes.count {
                let n = bytes.withUnsafeBufferPointer { b in b.baseAddress.map { write(fd, $0 + written, b.count - written) } ?? -1 }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return false }
                written += n
            }
            return true
        }
    }

    /// Why the file at `path` must not be replaced by a cache; nil when it may be.
    public static func replaceProblem(_ path: String) -> CacheFileProblem? {
        var info = stat()
        // lstat: a link is not followed, and not replaced either.
        guard lstat(path, &info) == 0 else { return errno == ENOENT ? nil : .unreadable(errnoText()) }
        if let kind = nonRegularKind(info.st_mode) { return .notRegular(kind: kind) }
        if info.st_size == 0 { return nil }
        switch readRegularFile(path, limit: 4096, truncating: true) {
        case .failure(let problem): return problem
        case .success(let prefix): return opensWithMarker(prefix) ? nil : .notACache
        }
    }

    /// True when the document's first member is the marker (a prefix of the file is enough).
    static func opensWithMarker(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            var reader = JSONReader(buffer)
            var first = true
            do {
                try reader.beginObject()
                guard let key = try reader.nextKey(&first), reader.string(key) == markerKey,
                      reader.peek() == UInt8(ascii: "\"") else { return false }
                return reader.string(try reader.readString()) == markerValue
            } catch {
                return false
            }
        }
    }

    /// "a directory", "a symbolic link"…; nil for a regular file.
    static func nonRegularKind(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "a directory"
        case S_IFLNK: return "a symbolic link"
        case S_IFCHR, S_IFBLK: return "a device"
        case S_IFIFO: return "a named pipe"
        case S_IFSOCK: return "a socket"
        default: return "something else"
        }
    }

    /// The bytes of a regular file, at most `limit` of them (more is an error unless `truncating`).
    /// Opened without blocking and checked before reading: a named pipe or a device is refused, never waited on.
    static func readRegularFile(_ path: String, limit: Int, truncating: Bool = false) -> Result<[UInt8], CacheFileProblem> {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return .failure(.unreadable(errno == ENOENT ? "no such file" : errnoText())) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(.unreadable(errnoText())) }
        if let kind = nonRegularKind(info.st_mode) { return .failure(.notRegular(kind: kind)) }
        if !truncating && Int(info.st_size) > limit { return .failure(.tooLarge) }
        var bytes = [UInt8](repeating: 0, count: min(Int(info.st_size), limit))
        var filled = 0
        while filled < bytes.count {
            let n = bytes.withUnsafeMutableBufferPointer { b in b.baseAddress.map { readBytes(fd, $0 + filled, b.count - filled) } ?? -1 }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return .failure(.unreadable(errnoText())) }
            if n == 0 { break }
            filled += n
        }
        return .success(Array(bytes.prefix(filled)))
    }

    static func makeFolders(_ folder: String) throws(WriteError) {
        var current = folder.hasPrefix("/") ? "" : "."
        for part in folder.split(separator: "/") {
            current += "/" + part
            if mkdir(current, 0o755) != 0 && errno != EEXIST { throw .cannotCreateFolder(current, reason: errnoText()) }
        }
    }

    static func errnoText() -> String { String(cString: strerror(errno)) }
}

/// Replacing a file so that no reader ever sees half of it: the new contents go to a fresh
/// temporary file beside it (mkstemp: a name nobody can predict, created with O_EXCL, never
/// through a planted link), fsync, rename over the old one, fsync of the folder. A crash or a
/// full disk leaves the old file, never half a new one. Used by the rates cache and the
/// store images.
public enum AtomicFile {
    /// Writes the file at `path` with `write`, which gets the temporary file's descriptor and
    /// returns false when it could not write everything. The folder must exist.
    public static func replace(_ path: String, _ write: (Int32) -> Bool) throws(RateCache.WriteError) {
        let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        var template = Array((path + ".tmp-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { b in b.baseAddress.map { mkstemp($0) } ?? -1 }
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard fd >= 0 else { throw .cannotWrite(temporary, reason: RateCache.errnoText()) }
        func abandon(_ error: RateCache.WriteError) -> RateCache.WriteError {
            close(fd)
            unlink(temporary)
            return error
        }
        errno = 0
        guard write(fd) else {
            let reason = errno == 0 ? "nothing was written" : RateCache.errnoText()
            throw abandon(.cannotWrite(temporary, reason: reason))
        }
        guard fsync(fd) == 0 else { throw abandon(.cannotWrite(temporary, reason: RateCache.errnoText())) }
        guard close(fd) == 0 else {
            let reason = RateCache.errnoText()
            unlink(temporary)
            throw .cannotWrite(temporary, reason: reason)
        }
        guard rename(temporary, path) == 0 else {
            let reason = RateCache.errnoText()
            unlink(temporary)
            throw .cannotReplace(path, reason: reason)
        }
        // The rename itself is durable only once the folder is synced.
        let dir = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY)
        if dir >= 0 {
            _ = fsync(dir)
            close(dir)
        }
    }
}

/// POSIX `read`, which `RateCache.read(path:)` hides by name inside the enum.
private func readBytes(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(fd, buffer, count)
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
