// The parser: tokens → `Statement`, by recursive descent.
//
// Each parse function implements one rule of `Grammar/abacus.grammar` and quotes
// it in its doc comment. Keywords are matched case-insensitively. On an error the
// parser says what it expected at that token, and offers the nearest keyword when
// the word found is a near miss (`catgory` → `category`).

import AbacusCore

public struct Parser {
    let lexer: Lexer
    let tokens: [Token]
    var index = 0

    public init(_ text: String) throws(QueryError) {
        lexer = Lexer(text)
        tokens = try lexer.tokenize()
    }

    /// Parses one statement (the whole text).
    public static func parse(_ text: String) throws(QueryError) -> Statement {
        var p = try Parser(text)
        return try p.statement()
    }

    // MARK: Token helpers

    var current: Token { tokens[index] }

    func word(_ t: Token) -> String? {
        t.kind == .word ? lexer.text(t).lowercased() : nil
    }

    func isKeyword(_ k: String) -> Bool { word(current) == k }

    mutating func advance() { if index < tokens.count - 1 { index += 1 } }

    func describe(_ t: Token) -> String {
        switch t.kind {
        case .end: return "the end of the statement"
        case .string: return lexer.text(t)
        default: return "'\(lexer.text(t))'"
        }
    }

    func expected(_ options: [String], keywords: [String] = []) -> QueryError {
        var suggestion: String?
        if let w = word(current), !keywords.isEmpty { suggestion = nearest(w, in: keywords) }
        return QueryError(.expected(options, found: describe(current), suggestion: suggestion), at: current.range)
    }

    // MARK: Rules

    /// statement -> query END
    mutating func statement() throws(QueryError) -> Statement {
        if current.kind == .end { throw QueryError(.emptyStatement, at: nil) }
        let q = try query()
        return .query(q)
    }

    /// query -> aggregate subject? clause*
    mutating func query() throws(QueryError) -> Query {
        var q = Query(aggregate: try aggregate(), text: lexer.source)
        if let s = subject() { q.subject = s }
        while current.kind != .end { try clause(&q) }
        return q
    }

    /// subject -> 'expenses' | 'income' | 'transfers' | 'entries'
    mutating func subject() -> Subject? {
        guard let w = word(current), let s = Subject(rawValue: w) else { return nil }
        advance()
        return s
    }

    static let clauseKeywords = ["in", "by", "since", "until", "before", "on", "during"]

    /// clause -> currency_clause | group_clause | period
    mutating func clause(_ q: inout Query) throws(QueryError) {
        switch word(current) {
        case "in":
            guard q.currency == nil else { throw QueryError(.expected(["one `in` clause"], found: "a second", suggestion: nil), at: current.range) }
            (q.currency, q.currencyRange) = try currencyClause()
        case "by":
            guard q.groupBy.isEmpty else { throw QueryError(.expected(["one `by` clause"], found: "a second", suggestion: nil), at: current.range) }
            q.groupBy = try groupClause()
        case let w? where PeriodKind(rawValue: w) != nil:
            q.periods.append(try period())
        default:
            let subjects = q.subject == .entries ? Subject.allCases.map(\.rawValue) : []
            throw expected(["a clause (in, by, since, until, before, on, during)"], keywords: Parser.clauseKeywords + subjects)
        }
    }

    /// aggregate -> 'sum' | 'count'
    mutating func aggregate() throws(QueryError) -> Aggregate {
        guard let w = word(current), let a = Aggregate(rawValue: w) else {
            throw expected(["a statement (sum, count)"], keywords: Aggregate.allCases.map(\.rawValue))
        }
        advance()
        return a
    }

    /// currency_clause -> 'in' (CURRENCY | 'native')
    mutating func currencyClause() throws(QueryError) -> (TargetCurrency, Range<Int>) {
        advance()
        let t = current
        guard let w = word(t) else { throw expected(["a currency code (INR, USD, …) or native"]) }
        advance()
        if w == "native" { return (.native, t.range) }
        return (.code(try currency(t)), t.range)
    }

    /// CURRENCY -> three letters naming an ISO 4217 currency
    func currency(_ t: Token) throws(QueryError) -> Currency {
        let text = lexer.text(t)
        if let c = Currency(caseInsensitiveCode: text) { return c }
        let codes = Currency.all.map(\.code)
        throw QueryError(.unknownCurrency(text, suggestion: nearest(text.uppercased(), in: codes)), at: t.range)
    }

    /// group_clause -> 'by' group_keys
    mutating func groupClause() throws(QueryError) -> [GroupKey] {
        advance()
        return try groupKeys()
    }

    /// group_keys -> group_key (',' group_key)*
    mutating func groupKeys() throws(QueryError) -> [GroupKey] {
        var keys = [try groupKey()]
        while current.kind == .symbol && lexer.text(current) == "," {
            advance()
            keys.append(try groupKey())
        }
        return keys
    }

    /// group_key -> 'category' | 'book' | 'party' | 'payment' | 'currency' | 'tag'
    ///            | 'day' | 'week' | 'month' | 'quarter' | 'year'
    mutating func groupKey() throws(QueryError) -> GroupKey {
        let names = GroupKey.allCases.map(\.rawValue)
        guard let w = word(current), let key = GroupKey(rawValue: w) ?? GroupKey.alias(w) else {
            throw expected(["a group key (\(names.joined(separator: ", ")))"], keywords: names)
        }
        advance()
        return key
    }

    /// period -> ('since' | 'until' | 'before' | 'on' | 'during') date_expr
    mutating func period() throws(QueryError) -> PeriodClause {
        let start = current.range.lowerBound
        guard let w = word(current), let kind = PeriodKind(rawValue: w) else { throw expected(["a period"]) }
        advance()
        let date = try dateExpression()
        return PeriodClause(kind: kind, date: date, range: start..<tokens[index - 1].range.upperBound)
    }

    /// date_expr -> DATE | YEAR | 'today' | 'yesterday' | ('this' | 'last') ('month' | 'year')
    ///            | 'last' NUMBER 'days'
    mutating func dateExpression() throws(QueryError) -> DateExpression {
        let t = current
        let options = ["a date (2025-10-05, 2025-10, 2025, 2025-Q4, today, this month, last 30 days)"]
        switch t.kind {
        case .date, .number:
            let text = lexer.text(t)
            guard let range = DateLiteral.parse(text) else { throw QueryError(.badDate(text), at: t.range) }
            advance()
            return .literal(range, text: text)
        case .word:
            let w = word(t) ?? ""
            advance()
            switch w {
            case "today": return .today
            case "yesterday": return .yesterday
            case "this", "last":
                let next = current
                if w == "last", next.kind == .number, let n = Int(lexer.text(next)), n > 0, n <= 100_000 {
                    advance()
                    guard word(current) == "days" || word(current) == "day" else { throw expected(["days"], keywords: ["days"]) }
                    advance()
                    return .lastDays(n)
                }
                switch word(next) {
                case "month": advance(); return w == "this" ? .thisMonth : .lastMonth
                case "year": advance(); return w == "this" ? .thisYear : .lastYear
                default: throw expected(["month or year" + (w == "last" ? " or a number of days" : "")], keywords: ["month", "year"])
                }
            default:
                index -= 1
                throw expected(options, keywords: ["today", "yesterday", "this", "last"])
            }
        default:
            throw expected(options)
        }
    }
}

extension GroupKey {
    /// Accepted spellings besides the canonical ones.
    static func alias(_ w: String) -> GroupKey? {
        switch w {
        case "categories": return .category
        case "books": return .book
        case "parties": return .party
        case "paymentmode", "payments": return .payment
        case "currencies": return .currency
        case "tags": return .tag
        case "days": return .day
        case "weeks": return .week
        case "months": return .month
        case "quarters": return .quarter
        case "years": return .year
        default: return nil
        }
    }
}

/// Date literals: `2025`, `2025-10`, `2025-10-05`, `2025-Q4`, `2025-W41`.
public enum DateLiteral {
    public static func parse(_ text: String) -> DayRange? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, first.count == 4, let year = Int(first), year >= 1 else { return nil }
        switch parts.count {
        case 1:
            guard let a = Day(year: year, month: 1, day: 1), let b = Day(year: year, month: 12, day: 31) else { return nil }
            return DayRange(a, b)
        case 2:
            let p = parts[1]
            if p.count == 2, let m = Int(p) {
                guard let a = Day(year: year, month: m, day: 1) else { return nil }
                return DayRange(a, Day(number: a.number + Int32(Day.daysIn(year: year, month: m)) - 1))
            }
            if p.count == 2, p.first == "Q" || p.first == "q", let q = Int(p.dropFirst()), (1...4).contains(q) {
                guard let a = Day(year: year, month: q * 3 - 2, day: 1), let b = Day(year: year, month: q * 3, day: Day.daysIn(year: year, month: q * 3)) else { return nil }
                return DayRange(a, b)
            }
            if p.count == 3, p.first == "W" || p.first == "w", let w = Int(p.dropFirst()), (1...53).contains(w) {
                // ISO week 1 holds January 4th.
                guard let jan4 = Day(year: year, month: 1, day: 4) else { return nil }
                let monday = Day(number: jan4.number - Int32(jan4.isoWeekday - 1) + Int32((w - 1) * 7))
                guard monday.isoWeek.year == year else { return nil }
                return DayRange(monday, Day(number: monday.number + 6))
            }
            return nil
        case 3:
            guard parts[1].count == 2, parts[2].count == 2, let m = Int(parts[1]), let d = Int(parts[2]),
                  let day = Day(year: year, month: m, day: d) else { return nil }
            return DayRange(day, day)
        default:
            return nil
        }
    }
}
