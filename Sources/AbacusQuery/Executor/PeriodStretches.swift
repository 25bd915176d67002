// Products of keys with a period, scanned a period at a time (`Executor.denseScan`).
//
// Rows come in day order, so a stretch of rows in one period adds only to the groups of that
// period: their place is found once for the stretch, and a row's group is its other keys'
// index within the period, as with keys without a period: with one other key read as the row
// is (`InnerIndex`: no pass ahead writing every row's group), with several worked out ahead.
// A product of many groups (four keys: 94,000 of which 13,000 occur) keeps one period's groups
// at a time (`PeriodBlocks`): each period's groups that met rows are kept, in product order,
// when its stretch ends, and the block is cleared for the next, so the accumulators a scan
// touches stay in the cache and only the groups that occur are ever laid out.

import AbacusCore

extension Executor {
    /// A row's index among the groups of one period, when the product has one other key: its
    /// code, a code read through a table, or a currency's index, times its stride.
    struct InnerIndex {
        private enum Kind { case codes, mapped, currency }
        private let kind: Kind
        let column: StoreColumn<UInt32>
        private let table: [Int32]
        let stride: Int
        private let currency: StoreColumn<Currency>

        init?(_ part: DenseKey, stride: Int, currency: StoreColumn<Currency>) {
            switch part {
            case .codes(let c, _): (kind, column, table) = (.codes, c, [])
            case .mapped(let c, let t, _): (kind, column, table) = (.mapped, c, t)
            case .currency(let t, _): (kind, column, table) = (.currency, [], t)
            default: return nil
            }
            (self.stride, self.currency) = (stride, currency)
        }

        /// Whether the key is a plain code column (read without a table: `party, month`).
        var isCodes: Bool { kind == .codes }

        @inline(__always)
        func callAsFunction(_ row: Int) -> Int {
            switch kind {
            case .codes: return Int(column[row]) &* stride
            case .mapped: return Int(table[Int(column[row])]) &* stride
            case .currency: return Int(table[Int(currency[row].packed)]) &* stride
            }
        }
    }

    /// A product of keys, one of them a period with the largest stride (`denseKey` gives it that),
    /// scanned a period at a time.
    struct PeriodStretches {
        /// With one other key, how a row's index among its period's groups is read; nil with
        /// several (each row's index is then worked out ahead, a block of rows at a time).
        let inner: InnerIndex?
        /// The other keys and their strides.
        let others: [(DenseKey, Int)]
        /// How many groups one period has (the period's stride).
        let periodStride: Int
        /// The period's index of a day: `table[day - base]`.
        let table: [Int32]
        let base: Int32
        /// The last day of each period (by its index).
        let lastDay: [Int32]

        init?(_ parts: [DenseKey], _ strides: [Int], currency: StoreColumn<Currency>) {
            guard let p = parts.firstIndex(where: \.isPeriod),
                  case .period(let table, let base, _) = parts[p], strides[p] == strides.max() else { return nil }
            let others = parts.indices.filter { $0 != p }.map { (parts[$0], strides[$0]) }
            guard others.allSatisfy({ InnerIndex($0.0, stride: $0.1, currency: currency) != nil }) else { return nil }
            let inner = others.count == 1 ? InnerIndex(others[0].0, stride: others[0].1, currency: currency) : nil
            (self.inner, self.others, self.periodStride, self.table, self.base) = (inner, others, strides[p], table, base)
            var last = [Int32](repeating: .min, count: (table.max().map(Int.init) ?? -1) + 1)
            for (i, p) in table.enumerated() { last[Int(p)] = Swift.max(last[Int(p)], base &+ Int32(i)) }
            lastDay = last
        }
    }

    /// One thread's groups of a product scanned a period at a time into a block of one period's
    /// groups (`PeriodStretches`), kept as each period ends: the groups that met rows, in product
    /// order, with what the block added up for them.
    final class PeriodBlocks: @unchecked Sendable {
        private(set) var products: [Int32] = []
        private(set) var counts: [Int] = []
        private(set) var sums: [Int256] = []
        private(set) var errors: [Int128] = []
        private(set) var extremes: [DenseExtreme] = []
        /// How many groups this thread may keep at most (its rows, or the product's cells): room
        /// for them is asked for at the first period, not grown by copying as periods come (tens
        /// of megabytes). Room never written costs no memory: the system gives pages as they are
        /// first written, and the heap keeps those a statement wrote for the next
        /// (`Executor.keepFreedMemory`).
        let most: Int

        init(most: Int = 0) { self.most = most }

        /// Keeps the groups of period `p` that `block` (one period's groups, 1...periodStride)
        /// added up, and clears them from it.
        func keep(_ block: DensePartial, period p: Int, periodStride: Int) {
            let s = block.slots
            // Appended to here, then put back: appending to the properties themselves would check
            // for exclusive access at every element.
            var (products, counts, sums, errors, extremes) = (self.products, self.counts, self.sums, self.errors, self.extremes)
            (self.products, self.counts, self.sums, self.errors, self.extremes) = ([], [], [], [], [])
            defer { (self.products, self.counts, self.sums, self.errors, self.extremes) = (products, counts, sums, errors, extremes) }
            if products.capacity == 0 && most > 0 {
                products.reserveCapacity(most)
                counts.reserveCapacity(most)
                if block.extremes != nil { extremes.reserveCapacity(most * s) } else {
                    sums.reserveCapacity(most * s)
                    errors.reserveCapacity(most * s)
                }
            }
            for g in 1..<(block.groups + 1) where block.counts[g] != 0 {
                products.append(Int32(g &+ p &* periodStride))
                counts.append(block.counts[g])
                block.counts[g] = 0
                // A min or a max keeps extremes alone (its partials have no sums).
                for k in (g * s)..<(g * s + s) {
                    if let e = block.extremes {
                        extremes.append(e[k])
                        e[k] = DenseExtreme()
                    } else {
                        sums.append(block.sums[k])
                        errors.append(block.errors[k])
                        block.sums[k] = .zero
                        block.errors[k] = 0
                    }
                }
            }
        }

        /// The threads' kept groups as one partial over them, numbered in product order (a period
        /// two threads shared is in both: its groups are added together), with the tallies of
        /// `tallies` (the threads' blocks, merged); and the product group of each of its groups.
        static func merged(_ parts: [PeriodBlocks], tallies: DensePartial, slots s: Int, extremes keeps: Bool) -> (DensePartial, products: [Int32]) {
            // Each part's groups are in product order (periods come in order, and each period's
            // groups are kept in order); the parts' may overlap in one period: merged in order.
            var unique: [Int32] = []
            for part in parts {
                var merged: [Int32] = []
                merged.reserveCapacity(unique.count + part.products.count)
                var i = 0
                for p in part.products {
                    while i < unique.count && unique[i] < p { merged.append(unique[i]); i += 1 }
                    if i < unique.count && unique[i] == p { i += 1 }
                    merged.append(p)
                }
                merged.append(contentsOf: unique[i...])
                unique = merged
            }
            let total = DensePartial(groups: unique.count, slots: s, rates: tallies.perRate.count, extremes: keeps, tally: tallies.tally, filterTally: tallies.filterTally)
            total.takeTallies(of: tallies)
            for part in parts {
                // Read through locals: reading the properties would check for exclusive access at every element.
                let (counts, sums, errors, extremes) = (part.counts, part.sums, part.errors, part.extremes)
                var g = 0
                for (i, p) in part.products.enumerated() {
                    while unique[g] != p { g += 1 }
                    total.counts[g + 1] += counts[i]
                    for k in 0..<s {
                        if let x = total.extremes { x[(g + 1) * s + k].merge(extremes[i * s + k]) } else {
                            total.addCell((g + 1) * s + k, sum: sums[i * s + k], error: errors[i * s + k])
                        }
                    }
                }
            }
            return (total, unique)
        }
    }
}
