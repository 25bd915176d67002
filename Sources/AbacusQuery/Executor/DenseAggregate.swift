// The fast path of `aggregate`: sum, avg and count with at most one group key
// that is not `tag` — the shape of nearly every question asked of a big ledger.
//
// The group of a row is then a small integer read straight from a column (a
// category, book, party or payment code, a currency's index) or from a table by
// day (a period), so every accumulator can be laid out before the scan in flat
// buffers: no hashing, no growth, no copy-on-write checks in the inner loop.
// Large scans are split between two threads, each with buffers of its own,
// added together afterwards (integer sums: the order of addition cannot change
// them). The result is handed back in the shape the general path produces.

import AbacusCore
import Dispatch
#if canImport(Glibc)
import Glibc
#endif

extension Executor {
    /// How a row finds its group in the dense layout: 0 is the whole statement, groups are 1...count.
    enum DenseKey: Sendable {
        case none
        /// A code column: group = code + 1.
        case codes([UInt32], count: Int)
        /// The currency column: group = table[packed] + 1.
        case currency(table: [Int32], currencies: [Currency])
        /// A period: group = table[day - base] + 1; `codes[g - 1]` is the period's code.
        case period(table: [Int32], base: Int32, codes: [UInt32])

        var count: Int {
            switch self {
            case .none: return 0
            case .codes(_, let n): return n
            case .currency(_, let c): return c.count
            case .period(_, _, let codes): return codes.count
            }
        }
    }

    func denseKey(_ keys: [GroupKey], rows: Range<Int>) -> DenseKey? {
        guard let k = keys.first else { return DenseKey.none }
        guard keys.count == 1 else { return nil }
        switch k {
        case .category: return .codes(store.category, count: store.categories.count)
        case .book: return .codes(store.book, count: ledger.books.count)
        case .party: return .codes(store.party, count: store.parties.count)
        case .payment: return .codes(store.payment, count: store.payments.count)
        case .currency:
            var table = [Int32](repeating: -1, count: 26 * 26 * 26 + 1)
            for (i, c) in store.currencies.enumerated() { table[Int(c.packed)] = Int32(i) }
            return .currency(table: table, currencies: store.currencies)
        case .day, .week, .month, .quarter, .year:
            guard !rows.isEmpty else { return .period(table: [], base: 0, codes: []) }
            let first = store.day[rows.lowerBound], last = store.day[rows.upperBound - 1]
            guard Int(last) - Int(first) < 1 << 20 else { return nil }
            var table = [Int32](repeating: 0, count: Int(last - first) + 1)
            var codes: [UInt32] = []
            var seen: [UInt32: Int32] = [:]
            for d in first...last {
                let code = Executor.periodCode(k, Day(number: d))
                if let g = seen[code] { table[Int(d - first)] = g; continue }
                seen[code] = Int32(codes.count)
                table[Int(d - first)] = Int32(codes.count)
                codes.append(code)
            }
            return .period(table: table, base: first, codes: codes)
        case .tag:
            return nil
        }
    }

    /// One thread's share of a dense scan.
    final class DensePartial: @unchecked Sendable {
        let groups: Int
        let slots: Int
        let sums: UnsafeMutableBufferPointer<Int256>
        let errors: UnsafeMutableBufferPointer<Int128>
        let counts: UnsafeMutableBufferPointer<Int>
        let perRate: UnsafeMutableBufferPointer<Int>
        let firstDay: UnsafeMutableBufferPointer<Int32>
        let lastDay: UnsafeMutableBufferPointer<Int32>
        /// Rows at rates the columns above do not count (booked values, missing rates).
        var tally: ConversionTally
        var filterTally: ConversionTally?
        var overflowed = false
        /// Σ|amount| passed 128 bits: the general path must redo the statement.
        var errorsOverflowed = false
        var failure: QueryError?

        init(groups: Int, slots: Int, rates: Int, tally: ConversionTally, filterTally: ConversionTally?) {
            self.groups = groups
            self.slots = slots
            let cells = (groups + 1) * slots
            sums = .allocate(capacity: cells); sums.initialize(repeating: .zero)
            errors = .allocate(capacity: cells); errors.initialize(repeating: 0)
            counts = .allocate(capacity: groups + 1); counts.initialize(repeating: 0)
            perRate = .allocate(capacity: rates); perRate.initialize(repeating: 0)
            firstDay = .allocate(capacity: rates); firstDay.initialize(repeating: .max)
            lastDay = .allocate(capacity: rates); lastDay.initialize(repeating: .min)
            self.tally = tally
            self.filterTally = filterTally
        }

        deinit {
            sums.deallocate(); errors.deallocate(); counts.deallocate()
            perRate.deallocate(); firstDay.deallocate(); lastDay.deallocate()
        }

        func merge(_ o: DensePartial) {
            for i in 0..<sums.count { if sums[i].add(o.sums[i]) { overflowed = true } }
            for i in 0..<errors.count {
                let (e, x) = errors[i].addingReportingOverflow(o.errors[i])
                errors[i] = e
                if x { errorsOverflowed = true }
            }
            for i in 0..<counts.count { counts[i] += o.counts[i] }
            for i in 0..<perRate.count {
                perRate[i] += o.perRate[i]
                firstDay[i] = min(firstDay[i], o.firstDay[i])
                lastDay[i] = max(lastDay[i], o.lastDay[i])
            }
            tally.merge(o.tally)
            if var f = filterTally, let g = o.filterTally { f.merge(g); filterTally = f }
            overflowed = overflowed || o.overflowed
            errorsOverflowed = errorsOverflowed || o.errorsOverflowed
            failure = failure ?? o.failure
        }
    }

    /// Rows a dense scan visits: a day range, or rows of posting lists.
    enum DenseRows: Sendable {
        case range(Range<Int>)
        case list([Int])

        var count: Int {
            switch self {
            case .range(let r): return r.count
            case .list(let l): return l.count
            }
        }

        /// The k-th of n nearly equal parts.
        func part(_ k: Int, of n: Int) -> DenseRows {
            let lo = count * k / n, hi = count * (k + 1) / n
            switch self {
            case .range(let r): return .range((r.lowerBound + lo)..<(r.lowerBound + hi))
            case .list(let l): return .list(Array(l[lo..<hi]))
            }
        }
    }

    /// Scans too small for a second thread to pay for itself stay on one.
    static let parallelRows = 200_000

    /// The dense scan, or nil when the statement does not have its shape (or an error sum
    /// outgrew 128 bits): the general path then answers.
    func denseAggregate(_ plan: Plan, keys: [GroupKey], converter: RowConverter?) throws(QueryError) -> Scan? {
        guard plan.aggregate == .sum || plan.aggregate == .avg || plan.aggregate == .count,
              let key = denseKey(keys, rows: plan.rows) else { return nil }
        let slots = SumSlots(converter: converter, store: store)
        let rows: DenseRows = plan.index.map { .list(indexRows($0, plan.rows)) } ?? .range(plan.rows)
        let amounts = plan.filter.map(Executor.testsAmount) == true ? (converter ?? self.converter(plan)) : nil
        let threads = rows.count >= Executor.parallelRows && ProcessInfoLite.processors > 1 ? 2 : 1
        let partials = (0..<threads).map { _ in
            DensePartial(groups: key.count, slots: slots.scales.count, rates: converter?.rates.count ?? 0,
                         tally: converter.map(ConversionTally.init) ?? .none, filterTally: amounts.map(ConversionTally.init))
        }
        let work: @Sendable (Int) -> Void = { k in
            let p = partials[k]
            do throws(QueryError) {
                try self.denseScan(plan, key: key, rows: rows.part(k, of: threads), converter: converter, amounts: amounts, slots: slots, into: p)
            } catch {
                p.failure = error
            }
        }
        if threads == 1 { work(0) } else { DispatchQueue.concurrentPerform(iterations: threads, execute: work) }
        let total = partials[0]
        for p in partials.dropFirst() { total.merge(p) }
        if let failure = total.failure { throw failure }
        if let amounts, let t = total.filterTally { _ = try outcome(amounts, t) }
        if total.errorsOverflowed { return nil }

        // Back into the general path's shape: groups numbered in the order of their codes.
        var tally = total.tally
        tally.add(perRate: total.perRate, firstDay: total.firstDay, lastDay: total.lastDay)
        var groups = Grouper(keys: keys, ledger: ledger)
        var acc = Accumulators(slots: slots, extremes: false)
        if total.overflowed { acc.markOverflow() }
        let s = slots.scales.count
        func load(_ dense: Int, as g: Int) {
            acc.set(g, count: total.counts[dense],
                    sums: UnsafeMutableBufferPointer(rebasing: total.sums[(dense * s)..<(dense * s + s)]),
                    errors: UnsafeMutableBufferPointer(rebasing: total.errors[(dense * s)..<(dense * s + s)]))
        }
        acc.addGroup()
        load(0, as: 0)
        for dense in 1..<(key.count + 1) where total.counts[dense] > 0 {
            var k = SIMD4<UInt32>.zero
            switch key {
            case .none: break
            case .codes: k[0] = UInt32(dense - 1)
            case .currency(_, let currencies): k[0] = UInt32(currencies[dense - 1].packed)
            case .period(_, _, let codes): k[0] = codes[dense - 1]
            }
            let g = groups.group(k)
            acc.addGroup()
            load(dense, as: g)
        }
        return Scan(groups: groups, acc: acc, tally: tally)
    }

    /// One thread's scan of its rows into `p`.
    func denseScan(_ plan: Plan, key: DenseKey, rows: DenseRows, converter: RowConverter?, amounts: RowConverter?,
                   slots: SumSlots, into p: DensePartial) throws(QueryError) {
        let storeAmounts = store.amount
        let days = store.day
        let subject = plan.subject
        let flip = subject == .expenses
        let filter = plan.filter
        let counting = plan.aggregate == .count
        let s = slots.scales.count
        let sameSlot = slots.same
        let ofRate = slots.ofRate
        let inexact = slots.inexact
        let columnIDs = converter?.column.ids ?? []
        let plainIDs = converter?.rates.count == converter?.column.rates.count
        let factors = converter?.factorSignificand ?? []
        let isLate = converter?.rates.map(\.isLate) ?? []
        var filterTally = p.filterTally
        var tally = p.tally
        let (sums, errors, counts, perRate, firstDay, lastDay) = (p.sums, p.errors, p.counts, p.perRate, p.firstDay, p.lastDay)
        var overflowed = false, errorsOverflowed = false

        @inline(__always)
        func group(_ row: Int) -> Int {
            switch key {
            case .none: return 0
            case .codes(let column, _): return Int(column[row]) + 1
            case .currency(let table, _): return Int(table[Int(store.currency[row].packed)]) + 1
            case .period(let table, let base, _): return Int(table[Int(days[row] - base)]) + 1
            }
        }
        @inline(__always)
        func visit(_ row: Int) {
            let a = storeAmounts[row]
            switch subject {
            case .expenses: guard a < 0 && !store.isTransfer[row] else { return }
            case .income: guard a > 0 && !store.isTransfer[row] else { return }
            case .transfers: guard store.isTransfer[row] else { return }
            case .entries: break
            }
            if let filter, !evaluate(filter, row, flip: flip, amounts: amounts, tally: &filterTally) { return }
            let g = group(row)
            counts[0] &+= 1
            if g > 0 { counts[g] &+= 1 }
            if counting { return }
            let value = flip ? -a : a
            let product: Int256
            let slot: Int
            if let converter {
                let id = plainIDs ? columnIDs[row] : converter.id(row)
                if id >= 0 {
                    let i = Int(id)
                    perRate[i] &+= 1
                    if isLate[i] {
                        let d = days[row]
                        if d < firstDay[i] { firstDay[i] = d }
                        if d > lastDay[i] { lastDay[i] = d }
                    }
                    product = Int256(value, times: factors[i])
                    slot = ofRate[i]
                } else if id == RateColumn.same {
                    tally.same &+= 1
                    product = Int256(value)
                    slot = sameSlot
                } else {
                    tally.count(id, day: days[row])
                    // No rate: the statement fails after the scan.
                    guard let (v, scale) = converter.product(row, id: id, amount: value, negate: flip) else { return }
                    product = v
                    slot = slots.ofExactScale[scale]
                }
            } else {
                product = Int256(value)
                slot = sameSlot
            }
            if sums[slot].add(product) { overflowed = true }
            if g > 0, sums[g &* s &+ slot].add(product) { overflowed = true }
            if inexact[slot] {
                let m = value < 0 ? -value : value
                var (e, x) = errors[slot].addingReportingOverflow(m)
                errors[slot] = e
                if x { errorsOverflowed = true }
                if g > 0 {
                    (e, x) = errors[g &* s &+ slot].addingReportingOverflow(m)
                    errors[g &* s &+ slot] = e
                    if x { errorsOverflowed = true }
                }
            }
        }

        // Ctrl-C is looked for every 64k rows.
        let stride = 1 << 16
        switch rows {
        case .range(let r):
            var lo = r.lowerBound
            while lo < r.upperBound {
                if isCancelled() { throw QueryError(.cancelled, at: nil) }
                let hi = min(r.upperBound, lo + stride)
                for row in lo..<hi { visit(row) }
                lo = hi
            }
        case .list(let list):
            var lo = 0
            while lo < list.count {
                if isCancelled() { throw QueryError(.cancelled, at: nil) }
                let hi = min(list.count, lo + stride)
                for k in lo..<hi { visit(list[k]) }
                lo = hi
            }
        }
        p.tally = tally
        p.filterTally = filterTally
        p.overflowed = overflowed
        p.errorsOverflowed = errorsOverflowed
    }
}

/// The number of processors, without Foundation.
enum ProcessInfoLite {
    static let processors: Int = {
        #if canImport(Glibc)
        return Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        #else
        return 1
        #endif
    }()
}
