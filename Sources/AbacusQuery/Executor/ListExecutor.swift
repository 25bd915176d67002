// `list`: the entries themselves, each with its amount converted into the target
// currency (or in its own currency `in native`), in date order unless `order by`
// says otherwise, cut to `top N`. A converted listing ends with the exact total
// of the rows shown, rounded once.

import AbacusCore
import BigInt

extension Executor {

    func list(_ plan: Plan) throws(QueryError) -> ResultSet {
        let converter = plan.target.map { Converter(ledger: ledger, resolver: resolver, target: $0, valuation: plan.valuation, whatIf: plan.whatIf, today: today) }
        let flip = plan.subject == .expenses
        typealias Picked = (row: Int, value: RowValue, currency: Currency)
        var picked: [Picked] = []
        // `top N` by value keeps only the best N while scanning (ties keep date order).
        let ranking = plan.order.flatMap { $0.key == .value ? $0 : nil }
        let keep = ranking != nil ? plan.top : nil
        func better(_ a: Picked, _ b: Picked) -> Bool {
            guard let ranking else { return a.row < b.row }
            if a.value == b.value { return a.row < b.row }
            return ranking.descending ? b.value < a.value : a.value < b.value
        }
        try forEachRow(plan) { row throws(QueryError) in
            let a = store.amount[row]
            let value = flip ? -a : a
            let item: Picked
            if let converter, let target = plan.target {
                guard let v = converter.rowValue(row, amount: value, negate: flip) else { return }
                item = (row, v, target)
            } else {
                item = (row, .exact(ExactDecimal(significand: value, scale: store.amountScale)), store.currency[row])
            }
            guard let keep else { picked.append(item); return }
            if picked.count == keep, let last = picked.last, !better(item, last) { return }
            var lo = 0, hi = picked.count
            while lo < hi { let mid = (lo + hi) / 2; if better(picked[mid], item) { lo = mid + 1 } else { hi = mid } }
            picked.insert(item, at: lo)
            if picked.count > keep { picked.removeLast() }
        }
        let warnings = try conversionOutcome(converter, plan.target)
        if let order = plan.order, keep == nil {
            switch order.key {
            case .value: picked.sort(by: better)
            case .date: if order.descending { picked.sort { $0.row > $1.row } }
            case .key: break
            }
        }
        if let top = plan.top, top < picked.count { picked = Array(picked.prefix(top)) }
        let native = plan.target == nil
        let columns = ["date", "book", "category", "party"] + (native ? ["currency"] : []) + ["amount"]
        var rows: [[Cell]] = []
        rows.reserveCapacity(picked.count)
        for p in picked {
            var cells: [Cell] = [.text(Day(number: store.day[p.row]).description), .text(ledger.books[Int(store.book[p.row])].name),
                                 .text(store.categories[Int(store.category[p.row])]),
                                 .text(store.party[p.row] == 0 ? Executor.none : store.parties[Int(store.party[p.row])])]
            if native { cells.append(.text(p.currency.code)) }
            cells.append(.money(try round(p.value.wide, p.currency), p.currency))
            rows.append(cells)
        }
        var totals: [[Cell]] = []
        if let target = plan.target, !picked.isEmpty {
            let total = picked.reduce(WideDecimal.zero) { $0 + $1.value.wide }
            totals = [[.text("Total")] + Array(repeating: .empty, count: columns.count - 2) + [.money(try round(total, target), target)]]
        }
        return ResultSet(columns: columns, rows: rows, totals: totals, currency: plan.target, warnings: warnings,
                         provenance: converter?.provenance, rateNotes: converter.map(rateNotes) ?? [])
    }
}
