// A `where` made ready for the scans: the predicate tree laid out as nodes of plain values,
// the columns, masks and conversion it reads taken out of the store and the converter once.
//
// Walking the `Predicate` enum for every row bound its payloads (masks, lists of conditions)
// and read the store's and the converter's columns through their owners: each a reference
// counted, from both threads at once. At a million rows that made `where amount > 1000` or a
// `where … or …` some 20 times slower than the scan it filtered. Here a row is tested with
// no reference counted. Semantics are `Predicate`'s (Planner/PredicateLowering.swift): the
// conditions are tested in their order, and each `amount` condition a row reaches counts
// the rate it converts at.

import AbacusCore

/// A class: the scans hold one reference to it, where a struct of this many columns and
/// arrays was copied (every reference in it counted) at each row it tested.
final class RowFilter: @unchecked Sendable {
    private enum Node {
        case always(Bool)
        /// The row's code in `column` is set in mask `mask`.
        case code(CodeColumn, mask: Int)
        /// One of the row's tags (index tag + 1; 0: no tags) is set in mask `mask`.
        case tags(mask: Int)
        /// The amount as the statement shows it, compared with `values[x]`.
        case amount(ComparisonOperator, x: Int)
        /// The amount is one of `values[range]` (sorted, distinct).
        case amountIn(Range<Int>)
        case days(Int32, Int32)
        /// Children: `children[range]`.
        case and(Range<Int>)
        case or(Range<Int>)
        case not(Int)
    }

    // Every stored property is a `let`: a class's `var` is checked for exclusive access (a
    // runtime call) at every read.
    private let nodes: [Node]
    private let children: [Int]
    /// The masks, one after another: mask m is `maskBits[maskStart[m]..<maskStart[m + 1]]`.
    private let maskBits: [Bool]
    private let maskStart: [Int]
    private let values: [ExactDecimal]
    /// Each value's significand at each scale from its own up (nil past 256 bits): what a
    /// product at that scale is compared with. Made for the first `valuesMadeAtEveryScale`
    /// values only (79 a value): the others, of a very long `in (…)`, are compared exactly.
    private let valueAt: [[Int256?]]
    static let valuesMadeAtEveryScale = 1024
    private let root: Int

    // The columns the conditions read (empty unless one does: a store image checks some
    // columns when first read).
    private let category: StoreColumn<UInt32>, book: StoreColumn<UInt32>, party: StoreColumn<UInt32>
    private let payment: StoreColumn<UInt32>, remarks: StoreColumn<UInt32>
    private let tagStart: StoreColumn<UInt32>, tagCodes: StoreColumn<UInt32>
    private let currency: StoreColumn<Currency>
    private let day: StoreColumn<Int32>
    private let amount: StoreColumn<Int128>
    private let amountScale: Int

    // The conversion of an amount condition (none `in native`). Its rows are converted with
    // the arrays below; the converter itself (unwrapped, its reference counted) only for the
    // rare rows that need more (a booked value, an exact comparison).
    private let converter: RowConverter?
    private let converts: Bool
    private let ids: StoreColumn<Int32>
    private let whatIfID: [Int32]
    private let factor: [Int128]
    private let factorScale: [Int]
    private let factorIsExact: [Bool]

    init(_ p: Predicate, store: EntryStore, amounts converter: RowConverter?) {
        var layout = Layout(store: store)
        root = layout.add(p)
        (nodes, children, maskBits, maskStart, values) = (layout.nodes, layout.children, layout.maskBits, layout.maskStart, layout.values)
        valueAt = layout.values.prefix(RowFilter.valuesMadeAtEveryScale).map { x in
            (0...RowFilter.topScale).map { s in s < x.scale ? nil : Int256(x.significand).timesPowerOfTen(s - x.scale) }
        }
        (category, book, party, payment, remarks) = (layout.category, layout.book, layout.party, layout.payment, layout.remarks)
        (tagStart, tagCodes) = (layout.tagStart, layout.tagCodes)
        currency = store.currency
        day = store.day
        amount = store.amount
        amountScale = store.amountScale
        self.converter = converter
        converts = converter != nil
        ids = converter?.column.ids ?? StoreColumn()
        whatIfID = converter?.whatIfID ?? []
        factor = converter?.factorSignificand ?? []
        factorScale = converter?.factorScale ?? []
        factorIsExact = converter?.factorIsExact ?? []
    }

    /// The predicate laid out as nodes, and the columns its conditions read.
    private struct Layout {
        let store: EntryStore
        var nodes: [Node] = []
        var children: [Int] = []
        var maskBits: [Bool] = []
        var maskStart: [Int] = [0]
        var values: [ExactDecimal] = []
        var category = StoreColumn<UInt32>(), book = StoreColumn<UInt32>(), party = StoreColumn<UInt32>()
        var payment = StoreColumn<UInt32>(), remarks = StoreColumn<UInt32>()
        var tagStart = StoreColumn<UInt32>(), tagCodes = StoreColumn<UInt32>()

        init(store: EntryStore) { self.store = store }

        /// Lays out `p` (its children first) and returns its node's position.
        mutating func add(_ p: Predicate) -> Int {
            let node: Node
            switch p {
            case .always(let b): node = .always(b)
            case .code(let column, let mask):
                switch column {
                case .category: category = store.category
                case .book: book = store.book
                case .party: party = store.party
                case .payment: payment = store.payment
                case .remarks: remarks = store.remarks
                case .currency: break
                }
                node = .code(column, mask: addMask(mask))
            case .tags(let mask):
                (tagStart, tagCodes) = (store.tagStart, store.tagCodes)
                node = .tags(mask: addMask(mask))
            case .amount(let op, let x):
                values.append(x)
                node = .amount(op, x: values.count - 1)
            case .amountIn(let xs):
                values += xs
                node = .amountIn((values.count - xs.count)..<values.count)
            case .days(let r): node = .days(r.first.number, r.last.number)
            case .and(let ps), .or(let ps):
                let positions = ps.map { add($0) }
                let range = children.count..<(children.count + positions.count)
                children += positions
                if case .and = p { node = .and(range) } else { node = .or(range) }
            case .not(let q): node = .not(add(q))
            }
            nodes.append(node)
            return nodes.count - 1
        }

        mutating func addMask(_ mask: [Bool]) -> Int {
            maskBits += mask
            maskStart.append(maskBits.count)
            return maskStart.count - 2
        }
    }

    /// Whether the row passes; `flip`: expenses, whose amounts read as positive.
    @inline(__always)
    func passes(_ row: Int, flip: Bool, tally: inout ConversionTally?) -> Bool {
        test(root, row, flip: flip, tally: &tally)
    }

    private func test(_ n: Int, _ row: Int, flip: Bool, tally: inout ConversionTally?) -> Bool {
        switch nodes[n] {
        case .always(let b): return b
        case .code(let column, let m):
            let c: Int
            switch column {
            case .category: c = Int(category[row])
            case .book: c = Int(book[row])
            case .party: c = Int(party[row])
            case .payment: c = Int(payment[row])
            case .remarks: c = Int(remarks[row])
            case .currency: c = Int(currency[row].packed)
            }
            return isSet(m, c)
        case .tags(let m):
            let first = Int(tagStart[row]), end = Int(tagStart[row + 1])
            if first == end { return isSet(m, 0) }
            for t in first..<end where isSet(m, Int(tagCodes[t]) + 1) { return true }
            return false
        case .amount(let op, let x):
            guard let order = order(row, x, flip: flip, tally: &tally) else { return false }
            switch op {
            case .equal, .isIn: return order == 0
            case .notEqual, .notIn: return order != 0
            case .less: return order < 0
            case .lessOrEqual: return order <= 0
            case .greater: return order > 0
            case .greaterOrEqual: return order >= 0
            case .contains: return false
            }
        case .amountIn(let range):
            return contains(row, range, flip: flip, tally: &tally)
        case .days(let first, let last):
            let d = day[row]
            return d >= first && d <= last
        case .and(let range):
            for i in range where !test(children[i], row, flip: flip, tally: &tally) { return false }
            return true
        case .or(let range):
            for i in range where test(children[i], row, flip: flip, tally: &tally) { return true }
            return false
        case .not(let q):
            return !test(q, row, flip: flip, tally: &tally)
        }
    }

    @inline(__always)
    private func isSet(_ m: Int, _ c: Int) -> Bool {
        let start = maskStart[m]
        return c >= 0 && c < maskStart[m + 1] - start && maskBits[start + c]
    }

    /// The row's rate id (or `RateColumn` code), counted in `tally`.
    @inline(__always)
    private func rateID(_ row: Int, tally: inout ConversionTally?) -> Int32 {
        var id = ids[row]
        if !whatIfID.isEmpty {
            let w = whatIfID[Int(currency[row].packed)]
            if w >= 0 { id = w }
        }
        tally?.count(id, day: day[row])
        return id
    }

    /// A row's amount as the statement shows it, converted: its 256-bit product at a scale.
    private struct Converted {
        var product: Int256, scale: Int
        /// At an inexact (cut quotient) factor: the product is within its error of the value.
        var inexact: Bool
        var amount: Int128, id: Int32
    }

    /// The row converted (its rate counted in `tally`); nil when it has no usable rate (it
    /// passes no amount condition; the statement fails after the scan).
    @inline(__always)
    private func converted(_ row: Int, _ a: Int128, flip: Bool, tally: inout ConversionTally?) -> Converted? {
        let id = rateID(row, tally: &tally)
        if id >= 0 {
            let i = Int(id)
            return Converted(product: Int256(a, times: factor[i]), scale: amountScale + factorScale[i], inexact: !factorIsExact[i], amount: a, id: id)
        }
        if id == RateColumn.same { return Converted(product: Int256(a), scale: amountScale, inexact: false, amount: a, id: id) }
        // A booked value (a few rows), or no rate.
        guard let (p, s) = converter?.product(row, id: id, amount: a, negate: flip) else { return nil }
        return Converted(product: p, scale: s, inexact: false, amount: a, id: id)
    }

    /// The row's amount as the statement shows it against `values[xi]` (−1, 0, 1); nil when
    /// the row has no usable rate.
    private func order(_ row: Int, _ xi: Int, flip: Bool, tally: inout ConversionTally?) -> Int? {
        let a = flip ? -amount[row] : amount[row]
        guard converts else {
            let v = ExactDecimal(significand: a, scale: amountScale), x = values[xi]
            return v < x ? -1 : (v == x ? 0 : 1)
        }
        guard let c = converted(row, a, flip: flip, tally: &tally) else { return nil }
        return order(c, xi, row, flip: flip)
    }

    /// A converted row against `values[xi]`: in 256 bits, or exactly where those cannot tell.
    private func order(_ c: Converted, _ xi: Int, _ row: Int, flip: Bool) -> Int? {
        if let o = order(c.product, scale: c.scale, error: c.inexact ? c.amount : nil, xi) { return o }
        // The value within the product's error (or past 256 bits): the exact value decides.
        guard let converter, let v = converter.bounded(row, id: c.id, amount: c.amount, negate: flip) else { return nil }
        return RowFilter.compare(v, values[xi]) { converter.exactValue(amount: c.amount, id: c.id) }
    }

    /// The finest scale a product or a value is compared at: an amount's and a rate's, each at most 38.
    static let topScale = 2 * ExactDecimal.maxScale + 2

    /// A converted value, `product` at `scale`, against `values[xi]` (−1, 0, 1) in 256-bit
    /// integers, as `compare` would order them: exact for an exact product; for a product at
    /// an inexact factor (`error`: the row's amount), within ½ unit of its last place per unit
    /// of amount, so decided here unless the value lies within that error. Nil then, or past
    /// 256 bits: `compare` decides. No big integer is made for a row.
    @inline(__always)
    private func order(_ product: Int256, scale: Int, error amount: Int128?, _ xi: Int) -> Int? {
        let s = Swift.max(scale, values[xi].scale)
        guard xi < valueAt.count, s <= RowFilter.topScale, let w = valueAt[xi][s], let p = s == scale ? product : product.timesPowerOfTen(s - scale),
              let minusW = w.negated else { return nil }
        var d = p
        guard !d.add(minusW) else { return nil }
        guard let amount else { return d.high < 0 ? -1 : (d == .zero ? 0 : 1) }
        // |exact − p| ≤ ½ |amount| units of `scale`: 2|d| against |amount| at scale s.
        guard amount != .min else { return nil }
        let magnitude = Int256(amount < 0 ? -amount : amount)
        guard let bound = s == scale ? magnitude : magnitude.timesPowerOfTen(s - scale), let minusBound = bound.negated else { return nil }
        var twice = d
        guard !twice.add(d) else { return nil }
        if bound < twice { return 1 }
        if twice < minusBound { return -1 }
        return nil
    }

    /// Binary search in a sorted list.
    static func sortedContains(_ xs: ArraySlice<ExactDecimal>, _ v: ExactDecimal) -> Bool {
        var lo = xs.startIndex, hi = xs.endIndex
        while lo < hi { let mid = (lo + hi) / 2; if xs[mid] < v { lo = mid + 1 } else { hi = mid } }
        return lo < xs.endIndex && xs[lo] == v
    }

    /// Compares a converted value with a number exactly: the approximation decides unless
    /// the number lies within its error, then the exact value does.
    static func compare(_ v: BoundedValue, _ x: ExactDecimal, exact: () -> Fraction) -> Int {
        let w = WideDecimal(x)
        if v.isExact { return v.approximate < w ? -1 : (v.approximate == w ? 0 : 1) }
        let low = v.approximate + WideDecimal(-v.error.significand, scale: v.error.scale)
        let high = v.approximate + v.error
        if high < w { return -1 }
        if w < low { return 1 }
        let e = exact(), f = Fraction(x)
        return e < f ? -1 : (e == f ? 0 : 1)
    }

    /// Whether the row's amount as the statement shows it is one of `values[range]` (sorted,
    /// distinct): a binary search, each step decided as an amount condition is.
    private func contains(_ row: Int, _ range: Range<Int>, flip: Bool, tally: inout ConversionTally?) -> Bool {
        guard !range.isEmpty else { return false }
        let a = flip ? -amount[row] : amount[row]
        guard converts else { return RowFilter.sortedContains(values[range], ExactDecimal(significand: a, scale: amountScale)) }
        guard let c = converted(row, a, flip: flip, tally: &tally) else { return false }
        var lo = range.lowerBound, hi = range.upperBound
        while lo < hi {
            let mid = (lo + hi) / 2
            guard let o = order(c, mid, row, flip: flip) else { return false }
            if o == 0 { return true }
            if o > 0 { lo = mid + 1 } else { hi = mid }
        }
        return false
    }
}
