// `list`: the entries themselves, each with its amount converted into the target
// currency (or in its own currency `in native`), in date order unless `order by`
// says otherwise, cut to `top N`. A converted listing ends with the exact total
// of the rows shown, rounded once.

import AbacusCore
import BigInt

extension Executor {

    func list(_ plan: Plan) throws(QueryError) -> ResultSet {
        let converter = self.converter(plan)
        let flip = plan.subject == .expenses
        // `top N` by value keeps only the best N while scanning (ties keep date order), and so
        // does `top N` by a name, each of whose values is ranked ahead (`NameRanks`).
        let ranking = plan.order.flatMap { $0.key == .value ? $0 : nil }
        let byName = plan.order.flatMap { o -> NameRanks? in
            if case .key(let k) = o.key { return NameRanks(k, self, descending: o.descending) } else { return nil }
        }
        let keep = ranking != nil || byName != nil ? plan.top : nil
        let descending = ranking?.descending ?? false
        // `order by date [desc] top N` (`top N` alone ranks by amount, `Binder`): rows come in
        // date order, so the scan keeps only the first N, or the last N when the newest come first.
        let inDateOrder = keep == nil ? plan.top : nil
        let newestFirst = plan.order?.key == .date && plan.order?.descending == true
        @Sendable func better(_ a: RowPick, _ b: RowPick) -> Bool {
            if let x = byName?.rank(a.row), let y = byName?.rank(b.row) { return x != y ? x < y : a.row < b.row }
            guard ranking != nil else { return a.row < b.row }
            let c = RowPick.compare(a, b)
            if c == 0 { return a.row < b.row }
            return descending ? c > 0 : c < 0
        }
        let amountScale = store.amountScale
        let amounts = store.amount
        let days = store.day
        let currencies = store.currency
        let ranks = plan.target == nil && ranking != nil
        let converting = converter != nil
        let columnIDs = converter?.column.ids ?? [], whatIfID = converter?.whatIfID ?? []
        let factors = converter?.factorSignificand ?? [], factorScales = converter?.factorScale ?? []
        struct State: @unchecked Sendable {
            var picked: [RowPick] = []
            /// `top N` by value or name: the worst of the N best so far, once there are N.
            var worst: RowPick?
            /// Rows that passed, kept or not (the total row says when it is over fewer).
            var matched = 0
            var tally: ConversionTally
            /// `in native`: the currencies of the rows, for refusing to rank across them.
            var currencies: Set<Currency> = []
        }
        /// One piece of the rows: each keeps its own best N (or every row), merged below. `better`
        /// is a total order (rows break ties), so the N best are the same however they arrive.
        let scan: @Sendable (DenseRows) throws(QueryError) -> State = { rows throws(QueryError) in
            var state = State(tally: converter.map(ConversionTally.init) ?? .none)
            try self.forEachRow(plan, rows: rows, converter: converter, state: &state) { row, state throws(QueryError) in
                let value = flip ? -amounts[row] : amounts[row]
                state.matched += 1
                var item = RowPick(row: row, amount: value, id: RateColumn.same, value: Int256(value), scale: amountScale)
                if ranks { state.currencies.insert(currencies[row]) }
                if converting {
                    // The converter's columns read directly: binding the converter (a class) for
                    // every row would retain and release it every time.
                    var id = columnIDs[row]
                    if !whatIfID.isEmpty, whatIfID[Int(currencies[row].packed)] >= 0 { id = whatIfID[Int(currencies[row].packed)] }
                    state.tally.count(id, day: days[row])
                    if id >= 0 {
                        item = RowPick(row: row, amount: value, id: id, value: Int256(value, times: factors[Int(id)]), scale: amountScale + factorScales[Int(id)])
                    } else if id != RateColumn.same {
                        guard let (v, scale) = converter?.product(row, id: id, amount: value, negate: flip) else { return }
                        item = RowPick(row: row, amount: value, id: id, value: v, scale: scale)
                    }
                }
                guard let keep else {
                    guard let n = inDateOrder else { state.picked.append(item); return }
                    if !newestFirst {
                        if state.picked.count < n { state.picked.append(item) }
                        return
                    }
                    // The last N: rows older than the newest N are dropped in batches (amortised).
                    state.picked.append(item)
                    if state.picked.count >= 2 * n + 64 { state.picked.removeFirst(state.picked.count - n) }
                    return
                }
                // The best N: rows go in unsorted, and are sorted and cut to N each time they reach
                // 2N (amortised; inserting each in order was N steps a row). The worst row kept
                // then turns away, in one comparison, every row that cannot beat it.
                if let worst = state.worst, !better(item, worst) { return }
                state.picked.append(item)
                if state.picked.count >= 2 * keep + 64 {
                    state.picked.sort(by: better)
                    state.picked.removeLast(state.picked.count - keep)
                    state.worst = state.picked.last
                }
            }
            return state
        }
        // Ranking the best N of a large scan is split between the processors; a listing of
        // every row stays on one (its rows come out in order).
        let all = planRows(plan)
        let parts = (keep != nil || inDateOrder != nil) && all.count >= parallelRows && onlineProcessors > 1 ? 2 : 1
        let pieces = try inParts(parts) { k throws(QueryError) in try scan(all.part(k, of: parts)) }
        var state = pieces[0]
        for other in pieces.dropFirst() {
            state.tally.merge(other.tally)
            state.matched += other.matched
            state.currencies.formUnion(other.currencies)
            state.picked += other.picked
        }
        if let keep {
            state.picked.sort(by: better)
            if state.picked.count > keep { state.picked.removeLast(state.picked.count - keep) }
        }
        // In date order the pieces follow each other: the first N of them, or the last N.
        if let n = inDateOrder, state.picked.count > n {
            if newestFirst { state.picked.removeFirst(state.picked.count - n) } else { state.picked.removeLast(state.picked.count - n) }
        }
        var picked = state.picked
        let tally = state.tally
        let warnings = try outcome(converter, tally)
        if ranks { try ResultShaper.refuseRankingAcrossCurrencies(Array(state.currencies), home: ledger.defaultCurrency) }
        if let order = plan.order, keep == nil {
            switch order.key {
            case .value:
                if isCancelled() { throw QueryError(.cancelled, at: nil) }
                picked.sort(by: better)
            // The rows came in date order (the pieces in turn, ascending): newest first is that reversed.
            case .date: if order.descending { picked.reverse() }
            case .key:
                if isCancelled() { throw QueryError(.cancelled, at: nil) }
                if let byName { picked = byName.ordered(picked) }
            }
        }
        // A long listing spends its time here, after the scan: Ctrl-C is looked for on the way.
        if isCancelled() { throw QueryError(.cancelled, at: nil) }
        let cut = plan.top.map { $0 < state.matched } ?? false
        if let top = plan.top, top < picked.count { picked = Array(picked.prefix(top)) }
        let columns = Listing.columns(plan.logical)
        var rows: [[Cell]] = []
        rows.reserveCapacity(picked.count)
        // The store's columns and dictionaries read once, not once a row.
        let text = keyNames([.book, .category, .party, .payment, .tag])
        let (book, category, party, payment, remarkCodes, remarkTexts) = (store.book, store.category, store.party, store.payment, store.remarks, store.remarkTexts)
        for (k, p) in picked.enumerated() {
            if k & 0xFFF == 0xFFF, isCancelled() { throw QueryError(.cancelled, at: nil) }
            let currency = plan.target ?? store.currency[p.row]
            let remarks = remarkCodes[p.row]
            rows.append([.text(store.id(at: p.row)), .date(Day(number: store.day[p.row])), text.value(.book, book[p.row]),
                         text.value(.category, category[p.row]), text.value(.party, party[p.row]), text.value(.payment, payment[p.row]),
                         .currency(store.currency[p.row]), remarks == 0 ? .empty : .text(remarkTexts[Int(remarks)]),
                         .names(store.tags(at: p.row).map { text.tags[Int($0)] }),
                         .money(try Executor.round(p, converter: converter, scale: currency.minorUnits), currency)])
        }
        let provenance = converter.map { tally.provenance($0) }
        var totals: [[Cell]] = []
        if let target = plan.target, let converter, !picked.isEmpty {
            totals = [Listing.totalRow(columns, total: .money(try total(picked, converter, target), target), shown: picked.count, cut: cut)]
        }
        return ResultSet(columns: columns, rows: rows, totals: totals, currency: plan.target, warnings: warnings,
                         provenance: provenance, rateNotes: converter.flatMap { c in provenance.map { Executor.rateNotes(c, $0) } } ?? [])
    }

    /// `list … order by NAME`: the rank of each value of the key by the name it shows
    /// (`Listing.before`: any letter case, "(none)" last; names equal in any letter case share
    /// a rank, `before` then going by date), for every value the store has, worked out once
    /// before the scan. Names were made and compared in lower case for every pair of rows
    /// compared: seconds for a few hundred thousand rows. A class with `let`s: the scan's
    /// comparison reads it for every row, where a struct would be copied (its references
    /// counted) each time.
    final class NameRanks: @unchecked Sendable {
        let key: GroupKey
        let column: StoreColumn<UInt32>
        let currency: StoreColumn<Currency>
        /// By code (a packed code for a currency).
        let ranks: [Int]

        /// The keys `Binder.checked` lets a listing order by.
        init(_ k: GroupKey, _ executor: Executor, descending: Bool) {
            let store = executor.store
            let names: [(code: Int, name: String?)]
            switch k {
            case .category: (column, names) = (store.category, store.categories.enumerated().map { ($0.offset, $0.element) })
            case .book: (column, names) = (store.book, executor.ledger.books.enumerated().map { ($0.offset, $0.element.name) })
            case .party: (column, names) = (store.party, store.parties.indices.map { ($0, $0 == 0 ? nil : store.parties[$0]) })
            case .currency: (column, names) = ([], store.currencies.map { (Int($0.packed), $0.code) })
            default: preconditionFailure("a listing orders by book, category, party or currency (Binder.checked), not \(k)")
            }
            key = k
            currency = store.currency
            let sorted = names.sorted { Listing.before($0.name, 0, $1.name, 0, descending: descending) }
            var ranks = [Int](repeating: 0, count: (names.map(\.code).max() ?? 0) + 1)
            for (i, n) in sorted.enumerated() {
                ranks[n.code] = i > 0 && !Listing.before(sorted[i - 1].name, 0, n.name, 0, descending: descending) ? ranks[sorted[i - 1].code] : i
            }
            self.ranks = ranks
        }

        @inline(__always)
        func rank(_ row: Int) -> Int {
            ranks[key == .currency ? Int(currency[row].packed) : Int(column[row])]
        }

        /// Rows in date order put in order of their ranks, date order kept within a rank: the
        /// stable counting sort a grouped result's keys are ordered by.
        func ordered(_ picked: [RowPick]) -> [RowPick] {
            ResultShaper.countingOrder([picked.map { rank($0.row) }], count: picked.count).map { picked[$0] }
        }
    }

    /// The exact total of listed rows, rounded once.
    func total(_ picked: [RowPick], _ converter: RowConverter, _ target: Currency) throws(QueryError) -> ExactDecimal {
        // Products summed per scale in 256 bits (as a grouped sum is), then aligned once.
        var sums: [Int: Int256] = [:], errors: [Int: BigInt] = [:]
        for (k, p) in picked.enumerated() {
            if k & 0xFFF == 0xFFF, isCancelled() { throw QueryError(.cancelled, at: nil) }
            if sums[p.scale, default: .zero].add(p.value) { throw QueryError(.overflow, at: nil) }
            if p.id >= 0, !converter.factorIsExact[Int(p.id)] {
                errors[p.scale, default: BigInt(0)] += BigInt(p.amount.magnitude)
            }
        }
        let approximate = sums.reduce(WideDecimal.zero) { $0 + WideDecimal($1.value.big, scale: $1.key) }
        let error = errors.reduce(WideDecimal.zero) { $0 + WideDecimal($1.value * 5, scale: $1.key + 1) }
        if let r = BoundedValue(approximate: approximate, error: error).roundedIfCertain(toScale: target.minorUnits) { return r }
        let exact = picked.reduce(Fraction.zero) { f, p in
            p.id >= 0 && !converter.factorIsExact[Int(p.id)] ? f + converter.exactValue(amount: p.amount, id: p.id) : f + Fraction(p.wide)
        }
        guard let r = exact.rounded(toScale: target.minorUnits) else { throw QueryError(.overflow, at: nil) }
        return r
    }
}
