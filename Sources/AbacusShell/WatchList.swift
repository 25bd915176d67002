// The watch list: the currencies a person follows (`watch USD, SGD`), kept between
// sessions in `$XDG_STATE_HOME/abacus/watch` (default `~/.local/state/abacus/watch`).
//
// The file is text, one ISO 4217 code a line in the order they were added, `#`
// starting a comment. It is replaced atomically on every change (`AtomicFile`), so a
// crash leaves the old list. A file that cannot be read as such a list — not a
// regular file, too large, not UTF-8, a line that is not a code — is reported in one
// warning line and treated as empty: never fatal. The next change writes a good one.

import AbacusCore
import Foundation

public struct WatchList: Sendable {
    /// Where the list is kept; nil when there is no home folder to keep it in (changes then last the session).
    public let path: String?
    /// In the order they were added.
    public private(set) var currencies: [Currency] = []

    /// A watch list larger than this is not one.
    static let sizeLimit = 64 * 1024

    static let header = "# abacus watch list: one ISO 4217 currency code a line"

    /// `$XDG_STATE_HOME/abacus/watch`, else `~/.local/state/abacus/watch`.
    public static func defaultPath(environment: [String: String]) -> String? {
        if let s = environment["XDG_STATE_HOME"], !s.isEmpty { return s + "/abacus/watch" }
        if let h = environment["HOME"], !h.isEmpty { return h + "/.local/state/abacus/watch" }
        return nil
    }

    /// An empty list kept at `path`, not read.
    public init(path: String?) {
        self.path = path
    }

    /// The list kept at `path`. A missing file is an empty list; a damaged one is reported
    /// through `report` (one line) and ignored.
    public static func load(path: String?, report: (String) -> Void) -> WatchList {
        var list = WatchList(path: path)
        guard let path else { return list }
        switch read(path) {
        case .success(let codes): list.currencies = codes
        case .failure(let problem): report("warning: ignoring the watch list \(path): \(problem.description); it will be rewritten on the next change")
        }
        return list
    }

    public func contains(_ c: Currency) -> Bool { currencies.contains(c) }

    /// Adds currencies not yet watched (in the order given) and saves; returns those added.
    @discardableResult
    public mutating func add(_ more: [Currency]) throws(AtomicFile.Failure) -> [Currency] {
        var added: [Currency] = []
        for c in more where !currencies.contains(c) && !added.contains(c) { added.append(c) }
        guard !added.isEmpty else { return [] }
        let before = currencies
        currencies += added
        do throws(AtomicFile.Failure) { try save() } catch {
            currencies = before
            throw error
        }
        return added
    }

    /// Removes watched currencies and saves; returns those that were watched.
    @discardableResult
    public mutating func remove(_ some: [Currency]) throws(AtomicFile.Failure) -> [Currency] {
        let removed = currencies.filter { some.contains($0) }
        guard !removed.isEmpty else { return [] }
        let before = currencies
        currencies.removeAll { some.contains($0) }
        do throws(AtomicFile.Failure) { try save() } catch {
            currencies = before
            throw error
        }
        return removed
    }

    /// The file's text for the list.
    static func document(_ currencies: [Currency]) -> String {
        ([header] + currencies.map(\.code)).joined(separator: "\n") + "\n"
    }

    private func save() throws(AtomicFile.Failure) {
        guard let path else { return }
        let folder = AtomicFile.folder(of: path)
        if !folder.isEmpty { try AtomicFile.makeFolders(folder) }
        try AtomicFile.write(WatchList.document(currencies), to: path)
    }

    // MARK: Reading

    enum Problem: Error, CustomStringConvertible {
        case notRegular
        case tooLarge
        case unreadable(String)
        case notText
        case badLine(Int, String)

        var description: String {
            switch self {
            case .notRegular: return "not a regular file"
            case .tooLarge: return "larger than \(WatchList.sizeLimit / 1024) KB, too large for a watch list"
            case .unreadable(let reason): return "cannot be read (\(reason))"
            case .notText: return "not UTF-8 text"
            case .badLine(let n, let text): return "line \(n): found \"\(ShownText.shown(text, limit: 40))\", expected an ISO 4217 currency code (one a line)"
            }
        }
    }

    /// The codes of the file; a missing file is an empty list.
    static func read(_ path: String) -> Result<[Currency], Problem> {
        let fm = FileManager.default
        guard fm.fileExists(atPath: path) else { return .success([]) }
        // Checked before opening: a named pipe or a device is never waited on.
        guard let attributes = try? fm.attributesOfItem(atPath: path) else { return .failure(.unreadable("no access")) }
        guard attributes[.type] as? FileAttributeType == .typeRegular else { return .failure(.notRegular) }
        if let size = attributes[.size] as? Int, size > sizeLimit { return .failure(.tooLarge) }
        guard let data = fm.contents(atPath: path) else { return .failure(.unreadable("no access")) }
        guard data.count <= sizeLimit else { return .failure(.tooLarge) }
        guard let text = String(data: data, encoding: .utf8) else { return .failure(.notText) }
        var codes: [Currency] = []
        for (i, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            let word = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if word.isEmpty { continue }
            guard let c = Currency(code: word) else { return .failure(.badLine(i + 1, word)) }
            if !codes.contains(c) { codes.append(c) }
        }
        return .success(codes)
    }
}
