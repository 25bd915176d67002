// The parser: tokens → `Statement`, by recursive descent.
//
// Each parse function implements one rule of `Grammar/abacus.grammar` and quotes
// it in its doc comment (a test holds the two together). Keywords are matched
// case-insensitively. On an error the parser says what it expected at that
// token, and offers the nearest keyword when the word found is a near miss
// (`catgory` → `category`), never the word that was typed. Names from the ledger
// are not checked here: the planner does that, with the ledger's own names as
// suggestions. A bare name is taken as typed, from its first word to its last; when
// one stopped at a keyword and the statement then fails right there (`Cash in
// Hand`), the error advises quoting the name.

import AbacusCore

public struct Parser {
    let lexer: Lexer
    let tokens: [Token]
    var index = 0
    /// Nesting of parentheses in conditions, bounded so no input can exhaust the stack.
    var depth = 0
    static let maxDepth = 200
    /// The last bare value that ended at a keyword: its first token, the keyword's token, its field.
    var stoppedValue: (first: Int, stop: Int, field: Field)?

    public init(_ text: String) throws(QueryError) {
        lexer = Lexer(text)
        tokens = try lexer.tokenize()
    }

    /// Parses one statement (the whole text).
    public static func parse(_ text: String) throws(QueryError) -> Statement {
        var p = try Parser(text)
        do {
            return try p.statement()
        } catch {
            throw p.withQuotingAdvice(error)
        }
    }

    /// A bare name that stopped at a keyword, with the statement failing at the word after it
    /// (or at the keyword, when it was the name's first word), was probably one name holding
    /// the keyword (`Top Up`, `Not Sure`, `Cash in Hand`): the error says to quote it. Only when
    /// nothing better is on offer, and only when the words run to the end of the statement, a
    /// `,`, a `)` or another keyword. Not when the word after the keyword is a date that is
    /// wrong (`category = A during 2024-13`): the keyword was meant, and the date is the error.
    func withQuotingAdvice(_ error: QueryError) -> QueryError {
        if case .badDate = error.kind { return error }
        guard error.advice == nil, error.hint == nil, let stopped = stoppedValue, let at = error.range?.lowerBound,
              let failed = tokens.firstIndex(where: { $0.range.lowerBound == at && $0.kind != .end }),
              failed == stopped.stop + 1 || (failed == stopped.stop && stopped.first == stopped.stop) else { return error }
        var last = failed
        while last + 1 < tokens.count, isBare(tokens[last + 1]), !isValueStop(tokens[last + 1]) { last += 1 }
        let next = tokens[min(last + 1, tokens.count - 1)]
        guard next.kind == .end || isValueStop(next) || (next.kind == .symbol && [",", ")"].contains(lexer.text(next))) else { return error }
        var e = error
        e.advice = .quoteName(field: stopped.field.rawValue, name: lexer.spelling(tokens[stopped.first...last]))
        return e
    }

    // MARK: Token helpers

    var current: Token { tokens[index] }

    func word(_ t: Token) -> String? {
        t.kind == .word ? lexer.text(t).lowercased() : nil
    }

    func isWord(_ k: String) -> Bool { word(current) == k }

    func isSymbol(_ s: String) -> Bool { current.kind == .symbol && lexer.text(current) == s }

    mutating func advance() { if index < tokens.count - 1 { index += 1 } }

    /// Consumes the keyword when it is next.
    mutating func accept(_ k: String) -> Bool {
        guard isWord(k) else { return false }
        advance()
        return true
    }

    mutating func expectWord(_ k: String) throws(QueryError) {
        guard accept(k) else { throw expected(["'\(k)'"], keywords: [k]) }
    }

    mutating func expectSymbol(_ s: String) throws(QueryError) {
        guard isSymbol(s) else { throw expected(["'\(s)'"]) }
        advance()
    }

    func describe(_ t: Token) -> String {
        switch t.kind {
        case .end: return "the end of the statement"
        case .string: return ShownText.quoted(lexer.text(t))
        default: return "'\(ShownText.quoted(lexer.text(t)))'"
        }
    }

    /// "expected …, found …" at the current token, with the nearest of `keywords` as a
    /// suggestion (or `suggestion`, when given). The word typed is never its own suggestion.
    func expected(_ options: [String], keywords: [String] = [], suggestion: String? = nil) -> QueryError {
        var suggestion = suggestion
        if suggestion == nil, let w = word(current), !keywords.isEmpty { suggestion = nearest(w, in: keywords) }
        if let s = suggestion, s.lowercased() == word(current) { suggestion = nil }
        return QueryError(.expected(options, found: describe(current), suggestion: suggestion), at: current.range)
    }

    /// A second `at`, `with`, `in`, … where one is allowed.
    func repeated(_ clause: String, at range: Range<Int>) -> QueryError {
        QueryError(.expected(["at most one `\(clause)` clause"], found: "a second one", suggestion: nil), at: range)
    }

    /// A token that may be part of a bare name.
    func isBare(_ t: Token) -> Bool { t.kind == .word || t.kind == .number || t.kind == .date }

    /// A keyword that ends a bare name outside parentheses.
    func isValueStop(_ t: Token) -> Bool { word(t).map(Keywords.valueStops.contains) ?? false }

    var previousEnd: Int { index > 0 ? tokens[index - 1].range.upperBound : 0 }

    // MARK: Statements

    /// statement -> (query | explain | report | convert | rate | rates | set | unset | 'books' | 'categories' | 'watch' currency_list | 'unwatch' currency_list | 'watching' | define | call | 'defines' | 'undefine' WORD) END
    mutating func statement() throws(QueryError) -> Statement {
        if current.kind == .end { throw QueryError(.emptyStatement, at: nil) }
        if word(current) == "define" { return .define(try define()) }
        // A placeholder outside a definition has no argument to stand for.
        if let p = tokens.first(where: { $0.kind == .parameter }) {
            throw QueryError(.unsupported("`\(lexer.text(p))` stands for an argument only in the statement of a `define`"), at: p.range)
        }
        let s: Statement
        switch word(current) {
        case "explain" where index + 1 < tokens.count && Parser.reportWords.contains(word(tokens[index + 1]) ?? ""):
            advance()
            s = .explainReport(try report())
        case "explain" where index + 1 < tokens.count && isCall(at: index + 1):
            // `explain monthly(2025-10)`: the plan of what the call runs.
            advance()
            var c = try call()
            c.explained = true
            s = .call(c)
        case "explain": s = .explain(try explain())
        case let w? where Parser.reportWords.contains(w): s = .report(try report())
        case "convert": s = try convert()
        case "rate": s = .rate(try rate())
        case "rates":
            if index + 1 < tokens.count, word(tokens[index + 1]) == "refresh" {
                advance(); advance()
                var base: Currency?
                if current.kind == .word, word(current) != "--force" { base = try currency() }
                let force = accept("--force")
                s = .ratesRefresh(base: base, force: force)
            } else if index + 1 < tokens.count, word(tokens[index + 1]) == "status" {
                advance(); advance()
                s = .ratesStatus
            } else if index + 1 < tokens.count, word(tokens[index + 1]) == "import" {
                advance(); advance()
                s = try ratesImport()
            } else {
                s = .rates(try rates())
            }
        case "set": s = try set()
        case "unset": s = try unset()
        case "books": advance(); s = .books
        case "categories": advance(); s = .categories
        case "watch": advance(); s = .watch(try currencyList())
        case "unwatch":
            advance()
            let start = current.range.lowerBound
            let list = try currencyList()
            s = .unwatch(list, start..<previousEnd)
        case "watching": advance(); s = .watching
        case "defines": advance(); s = .defines
        case "undefine":
            advance()
            guard current.kind == .word else { throw expected(["the name of a definition"]) }
            s = .undefine(lexer.text(current), current.range)
            advance()
        case _ where isCall(at: index):
            s = .call(try call())
        case let w? where Keywords.aggregate(w) != nil: s = .query(try query())
        case let w? where Keywords.subject(w) != nil:
            // "expenses by book": a question without its verb.
            throw QueryError(.expected(["a statement (sum, count, avg, min, max, list, …)"], found: describe(current),
                                       suggestion: "sum \(w)"), at: current.range)
        default:
            throw expected([Parser.aStatement],
                           keywords: Keywords.words(.statement), suggestion: word(current).flatMap { Keywords.dotless[$0] })
        }
        guard current.kind == .end else { throw expected(["the end of the statement"]) }
        return s
    }

    /// define -> 'define' WORD ('(' (parameter (',' parameter)*)? ')')? 'as' STATEMENT
    /// parameter -> WORD | PARAMETER
    mutating func define() throws(QueryError) -> Definition {
        advance()
        let nameToken = current
        guard let name = word(nameToken) else { throw expected(["a name for the definition"]) }
        if Keywords.all.contains(name) || Keywords.dotless[name] != nil {
            throw QueryError(.unsupported("`\(lexer.text(nameToken))` is a word of the language: choose another name for the definition"), at: nameToken.range)
        }
        advance()
        var parameters: [String] = []
        if isSymbol("(") {
            let open = current.range
            advance()
            while !isSymbol(")") {
                if !parameters.isEmpty { try expectSymbol(",") }
                if current.kind == .end { throw QueryError(.unclosedParenthesis, at: open) }
                // `$p` or `p`: the parameter's name.
                guard current.kind == .word || current.kind == .parameter else { throw expected(["a parameter name"]) }
                let p = lexer.text(current).drop { $0 == "$" }.lowercased()
                if parameters.contains(p) {
                    throw QueryError(.expected(["a parameter not already listed"], found: "'\(p)' again", suggestion: nil), at: current.range)
                }
                parameters.append(p)
                advance()
            }
            advance()
        }
        try expectWord("as")
        guard current.kind != .end else { throw expected(["the statement to define"]) }
        if word(current) == "define" { throw QueryError(.unsupported("a definition cannot define another"), at: current.range) }
        let bodyStart = current.range.lowerBound
        for t in tokens[index...] where t.kind == .parameter {
            let p = lexer.text(t).dropFirst().lowercased()
            guard parameters.contains(p) else {
                let hint = parameters.isEmpty ? "the definition has no parameters" : "its parameters are " + parameters.map { "$" + $0 }.joined(separator: ", ")
                throw QueryError(.unsupported("`$\(p)` is not a parameter of \(lexer.text(nameToken)): \(hint)"), at: t.range)
            }
        }
        let body = String(decoding: Array(lexer.source.utf8)[bodyStart...], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        index = tokens.count - 1
        return Definition(name: lexer.text(nameToken), parameters: parameters, body: body)
    }

    /// Whether the token at `i` starts a call: a word of no statement, then `(` or the end.
    func isCall(at i: Int) -> Bool {
        guard let w = word(tokens[i]), !Keywords.all.contains(w), Keywords.dotless[w] == nil, i + 1 < tokens.count else { return false }
        let next = tokens[i + 1]
        return next.kind == .end || (next.kind == .symbol && lexer.text(next) == "(")
    }

    /// call -> WORD ('(' (argument (',' argument)*)? ')')?
    /// argument -> NUMBER | DATE | STRING | WORD
    mutating func call() throws(QueryError) -> Call {
        var c = Call(name: lexer.text(current), nameRange: current.range, arguments: [], argumentRanges: [])
        advance()
        guard isSymbol("(") else { return c }
        let open = current.range
        advance()
        while !isSymbol(")") {
            if !c.arguments.isEmpty {
                guard isSymbol(",") else {
                    if current.kind == .end { throw QueryError(.unclosedParenthesis, at: open) }
                    throw QueryError(.expected(["',' or ')'"], found: describe(current), suggestion: nil), at: current.range,
                                     advice: .oneTokenArgument)
                }
                advance()
            }
            if current.kind == .end { throw QueryError(.unclosedParenthesis, at: open) }
            guard [.number, .date, .string, .word].contains(current.kind) else { throw expected(["an argument (a number, date, currency code, \"quoted string\" or word)"]) }
            c.arguments.append(lexer.text(current))
            c.argumentRanges.append(current.range)
            advance()
        }
        advance()
        return c
    }

    /// What an error says can start a statement: every kind, so that none looks missing.
    static let aStatement = "a statement (a query: sum, count, avg, min, max, list; a report: budget, balance, networth, holdings; "
        + "convert, rate, rates, set, unset, books, categories, explain, define, defines, undefine, watch, unwatch, watching, or a defined name)"

    /// explain -> 'explain' (query | report | call)
    mutating func explain() throws(QueryError) -> Query {
        advance()
        guard let w = word(current), Keywords.aggregate(w) != nil else {
            throw expected(["a query or a report to explain (sum, count, avg, min, max, list, budget, balance, networth, holdings, or a defined name)"],
                           keywords: Keywords.words(.aggregate) + Parser.reportWords.sorted())
        }
        return try query()
    }

    /// query -> aggregate subject? clause*
    mutating func query() throws(QueryError) -> Query {
        var q = Query(aggregate: try aggregate(), text: lexer.source)
        if let s = subject() {
            q.subject = s
        } else if let w = word(current), !Keywords.all.contains(w), let near = nearest(w, in: Keywords.words(.subject)) {
            // `sum expences`: a near miss of a subject, right where one stands.
            throw expected(["a subject (expenses, income, transfers, entries) or a clause"], suggestion: near)
        }
        while current.kind != .end { try clause(&q) }
        return q
    }

    /// aggregate -> 'sum' | 'count' | 'avg' | 'min' | 'max' | 'list'
    mutating func aggregate() throws(QueryError) -> Aggregate {
        guard let w = word(current), let a = Keywords.aggregate(w) else {
            throw expected(["sum, count, avg, min, max or list"], keywords: Keywords.words(.aggregate))
        }
        advance()
        return a
    }

    /// subject -> 'expenses' | 'expense' | 'income' | 'transfers' | 'transfer' | 'entries' | 'entry'
    mutating func subject() -> Subject? {
        guard let w = word(current), let s = Keywords.subject(w) else { return nil }
        advance()
        return s
    }

    /// clause -> currency_clause | group_clause | per_clause | where_clause | period | valuation | what_if | with_extra | order_clause | top_clause | show_clause | versus
    mutating func clause(_ q: inout Query) throws(QueryError) {
        let at = current.range
        func once(_ present: Bool, _ name: String) throws(QueryError) {
            if present { throw repeated(name, at: at) }
        }
        switch word(current) {
        case "in":
            try once(q.currency != nil, "in")
            (q.currency, q.currencyRange) = try currencyClause()
        case "by":
            try once(!q.groupBy.isEmpty, "by")
            let start = current.range.lowerBound
            q.groupBy = try groupClause()
            q.groupRange = start..<previousEnd
        case "where":
            try once(q.condition != nil, "where")
            q.condition = try whereClause()
        case "at":
            try once(q.valuation != nil, "at")
            q.valuation = try valuation()
        case "with" where index + 1 < tokens.count && ["share", "running"].contains(word(tokens[index + 1]) ?? ""):
            try withExtra(&q)
        case "with":
            try once(!q.whatIf.isEmpty, "with")
            q.whatIf = try whatIf()
        case "order":
            try once(q.order != nil, "order by")
            q.order = try orderClause()
        case "top":
            try once(q.top != nil, "top")
            q.top = try topClause()
        case "show":
            try once(!q.show.isEmpty, "show")
            let start = current.range.lowerBound
            q.show = try showClause()
            q.showRange = start..<previousEnd
        case "per":
            try once(q.per != nil, "per")
            advance()
            q.per = try groupKey()
            q.perRange = at.lowerBound..<previousEnd
        case "vs", "versus":
            try once(q.versus != nil, "vs")
            q.versus = try versus()
            q.versusRange = at.lowerBound..<previousEnd
        case let w? where PeriodKind(rawValue: w) != nil:
            q.periods.append(try period())
        default:
            var e = expected(["a clause (in, by, per, where, since, until, before, on, during, at, with, order by, top, vs)"],
                             keywords: Keywords.words(.clause) + Keywords.words(.groupKey))
            // `sum since 2025 expenses`: the subject is right, its place is not.
            if let w = word(current), let s = Keywords.subject(w) {
                e.advice = .subjectFirst(aggregate: q.aggregate.rawValue, subject: s.rawValue)
            }
            throw e
        }
    }

    /// per_clause -> 'per' group_key
    /// versus -> ('vs' | 'versus') ('previous' 'period' | 'same' 'period' 'last' 'year' | 'booked' | valuation | what_if | date_expr)
    mutating func versus() throws(QueryError) -> Alternative {
        advance()
        switch word(current) {
        case "previous":
            advance()
            try expectWord("period")
            return .previousPeriod
        case "same":
            advance()
            try expectWord("period")
            try expectWord("last")
            try expectWord("year")
            return .samePeriodLastYear
        case "booked":
            advance()
            return .valuation(nil)
        case "at":
            return .valuation(try valuation())
        case "with":
            return .whatIf(try whatIf())
        default:
            guard current.kind == .date || current.kind == .number || ["today", "yesterday", "this", "last"].contains(word(current) ?? "") else {
                throw expected(["what to compare with (previous period, same period last year, a period such as 2025-10, booked, at market, at latest, at DATE, with rate …)"],
                               keywords: ["previous", "same", "booked", "at", "with", "last", "this"])
            }
            return .period(try dateExpression())
        }
    }

    /// currency_clause -> 'in' (CURRENCY | 'native')
    mutating func currencyClause() throws(QueryError) -> (TargetCurrency, Range<Int>) {
        advance()
        let t = current
        guard word(t) != nil else { throw expected(["a currency code (INR, USD, …) or native"]) }
        if word(t) == "native" { advance(); return (.native, t.range) }
        return (.code(try currency()), t.range)
    }

    /// A currency code (CURRENCY): three letters naming an ISO 4217 currency.
    mutating func currency() throws(QueryError) -> Currency {
        let t = current
        guard t.kind == .word else { throw expected(["a currency code such as INR or USD"]) }
        let text = lexer.text(t)
        guard let c = Currency(caseInsensitiveCode: text) else {
            throw QueryError(.unknownCurrency(text, suggestion: nearest(text, in: Parser.currencyCandidates)), at: t.range)
        }
        advance()
        return c
    }

    /// Currencies with a home locale (README, Using it: --locale) come first, so a near miss between two codes
    /// goes to the one people use (`IRN` → INR, not ERN); then every other ISO code.
    static let currencyCandidates: [String] = {
        let common = ["INR", "USD", "EUR", "GBP", "CAD", "AUD", "SGD", "HKD", "JPY", "CHF", "AED", "SAR", "QAR", "NZD", "ZAR"]
        return common + Currency.all.map(\.code).filter { !common.contains($0) }
    }()

    /// group_clause -> 'by' group_keys
    mutating func groupClause() throws(QueryError) -> [GroupKey] {
        advance()
        return try groupKeys()
    }

    /// group_keys -> group_key (',' group_key)*
    mutating func groupKeys() throws(QueryError) -> [GroupKey] {
        var keys = [try groupKey()]
        while isSymbol(",") {
            advance()
            let at = current.range
            let k = try groupKey()
            if keys.contains(k) { throw QueryError(.expected(["a key not already listed"], found: "'\(k.rawValue)' again", suggestion: nil), at: at) }
            keys.append(k)
        }
        return keys
    }

    /// group_key -> 'category' | 'categories' | 'book' | 'books' | 'party' | 'parties' | 'payment' | 'payments' | 'paymentMode'
    ///   | 'currency' | 'currencies' | 'tag' | 'tags' | 'day' | 'days' | 'week' | 'weeks' | 'month' | 'months'
    ///   | 'quarter' | 'quarters' | 'year' | 'years' | 'top' 'category'
    mutating func groupKey() throws(QueryError) -> GroupKey {
        // The one-word keys; `top category` is two.
        let names = Keywords.words(.groupKey).filter { !$0.contains(" ") }
        if isWord("top"), index + 1 < tokens.count, let next = word(tokens[index + 1]), Keywords.groupKey(next) == .category {
            advance()
            advance()
            return .topCategory
        }
        // `top` and something else: only `category` completes it (the end too, so that it is
        // the thing missing, not `top`).
        if isWord("top"), index + 1 < tokens.count, tokens[index + 1].kind == .end || word(tokens[index + 1]).map({ Keywords.groupKey($0) == nil }) == true {
            advance()
            throw expected(["`category` (top category: each category's root)"], keywords: ["category"])
        }
        guard let w = word(current), let key = Keywords.groupKey(w) else {
            throw expected(["a group key (\(names.joined(separator: ", ")))"], keywords: names,
                           suggestion: word(current).flatMap { Keywords.periodSynonyms[$0] })
        }
        advance()
        return key
    }

    // MARK: Conditions

    /// where_clause -> 'where' condition
    mutating func whereClause() throws(QueryError) -> Condition {
        advance()
        return try condition()
    }

    /// condition -> conjunction ('or' conjunction)*
    mutating func condition() throws(QueryError) -> Condition {
        var terms = [try conjunction()]
        while accept("or") { terms.append(try conjunction()) }
        return terms.count == 1 ? terms[0] : .or(terms)
    }

    /// conjunction -> negation ('and' negation)*
    mutating func conjunction() throws(QueryError) -> Condition {
        var terms = [try negation()]
        while accept("and") { terms.append(try negation()) }
        return terms.count == 1 ? terms[0] : .and(terms)
    }

    /// negation -> 'not' negation | '(' condition ')' | comparison
    mutating func negation() throws(QueryError) -> Condition {
        depth += 1
        defer { depth -= 1 }
        if depth > Parser.maxDepth {
            throw QueryError(.nestedTooDeep(Parser.maxDepth), at: current.range)
        }
        if accept("not") { return .not(try negation()) }
        if isSymbol("(") {
            let open = current.range
            advance()
            let c = try condition()
            guard isSymbol(")") else {
                if current.kind == .end { throw QueryError(.unclosedParenthesis, at: open) }
                throw expected(["')'", "and", "or"], keywords: ["and", "or"])
            }
            advance()
            return c
        }
        return .comparison(try comparison())
    }

    static let operators = ["=", "!=", "<>", "<", "<=", ">", ">=", "~"]

    /// comparison -> field (('=' | '!=' | '<>' | '<' | '<=' | '>' | '>=' | '~') value | 'not'? 'in' '(' value (',' value)* ')')
    mutating func comparison() throws(QueryError) -> Comparison {
        let start = current.range.lowerBound
        let f = try field()
        if current.kind == .symbol, Parser.operators.contains(lexer.text(current)) {
            let text = lexer.text(current)
            let op = text == "<>" ? .notEqual : ComparisonOperator(rawValue: text) ?? .equal
            advance()
            let v = try value(for: f, op: op)
            return Comparison(field: f, op: op, values: [v], range: start..<previousEnd)
        }
        let negated = accept("not")
        guard accept("in") else {
            throw expected(["a comparison (=, !=, <, <=, >, >=, ~, in)"], keywords: ["in"])
        }
        let open = current.range
        try expectSymbol("(")
        var values: [LiteralValue] = []
        repeat {
            if !values.isEmpty { advance() }
            if current.kind == .end { throw QueryError(.unclosedParenthesis, at: open) }
            values.append(try value(for: f, op: .equal, inList: true))
        } while isSymbol(",")
        guard isSymbol(")") else {
            if current.kind == .end { throw QueryError(.unclosedParenthesis, at: open) }
            throw expected(["',' or ')'"])
        }
        advance()
        return Comparison(field: f, op: negated ? .notIn : .isIn, values: values, range: start..<previousEnd)
    }

    /// field -> 'amount' | 'category' | 'book' | 'party' | 'payment' | 'paymentMode' | 'currency' | 'tag' | 'tags' | 'remarks' | 'remark' | 'date'
    mutating func field() throws(QueryError) -> Field {
        let names = Keywords.words(.field)
        guard let w = word(current), let f = Keywords.field(w) else {
            throw expected(["a field (\(names.joined(separator: ", ")))"], keywords: names)
        }
        advance()
        return f
    }

    /// value -> STRING | NUMBER | date_expr | WORD+ | '(' 'none' ')'
    mutating func value(for field: Field, op: ComparisonOperator, inList: Bool = false) throws(QueryError) -> LiteralValue {
        let t = current
        switch field {
        case .amount:
            guard t.kind == .number else { throw expected(["a number"]) }
            let n = try number(t, "a number")
            advance()
            return LiteralValue(literal: .number(n), range: t.range)
        case .date:
            let d = try dateExpression()
            return LiteralValue(literal: .date(d), range: t.range.lowerBound..<previousEnd)
        default:
            if t.kind == .string {
                advance()
                return LiteralValue(literal: .text(lexer.stringValue(t)), range: t.range)
            }
            // `(none)` unquoted, as groups print it.
            if isSymbol("("), index + 2 < tokens.count, word(tokens[index + 1]) == "none",
               tokens[index + 2].kind == .symbol, lexer.text(tokens[index + 2]) == ")" {
                index += 3
                return LiteralValue(literal: .missing, range: t.range.lowerBound..<previousEnd)
            }
            // Bare words, spelled as typed from the first to the last (`Dr. Lal PathLabs`, `91springboard`).
            let first = index
            while isBare(current) {
                if !inList && isValueStop(current) { stoppedValue = (first, index, field); break }
                advance()
            }
            guard index > first else { throw expected(["a value (a \"quoted string\" or words)"]) }
            return LiteralValue(literal: .text(lexer.spelling(tokens[first..<index])), range: t.range.lowerBound..<previousEnd)
        }
    }

    // MARK: Periods and dates

    /// period -> ('since' | 'until' | 'before' | 'on' | 'during') date_expr
    mutating func period() throws(QueryError) -> PeriodClause {
        let start = current.range.lowerBound
        guard let w = word(current), let kind = PeriodKind(rawValue: w) else { throw expected(["a period"]) }
        advance()
        let date = try dateExpression()
        return PeriodClause(kind: kind, date: date, range: start..<previousEnd)
    }

    /// date_expr -> DATE | YEAR | 'today' | 'yesterday' | ('this' | 'last') ('week' | 'month' | 'quarter' | 'year') | 'last' NUMBER ('days' | 'day' | 'weeks' | 'week' | 'months' | 'month' | 'quarters' | 'quarter' | 'years' | 'year')
    mutating func dateExpression() throws(QueryError) -> DateExpression {
        let t = current
        let options = ["a date (2025-10-05, 2025-10, 2025, 2025-Q4, 2025-W41, today, this month, last 30 days)"]
        switch t.kind {
        case .date, .number:
            let text = lexer.text(t)
            guard let period = Period.parse(text) else { throw QueryError(.badDate(text), at: t.range) }
            advance()
            return .literal(period, text: text)
        case .word:
            let w = word(t) ?? ""
            switch w {
            case "today": advance(); return .relative(.day, offset: 0)
            case "yesterday": advance(); return .relative(.day, offset: -1)
            case "this", "last":
                advance()
                let next = current
                if w == "last", next.kind == .number {
                    guard let n = Int(lexer.text(next)), n > 0, n <= 100_000 else {
                        throw QueryError(.expected(["a number from 1 to 100000"], found: describe(next), suggestion: nil), at: next.range)
                    }
                    advance()
                    let plural = Keywords.words(.periodUnits)
                    guard let unit = word(current).flatMap(Keywords.periodUnit) else { throw expected(["days, weeks, months, quarters or years"], keywords: plural) }
                    // At most about 270 years back, whatever the unit.
                    let most = [PeriodUnit.day: 100_000, .week: 14_000, .month: 3_000, .quarter: 1_000, .year: 270][unit] ?? 100_000
                    guard n <= most else {
                        throw QueryError(.expected(["a number of \(unit.rawValue)s from 1 to \(most)"], found: describe(next), suggestion: nil), at: next.range)
                    }
                    advance()
                    return .trailing(n, unit)
                }
                let units = PeriodUnit.allCases.filter { $0 != .day }.map(\.rawValue)
                guard let unit = word(next).flatMap(PeriodUnit.init(rawValue:)), unit != .day else {
                    throw expected([units.joined(separator: ", ") + (w == "last" ? " or a number of them (last 30 days, last 3 months)" : "")], keywords: units)
                }
                advance()
                return .relative(unit, offset: w == "this" ? 0 : -1)
            default:
                throw expected(options, keywords: ["today", "yesterday", "this", "last"])
            }
        case .string:
            // `"2025-10-05"`, as SQL writes dates: the quotes are the only thing wrong.
            var e = expected(options)
            let inner = lexer.stringValue(t)
            let words = ["today", "yesterday", "this month", "last month", "this year", "last year"]
            if Period.parse(inner) != nil || words.contains(inner.lowercased()) { e.advice = .dropQuotes(inner) }
            throw e
        default:
            throw expected(options)
        }
    }

    // MARK: Valuation, what-if, order, top

    /// valuation -> 'at' ('market' | 'latest' | date_expr)
    mutating func valuation() throws(QueryError) -> ValuationClause {
        advance()
        if accept("market") { return .market }
        if accept("latest") { return .latest }
        if current.kind == .word && !["today", "yesterday", "this", "last"].contains(word(current) ?? "") {
            throw expected(["market, latest or a date"], keywords: ["market", "latest", "today"])
        }
        return .asOf(try dateExpression())
    }

    /// with_extra -> 'with' ('share' | 'running' 'total')
    mutating func withExtra(_ q: inout Query) throws(QueryError) {
        let start = current.range.lowerBound
        advance()
        if accept("share") {
            if q.withShare { throw repeated("with share", at: start..<previousEnd) }
            q.withShare = true
        } else {
            advance()
            try expectWord("total")
            if q.withRunningTotal { throw repeated("with running total", at: start..<previousEnd) }
            q.withRunningTotal = true
        }
        q.extrasRange = (q.extrasRange?.lowerBound ?? start)..<previousEnd
    }

    /// what_if -> 'with' rate_setting (',' rate_setting)*
    mutating func whatIf() throws(QueryError) -> [WhatIfRate] {
        advance()
        var rates = [try rateSetting()]
        while isSymbol(",") {
            advance()
            let r = try rateSetting()
            // Two rates for one pair (or a pair and its inverse) would leave the answer to their order.
            if let earlier = rates.first(where: { $0.pair == r.pair || $0.pair == r.pair.inverse }) {
                throw QueryError(.repeatedRate(r.pair, earlier: earlier.pair), at: r.range)
            }
            rates.append(r)
        }
        return rates
    }

    /// rate_setting -> ('rate' | 'rates')? pair '=' NUMBER
    mutating func rateSetting() throws(QueryError) -> WhatIfRate {
        let start = current.range.lowerBound
        _ = accept("rate") || accept("rates")
        let p = try pair()
        try expectSymbol("=")
        let r = try positiveNumber("a rate")
        return WhatIfRate(pair: p, rate: r, range: start..<previousEnd)
    }

    /// pair -> CURRENCY '/' CURRENCY
    mutating func pair() throws(QueryError) -> CurrencyPair {
        let a = try currency()
        guard isSymbol("/") else { throw expected(["'/' and a second currency (as in SGD/INR)"]) }
        advance()
        let at = current.range
        let b = try currency()
        guard a != b else { throw QueryError(.expected(["two different currencies"], found: "\(a)/\(b)", suggestion: nil), at: at) }
        return CurrencyPair(a, b)
    }

    /// The exact value of a number token: digits, a point, `_` between digits; never an exponent.
    func number(_ t: Token, _ what: String) throws(QueryError) -> ExactDecimal {
        let text = lexer.text(t)
        if text.contains(where: { $0 == "e" || $0 == "E" }) {
            throw QueryError(.expected([what + " written out in digits (1000, not 1e3)"], found: describe(t), suggestion: nil), at: t.range)
        }
        guard let n = ExactDecimal(text.replacingUnderscores()) else {
            // Digits with one point between them (`5.`, `1.2.3` are not numbers), else too many of them.
            let parts = text.replacingUnderscores().drop { $0 == "-" }.split(separator: ".", omittingEmptySubsequences: false)
            let wellFormed = parts.count <= 2 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }
            throw QueryError(.expected([what + (wellFormed ? " that has at most 38 digits" : " written as digits with at most one point between them (5 or 5.25)")],
                                       found: describe(t), suggestion: nil), at: t.range)
        }
        return n
    }

    mutating func positiveNumber(_ what: String) throws(QueryError) -> ExactDecimal {
        let t = current
        guard t.kind == .number else { throw expected([what + " (a positive number)"]) }
        let n = try number(t, what)
        guard n.isPositive else { throw QueryError(.expected([what + " above zero"], found: describe(t), suggestion: nil), at: t.range) }
        advance()
        return n
    }

    /// order_clause -> 'order' 'by' ('amount' | 'count' | 'date' | group_key) ('asc' | 'desc' | 'ascending' | 'descending')?
    mutating func orderClause() throws(QueryError) -> Order {
        let start = current.range.lowerBound
        advance()
        try expectWord("by")
        let key: OrderKey
        var byEntryCount = false
        switch word(current) {
        case "amount": key = .value; advance()
        case "count": key = .value; byEntryCount = true; advance()
        case "date": key = .date; advance()
        // `top category`, the group key of two words.
        case "top" where index + 1 < tokens.count && word(tokens[index + 1]).map({ Keywords.groupKey($0) == .category }) == true:
            key = .key(try groupKey())
        default:
            let names = ["amount", "count", "date"] + Keywords.words(.groupKey)
            guard let w = word(current), let g = Keywords.groupKey(w) else {
                throw expected(["amount, count, date or a group key"], keywords: names,
                               suggestion: word(current).flatMap { Keywords.amountSynonyms.contains($0) ? "amount" : nil })
            }
            advance()
            key = .key(g)
        }
        var descending = false
        if let w = word(current), let direction = Keywords.canonical(w, as: .direction) {
            descending = direction == "desc"
            advance()
        } else if current.kind == .word, let near = nearest(lexer.text(current).lowercased(), in: Keywords.words(.direction).reversed()),
                  index + 1 < tokens.count {
            // `order by amount dsc`: a near miss of a direction, not a stray word.
            throw expected(["asc or desc"], keywords: Keywords.words(.direction), suggestion: near)
        }
        return Order(key: key, descending: descending, byEntryCount: byEntryCount, range: start..<previousEnd)
    }

    /// show_clause -> 'show' list_column (',' list_column)*
    /// list_column -> 'id' | 'payment' | 'currency' | 'remarks' | 'tags'
    mutating func showClause() throws(QueryError) -> [ListColumn] {
        advance()
        var columns: [ListColumn] = []
        repeat {
            if !columns.isEmpty { advance() }
            let names = ListColumn.allCases.map(\.rawValue)
            guard let w = word(current), let c = ListColumn(rawValue: Keywords.listColumnAliases[w] ?? w) else {
                throw expected(["a column to show (\(names.joined(separator: ", ")))"], keywords: names)
            }
            if !columns.contains(c) { columns.append(c) }
            advance()
        } while isSymbol(",")
        return columns
    }

    /// top_clause -> 'top' NUMBER
    mutating func topClause() throws(QueryError) -> Int {
        advance()
        let t = current
        guard t.kind == .number, let n = Int(lexer.text(t)), n > 0 else {
            throw expected(["a whole number of rows above zero"])
        }
        advance()
        return n
    }

    // MARK: Other statements

    /// convert -> 'convert' NUMBER (CURRENCY ('to' | 'into' | 'in') CURRENCY conversion_clauses | UNIT ('to' | 'into' | 'in') UNIT)
    mutating func convert() throws(QueryError) -> Statement {
        advance()
        let t = current
        guard t.kind == .number else { throw expected(["an amount (convert 100 SGD to INR, convert 5 kg to lb)"]) }
        let amount = try number(t, "an amount")
        advance()
        // A unit of length, mass or temperature (`kg`, `mi`, `F`) is no currency code.
        // Three letters are taken for a currency code (and refused as one, with its nearest code).
        if current.kind == .word, Currency(caseInsensitiveCode: lexer.text(current)) == nil,
           UnitConversion.unit(named: lexer.text(current)) == nil, lexer.text(current).count != 3 {
            let text = lexer.text(current)
            let near = nearest(text, in: Parser.currencyCandidates) ?? nearest(text, in: UnitConversion.names)
            throw QueryError(.expected(["a currency code (INR, USD, …) or a unit (kg, lb, mi, km, C, F, …)"], found: describe(current), suggestion: near), at: current.range)
        }
        if current.kind == .word, Currency(caseInsensitiveCode: lexer.text(current)) == nil,
           UnitConversion.unit(named: lexer.text(current)) != nil {
            let from = current
            advance()
            guard accept("to") || accept("in") || accept("into") else { throw expected(["'to'"], keywords: ["to"]) }
            guard current.kind == .word else { throw expected(["a unit (\(UnitConversion.units.map(\.symbol).joined(separator: ", ")))"]) }
            let to = current
            advance()
            return .convertUnits(UnitRequest(amount: amount, from: lexer.text(from), fromRange: from.range, to: lexer.text(to), toRange: to.range))
        }
        let fromToken = current
        let from = try currency()
        guard accept("to") || accept("in") || accept("into") else { throw expected(["'to'"], keywords: ["to"]) }
        // A unit after a currency (`convert 5 USD to kg`) is a conversion between kinds, which the
        // unit conversion refuses naming both, as it does `convert 5 kg to USD`; not an unknown
        // currency with a near code (KGS).
        if current.kind == .word, Currency(caseInsensitiveCode: lexer.text(current)) == nil,
           UnitConversion.unit(named: lexer.text(current)) != nil {
            let to = current
            advance()
            return .convertUnits(UnitRequest(amount: amount, from: lexer.text(fromToken), fromRange: fromToken.range, to: lexer.text(to), toRange: to.range))
        }
        let to = try currency()
        var c = Conversion(amount: amount, from: from, to: to, valuation: nil, whatIf: [])
        try conversionClauses(&c.valuation, &c.whatIf)
        return .convert(c)
    }

    /// currency_list -> CURRENCY (',' CURRENCY)*
    mutating func currencyList() throws(QueryError) -> [Currency] {
        var list = [try currency()]
        while isSymbol(",") {
            advance()
            list.append(try currency())
        }
        return list
    }

    /// rates_import -> 'rates' 'import' (STRING | PATH)
    mutating func ratesImport() throws(QueryError) -> Statement {
        let t = current
        if t.kind == .string {
            advance()
            return .ratesImport(path: lexer.stringValue(t), range: t.range)
        }
        guard t.kind != .end else { throw expected(["a rate file (rates import rates.csv)"]) }
        // A bare path is the rest of the statement as typed (`Examples/ecb-sample.csv`).
        let bytes = Array(lexer.source.utf8)
        let end = tokens[tokens.count - 1].range.lowerBound
        var last = end
        while last > t.range.lowerBound, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[last - 1]) { last -= 1 }
        index = tokens.count - 1
        return .ratesImport(path: String(decoding: bytes[t.range.lowerBound..<last], as: UTF8.self), range: t.range.lowerBound..<last)
    }

    /// conversion_clauses -> (valuation what_if? | what_if valuation?)?
    mutating func conversionClauses(_ valuation: inout ValuationClause?, _ whatIf: inout [WhatIfRate]) throws(QueryError) {
        while current.kind != .end {
            let at = current.range
            if isWord("at") {
                if valuation != nil { throw repeated("at", at: at) }
                valuation = try self.valuation()
            } else if isWord("with") {
                if !whatIf.isEmpty { throw repeated("with", at: at) }
                whatIf = try self.whatIf()
            } else {
                let open = (valuation == nil ? ["at"] : []) + (whatIf.isEmpty ? ["with"] : [])
                throw expected(open + ["the end of the statement"], keywords: open)
            }
        }
    }

    /// rate -> 'rate' pair conversion_clauses
    mutating func rate() throws(QueryError) -> RateLookup {
        advance()
        var r = RateLookup(pair: try pair(), valuation: nil, whatIf: [])
        try conversionClauses(&r.valuation, &r.whatIf)
        return r
    }

    /// rates -> 'rates' ('refresh' CURRENCY? '--force'? | 'status' | rates_import | pair ('since' date_expr)? | 'watched'? rates_clause*)
    mutating func rates() throws(QueryError) -> RatesListing {
        advance()
        if current.kind == .word, index + 1 < tokens.count, tokens[index + 1].kind == .symbol, lexer.text(tokens[index + 1]) == "/" {
            let p = try pair()
            var since: DateExpression?
            if accept("since") { since = try dateExpression() }
            return .history(p, since: since)
        }
        var base: Currency?, filter: CurrencyFilter?, at: DateExpression?
        var seen: Set<String> = []
        let watchedOnly = accept("watched")
        while current.kind != .end {
            let clause = current.range
            guard let w = word(current), ["in", "where", "at"].contains(w) else {
                let open = ["in", "where", "at"].filter { !seen.contains($0) }
                throw expected(open + ["the end of the statement"], keywords: open)
            }
            guard seen.insert(w).inserted else { throw repeated(w, at: clause) }
            try ratesClause(&base, &filter, &at)
        }
        return .day(base: base, filter: filter, at: at, watchedOnly: watchedOnly)
    }

    /// rates_clause -> 'in' CURRENCY | 'where' 'currency' ('=' | '!=' | '<>' | '~') value | 'at' date_expr
    mutating func ratesClause(_ base: inout Currency?, _ filter: inout CurrencyFilter?, _ at: inout DateExpression?) throws(QueryError) {
        let w = word(current)
        advance()
        switch w {
        case "in": base = try currency()
        case "at": at = try dateExpression()
        default:
            guard accept("currency") else { throw expected(["currency"], suggestion: word(current).map { _ in "currency" }) }
            let test: CurrencyFilter.Test
            switch current.kind == .symbol ? lexer.text(current) : "" {
            case "=": test = .equal
            case "!=", "<>": test = .notEqual
            case "~": test = .contains
            default: throw expected(["'=', '!=' or '~'"])
            }
            advance()
            if case .text(let s) = try value(for: .currency, op: .contains).literal { filter = CurrencyFilter(test, s) }
        }
    }

    /// set -> 'set' ('rate' pair '=' NUMBER | 'currency' CURRENCY | 'max' 'rate' 'age' NUMBER ('days' | 'day'))
    mutating func set() throws(QueryError) -> Statement {
        advance()
        if accept("max") {
            try expectWord("rate")
            try expectWord("age")
            let t = current
            guard t.kind == .number, let n = Int(lexer.text(t)), n >= 0, n <= RateAgePolicy.mostDays else {
                throw expected(["a whole number of days from 0 to \(RateAgePolicy.mostDays)"])
            }
            advance()
            guard accept("days") || accept("day") else { throw expected(["days"], keywords: ["days"]) }
            return .setMaxRateAge(n)
        }
        if accept("rate") {
            let p = try pair()
            try expectSymbol("=")
            return .setRate(p, try positiveNumber("a rate"))
        }
        if accept("currency") { return .setCurrency(try currency()) }
        throw expected(["rate, currency or max rate age"], keywords: ["rate", "currency", "max"])
    }

    /// unset -> 'unset' ('rate' pair | 'max' 'rate' 'age')
    mutating func unset() throws(QueryError) -> Statement {
        advance()
        if accept("max") {
            try expectWord("rate")
            try expectWord("age")
            return .setMaxRateAge(nil)
        }
        try expectWord("rate")
        let start = current.range.lowerBound
        let p = try pair()
        return .unsetRate(p, start..<previousEnd)
    }
}

extension String {
    /// `1_000_000` → `1000000`.
    func replacingUnderscores() -> String { filter { $0 != "_" } }
}

