// Parsing `budget`, `balance`, `networth` and `holdings` (and `explain` of each): each
// function implements one rule of Grammar/abacus.grammar and quotes it.

import AbacusCore

extension Parser {
    /// The words that start a report statement.
    static let reportWords: Set<String> = ["budget", "balance", "networth", "holdings"]

    /// report -> budget | balance | networth | holdings
    mutating func report() throws(QueryError) -> Report {
        switch word(current) {
        case "budget": return .budget(try budget())
        case "balance": return .balance(try balance())
        case "networth": return .networth(try networth())
        default: return .holdings(try holdings())
        }
    }

    /// report_clause -> currency_clause | 'at' date_expr | period | date_expr
    /// Reads one clause into the parts a report has; `allowed` names the clauses it takes.
    private mutating func reportClause(currency: inout Currency?, at: inout DateExpression?, periods: inout [PeriodClause],
                                       allowed: Set<String>) throws(QueryError) {
        let range = current.range
        switch word(current) {
        case "in" where allowed.contains("in"):
            if currency != nil { throw repeated("in", at: range) }
            let (c, r) = try currencyClause()
            guard case .code(let code) = c else {
                throw QueryError(.unsupported("this statement converts into one currency: `in native` does not apply"), at: r)
            }
            currency = code
        case "at" where allowed.contains("at"):
            if at != nil { throw repeated("at", at: range) }
            advance()
            at = try dateExpression()
        case let w? where allowed.contains("period") && PeriodKind(rawValue: w) != nil:
            periods.append(try period())
        default:
            guard allowed.contains("period"), current.kind == .date || current.kind == .number || ["this", "last", "today", "yesterday"].contains(word(current) ?? "") else {
                let options = allowed.sorted().map { $0 == "period" ? "a period (2025-10, this month, since 2025-09)" : $0 == "at" ? "at DATE" : "in CUR" }
                throw expected(options)
            }
            let date = try dateExpression()
            periods.append(PeriodClause(kind: .during, date: date, range: range.lowerBound..<previousEnd))
        }
    }

    /// budget -> 'budget' (currency_clause | period | date_expr)*
    mutating func budget() throws(QueryError) -> BudgetRequest {
        advance()
        var r = BudgetRequest()
        var at: DateExpression?
        while current.kind != .end { try reportClause(currency: &r.currency, at: &at, periods: &r.periods, allowed: ["in", "period"]) }
        return r
    }

    /// balance -> 'balance' ('by' ('book' | 'books'))? (currency_clause | 'at' date_expr)*
    mutating func balance() throws(QueryError) -> BalanceRequest {
        advance()
        var r = BalanceRequest()
        if accept("by") {
            guard let w = word(current), Keywords.groupKey(w) == .book else { throw expected(["book"], keywords: ["book"]) }
            advance()
            r.byBook = true
        }
        var periods: [PeriodClause] = []
        while current.kind != .end { try reportClause(currency: &r.currency, at: &r.at, periods: &periods, allowed: ["in", "at"]) }
        return r
    }

    /// networth -> 'networth' ((currency_clause | 'at' date_expr)* | 'by' ('month' | 'quarter' | 'year') (currency_clause | period | date_expr)*)
    mutating func networth() throws(QueryError) -> NetWorthRequest {
        advance()
        var r = NetWorthRequest()
        if accept("by") {
            guard let w = word(current), let unit = Keywords.periodUnit(w), [.month, .quarter, .year].contains(unit) else {
                throw expected(["month, quarter or year"], keywords: ["month", "quarter", "year"])
            }
            advance()
            r.by = unit
        }
        let allowed: Set<String> = r.by == nil ? ["in", "at"] : ["in", "period"]
        while current.kind != .end { try reportClause(currency: &r.currency, at: &r.at, periods: &r.periods, allowed: allowed) }
        return r
    }

    /// holdings -> 'holdings' (currency_clause | 'at' date_expr)*
    mutating func holdings() throws(QueryError) -> HoldingsRequest {
        advance()
        var r = HoldingsRequest()
        var periods: [PeriodClause] = []
        while current.kind != .end { try reportClause(currency: &r.currency, at: &r.at, periods: &periods, allowed: ["in", "at"]) }
        return r
    }
}
