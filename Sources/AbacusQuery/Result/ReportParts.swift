// What the reports (`per` crosstabs, `vs` comparisons) share: a report runs the
// statement's logical plan several times with a change (other keys, another period or
// valuation, only the rows shown) and puts the typed results together. Each run is
// an ordinary plan, so its rates, warnings and exact rounding are the query's own.
// docs/language.md, Reports.

import AbacusCore

/// Where a statement's plans run: a database server's engine (`--db`) when it takes the
/// plan, else the in-memory store the session gives the statement (the split view when it
/// reads categories).
struct ReportEngine {
    let query: Query
    let session: Session

    init(_ query: Query, in session: Session) {
        self.query = query
        self.session = session
    }

    /// The session's ledger (or its split view) as the query reads it. Names resolve alike
    /// whether the entries are resident or in a database (`Ledger.entriesElsewhere`).
    var context: PlanContext { session.engine(for: query).context }

    /// The in-memory executor, the entries read first when they live in a database.
    func executor() throws(QueryError) -> Executor {
        try session.loadEntries()
        return session.engine(for: query).executor
    }

    func bind(_ q: Query) throws(QueryError) -> LogicalPlan { try Binder.bind(q, in: context) }

    /// The result of a logical plan: from the database engine when there is one and it takes
    /// the plan, else lowered for the in-memory store and run.
    func result(of logical: LogicalPlan) throws(QueryError) -> ResultSet {
        if let external = session.engine, let result = try external.run(logical, in: session) { return result }
        let executor = try executor()
        return try executor.run(physical(logical))
    }

    /// The in-memory store's plan of a logical plan.
    func physical(_ logical: LogicalPlan) -> Plan {
        let context = self.context
        return Planner.lower(logical, ledger: context.ledger, useIndexes: context.useIndexes)
    }

    /// The physical plan of a logical plan as `explain` shows it, with the SQL that runs it on
    /// a database server (the entries read first when it runs in memory).
    func lowered(_ logical: LogicalPlan) throws(QueryError) -> Plan {
        let sql = session.engine?.explain(logical, in: session)
        if sql == nil { try session.loadEntries() }
        var plan = physical(logical)
        plan.sql = sql
        return plan
    }
}

extension LogicalPlan {
    /// The same statement without ranking or cutting: every group, in key order.
    var unranked: LogicalPlan {
        var p = self
        p.order = nil
        p.top = nil
        p.per = nil
        return p
    }

    /// The keys a report's total rows keep: `in native`, one total per currency.
    var totalKeys: [GroupKey] {
        target == nil && aggregate != .count && groupBy.contains(.currency) ? [.currency] : []
    }

    /// The statement restricted to the entries of some rows of its result (after `top N`),
    /// whose first cells are the values of `groupBy`: each entry once, however many rows
    /// it is in (tags).
    func restricted(toRows rows: [[Cell]], in ledger: Ledger) -> LogicalPlan {
        var terms: [LogicalCondition] = []
        for row in rows {
            let parts = zip(groupBy, row).map { LogicalPlan.condition($0, $1, in: ledger) }
            terms.append(parts.count == 1 ? parts[0] : .and(parts))
        }
        let shown: LogicalCondition = terms.count == 1 ? terms[0] : .or(terms)
        var p = self
        p.condition = condition.map { .and([$0, shown]) } ?? shown
        return p
    }

    /// The total rows over the entries of some rows of the result (after `top N`): the
    /// statement restricted to them, grouped by its total keys alone.
    func totals(overRows rows: [[Cell]], in ledger: Ledger) -> LogicalPlan {
        var p = restricted(toRows: rows, in: ledger).unranked
        p.groupBy = totalKeys
        return p
    }

    /// The test that an entry has a key's value (a row's cell of that key).
    static func condition(_ key: GroupKey, _ cell: Cell, in ledger: Ledger) -> LogicalCondition {
        switch (key, cell) {
        case (_, .period(let p)): return .days(p.days)
        case (_, .currency(let c)): return .currencies([c])
        // A root of the category tree stands for its whole subtree.
        case (.topCategory, .text(let root)): return .names(.category, ledger.categoryAndDescendants(root))
        case (_, .text(let name)): return NameField(rawValue: key.rawValue).map { .names($0, [name]) } ?? .always(false)
        case (_, .none): return NameField(rawValue: key.rawValue).map { .names($0, [nil]) } ?? .always(false)
        // No key has other values.
        default: return .always(false)
        }
    }
}

extension Aggregate {
    /// A group's value where it has no entries: 0 for sum and count, nothing for the others.
    func emptyValue(in currency: Currency?) -> Cell {
        switch self {
        case .count: return .count(0)
        case .sum: return currency.map { .money(ExactDecimal(significand: 0, scale: $0.minorUnits), $0) } ?? .empty
        default: return .empty
        }
    }

    /// Whether its values add up (`sum`, `count`).
    var adds: Bool { self == .sum || self == .count }
}

extension TotalLabel {
    /// Whether the total covers only the rows `top N` kept.
    var isTopCut: Bool {
        switch self {
        case .totalOfTop, .overallOfTop: return true
        default: return false
        }
    }
}

extension Cell {
    /// The currency of a money cell or a currency key.
    var currencyValue: Currency? {
        switch self {
        case .money(_, let c), .currency(let c): return c
        default: return nil
        }
    }

    /// The number a value cell holds (money or a count).
    var amount: ExactDecimal? {
        switch self {
        case .money(let d, _): return d
        case .count(let n): return ExactDecimal(n)
        default: return nil
        }
    }
}

extension Optional where Wrapped == Cell {
    /// The cell, or `fallback` where there is none.
    func or(_ fallback: Cell) -> Cell {
        if let c = self { return c }
        return fallback
    }
}

extension Array where Element == Cell {
    /// The currency a row's key cells name (`in native`), if any.
    var currency: Currency? {
        for c in self { if case .currency(let cur) = c { return cur } }
        return nil
    }
}

extension ResultSet {
    /// The rows (and total rows) and their values: key cells → the last cell.
    var valuesByKey: [[Cell]: Cell] {
        var out: [[Cell]: Cell] = [:]
        for row in rows { out[Array(row.dropLast())] = row.last ?? .empty }
        return out
    }

    /// Whether the total rows cover only the rows `top N` kept.
    var totalsAreCut: Bool {
        totals.contains { $0.contains { if case .total(let l) = $0 { return l.isTopCut } else { return false } } }
    }
}
