// The fast path of `aggregate`: every aggregate but `list`, grouped by keys whose
// values are few — the shape of nearly every question asked of a big ledger.
//
// The group of a row is then a small integer read straight from a column (a
// category, book, party or payment code, a currency's index, each of its tags) or
// from a table by day (a period); with several keys, the groups are the cells of
// their product (`book, month`: books × months), so every accumulator can be laid
// out before the scan in flat buffers: no hashing, no growth, no copy-on-write
// checks in the inner loop. Min and max keep, per group and product scale, the extreme product (same
// scale, one comparison) and settle across scales at the end.
// Large scans are split between two threads, each with buffers of its own,
// added together afterwards (integer sums: the order of addition cannot change
// them). The result is handed back in the shape the general path produces.

import AbacusCore
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

#if canImport(Glibc)
@_silgen_name("mallopt")
private func glibcMallopt(_ parameter: Int32, _ value: Int32) -> Int32
#endif

/// The row at each position of the rows a dense scan visits.
private protocol RowAt {
    func row(_ position: Int) -> Int
    /// Whether the rows at `positions` are all rows of a store of `count` rows.
    func within(_ count: Int, at positions: Range<Int>) -> Bool
}
private struct RangeRows: RowAt {
    let first: Int
    @inline(__always) func row(_ position: Int) -> Int { first &+ position }
    func within(_ count: Int, at positions: Range<Int>) -> Bool {
        positions.isEmpty || (first >= 0 && first + positions.lowerBound >= 0 && first + positions.upperBound <= count)
    }
}
private struct ListRows: RowAt {
    let rows: UnsafeBufferPointer<Int>
    @inline(__always) func row(_ position: Int) -> Int { rows[position] }
    func within(_ count: Int, at positions: Range<Int>) -> Bool {
        // One comparison at the end, not a branch for every row.
        var top: UInt = 0
        for k in positions { top = Swift.max(top, UInt(bitPattern: rows[k])) }
        return positions.isEmpty || top < UInt(count)
    }
}

extension Executor {
    /// How a row finds its group in the dense layout: 0 is the whole statement, groups are 1...count.
    enum DenseKey: Sendable {
        case none
        /// A code column: group = code + 1.
        case codes(StoreColumn<UInt32>, count: Int)
        /// The currency column: group = table[packed] + 1.
        case currency(table: [Int32], currencies: [Currency])
        /// A period: group = table[day - base] + 1; `codes[g - 1]` is the period's code.
        case period(table: [Int32], base: Int32, codes: [UInt32])
        /// Each tag of a row: group = tag code + 2; group 1 is "no tags". A scan reads each row's
        /// first tags as one code (`TagHeads`): group = head code + 1.
        case tags(TagHeads)
        /// A code column read through a table (`top category`: each category's root):
        /// group = table[code] + 1.
        case mapped(StoreColumn<UInt32>, table: [Int32], count: Int)
        /// Several keys: group = 1 + Σ index(key) × stride(key), each index below its key's size;
        /// `tagAt` is the key that is `tag`, whose every tag is a group of its own.
        case product([DenseKey], strides: [Int], count: Int, tagAt: Int?)

        var count: Int {
            switch self {
            case .none: return 0
            case .codes(_, let n), .mapped(_, _, let n): return n
            case .currency(_, let c): return c.count
            case .period(_, _, let codes): return codes.count
            case .tags(let heads): return heads.count
            case .product(_, _, let n, _): return n
            }
        }

        /// Whether this key is a period.
        var isPeriod: Bool {
            if case .period = self { return true }
            return false
        }

        /// Whether tag is one of the keys (a row then may be in several groups).
        var groupsByTag: Bool {
            switch self {
            case .tags, .product(_, _, _, _?): return true
            default: return false
            }
        }

        /// A one-key part's lane code (as `Grouper` writes it) for an index (of a tag key: its
        /// groups as `Grouper` lays them out, heads of width 1).
        func code(_ index: Int) -> UInt32 {
            switch self {
            case .codes, .mapped, .tags, .none, .product: return UInt32(index)
            case .currency(_, let currencies): return UInt32(currencies[index].packed)
            case .period(_, _, let codes): return codes[index]
            }
        }
    }

    /// Each row's group in the product of several keys: 1 + Σ index × stride (a row's first tag
    /// for the tag key, 0 without tags). Rows are taken a block at a time and every key adds
    /// its part to the block while it is in the cache: one pass over the rows, not one per key.
    /// `threads` share the rows (each its own positions of the output).
    /// With `marks` (one per thread), each thread also counts its rows in each product group
    /// (of `cells`).
    static func productGroups(_ parts: [DenseKey], _ strides: [Int], rows: DenseRows, store: EntryStore, threads: Int = 1,
                              marks: [Slot<[UInt32]>]? = nil, cells: Int = 0) -> [Int32] {
        let n = rows.count
        return [Int32](unsafeUninitializedCapacity: n) { buffer, initialized in
            let out = OutBuffer(buffer)
            let fill: @Sendable (Int) -> Void = { k in
                guard let base = out.base else { return }
                let lo = n * k / threads, hi = n * (k + 1) / threads
                switch rows {
                case .range(let r): productBlocks(parts, strides, RangeRows(first: r.lowerBound), lo..<hi, store: store, into: base)
                case .list(let l): l.withUnsafeBufferPointer { productBlocks(parts, strides, ListRows(rows: $0), lo..<hi, store: store, into: base) }
                }
                guard let marks else { return }
                // A thread's rows are fewer than 2^32 (their groups are Int32s).
                var seen = [UInt32](repeating: 0, count: cells + 1)
                for i in lo..<hi { seen[Int(base[i])] &+= 1 }
                marks[k].value = seen
            }
            if n > 0 { if threads > 1 { DispatchQueue.concurrentPerform(iterations: threads, execute: fill) } else { fill(0) } }
            initialized = n
        }
    }

    /// Where the jobs of `productGroups` write, each to positions of its own.
    private final class OutBuffer: @unchecked Sendable {
        let base: UnsafeMutablePointer<Int32>?
        init(_ b: UnsafeMutableBufferPointer<Int32>) { base = b.baseAddress }
    }

    /// `productGroups` for the positions `span`, a block of rows at a time. The block's rows are
    /// checked to be the store's once, and the columns then read with no check per row (so
    /// that each key's loop over a block is one the compiler can vectorise).
    private static func productBlocks<R: RowAt>(_ parts: [DenseKey], _ strides: [Int], _ rows: R, _ span: Range<Int>,
                                                store: EntryStore, into out: UnsafeMutablePointer<Int32>) {
        let days = store.day, currency = store.currency
        // The rows every column read holds.
        var count = min(days.count, currency.count)
        for part in parts {
            if case .codes(let column, _) = part { count = min(count, column.count) }
            if case .mapped(let column, _, _) = part { count = min(count, column.count) }
            if case .tags(let heads) = part { count = min(count, heads.code.count) }
        }
        let block = 2048
        var lo = span.lowerBound
        while lo < span.upperBound {
            let hi = min(span.upperBound, lo + block)
            precondition(rows.within(count, at: lo..<hi), "a dense scan's rows are the store's")
            for k in lo..<hi { out[k] = 1 }
            for (part, stride) in zip(parts, strides) {
                let s = Int32(stride)
                switch part {
                case .codes(let column, _):
                    column.withUnsafeBufferPointer { c in
                        for k in lo..<hi { out[k] &+= Int32(truncatingIfNeeded: c[rows.row(k)]) &* s }
                    }
                case .mapped(let column, let table, _):
                    // The table has an entry for every code the column holds (`denseKey`).
                    table.withUnsafeBufferPointer { t in
                        column.withUnsafeBufferPointer { c in
                            for k in lo..<hi { out[k] &+= t[Int(c[rows.row(k)])] &* s }
                        }
                    }
                case .currency(let table, _):
                    table.withUnsafeBufferPointer { t in
                        currency.withUnsafeBufferPointer { c in
                            for k in lo..<hi { out[k] &+= t[Int(c[rows.row(k)].packed)] &* s }
                        }
                    }
                case .period(let table, let base, _):
                    table.withUnsafeBufferPointer { t in
                        days.withUnsafeBufferPointer { d in
                            for k in lo..<hi { out[k] &+= t[Int(d[rows.row(k)] &- base)] &* s }
                        }
                    }
                case .tags(let heads):
                    heads.code.withUnsafeBufferPointer { c in
                        for k in lo..<hi { out[k] &+= Int32(truncatingIfNeeded: c[rows.row(k)]) &* s }
                    }
                case .none, .product:
                    break
                }
            }
            lo = hi
        }
    }

    /// Most groups the product of several keys may have; a sum keeps groups × slots
    /// accumulators, at most `productCells`. Past `compactAbove` cells, the groups that occur
    /// are numbered first (`CompactGroups`) and only those get accumulators.
    static let productGroups = 1 << 20
    static let productCells = 1 << 20
    /// Most cells of a product with a tag key: past `tagLayoutCells` accumulators, the groups
    /// its rows meet are numbered first (`CompactGroups(tagged:)`), a table of 4 bytes a cell
    /// (`book, day, currency, tag`: 1.66 million cells, 113,000 groups met at a million entries).
    static let tagProductCells = 1 << 22
    /// Up to how many accumulators a product with a tag key is laid out whole, its rows read by
    /// their first two tags where those fit (`TagHeads`): numbered first, they are read by their
    /// first tag alone (`sum expenses in INR by party, tag, month`, 756,000 accumulators: 75 ms
    /// laid out whole, 81 numbered first).
    public static let tagLayoutCells = productCells
    public static let compactAbove = 1 << 17
    /// Most accumulators of a period and one other key laid out whole (`party, day`: 365,000
    /// groups, three quarters of them met) rather than a period at a time (`PeriodBlocks`): each
    /// period's zeroed as the scan meets it, nothing copied out after each period or merged after
    /// the scan. 2^21 cells are 96 MB of sums and error sums, about what the kept groups of the
    /// blocks would take at that size.
    public static let periodLayoutCells = 1 << 21
    /// Past this many accumulators per thread (groups × scales; 48 bytes each, about the
    /// 768 KB of a core's L2 cache), rates of different scales share slots (`SumSlots`).
    public static let shareSlotsAbove = 1 << 14

    /// The groups of a product that occur, numbered 1, 2, … in the order of their product
    /// groups (1 + Σ index × stride): for products of many cells of which few occur (four keys:
    /// 94,000 cells, 13,000 of them met at a million entries). `threads` share the rows, each
    /// working out its rows' product groups and marking those it meets, in one pass.
    struct CompactGroups: Sendable {
        /// Each row's product group.
        var ofRow: [Int32]
        /// The number of each product group among those that occur (0: none of the rows).
        var number: [Int32]
        /// The product group of each number (number − 1).
        var products: [Int32]
        /// The rows in each numbered group (0: all the rows).
        var rowCounts: [Int]

        init(_ parts: [DenseKey], _ strides: [Int], count: Int, rows: DenseRows, store: EntryStore, threads: Int = 1) {
            let marks = (0..<threads).map { _ in Slot<[UInt32]>() }
            ofRow = Executor.productGroups(parts, strides, rows: rows, store: store, threads: threads, marks: marks, cells: count)
            (number, products, rowCounts) = CompactGroups.numbered(marks.map { $0.value ?? [] }, count: count, rows: ofRow.count)
        }

        /// By tag (`tagAt`, read as the rows' first tags: `heads` of width 1): each row's product
        /// group is its first tag's, and the groups of its later tags (`later`: the rows that
        /// have them, by position among `rows`, as `laterPositions` finds them) are marked as
        /// met too, so that every group a row adds to has a number. `rowCounts` then counts a
        /// row in each of its tags' groups.
        init(tagged parts: [DenseKey], _ strides: [Int], count: Int, tagAt: Int, heads: TagHeads, later: [(position: Int, index: Int)],
             rows: DenseRows, store: EntryStore, threads: Int = 1) {
            let marks = (0..<threads).map { _ in Slot<[UInt32]>() }
            ofRow = Executor.productGroups(parts, strides, rows: rows, store: store, threads: threads, marks: marks, cells: count)
            var seen = marks.map { $0.value ?? [] }
            if !later.isEmpty, seen.first?.count == count + 1 {
                // The later tags' groups: the row's group with its first tag's index replaced by theirs.
                let stride = strides[tagAt]
                for (position, index) in later {
                    let base = Int(ofRow[position]) - Int(heads.code[rows.row(position)]) * stride
                    for t in Int(heads.laterStart[index])..<Int(heads.laterStart[index + 1]) { seen[0][base + Int(heads.laterGroups[t]) * stride] &+= 1 }
                }
            }
            (number, products, rowCounts) = CompactGroups.numbered(consume seen, count: count, rows: ofRow.count)
        }

        /// The product groups that `seen` (one count per product group for each thread) met, numbered in order.
        private static func numbered(_ seen: consuming [[UInt32]], count: Int, rows: Int) -> (number: [Int32], products: [Int32], rowCounts: [Int]) {
            // The threads' counts added into the first's, a loop over the cells for each thread
            // rather than one over the threads for each cell (a store's rows, and so any sum of
            // their counts, are fewer than 2^31).
            var others = consume seen
            var total = others.isEmpty ? [] : others.removeFirst()
            total.withUnsafeMutableBufferPointer { t in
                for other in others {
                    other.withUnsafeBufferPointer { o in for p in 0..<min(o.count, t.count) { t[p] &+= o[p] } }
                }
            }
            var number = [Int32](repeating: 0, count: count + 1)
            var products: [Int32] = []
            var rowCounts = [rows]
            for p in 0..<min(total.count, count + 1) where total[p] > 0 {
                products.append(Int32(p))
                number[p] = Int32(products.count)
                rowCounts.append(Int(total[p]))
            }
            return (number, products, rowCounts)
        }
    }

    func denseKey(_ keys: [GroupKey], rows: Range<Int>) -> DenseKey? {
        guard let k = keys.first else { return DenseKey.none }
        guard keys.count == 1 else {
            var parts: [DenseKey] = []
            for key in keys {
                guard let part = denseKey([key], rows: rows) else { return nil }
                parts.append(part)
            }
            // A period key takes the largest stride: rows come in day order, so the groups a
            // stretch of rows adds to then lie side by side in the accumulators (in the cache).
            // Unless a tag takes it: the other keys' strides are then the same whatever a tag
            // head stands for (`tagHeadsKey`).
            func rank(_ k: GroupKey) -> Int { k == .tag ? 2 : k.isPeriod ? 1 : 0 }
            var strides = [Int](repeating: 0, count: keys.count)
            var count = 1
            for i in keys.indices.sorted(by: { rank(keys[$0]) < rank(keys[$1]) }) {
                strides[i] = count
                count *= max(1, parts[i].count)
                if count > (keys.contains(.tag) ? Executor.tagProductCells : Executor.productGroups) { return nil }
            }
            return .product(parts, strides: strides, count: count, tagAt: keys.firstIndex(of: .tag))
        }
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
            // Its groups only: a scan reads the codes of the heads it lays its groups out by (`scanKey`).
            return .tags(TagHeads(layoutOf: store.tags.count))
        case .topCategory:
            // Each category's group is its root's code (as `Grouper` finds it).
            let roots = ledger.rootCategoryCodes.map { Int32($0) }
            guard roots.count == store.categories.count else { return nil }
            return .mapped(store.category, table: roots, count: store.categories.count)
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
        /// Min and max: per group and slot, the smallest and largest product and its row.
        let extremes: UnsafeMutableBufferPointer<DenseExtreme>?
        /// Grouping by tag: what rows add to the groups of their later tags (after their `TagHeads`),
        /// apart from `sums`, `errors` and `counts` until group 0 is made from those
        /// (`wholeFromGroups`); laid out as the tag key's groups (`laterGroups` of them).
        let laterSums: UnsafeMutableBufferPointer<Int256>
        let laterErrors: UnsafeMutableBufferPointer<Int128>
        let laterCounts: UnsafeMutableBufferPointer<Int>
        /// A min's or a max's later tags' extremes, apart as `laterSums` are.
        let laterExtremes: UnsafeMutableBufferPointer<DenseExtreme>?
        /// Rows at rates the columns above do not count (booked values, missing rates).
        var tally: ConversionTally
        var filterTally: ConversionTally?
        var overflowed = false
        /// Σ|amount| passed 128 bits: the general path must redo the statement.
        var errorsOverflowed = false
        var failure: QueryError?
        /// The partial whose groups (sums, error sums, counts, extremes) this one adds to, where
        /// it has none of its own (`init(sharingGroupsOf:)`).
        let groupsOf: DensePartial?
        /// Sums and error sums not zeroed ahead (but group 0's): a scan a period at a time zeroes
        /// each period's as it first meets it (`touch`), where one layout holds every thread's
        /// groups. A group no row met is then never read (its count, zeroed ahead, is 0).
        let zeroedAsMet: Bool

        /// A count (`slots` 0) keeps no sums; `byTag`, the sums of later tags apart, in
        /// `laterGroups` groups (default `groups`).
        init(groups: Int, slots: Int, rates: Int, extremes keeps: Bool, byTag: Bool = false, laterGroups: Int? = nil, zeroedAsMet: Bool = false,
             tally: ConversionTally, filterTally: ConversionTally?) {
            self.groups = groups
            self.slots = slots
            self.zeroedAsMet = zeroedAsMet && !keeps
            let cells = (groups + 1) * slots, laterCells = ((laterGroups ?? groups) + 1) * slots
            // An empty extreme is all zeros (`DenseExtreme()`), as are zeroed pages.
            extremes = keeps ? DensePartial.zeroed(cells) : nil
            // Zeroed by `calloc` (all-zero bits are zero for these integers): fresh pages from the
            // system, or memory an earlier statement freed, cleared here (zeroed as met: group 0's
            // alone). A min or a max keeps extremes alone: no sums.
            sums = self.zeroedAsMet ? DensePartial.unwritten(cells, zeroing: slots) : DensePartial.zeroed(keeps ? 0 : cells)
            errors = self.zeroedAsMet ? DensePartial.unwritten(cells, zeroing: slots) : DensePartial.zeroed(keeps ? 0 : cells)
            counts = DensePartial.zeroed(groups + 1)
            laterSums = DensePartial.zeroed(byTag && !keeps ? laterCells : 0)
            laterErrors = DensePartial.zeroed(byTag && !keeps ? laterCells : 0)
            laterExtremes = byTag && keeps ? DensePartial.zeroed(laterCells) : nil
            laterCounts = DensePartial.zeroed(byTag ? (laterGroups ?? groups) + 1 : 0)
            perRate = .allocate(capacity: rates); perRate.initialize(repeating: 0)
            firstDay = .allocate(capacity: rates); firstDay.initialize(repeating: .max)
            lastDay = .allocate(capacity: rates); lastDay.initialize(repeating: .min)
            self.tally = tally
            self.filterTally = filterTally
            groupsOf = nil
        }

        /// A partial of its own tallies that adds to `other`'s groups: for a thread whose rows
        /// meet none of the groups another thread's meet (`periodSplit`). By tag, its later
        /// tags' groups too (those of a row are in its period as well).
        init(sharingGroupsOf other: DensePartial, tally: ConversionTally, filterTally: ConversionTally?) {
            (groups, slots, groupsOf) = (other.groups, other.slots, other)
            (sums, errors, counts, extremes, zeroedAsMet) = (other.sums, other.errors, other.counts, other.extremes, other.zeroedAsMet)
            (laterSums, laterErrors, laterCounts, laterExtremes) = (other.laterSums, other.laterErrors, other.laterCounts, other.laterExtremes)
            let rates = other.perRate.count
            perRate = .allocate(capacity: rates); perRate.initialize(repeating: 0)
            firstDay = .allocate(capacity: rates); firstDay.initialize(repeating: .max)
            lastDay = .allocate(capacity: rates); lastDay.initialize(repeating: .min)
            self.tally = tally
            self.filterTally = filterTally
        }

        /// `n` values of a plain integer type from `malloc`, the first `zeroing` of them zeros (all-zero
        /// bits are zero), the others as the memory held them; released with `free`.
        static func unwritten<T>(_ n: Int, zeroing: Int) -> UnsafeMutableBufferPointer<T> {
            guard n > 0 else { return UnsafeMutableBufferPointer(start: nil, count: 0) }
            guard let raw = malloc(n * MemoryLayout<T>.stride) else { fatalError("out of memory: \(n) accumulators") }
            #if DEBUG
            // What a reader of a place never written would find is never zeros by chance in a test.
            memset(raw, 0xA5, n * MemoryLayout<T>.stride)
            #endif
            memset(raw, 0, min(n, zeroing) * MemoryLayout<T>.stride)
            return UnsafeMutableBufferPointer(start: raw.bindMemory(to: T.self, capacity: n), count: n)
        }

        /// `n` zeros of a plain integer type (all-zero bits are zero), from `calloc`; released with `free`.
        static func zeroed<T>(_ n: Int) -> UnsafeMutableBufferPointer<T> {
            guard n > 0 else { return UnsafeMutableBufferPointer(start: nil, count: 0) }
            guard let raw = calloc(n, MemoryLayout<T>.stride) else { fatalError("out of memory: \(n) accumulators") }
            return UnsafeMutableBufferPointer(start: raw.bindMemory(to: T.self, capacity: n), count: n)
        }

        deinit {
            if groupsOf == nil {
                free(sums.baseAddress); free(errors.baseAddress); free(counts.baseAddress); free(extremes?.baseAddress)
                free(laterSums.baseAddress); free(laterErrors.baseAddress); free(laterCounts.baseAddress); free(laterExtremes?.baseAddress)
            }
            perRate.deallocate(); firstDay.deallocate(); lastDay.deallocate()
        }

        /// Group 0, the whole statement, made from the groups after a scan by keys: the scan adds
        /// each row to one group only (with tags, its tag heads'; its later tags' groups get it in
        /// `laterSums`, added to theirs with `addLater`), since one more addition for every row
        /// into one place cost more than adding up the groups once. Exact: the same integers,
        /// added in another order.
        func wholeFromGroups() {
            guard groups > 0 else { return }
            counts[0] = 0
            for k in 0..<min(slots, sums.count) { (sums[k], errors[k]) = (.zero, 0) }
            // Thousands of groups: each half added up by a thread of its own into a group 0 of
            // its own, and the two added here.
            guard groups >= Executor.halvesFrom, slots > 0, onlineProcessors > 1 else { return addUp(1...groups, of: self) }
            let halves = [(1...groups / 2), (groups / 2 + 1...groups)].map {
                (groups: $0, into: DensePartial(groups: 0, slots: slots, rates: 0, extremes: extremes != nil, tally: tally, filterTally: nil))
            }
            DispatchQueue.concurrentPerform(iterations: halves.count) { h in halves[h].into.addUp(halves[h].groups, of: self) }
            for half in halves { addUp(0...0, of: half.into) }
        }

        /// Adds some groups of `source` (laid out as this partial's) to this partial's group 0,
        /// in one pass over them in memory order (a pass per slot would read every group's cache
        /// lines once per slot). Only group 0 is written: `source` may be this partial.
        private func addUp(_ range: ClosedRange<Int>, of source: DensePartial) {
            let (sums, errors, counts, extremes) = (source.sums, source.errors, source.counts, source.extremes)
            // A group no row met holds zeros, or nothing written (`zeroedAsMet`).
            for g in range where counts[g] > 0 {
                self.counts[0] += counts[g]
                let base = g &* slots
                for k in 0..<slots {
                    if let extremes, let mine = self.extremes { mine[k].merge(extremes[base &+ k]) } else { addCell(k, sum: sums[base &+ k], error: errors[base &+ k]) }
                }
            }
            overflowed = overflowed || source.overflowed
            errorsOverflowed = errorsOverflowed || source.errorsOverflowed
        }

        /// Adds a sum and an error sum to one cell, noting an overflow of either.
        @inline(__always)
        func addCell(_ cell: Int, sum: Int256, error: Int128) {
            if sums[cell].add(sum) { overflowed = true }
            let (e, o) = errors[cell].addingReportingOverflow(error)
            errors[cell] = e
            if o { errorsOverflowed = true }
        }

        /// Later tags' groups: now their whole sums or extremes (after `wholeFromGroups`: group 0
        /// holds each row once).
        func addLater() {
            add(laterSums, laterErrors, laterCounts, to: sums, errors, counts)
            DensePartial.merge(laterExtremes, into: extremes)
        }

        /// Each extreme of `more` merged into the one in its place (either may be none).
        static func merge(_ more: UnsafeMutableBufferPointer<DenseExtreme>?, into extremes: UnsafeMutableBufferPointer<DenseExtreme>?) {
            guard let more, let extremes else { return }
            for i in 0..<min(more.count, extremes.count) { extremes[i].merge(more[i]) }
        }

        /// This partial, scanned by tag heads of width 2, with each head's groups added to the
        /// groups of its tags, laid out as the tag key lays them out: `others` groups of the other
        /// keys (the tag key's stride) for each of `tags` tag groups. Group 0 and the later tags'
        /// sums (or extremes) are taken as they are (they are laid out so already); with
        /// `firstOnly`, each head's groups go to its first tag's alone, so that each row is in
        /// one group (and no later tags' sums are taken).
        func expanded(_ heads: TagHeads, others: Int, tags: Int, firstOnly: Bool = false) -> DensePartial {
            let out = DensePartial(groups: others * tags, slots: slots, rates: perRate.count, extremes: extremes != nil, tally: tally, filterTally: filterTally)
            out.takeTallies(of: self)
            let (sums, errors, counts, extremes) = (self.sums, self.errors, self.counts, self.extremes)
            func move(_ from: Int, to: Int) {
                out.counts[to] &+= counts[from]
                for k in 0..<slots {
                    // A product met in both tags' groups is one product (min and max are met once).
                    if let extremes, let into = out.extremes { into[to &* slots &+ k].merge(extremes[from &* slots &+ k]) } else {
                        out.addCell(to &* slots &+ k, sum: sums[from &* slots &+ k], error: errors[from &* slots &+ k])
                    }
                }
            }
            move(0, to: 0)
            for g in 1..<(groups + 1) where counts[g] > 0 {
                let (other, head) = ((g - 1) % others, (g - 1) / others)
                move(g, to: 1 + other + Int(heads.groups[2 * head]) * others)
                let second = heads.groups[2 * head + 1]
                if !firstOnly && second >= 0 { move(g, to: 1 + other + Int(second) * others) }
            }
            if !firstOnly {
                out.add(laterSums, laterErrors, laterCounts, to: out.sums, out.errors, out.counts)
                DensePartial.merge(laterExtremes, into: out.extremes)
            }
            return out
        }

        /// Reads a word of each cache line of some groups' accumulators (side by side: a period's),
        /// those a scan writes, before the scan comes to them: the misses on memory not touched
        /// yet then come together, overlapped, not one at a time among the rows' work. Sums and
        /// error sums zeroed as met (`zeroedAsMet`) are zeroed here instead, by the thread that
        /// adds to them (written, with nothing to read from memory). Kept out of line: the scan's
        /// own code stays as it is.
        @inline(never)
        func touch(groups range: Range<Int>) -> UInt64 {
            let cells = (range.lowerBound &* slots)..<(range.upperBound &* slots)
            var x = Executor.readLines(counts, range)
            if zeroedAsMet {
                let at = max(0, cells.lowerBound), end = min(sums.count, cells.upperBound)
                if at < end, let s = sums.baseAddress, let e = errors.baseAddress {
                    memset(s + at, 0, (end - at) * MemoryLayout<Int256>.stride)
                    memset(e + at, 0, (end - at) * MemoryLayout<Int128>.stride)
                }
            } else if let extremes { x ^= Executor.readLines(extremes, cells) } else {
                x ^= Executor.readLines(sums, cells)
                x ^= Executor.readLines(errors, cells)
            }
            return x
        }

        /// A partial with this one's sums, error sums and counts (before `wholeFromGroups`: each
        /// row in its first tag's group only), and none of its tallies of rates.
        func firstGroupsCopy() -> DensePartial {
            let copy = DensePartial(groups: groups, slots: slots, rates: 0, extremes: false, tally: tally, filterTally: nil)
            _ = copy.sums.update(fromContentsOf: sums)
            _ = copy.errors.update(fromContentsOf: errors)
            _ = copy.counts.update(fromContentsOf: counts)
            return copy
        }

        /// Adds sums, error sums and counts to others laid out as they are (either may be none).
        private func add(_ moreSums: UnsafeMutableBufferPointer<Int256>, _ moreErrors: UnsafeMutableBufferPointer<Int128>, _ moreCounts: UnsafeMutableBufferPointer<Int>,
                         to sums: UnsafeMutableBufferPointer<Int256>, _ errors: UnsafeMutableBufferPointer<Int128>, _ counts: UnsafeMutableBufferPointer<Int>) {
            for i in 0..<min(sums.count, moreSums.count) { if sums[i].add(moreSums[i]) { overflowed = true } }
            for i in 0..<min(errors.count, moreErrors.count) {
                let (e, x) = errors[i].addingReportingOverflow(moreErrors[i])
                errors[i] = e
                if x { errorsOverflowed = true }
            }
            for i in 0..<min(counts.count, moreCounts.count) { counts[i] += moreCounts[i] }
        }

        /// Takes another partial's tallies of rates and their days, and its flags (not its groups).
        func takeTallies(of o: DensePartial) {
            for i in 0..<min(perRate.count, o.perRate.count) { (perRate[i], firstDay[i], lastDay[i]) = (o.perRate[i], o.firstDay[i], o.lastDay[i]) }
            (tally, filterTally, overflowed, errorsOverflowed, failure) = (o.tally, o.filterTally, o.overflowed, o.errorsOverflowed, o.failure)
        }

        func merge(_ o: DensePartial) {
            // A partial that added to these groups: only its tallies to take.
            if o.groupsOf !== self {
                add(o.sums, o.errors, o.counts, to: sums, errors, counts)
                add(o.laterSums, o.laterErrors, o.laterCounts, to: laterSums, laterErrors, laterCounts)
                DensePartial.merge(o.extremes, into: extremes)
                DensePartial.merge(o.laterExtremes, into: laterExtremes)
            }
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

    /// The extremes of one group and product scale (all its products are comparable directly):
    /// the smallest and largest product and the first row of each (the row's amount and rate
    /// are read again from the row when they are needed, once per group). All-zero bits are
    /// empty, as zeroed pages are.
    struct DenseExtreme {
        var min = Int256.zero, max = Int256.zero
        /// The row of `min` and of `max`, plus one; 0 before the first product.
        var minPlace = 0, maxPlace = 0

        var isEmpty: Bool { minPlace == 0 }
        var minRow: Int { minPlace - 1 }
        var maxRow: Int { maxPlace - 1 }

        @inline(__always)
        mutating func add(_ v: Int256, row: Int) {
            let place = row &+ 1
            if minPlace == 0 || v < min || (v == min && place < minPlace) { (min, minPlace) = (v, place) }
            if maxPlace == 0 || max < v || (v == max && place < maxPlace) { (max, maxPlace) = (v, place) }
        }

        mutating func merge(_ o: DenseExtreme) {
            guard !o.isEmpty else { return }
            add(o.min, row: o.minRow)
            add(o.max, row: o.maxRow)
        }
    }

    /// What one thread's dense scan tallies as it goes (`denseScan`).
    struct DenseScanState {
        var tally: ConversionTally
        var filterTally: ConversionTally?
        var overflowed = false
        /// Σ|amount| passed 128 bits: the general path must redo the statement.
        var errorsOverflowed = false
        /// What `touch` read (kept, so that the reads are not dropped).
        var touched: UInt64 = 0
    }

    /// How a dense scan finds a row's group: `DenseKey` taken apart.
    enum DenseKind { case none, codes, mapped, currency, period, tags, product, compact, codesAndTag, codesByPeriod, byPeriod, byPeriodAhead }

    /// Whether a row is an expense or an income by its own amount or, in a split view, by its
    /// entry's (`EntryStore.entrySign`): a type, so that the scan of a ledger without splits
    /// is compiled testing the amount alone.
    protocol SubjectSigns { static var ofEntries: Bool { get } }
    enum OwnSigns: SubjectSigns { static var ofEntries: Bool { false } }
    enum EntrySigns: SubjectSigns { static var ofEntries: Bool { true } }

    /// Whether a dense scan groups by tag: a type, so that the scan of the other keys is
    /// compiled with no tag code at all (its loop then keeps its registers for the sums).
    protocol TagGrouping { static var byTag: Bool { get } }
    enum NoTagKey: TagGrouping { static var byTag: Bool { false } }
    enum TagKey: TagGrouping { static var byTag: Bool { true } }

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
            positions((count * k / n)..<(count * (k + 1) / n))
        }

        /// The rows at some positions.
        func positions(_ p: Range<Int>) -> DenseRows {
            switch self {
            case .range(let r): return .range((r.lowerBound + p.lowerBound)..<(r.lowerBound + p.upperBound))
            case .list(let l): return .list(Array(l[p]))
            }
        }

        /// The row at a position.
        func row(_ position: Int) -> Int {
            switch self {
            case .range(let r): return r.lowerBound + position
            case .list(let l): return l[position]
            }
        }
    }

    /// A grouping of thousands of groups takes megabytes of accumulators for each statement:
    /// freed, they stay with the process (up to 512 MB) instead of going back to the system, so
    /// that the next statement does not fault in fresh zeroed pages for them. Blocks of any size
    /// come from the heap: glibc would map a block past its threshold (32 MB at most) apart,
    /// afresh every time, and a grouping of 275,000 groups has several (a min's extremes, the
    /// groups' values).
    static let keepFreedMemory: Void = {
        #if canImport(Glibc)
        // glibc's M_TRIM_THRESHOLD (-1) and M_MMAP_MAX (-4); malloc.h is not in Swift's Glibc module.
        _ = glibcMallopt(-1, 512 << 20)
        _ = glibcMallopt(-4, 0)
        #endif
    }()

    /// Reads a word of each cache line that the values at `positions` (clamped to the buffer) lie on.
    static func readLines<T>(_ buffer: UnsafeMutableBufferPointer<T>, _ positions: Range<Int>) -> UInt64 {
        let lo = Swift.max(0, positions.lowerBound), hi = Swift.min(buffer.count, positions.upperBound)
        guard lo < hi, let base = buffer.baseAddress else { return 0 }
        let start = UnsafeRawPointer(base + lo), bytes = (hi - lo) * MemoryLayout<T>.stride
        var x: UInt64 = 0
        var at = 0
        while at + 8 <= bytes {
            x ^= start.loadUnaligned(fromByteOffset: at, as: UInt64.self)
            at += 64
        }
        return x
    }

    /// Scans too small for a second thread to pay for itself stay on one.
    public static let parallelRows = 200_000

    /// The slots of a dense scan over `groups` groups. Few groups keep one slot per scale: their
    /// accumulators stay in the cache anyway, and their error bounds are each factor's own; past
    /// `shareAbove` accumulators, rates of different scales share slots.
    /// With `cached`, each layout is worked out once for a build of a rate column, and kept with
    /// it (`RateColumn.derived`: the layout is a table by rate id), when the statement has no
    /// what-if rates of its own.
    static func sumSlots(_ converter: RowConverter?, store: EntryStore, groups: Int, shareAbove: Int, cached: Bool = false) -> SumSlots {
        func slots(sharing: Bool) -> SumSlots {
            guard cached, let c = converter, c.whatIfUse.isEmpty else { return SumSlots(converter: converter, store: store, sharing: sharing) }
            return c.column.derived("sum slots, sharing \(sharing)") {
                SumSlots(converter: c, store: store, sharing: sharing)
            }
        }
        let plain = slots(sharing: false)
        return (groups + 1) * plain.scales.count <= shareAbove ? plain : slots(sharing: true)
    }

    /// Most accumulators a scan by tag lays out by the rows' first two tags (`tagHeadsKey`).
    static let tagPairCells = 1 << 16

    /// What a scan by tag lays its groups out by: the rows' `TagHeads` of `width`, in the tag
    /// key's place; the groups of the other keys (the tag's stride: it has the largest) and the
    /// tag key's groups. Nil without a tag key, or when the store has no such heads.
    func tagHeadsKey(_ key: DenseKey, width: Int) -> (key: DenseKey, heads: TagHeads, others: Int, tags: Int)? {
        let others: Int, tags: Int
        switch key {
        case .tags(let heads): (others, tags) = (1, heads.count)
        case .product(let parts, let strides, let count, let tagAt?): (others, tags) = (strides[tagAt], parts[tagAt].count)
            guard others * tags == count else { return nil }
        default: return nil
        }
        guard let heads = TagHeads.of(store, width: width, kept: columns) else { return nil }
        switch key {
        case .product(var parts, let strides, _, let tagAt?):
            parts[tagAt] = .tags(heads)
            return (.product(parts, strides: strides, count: others * heads.count, tagAt: tagAt), heads, others, tags)
        default:
            return (.tags(heads), heads, others, tags)
        }
    }

    /// Most accumulators a product scanned by key combinations lays out (`comboKey`).
    static let comboCells = 1 << 17

    /// A product of a period and two or more other keys (no tag), with more cells than a scan
    /// lays out whole (`compactAbove`): the other keys' combinations that occur (`KeyCombos`),
    /// as one code key, and the period, where those are few enough to lay out (`comboCells`); with the
    /// combinations and the period's stride in `key`.
    func comboKey(_ key: DenseKey, keys: [GroupKey], cellsPerGroup: Int) -> (key: DenseKey, combos: KeyCombos, periodStride: Int)? {
        guard case .product(let parts, let strides, let n, nil) = key, parts.count >= 3, n * cellsPerGroup > compactAbove,
              let p = parts.firstIndex(where: \.isPeriod), strides[p] == strides.max() else { return nil }
        let others = parts.indices.filter { $0 != p }
        let periods = max(1, parts[p].count)
        guard let combos = KeyCombos.of(others.map { keys[$0] }, others.map { parts[$0] }, others.map { strides[$0] }, cells: strides[p], store: store, kept: columns),
              combos.count > 0, (combos.count * periods + 1) * cellsPerGroup <= Executor.comboCells else { return nil }
        return (.product([.codes(combos.code, count: combos.count), parts[p]], strides: [1, combos.count], count: combos.count * periods, tagAt: nil), combos, strides[p])
    }

    /// Where two threads scanning a period at a time split `rows`: at the start of the period
    /// nearest the middle, so that the threads' rows share no period (no group). Nil when that
    /// leaves either thread with less than a third of the rows (one period, a few long ones).
    func periodSplit(_ rows: DenseRows, _ stretches: PeriodStretches) -> Int? {
        periodSplit(rows, periodOfDay: stretches.table, base: stretches.base)
    }

    /// `periodSplit` by a table of each day's period (from `base`), as a period key has one.
    func periodSplit(_ rows: DenseRows, periodOfDay table: [Int32], base: Int32) -> Int? {
        let n = rows.count, days = store.day
        guard n >= 2 else { return nil }
        func period(_ position: Int) -> Int32 { table[Int(days[rows.row(position)] &- base)] }
        /// The first position of a period at or after `p` (periods ascend with the rows).
        func start(_ p: Int32) -> Int {
            var (a, b) = (0, n)
            while a < b {
                let m = (a + b) / 2
                if period(m) < p { a = m + 1 } else { b = m }
            }
            return a
        }
        let middle = period(n / 2)
        let (before, after) = (start(middle), start(middle + 1))
        let split = n / 2 - before <= after - n / 2 ? before : after
        return split >= n / 3 && n - split >= n / 3 ? split : nil
    }

    /// The dense scan, or nil when the statement does not have its shape (or an error sum
    /// outgrew 128 bits): the general path then answers.
    func denseAggregate(_ plan: Plan, keys: [GroupKey], converter: RowConverter?) throws(QueryError) -> Scan? {
        guard plan.aggregate != .list, let key = denseKey(keys, rows: plan.rows) else { return nil }
        _ = Executor.keepFreedMemory
        let keepsExtremes = plan.aggregate == .min || plan.aggregate == .max
        let counting = plan.aggregate == .count
        func slotsFor(_ groups: Int) -> SumSlots {
            Executor.sumSlots(converter, store: store, groups: counting ? 0 : groups, shareAbove: shareSlotsAbove, cached: true)
        }
        // By tag: laid out by the rows' first two tags where those groups fit (`TagHeads`).
        var wide = tagHeadsKey(key, width: 2)
        let wideSlots = wide.map { slotsFor($0.key.count) }
        if let w = wide, let s = wideSlots, (w.key.count + 1) * (counting ? 1 : max(1, s.scales.count)) > Executor.tagPairCells { wide = nil }
        // By tag and other keys, more cells than a scan lays out: the groups the rows meet by
        // each of their tags numbered first (`CompactGroups(tagged:)`), the rows read by their
        // first tags. (Laid out by their first two tags, they fit: `tagPairCells`.)
        var tagsCompacted = false
        if case .product(_, _, let n, _?) = key, wide == nil || tagLayoutCells < Executor.tagPairCells,
           n * (counting ? 1 : max(1, slotsFor(n).scales.count)) > tagLayoutCells {
            (tagsCompacted, wide) = (true, nil)
        }
        let slots = (wide != nil ? wideSlots : nil) ?? slotsFor(key.count)
        let cellsPerGroup = counting ? 1 : max(1, slots.scales.count)
        let rows = planRows(plan)
        let threads = rows.count >= parallelRows && onlineProcessors > 1 ? 2 : 1
        // A count of every row (no subject test, no filter): the pass that numbers the groups counts them.
        let everyRowCounts = counting && plan.subject == .entries && plan.filter == nil
        // A product with a period is scanned a period at a time (`PeriodStretches`), worked out
        // once here for the threads. Too many groups to lay out: with a period, a period's groups
        // are laid out at a time (`PeriodBlocks`); else those that occur are numbered first.
        // Too many with several other keys: their combinations that occur, as one key (`KeyCombos`;
        // not for a min or a max, whose extremes are kept a period at a time in less memory).
        let combo = everyRowCounts || keepsExtremes ? nil : comboKey(key, keys: keys, cellsPerGroup: cellsPerGroup)
        let layoutKey = combo?.key ?? key
        let (compact, stretches, blocks): (CompactGroups?, PeriodStretches?, [PeriodBlocks]?)
        /// With two threads over a period at a time, where they split the rows (`periodSplit`).
        var periodCut: Int?
        if case .product(let parts, let strides, let n, nil) = layoutKey {
            let big = n * cellsPerGroup > compactAbove
            let byPeriod = everyRowCounts ? nil : PeriodStretches(parts, strides, currency: store.currency)
            compact = byPeriod == nil && (big || everyRowCounts) ? CompactGroups(parts, strides, count: n, rows: rows, store: store, threads: threads) : nil
            periodCut = threads == 2 ? byPeriod.flatMap { periodSplit(rows, $0) } : nil
            // A period and one other key: laid out whole up to `periodLayoutCells`, where its groups
            // are no more than the rows (a small ledger's `party, day` keeps the few it meets, in
            // blocks), in one layout that the threads share (split where a period starts), never
            // one each.
            let whole = byPeriod?.inner != nil && n * cellsPerGroup <= periodLayoutCells && n <= rows.count && (threads == 1 || periodCut != nil)
            (stretches, blocks) = (byPeriod, byPeriod != nil && big && !whole ? (0..<threads).map { _ in PeriodBlocks(most: min(n, rows.count / threads + 1)) } : nil)
        } else if tagsCompacted, let first = tagHeadsKey(key, width: 1), case .product(let parts, let strides, let n, let tagAt?) = first.key {
            compact = CompactGroups(tagged: parts, strides, count: n, tagAt: tagAt, heads: first.heads, later: laterPositions(rows, first.heads),
                                    rows: rows, store: store, threads: threads)
            (stretches, blocks) = (nil, nil)
            // With a period: two threads split the rows where a period starts and add into one
            // layout, each row's groups (its tags') being in its period (nothing to merge).
            if threads == 2, let p = parts.firstIndex(where: \.isPeriod), case .period(let table, let base, _) = parts[p] {
                periodCut = periodSplit(rows, periodOfDay: table, base: base)
            }
        } else {
            (compact, stretches, blocks) = (nil, nil, nil)
        }
        // Every row counted ahead, each in one group (not by tag: a row is in each of its tags' groups).
        let countedAhead = everyRowCounts && compact != nil && !tagsCompacted
        // Else the rows' first tags (laid out as the tag key's groups).
        guard let scanKey = key.groupsByTag ? wide?.key ?? tagHeadsKey(key, width: 1)?.key : layoutKey else { return nil }
        let groupCount = blocks != nil ? stretches?.periodStride ?? 0 : compact?.products.count ?? scanKey.count
        // The product of several keys must fit its buffers (a period and one other key laid out whole, `periodLayoutCells`).
        let most = stretches?.inner != nil && blocks == nil ? max(periodLayoutCells, Executor.productCells) : Executor.productCells
        if case .product = key, groupCount * cellsPerGroup > most { return nil }
        let amounts = plan.filter?.testsAmount == true ? (converter ?? self.converter(plan)) : nil
        // Two threads over a period at a time, all groups laid out: the rows split where a period
        // starts, so that each thread adds to groups of its own periods, in one layout (none to merge).
        let split = blocks == nil ? periodCut : nil
        // A period at a time, in one layout (one thread, or two that split the rows where a period
        // starts): each period's sums zeroed by the thread that meets it, as it does.
        let zeroedAsMet = stretches != nil && blocks == nil && (threads == 1 || split != nil)
        var partials: [DensePartial] = []
        for _ in 0..<threads {
            let tally = converter.map(ConversionTally.init) ?? .none, filterTally = amounts.map(ConversionTally.init)
            if split != nil, let first = partials.first {
                partials.append(DensePartial(sharingGroupsOf: first, tally: tally, filterTally: filterTally))
            } else {
                partials.append(DensePartial(groups: groupCount, slots: counting ? 0 : slots.scales.count, rates: converter?.rates.count ?? 0, extremes: keepsExtremes,
                                             byTag: key.groupsByTag, laterGroups: tagsCompacted ? groupCount : key.count, zeroedAsMet: zeroedAsMet, tally: tally, filterTally: filterTally))
            }
        }
        let work: @Sendable (Int) -> Void = { [partials] k in
            let p = partials[k]
            do throws(QueryError) {
                let part = split.map { k == 0 ? rows.positions(0..<$0) : rows.positions($0..<rows.count) } ?? rows.part(k, of: threads)
                // Where the thread's rows start among those numbered.
                let groups = compact.map { ($0.ofRow, $0.number, split.map { at in k == 0 ? 0 : at } ?? rows.count * k / threads) }
                // One compiled scan for each kind of signs and of tag key.
                func scan<Signs: SubjectSigns>(_ signs: Signs.Type) throws(QueryError) {
                    if key.groupsByTag {
                        try self.denseScan(plan, key: scanKey, rows: part, converter: converter, amounts: amounts, slots: slots, signs: signs, tags: TagKey.self, groups: groups, into: p)
                    } else {
                        try self.denseScan(plan, key: scanKey, rows: part, converter: converter, amounts: amounts, slots: slots, signs: signs, tags: NoTagKey.self,
                                           groups: groups, stretches: stretches, blocks: blocks?[k], into: p)
                    }
                }
                if self.store.entrySign.isEmpty { try scan(OwnSigns.self) } else { try scan(EntrySigns.self) }
            } catch {
                p.failure = error
            }
        }
        if countedAhead, let compact {
            // Every row counts, each in one group: the counts are those the groups were numbered with.
            let counts = partials[0].counts
            for (g, n) in compact.rowCounts.enumerated() { counts[g] = n }
        } else if threads == 1 {
            work(0)
        } else {
            DispatchQueue.concurrentPerform(iterations: threads, execute: work)
        }
        var total = partials[0]
        for p in partials.dropFirst() { total.merge(p) }
        var products = compact?.products ?? []
        if let blocks { (total, products) = PeriodBlocks.merged(blocks, tallies: total, slots: total.slots, extremes: keepsExtremes) }
        // `in native` by tag, a sum or an average: the groups with each row in one group only
        // (its first tag's), for each currency's total (`Scan.eachRowOnce`; a count's total is
        // group 0's, a min's or max's the groups' own).
        let eachOnce = plan.target == nil && key.groupsByTag && (plan.aggregate == .sum || plan.aggregate == .avg)
        let once = !eachOnce ? nil : wide.map { total.expanded($0.heads, others: $0.others, tags: $0.tags, firstOnly: true) } ?? total.firstGroupsCopy()
        // Group 0 from the groups (counted ahead, it is counted already).
        if !countedAhead { total.wholeFromGroups() }
        // Each pair's groups added to its tags' (the later tags' sums with them), or the later tags' alone.
        if let wide { total = total.expanded(wide.heads, others: wide.others, tags: wide.tags) } else { total.addLater() }
        if let failure = total.failure { throw failure }
        if let amounts, let t = total.filterTally { _ = try outcome(amounts, t) }
        let filterTally = amounts != nil ? total.filterTally : nil
        if total.errorsOverflowed { return nil }
        // A sum of scaled factors passed 256 bits: the general path sums them unscaled.
        if total.overflowed && slots.scaled { return nil }

        // Back into the general path's shape: groups numbered in the order of their codes.
        var tally = total.tally
        tally.add(perRate: total.perRate, firstDay: total.firstDay, lastDay: total.lastDay)
        var groups = Grouper(keys: keys, ledger: ledger)
        var acc = Accumulators(slots: slots, extremes: keepsExtremes)
        if total.overflowed { acc.markOverflow() }
        let s = total.slots
        // Group 0 and every group met, numbered as `Grouper` numbers them: in the order met here
        // (compacted groups are numbered in the order of their product groups, as the others come).
        var denseOf = [0]
        denseOf.reserveCapacity(total.groups + 1)
        // Each key's code of each of its values, side by side, read once: matching the key for
        // every group would bind (and retain) its tables every time.
        let parts: [DenseKey], strides: [Int]
        switch key {
        case .none: (parts, strides) = ([], [])
        case .product(let p, let s, _, _): (parts, strides) = (p, s)
        default: (parts, strides) = ([key], [1])
        }
        let sizes = parts.map { max(1, $0.count) }
        var codeAt = [0], codes: [UInt32] = []
        for part in parts {
            codes += (0..<part.count).map { part.code($0) }
            codeAt.append(codes.count)
        }
        let counts = total.counts
        // Key combinations (`comboKey`): a group's digits are its combination's and its period's,
        // and each combination's codes of the other keys are made once.
        let periodAt = combo == nil ? nil : parts.firstIndex(where: \.isPeriod)
        /// Key i's code in a product group (1 + Σ index × stride).
        func code(_ i: Int, inProduct product: Int) -> UInt32 { codes[codeAt[i] + (product - 1) / strides[i] % sizes[i]] }
        let comboCodes: [GroupCodes] = combo.map { c in
            c.combos.products.map { product in
                var k = GroupCodes.zero
                for i in parts.indices where i != periodAt { k[i] = code(i, inProduct: Int(product)) }
                return k
            }
        } ?? []
        let combos = comboCodes.count
        // Each key's index in the group's product group: worked out by division for a compacted
        // group (its product group is kept), else counted up with the groups (the product's digits,
        // the key of stride 1 turning fastest).
        let digitSizes = combo == nil ? sizes : [combos, periodAt.map { sizes[$0] } ?? 1]
        let byStride = combo == nil ? parts.indices.sorted { strides[$0] < strides[$1] } : [0, 1]
        var digit = [Int](repeating: 0, count: digitSizes.count)
        for dense in 1..<(total.groups + 1) {
            if counts[dense] > 0 {
                var k = GroupCodes.zero
                if let periodAt, combos > 0 {
                    // Kept a period at a time (`PeriodBlocks`), a group's product group in the scan's layout.
                    let (c, period) = products.isEmpty ? (digit[0], digit[1]) : ((Int(products[dense - 1]) - 1) % combos, (Int(products[dense - 1]) - 1) / combos)
                    k = comboCodes[c]
                    k[periodAt] = codes[codeAt[periodAt] + period]
                } else if products.isEmpty {
                    for i in parts.indices { k[i] = codes[codeAt[i] + digit[i]] }
                } else {
                    for i in parts.indices { k[i] = code(i, inProduct: Int(products[dense - 1])) }
                }
                // Each key is new: its group is the next number.
                groups.appendNew(k)
                denseOf.append(dense)
            }
            for i in byStride {
                digit[i] += 1
                if digit[i] < digitSizes[i] { break }
                digit[i] = 0
            }
        }
        // The sums stay where the scan left them (no copy of groups × slots accumulators).
        acc.adopt(total, groups: denseOf)
        var eachRowOnce: Accumulators?
        if let once {
            eachRowOnce = Accumulators(slots: slots, extremes: false)
            eachRowOnce?.adopt(once, groups: denseOf)
        }
        // The extremes of each scale compete across scales here: each scale's min, then its max,
        // in the order of the scales (equal values keep the first). Only the two winners of a
        // group have their rows read again, for the amount as the statement shows it and the
        // rate used: each a random place in the store, read in a loop of their own so that the
        // reads overlap.
        if let extremes = total.extremes {
            var winners: [(group: Int, pick: RowPick)] = []
            winners.reserveCapacity(2 * denseOf.count)
            for (g, dense) in denseOf.enumerated() {
                var low: RowPick?, high: RowPick?
                func consider(_ row: Int, _ value: Int256, scale: Int) {
                    let p = RowPick(row: row, amount: 0, id: 0, value: value, scale: scale)
                    if low.map({ p < $0 }) ?? true { low = p }
                    if high.map({ $0 < p }) ?? true { high = p }
                }
                for k in 0..<s where !extremes[dense * s + k].isEmpty {
                    let e = extremes[dense * s + k]
                    consider(e.minRow, e.min, scale: slots.scales[k])
                    consider(e.maxRow, e.max, scale: slots.scales[k])
                }
                if let low { winners.append((g, low)) }
                if let high { winners.append((g, high)) }
            }
            let (amounts, flip) = (store.amount, plan.subject == .expenses)
            for w in winners.indices {
                let row = winners[w].pick.row
                (winners[w].pick.amount, winners[w].pick.id) = (flip ? -amounts[row] : amounts[row], converter?.id(row) ?? RateColumn.same)
            }
            for (g, p) in winners { acc.pick(g, p) }
        }
        return Scan(groups: groups, acc: acc, tally: tally, filterTally: filterTally, eachRowOnce: eachRowOnce)
    }

    /// A filter of masks over code columns and day ranges, all of which must hold: the usual
    /// `where` (`party ~ "uber"`, `category in (…) and date >= …`), tested without walking
    /// the predicate tree for every row. Nil for anything else (amounts, tags, `or`).
    struct MaskFilter: Sendable {
        var codes: [(column: StoreColumn<UInt32>, mask: [Bool])] = []
        var currencyMasks: [[Bool]] = []
        var days: [DayRange] = []

        init?(_ p: Predicate, store: EntryStore) {
            guard add(p, store: store, negated: false) else { return nil }
        }

        /// Masks over code columns alone.
        init(codes: [(column: StoreColumn<UInt32>, mask: [Bool])]) {
            self.codes = codes
        }

        private mutating func add(_ p: Predicate, store: EntryStore, negated: Bool) -> Bool {
            switch p {
            case .and(let parts) where !negated:
                return parts.allSatisfy { add($0, store: store, negated: false) }
            case .not(let q):
                if case .code = q { return add(q, store: store, negated: !negated) }
                return false
            case .days(let r) where !negated:
                days.append(r)
                return true
            case .code(let column, let mask):
                let m = negated ? mask.map { !$0 } : mask
                if let codes = store.codes(column) { self.codes.append((codes, m)) } else { currencyMasks.append(m) }
                return true
            default:
                return false
            }
        }

        @inline(__always)
        func passes(_ row: Int, currency: StoreColumn<Currency>, day: StoreColumn<Int32>) -> Bool {
            for (column, mask) in codes {
                let c = Int(column[row])
                if c >= mask.count || !mask[c] { return false }
            }
            for mask in currencyMasks {
                let c = Int(currency[row].packed)
                if c >= mask.count || !mask[c] { return false }
            }
            for r in days where day[row] < r.first.number || day[row] > r.last.number { return false }
            return true
        }
    }

    /// The rows among `rows` with later tags (`TagHeads`), in order: each one's position among
    /// `rows` and its place among the heads' rows with later tags. Of a range, found by bisection
    /// among those; of a list, by going through both in step (both ascend).
    func laterPositions(_ rows: DenseRows, _ heads: TagHeads) -> [(position: Int, index: Int)] {
        let later = heads.laterRows
        /// The first of the rows with later tags at or after `row`.
        func start(_ row: Int) -> Int {
            var (a, b) = (0, later.count)
            while a < b {
                let m = (a + b) / 2
                if Int(later[m]) < row { a = m + 1 } else { b = m }
            }
            return a
        }
        switch rows {
        case .range(let r):
            return (start(r.lowerBound)..<start(r.upperBound)).map { (Int(later[$0]) - r.lowerBound, $0) }
        case .list(let l):
            var out: [(position: Int, index: Int)] = []
            var i = l.first.map(start) ?? 0
            for (k, row) in l.enumerated() {
                while i < later.count && Int(later[i]) < row { i += 1 }
                guard i < later.count else { break }
                if Int(later[i]) == row { out.append((k, i)) }
            }
            return out
        }
    }

    /// One thread's scan of its rows into `p`.
    /// `groups`: each row's product group worked out ahead (`CompactGroups`) for all the rows
    /// scanned, the group each product group is numbered, and where this part of the rows starts.
    /// `stretches`: a product with a period, scanned a period at a time (`PeriodStretches`);
    /// `blocks`: with it, `p` holds one period's groups, kept there as each period ends (`PeriodBlocks`).
    func denseScan<Signs: SubjectSigns, Tags: TagGrouping>(_ plan: Plan, key: DenseKey, rows: DenseRows, converter: RowConverter?, amounts: RowConverter?,
                   slots: SumSlots, signs: Signs.Type, tags: Tags.Type, groups: ([Int32], number: [Int32], from: Int)? = nil,
                   stretches byPeriod: PeriodStretches? = nil, blocks: PeriodBlocks? = nil, into p: DensePartial) throws(QueryError) {
        let storeAmounts = store.amount
        let days = store.day
        let subject = plan.subject
        let flip = subject == .expenses
        let filter = plan.filter
        let masks = filter.flatMap { MaskFilter($0, store: store) }
        let rowFilter = masks == nil ? filter.map { RowFilter($0, store: store, amounts: amounts) } : nil
        let counting = plan.aggregate == .count
        let s = slots.scales.count
        let sameSlot = slots.same
        let ofRate = slots.ofRate
        let inexact = slots.inexact
        // What the converter knows, taken apart: binding the converter itself inside the loop
        // would copy it for every row.
        let rare = converter
        let converting = rare != nil
        let columnIDs = converter?.column.ids ?? []
        let whatIfID = converter?.whatIfID ?? []
        let factors = slots.factor, exactShift = slots.exactShift
        let isLate = converter?.rates.map(\.isLate) ?? []
        let isTransfer = store.isTransfer
        let entrySign = store.entrySign
        let rowCurrency = store.currency
        // What the rows tally as they go, behind a pointer: the nested functions below change it
        // for nearly every row, and a variable they capture would be checked for exclusive
        // access (a runtime call) every time.
        let state = UnsafeMutablePointer<DenseScanState>.allocate(capacity: 1)
        state.initialize(to: DenseScanState(tally: p.tally, filterTally: p.filterTally))
        defer { state.deinitialize(count: 1); state.deallocate() }
        let (sums, errors, counts, perRate, firstDay, lastDay) = (p.sums, p.errors, p.counts, p.perRate, p.firstDay, p.lastDay)

        let (extremes, laterExtremes) = (p.extremes, p.laterExtremes)
        let (laterSums, laterErrors, laterCounts) = (p.laterSums, p.laterErrors, p.laterCounts)

        /// The stride of the tag key among the groups (0: no tag key), and the tag heads it reads.
        let tagStride: Int, heads: TagHeads?
        switch key {
        case .tags(let h): (tagStride, heads) = (1, h)
        case .product(let parts, let strides, _, let tagAt?):
            tagStride = strides[tagAt]
            if case .tags(let h) = parts[tagAt] { heads = h } else { heads = nil }
        default: (tagStride, heads) = (0, nil)
        }
        precondition(Tags.byTag == (tagStride > 0) && Tags.byTag == (heads != nil), "a dense scan compiled for the wrong key")
        let (headCode, laterStart, laterGroups) = (heads?.code ?? [], heads?.laterStart ?? [0], heads?.laterGroups ?? [])
        precondition(headCode.count >= store.count || !Tags.byTag, "a tag head for every row")
        // The key taken apart once: matching the enum for every row would bind (and retain) its
        // tables every time. Several keys: each row's group is worked out ahead, one tight pass
        // per key. Taken apart into constants: a variable the nested functions below read would
        // be checked for exclusive access at every row.
        let (kind, column, table, base, productGroup, number, productFrom, codeStride, stretches) = { () -> (DenseKind, StoreColumn<UInt32>, [Int32], Int32, [Int32], [Int32], Int, Int, PeriodStretches?) in
            var kind = DenseKind.none
            var column: StoreColumn<UInt32> = [], table: [Int32] = [], base: Int32 = 0
            var productGroup: [Int32] = [], number: [Int32] = []
            var productFrom = 0
            var codeStride = 0
            var stretches: PeriodStretches?
            switch key {
            case .none: kind = .none
            case .codes(let c, _): (kind, column) = (.codes, c)
            case .mapped(let c, let t, _): (kind, column, table) = (.mapped, c, t)
            case .currency(let t, _): (kind, table) = (.currency, t)
            case .period(let t, let b, _): (kind, table, base) = (.period, t, b)
            case .tags: kind = .tags
            case .product(let parts, let strides, _, let tagAt?) where groups == nil && parts.count == 2:
                // A code column and the tag key (`book, tag`): the group from the row itself, as the
                // tag columns are read for the row's other tags anyway (no pass ahead).
                if case .codes(let c, _) = parts[1 - tagAt] {
                    (kind, column, codeStride) = (.codesAndTag, c, strides[1 - tagAt])
                } else {
                    (kind, productGroup) = (.product, Executor.productGroups(parts, strides, rows: rows, store: store))
                }
            case .product(_, _, _, nil) where groups == nil && byPeriod != nil:
                stretches = byPeriod
                if let inner = stretches?.inner {
                    // One other key: a code column read straight, another kind through `InnerIndex`.
                    if inner.isCodes { (kind, column, codeStride) = (.codesByPeriod, inner.column, inner.stride) } else { kind = .byPeriod }
                } else if let others = stretches?.others {
                    // Several other keys: each row's index among its period's groups worked out ahead,
                    // every key's part a block of rows at a time.
                    (kind, productGroup) = (.byPeriodAhead, Executor.productGroups(others.map(\.0), others.map(\.1), rows: rows, store: store))
                }
            case .product(let parts, let strides, _, _):
                if let groups {
                    (kind, productGroup, number, productFrom) = (.compact, groups.0, groups.number, groups.from)
                } else {
                    (kind, productGroup) = (.product, Executor.productGroups(parts, strides, rows: rows, store: store))
                }
            }
            return (kind, column, table, base, productGroup, number, productFrom, codeStride, stretches)
        }()
        let firstRow: Int
        if case .range(let r) = rows { firstRow = r.lowerBound } else { firstRow = 0 }
        // A period's stretch: the index of a row's group among its period's (`PeriodStretches`).
        let inner = stretches?.inner

        /// The row's group (its tag heads', for a row with several tags; `addLaterTags` adds it
        /// to the rest); `position` is the row's place among the rows scanned, `first` its tag heads'
        /// code (0 without tags, or without a tag key), `stretch` where the groups of its period
        /// start (`PeriodStretches`).
        @inline(__always)
        func group(_ row: Int, _ position: Int, first: Int, stretch: Int) -> Int {
            switch kind {
            case .codesByPeriod: return stretch &+ Int(column[row]) &* codeStride
            case .byPeriod: return stretch &+ inner.unsafelyUnwrapped(row)
            case .byPeriodAhead: return stretch &+ Int(productGroup[position]) &- 1
            case .none: return 0
            case .codes: return Int(column[row]) + 1
            case .mapped: return Int(table[Int(column[row])]) + 1
            case .currency: return Int(table[Int(rowCurrency[row].packed)]) + 1
            case .period: return Int(table[Int(days[row] - base)]) + 1
            case .tags: return 1 &+ first
            case .product: return Int(productGroup[productFrom &+ position])
            case .compact: return Int(number[Int(productGroup[productFrom &+ position])])
            case .codesAndTag:
                return 1 &+ Int(column[row]) &* codeStride &+ first &* tagStride
            }
        }
        /// Adds a product (and, to an inexact slot, |value| to its error sum: `SumSlots.errorShift`)
        /// to a cell of `sums` (or of another layout as theirs).
        @inline(__always)
        func addSum(_ cell: Int, _ slot: Int, _ product: Int256, _ value: Int128,
                    into sums: UnsafeMutableBufferPointer<Int256> = sums, errors: UnsafeMutableBufferPointer<Int128> = errors) {
            if sums[cell].add(product) { state.pointee.overflowed = true }
            if inexact[slot] {
                let m = value < 0 ? -value : value
                let (e, x) = errors[cell].addingReportingOverflow(m)
                errors[cell] = e
                if x { state.pointee.errorsOverflowed = true }
            }
        }
        @inline(__always)
        func add(_ g: Int, _ slot: Int, _ product: Int256, _ value: Int128, _ row: Int) {
            let cell = g &* s &+ slot
            // Min and max keep no sums.
            if let extremes { extremes[cell].add(product, row: row) } else { addSum(cell, slot, product, value) }
        }
        /// The product group of a row in group `g` at `position`: its group, unless compacted.
        @inline(__always)
        func productOf(_ g: Int, _ position: Int) -> Int { kind == .compact ? Int(productGroup[productFrom &+ position]) : g }
        /// Adds a row to the groups of its tags after its heads (its place `index` among the
        /// heads' rows with later tags), apart from the groups (`laterSums`): a later tag's group
        /// t (its code + 1, as `laterGroups` holds it) is group `base + t × stride` of the tag
        /// key's layout, where the tag key has the largest stride, so that `base` is the same in
        /// both layouts. Compacted, `g` is the row's product group (`productOf`), and a later tag's
        /// group the number of `base + t × stride` (every one a row meets has one: `CompactGroups(tagged:)`).
        @inline(__always)
        func addLaterTags(_ row: Int, _ index: Int, group g: Int, first: Int, slot: Int, product: Int256, value: Int128) {
            let base = g &- first &* tagStride
            for t in Int(laterStart[index])..<Int(laterStart[index &+ 1]) {
                let cell = base &+ Int(laterGroups[t]) &* tagStride
                let h = kind == .compact ? Int(number[cell]) : cell
                laterCounts[h] &+= 1
                if counting { continue }
                if let laterExtremes { laterExtremes[h &* s &+ slot].add(product, row: row) } else { addSum(h &* s &+ slot, slot, product, value, into: laterSums, errors: laterErrors) }
            }
        }
        /// Adds a row to its group. With `laterPlace` (its place among the heads' rows with later
        /// tags): the row again, for those alone (`addLaterTags`): counted and tallied already,
        /// it is only converted again.
        @inline(__always)
        func visit(_ row: Int, _ position: Int, stretch: Int, laterPlace: Int = -1) {
            let laterPass = laterPlace >= 0
            let a = storeAmounts[row]
            switch subject {
            // A part of a split entry is an expense or an income by its entry's sign (a split view's `entrySign`).
            case .expenses: guard (Signs.ofEntries ? entrySign[row] < 0 : a < 0) && !isTransfer[row] else { return }
            case .income: guard (Signs.ofEntries ? entrySign[row] > 0 : a > 0) && !isTransfer[row] else { return }
            case .transfers: guard isTransfer[row] else { return }
            case .entries: break
            }
            // Through `?.`: `if let` would copy the filter (and count its references) for every row.
            if masks?.passes(row, currency: rowCurrency, day: days) == false { return }
            if laterPass {
                var tallied: ConversionTally? = nil
                if rowFilter?.passes(row, flip: flip, tally: &tallied) == false { return }
            } else if rowFilter?.passes(row, flip: flip, tally: &state.pointee.filterTally) == false {
                return
            }
            // The row's one group (0 without keys); group 0 is made from the groups afterwards.
            let first = Tags.byTag ? Int(headCode[row]) : 0
            let g = group(row, position, first: first, stretch: stretch)
            if !laterPass { counts[g] &+= 1 }
            if counting {
                if laterPass { addLaterTags(row, laterPlace, group: productOf(g, position), first: first, slot: 0, product: .zero, value: 0) }
                return
            }
            let value = flip ? -a : a
            let product: Int256
            let slot: Int
            var id = RateColumn.same
            if converting {
                id = columnIDs[row]
                if !whatIfID.isEmpty {
                    let w = whatIfID[Int(rowCurrency[row].packed)]
                    if w >= 0 { id = w }
                }
                if id >= 0 {
                    let i = Int(id)
                    if !laterPass { perRate[i] &+= 1 }
                    if isLate[i] && !laterPass {
                        let d = days[row]
                        if d < firstDay[i] { firstDay[i] = d }
                        if d > lastDay[i] { lastDay[i] = d }
                    }
                    product = Int256(value, times: factors[i])
                    slot = ofRate[i]
                } else if id == RateColumn.same {
                    if !laterPass { state.pointee.tally.same &+= 1 }
                    product = Int256(value)
                    slot = sameSlot
                } else {
                    if !laterPass { state.pointee.tally.count(id, day: days[row]) }
                    // No rate: the statement fails after the scan.
                    guard let (v, scale) = rare?.product(row, id: id, amount: value, negate: flip) else { return }
                    slot = slots.ofExactScale[scale]
                    // Shared slots: a booked value brought to its slot's scale (0 places without sharing).
                    let k = exactShift[scale]
                    if k == 0 {
                        product = v
                    } else if let scaled = v.timesPowerOfTen(k) {
                        product = scaled
                    } else {
                        // Past 256 bits only once scaled: the statement is redone unshared.
                        state.pointee.overflowed = true
                        return
                    }
                }
            } else {
                product = Int256(value)
                slot = sameSlot
            }
            // A row's other tags are counted in its later pass (a row that fails to convert fails
            // the statement, uncounted), apart from the groups (`laterSums`).
            if laterPass { addLaterTags(row, laterPlace, group: productOf(g, position), first: first, slot: slot, product: product, value: value) } else { add(g, slot, product, value, row) }
        }

        // Ctrl-C is looked for every 64k rows. One call of `visit` for both kinds of rows: it is
        // then inlined (a row's position among the rows scanned is k either way).
        let stride = 1 << 16
        var list: [Int] = []
        if case .list(let l) = rows { list = l }
        let isList = !list.isEmpty, total = rows.count
        // By tag: the rows with later tags (`TagHeads.laterRows`), in order.
        let later = heads.map { laterPositions(rows, $0) } ?? []
        var nextLater = 0
        let laterBlock = 2048
        /// The period whose groups the block holds (`blocks`), -1 before the first.
        var blockPeriod = -1
        /// The last period whose accumulators were read ahead, or zeroed (`DensePartial.touch`).
        var touchedPeriod = -1
        // Groups worked out ahead, met in no order (no period to go by): their accumulators
        // read ahead whole, where the rows are more than the cache lines they take.
        if kind == .product || kind == .compact, (p.groups + 1) * Swift.max(1, s) * MemoryLayout<Int256>.stride / 64 <= total {
            state.pointee.touched ^= p.touch(groups: 0..<(p.groups + 1))
        }
        var lo = 0
        while lo < total {
            if isCancelled() { throw QueryError(.cancelled, at: nil) }
            let hi = min(total, lo + stride)
            if let stretches {
                // A stretch of rows in one period at a time: its end found by bisection (days ascend).
                var k = lo
                while k < hi {
                    let period = Int(stretches.table[Int(days[isList ? list[k] : firstRow &+ k] &- stretches.base)])
                    let last = stretches.lastDay[period]
                    var (a, b) = (k + 1, hi)
                    while a < b {
                        let m = (a + b) / 2
                        if days[isList ? list[m] : firstRow &+ m] <= last { a = m + 1 } else { b = m }
                    }
                    // Kept a period at a time: its groups are the block's (from 1); else in place.
                    if let blocks, blockPeriod != period {
                        if blockPeriod >= 0 { blocks.keep(p, period: blockPeriod, periodStride: stretches.periodStride) }
                        blockPeriod = period
                    }
                    let start = blocks != nil ? 1 : 1 &+ period &* stretches.periodStride
                    // A period's groups laid out in place, met for the first time: their
                    // accumulators read ahead, or zeroed (`touch`).
                    if blocks == nil && period > touchedPeriod {
                        touchedPeriod = period
                        state.pointee.touched ^= p.touch(groups: start..<(start &+ stretches.periodStride))
                    }
                    for j in k..<a { visit(isList ? list[j] : firstRow &+ j, j, stretch: start) }
                    k = a
                }
            } else if Tags.byTag {
                // The rows with later tags visited again for those, after each short block of rows
                // (their columns still in the cache): a branch on them in the loop over every row
                // would be mispredicted at each.
                var k = lo
                while k < hi {
                    let end = min(hi, k + laterBlock)
                    for j in k..<end { visit(isList ? list[j] : firstRow &+ j, j, stretch: 0) }
                    while nextLater < later.count, later[nextLater].position < end {
                        let (j, index) = later[nextLater]
                        visit(isList ? list[j] : firstRow &+ j, j, stretch: 0, laterPlace: index)
                        nextLater += 1
                    }
                    k = end
                }
            } else {
                for k in lo..<hi { visit(isList ? list[k] : firstRow &+ k, k, stretch: 0) }
            }
            lo = hi
        }
        if let blocks, let stretches, blockPeriod >= 0 { blocks.keep(p, period: blockPeriod, periodStride: stretches.periodStride) }
        p.tally = state.pointee.tally
        p.filterTally = state.pointee.filterTally
        p.overflowed = state.pointee.overflowed
        p.errorsOverflowed = state.pointee.errorsOverflowed
    }
}
