// Queries run in the database: the plan lowered to SQL (`SQLLowering`), the exact values
// read back as text, finished in Swift (a native sum, least or greatest amount rounded once,
// half-even, to the currency's minor unit; an average the exact quotient of the sum by the
// count, rounded once) and shaped by the in-memory engine's own result shaper
// (docs/postgres.md). A converted sum runs in SQLConversion.swift. What does not lower runs
// in memory.

import AbacusCore
import AbacusQuery

public final class SQLEngine: QueryEngine, @unchecked Sendable {
    let db: Database
    public init(db: Database) { self.db = db }

    public func explain(_ plan: LogicalPlan, in session: Session) -> String? {
        if plan.aggregate == .list { return explainList(plan, in: session) }
        let lowering = SQLLowering(plan: plan, ledger: session.ledger)
        guard lowering.lowers else { return nil }
        if plan.aggregate != .count || lowering.convertsAmounts, let target = plan.target { return SQLConversion(lowering: lowering, target: target).explained }
        return lowering.groups(plan.groupBy)
    }

    /// A group key's cell from the text the database gave.
    func keyCell(_ k: GroupKey, _ text: String?, ledger: Ledger) throws(QueryError) -> Cell {
        guard let text else { return .none }
        switch k {
        case .category, .topCategory, .party, .payment, .tag: return .text(text)
        case .book:
            guard let name = ledger.books.first(where: { $0.id == text })?.name else {
                throw QueryError(.database("the database names a book \(text) that its books table lacks"), at: nil)
            }
            return .text(name)
        case .currency:
            guard let c = Currency(code: text) else { throw QueryError(.database("the database holds an unknown currency code \(text)"), at: nil) }
            return .currency(c)
        case .day, .week, .month, .quarter, .year:
            guard let d = Day.parse(text), let unit = k.periodUnit else { throw QueryError(.database("the database gave a date \(text) Abacus cannot read"), at: nil) }
            return .period(Period(unit, containing: d))
        }
    }

    func query(_ sql: String) throws(QueryError) -> [TextRow] {
        do { return try db.query(sql) } catch { throw QueryError(.database("the database failed the statement: " + error.description), at: nil) }
    }

    public func run(_ plan: LogicalPlan, in session: Session) throws(QueryError) -> ResultSet? {
        if plan.aggregate == .list { return try runList(plan, in: session) }
        let ledger = session.ledger
        let lowering = SQLLowering(plan: plan, ledger: ledger)
        guard lowering.lowers else { return nil }
        if plan.aggregate != .count || lowering.convertsAmounts, let target = plan.target { return try runConverted(plan, target: target, lowering: lowering, in: session) }
        guard let sql = lowering.groups(plan.groupBy) else { return nil }
        let keys = plan.groupBy

        func exact(_ text: String?) throws(QueryError) -> ExactDecimal {
            guard let text else { throw QueryError(.database("the database gave no sum for a group"), at: nil) }
            guard let d = ExactDecimal(text) else { throw QueryError(.database("the database gave a sum \(text) that Abacus cannot hold exactly"), at: nil) }
            return d
        }
        func count(_ text: String?) throws(QueryError) -> Int {
            guard let text, let n = Int(text) else { throw QueryError(.database("the database gave a count \(text ?? "NULL") Abacus cannot read"), at: nil) }
            return n
        }
        /// A native value as shown: rounded once, half-even, to the currency's minor unit.
        func money(_ d: ExactDecimal, _ c: Currency) throws(QueryError) -> Cell {
            let r = d.rounded(toScale: c.minorUnits)
            do { return .money(try r.rescaled(to: c.minorUnits), c) } catch { throw QueryError(.overflow, at: nil) }
        }
        /// The value of `n` entries whose aggregate the database gave as `s`: a sum or an
        /// extreme as it is, an average the exact quotient, each rounded once.
        func shown(_ s: ExactDecimal, entries n: Int, _ c: Currency) throws(QueryError) -> Cell {
            guard plan.aggregate == .avg else { return try money(s, c) }
            guard n > 0 else { return .empty }
            guard let r = Fraction(s).divided(by: n).rounded(toScale: c.minorUnits) else { throw QueryError(.overflow, at: nil) }
            return .money(r, c)
        }

        let rows = try query(sql)
        var groups: [ComputedGroup] = []
        var sums: [ExactDecimal] = []
        var counts: [Int] = []
        let ci = keys.firstIndex(of: .currency)
        for r in rows {
            var key: [Cell] = []
            for (i, k) in keys.enumerated() { key.append(try keyCell(k, r[i], ledger: ledger)) }
            let n = try count(r[keys.count])
            let s = try exact(r[keys.count + 1])
            let value: Cell
            if plan.aggregate == .count {
                value = .count(n)
            } else {
                guard let ci, case .currency(let c) = key[ci] else { return nil }
                value = try shown(s, entries: n, c)
            }
            groups.append(ComputedGroup(key: key, value: value, entries: n))
            sums.append(s)
            counts.append(n)
        }
        let whole: () throws(QueryError) -> Cell = { [self] () throws(QueryError) -> Cell in
            guard let sql = lowering.groups([]), let row = try self.query(sql).first else {
                throw QueryError(.database("the database gave no row for the whole statement's count"), at: nil)
            }
            return .count(try count(row[0]))
        }
        let subtotal: ([Int]) throws(QueryError) -> Cell? = { ids in
            plan.aggregate == .count ? .count(ids.reduce(0) { $0 + counts[$1] }) : nil
        }
        let currencyTotal: ([Int], Currency, Bool) throws(QueryError) -> Cell? = { [self] (ids, c, shownAll) throws(QueryError) -> Cell? in
            if keys.contains(.tag) && shownAll {
                // Each entry once: the statement again, by currency alone.
                guard let sql = lowering.groups([.currency]) else { return nil }
                for row in try self.query(sql) where row[0] == c.code { return try shown(try exact(row[2]), entries: try count(row[1]), c) }
                return nil
            }
            switch plan.aggregate {
            case .min, .max:
                // The extreme of the groups' extremes (rounding keeps their order).
                let values = ids.map { sums[$0] }
                guard let v = plan.aggregate == .max ? values.max() : values.min() else { return nil }
                return try money(v, c)
            case .count, .sum, .avg, .list:
                var total = ExactDecimal(0)
                do throws(ExactDecimal.Overflow) {
                    for id in ids { total = try total.adding(sums[id]) }
                } catch {
                    throw QueryError(.overflow, at: nil)
                }
                return try shown(total, entries: ids.reduce(0) { $0 + counts[$1] }, c)
            }
        }
        return try ResultSet.shaped(plan, ledger: ledger, groups: groups, whole: whole, subtotal: subtotal,
                                    currencyTotal: currencyTotal, isCancelled: session.isCancelled)
    }
}
