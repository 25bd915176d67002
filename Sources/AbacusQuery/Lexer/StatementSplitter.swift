// Splitting a script (or a REPL's lines) into statements.
//
// One statement per line; a line ending in `\` (blanks may follow it), or with an
// open parenthesis or double quote, continues on the next; `;` separates
// statements on one line; `#` and `--` start comments (outside quotes). A
// single-quoted string ends at its line's end. Each statement's text is the script's
// own text from its first character with comments left out and each continuation
// (`\`, blanks, line break) as one space; other line breaks stay, so a string
// continued over lines keeps its newline. A byte-order mark at the start of a script
// is skipped.

public struct ScriptStatement: Sendable, Equatable {
    public var text: String
    /// 1-based line and column of the statement's first character in the script.
    public var line: Int
    public var column: Int
}

public enum StatementSplitter {
    /// True when `text` is an unfinished statement (the REPL shows its continuation prompt).
    public static func needsContinuation(_ text: String) -> Bool {
        scan(text).open
    }

    /// Statements typed over several lines as one line (for history): a line break becomes a
    /// space, except inside a double-quoted string, where it becomes `\n` (the same string).
    public static func joinedLines(_ text: String) -> String {
        split(text).map { statement in
            var out: [UInt8] = []
            let bytes = Array(statement.text.utf8)
            var i = 0
            while i < bytes.count {
                let b = bytes[i]
                if b == Lexer.doubleQuote || Lexer.opensSingleQuotedString(bytes, at: i) {
                    // A string as the lexer reads it; its line breaks are written as `\n`.
                    let (end, _) = Lexer.stringEnd(bytes, from: i)
                    for k in i..<end {
                        if bytes[k] == 0x0A { out += Array("\\n".utf8) } else if bytes[k] != 0x0D { out.append(bytes[k]) }
                    }
                    i = end
                    continue
                }
                if b == 0x0A || b == 0x0D {
                    while let last = out.last, last == 0x20 || last == 0x09 { out.removeLast() }
                    out.append(0x20)
                    i += 1
                    while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
                    continue
                }
                out.append(b)
                i += 1
            }
            return String(decoding: out, as: UTF8.self)
        }.joined(separator: "; ")
    }

    public static func split(_ script: String) -> [ScriptStatement] {
        scan(script).statements
    }

    private static func scan(_ script: String) -> (statements: [ScriptStatement], open: Bool) {
        var statements: [ScriptStatement] = []
        var current: [UInt8] = []
        var startLine = 1, startColumn = 1
        var line = 1, column = 1
        var depth = 0
        var openString = false       // a double-quoted string runs to the end
        var inComment = false
        var continued = false        // the last line ended in a continuation `\`
        let bytes = Array(script.utf8)
        // A byte-order mark some editors write is not part of the first statement.
        var i = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0

        func flush() {
            let text = String(decoding: current, as: UTF8.self).trimmingSpaces()
            if !text.isEmpty { statements.append(ScriptStatement(text: text, line: startLine, column: startColumn)) }
            current.removeAll()
        }
        func markStartIfEmpty() {
            if current.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
                current.removeAll()
                startLine = line; startColumn = column
            }
        }
        /// Moves past byte `i`, keeping it in the statement when `keep`.
        func step(keep: Bool) {
            let b = bytes[i]
            if keep { current.append(b) }
            if b == 0x0A { line += 1; column = 1 } else if b & 0xC0 != 0x80 { column += 1 }
            i += 1
        }

        while i < bytes.count {
            let b = bytes[i]
            if inComment {
                // A comment runs to the end of its line; a `\` in it continues nothing.
                if b != 0x0A { step(keep: false); continue }
                inComment = false
            }
            continued = false
            switch b {
            case _ where Lexer.commentStarts(bytes, at: i):
                inComment = true
            case Lexer.backslash where Lexer.continuationEnd(after: i + 1, in: bytes) != nil:
                // Line continuation: the backslash, any blanks after it and the line break become one space.
                guard let end = Lexer.continuationEnd(after: i + 1, in: bytes) else { break }
                current.append(0x20)
                while i < end { step(keep: false) }
                continued = true
                continue
            case UInt8(ascii: ";") where depth == 0:
                flush()
                step(keep: false)
                startLine = line; startColumn = column
                continue
            case 0x0A where depth == 0:
                flush()
                step(keep: false)
                startLine = line; startColumn = column
                continue
            case _ where b == Lexer.doubleQuote || Lexer.opensSingleQuotedString(bytes, at: i):
                // A string, read by the lexer's rule: kept whole, line breaks and all.
                markStartIfEmpty()
                let (end, closed) = Lexer.stringEnd(bytes, from: i)
                if !closed && b == Lexer.doubleQuote { openString = true }
                while i < end { step(keep: true) }
                continue
            default:
                if b != 0x20 && b != 0x09 && b != 0x0D && b != 0x0A { markStartIfEmpty() }
                if b == UInt8(ascii: "(") { depth += 1 }
                if b == UInt8(ascii: ")") && depth > 0 { depth -= 1 }
            }
            step(keep: !inComment)
        }
        let open = openString || depth > 0 || continued
        flush()
        return (statements, open)
    }
}

extension String {
    func trimmingSpaces() -> String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" || f == "\n" || f == "\r" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\n" || l == "\r" { s.removeLast() }
        return String(s)
    }
}
