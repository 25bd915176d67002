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
struct SumSlots: Sendable {
    private(set) var scales: [Int] = []
    private(set) var inexact: [Bool] = []
    /// Slot of each rate id.
    private(set) var ofRate: [Int] = []
    /// Slot of a value already in the target (or `in native`).
    private(set) var same = 0
    /// Slot of an exact product by its scale (booked normalizedAmount, conversionRate products).
    private(set) var ofExactScale = [Int](repeating: -1, count: 2 * ExactDecimal.maxScale + 2)

    init(converter: RowConverter?, store: EntryStore) {
        same = slot(store.amountScale, inexact: false)
        guard let c = converter else { return }
        for id in c.rates.indices { ofRate.append(slot(store.amountScale + c.factorScale[id], inexact: !c.factorIsExact[id])) }
        let booked = store.booked
        for b in 0..<booked.count {
            if booked.normalizedScale[b] >= 0 { _ = slot(Int(booked.normalizedScale[b]), inexact: false) }
            if booked.conversionRateScale[b] >= 0 { _ = slot(store.amountScale + Int(booked.conversionRateScale[b]), inexact: false) }
        }
    }

    private mutating func slot(_ scale: Int, inexact x: Bool) -> Int {
        if !x, ofExactScale[scale] >= 0 { return ofExactScale[scale] }
        if x, let i = scales.indices.first(where: { scales[$0] == scale && inexact[$0] }) { return i }
        scales.append(scale)
        inexact.append(x)
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
    /// `value` cut to `keyScale` decimals (toward zero), when that fits 128 bits: a monotonic
    /// key that ranks nearly every pair of values without aligning their scales.
    var key: Int128?

    static let keyScale = 18

    init(row: Int, amount: Int128, id: Int32, value: Int256, scale: Int) {
        self.row = row
        self.amount = amount
        self.id = id
        self.value = value
        self.scale = scale
        key = RowPick.key(value, scale: scale)
    }

    var wide: WideDecimal { WideDecimal(value.big, scale: scale) }

    static func key(_ v: Int256, scale: Int) -> Int128? {
        let small = Int128(truncatingIfNeeded: v.low)
        let fits = v.high == (small < 0 ? -1 : 0)
        if scale <= keyScale {
            guard fits else { return nil }
            let (k, o) = small.multipliedReportingOverflow(by: pow10[keyScale - scale])
            return o ? nil : k
        }
        guard scale - keyScale <= ExactDecimal.maxScale else { return nil }
        let d = pow10[scale - keyScale]
        if fits { return small / d }
        // Dividing 256 bits by d fits 128 bits when the high half is well below d.
        guard v.high.magnitude < UInt128(d) / 2 else { return nil }
        return d.dividingFullWidth((high: v.high, low: v.low)).quotient
    }

    static func < (a: RowPick, b: RowPick) -> Bool {
        if let x = a.key, let y = b.key, x != y { return x < y }
        return a.scale == b.scale ? a.value < b.value : a.wide < b.wide
    }

    static func == (a: RowPick, b: RowPick) -> Bool {
        if let x = a.key, let y = b.key, x != y { return false }
        return a.scale == b.scale ? a.value == b.value : a.wide == b.wide
    }
}

struct Accumulators {
    let slots: SumSlots
    let slotCount: Int
    /// Group-major: group g's slot s is `g * slotCount + s`.
    private var sums: [Int256] = []
    /// Σ|amount| of the products in inexact slots.
    private var errors: [WideSum] = []
    private(set) var counts: [Int] = []
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
        errors.append(contentsOf: repeatElement(WideSum(), count: slotCount))
        if keepsExtremes { extremes.append((nil, nil)) }
    }

    @inline(__always)
    mutating func count(_ g: Int) { counts[g] &+= 1 }

    /// Sets group g's count, sums and error sums at once (from `Executor.denseAggregate`).
    mutating func set(_ g: Int, count: Int, sums s: UnsafeMutableBufferPointer<Int256>, errors e: UnsafeMutableBufferPointer<Int128>) {
        counts[g] = count
        for k in 0..<slotCount {
            sums[g * slotCount + k] = s[k]
            var w = WideSum()
            w.add(e[k])
            errors[g * slotCount + k] = w
        }
    }

    mutating func markOverflow() { overflowed = true }

    @inline(__always)
    mutating func add(_ g: Int, slot: Int, _ product: Int256, amount: Int128, inexact: Bool) {
        counts[g] &+= 1
        let i = g &* slotCount &+ slot
        if sums[i].add(product) { overflowed = true }
        if inexact { errors[i].add(amount < 0 ? -amount : amount) }
    }

    mutating func pick(_ g: Int, _ p: RowPick) {
        if extremes[g].min.map({ p < $0 }) ?? true { extremes[g].min = p }
        if extremes[g].max.map({ $0 < p }) ?? true { extremes[g].max = p }
    }

    /// Group g's sum, with the bound of its error: ½ unit of each inexact factor's last
    /// place per unit of amount.
    func sum(_ g: Int) -> BoundedValue {
        var value = WideDecimal.zero, error = WideDecimal.zero
        for s in 0..<slotCount {
            let i = g * slotCount + s
            value = value + WideDecimal(sums[i].big, scale: slots.scales[s])
            if slots.inexact[s] { error = error + WideDecimal(errors[i].value * 5, scale: slots.scales[s] + 1) }
        }
        return BoundedValue(approximate: value, error: error)
    }

    /// The part of group g's sum made with exact factors only.
    func exactPart(_ g: Int) -> WideDecimal {
        var value = WideDecimal.zero
        for s in 0..<slotCount where !slots.inexact[s] {
            value = value + WideDecimal(sums[g * slotCount + s].big, scale: slots.scales[s])
        }
        return value
    }
}
