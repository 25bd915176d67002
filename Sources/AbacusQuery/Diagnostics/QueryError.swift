// Errors of the query language, as data.
//
// An error is a kind (with its facts), the byte range it points at, and optional
// advice. The words a user reads are made in one place, `message` and `hint`, and
// the caret picture in `Diagnostic.render`: the parser and executor only say what
// went wrong and where. Text the user typed is shown with control characters
// escaped (U+0001) and cut to 60 characters, so no input can garble the terminal
// or flood it.

import AbacusCore

public struct QueryError: Error, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case unexpectedCharacter(String)
        /// A string whose closing quote (`"` or `'`) is missing.
        case unterminatedString(quote: String)
        /// `\q` in a double-quoted string, where only `\"`, `\\`, `\n` and `\t` escape.
        case unknownEscape(String)
        /// A `(` with no `)` before the end of the statement (the range is the `(`).
        case unclosedParenthesis
        /// Found `found` where one of `expected` should stand; `suggestion` for a near miss.
        case expected([String], found: String, suggestion: String?)
        case unknownCurrency(String, suggestion: String?)
        case unknownName(field: String, value: String, suggestions: [String])
        case badDate(String)
        /// `with rate` naming a pair that an earlier rate of the statement names (or its inverse).
        case repeatedRate(CurrencyPair, earlier: CurrencyPair)
        /// `order by amount` on `count`, whose results have no amount.
        case countHasNoAmount
        /// `list … order by count`: each listed entry is one entry.
        case listHasNoCount
        /// `list … order by KEY` for a key that is not one of the listing's columns.
        case listCannotOrder(by: String)
        /// `list … by KEY`.
        case listCannotGroup
        /// A grouped result ordered by a key it is not grouped by.
        case notAGroupKey(String)
        /// `order by date` on a grouped result.
        case dateOrderNeedsList
        /// `~` on `amount` or `date`.
        case containsNeedsText(field: String)
        /// Parentheses or `not`s nested past the parser's limit.
        case nestedTooDeep(Int)
        case missingRates([MissingRate], target: Currency)
        /// Market rates older than the session's maximum rate age, per pair.
        case ratesTooOld([AgedRateUse], maxAgeDays: Int, target: Currency)
        /// One rate (`convert`, `rate`, a report's conversion on a day) older than the maximum
        /// rate age: its legs past the limit.
        case rateTooOld(CurrencyPair, legs: [RateAge.Leg], usedOn: Day, maxAgeDays: Int)
        /// `convert` or `rate` for a pair nothing prices.
        case noRate(CurrencyPair)
        /// A report (`budget … in`, `balance in`, `networth`, `holdings in`) converting on days
        /// for which no custom or market rate prices the pairs: every pair it missed.
        case noRateOn([MissedReportRate])
        /// A holding whose symbol has no price on or before the report date.
        case noPrice(symbol: String, day: Day)
        case tooManyGroupKeys(Int)
        case overflow
        case emptyStatement
        /// Stopped by the user (Ctrl-C).
        case cancelled
        case unsupported(String)
        /// The database the ledger lives in failed the statement (`--db`): its message.
        case database(String)
    }

    /// Advice beyond "did you mean": how to write what the user probably meant.
    public enum Advice: Sendable, Equatable {
        /// A bare name holding a keyword (`Top Up`, `Cash in Hand`) must be quoted.
        case quoteName(field: String, name: String)
        /// A date in quotes (`"2025-10-05"`): dates are written bare.
        case dropQuotes(String)
        /// The subject was written after a clause (`sum since 2025 expenses`).
        case subjectFirst(aggregate: String, subject: String)
        /// `"(none)"` in quotes names a value; unquoted it means the entries without one.
        case unquotedNone(field: String)
        /// An argument of a call is one token: text with spaces goes in quotes.
        case oneTokenArgument
        /// Missing rates met by a report (`budget`, `balance`, …), which takes no `with rate`:
        /// the message says where else a rate comes from.
        case ratesForAReport
    }

    /// A call of a defined statement (`monthly(2025-10)`) and the statement it ran, which
    /// `range` then points into.
    public struct Expansion: Sendable, Equatable {
        public var call: String
        public var text: String
    }

    public var kind: Kind
    /// Byte range in the statement; nil when the error concerns the whole statement.
    public var range: Range<Int>?
    public var advice: Advice?
    /// Set when the error arose in the expansion of a call.
    public var expansion: Expansion?
    /// A missing rate's pairs that market rates do chain, through `via`, but whose product of
    /// legs cannot be held (`Rate.then`): said, so the user is not told nothing prices them.
    public var unheldChains: [UnheldChain] = []

    public struct UnheldChain: Sendable, Equatable {
        public var pair: CurrencyPair
        public var via: Currency
    }

    public init(_ kind: Kind, at range: Range<Int>?, advice: Advice? = nil) {
        self.kind = kind
        self.range = range
        self.advice = advice
    }

    /// The message: what went wrong, and what to do.
    public var message: String {
        let chains = unheldChains.map { c in
            "\(c.pair) is chained through \(c.via.code) (\(CurrencyPair(c.pair.from, c.via)) × \(CurrencyPair(c.via, c.pair.to))), but the product of those rates needs more than 38 digits and cannot be held exactly"
        }
        return ([kindMessage] + chains).joined(separator: "\n")
    }

    private var kindMessage: String {
        switch kind {
        case .unexpectedCharacter(let c):
            return "unexpected character " + (ShownText.isEscaped(c) ? c.unicodeScalars.map(ShownText.escape).joined(separator: " ") : "'\(c)'")
        case .unterminatedString(let quote):
            return "unterminated string: a closing \(quote) is missing"
        case .unknownEscape(let e):
            return "unknown escape '\(ShownText.quoted(e))' in a string: only \\\", \\\\, \\n and \\t escape"
        case .unclosedParenthesis:
            return "this '(' is never closed: expected ')' before the end of the statement"
        case .expected(let options, let found, _):
            return "expected \(QueryError.list(options)), found \(found)"
        case .unknownCurrency(let code, _):
            return "unknown currency '\(ShownText.quoted(code))': expected an ISO 4217 code such as INR, USD or EUR"
        case .unknownName(let field, let value, _):
            return "no \(field) is named \(QueryError.literal(value))"
        case .badDate(let text) where Period.weekPastYearEnd(text) != nil:
            let year = Period.weekPastYearEnd(text) ?? 0
            return "'\(ShownText.quoted(text))' is not a date: \(year) has 52 ISO weeks, so its last week is \(year)-W52"
        case .badDate(let text):
            return "'\(ShownText.quoted(text))' is not a date: expected YYYY, YYYY-MM, YYYY-MM-DD, YYYY-Qn, YYYY-Wnn, today, this month, …"
        case .repeatedRate(let pair, let earlier):
            return pair == earlier ? "a rate for \(pair) is already given in this statement"
                : "\(pair) is the inverse of \(earlier), whose rate is already given in this statement"
        case .countHasNoAmount:
            return "`count` results have no amount to order by: order by count or by a group key"
        case .listHasNoCount:
            return "`list` shows entries one by one, so there is no count to order by: order by amount, date, book, category or party"
        case .listCannotOrder(let key):
            return "`list` cannot order by \(key): order by amount, date, book, category or party (currency too with `in native`)"
        case .listCannotGroup:
            return "`list` shows entries one by one and cannot group: drop `by`, or use sum or count"
        case .notAGroupKey(let key):
            return "cannot order by \(key): it is not one of the group keys"
        case .dateOrderNeedsList:
            return "order by date applies to `list`; grouped results order by amount or a group key"
        case .containsNeedsText(let field):
            return "`~` (contains) compares text; compare \(field) with =, !=, <, <=, >, >=" + (field == "date" ? " or in" : "")
        case .nestedTooDeep(let limit):
            return "the condition nests deeper than \(limit) levels"
        case .missingRates(let missing, let target):
            let total = missing.reduce(0) { $0 + $1.entries }
            var lines = ["no exchange rate to convert \(total) \(total == 1 ? "entry" : "entries") into \(target.code):"]
            for m in missing {
                lines.append("  \(m.pair): \(m.entries) \(m.entries == 1 ? "entry" : "entries")")
            }
            // A report takes no `with rate`: its rates come from the session or the ledger.
            let report = advice == .ratesForAReport
            if missing.count == 1, let m = missing.first {
                lines.append("supply one with `set rate \(m.pair) = …` for this session, or "
                             + (report ? "add a market rate to the ledger or with --rates" : "`with rate \(m.pair) = …` in the query"))
            } else if !missing.isEmpty {
                // Every pair at once, so following the hint does not meet the next missing pair.
                let sets = missing.count == 2 ? missing.map { "`set rate \($0.pair) = …`" }.joined(separator: " and ") : "`set rate PAIR = …` for each pair"
                let withs = missing.map { "\($0.pair) = …" }.joined(separator: ", ")
                lines.append("supply them with \(sets) for this session, or "
                             + (report ? "add market rates to the ledger or with --rates" : "`with rate \(withs)` in the query"))
            }
            return lines.joined(separator: "\n")
        case .ratesTooOld(let uses, let limit, let target):
            let total = uses.reduce(0) { $0 + $1.entries }
            var lines = ["market rates older than the maximum rate age of \(limit) \(limit == 1 ? "day" : "days") would convert \(total) \(total == 1 ? "entry" : "entries") into \(target.code):"]
            lines += uses.map { "  " + $0.line }
            let pair = uses.first.map(\.pair.description) ?? "PAIR"
            lines.append("supply newer rates (`.rates FILE`, `rates refresh`) or a custom rate (`set rate \(pair) = …`), or raise the limit (`set max rate age N days`)")
            return lines.joined(separator: "\n")
        case .rateTooOld(let pair, let legs, let day, let limit):
            let old = legs.map { "\($0.pair) dated \($0.day), \(AgedRateUse.days($0.ageInDays)) old" }.joined(separator: "; ")
            return "the market rate for \(pair) on \(day) is older than the maximum rate age of \(AgedRateUse.days(limit)): \(old)\n"
                + "supply newer rates (`.rates FILE`, `rates refresh`) or a custom rate (`set rate \(pair) = …`), or raise the limit (`set max rate age N days`)"
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
        case .noRateOn(let missed):
            let one = missed.count == 1
            return "no exchange rate for \(MissedReportRate.list(missed)): no custom or market rate prices \(one ? "it" : "them"), directly or through one other currency\n"
                + "supply \(one ? "one" : "them") with \(missed.map { "`set rate \($0.pair) = …`" }.joined(separator: ", ")) for this session, or add \(one ? "a market rate" : "market rates") to the ledger or with --rates"
        case .noPrice(let symbol, let day):
            return "no price for \"\(ShownText.quoted(symbol))\" on or before \(day): its holdings cannot be valued\n"
                + "add a price to the ledger's prices ({\"symbol\": \"\(ShownText.quoted(symbol))\", \"date\": …, \"price\": …, \"currency\": …}), or report at a later date"
        case .database(let what):
            return what
        }
    }

    /// The hint line: advice, else "did you mean …?".
    public var hint: String? {
        switch advice {
        case .quoteName(let field, let name)?:
            let quoted = QueryError.literal(name)
            return "if \(quoted) is one name, put it in quotes: \(field) = \(quoted)"
        case .dropQuotes(let date)?:
            return "dates are written without quotes: \(ShownText.quoted(date))"
        case .unquotedNone(let field)?:
            return "entries without a \(field) are written without quotes: \(field) = (none)"
        case .subjectFirst(let aggregate, let subject)?:
            return "the subject comes right after `\(aggregate)`: \(aggregate) \(subject) …"
        case .oneTokenArgument?:
            return "each argument is one number, date, currency code, word or \"quoted string\": put text with spaces in quotes"
        case .ratesForAReport?:
            return nil
        case nil:
            break
        }
        switch kind {
        case .expected(_, _, let s?): return "did you mean `\(s)`?"
        case .unknownCurrency(_, let s?): return "did you mean \(s)?"
        case .unknownName(_, _, let s) where !s.isEmpty:
            return "did you mean " + s.map(QueryError.literal).joined(separator: " or ") + "?"
        case .repeatedRate: return "give each pair once: a rate also gives its inverse"
        case .unknownEscape: return "write \\\\ for a backslash"
        default: return nil
        }
    }

    /// A name as a statement would write it: in double quotes, `\` and `"` escaped (and, as
    /// all text shown, controls written out and cut to 60 characters).
    static func literal(_ name: String) -> String { ShownText.literal(name, limit: ShownText.limit) }

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
///
/// Only the line holding the error is shown, tabs expanded and invisible characters
/// escaped (`<U+0001>`) so the caret stands under the token by display width; a line
/// wider than 100 columns shows a window of 50 columns either side of the error.
public enum Diagnostic {
    public static func render(_ error: QueryError, statement: String, location: String? = nil) -> String {
        var out = ""
        let prefix = location.map { $0 + ": " } ?? ""
        var statement = statement
        if let x = error.expansion {
            // The call as typed, then what it ran, with the caret under the expanded statement.
            var column = 0
            out += "  " + visible(x.call, column: &column) + "\n"
            out += "  which runs:\n"
            statement = x.text
            if error.range == nil { out += "  " + visible(x.text, column: &column) + "\n" }
        }
        if let range = error.range {
            let bytes = Array(statement.utf8)
            let lower = min(range.lowerBound, bytes.count)
            // The line holding the error.
            var lineStart = lower
            while lineStart > 0 && bytes[lineStart - 1] != 0x0A { lineStart -= 1 }
            var lineEnd = lower
            while lineEnd < bytes.count && bytes[lineEnd] != 0x0A { lineEnd += 1 }
            let upper = min(max(range.upperBound, lower), lineEnd)
            func text(_ r: Range<Int>) -> String { String(decoding: bytes[r], as: UTF8.self) }
            var column = 0
            // Only a window is ever shown: a megabyte-long line is not rendered whole.
            let window = 4 * 50
            var before = visible(String(text(max(lineStart, lower - 4 * window)..<lower).suffix(window)), column: &column)
            var marked = visible(String(text(lower..<min(upper, lower + 4 * window)).prefix(window)), column: &column)
            var after = visible(String(text(upper..<min(lineEnd, upper + 4 * window)).prefix(window)), column: &column)
            // A line too wide for a terminal shows a window around the error: 50 columns either side.
            let context = 50
            if TextWidth.of(before) + TextWidth.of(marked) + TextWidth.of(after) > 2 * context {
                if TextWidth.of(before) > context { before = "…" + suffix(before, width: context - 1) }
                if TextWidth.of(marked) > context {
                    marked = TextWidth.truncate(marked, to: context)
                    after = ""
                } else if TextWidth.of(after) > context {
                    after = TextWidth.truncate(after, to: context)
                }
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

    /// Text as the echo line shows it: tabs expanded to 8-column stops from `column` (which
    /// advances), invisible characters as `<U+0001>`.
    static func visible(_ s: String, column: inout Int) -> String {
        var out = ""
        for ch in s {
            let piece: String
            if ch == "\t" {
                piece = String(repeating: " ", count: 8 - column % 8)
            } else if ch == "\r" {
                piece = ""
            } else if ch.unicodeScalars.contains(where: ShownText.isInvisible) {
                piece = ch.unicodeScalars.map(ShownText.escape).joined()
            } else {
                piece = String(ch)
            }
            out += piece
            column += TextWidth.of(piece)
        }
        return out
    }

    /// The longest tail of `s` that fits `width` columns.
    static func suffix(_ s: String, width: Int) -> String {
        var kept: [Character] = []
        var used = 0
        for ch in s.reversed() {
            let w = TextWidth.of(String(ch))
            if used + w > width { break }
            kept.append(ch)
            used += w
        }
        return String(kept.reversed())
    }
}
