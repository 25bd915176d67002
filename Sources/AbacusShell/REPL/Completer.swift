// Tab completion that knows where the cursor is.
//
// From the text before the cursor it decides two things: where the word being
// completed begins, and what may stand there. A word that begins at an unclosed
// `"` is one word, spaces and all (`party = "Café E` completes to "Café Einstein");
// a path after `.load`/`.run` keeps its directories, `~`, quotes and backslash-
// escaped spaces. What may stand there: a statement or dot command at the start,
// group keys after `by`, fields after `where`/`and`/`or`, `and`/`or` and clauses
// after a condition, the ledger's own category, book, party, payment and tag names
// after `=` or `in (` (quoted when needed), currency codes after `in`, `convert
// 100`, `to` and in pairs (the ledger's own first), only keys that can order the
// result after `order by`. Those lists say what may come; the parser then keeps
// the words it takes there (`parserTakes`), so no word offered is one it refuses.
// A bare name of several words (`= Food & D`) completes as a whole. Pure Swift, so
// it is tested without a terminal; the line editor only hands it the text and
// inserts what it returns.

import AbacusCore
import AbacusQuery
import Foundation

struct Completer {
    /// What Tab does at a cursor.
    struct Completion: Equatable {
        /// Byte offset, in the text before the cursor, where the word being completed begins.
        var wordStart: Int
        /// The characters that end a word for libedit, chosen so that its word is this one.
        var breakCharacters: String
        /// Each a whole replacement for the word.
        var candidates: [String]
    }

    /// What may follow the text before a word.
    enum Answer: Equatable {
        case words([String])
        /// The ledger's names, unquoted, and whether `(none)` (no value) may stand there too.
        case names([String], withNone: Bool)
        /// Currency codes: the ledger's own when any fits, else every ISO code.
        case currencies(extra: [String], except: [String] = [])
        case files
    }

    let ledger: Ledger
    /// The names of the session's defined statements (`define`), kept up to date by the shell.
    var defined: [String] = []
    /// The codes on the watch list (`unwatch` offers them), kept up to date by the shell.
    var watched: [String] = []

    static let statements = Keywords.words(.statement)
    static let clauses = Keywords.words(.clause)
    static let subjects = Keywords.words(.subject)
    static let fields = Keywords.words(.field)
    /// Group keys as typed word by word: `top category` is offered as `top`, then `category`.
    static let keys = Keywords.words(.groupKey).map { $0.split(separator: " ").first.map(String.init) ?? $0 }
    /// Statements that report on budgets, accounts, net worth and holdings.
    static let reports: Set = ["budget", "balance", "networth", "holdings"]
    static let dates = Keywords.words(.dateWord) + ["2025", "2025-Q1"]
    /// A missing value, as a condition writes it: unquoted (`"(none)"` quoted is a name).
    static let none = "(none)"
    static let comparisons: Set = ["=", "!=", "~", "<", ">", "<=", ">="]
    /// What compares a field or joins conditions: after a field, `(cond)` or `set rate A/B`.
    static let connectives = ["and", "or", ")", "=", "!=", "<", "<=", ">", ">=", "~", "in", "not"]
    /// What `this` and `last` name (`last 30 days` too).
    static let periodUnits = ["week", "month", "quarter", "year"]
    /// The columns `list … show` adds.
    static let shownColumns = ["remarks", "tags", "payment", "currency", "id"]
    /// Where a plain word ends.
    static let plainBreaks = " \t\n,()=<>~!/;"

    /// The completion of the word that ends at the end of `before` (the line up to the cursor).
    func complete(_ before: String) -> Completion {
        let bytes = Array(before.utf8)
        let indent = bytes.prefix { $0 == 0x20 || $0 == 0x09 }.count
        if indent < bytes.count && bytes[indent] == UInt8(ascii: ".") { return dotCommand(before) }
        // `rates import FILE`: a path, as after `.rates`.
        if let r = before.range(of: #"^\s*rates\s+import\s+"#, options: [.regularExpression, .caseInsensitive]) {
            return path(bytes, from: before.utf8.distance(from: before.startIndex, to: r.upperBound))
        }
        if let quote = Lexer(before).partialTokens().openQuote {
            let q = bytes[quote]
            let head = String(decoding: bytes[..<quote], as: UTF8.self)
            var typed = String(decoding: bytes[(quote + 1)...], as: UTF8.self)
            typed = (q == UInt8(ascii: "'") ? typed.replacingOccurrences(of: "''", with: "'") : Completer.unescaped(typed)).lowercased()
            var names: [String] = []
            if case .names(let all, _) = answer(head) { names = all }
            let candidates = names.filter { $0.lowercased().hasPrefix(typed) }.map { name in
                q == UInt8(ascii: "'") ? name.replacingOccurrences(of: "'", with: "''") + "'" : Completer.doubleQuotedBody(name) + "\""
            }
            return Completion(wordStart: quote + 1, breakCharacters: Completer.quoteBreaks(bytes, quote: quote), candidates: candidates)
        }
        if let phrase = bareNamePhrase(bytes) { return phrase }
        let breaks = Set(Completer.plainBreaks.utf8)
        var start = bytes.count
        while start > 0 && !breaks.contains(bytes[start - 1]) { start -= 1 }
        let head = String(decoding: bytes[..<start], as: UTF8.self)
        let word = String(decoding: bytes[start...], as: UTF8.self)
        let candidates: [String]
        switch answer(head) {
        // Only words the parser takes there (the answer's lists are what may; this is what does).
        case .words(let w): candidates = Completer.filter(w, prefix: word).filter { Completer.parserTakes($0, after: head) }
        case .names(let n, let withNone): candidates = Completer.filter(n.sorted().map(Completer.quotedIfNeeded) + (withNone ? [Completer.none] : []), prefix: word)
        case .currencies(let extra, let except): candidates = currencies(prefix: word, extra: extra).filter { !except.contains($0) }
        case .files: candidates = []
        }
        return Completion(wordStart: start, breakCharacters: Completer.plainBreaks, candidates: candidates)
    }

    // MARK: What the parser takes

    /// Whether the parser takes `candidate` after `head`: the statement with it parses, or fails
    /// only at its end (more must follow). A head that fails before the word is not judged (its
    /// error is the user's to see on Enter). The statement after the last `;`; a definition's
    /// statement (`define NAME(…) as …`) on its own.
    static func parserTakes(_ candidate: String, after head: String) -> Bool {
        var statement = Substring(head)
        if let semicolon = statement.lastIndex(of: ";") { statement = statement[statement.index(after: semicolon)...] }
        if let body = definitionBody(statement) { statement = body }
        let start = statement.utf8.count, text = String(statement) + candidate
        // A parenthesis still open is reported where it opens, whatever follows: closed here, the
        // error falls where the word fails (`in (Rent by )` at `by`) or past it (`in (Rent, )`).
        var closed = text
        for _ in 0..<8 {
            do {
                _ = try Parser.parse(closed)
                return true
            } catch {
                if error.kind == .unclosedParenthesis { closed += " )"; continue }
                guard let at = error.range?.lowerBound else { return false }
                return at < start || at >= text.utf8.count
            }
        }
        return true
    }

    /// The statement of `define NAME(…) as STATEMENT` (nil for any other text).
    static func definitionBody(_ text: Substring) -> Substring? {
        text.range(of: #"^\s*define\s+[^\s(]+\s*(\([^)]*\))?\s+as\s+"#, options: [.regularExpression, .caseInsensitive]).map { text[$0.upperBound...] }
    }

    static func definitionBody(_ text: String) -> Substring? { definitionBody(Substring(text)) }

    /// A name of several bare words being typed after `=`, `!=`, `~`, `in (` or `,` of a name
    /// field (`category = Food & D`): the ledger's names that begin with those words, quoted,
    /// replacing all of them. Nil when fewer than two words are typed or no name begins with
    /// them (then the word alone is completed, as a keyword may end the name: `= Rent du`).
    func bareNamePhrase(_ bytes: [UInt8]) -> Completion? {
        let text = String(decoding: bytes, as: UTF8.self)
        let lexer = Lexer(text)
        let tokens = lexer.partialTokens().tokens.filter { $0.kind != .end }
        // The words at the end, up to a keyword or a symbol; the word being typed among them.
        var first = tokens.count
        while first > 0, tokens[first - 1].kind == .word, !Keywords.all.contains(lexer.text(tokens[first - 1]).lowercased()) { first -= 1 }
        // Completing a word (not after a space), with a word of the name before it.
        let typing = bytes.last.map { !Set(Completer.plainBreaks.utf8).contains($0) } ?? false
        guard typing, first > 0, tokens.count - first >= 2 else { return nil }
        let before = tokens[first - 1], symbol = lexer.text(before)
        let head = String(decoding: bytes[..<before.range.upperBound], as: UTF8.self)
        guard ["=", "!=", "~", "(", ","].contains(symbol), case .names(let names, _) = answer(head) else { return nil }
        let phraseStart = tokens[first].range.lowerBound
        let typed = String(decoding: bytes[phraseStart...], as: UTF8.self).lowercased()
        let matches = names.filter { $0.lowercased().hasPrefix(typed) }.sorted()
        guard !matches.isEmpty else { return nil }
        // libedit's word runs from just after the symbol (spaces are no break here): the spaces
        // between it and the name are part of each candidate.
        let gap = String(decoding: bytes[before.range.upperBound..<phraseStart], as: UTF8.self)
        return Completion(wordStart: before.range.upperBound, breakCharacters: String(symbol.suffix(1)),
                          candidates: matches.map { gap + Completer.quotedIfNeeded($0) })
    }

    // MARK: Dot commands

    func dotCommand(_ before: String) -> Completion {
        let bytes = Array(before.utf8)
        var i = bytes.prefix { $0 == 0x20 || $0 == 0x09 }.count
        let nameStart = i
        while i < bytes.count && bytes[i] != 0x20 && bytes[i] != 0x09 { i += 1 }
        let name = String(decoding: bytes[nameStart..<i], as: UTF8.self).lowercased()
        if i == bytes.count {
            return Completion(wordStart: nameStart, breakCharacters: " \t",
                              candidates: Completer.filter(Shell.dotCommands, prefix: name))
        }
        while i < bytes.count && (bytes[i] == 0x20 || bytes[i] == 0x09) { i += 1 }
        let argumentStart = i
        switch name {
        case ".load", ".run", ".read", ".rates":
            return path(bytes, from: argumentStart)
        default:
            // One-word arguments: the word after the last blank.
            var start = bytes.count
            while start > argumentStart && bytes[start - 1] != 0x20 && bytes[start - 1] != 0x09 { start -= 1 }
            let earlier = String(decoding: bytes[argumentStart..<start], as: UTF8.self).split(separator: " ")
            let word = String(decoding: bytes[start...], as: UTF8.self)
            let options: [String]
            switch name {
            case ".format", ".mode": options = earlier.isEmpty ? OutputFormat.allCases.map(\.rawValue) : []
            case ".help": options = earlier.isEmpty ? Help.topics + defined.sorted() : []
            case ".timer": options = earlier.isEmpty ? ["on", "off"] : []
            case ".set": options = earlier.isEmpty ? ["ttl", "rates-url", "rates-key"] : []
            default: options = []
            }
            return Completion(wordStart: start, breakCharacters: " \t", candidates: Completer.filter(options, prefix: word))
        }
    }

    /// A path argument: after an unclosed quote, or from the last blank that is not escaped.
    func path(_ bytes: [UInt8], from argumentStart: Int) -> Completion {
        if let quote = Completer.openPathQuote(bytes, from: argumentStart) {
            let q = bytes[quote]
            var typed = String(decoding: bytes[(quote + 1)...], as: UTF8.self)
            if q == UInt8(ascii: "\"") { typed = Completer.unescaped(typed) }
            let candidates = Completer.files(typed).compactMap { file -> String? in
                let closing = file.hasSuffix("/") ? "" : String(UnicodeScalar(q))
                if q == UInt8(ascii: "'") { return file.contains("'") ? nil : file + closing }
                return file.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + closing
            }
            return Completion(wordStart: quote + 1, breakCharacters: Completer.quoteBreaks(bytes, quote: quote), candidates: candidates)
        }
        var start = bytes.count
        while start > argumentStart {
            let b = bytes[start - 1]
            if (b == 0x20 || b == 0x09) && !(start >= 2 && bytes[start - 2] == UInt8(ascii: "\\")) { break }
            start -= 1
        }
        let typed = Completer.unescaped(String(decoding: bytes[start...], as: UTF8.self))
        let candidates = Completer.files(typed).map { file in
            var out = ""
            for (n, ch) in file.enumerated() {
                if " \t\"'\\".contains(ch) || (n == 0 && ch == "#") { out.append("\\") }
                out.append(ch)
            }
            return out
        }
        return Completion(wordStart: start, breakCharacters: " \t", candidates: candidates)
    }

    /// The files and folders whose path begins with `typed`, as typed (a leading `~` stays);
    /// folders end in `/`. Hidden files only when the name typed begins with a dot.
    static func files(_ typed: String) -> [String] {
        let slash = typed.lastIndex(of: "/")
        let folder = slash.map { String(typed[...$0]) } ?? ""
        let name = slash.map { String(typed[typed.index(after: $0)...]) } ?? typed
        var listed = folder.isEmpty ? "." : folder
        if listed == "~" || listed.hasPrefix("~/"), let home = ProcessInfo.processInfo.environment["HOME"], !home.isEmpty {
            listed = home + listed.dropFirst()
        }
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: listed) else { return [] }
        return entries.filter { $0.hasPrefix(name) && (name.hasPrefix(".") || !$0.hasPrefix(".")) }.sorted().map { entry in
            var isFolder: ObjCBool = false
            let full = (listed as NSString).appendingPathComponent(entry)
            let folderMark = FileManager.default.fileExists(atPath: full, isDirectory: &isFolder) && isFolder.boolValue ? "/" : ""
            return folder + entry + folderMark
        }
    }

    // MARK: Statements

    /// What may follow `head`, the text before the word being completed.
    func answer(_ head: String) -> Answer {
        // `define NAME(…) as STATEMENT`: the statement is completed as one of its own.
        if let body = Completer.definitionBody(head) {
            // A statement (not a shell command, nor another definition) to start it.
            if Completer.tokens(String(body)).isEmpty { return .words(Completer.statements.filter { $0 != "define" } + defined.sorted()) }
            return answer(String(body))
        }
        let words = Completer.tokens(head)
        guard let last = words.last else { return .words(Completer.statements + defined.sorted() + Shell.dotCommands) }
        let previous = words.count >= 2 ? words[words.count - 2] : nil
        let aggregate = words.first == "explain" ? words.dropFirst().first : words.first
        // `where category = Rent `: the condition is complete; more conditions or clauses follow.
        let afterCondition = words.contains("where") && (
            (words.count >= 3 && Completer.comparisons.contains(words[words.count - 2]) && !Completer.comparisons.contains(last) && last != "(")
            || (last == ")" && fieldBefore(words.dropLast()) != nil))
        if afterCondition { return .words(["and", "or", ")"] + Completer.remainingClauses(words, listing: aggregate == "list")) }
        // Inside `in (…)` after a name: more names, or the list's end.
        if fieldBefore(words) != nil, last != "(", last != "," { return .words([",", ")"]) }
        if let report = aggregate, Completer.reports.contains(report) { return reportAnswer(report, words) }
        // `watch USD, `: codes; `unwatch `: the codes watched.
        if words.first == "watch" || words.first == "unwatch" {
            guard last == words.first || last == "," else { return .words([]) }
            if words.first == "unwatch" { return .words(watched.sorted()) }
            return .currencies(extra: [], except: watched + words.map { $0.uppercased() })
        }
        if words.first == "rates" && words.count > 1 { return ratesAnswer(words) }
        switch last {
        case "top" where previous == "by" || previous == ",":
            return .words(["category"])
        case "by" where previous == "order":
            if aggregate == "list" {
                return .words(["amount", "date", "book", "category", "party"] + (words.contains("native") ? ["currency"] : []))
            }
            return .words(["amount", "count"] + groupKeys(words))
        case "by" where aggregate == "list":
            // A listing is not grouped: only `order by`.
            return .words([])
        case "by":
            return .words(Completer.keys)
        case "where", "and", "or", "not":
            return .words(Completer.fields + (last == "not" ? [] : ["not"]))
        case "(":
            if let field = fieldBefore(words) { return values(field) }
            // `monthly(`: arguments, which are the user's; `party = (`: the missing value.
            if let p = previous, defined.contains(p) { return .words([]) }
            if let p = previous, Completer.comparisons.contains(p) { return .words(["none)"]) }
            return .words(Completer.fields + ["not"])
        case "show" where aggregate == "list":
            return .words(Completer.shownColumns)
        case "=", "!=", "~", "<", ">", "<=", ">=":
            if let field = words.dropLast().last, let f = Field(rawValue: field) { return values(f) }
            return .words([])
        case ",":
            // More names of an `in (…)` list: those not listed yet.
            if let field = fieldBefore(words), let open = words.lastIndex(of: "("), case .names(let names, let none) = values(field) {
                let listed = Set(words[open...])
                return .names(names.filter { !listed.contains($0.lowercased()) && !listed.contains(Completer.quotedIfNeeded($0).lowercased()) }, withNone: none)
            }
            if let field = fieldBefore(words), words.contains("(") { return values(field) }
            if aggregate == "list", let show = words.lastIndex(of: "show") {
                return .words(Completer.shownColumns.filter { !words[show...].contains($0) })
            }
            if words.contains("with") { return .words(["rate"]) }
            // Another key: none listed already, and no fifth (the binder refuses both).
            if words.contains("by") {
                let listed = groupKeys(words)
                return .words(listed.count >= Binder.maxGroupKeys ? [] : Completer.keys.filter { !listed.contains($0) })
            }
            return .words([])
        case "in":
            if let p = previous, Field(rawValue: p) != nil { return .words(["("]) }
            return .currencies(extra: aggregate == "rates" ? [] : ["native"])
        case "rate" where previous == "max": return .words(["age"])
        case "to", "rate", "/":
            // `convert 5 kg to `: units of the same kind.
            if last == "to", let p = previous, let unit = UnitConversion.unit(named: p), Currency(caseInsensitiveCode: p) == nil {
                return .words(UnitConversion.units.filter { $0.kind == unit.kind && $0 != unit }.map(\.symbol))
            }
            // `rate SGD/`: the other currency of the pair.
            return .currencies(extra: [], except: last == "/" ? [previous?.uppercased() ?? ""] : [])
        case "at":
            return .words(["market", "latest", "today"])
        case "since", "until", "before", "on", "during":
            return .words(Completer.dates)
        case "this": return .words(Completer.periodUnits)
        case "last" where previous == "period": return .words(["year"])
        case "last": return .words(Completer.periodUnits + ["30"])
        case "order": return .words(["by"])
        case "with":
            // A grouped sum or count may also take a share or a running total.
            let grouped = (aggregate == "sum" || aggregate == "count") && words.contains("by")
            return .words(["rate"] + (grouped ? ["share", "running"] : []))
        case "running": return .words(["total"])
        case "per": return .words(Completer.keys.filter { !groupKeys(words).contains($0) })
        case "vs", "versus": return .words(["previous", "same", "booked", "at", "with"] + Completer.dates)
        case "previous", "same": return .words(["period"])
        case "period" where previous == "same": return .words(["last"])
        case "undefine": return .words(defined.sorted())
        case "set": return .words(["rate", "currency", "max"])
        case "unset": return .words(["rate", "max"])
        case "max" where previous == "set" || previous == "unset": return .words(["rate"])
        case "currency" where previous == "set": return .currencies(extra: [])
        case "explain": return .words(Array(Completer.statements.prefix(6)) + Completer.statements.filter { Completer.reports.contains($0) } + defined.sorted())
        case "rates": return .words(["status", "refresh", "import", "watched", "in", "where", "at"] + currencyCodes())
        case "asc", "desc": return .words(["top"])
        default:
            // `convert 100 `: a currency, or a unit of length, mass or temperature.
            if previous == "convert" { return .currencies(extra: UnitConversion.units.map(\.symbol)) }
            // `convert 100 SGD `: only `to` can come next.
            if words.count >= 3 && words[words.count - 3] == "convert" { return .words(["to"]) }
            if previous == "by" && words.dropLast(2).last == "order" { return .words(["desc", "asc", "top"]) }
            if words.count == 1, let a = Aggregate(rawValue: last) { return .words(Completer.subjects + Completer.clauses(listing: a == .list)) }
            // After a subject, a group key or a value: the clauses not yet used (a subject only
            // stands right after the aggregate); after a field or a closing parenthesis, what
            // compares or joins conditions (the parser keeps those that may stand there).
            return .words(Completer.connectives + Completer.remainingClauses(words, listing: aggregate == "list"))
        }
    }

    /// What may follow in `rates …` (not `rates`'s own first word, which `answer` offers):
    /// `rates [watched] [in CUR] [where currency …] [at DATE]`, `rates PAIR [since D]`,
    /// `rates refresh [CUR] [--force]`, `rates status`, `rates import FILE`.
    func ratesAnswer(_ words: [String]) -> Answer {
        let last = words.last ?? "rates"
        switch words[1] {
        case "status": return .words([])
        case "import": return .files
        case "refresh": return words.count == 2 ? .currencies(extra: ["--force"]) : .words(words.contains("--force") ? [] : ["--force"])
        default: break
        }
        switch last {
        case "in": return .currencies(extra: [])
        case "/": return .currencies(extra: [], except: [words.dropLast().last?.uppercased() ?? ""])
        case "where": return .words(["currency"])
        case "currency" where words.dropLast().last == "where": return .words(["=", "!=", "~"])
        case "at", "since": return .words(Completer.dates)
        default:
            // After a pair, only `since` (and after its date nothing); else the clauses not used yet.
            if words.contains("/") { return .words(words.contains("since") ? [] : ["since"]) }
            return .words(["in", "where", "at"].filter { !words.contains($0) })
        }
    }

    /// What may follow in `budget`, `balance`, `networth` or `holdings`.
    func reportAnswer(_ report: String, _ words: [String]) -> Answer {
        let last = words.last ?? report
        switch last {
        case "by" where report == "balance": return .words(["book"])
        case "by": return .words(["month", "quarter", "year"])
        case "in": return .currencies(extra: [])
        case "at", "since", "until", "before", "on", "during": return .words(Completer.dates)
        case "this": return .words(Completer.periodUnits)
        case "last": return .words(Completer.periodUnits + ["30"])
        default:
            let periods = ["since", "until", "during", "this", "last"]
            var next: [String]
            switch report {
            case "budget": next = ["in"] + periods
            case "networth": next = words.contains("by") ? ["in"] + periods : ["by", "in", "at"]
            case "balance": next = ["by", "in", "at"]
            default: next = ["in", "at"]
            }
            return .words(next.filter { !words.contains($0) || periods.contains($0) })
        }
    }

    /// The clauses of a query: a listing takes no `by`, `per` or `vs`, and only it takes `show`.
    static func clauses(listing: Bool) -> [String] {
        clauses.filter { listing ? !["by", "per", "vs"].contains($0) : $0 != "show" }
    }

    /// Clauses that may still come: each of `in`, `by`, `where`, `at`, `with`, `order`, `top`
    /// once (an `in (` of a condition is no currency clause); periods any number of times.
    static func remainingClauses(_ words: [String], listing: Bool = false) -> [String] {
        let once: Set = ["in", "by", "per", "where", "at", "with", "order", "top", "vs"]
        var used = Set<String>()
        for (i, w) in words.enumerated() where once.contains(w) {
            if w == "in", i + 1 < words.count, words[i + 1] == "(" { continue }
            if w == "by", i > 0, words[i - 1] == "order" { continue }
            used.insert(w)
        }
        return clauses(listing: listing).filter { !used.contains($0) }
    }

    /// The group keys after `by` (those a result can be ordered by).
    func groupKeys(_ words: [String]) -> [String] {
        guard let by = words.firstIndex(of: "by") else { return [] }
        var keys: [String] = []
        for w in words[(by + 1)...] {
            if w == "," { continue }
            guard Completer.keys.contains(w) else { break }
            keys.append(w)
        }
        return keys
    }

    /// Lowercased words and symbols of `text`, as the lexer reads them; a quoted string is one word.
    static func tokens(_ text: String) -> [String] {
        let lexer = Lexer(text)
        return lexer.partialTokens().tokens.filter { $0.kind != .end }.map { lexer.text($0).lowercased() }
    }

    /// A name inside double quotes: `"` and `\` escaped, line breaks and tabs as `\n`, `\t`.
    static func doubleQuotedBody(_ name: String) -> String {
        var out = ""
        for ch in name {
            switch ch {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default: out.append(ch)
            }
        }
        return out
    }

    /// The quote of a path still open at the end of `bytes` (from `from`): `"…` (with `\"` and
    /// `\\`) or `'…`; outside quotes a backslash keeps the next character, as DotCommand reads it.
    static func openPathQuote(_ bytes: [UInt8], from: Int) -> Int? {
        var open: Int?
        var i = from
        while i < bytes.count {
            let b = bytes[i]
            if let o = open {
                if b == UInt8(ascii: "\\") && bytes[o] == UInt8(ascii: "\"") { i += 2; continue }
                if b == bytes[o] { open = nil }
            } else if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                open = i
            } else if b == UInt8(ascii: "\\") {
                i += 2
                continue
            }
            i += 1
        }
        return open
    }

    /// Break characters that make libedit's word begin just after the quote at `quote`. libedit
    /// looks past a quote right before the cursor, so the character before the quote ends the
    /// word too (when it is not in the word, as it never is when the word is empty).
    static func quoteBreaks(_ bytes: [UInt8], quote: Int) -> String {
        var breaks = String(UnicodeScalar(bytes[quote]))
        if quote + 1 == bytes.count && quote > 0 && bytes[quote - 1] < 0x80 {
            breaks.append(Character(UnicodeScalar(bytes[quote - 1])))
        }
        return breaks
    }

    /// `\"` → `"`, `\\` → `\`, `\ ` → ` `.
    static func unescaped(_ s: String) -> String {
        var out = ""
        var escaped = false
        for ch in s {
            if escaped { out.append(ch); escaped = false } else if ch == "\\" { escaped = true } else { out.append(ch) }
        }
        return out
    }

    /// The field of an `in (…)` list being typed: the word before `in` or `not in`.
    func fieldBefore(_ words: ArraySlice<String>) -> Field? {
        guard let open = words.lastIndex(of: "("), !words[open...].contains(")"), open >= words.startIndex + 2 else { return nil }
        var i = open - 1
        guard words[i] == "in" else { return nil }
        i -= 1
        if words[i] == "not" && i > words.startIndex { i -= 1 }
        return Field(rawValue: words[i])
    }

    func fieldBefore(_ words: [String]) -> Field? { fieldBefore(words[...]) }

    func currencyCodes() -> [String] {
        let own = ledger.entries.currencies.map(\.code)
        return own + Currency.all.map(\.code).filter { !own.contains($0) }
    }

    /// Currency codes for `prefix`: the ledger's own when any fits (six, not 181), else every ISO code.
    func currencies(prefix: String, extra: [String]) -> [String] {
        let own = Completer.filter(ledger.entries.currencies.map(\.code) + extra, prefix: prefix)
        return own.isEmpty ? Completer.filter(currencyCodes(), prefix: prefix) : own
    }

    /// The ledger's names for a field.
    func values(_ field: Field) -> Answer {
        let store = ledger.entries
        switch field {
        case .category: return .names(store.categories, withNone: false)
        case .book: return .names(ledger.books.map(\.name), withNone: false)
        case .party: return .names(Array(store.parties.dropFirst()), withNone: true)
        case .payment: return .names(Array(store.payments.dropFirst()), withNone: true)
        case .tag: return .names(store.tags, withNone: true)
        case .currency: return .currencies(extra: [])
        case .date: return .words(Completer.dates)
        case .amount, .remarks: return .words([])
        }
    }

    static func quotedIfNeeded(_ name: String) -> String {
        let plain = name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == "." }
        let keyword = Keywords.all.contains(name.lowercased())
        return plain && !keyword && !name.isEmpty ? name : "\"" + doubleQuotedBody(name) + "\""
    }

    /// The candidates among `words` for what was typed: matching as typed first (libedit inserts
    /// their common prefix letter for letter), else in any case. A quoted name also matches its
    /// unquoted beginning (`Foo` → `"Food & Dining"`).
    static func filter(_ words: [String], prefix: String) -> [String] {
        var seen = Set<String>()
        let unique = words.filter { seen.insert($0).inserted }
        func key(_ c: String) -> String { c.hasPrefix("\"") && !prefix.hasPrefix("\"") ? String(c.dropFirst()) : c }
        let exact = unique.filter { key($0).hasPrefix(prefix) }
        if !exact.isEmpty { return exact }
        let lower = prefix.lowercased()
        return unique.filter { key($0).lowercased().hasPrefix(lower) }
    }
}
