// The result shaper: the exact value of each group → the rows a statement shows.
//
// It orders the groups (by their keys, ascending, unless `order by` ranks them),
// keeps `top N`, and adds the total row, saying what that row adds up: every
// entry once, or only the rows `top N` kept. It works on typed values only; the
// words "Total" and "(none)" are the renderers' business.

import AbacusCore

/// One group of an aggregation: its key values, its exact value and how many entries it holds.
struct GroupValue {
    var id: Int
    var key: [Cell]
    var value: Cell
    var entries: Int
    /// The codes the executor numbered the key's values with, one per key: equal codes are
    /// equal values, so each distinct value is ranked once. Nil where there are none.
    var codes: GroupCodes? = nil
}

/// Where the key values of groups that carry only their codes come from (`GroupValue.codes`,
/// `key` left empty): the names the executor's codes stand for. The shaper then makes each
/// distinct value once, and the rows as columns (`KeyedRows`).
struct KeyValues {
    let keys: [GroupKey]
    let names: KeyNames
    /// Per key, where the executor has one: the rank of every code of its dictionary among all
    /// of them (`ResultShaper.SortKey` order), worked out once for the ledger, not per result.
    var nameRanks: [[Int32]?] = []
    @inline(__always)
    func cell(_ k: Int, _ code: UInt32) -> Cell { names.value(keys[k], code) }
}

struct ResultShaper {
    let plan: Plan
    /// The ledger's default currency, which the advice of a refusal names.
    let home: Currency
    let isCancelled: @Sendable () -> Bool
    /// The value over the whole statement, each entry once.
    let whole: () throws(QueryError) -> Cell
    /// The value over some groups (after `top N`): their sum or count, or their extreme.
    let subtotal: ([Int]) throws(QueryError) -> Cell?
    /// `in native`: the total of some groups of one currency (whether every group is shown).
    let currencyTotal: ([Int], Currency, Bool) throws(QueryError) -> Cell?
    /// Set when the groups carry codes instead of key cells (every group then carries them:
    /// no pass over hundreds of thousands of groups asks).
    var keyValues: KeyValues? = nil
    /// How many entries the whole statement has, each once: by category over split entries,
    /// fewer than the rows' entries added up when an entry's parts are in several rows.
    var wholeEntries: (() throws(QueryError) -> Int)? = nil

    func shape(_ groups: consuming [GroupValue], into result: inout ResultSet) throws(QueryError) {
        let keys = plan.groupBy
        let values = keyValues
        if plan.target == nil, plan.order?.key == .value, plan.aggregate != .count, !plan.ranksByEntryCount {
            try ResultShaper.refuseRankingAcrossCurrencies(groups.compactMap { g in if case .money(_, let c) = g.value { return c } else { return nil } },
                                                          home: home)
        }
        // Ranked by value, `top N` ranks only the N it keeps.
        let (order, ranks) = ResultShaper.ordering(groups, keys: keys, order: plan.order, byEntries: plan.ranksByEntryCount, values: values, keep: plan.top)
        if isCancelled() { throw QueryError(.cancelled, at: nil) }
        let shownAll = plan.top.map { $0 >= groups.count } ?? true
        let shown = plan.top.map { Array(order.prefix($0)) } ?? order
        /// Group p's value of key k.
        func keyCell(_ p: Int, _ k: Int) -> Cell {
            if let values, let codes = groups[p].codes { return values.cell(k, codes[k]) }
            return groups[p].key[k]
        }
        // The last row aggregates everything shown: a total for sum and count, the overall value
        // otherwise. Over the whole statement it counts each entry once (tags put an entry in
        // several groups); after `top N` it is over the rows shown.
        let adds = plan.aggregate == .sum || plan.aggregate == .count
        let label: TotalLabel
        // The whole statement's value, worked out once (another engine asks its database for it).
        var wholeValue: Cell?
        func wholeOnce() throws(QueryError) -> Cell {
            if let wholeValue { return wholeValue }
            let v = try whole()
            wholeValue = v
            return v
        }
        var severalRowsPerEntry = keys.contains(.tag)
        if !severalRowsPerEntry && shownAll { severalRowsPerEntry = try splitEntriesInSeveralRows(groups, whole: wholeOnce) }
        if !shownAll, let top = plan.top { label = adds ? .totalOfTop(top) : .overallOfTop(top) }
        else if severalRowsPerEntry { label = (adds ? TotalLabel.total : .overall).eachEntryOnce }
        else { label = adds ? .total : .overall }
        let labelCells = [Cell.total(label)] + Array(repeating: Cell.empty, count: keys.count - 1)
        if plan.target != nil || plan.aggregate == .count {
            if shownAll {
                result.totals = [labelCells + [try wholeOnce()]]
            } else if let v = try subtotal(shown.map { groups[$0].id }) {
                result.totals = [labelCells + [v]]
            }
        } else if let ci = keys.firstIndex(of: .currency), keys.count > 1 {
            // In native: one total per currency, from the groups of that currency (none when the
            // currency is the only key: each total would repeat its row).
            // Every group shown: read in their own order (each total is over a set of groups), not
            // in the order shown, which jumps about them. The currencies are few: each group's is
            // the last one's or found among those met so far (by its code, where the groups carry
            // codes: no cell made for each group).
            var currencies: [Currency] = [], ids: [[Int]] = []
            var last = -1, lastCode: UInt32?
            for p in shownAll ? Array(groups.indices) : shown {
                let code = values != nil ? groups[p].codes?[ci] : nil
                if last < 0 || code == nil || code != lastCode {
                    guard case .currency(let c) = keyCell(p, ci) else { continue }
                    if let i = currencies.firstIndex(of: c) { last = i } else { (last, currencies, ids) = (currencies.count, currencies + [c], ids + [[]]) }
                    lastCode = code
                }
                ids[last].append(groups[p].id)
            }
            for (i, c) in currencies.enumerated().sorted(by: { $0.element < $1.element }).map({ ($0.offset, $0.element) }) {
                guard let v = try currencyTotal(ids[i], c, shownAll) else { continue }
                var row = labelCells
                row[ci] = .currency(c)
                // The currency first: the label moves to the next key, so the row still says what it is.
                if ci == 0 { row[1] = .total(label) }
                result.totals.append(row + [v])
            }
        }
        let extra = try shareAndRunningTotal(all: groups, shown: shown, columns: &result.columns)
        if let more = extra.first?.count, more > 0 {
            for i in result.totals.indices { result.totals[i] += Array(repeating: .empty, count: more) }
        }
        if let values, ranks.count == keys.count {
            // Each distinct value of each key made once, at its rank (equal values share a rank);
            // the rows' indices key by key, each key's ranks read in one pass.
            let width = keys.count
            var dictionaries: [[Cell]] = []
            var index = [UInt32](repeating: 0, count: shown.count * width)
            for k in keys.indices {
                let rank = ranks[k]
                var dictionary = [Cell](repeating: .empty, count: (rank.max() ?? -1) + 1)
                var made = [Bool](repeating: false, count: dictionary.count)
                for (i, p) in shown.enumerated() {
                    let r = rank[p]
                    index[i &* width &+ k] = UInt32(r)
                    if !made[r], let codes = groups[p].codes { (dictionary[r], made[r]) = (values.cell(k, codes[k]), true) }
                }
                dictionaries.append(dictionary)
            }
            let more = extra.first?.count ?? 0
            var tail: [Cell] = []
            if more == 0 {
                // The values alone, in the order shown.
                tail = ResultShaper.values(of: groups, in: shown)
            } else {
                tail.reserveCapacity(shown.count * (1 + more))
                for (i, p) in shown.enumerated() {
                    tail.append(groups[p].value)
                    tail.append(contentsOf: extra[i])
                }
            }
            result.keyed = KeyedRows(dictionaries: dictionaries, index: index, tail: tail, width: 1 + more)
            return
        }
        // Each shown group's key cells become its row, moved rather than copied (they have room
        // for the value); the groups keep their ids and values.
        var rowsShown: [[Cell]] = []
        rowsShown.reserveCapacity(shown.count)
        for (i, p) in shown.enumerated() {
            var row: [Cell] = []
            if values != nil, groups[p].codes != nil {
                row = keys.indices.map { keyCell(p, $0) }
            } else {
                swap(&row, &groups[p].key)
            }
            row.append(groups[p].value)
            if !extra.isEmpty { row.append(contentsOf: extra[i]) }
            rowsShown.append(row)
        }
        result.rows = rowsShown
    }

    /// The groups' values in `order` (positions among them): by two threads, half each, where
    /// there are thousands. A loop of its own (`fillInHalves`), not a closure called for each: the
    /// groups are read out of order (shown by key, numbered by period), and with hundreds of
    /// thousands of groups each read is a miss in the cache, so the reads must be free to overlap.
    static func values(of groups: [GroupValue], in order: [Int]) -> [Cell] {
        groups.withUnsafeBufferPointer { g in
            order.withUnsafeBufferPointer { o in
                Executor.fillInHalves(o.count) { range, out in
                    for i in range { (out + i).initialize(to: g[o[i]].value) }
                }
            }
        }
    }

    /// Whether a count, average, least or greatest by category over split entries put one
    /// entry in several rows (its parts in several categories): the total row, over each entry
    /// once, is then not the rows' (a count less than their sum, a greatest an entry's whole
    /// amount that no row shows). A sum is the same either way. Converted results only (a
    /// count's too).
    func splitEntriesInSeveralRows(_ rows: [GroupValue], whole: () throws(QueryError) -> Cell) throws(QueryError) -> Bool {
        guard plan.logical.readsSplits, plan.aggregate != .sum else { return false }
        if plan.aggregate == .count, case .count(let whole) = try whole() {
            return rows.reduce(0) { n, r in if case .count(let c) = r.value { return n + c } else { return n } } != whole
        }
        // In native, each currency's total is its own groups': no whole to tell apart.
        guard plan.target != nil else { return false }
        if plan.aggregate == .min || plan.aggregate == .max {
            // The entry's whole amount is the extreme, where no row shows it.
            let values = rows.compactMap(\.value.amount)
            guard let whole = try whole().amount, let extreme = plan.aggregate == .max ? values.max() : values.min() else { return false }
            return whole != extreme
        }
        guard let wholeEntries else { return false }
        return rows.reduce(0) { $0 + $1.entries } != (try wholeEntries())
    }

    /// `with share`: each row's value as a percentage of the total of all the rows (before
    /// `top N`), half-even to one decimal; `with running total`: the sum of this row's value
    /// and those above it, in the order shown (`shown`: positions in `all`). The cells each
    /// shown row gets after its value (none without either), their columns added to `columns`.
    func shareAndRunningTotal(all: [GroupValue], shown: [Int], columns: inout [Column]) throws(QueryError) -> [[Cell]] {
        let logical = plan.logical
        guard logical.withShare || logical.withRunningTotal else { return [] }
        func amount(_ c: Cell) -> ExactDecimal? {
            switch c {
            case .money(let d, _): return d
            case .count(let n): return ExactDecimal(n)
            default: return nil
            }
        }
        let currencies = Set(all.compactMap { g -> Currency? in if case .money(_, let c) = g.value { return c } else { return nil } })
        if currencies.count > 1 {
            throw QueryError(.unsupported("in native, the amounts are in \(currencies.map(\.code).sorted().joined(separator: ", ")): a share or a running total would add different currencies; convert them (in \(home.code)) or keep to one currency"), at: nil)
        }
        var total = ExactDecimal(0)
        do throws(ExactDecimal.Overflow) {
            for g in all { if let v = amount(g.value) { total = try total.adding(v) } }
        } catch {
            throw QueryError(.overflow, at: nil)
        }
        var running = ExactDecimal(0)
        var out: [[Cell]] = []
        out.reserveCapacity(shown.count)
        for p in shown {
            let g = all[p]
            var cells: [Cell] = []
            guard let v = amount(g.value) else {
                if logical.withShare { cells.append(.empty) }
                if logical.withRunningTotal { cells.append(.empty) }
                out.append(cells)
                continue
            }
            if logical.withShare {
                if total.isZero {
                    cells.append(.empty)
                } else {
                    // v ÷ total: against a negative total, −v ÷ |total|.
                    let share = try (total.significand < 0 ? ExactDecimal(significand: -v.significand, scale: v.scale) : v).percent(ofMagnitude: total)
                    cells.append(.decimal(share))
                }
            }
            if logical.withRunningTotal {
                do throws(ExactDecimal.Overflow) { running = try running.adding(v) } catch { throw QueryError(.overflow, at: nil) }
                if case .money(_, let c) = g.value { cells.append(.money(running, c)) } else { cells.append(.count(Int(running.significand))) }
            }
            out.append(cells)
        }
        if logical.withShare { columns.append(Column("share", .quantity)) }
        if logical.withRunningTotal { columns.append(Column("running total", plan.aggregate == .count ? .count : .money)) }
        return out
    }

    /// Groups in the order a result shows them (`order`).
    static func ordered(_ groups: [GroupValue], keys: [GroupKey], order by: Order?, byEntries: Bool) -> [GroupValue] {
        order(groups, keys: keys, order: by, byEntries: byEntries).map { groups[$0] }
    }

    /// The positions of the groups in the order a result shows them: ascending by their keys,
    /// unless `order by` names one key (that key, the key order breaking ties) or ranks them by value.
    static func order(_ groups: [GroupValue], keys: [GroupKey], order: Order?, byEntries: Bool) -> [Int] {
        ordering(groups, keys: keys, order: order, byEntries: byEntries).positions
    }

    /// `order`, and the rank of each group's value of each key (`ranks[k][group]`: equal values
    /// share a rank, ranks run from 0, with gaps where a key's names were ranked among all its
    /// dictionary's). With `values`, the groups' keys are their codes. Ranked by value, with
    /// `keep`, only the first `keep` positions.
    static func ordering(_ groups: [GroupValue], keys: [GroupKey], order: Order?, byEntries: Bool,
                         values: KeyValues? = nil, keep: Int? = nil) -> (positions: [Int], ranks: [[Int]]) {
        let width = values != nil ? keys.count : groups.map { $0.key.count }.min() ?? 0
        // Each key's distinct values ranked once (a few hundred names, their sort keys made
        // once), then groups ordered by their ranks: no comparison of names for every pair of
        // groups compared. Equal values share a rank.
        let coded = values != nil || groups.allSatisfy { $0.codes != nil }
        // Every key's codes read in one pass over the groups (each group is over a hundred bytes:
        // a pass for each key would read them all again).
        let codes = coded ? keyCodes(groups, width: width) : []
        let ranks: [[Int]] = (0..<width).map { i in
            if coded { return codeRanks(groups, codes[i], key: i, values: values) }
            var rank: [SortKey: Int] = [:]
            let sortKeys = groups.map { SortKey($0.key[i]) }
            for k in sortKeys { rank[k] = 0 }
            for (r, k) in rank.keys.sorted().enumerated() { rank[k] = r }
            return sortKeys.map { rank[$0] ?? 0 }
        }
        var positions = countingOrder(ranks, count: groups.count)
        // `order by KEY`: that key alone, the order above breaking ties (a stable sort).
        if case .key(let k)? = order?.key, let i = keys.firstIndex(of: k), i < width, let descending = order?.descending {
            let column = ranks[i]
            positions = positions.enumerated().sorted { a, b in
                let x = column[a.element], y = column[b.element]
                if x != y { return descending ? y < x : x < y }
                return a.offset < b.offset
            }.map(\.element)
        }
        if let order, order.key == .value { return (ranked(positions, of: groups, descending: order.descending, byEntries: byEntries, keep: keep), ranks) }
        return (positions, ranks)
    }

    /// Positions 0..<n in ascending order of their ranks, key by key, ties in position order:
    /// a stable counting sort by each key's ranks, the last key first. A key's ranks are fewer
    /// than its distinct values, so fewer than the groups: each pass is linear in the groups.
    /// Neighbouring keys whose ranks together take no more counters than the groups (or 4,096)
    /// are sorted by in one pass, by one rank folded from theirs (`party, month`: one pass).
    static func countingOrder(_ ranks: [[Int]], count n: Int) -> [Int] {
        var passes: [(column: [Int], size: Int)] = []
        for column in ranks.reversed() {
            let size = (column.max() ?? 0) + 1
            if let low = passes.last, case let (folded, o) = size.multipliedReportingOverflow(by: low.size), !o, folded <= max(n, 4096) {
                // This key's rank is the folded rank's high digit.
                passes[passes.count - 1] = (zip(column, low.column).map { $0 &* low.size &+ $1 }, folded)
            } else {
                passes.append((column, size))
            }
        }
        var positions = Array(0..<n)
        var next = [Int](repeating: 0, count: n)
        for (column, size) in passes {
            var start = [Int](repeating: 0, count: size + 1)
            for r in column { start[r + 1] += 1 }
            for r in 0..<size { start[r + 1] += start[r] }
            for p in positions {
                let r = column[p]
                next[start[r]] = p
                start[r] += 1
            }
            swap(&positions, &next)
        }
        return positions
    }

    /// Each group's code of each of the first `width` keys, key by key.
    static func keyCodes(_ groups: [GroupValue], width: Int) -> [[UInt32]] {
        let n = groups.count
        let flat = [UInt32](unsafeUninitializedCapacity: n * width) { buffer, initialized in
            for (g, group) in groups.enumerated() {
                let c = group.codes ?? .zero
                for i in 0..<width { buffer[i &* n &+ g] = c[i] }
            }
            initialized = n * width
        }
        return (0..<width).map { Array(flat[($0 * n)..<(($0 + 1) * n)]) }
    }

    /// The rank of each group's value of key `i`, from its code (`codes`, one per group): each
    /// distinct code's value made into a sort key once (equal codes are equal values; equal
    /// values share a rank).
    static func codeRanks(_ groups: [GroupValue], _ codes: [UInt32], key i: Int, values: KeyValues? = nil) -> [Int] {
        func cell(_ g: Int, _ c: UInt32) -> Cell { values?.cell(i, c) ?? groups[g].key[i] }
        // A name's rank among its dictionary's names stands for its rank among the groups': the
        // order is the same, the ranks only have gaps.
        if let table = values?.nameRanks.dropFirst(i).first ?? nil, codes.allSatisfy({ Int($0) < table.count }) {
            return codes.map { Int(table[Int($0)]) }
        }
        // Codes are dictionary numbers, period codes or packed currencies: a table by code
        // unless they are spread too wide for one.
        let top = Int(codes.max() ?? 0)
        if top < 1 << 20 {
            var first = [Int32](repeating: -1, count: top + 1)
            var distinct: [(code: UInt32, sort: SortKey)] = []
            for (g, c) in codes.enumerated() where first[Int(c)] < 0 {
                first[Int(c)] = Int32(g)
                distinct.append((c, SortKey(cell(g, c))))
            }
            var rankOf = first
            for (code, r) in rankedCodes(distinct) { rankOf[Int(code)] = Int32(r) }
            return codes.map { Int(rankOf[Int($0)]) }
        }
        var firstOf: [UInt32: Int] = [:]
        for (g, c) in codes.enumerated() where firstOf[c] == nil { firstOf[c] = g }
        var rankOf: [UInt32: Int] = [:]
        for (code, r) in rankedCodes(firstOf.map { ($0.key, SortKey(cell($0.value, $0.key))) }) { rankOf[code] = r }
        return codes.map { rankOf[$0] ?? 0 }
    }

    /// Distinct codes' ranks by their values' sort keys; equal values share a rank.
    static func rankedCodes(_ distinct: [(code: UInt32, sort: SortKey)]) -> [(UInt32, Int)] {
        let sorted = distinct.sorted { $0.sort < $1.sort }
        var out: [(UInt32, Int)] = []
        out.reserveCapacity(sorted.count)
        var r = -1
        for (n, d) in sorted.enumerated() {
            if n == 0 || sorted[n - 1].sort < d.sort { r += 1 }
            out.append((d.code, r))
        }
        return out
    }

    /// The positions `order` of `groups` ranked by the exact value (counts by count; `order by
    /// count` by the number of entries whatever the aggregate), ties in the order given; empty
    /// values last. With `keep`, only the first `keep` of them (`top N`).
    static func ranked(_ order: [Int], of groups: [GroupValue], descending: Bool, byEntries: Bool, keep: Int? = nil) -> [Int] {
        func rank(_ r: GroupValue) -> ExactDecimal? {
            if byEntries { return ExactDecimal(r.entries) }
            switch r.value {
            case .money(let v, _): return v
            case .count(let n): return ExactDecimal(n)
            default: return nil
            }
        }
        // Each rank made once, and positions sorted rather than the groups themselves.
        let values = order.map { rank(groups[$0]) }
        let wanted = min(keep ?? order.count, order.count)
        // Nearly always every value is at one scale, or aligns to the finest in 128 bits: then
        // they rank by their significands, compared as integers (an exact decimal's comparison
        // aligns its two scales every time), and `top N` keeps its N in one pass (`firstOf`).
        let finest = values.reduce(0) { max($0, $1?.scale ?? 0) }
        var keyed: [(value: Int128, at: Int)] = []
        keyed.reserveCapacity(order.count)
        var empty: [Int] = []
        for (at, v) in values.enumerated() {
            guard let v else { empty.append(at); continue }
            guard finest - v.scale <= ExactDecimal.maxScale,
                  case let (x, false) = v.significand.multipliedReportingOverflow(by: v.scale == finest ? 1 : pow10[finest - v.scale]) else {
                keyed = []
                break
            }
            keyed.append((x, at))
        }
        if keyed.count + empty.count == values.count {
            let first = descending ? firstOf(keyed, wanted) { a, b in a.value > b.value || (a.value == b.value && a.at < b.at) }
                                   : firstOf(keyed, wanted) { a, b in a.value < b.value || (a.value == b.value && a.at < b.at) }
            return (first.map(\.at) + empty.prefix(wanted - first.count)).map { order[$0] }
        }
        return order.indices.sorted { a, b in
            let x = values[a], y = values[b]
            if let x, let y, x != y { return descending ? y < x : x < y }
            if (x == nil) != (y == nil) { return x != nil }
            return a < b
        }.prefix(wanted).map { order[$0] }
    }

    /// The first `k` of `items` in the order `precedes` (a strict total order), in that order.
    /// Few of many (`top 10` of a quarter of a million groups): a heap of the best k so far,
    /// its root the last of them, which each item that precedes it replaces: n log k steps
    /// instead of a sort's n log n.
    static func firstOf<T>(_ items: [T], _ k: Int, by precedes: (T, T) -> Bool) -> [T] {
        guard k > 0 else { return [] }
        guard k <= items.count / 8 else { return Array(items.sorted(by: precedes).prefix(k)) }
        var heap: [T] = []
        heap.reserveCapacity(k)
        /// Restores the heap (each node after, or equal to, its children) from node i down.
        func down(_ start: Int) {
            var i = start
            while true {
                let l = 2 * i + 1, r = l + 1
                var last = i
                if l < heap.count, precedes(heap[last], heap[l]) { last = l }
                if r < heap.count, precedes(heap[last], heap[r]) { last = r }
                if last == i { return }
                heap.swapAt(i, last)
                i = last
            }
        }
        for item in items {
            if heap.count < k {
                heap.append(item)
                var i = heap.count - 1
                while i > 0, precedes(heap[(i - 1) / 2], heap[i]) {
                    heap.swapAt(i, (i - 1) / 2)
                    i = (i - 1) / 2
                }
            } else if precedes(item, heap[0]) {
                heap[0] = item
                down(0)
            }
        }
        return heap.sorted(by: precedes)
    }

    /// A key value as it sorts, worked out once: periods chronologically, currencies by code,
    /// names alphabetically in any letter case (then as written), a missing value last.
    struct SortKey: Hashable, Comparable {
        /// 1 for a missing value (last).
        var missing: Int
        var number: Int64
        var lower: String
        var exact: String

        init(_ c: Cell) {
            switch c {
            case .period(let p): (missing, number, lower, exact) = (0, Int64(p.code), "", "")
            case .currency(let cur): (missing, number, lower, exact) = (0, 0, cur.code, cur.code)
            case .text(let s): (missing, number, lower, exact) = (0, 0, s.lowercased(), s)
            case .none: (missing, number, lower, exact) = (1, 0, "", "")
            default: (missing, number, lower, exact) = (0, 0, "", "")
            }
        }

        /// Ascending: a missing value last, periods chronologically, names in any letter case, then as written.
        static func < (x: SortKey, y: SortKey) -> Bool {
            if x.missing != y.missing { return x.missing < y.missing }
            if x.number != y.number { return x.number < y.number }
            if x.lower != y.lower { return x.lower < y.lower }
            return x.exact < y.exact
        }
    }

    /// `in native` amounts are in their own currencies: ranking ¥459,166 above $10,877 compares
    /// numbers, not money. Refused unless every ranked value is in one currency.
    static func refuseRankingAcrossCurrencies(_ currencies: [Currency], home: Currency) throws(QueryError) {
        let distinct = Array(Set(currencies)).sorted()
        guard distinct.count > 1 else { return }
        let code = home.code
        throw QueryError(.unsupported("in native, the amounts are in \(distinct.map(\.code).joined(separator: ", ")): ranking them by amount would compare numbers in different currencies; convert them (in \(code)) or keep to one currency (where currency = \(code))"), at: nil)
    }
}
