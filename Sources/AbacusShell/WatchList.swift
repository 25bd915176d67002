// The watch list: the currencies a person follows (`watch USD, SGD`), kept between
// sessions in `$XDG_STATE_HOME/abacus/watch` (default `~/.local/state/abacus/watch`).
//
// The file is text, one ISO 4217 code a line in the order they were added, `#`
// starting a comment; a code in another letter case is that code, and blank lines and
// repeats are harmless. It is replaced atomically on every change (`AtomicFile`), so a
// crash leaves the old list. A line that is not a code is skipped with a warning naming
// the file and line, the good codes around it kept: one bad line must not cost the
// list, since the next change rewrites the file from what was read. A file that cannot
// be read as a list at all — not a regular file, too large, not UTF-8 — is reported in
// one warning line and treated as empty. Never fatal.

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

    /// At most this many lines that are not codes are warned about one by one; the rest in one line.
    static let skippedLinesShown = 5

    /// The list kept at `path`. A missing file is an empty list; each line that is not a code
    /// is reported through `report` and skipped; a file that is not a list at all is reported
    /// (one line) and ignored.
    public static func load(path: String?, report: (String) -> Void) -> WatchList {
        var list = WatchList(path: path)
        guard let path else { return list }
        switch read(path) {
        case .success(let contents):
            list.currencies = contents.codes
            for (n, text) in contents.skipped.prefix(skippedLinesShown) {
                report("warning: skipping line \(n) of the watch list \(path): found \"\(ShownText.shown(text, limit: 40))\", expected an ISO 4217 currency code (one a line); the next change rewrites the list without it")
            }
            let more = contents.skipped.count - skippedLinesShown
            if more > 0 { report("warning: skipping \(more) more \(more == 1 ? "line" : "lines") of the watch list \(path) that \(more == 1 ? "is" : "are") not a currency code") }
        case .failure(.folder):
            // A folder there cannot be replaced by the list: say what to do instead of promising it.
            report("warning: ignoring the watch list \(path): it is a folder; move it away to keep a watch list")
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
        case folder
        case tooLarge
        case unreadable(String)
        case notText

        var description: String {
            switch self {
            case .notRegular: return "not a regular file"
            case .folder: return "a folder"
            case .tooLarge: return "larger than \(WatchList.sizeLimit / 1024) KB, too large for a watch list"
            case .unreadable(let reason): return "cannot be read (\(reason))"
            case .notText: return "not UTF-8 text"
            }
        }
    }

    /// The codes of the file, each once in the order first written, and the lines (numbered
    /// from 1) that are not codes; a missing file is an empty list.
    static func read(_ path: String) -> Result<(codes: [Currency], skipped: [(line: Int, text: String)]), Problem> {
        let fm = FileManager.default
        guard fm.fileExists(atPath: path) else { return .success(([], [])) }
        // Checked before opening: a named pipe or a device is never waited on.
        guard let attributes = try? fm.attributesOfItem(atPath: path) else { return .failure(.unreadable("no access")) }
        if attributes[.type] as? FileAttributeType == .typeDirectory { return .failure(.folder) }
        guard attributes[.type] as? FileAttributeType == .typeRegular else { return .failure(.notRegular) }
        if let size = attributes[.size] as? Int, size > sizeLimit { return .failure(.tooLarge) }
        guard let data = fm.contents(atPath: path) else { return .failure(.unreadable("no access")) }
        guard data.count <= sizeLimit else { return .failure(.tooLarge) }
        guard let text = String(data: data, encoding: .utf8) else { return .failure(.notText) }
        var codes: [Currency] = [], skipped: [(line: Int, text: String)] = []
        for (i, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            let word = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if word.isEmpty { continue }
            // Statements take a code in any letter case (`watch usd`); so does the file.
            guard let c = Currency(caseInsensitiveCode: word) else {
                skipped.append((i + 1, word))
                continue
            }
            if !codes.contains(c) { codes.append(c) }
        }
        return .success((codes, skipped))
    }
}
