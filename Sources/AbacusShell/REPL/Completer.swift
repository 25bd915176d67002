// Tab completion that knows where the cursor is.
//
// From the words before the cursor it decides what may come next: a statement or
// dot command at the start, group keys after `by`, fields after `where`/`and`/`or`,
// the ledger's own names after `category =` (quoted when they hold spaces),
// currency codes after `in`, `convert 100`, `to` and in pairs, file paths after
// `.load`/`.run` (left to libedit's filename completion). Pure Swift, so it is
// tested without a terminal.

import AbacusCore
import AbacusQuery

struct Completer {
    enum Answer: Equatable {
        case words([String])
        /// Let libedit complete a file name.
        case files
    }

    let ledger: Ledger

    static let statements = ["sum", "count", "avg", "min", "max", "list", "explain", "convert", "rate", "rates",
                             "set", "unset", "books", "categories"]
    static let clauses = ["in", "by", "where", "since", "until", "before", "on", "during", "at", "with", "order", "top"]
    static let subjects = ["expenses", "income", "transfers", "entries"]
    static let fields = ["amount", "category", "book", "party", "payment", "currency", "tag", "remarks", "date"]
    static let keys = ["category", "book", "party", "payment", "currency", "tag", "day", "week", "month", "quarter", "year"]
    static let dates = ["today", "yesterday", "this", "last", "2025", "2025-Q1"]

    /// The candidates for the word `word` that starts at byte `start` of `line`.
    func complete(line: String, start: Int) -> Answer {
        let before = String(decoding: Array(line.utf8).prefix(start), as: UTF8.self)
        let trimmed = before.drop { $0 == " " }
        if trimmed.hasPrefix(".") {
            let parts = trimmed.split(separator: " ", omittingEmptySubsequences: true)
            if parts.isEmpty || (parts.count == 1 && !before.hasSuffix(" ")) { return .words(Shell.dotCommands) }
            switch parts[0].lowercased() {
            case ".load", ".run", ".read": return .files
            case ".format", ".mode": return .words(OutputFormat.allCases.map(\.rawValue))
            case ".help": return .words(Help.topics)
            case ".timer": return .words(["on", "off"])
            default: return .words([])
            }
        }
        let words = Completer.tokens(before)
        guard let last = words.last else { return .words(Completer.statements + Shell.dotCommands) }
        let previous = words.count >= 2 ? words[words.count - 2] : nil
        let codes = currencyCodes()
        switch last {
        case "by":
            return .words(previous == "order" ? ["amount", "count", "date"] + Completer.keys : Completer.keys)
        case "where", "and", "or", "not", "(":
            if last == "(", let field = fieldBefore(words.dropLast()) { return .words(values(field)) }
            return .words(Completer.fields + (last == "not" ? [] : ["not"]))
        case "=", "!=", "~", "<", ">", "<=", ">=":
            if let field = words.dropLast().last, let f = Field(rawValue: field) { return .words(values(f)) }
            return .words([])
        case ",":
            if let field = fieldBefore(words.dropLast()), words.contains("(") { return .words(values(field)) }
            if words.contains("by") { return .words(Completer.keys) }
            if words.contains("with") { return .words(["rate"]) }
            return .words([])
        case "in":
            if let p = previous, Field(rawValue: p) != nil { return .words(["("]) }
            return .words(codes + ["native"])
        case "to", "rate", "/":
            return .words(codes)
        case "at":
            return .words(["market", "latest", "today"])
        case "since", "until", "before", "on", "during":
            return .words(Completer.dates)
        case "this": return .words(["month", "year"])
        case "last": return .words(["month", "year", "30"])
        case "order": return .words(["by"])
        case "with": return .words(["rate"])
        case "set": return .words(["rate", "currency"])
        case "unset": return .words(["rate"])
        case "currency" where previous == "set": return .words(codes)
        case "explain": return .words(Array(Completer.statements.prefix(6)))
        case "rates": return .words(codes + ["in", "where", "at"])
        default:
            if previous == "convert" { return .words(codes) }
            if words.count == 1, Aggregate(rawValue: last) != nil { return .words(Completer.subjects + Completer.clauses) }
            return .words(Completer.clauses + Completer.subjects)
        }
    }

    /// Lowercased words and symbols before the cursor; a quoted string counts as one word.
    static func tokens(_ text: String) -> [String] {
        var out: [String] = []
        var current = ""
        var quoted = false
        func flush() { if !current.isEmpty { out.append(current.lowercased()); current = "" } }
        for ch in text {
            if quoted { current.append(ch); if ch == "\"" { quoted = false; flush() }; continue }
            switch ch {
            case "\"": flush(); current = "\""; quoted = true
            case " ", "\t", "\n": flush()
            case "(", ")", ",", "/", ";": flush(); out.append(String(ch))
            case "=", "~", "<", ">", "!":
                if let l = current.last, "=<>!~".contains(l) { current.append(ch) } else { flush(); current = String(ch) }
            default:
                if let l = current.last, "=<>!~".contains(l) { flush() }
                current.append(ch)
            }
        }
        flush()
        return out
    }

    /// The field of an `in (…)` list being typed: the word before `in` or `not in`.
    func fieldBefore(_ words: ArraySlice<String>) -> Field? {
        guard let open = words.lastIndex(of: "("), open >= words.startIndex + 2 else { return nil }
        var i = open - 1
        guard words[i] == "in" else { return nil }
        i -= 1
        if words[i] == "not" && i > words.startIndex { i -= 1 }
        return Field(rawValue: words[i])
    }

    func currencyCodes() -> [String] {
        let own = ledger.entries.currencies.map(\.code)
        return own + Currency.all.map(\.code).filter { !own.contains($0) }
    }

    /// The ledger's names for a field, quoted where a bare word would not do.
    func values(_ field: Field) -> [String] {
        let store = ledger.entries
        let names: [String]
        switch field {
        case .category: names = store.categories
        case .book: names = ledger.books.map(\.name)
        case .party: names = Array(store.parties.dropFirst()) + [Executor.none]
        case .payment: names = Array(store.payments.dropFirst()) + [Executor.none]
        case .tag: names = store.tags
        case .currency: return currencyCodes()
        case .date: return Completer.dates
        case .amount, .remarks: return []
        }
        return names.sorted().map(Completer.quotedIfNeeded)
    }

    static func quotedIfNeeded(_ name: String) -> String {
        let plain = name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == "." }
        let keyword = Help.keywords.contains(name.lowercased())
        return plain && !keyword && !name.isEmpty ? name : "\"" + name.replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// The candidates among `words` for what was typed: matching as typed first (libedit inserts
    /// their common prefix letter for letter), else in any case. A typed opening quote asks for a
    /// quoted name; a quoted name also matches its unquoted beginning (`Foo` → `"Food & Dining"`).
    static func filter(_ words: [String], prefix: String) -> [String] {
        var seen = Set<String>()
        let unique = words.filter { seen.insert($0).inserted }
        let quoting = prefix.hasPrefix("\"")
        let candidates = quoting ? unique.map { $0.hasPrefix("\"") ? $0 : "\"" + $0 + "\"" } : unique
        func key(_ c: String) -> String { !quoting && c.hasPrefix("\"") ? String(c.dropFirst()) : c }
        let exact = candidates.filter { key($0).hasPrefix(prefix) }
        if !exact.isEmpty { return exact }
        let lower = prefix.lowercased()
        return candidates.filter { key($0).lowercased().hasPrefix(lower) }
    }
}
