// The lexer: statement text → tokens.
//
// A token is a kind and a byte range into the statement's UTF-8, never a copied
// string, so the parser can point a caret at the exact place of an error.
// Words are case-insensitive keywords or bare names; date-shaped text
// (`2025`, `2025-10`, `2025-10-05`, `2025-Q4`, `2025-W41`) is one token so that it
// never reads as a subtraction. `#` and `--` start a comment that runs to the end
// of the line; `;` separates statements.

public enum TokenKind: Equatable, Sendable {
    case word          // keyword or bare name: sum, expenses, INR, Food
    case number        // 100, 55.25, -3
    case date          // 2025-10-05, 2025-10, 2025-Q4, 2025-W41 (a plain year lexes as a number)
    case string        // "Food & Dining" (range includes the quotes)
    case symbol        // , ( ) = != < <= > >= ~ / * ;
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

    /// The value of a string token: quotes removed, `\"` and `\\` unescaped.
    public func stringValue(_ t: Token) -> String {
        var out: [UInt8] = []
        var i = t.range.lowerBound + 1
        let end = t.range.upperBound - 1
        while i < end {
            if bytes[i] == UInt8(ascii: "\\") && i + 1 < end { out.append(bytes[i + 1]); i += 2; continue }
            out.append(bytes[i]); i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    public func tokenize() throws(QueryError) -> [Token] {
        var tokens: [Token] = []
        var i = 0
        let n = bytes.count
        func isDigit(_ b: UInt8) -> Bool { b >= 48 && b <= 57 }
        func isWordByte(_ b: UInt8) -> Bool {
            (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || isDigit(b) || b == UInt8(ascii: "_") || b == UInt8(ascii: "&")
                || b == UInt8(ascii: "'") || b == UInt8(ascii: ".") || b >= 0x80
        }
        while i < n {
            let b = bytes[i]
            if b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D { i += 1; continue }
            if Lexer.isOption(bytes, at: i) {
                // `--force` (of `rates refresh`) is a word; any other `--` starts a comment.
                tokens.append(Token(kind: .word, range: i..<(i + 7)))
                i += 7
                continue
            }
            if b == UInt8(ascii: "#") || (b == UInt8(ascii: "-") && i + 1 < n && bytes[i + 1] == UInt8(ascii: "-")) {
                while i < n && bytes[i] != 0x0A { i += 1 }
                continue
            }
            let start = i
            if b == UInt8(ascii: "\"") {
                i += 1
                while i < n && bytes[i] != UInt8(ascii: "\"") {
                    if bytes[i] == UInt8(ascii: "\\") { i += 1 }
                    i += 1
                }
                guard i < n else { throw QueryError(.unterminatedString, at: start..<n) }
                i += 1
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
                while i < n && (isDigit(bytes[i]) || bytes[i] == UInt8(ascii: ".") || bytes[i] == UInt8(ascii: "_")) { i += 1 }
                // A number glued to letters (`100SGD`) is two tokens; letters glued to digits stay a word.
                tokens.append(Token(kind: .number, range: start..<i))
                continue
            }
            if isWordByte(b) {
                // A hyphen between letters or digits stays in the word (`client-brightline`, `e-00042`).
                while i < n && (isWordByte(bytes[i]) || (bytes[i] == UInt8(ascii: "-") && i + 1 < n && isWordByte(bytes[i + 1]) && bytes[i + 1] != UInt8(ascii: "-"))) { i += 1 }
                // A trailing '.' or '\'' belongs to the sentence, not the word.
                var end = i
                while end > start + 1 && (bytes[end - 1] == UInt8(ascii: ".") || bytes[end - 1] == UInt8(ascii: "'")) { end -= 1 }
                i = end
                tokens.append(Token(kind: .word, range: start..<end))
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
                throw QueryError(.unexpectedCharacter(String(decoding: bytes[i..<end], as: UTF8.self)), at: i..<end)
            }
        }
        tokens.append(Token(kind: .end, range: n..<n))
        return tokens
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

    /// End of a date-shaped token starting at `i`: YYYY-MM[-DD], YYYY-Qn, YYYY-Wnn.
    private func dateEnd(from i: Int) -> Int? {
        let n = bytes.count
        func digit(_ k: Int) -> Bool { k < n && bytes[k] >= 48 && bytes[k] <= 57 }
        func boundary(_ k: Int) -> Bool {
            k >= n || !(digit(k) || (bytes[k] | 0x20 >= 97 && bytes[k] | 0x20 <= 122))
        }
        guard digit(i), digit(i + 1), digit(i + 2), digit(i + 3), i + 4 < n, bytes[i + 4] == UInt8(ascii: "-") else { return nil }
        let k = i + 5
        guard k < n else { return nil }
        if bytes[k] | 0x20 == UInt8(ascii: "q") && digit(k + 1) && boundary(k + 2) { return k + 2 }
        if bytes[k] | 0x20 == UInt8(ascii: "w") && digit(k + 1) && digit(k + 2) && boundary(k + 3) { return k + 3 }
        guard digit(k), digit(k + 1) else { return nil }
        if k + 2 < n && bytes[k + 2] == UInt8(ascii: "-") && digit(k + 3) && digit(k + 4) && boundary(k + 5) { return k + 5 }
        return boundary(k + 2) ? k + 2 : nil
    }
}
