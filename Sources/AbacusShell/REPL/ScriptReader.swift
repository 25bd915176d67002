// Reading a script, or the lines a person types, into the pieces the shell runs.
//
// A line that begins with `.` where a statement could begin is a dot command: one
// line, taken whole (its words are read by `DotCommand`), never split at `;` and
// never cut short by `#` or `--` inside a word, so `.load my--ledger.json` loads
// that file. Everything else is statements, split by the query language's
// `StatementSplitter`. Each piece remembers the lines it came from, so an error
// inside a statement is reported at its own line and column of the file, with the
// file's real line under the caret (`SourceSpan.place`).

import AbacusQuery
import Foundation

/// One thing to run: a dot command or a statement, and where it came from.
struct ScriptPiece {
    enum Kind: Equatable { case command, statement }
    var kind: Kind
    /// The command line, or the statement's text as the splitter gives it (comments dropped).
    var text: String
    var source: SourceSpan
}

/// Lines in, pieces out. Feed it line by line (the REPL) or give it a whole script.
struct StatementReader {
    /// The lines of a statement still open (a parenthesis, a quote or a trailing `\`).
    private var pending: [String] = []
    private var pendingFirstLine = 1
    /// Lines read so far (1-based number of the last one).
    private(set) var lineNumber = 0

    /// True while a statement runs on over more lines.
    var isContinuing: Bool { !pending.isEmpty }

    /// The pieces of a whole script. A UTF-8 byte order mark at its start is not part of it.
    static func pieces(of script: String) -> [ScriptPiece] {
        var text = Substring(script)
        if text.unicodeScalars.first == "\u{FEFF}" { text = Substring(text.unicodeScalars.dropFirst()) }
        var reader = StatementReader()
        var out: [ScriptPiece] = []
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        // The newline that ends the last line does not begin another.
        if lines.last?.isEmpty == true { lines.removeLast() }
        for line in lines { out += reader.read(line: String(line)) }
        return out + reader.finish()
    }

    /// The pieces completed by this line; none while a statement continues.
    mutating func read(line raw: String) -> [ScriptPiece] {
        lineNumber += 1
        // CRLF scripts: the CR is line ending, not text.
        let line = raw.hasSuffix("\r") ? String(raw.dropLast()) : raw
        if pending.isEmpty {
            let indent = line.prefix { $0 == " " || $0 == "\t" }
            if line.dropFirst(indent.count).hasPrefix(".") {
                let text = line.trimmingCharacters(in: .whitespaces)
                let span = SourceSpan(lines: [line], firstLine: lineNumber, startLine: 1, startColumn: indent.count + 1)
                return [ScriptPiece(kind: .command, text: text, source: span)]
            }
            pendingFirstLine = lineNumber
        }
        pending.append(line)
        if StatementSplitter.needsContinuation(pending.joined(separator: "\n")) { return [] }
        return finish()
    }

    /// Whatever is pending, as pieces (an unclosed statement runs, to report its error).
    mutating func finish() -> [ScriptPiece] {
        guard !pending.isEmpty else { return [] }
        let lines = pending
        pending = []
        return StatementSplitter.split(lines.joined(separator: "\n")).map { s in
            let span = SourceSpan(lines: lines, firstLine: pendingFirstLine, startLine: s.line, startColumn: s.column)
            // `count entries; .format csv`: a dot command after a `;` is still a command.
            return ScriptPiece(kind: s.text.hasPrefix(".") ? .command : .statement, text: s.text, source: span)
        }
    }

    /// Forgets a statement being typed (Ctrl-C).
    mutating func abandon() { pending = [] }
}

/// The lines a piece came from, and where in them it begins.
struct SourceSpan {
    /// The lines (without their line endings).
    var lines: [String]
    /// The script line number of `lines[0]`.
    var firstLine: Int
    /// 1-based line (within `lines`) and column (in Unicode scalars) where the piece begins.
    var startLine: Int
    var startColumn: Int

    /// Where a piece begins: `file:LINE:COL`.
    var start: (line: Int, column: Int) { (firstLine + startLine - 1, startColumn) }

    /// A place in the script: its line and column, the line's text and the byte offset in it.
    struct Place {
        var line: Int
        var column: Int
        var text: String
        var offset: Int
    }

    /// Where byte `offset` of the statement `statement` lies in the script.
    ///
    /// The splitter gives a statement's text with comments dropped and each `\`-newline
    /// turned into one space; otherwise the text is the script's bytes in order. So the
    /// text is walked against the script from the statement's start: equal bytes advance
    /// both, a `\` that ends a line stands for the space, and any other script byte (a
    /// comment) is skipped.
    func place(ofByte offset: Int, in statement: String) -> Place {
        let source = Array(lines.joined(separator: "\n").utf8)
        let text = Array(statement.utf8)
        var i = startByte(in: source)
        var j = 0
        let target = min(offset, text.count)
        while j < target && i < source.count {
            if source[i] == text[j] {
                i += 1; j += 1
            } else if source[i] == UInt8(ascii: "\\"), text[j] == 0x20, let next = SourceSpan.lineBreak(after: i, in: source) {
                i = next; j += 1
            } else {
                i += 1
            }
        }
        // A comment between the previous character and this one is not where this one is.
        if j == target && j < text.count {
            while i < source.count && source[i] != text[j] && source[i] != UInt8(ascii: "\\") { i += 1 }
        }
        var lineStart = i
        while lineStart > 0 && source[lineStart - 1] != 0x0A { lineStart -= 1 }
        var lineEnd = i
        while lineEnd < source.count && source[lineEnd] != 0x0A { lineEnd += 1 }
        let lineIndex = source[0..<lineStart].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        let column = 1 + source[lineStart..<i].reduce(0) { $0 + ($1 & 0xC0 != 0x80 ? 1 : 0) }
        return Place(line: firstLine + lineIndex, column: column,
                     text: String(decoding: source[lineStart..<lineEnd], as: UTF8.self), offset: i - lineStart)
    }

    /// The byte where the piece begins.
    private func startByte(in source: [UInt8]) -> Int {
        var i = 0
        var line = 1
        while line < startLine && i < source.count {
            if source[i] == 0x0A { line += 1 }
            i += 1
        }
        var column = 1
        while column < startColumn && i < source.count && source[i] != 0x0A {
            i += 1
            while i < source.count && source[i] & 0xC0 == 0x80 { i += 1 }
            column += 1
        }
        return i
    }

    /// The index after the newline, when the `\` at `i` ends its line (blanks may follow it).
    private static func lineBreak(after i: Int, in source: [UInt8]) -> Int? {
        // The end of the script is no line break here: the text holds no space for it.
        guard let end = Lexer.continuationEnd(after: i + 1, in: source), end > 0, source[end - 1] == 0x0A else { return nil }
        return end
    }
}
