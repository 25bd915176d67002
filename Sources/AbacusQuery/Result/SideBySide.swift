// A comparison (`sum expenses by category this month vs previous period`): the
// statement as written (A) and once more with one thing changed (B), side by side.
//
// Both sides run as plain plans over every group, in key order; the rows are the
// groups of either side (0 or empty on the side without it), ordered as the statement
// says (`order by amount` ranks by A's value), then cut by `top N`. `change` is A − B of
// the values as shown, so the columns add up; `change %` is (A − B) / |B| × 100,
// half-even to one decimal, empty when B is 0 or empty. docs/language.md, Reports.

import AbacusCore

struct SideBySide {
    /// A, as written.
    let a: LogicalPlan
    /// B: one thing changed.
    let b: LogicalPlan
    /// The value columns' names: what differs (periods, valuations, rates).
    let names: (a: String, b: String)
    let engine: ReportEngine

    func run() throws(QueryError) -> ResultSet {
        let ra = try engine.result(of: a.unranked), rb = try engine.result(of: b.unranked)
        let keys = a.groupBy
        if let paired = try keyedInKeyOrder(ra, rb) { return paired }
        // Every group of either side, A's first, and B's value of each (by the group's id).
        var groups: [GroupValue] = []
        var valueB: [Cell] = []
        if ra.rows.count == rb.rows.count, zip(ra.rows, rb.rows).allSatisfy({ $0.dropLast() == $1.dropLast() }) {
            // The same groups in the same order (a valuation or rates compared, nearly always):
            // paired row by row, no key hashed.
            for (x, y) in zip(ra.rows, rb.rows) {
                groups.append(GroupValue(id: groups.count, key: Array(x.dropLast()), value: x.last ?? .empty, entries: 0))
                valueB.append(y.last ?? .empty)
            }
        } else {
            let valuesA = ra.valuesByKey, valuesB = rb.valuesByKey
            var seen = Set<[Cell]>()
            for row in ra.rows + rb.rows {
                let key = Array(row.dropLast())
                guard seen.insert(key).inserted else { continue }
                let empty = a.aggregate.emptyValue(in: a.target ?? key.currency)
                groups.append(GroupValue(id: groups.count, key: key, value: valuesA[key].or(empty), entries: 0))
                valueB.append(valuesB[key].or(empty))
            }
        }
        var rows = keys.isEmpty ? groups : ResultShaper.ordered(groups, keys: keys, order: a.order, byEntries: false)
        if a.target == nil, a.order?.key == .value, a.aggregate != .count {
            try ResultShaper.refuseRankingAcrossCurrencies(rows.compactMap(\.value.currencyValue), home: engine.context.ledger.defaultCurrency)
        }
        let cut = a.top.map { $0 < rows.count } ?? false
        if let top = a.top, cut { rows = Array(rows.prefix(top)) }

        let kind = ra.columns.last?.kind ?? .money
        var out = ResultSet(columns: Array(ra.columns.dropLast()) + [Column(names.a, kind), Column(names.b, kind), Column("change", kind), Column("change %", .quantity)],
                            rows: [], currency: ra.currency, warnings: SideBySide.merged(ra.warnings, rb.warnings),
                            provenance: ra.provenance, rateNotes: ra.rateNotes)
        for g in rows {
            let other = valueB[g.id]
            out.rows.append(g.key + [g.value, other] + (try SideBySide.change(g.value, other)))
        }
        // Total rows: each side's own, or, after `top N`, over the entries of the rows shown.
        // None where a total would repeat its row: no keys, or `currency` alone in native.
        guard !keys.isEmpty, !(keys == [.currency] && !a.totalKeys.isEmpty) else { return out }
        if cut {
            let shown = rows.map(\.key)
            let ledger = engine.context.ledger
            let totalsA = try engine.result(of: a.totals(overRows: shown, in: ledger))
            let totalsB = try engine.result(of: b.totals(overRows: shown, in: ledger)).valuesByKey
            let label = Cell.total(a.aggregate.adds ? .totalOfTop(a.top ?? 0) : .overallOfTop(a.top ?? 0))
            for row in totalsA.rows {
                let totalKey = Array(row.dropLast())
                var labels = [label] + Array(repeating: Cell.empty, count: keys.count - 1)
                if let c = totalKey.first, let ci = keys.firstIndex(of: .currency) {
                    labels[ci] = c
                    if ci == 0 { labels[1] = label }
                }
                let va = row.last ?? .empty, vb = totalsB[totalKey].or(a.aggregate.emptyValue(in: a.target ?? totalKey.currency))
                out.totals.append(labels + [va, vb] + (try SideBySide.change(va, vb)))
            }
        } else {
            out.totals = try SideBySide.totals(ra, rb, a)
        }
        return out
    }

    /// Both sides' rows held as columns (`KeyedRows`) with the same groups in the same order (a
    /// valuation or rates compared, nearly always), shown in key order and all of them: the
    /// comparison's rows are theirs, held as columns too, each with A's value, B's, and the
    /// change; nil otherwise (`run` pairs them by their cells).
    private func keyedInKeyOrder(_ ra: ResultSet, _ rb: ResultSet) throws(QueryError) -> ResultSet? {
        guard a.order == nil, a.top == nil, !a.groupBy.isEmpty, let x = ra.keyed, let y = rb.keyed, x.width == 1, y.width == 1,
              x.index == y.index, x.dictionaries == y.dictionaries else { return nil }
        var tail: [Cell] = []
        tail.reserveCapacity(x.count * 4)
        for r in 0..<x.count {
            let (va, vb) = (x.tail[r], y.tail[r])
            tail.append(va)
            tail.append(vb)
            tail.append(contentsOf: try SideBySide.change(va, vb))
        }
        let kind = ra.columns.last?.kind ?? .money
        var out = ResultSet(columns: Array(ra.columns.dropLast()) + [Column(names.a, kind), Column(names.b, kind), Column("change", kind), Column("change %", .quantity)],
                            rows: [], currency: ra.currency, warnings: SideBySide.merged(ra.warnings, rb.warnings),
                            provenance: ra.provenance, rateNotes: ra.rateNotes)
        out.keyed = KeyedRows(dictionaries: x.dictionaries, index: x.index, tail: tail, width: 4)
        guard !(a.groupBy == [.currency] && !a.totalKeys.isEmpty) else { return out }
        out.totals = try SideBySide.totals(ra, rb, a)
        return out
    }

    /// Each side's total rows side by side, matched by their currency (in native), not their
    /// label: each side says for itself whether its total took an entry in several rows once.
    static func totals(_ ra: ResultSet, _ rb: ResultSet, _ a: LogicalPlan) throws(QueryError) -> [[Cell]] {
        let totalsB = Dictionary(rb.totals.map { ($0.dropLast().currency, $0.last ?? .empty) }, uniquingKeysWith: { x, _ in x })
        var out: [[Cell]] = []
        for total in ra.totals {
            let labels = Array(total.dropLast())
            let va = total.last ?? .empty, vb = totalsB[labels.currency].or(a.aggregate.emptyValue(in: a.target ?? labels.currency))
            out.append(labels + [va, vb] + (try SideBySide.change(va, vb)))
        }
        return out
    }

    /// `change` and `change %` of two values as shown.
    static func change(_ a: Cell, _ b: Cell) throws(QueryError) -> [Cell] {
        guard let x = a.amount, let y = b.amount else { return [.empty, .empty] }
        let d: ExactDecimal
        do throws(ExactDecimal.Overflow) { d = try x.subtracting(y) } catch { throw QueryError(.overflow, at: nil) }
        let change: Cell
        switch a {
        case .money(_, let c): change = .money(d, c)
        default: change = .count(Int(d.significand))
        }
        guard !y.isZero else { return [change, .empty] }
        return [change, d.percent(ofMagnitude: y).map(Cell.decimal) ?? .empty]
    }

    /// Both sides' warnings, each once, A's first.
    static func merged(_ a: [String], _ b: [String]) -> [String] {
        var out = a
        for w in b where !out.contains(w) { out.append(w) }
        return out
    }
}
