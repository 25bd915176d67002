// Errors of the query language, as data.
//
// An error is a kind (with its facts) and the byte range it points at. The words
// a user reads are made in one place, `message`, and the caret picture in
// `Diagnostic.render`: the parser and executor only say what went wrong and where.

import AbacusCore

public struct QueryError: Error, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case unexpectedCharacter(String)
        case unterminatedString
        /// Found `found` where one of `expected` should stand; `suggestion` for a near miss.
        case expected([String], found: String, suggestion: String?)
        case unknownCurrency(String, suggestion: String?)
        case unknownName(field: String, value: String, suggestions: [String])
        case badDate(String)
        case missingRates([MissingRate], target: Currency)
        /// `convert` or `rate` for a pair nothing prices.
        case noRate(CurrencyPair)
        case tooManyGroupKeys(Int)
        case overflow
        case emptyStatement
        /// Stopped by the user (Ctrl-C).
        case cancelled
        case unsupported(String)
    }

    public var kind: Kind
    /// Byte range in the statement; nil when the error concerns the whole statement.
    public var range: Range<Int>?

    public init(_ kind: Kind, at range: Range<Int>?) {
        self.kind = kind
        self.range = range
    }

    /// The one-line message.
    public var message: String {
        switch kind {
        case .unexpectedCharacter(let c):
            return "unexpected character '\(c)'"
        case .unterminatedString:
            return "unterminated string: a closing \" is missing"
        case .expected(let options, let found, _):
            return "expected \(QueryError.list(options)), found \(found)"
        case .unknownCurrency(let code, _):
            return "unknown currency '\(code)': expected an ISO 4217 code such as INR, USD or EUR"
        case .unknownName(let field, let value, _):
            return "no \(field) is named \"\(value)\""
        case .badDate(let text):
            return "'\(text)' is not a date: expected YYYY, YYYY-MM, YYYY-MM-DD, YYYY-Qn, today, this month, …"
        case .missingRates(let missing, let target):
            let total = missing.reduce(0) { $0 + $1.entries }
            var lines = ["no exchange rate to convert \(total) \(total == 1 ? "entry" : "entries") into \(target.code):"]
            for m in missing {
                lines.append("  \(m.pair): \(m.entries) \(m.entries == 1 ? "entry" : "entries")")
            }
            if let m = missing.first {
                lines.append("supply one with `set rate \(m.pair) = …` for this session, or `with rate \(m.pair) = …` in the query")
            }
            return lines.joined(separator: "\n")
        case .noRate(let pair):
            return "no exchange rate for \(pair): no custom or market rate prices it, directly or through one other currency\n"
                + "supply one with `set rate \(pair) = …` for this session, or `with rate \(pair) = …` in the statement"
        case .tooManyGroupKeys(let n):
            return "\(n) group keys: at most 4 may follow `by`"
        case .overflow:
            return "a result needs more than 38 digits and cannot be held exactly"
        case .emptyStatement:
            return "empty statement"
        case .cancelled:
            return "interrupted"
        case .unsupported(let what):
            return what
        }
    }

    /// "did you mean …?" hints.
    public var hint: String? {
        switch kind {
        case .expected(_, _, let s?): return "did you mean `\(s)`?"
        case .unknownCurrency(_, let s?): return "did you mean \(s)?"
        case .unknownName(_, _, let s) where !s.isEmpty:
            return "did you mean " + s.map { "\"\($0)\"" }.joined(separator: " or ") + "?"
        default: return nil
        }
    }

    static func list(_ options: [String]) -> String {
        switch options.count {
        case 0: return "nothing more"
        case 1: return options[0]
        case 2: return options[0] + " or " + options[1]
        default: return options.dropLast().joined(separator: ", ") + " or " + options[options.count - 1]
        }
    }
}

/// Draws an error under its statement:
///
///     sum expenses by catgory
///                     ^~~~~~~
///     error: expected a group key …, found 'catgory'
///     hint: did you mean `category`?
public enum Diagnostic {
    public static func render(_ error: QueryError, statement: String, location: String? = nil) -> String {
        var out = ""
        let prefix = location.map { $0 + ": " } ?? ""
        if let range = error.range {
            let bytes = Array(statement.utf8)
            // The line holding the error.
            var lineStart = min(range.lowerBound, bytes.count)
            while lineStart > 0 && bytes[lineStart - 1] != 0x0A { lineStart -= 1 }
            var lineEnd = min(range.lowerBound, bytes.count)
            while lineEnd < bytes.count && bytes[lineEnd] != 0x0A { lineEnd += 1 }
            var before = String(decoding: bytes[lineStart..<min(range.lowerBound, bytes.count)], as: UTF8.self)
            let upper = min(max(range.upperBound, range.lowerBound), lineEnd)
            var marked = String(decoding: bytes[min(range.lowerBound, bytes.count)..<upper], as: UTF8.self)
            var after = String(decoding: bytes[upper..<lineEnd], as: UTF8.self)
            // A very long line shows a window around the error, not thousands of columns.
            let context = 50
            if TextWidth.of(before) > context {
                before = "…" + String(before.suffix(context))
            }
            if TextWidth.of(marked) > context {
                marked = String(marked.prefix(context)) + "…"
                after = ""
            } else if TextWidth.of(after) > context {
                after = String(after.prefix(context)) + "…"
            }
            let indent = String(repeating: " ", count: TextWidth.of(before))
            let width = max(1, TextWidth.of(marked))
            out += "  " + before + marked + after + "\n"
            out += "  " + indent + "^" + String(repeating: "~", count: width - 1) + "\n"
        }
        out += prefix + "error: " + error.message
        if let hint = error.hint { out += "\n" + "hint: " + hint }
        return out
    }
}
