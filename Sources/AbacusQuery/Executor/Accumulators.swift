// What a scan adds up, per group: counts, exact sums of converted values, extremes.
//
// A converted value is a 256-bit product (amount × a rate's factor) at the scale of
// that product, so products are summed per scale: one accumulator per scale and
// group (`SumSlots` numbers the scales a statement can meet). A product made with a
// quotient's cut factor goes to a slot of its own, beside the sum of its amounts'
// magnitudes: that bounds how far the sum can be from the exact one.

import AbacusCore
import BigInt

/// The product scales of one statement, exact and inexact apart.
///
/// With `sharing` (the dense scan), rates of different scales share a slot where they can: a
/// rate's factor is multiplied by a power of ten up to the scale of a slot it joins (the same
/// number at a finer scale, so each product is the same value), as long as the scaled factor
/// still fits 128 bits. The statement then keeps a few slots per group instead of one per
/// scale (16 for the generated ledger), and a group's sum has fewer to align. A rate with an
/// inexact factor joins only inexact slots, its amounts counted into the slot's error sum as
/// they are: the slot's bound is then ½ unit of its last place times the largest power of ten
/// any of its factors was brought up by (`errorShift`), for every unit of amount — a little
/// wider than each factor's own, and no multiplication in the scan.
struct SumSlots: Sendable {
    private(set) var scales: [Int] = []
    private(set) var inexact: [Bool] = []
    /// Slot of each rate id.
    private(set) var ofRate: [Int] = []
    /// Each rate's factor significand at its slot's scale (the converter's own without `sharing`).
    private(set) var factor: [Int128] = []
    /// Per slot, how many places its error sum is shifted by: the largest power of ten a factor
    /// in it was brought up by (0 without sharing). A unit of amount in the sum stands for
    /// ½ unit of the slot's last place times 10^errorShift.
    private(set) var errorShift: [Int] = []
    /// Some rate's factor was scaled to share a slot: a sum can then pass 256 bits sooner than
    /// without sharing, and the statement is redone without it.
    private(set) var scaled = false
    /// Slot of a value already in the target (or `in native`).
    private(set) var same = 0
    /// Slot of an exact product by its scale (booked normalizedAmount, conversionRate products).
    private(set) var ofExactScale = [Int](repeating: -1, count: 2 * ExactDecimal.maxScale + 2)
    /// With `sharing`, the booked values' scales go to the nearest exact slot at or above them:
    /// by scale, the power of ten a product at that scale is multiplied by there (0 without sharing).
    private(set) var exactShift = [Int](repeating: 0, count: 2 * ExactDecimal.maxScale + 2)

    init(converter: RowConverter?, store: EntryStore, sharing: Bool = false) {
        same = slot(store.amountScale, inexact: false)
        guard let c = converter else { return }
        factor = c.factorSignificand
        ofRate = Array(repeating: 0, count: c.rates.count)
        let scale = { (id: Int) in store.amountScale + c.factorScale[id] }
        // Finest scales first: a slot is made at the finest scale of the rates that share it.
        let order = sharing ? c.rates.indices.sorted { scale($0) > scale($1) } : Array(c.rates.indices)
        for id in order {
            let s = scale(id), x = !c.factorIsExact[id]
            if sharing, let (j, k, f) = shared(c.factorSignificand[id], scale: s, inexact: x) {
                (ofRate[id], factor[id]) = (j, f)
                if x { errorShift[j] = max(errorShift[j], k) }
                if k > 0 { scaled = true }
            } else {
                ofRate[id] = slot(s, inexact: x)
            }
        }
        let booked = store.booked.normalizedScales + store.booked.conversionRateScales.map { store.amountScale + $0 }
        for scale in sharing ? booked.sorted(by: >) : booked {
            if sharing, ofExactScale[scale] < 0,
               let j = scales.indices.filter({ !inexact[$0] && scales[$0] > scale }).min(by: { scales[$0] < scales[$1] }) {
                // A booked row is rare: its product is scaled row by row (past 256 bits, the statement is redone unshared).
                (ofExactScale[scale], exactShift[scale]) = (j, scales[j] - scale)
                scaled = true
            } else {
                _ = slot(scale, inexact: false)
            }
        }
    }

    /// The slot of the same kind, at the nearest scale at or above `scale`, that the factor
    /// fits when brought to its scale: the slot, the power of ten, the factor at that scale.
    private func shared(_ f: Int128, scale: Int, inexact x: Bool) -> (Int, Int, Int128)? {
        var best: (Int, Int, Int128)?
        // An error sum's shift stays below 19 places (its bound no more than 10^18 times as wide).
        for j in scales.indices where inexact[j] == x && scales[j] >= scale && scales[j] - scale < (x ? 19 : pow10.count) {
            let k = scales[j] - scale
            if let b = best, b.1 <= k { continue }
            let (scaled, o) = f.multipliedReportingOverflow(by: pow10[k])
            if !o { best = (j, k, scaled) }
        }
        return best
    }

    private mutating func slot(_ scale: Int, inexact x: Bool) -> Int {
        if !x, ofExactScale[scale] >= 0 { return ofExactScale[scale] }
        if x, let i = scales.indices.first(where: { scales[$0] == scale && inexact[$0] }) { return i }
        scales.append(scale)
        inexact.append(x)
        errorShift.append(0)
        if !x { ofExactScale[scale] = scales.count - 1 }
        return scales.count - 1
    }
}

/// One row's converted value, kept to rank it among others (min, max, list) and to round it exactly.
struct RowPick {
    var row: Int
    /// The amount as the statement shows it, and the rate id (or `RateColumn` code) it was converted at.
    var amount: Int128
    var id: Int32
    var value: Int256
    var scale: Int

    var wide: WideDecimal { WideDecimal(value.big, scale: scale) }

    /// -1, 0 or 1. Values at different scales are aligned by one 256-bit multiplication (the
    /// coarser one fits 128 bits nearly always); only the rest go through BigInt.
    static func compare(_ a: RowPick, _ b: RowPick) -> Int {
        if a.scale == b.scale { return a.value < b.value ? -1 : (a.value == b.value ? 0 : 1) }
        let (coarse, fine, flipped) = a.scale < b.scale ? (a, b, false) : (b, a, true)
        let shift = fine.scale - coarse.scale
        var order: Int
        if let small = coarse.value.int128, shift <= ExactDecimal.maxScale {
            let aligned = Int256(small, times: pow10[shift])
            order = aligned < fine.value ? -1 : (aligned == fine.value ? 0 : 1)
        } else if let aligned = coarse.value.timesPowerOfTen(shift) {
            order = aligned < fine.value ? -1 : (aligned == fine.value ? 0 : 1)
        } else {
            order = coarse.wide < fine.wide ? -1 : (coarse.wide == fine.wide ? 0 : 1)
        }
        if flipped { order = -order }
        return order
    }

    static func < (a: RowPick, b: RowPick) -> Bool { compare(a, b) < 0 }
    static func == (a: RowPick, b: RowPick) -> Bool { compare(a, b) == 0 }

    /// Two parts of one split entry as one value: their amounts and products added (the parts
    /// of an entry convert at its one rate, so at one id and scale). Nil where they do not
    /// share them, or a sum passes its width.
    func merged(with other: RowPick) -> RowPick? {
        guard id == other.id, scale == other.scale, case let (amount, false) = amount.addingReportingOverflow(other.amount) else { return nil }
        var value = value
        if value.add(other.value) { return nil }
        return RowPick(row: row, amount: amount, id: id, value: value, scale: scale)
    }
}

struct Accumulators {
    let slots: SumSlots
    let slotCount: Int
    /// Group-major: group g's slot s is `g * slotCount + s`.
    private var sums: [Int256] = []
    /// Σ|amount| of the products in inexact slots.
    private var errors: [Int128] = []
    /// What an error sum held when it would have passed 128 bits (never for real ledgers),
    /// by its index in `errors`, which starts again from zero.
    private var errorOverflows: [Int: BigInt] = [:]
    private(set) var counts: [Int] = []

    /// A dense scan's buffers, read where they lie instead of `sums` and `errors`: group g's
    /// slots start at `denseGroup[g] × slotCount` there.
    private var dense: Executor.DensePartial?
    private var denseGroup: [Int] = []

    /// Takes a dense scan's counts, sums and error sums, group g being its group `groups[g]`
    /// (0 the whole statement); the sums are not copied. A count's scan keeps no sums: they are zero.
    mutating func adopt(_ partial: Executor.DensePartial, groups: [Int]) {
        counts = groups.map { partial.counts[$0] }
        if keepsExtremes { extremes = Array(repeating: (nil, nil), count: groups.count) }
        if partial.slots == slotCount {
            dense = partial
            denseGroup = groups
        } else {
            sums = Array(repeating: .zero, count: groups.count * slotCount)
            errors = Array(repeating: 0, count: groups.count * slotCount)
        }
    }

    /// Where group g's slots start, and slot i's sum and error sum.
    @inline(__always) private func base(_ g: Int) -> Int { dense == nil ? g * slotCount : denseGroup[g] * slotCount }
    @inline(__always) private func sum(at i: Int) -> Int256 { dense?.sums[i] ?? sums[i] }
    @inline(__always) private func error(at i: Int) -> Int128 { dense?.errors[i] ?? errors[i] }

    /// Takes the entry counts of another pass over the same groups (a split view's average
    /// divides by entries, not parts).
    mutating func takeCounts(of other: Accumulators) { counts = other.counts }
    private(set) var extremes: [(min: RowPick?, max: RowPick?)] = []
    let keepsExtremes: Bool
    /// A sum passed 2^255 (never for real ledgers): the statement fails rather than wrap.
    private(set) var overflowed = false

    init(slots: SumSlots, extremes: Bool) {
        self.slots = slots
        self.slotCount = slots.scales.count
        self.keepsExtremes = extremes
    }

    var groupCount: Int { counts.count }

    mutating func addGroup() {
        counts.append(0)
        sums.append(contentsOf: repeatElement(.zero, count: slotCount))
        errors.append(contentsOf: repeatElement(0, count: slotCount))
        if keepsExtremes { extremes.append((nil, nil)) }
    }

    @inline(__always)
    mutating func count(_ g: Int) { counts[g] &+= 1 }

    mutating func markOverflow() { overflowed = true }

    @inline(__always)
    mutating func add(_ g: Int, slot: Int, _ product: Int256, amount: Int128, inexact: Bool) {
        counts[g] &+= 1
        let i = g &* slotCount &+ slot
        if sums[i].add(product) { overflowed = true }
        if inexact {
            let m = amount < 0 ? -amount : amount
            let (e, o) = errors[i].addingReportingOverflow(m)
            if _fastPath(!o) {
                errors[i] = e
            } else {
                errorOverflows[i, default: BigInt(0)] += BigInt(errors[i]) + BigInt(m)
                errors[i] = 0
            }
        }
    }

    mutating func pick(_ g: Int, _ p: RowPick) {
        if extremes[g].min.map({ p < $0 }) ?? true { extremes[g].min = p }
        if extremes[g].max.map({ $0 < p }) ?? true { extremes[g].max = p }
    }

    /// A split view's parts, by group: the entry whose parts the group is adding up, and their
    /// value so far (docs/ledger-format.md#splits: min and max see an entry's parts in one
    /// group as one amount, as count and avg count the entry once there).
    private var openEntry: [(entry: UInt32, pick: RowPick)?] = []

    /// Picks a row for group g; in a split view (`entry`, the row's entry), a part: added to the
    /// entry's earlier parts there (the parts of an entry are neighbouring rows), the entry
    /// before picked once it is complete.
    mutating func pick(_ g: Int, _ p: RowPick, entry: UInt32?) {
        guard let entry else { return pick(g, p) }
        while openEntry.count <= g { openEntry.append(nil) }
        if let (open, q) = openEntry[g] {
            if open == entry, let whole = q.merged(with: p) {
                openEntry[g] = (entry, whole)
                return
            }
            pick(g, q)
        }
        openEntry[g] = (entry, p)
    }

    /// Picks the entries still being added up, after the last row.
    mutating func closeEntries() {
        for (g, open) in openEntry.enumerated() { if let (_, q) = open { pick(g, q) } }
        openEntry = []
    }

    /// Group g's sum, with the bound of its error: ½ unit of each inexact factor's last
    /// place per unit of amount. Slots are aligned to the finest scale among those in use,
    /// one multiplication each: in 256 bits nearly always, in BigInt only past them.
    func sum(_ g: Int) -> BoundedValue {
        switch aligned(g) {
        case .zero: return BoundedValue(approximate: .zero)
        case .value(let value, let scale, let error): return BoundedValue(approximate: value, scale: scale, error: error)
        case .tooWide: break
        }
        let base = base(g)
        // In use: a sum, or an inexact slot's error (its products may have cancelled, `SumReader.aligned`).
        func used(_ s: Int) -> Bool { sum(at: base + s) != .zero || (slots.inexact[s] && (error(at: base + s) != 0 || errorOverflows[base + s] != nil)) }
        var top = Int.min
        for s in 0..<slotCount where used(s) { top = max(top, slots.scales[s]) }
        var wideValue = BigInt(0), wideError = BigInt(0)
        for s in 0..<slotCount where used(s) {
            let i = base + s, k = top - slots.scales[s]
            wideValue += sum(at: i).big * bigPowerOfTen(k)
            if slots.inexact[s] { wideError += (BigInt(self.error(at: i)) + (errorOverflows[i] ?? BigInt(0))) * 5 * bigPowerOfTen(k + slots.errorShift[s]) }
        }
        return BoundedValue(approximate: WideDecimal(wideValue, scale: top), error: WideDecimal(wideError, scale: top + 1))
    }

    /// A group's slots added up at the finest scale among those in use, with the bound of the
    /// error: ½ unit of each inexact factor's last place per unit of amount (at one more decimal).
    enum Aligned { case zero, value(Int256, scale: Int, error: Int256), tooWide }

    /// Group g's slots aligned, one multiplication each, read in place, each once.
    private func aligned(_ g: Int) -> Aligned {
        withReader { $0.aligned(g) }
    }

    /// The sum of several groups (a crosstab's row and column totals, the total of `top N`)
    /// rounded half-even to `scale` from their slots added in 256 bits, as one group's is
    /// (`SumReader.roundedSum`), with no bounded value made, or with `averagedOver` their
    /// average over that many entries (`SumReader.roundedAverage`): `.some(nil)` when the
    /// exact sums are needed, nil when the bounded values must decide (or a sum passes 256 bits).
    func roundedSum(of groups: [Int], toScale scale: Int, averagedOver entries: Int? = nil) -> ExactDecimal?? {
        guard !overflowed, errorOverflows.isEmpty, slotCount > 0 else { return nil }
        var sums = [Int256](repeating: .zero, count: slotCount), errors = [Int128](repeating: 0, count: slotCount)
        // Read through pointers taken once (tens of thousands of groups: a crosstab's, `in native`'s per currency).
        guard withReader({ $0.add(groups, to: &sums, &errors) }) else { return nil }
        return withSlotTables { tables in
            sums.withUnsafeBufferPointer { s in
                errors.withUnsafeBufferPointer { e in
                    let reader = SumReader(sums: s.baseAddress, errors: e.baseAddress, cells: slotCount, denseGroup: nil, slotCount: slotCount,
                                           tables: tables, errorsFit: true)
                    return entries.map { reader.roundedAverage(0, count: $0, toScale: scale) } ?? reader.roundedSum(0, toScale: scale)
                }
            }
        }
    }

    /// The slots' scales, inexactness and error shifts (`SumSlots`) through pointers, for a `SumReader`.
    private func withSlotTables<R>(_ body: (SumReader.SlotTables) -> R) -> R {
        slots.scales.withUnsafeBufferPointer { scales in
            slots.inexact.withUnsafeBufferPointer { inexact in
                slots.errorShift.withUnsafeBufferPointer { shifts in
                    body(SumReader.SlotTables(scales: scales.baseAddress, inexact: inexact.baseAddress, errorShift: shifts.baseAddress))
                }
            }
        }
    }

    /// The sums and error sums read in place through pointers taken once, for as many groups
    /// as `body` reads: reading them through `self` group by group retains the buffers each
    /// time, and two threads retaining one buffer contend for its reference count.
    func withReader<R>(_ body: (SumReader) -> R) -> R {
        withSlotTables { tables in
            denseGroup.withUnsafeBufferPointer { denseGroup in
                func read(_ s: UnsafePointer<Int256>?, _ e: UnsafePointer<Int128>?, cells: Int) -> R {
                    body(SumReader(sums: s, errors: e, cells: cells, denseGroup: dense == nil ? nil : denseGroup.baseAddress, slotCount: slotCount,
                                   tables: tables, errorsFit: errorOverflows.isEmpty))
                }
                if let dense { return read(UnsafePointer(dense.sums.baseAddress), UnsafePointer(dense.errors.baseAddress), cells: dense.sums.count) }
                return sums.withUnsafeBufferPointer { s in errors.withUnsafeBufferPointer { e in read(s.baseAddress, e.baseAddress, cells: s.count) } }
            }
        }
    }

    /// The part of group g's sum made with exact factors only.
    func exactPart(_ g: Int) -> WideDecimal {
        var value = WideDecimal.zero
        for s in 0..<slotCount where !slots.inexact[s] {
            value = value + WideDecimal(sum(at: base(g) + s).big, scale: slots.scales[s])
        }
        return value
    }
}

/// 10^n as a BigInt, from a table for the scales sums use.
func bigPowerOfTen(_ n: Int) -> BigInt {
    n < bigPowersOfTen.count ? bigPowersOfTen[n] : BigInt(10).power(n)
}

private let bigPowersOfTen: [BigInt] = (0...2 * ExactDecimal.maxScale + 2).map { BigInt(10).power($0) }

/// Group sums read in place (`Accumulators.withReader`): valid only inside the call that made it.
struct SumReader {
    let sums: UnsafePointer<Int256>?
    let errors: UnsafePointer<Int128>?
    /// How many sums there are (and error sums).
    let cells: Int
    /// Where each group's slots start, in slots (a dense scan's numbering); nil: g × slotCount.
    let denseGroup: UnsafePointer<Int>?
    let slotCount: Int
    /// `SumSlots`' tables, read through pointers.
    struct SlotTables {
        let scales: UnsafePointer<Int>?
        let inexact: UnsafePointer<Bool>?
        let errorShift: UnsafePointer<Int>?
    }
    let tables: SlotTables
    /// No error sum passed 128 bits.
    let errorsFit: Bool

    /// Group g's sum rounded half-even to `scale` decimals where its 256-bit approximation
    /// settles it, with no bounded value made (nearly every group): `.some(nil)` when the exact
    /// sum is needed; nil when the bounded value must decide.
    @inline(__always)
    func roundedSum(_ g: Int, toScale scale: Int) -> ExactDecimal?? {
        guard case .value(let value, let top, let error) = aligned(g) else { return nil }
        return BoundedValue.roundedIfCertain(value, scale: top, error: error, toScale: scale)
    }

    /// Group g's average over `n` entries rounded half-even to `scale` where its 256-bit
    /// approximation settles it, as `roundedSum` does a sum: the aligned sum divided by n
    /// (truncated: within one unit of its last place) and its error bound divided by n, rounded
    /// up, plus that unit when the division left a remainder.
    @inline(__always)
    func roundedAverage(_ g: Int, count n: Int, toScale scale: Int) -> ExactDecimal?? {
        guard n > 0, case .value(let value, let top, let error) = aligned(g) else { return nil }
        let (q, inexact) = value.dividedTruncating(by: UInt64(n))
        // The error is at scale top + 1 (`aligned`): one unit at scale top is 10 there.
        let (e, left) = error.dividedTruncating(by: UInt64(n))
        var bound = e
        if left { if bound.add(Int256(1)) { return nil } }
        if inexact { if bound.add(Int256(10)) { return nil } }
        return BoundedValue.roundedIfCertain(q, scale: top, error: bound, toScale: scale)
    }

    /// Adds the slots of some groups to `totals` and `errorTotals` (one of each per slot); false
    /// when a sum passes 256 bits or an error sum 128.
    func add(_ groups: [Int], to totals: inout [Int256], _ errorTotals: inout [Int128]) -> Bool {
        guard let sums, let errors, totals.count == slotCount, errorTotals.count == slotCount else { return false }
        for g in groups {
            let base = (denseGroup?[g] ?? g) &* slotCount
            guard base >= 0, base + slotCount <= cells else { return false }
            for k in 0..<slotCount {
                if totals[k].add(sums[base &+ k]) { return false }
                let (e, o) = errorTotals[k].addingReportingOverflow(errors[base &+ k])
                if o { return false }
                errorTotals[k] = e
            }
        }
        return true
    }

    /// Group g's slots aligned to the finest scale in use, one multiplication each, each read once.
    func aligned(_ g: Int) -> Accumulators.Aligned {
        guard slotCount > 0, let sums, let errors, let scales = tables.scales, let inexact = tables.inexact, let errorShift = tables.errorShift else { return .zero }
        let base = (denseGroup?[g] ?? g) &* slotCount
        guard base + slotCount <= cells else { return .zero }
        let (s, e) = (sums + base, errors + base)
        // A slot is in use when it holds a sum or, inexact, an error: products that cancel to
        // zero (a sum of several groups, +100 GBP and −100 GBP at one cut factor) keep their error.
        func used(_ k: Int) -> Bool { s[k] != .zero || (inexact[k] && e[k] != 0) }
        var top = Int.min
        for k in 0..<slotCount where used(k) { top = max(top, scales[k]) }
        guard top != Int.min else { return .zero }
        var value = Int256.zero, error = Int256.zero
        for k in 0..<slotCount where used(k) {
            let shift = top - scales[k]
            guard let shifted = shift == 0 ? s[k] : s[k].timesPowerOfTen(shift), !value.add(shifted) else { return .tooWide }
            // ½ unit at scale top (×10 at scale top + 1 is 5).
            if inexact[k] {
                guard errorsFit, let x = Int256(e[k], times: 5).timesPowerOfTen(shift + errorShift[k]), !error.add(x) else { return .tooWide }
            }
        }
        return .value(value, scale: top, error: error)
    }
}
