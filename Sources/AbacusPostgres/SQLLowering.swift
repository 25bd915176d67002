// The logical plan lowered to SQL (docs/postgres.md): a second lowering of the plan the
// binder makes, beside the in-memory planner's (docs/architecture.md).
//
// What lowers: the subject, the day range and the condition into one WHERE clause; the
// group keys into GROUP BY expressions (a tag key joins the entry's tags, an entry without
// one in the group of none; a period key is the period's first day); the aggregate into
// `count(*)` or an exact `sum(amount)` on `numeric` (converted: SQLConversion.swift). The SQL is plain: no extension, no
// function or aggregate of Abacus's own, so that it runs on PostgreSQL-compatible
// distributed engines. Anything that does not lower (a test of converted amounts, text
// compared in any letter case) makes `lowers` false, and the in-memory
// engine runs the statement.

import AbacusCore
import AbacusQuery

struct SQLLowering {
    let plan: LogicalPlan
    let ledger: Ledger

    /// A SQL string literal (standard_conforming_strings is on: only the quote doubles).
    static func literal(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "''") + "'" }
    static func literal(_ d: Day) -> String { "DATE '\(d.description)'" }

    /// The WHERE clause: subject, days and condition (nil if one of them does not lower).
    var whereClause: String? {
        var terms: [String] = []
        switch plan.subject {
        case .expenses: terms.append("e.amount < 0 AND NOT e.is_transfer")
        case .income: terms.append("e.amount > 0 AND NOT e.is_transfer")
        case .transfers: terms.append("e.is_transfer")
        case .entries: break
        }
        if let days = plan.days, let d = SQLLowering.days(days) { terms.append(d) }
        if let c = plan.condition {
            guard let t = condition(c) else { return nil }
            terms.append(t)
        }
        return terms.isEmpty ? "TRUE" : terms.joined(separator: "\n  AND ")
    }

    static func days(_ r: DayRange) -> String? {
        if r.isEmpty { return "FALSE" }
        var t: [String] = []
        if r.first != .distantPast { t.append("e.day >= " + literal(r.first)) }
        if r.last != .distantFuture { t.append("e.day <= " + literal(r.last)) }
        return t.isEmpty ? nil : t.joined(separator: " AND ")
    }

    func column(_ f: NameField) -> String {
        switch f {
        case .category: "e.category"
        case .book: "e.book_id"
        case .party: "e.party"
        case .payment: "e.payment"
        case .remarks: "e.remarks"
        case .tag: "e.tags"
        }
    }

    /// A condition as a SQL expression that is never NULL (nil: it does not lower exactly).
    func condition(_ c: LogicalCondition) -> String? {
        switch c {
        case .always(let b):
            return b ? "TRUE" : "FALSE"
        case .names(let f, let names):
            var terms: [String] = []
            let given = names.compactMap { $0 }
            let values: [String] = f == .book ? ledger.books.filter { given.contains($0.name) }.map(\.id) : given
            if f == .tag {
                if !values.isEmpty { terms.append("e.tags && ARRAY[\(values.map(SQLLowering.literal).joined(separator: ", "))]::text[]") }
                if names.contains(where: { $0 == nil }) { terms.append("cardinality(e.tags) = 0") }
            } else {
                if !values.isEmpty {
                    // Never NULL, and still a plain test an index serves.
                    let test = "\(column(f)) IN (\(values.map(SQLLowering.literal).joined(separator: ", ")))"
                    terms.append(f == .category || f == .book ? test : "(\(column(f)) IS NOT NULL AND \(test))")
                }
                if names.contains(where: { $0 == nil }) { terms.append("\(column(f)) IS NULL") }
            }
            return terms.isEmpty ? "FALSE" : "(" + terms.joined(separator: " OR ") + ")"
        case .currencies(let cs):
            return cs.isEmpty ? "FALSE" : "e.currency IN (\(cs.map { SQLLowering.literal($0.code) }.joined(separator: ", ")))"
        case .days(let r):
            return SQLLowering.days(r).map { "(" + $0 + ")" } ?? "TRUE"
        case .and(let cs):
            var parts: [String] = []
            for x in cs { guard let p = condition(x) else { return nil }; parts.append(p) }
            return "(" + parts.joined(separator: " AND ") + ")"
        case .or(let cs):
            var parts: [String] = []
            for x in cs { guard let p = condition(x) else { return nil }; parts.append(p) }
            return "(" + parts.joined(separator: " OR ") + ")"
        case .not(let x):
            return condition(x).map { "NOT (" + $0 + ")" }
        case .contains, .ordered, .amount, .amountIn:
            // Letter case is folded by Swift's rules, which a server's collation need not share;
            // amounts are compared converted. The in-memory engine runs these.
            return nil
        }
    }

    /// A group key as a SQL expression giving text.
    static func key(_ k: GroupKey) -> String {
        switch k {
        case .category, .topCategory: "e.category"
        case .book: "e.book_id"
        case .party: "e.party"
        case .payment: "e.payment"
        case .currency: "e.currency"
        case .tag: "t.tag"
        case .day: "e.day::text"
        case .week, .month, .quarter, .year: "CAST(date_trunc('\(k.rawValue)', e.day) AS date)::text"
        }
    }

    /// The statement over groups `keys` (each entry once when `keys` is empty), selecting the
    /// keys, the count, and the aggregate of the amounts as the result shows them.
    func groups(_ keys: [GroupKey]) -> String? {
        guard let w = whereClause else { return nil }
        let exprs = keys.map(SQLLowering.key)
        var sql = "SELECT " + (exprs + ["count(*)::text", "(\(aggregate))::text"]).joined(separator: ", ")
        sql += "\nFROM abacus_entries e"
        if keys.contains(.tag) { sql += "\n  LEFT JOIN LATERAL unnest(e.tags) AS t(tag) ON TRUE" }
        sql += "\nWHERE " + w
        if !keys.isEmpty { sql += "\nGROUP BY " + exprs.joined(separator: ", ") }
        return sql
    }

    /// The aggregate over the amounts as the result shows them (an expense as a positive
    /// amount): the exact sum (for `count` and `avg` too: an average is the sum over the
    /// count, divided in Swift), or the least or greatest amount.
    var aggregate: String {
        let expenses = plan.subject == .expenses
        switch plan.aggregate {
        case .count, .sum, .avg, .list: return expenses ? "-coalesce(sum(e.amount), 0)" : "coalesce(sum(e.amount), 0)"
        case .min: return expenses ? "-max(e.amount)" : "min(e.amount)"
        case .max: return expenses ? "-min(e.amount)" : "max(e.amount)"
        }
    }

    /// Whether this plan lowers: a count that tests no amount, a sum, an average, a least or a
    /// greatest amount, in native currencies or converted (SQLConversion.swift).
    var lowers: Bool {
        if plan.condition?.testsAmount == true { return false }
        // The category tree's roots and split entries' parts are the in-memory engine's.
        if plan.groupBy.contains(.topCategory) || plan.readsSplits { return false }
        switch plan.aggregate {
        case .count, .sum, .avg, .min, .max: return true
        case .list: return false
        }
    }
}
