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

        var out = emptyResult(ra, rb)
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

    /// Both sides' rows held as columns (`KeyedRows`), shown in key order and all of them: the
    /// comparison's rows are held as columns too, each with A's value, B's, and the change. The
    /// same groups in the same order (a valuation or rates compared, nearly always) are paired row
    /// by row; otherwise (periods compared) each key's values of both sides are put in one order
    /// and the two sides' rows, each in key order already, merged by them. Nil for other results
    /// (`run` pairs them by their cells).
    private func keyedInKeyOrder(_ ra: ResultSet, _ rb: ResultSet) throws(QueryError) -> ResultSet? {
        guard a.order == nil, a.top == nil, !a.groupBy.isEmpty, let x = ra.keyed, let y = rb.keyed, x.width == 1, y.width == 1,
              x.keyCount == y.keyCount else { return nil }
        let keys = x.keyCount
        let dictionaries: [[Cell]], index: [UInt32]
        var tail: [Cell] = []
        tail.reserveCapacity((x.count + y.count) * 4)
        func add(_ va: Cell, _ vb: Cell) throws(QueryError) {
            tail.append(va)
            tail.append(vb)
            tail.append(contentsOf: try SideBySide.change(va, vb))
        }
        if x.index == y.index, x.dictionaries == y.dictionaries {
            for r in 0..<x.count { try add(x.tail[r], y.tail[r]) }
            (dictionaries, index) = (x.dictionaries, x.index)
        } else {
            // Each key's values of both sides in one order (a value no row names is `.empty`).
            var merged: [[Cell]] = [], fromX: [[UInt32]] = [], fromY: [[UInt32]] = []
            for k in 0..<keys {
                let values = Set((x.dictionaries[k] + y.dictionaries[k]).filter { $0 != .empty })
                let sorted = values.map { (ResultShaper.SortKey($0), $0) }.sorted { $0.0 < $1.0 }.map(\.1)
                let at = Dictionary(uniqueKeysWithValues: sorted.enumerated().map { ($1, UInt32($0)) })
                merged.append(sorted)
                fromX.append(x.dictionaries[k].map { at[$0] ?? 0 })
                fromY.append(y.dictionaries[k].map { at[$0] ?? 0 })
            }
            let currencyKey = a.target == nil ? a.groupBy.firstIndex(of: .currency) : nil
            var out: [UInt32] = []
            out.reserveCapacity((x.count + y.count) * keys)
            var (i, j) = (0, 0)
            while i < x.count || j < y.count {
                // -1, 0 or 1: row i of A against row j of B, key by key (a side run out comes last).
                var order = i == x.count ? 1 : (j == y.count ? -1 : 0)
                for k in 0..<keys where order == 0 {
                    let p = fromX[k][Int(x.index[i * keys + k])], q = fromY[k][Int(y.index[j * keys + k])]
                    order = p < q ? -1 : (p > q ? 1 : 0)
                }
                let row = order <= 0 ? (0..<keys).map { fromX[$0][Int(x.index[i * keys + $0])] } : (0..<keys).map { fromY[$0][Int(y.index[j * keys + $0])] }
                out += row
                let empty = a.aggregate.emptyValue(in: a.target ?? currencyKey.flatMap { merged[$0][Int(row[$0])].currencyValue })
                try add(order <= 0 ? x.tail[i] : empty, order >= 0 ? y.tail[j] : empty)
                if order <= 0 { i += 1 }
                if order >= 0 { j += 1 }
            }
            (dictionaries, index) = (merged, out)
        }
        var result = emptyResult(ra, rb)
        result.keyed = KeyedRows(dictionaries: dictionaries, index: index, tail: tail, width: 4)
        guard !(a.groupBy == [.currency] && !a.totalKeys.isEmpty) else { return result }
        result.totals = try SideBySide.totals(ra, rb, a)
        return result
    }

    /// The comparison's columns (the keys, A's value, B's, the change) and what it says beside
    /// its rows, with no rows yet.
    private func emptyResult(_ ra: ResultSet, _ rb: ResultSet) -> ResultSet {
        let kind = ra.columns.last?.kind ?? .money
        return ResultSet(columns: Array(ra.columns.dropLast()) + [Column(names.a, kind), Column(names.b, kind), Column("change", kind), Column("change %", .quantity)],
                         rows: [], currency: ra.currency, warnings: SideBySide.merged(ra.warnings, rb.warnings, plans: (a, b)),
                         provenance: ra.provenance, rateNotes: ra.rateNotes)
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
        return [change, .decimal(try d.percent(ofMagnitude: y))]
    }

    /// Both sides' warnings, each once, A's first.
    /// Both sides' warnings, each once. A what-if rate that both sides carry (a comparison
    /// of periods or valuations keeps A's rates) was unused only if neither side used it: the
    /// side with no entries in its currency does not speak for the other.
    static func merged(_ a: [String], _ b: [String], plans: (a: LogicalPlan, b: LogicalPlan)) -> [String] {
        func keep(_ w: String, other: [String], carried: LogicalPlan) -> Bool {
            guard let p = carried.whatIf.map(\.pair).first(where: { w.hasPrefix(ConversionTally.unused($0) + ":") }) else { return true }
            return other.contains { $0.hasPrefix(ConversionTally.unused(p) + ":") }
        }
        var out = a.filter { keep($0, other: b, carried: plans.b) }
        for w in b where !out.contains(w) && keep(w, other: a, carried: plans.a) { out.append(w) }
        return out
    }
}
