// The lexer: statement text → tokens.
//
// A token is a kind and a byte range into the statement's UTF-8, never a copied
// string, so the parser can point a caret at the exact place of an error.
// Words are case-insensitive keywords or bare names; date-shaped text
// (`2025`, `2025-10`, `2025-10-05`, `2025-Q4`, `2025-W41`) is one token so that it
// never reads as a subtraction. `#` and `--` start a comment that runs to the end
// of the line; `;` separates statements.
//
// Strings come in double quotes, with `\"`, `\\`, `\n` and `\t` as escapes (any
// other backslash is an error, so a typo never silently drops a character), or in
// single quotes as SQL writes them (`'Rent'`, `''` for a quote inside, no other
// escapes). A single quote glued to a word is an apostrophe (`Domino's`).

public enum TokenKind: Equatable, Sendable {
    case word          // keyword or bare name: sum, expenses, INR, Food
    case number        // 100, 55.25, -3, 1_000
    case date          // 2025-10-05, 2025-10, 2025-Q4, 2025-W41 (a plain year lexes as a number)
    case string        // "Food & Dining" or 'Food & Dining' (range includes the quotes)
    case symbol        // , ( ) = != <> < <= > >= ~ / * ;
    case parameter     // $month: a placeholder in the body of `define`
    case end
}

public struct Token: Equatable, Sendable {
    public var kind: TokenKind
    /// Byte offsets into the statement's UTF-8.
    public var range: Range<Int>
}

public struct Lexer {
    public let source: String
    let bytes: [UInt8]

    public init(_ source: String) {
        self.source = source
        self.bytes = Array(source.utf8)
    }

    public func text(_ t: Token) -> String {
        String(decoding: bytes[t.range], as: UTF8.self)
    }

    /// Tokens in a row as one name, spelled as typed from the first to the last. Only a gap
    /// holding a line break (a continued line) becomes a single space.
    public func spelling(_ run: ArraySlice<Token>) -> String {
        guard let first = run.first else { return "" }
        var out: [UInt8] = []
        var at = first.range.lowerBound
        for t in run {
            let gap = bytes[at..<t.range.lowerBound]
            if gap.contains(0x0A) { out.append(0x20) } else { out += gap }
            out += bytes[t.range]
            at = t.range.upperBound
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The value of a string token: quotes removed, escapes replaced (the lexer has checked them).
    public func stringValue(_ t: Token) -> String {
        var out: [UInt8] = []
        let quote = bytes[t.range.lowerBound]
        var i = t.range.lowerBound + 1
        let end = t.range.upperBound - 1
        while i < end {
            if quote == Lexer.doubleQuote, bytes[i] == Lexer.backslash, i + 1 < end {
                out.append(Lexer.escaped(bytes[i + 1]) ?? bytes[i + 1])
                i += 2
                continue
            }
            if quote == Lexer.singleQuote, bytes[i] == Lexer.singleQuote { i += 1 }   // '' stands for one '
            out.append(bytes[i])
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    static let doubleQuote = UInt8(ascii: "\""), singleQuote = UInt8(ascii: "'"), backslash = UInt8(ascii: "\\")

    /// The byte an escape `\c` stands for in a double-quoted string; nil for an unknown escape.
    static func escaped(_ c: UInt8) -> UInt8? {
        switch c {
        case doubleQuote, backslash: return c
        case UInt8(ascii: "n"): return 0x0A
        case UInt8(ascii: "t"): return 0x09
        default: return nil
        }
    }

    static func isDigit(_ b: UInt8) -> Bool { b >= 48 && b <= 57 }
    static func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= 97 && (b | 0x20) <= 122 }

    /// Bytes that make up a bare word (any non-ASCII byte too, so names in any script are words).
    static func isWordByte(_ b: UInt8) -> Bool {
        isLetter(b) || isDigit(b) || b == UInt8(ascii: "_") || b == UInt8(ascii: "&")
            || b == singleQuote || b == UInt8(ascii: ".") || b >= 0x80
    }

    /// True when a `'` at `i` opens a string: it is not glued to a word before it (`Domino's`).
    static func opensSingleQuotedString(_ bytes: [UInt8], at i: Int) -> Bool {
        bytes[i] == singleQuote && (i == 0 || !isWordByte(bytes[i - 1]))
    }

    public func tokenize() throws(QueryError) -> [Token] {
        try scan(partial: false).tokens
    }

    /// The tokens of a statement still being typed (for completion): nothing is an error, and
    /// a string left open at the end is reported by the offset of its opening quote.
    public func partialTokens() -> (tokens: [Token], openQuote: Int?) {
        do throws(QueryError) {
            return try scan(partial: true)
        } catch {
            return ([], nil)
        }
    }

    /// The tokens; with `partial`, an unknown escape or character is stepped over and an
    /// unterminated string ends the scan as `openQuote` instead of failing.
    private func scan(partial: Bool) throws(QueryError) -> (tokens: [Token], openQuote: Int?) {
        var tokens: [Token] = []
        var i = 0
        let n = bytes.count
        let isDigit = Lexer.isDigit, isWordByte = Lexer.isWordByte
        while i < n {
            let b = bytes[i]
            if b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D { i += 1; continue }
            // A line continuation (`\` before the line's end) is only a space.
            if b == Lexer.backslash, let next = Lexer.continuationEnd(after: i + 1, in: bytes) { i = next; continue }
            if Lexer.isOption(bytes, at: i) {
                // `--force` (of `rates refresh`) is a word; any other `--` starts a comment.
                tokens.append(Token(kind: .word, range: i..<(i + 7)))
                i += 7
                continue
            }
            if Lexer.commentStarts(bytes, at: i) {
                while i < n && bytes[i] != 0x0A { i += 1 }
                continue
            }
            let start = i
            if b == Lexer.doubleQuote || Lexer.opensSingleQuotedString(bytes, at: i) {
                guard let end = try stringEnd(from: start, lenient: partial) else { return (tokens, start) }
                i = end
                tokens.append(Token(kind: .string, range: start..<i))
                continue
            }
            if isDigit(b) || (b == UInt8(ascii: "-") && i + 1 < n && isDigit(bytes[i + 1]) && !(tokens.last.map(isOperand) ?? false)) {
                if let end = dateEnd(from: i) {
                    tokens.append(Token(kind: .date, range: i..<end))
                    i = end
                    continue
                }
                i += 1
                // `_` groups digits (`1_000`); it must stand between two digits.
                while i < n && (isDigit(bytes[i]) || bytes[i] == UInt8(ascii: ".")
                                || (bytes[i] == UInt8(ascii: "_") && isDigit(bytes[i - 1]) && i + 1 < n && isDigit(bytes[i + 1]))) { i += 1 }
                // A number glued to letters by a hyphen is a name (`7-Eleven`); glued straight to
                // letters (`100SGD`) it stays a number and a word.
                if i + 1 < n, bytes[i] == UInt8(ascii: "-"), Lexer.isLetter(bytes[i + 1]), b != UInt8(ascii: "-") {
                    i = wordEnd(from: i + 1)
                    tokens.append(Token(kind: .word, range: start..<i))
                    continue
                }
                // An exponent (`1e3`) stays with its number, so the parser can say numbers are written out.
                if i + 1 < n, bytes[i] | 0x20 == UInt8(ascii: "e") {
                    var k = i + 1
                    if k < n, bytes[k] == UInt8(ascii: "+") || bytes[k] == UInt8(ascii: "-") { k += 1 }
                    if k < n, isDigit(bytes[k]) {
                        while k < n && isDigit(bytes[k]) { k += 1 }
                        if k == n || !isWordByte(bytes[k]) { i = k }
                    }
                }
                tokens.append(Token(kind: .number, range: start..<i))
                continue
            }
            if isWordByte(b) {
                i = wordEnd(from: i)
                tokens.append(Token(kind: .word, range: start..<i))
                continue
            }
            // `$name`: the placeholder of a defined statement's argument.
            if b == UInt8(ascii: "$"), i + 1 < n, Lexer.isLetter(bytes[i + 1]) {
                i += 1
                while i < n && (Lexer.isLetter(bytes[i]) || isDigit(bytes[i]) || bytes[i] == UInt8(ascii: "_")) { i += 1 }
                tokens.append(Token(kind: .parameter, range: start..<i))
                continue
            }
            let two = i + 1 < n ? [b, bytes[i + 1]] : [b]
            if two == Array("!=".utf8) || two == Array("<=".utf8) || two == Array(">=".utf8) || two == Array("<>".utf8) {
                tokens.append(Token(kind: .symbol, range: i..<(i + 2)))
                i += 2
                continue
            }
            switch b {
            case UInt8(ascii: ","), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "="), UInt8(ascii: "<"),
                 UInt8(ascii: ">"), UInt8(ascii: "~"), UInt8(ascii: "/"), UInt8(ascii: "*"), UInt8(ascii: ";"):
                tokens.append(Token(kind: .symbol, range: i..<(i + 1)))
                i += 1
            default:
                // Step over a whole UTF-8 character for the caret.
                var end = i + 1
                while end < n && bytes[end] & 0xC0 == 0x80 { end += 1 }
                guard partial else { throw QueryError(.unexpectedCharacter(String(decoding: bytes[i..<end], as: UTF8.self)), at: i..<end) }
                i = end
            }
        }
        tokens.append(Token(kind: .end, range: n..<n))
        return (tokens, nil)
    }

    /// The end of a bare word starting at `i`.
    private func wordEnd(from i: Int) -> Int {
        let n = bytes.count, start = i
        var i = i
        // A hyphen between letters or digits stays in the word (`client-brightline`, `e-00042`).
        while i < n && (Lexer.isWordByte(bytes[i])
                        || (bytes[i] == UInt8(ascii: "-") && i + 1 < n && Lexer.isWordByte(bytes[i + 1]) && bytes[i + 1] != UInt8(ascii: "-"))) { i += 1 }
        // A trailing '.' or '\'' belongs to the sentence, not the word.
        while i > start + 1 && (bytes[i - 1] == UInt8(ascii: ".") || bytes[i - 1] == Lexer.singleQuote) { i -= 1 }
        return i
    }

    /// The string token at `start`: its end, checked strictly (an unknown escape or a missing
    /// closing quote is an error) unless `lenient`, when an unterminated string is nil.
    private func stringEnd(from start: Int, lenient: Bool) throws(QueryError) -> Int? {
        let (end, closed) = Lexer.stringEnd(bytes, from: start)
        if lenient { return closed ? end : nil }
        if bytes[start] == Lexer.doubleQuote {
            var i = start + 1
            while i < end - 1 {
                if bytes[i] == Lexer.backslash {
                    guard Lexer.escaped(bytes[i + 1]) != nil else {
                        var e = i + 2
                        while e < bytes.count && bytes[e] & 0xC0 == 0x80 { e += 1 }
                        throw QueryError(.unknownEscape(String(decoding: bytes[i..<e], as: UTF8.self)), at: i..<e)
                    }
                    i += 1
                }
                i += 1
            }
        }
        guard closed else { throw QueryError(.unterminatedString(quote: bytes[start] == Lexer.doubleQuote ? "\"" : "'"), at: start..<end) }
        return end
    }

    // MARK: Lexical rules shared with the statement splitter and completion

    /// The string that opens at `start` (a `"` or a `'` that opens one): the index after its
    /// closing quote, or, unterminated, the end of the text (`"…`) or of the line (`'…`: a
    /// single-quoted string never spans lines). Backslash escapes are stepped over in double
    /// quotes whatever they are; `''` stands for a quote in single quotes.
    public static func stringEnd(_ bytes: [UInt8], from start: Int) -> (end: Int, closed: Bool) {
        let n = bytes.count
        let quote = bytes[start]
        var i = start + 1
        while i < n {
            let b = bytes[i]
            if quote == doubleQuote {
                if b == backslash { i += 2; continue }
                if b == doubleQuote { return (i + 1, true) }
            } else {
                if b == 0x0A { return (i, false) }
                if b == singleQuote {
                    if i + 1 < n && bytes[i + 1] == singleQuote { i += 2; continue }
                    return (i + 1, true)
                }
            }
            i += 1
        }
        return (n, false)
    }

    /// True when a comment starts at `i`: `#`, or `--` that is not the option `--force`.
    public static func commentStarts(_ bytes: [UInt8], at i: Int) -> Bool {
        bytes[i] == UInt8(ascii: "#")
            || (bytes[i] == UInt8(ascii: "-") && i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "-") && !isOption(bytes, at: i))
    }

    /// After a `\` at `i - 1`: the index past the blanks and line break that make it a line
    /// continuation (the text's end counts as a line break), or nil when something else follows.
    public static func continuationEnd(after i: Int, in bytes: [UInt8]) -> Int? {
        var k = i
        while k < bytes.count && (bytes[k] == 0x20 || bytes[k] == 0x09 || bytes[k] == 0x0D) { k += 1 }
        if k == bytes.count { return k }
        return bytes[k] == 0x0A ? k + 1 : nil
    }

    /// True at `--force` followed by the end or a space: the one option a statement takes.
    static func isOption(_ bytes: [UInt8], at i: Int) -> Bool {
        let word = Array("--force".utf8)
        guard i + word.count <= bytes.count, Array(bytes[i..<(i + word.count)]).map({ $0 | 0x20 }) == word.map({ $0 | 0x20 }) else { return false }
        let end = i + word.count
        return end == bytes.count || bytes[end] == 0x20 || bytes[end] == 0x09 || bytes[end] == 0x0A || bytes[end] == UInt8(ascii: ";")
    }

    /// A token after which `-` is a minus sign, not a sign of a number.
    private func isOperand(_ t: Token) -> Bool {
        t.kind == .number || (t.kind == .symbol && bytes[t.range.lowerBound] == UInt8(ascii: ")"))
    }

    /// End of a date-shaped token starting at `i`: YYYY-MM[-DD], YYYY-Qn, YYYY-Wnn. Text that
    /// starts like a date and runs on (`2025-10-0`, `2025-1-5`) is one token too, so the parser
    /// can say that it is not a date rather than stumble on its tail.
    private func dateEnd(from i: Int) -> Int? {
        let n = bytes.count
        func digit(_ k: Int) -> Bool { k < n && Lexer.isDigit(bytes[k]) }
        guard digit(i), digit(i + 1), digit(i + 2), digit(i + 3), i + 5 < n, bytes[i + 4] == UInt8(ascii: "-"),
              Lexer.isDigit(bytes[i + 5]) || Lexer.isLetter(bytes[i + 5]) else { return nil }
        var end = i + 5
        while end < n && (Lexer.isDigit(bytes[end]) || Lexer.isLetter(bytes[end])
                          || (bytes[end] == UInt8(ascii: "-") && end + 1 < n && Lexer.isDigit(bytes[end + 1]))) { end += 1 }
        return end
    }
}
