// Splitting a script (or a REPL's lines) into statements.
//
// One statement per line; a line ending in `\`, or with an open parenthesis or
// double quote, continues on the next; `;` separates statements on one line;
// `#` and `--` start comments (outside quotes). Each statement keeps the line and
// column where it starts, so errors can say `script.abq:12:5`.

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

    /// A statement typed over several lines as one line: a `\` line break becomes a space, and
    /// so does a newline inside parentheses (where it was only whitespace).
    public static func joinedLines(_ text: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for i in lines.indices where lines[i].hasSuffix("\\") { lines[i].removeLast() }
        return lines.map { $0.trimmingSpaces() }.filter { !$0.isEmpty }.joined(separator: " ")
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
        var inString = false
        var inComment = false
        let bytes = Array(script.utf8)
        var i = 0

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

        while i < bytes.count {
            let b = bytes[i]
            if inComment {
                if b == 0x0A { inComment = false } else { i += 1; column += 1; continue }
            }
            if inString {
                current.append(b)
                if b == UInt8(ascii: "\\") && i + 1 < bytes.count { current.append(bytes[i + 1]); i += 1; column += 1 }
                else if b == UInt8(ascii: "\"") { inString = false }
                if b == 0x0A { line += 1; column = 1 } else if b & 0xC0 != 0x80 { column += 1 }
                i += 1
                continue
            }
            switch b {
            case UInt8(ascii: "#"):
                inComment = true
            case UInt8(ascii: "-") where i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "-") && !Lexer.isOption(bytes, at: i):
                inComment = true
            case UInt8(ascii: "\\") where i + 1 < bytes.count && (bytes[i + 1] == 0x0A || (bytes[i + 1] == 0x0D && i + 2 < bytes.count && bytes[i + 2] == 0x0A)):
                // Line continuation: the backslash and the newline become a space.
                current.append(0x20)
                i += bytes[i + 1] == 0x0D ? 3 : 2
                line += 1; column = 1
                continue
            case UInt8(ascii: ";") where depth == 0:
                flush()
                i += 1; column += 1
                startLine = line; startColumn = column
                continue
            case 0x0A:
                if depth == 0 {
                    flush()
                    i += 1; line += 1; column = 1
                    startLine = line; startColumn = column
                    continue
                }
                current.append(b)
            default:
                if b != 0x20 && b != 0x09 && b != 0x0D { markStartIfEmpty() }
                if b == UInt8(ascii: "\"") { inString = true }
                if b == UInt8(ascii: "(") { depth += 1 }
                if b == UInt8(ascii: ")") && depth > 0 { depth -= 1 }
                current.append(b)
            }
            if !inComment || b == 0x0A {
                if b == 0x0A { line += 1; column = 1 } else if b & 0xC0 != 0x80 { column += 1 }
            } else {
                column += 1
            }
            i += 1
        }
        let endsWithBackslash = script.hasSuffix("\\") || script.hasSuffix("\\\n")
        let open = inString || depth > 0 || endsWithBackslash
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
