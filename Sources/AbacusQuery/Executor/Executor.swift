// The executor: a `Plan` → a `ResultSet`.
//
// One pass over the planned rows (a day range of the store, or the union of
// posting lists inside it). Each row passes the subject filter and the compiled
// predicate, finds its groups (`Grouper`; a row with two tags lands in two) and
// adds its converted value to their accumulators (`Accumulators`). A converted
// value is the row's amount times the factor of the rate the session's
// `RateColumn` names for it, an exact 256-bit product, summed per product scale;
// group 0 holds the whole statement, each entry once, for the total row. Every
// value is rounded once, half-even, to the target's minor unit, exactly: where a
// quotient rate's cut factor leaves the rounding in doubt, the doubtful values are
// worked out again as fractions (`exactSums`). A rate missing for any row fails
// the whole statement, naming pairs and counts.

import AbacusCore
import BigInt
import Dispatch

public struct Executor: Sendable {
    let ledger: Ledger
    let store: EntryStore
    let columns: RateColumnCache
    /// For the staleness of `at latest`.
    let today: Day?
    let isCancelled: @Sendable () -> Bool
    /// Off only in tests that hold the dense kernel to the general path.
    var useDenseKernel = true
    /// From how many rows a dense scan takes two threads (lowered in tests).
    var parallelRows = Executor.parallelRows
    /// From how many cells a product of keys numbers only the groups it meets (lowered in tests).
    var compactAbove = Executor.compactAbove
    /// Up to how many cells a period and one other key are laid out whole (lowered in tests).
    var periodLayoutCells = Executor.periodLayoutCells
    /// Up to how many accumulators a product with a tag key is laid out whole (lowered in tests).
    var tagLayoutCells = Executor.tagLayoutCells
    /// From how many accumulators a dense scan shares slots between scales (lowered in tests).
    var shareSlotsAbove = Executor.shareSlotsAbove

    public init(ledger: Ledger, columns: RateColumnCache, today: Day? = nil, isCancelled: @escaping @Sendable () -> Bool = { false }) {
        self.ledger = ledger
        self.store = ledger.entries
        self.columns = columns
        self.today = today
        self.isCancelled = isCancelled
    }

    /// The conversion into the plan's target (nil `in native`).
    func converter(_ plan: Plan) -> RowConverter? {
        plan.target.map { RowConverter(column: columns.column($0, plan.valuation, today: today), store: store, whatIf: plan.whatIf) }
    }

    /// What a grouped plan's caller may ask beside its result: every group (its id, typed key
    /// and value) and a function that merges any of them, exactly, into one value (their sum
    /// or count, their average, their extreme; nil `in native`). A crosstab rolls its cells
    /// up into row and column totals with it (Result/Crosstab.swift).
    /// The groups come with their codes and no key cells: `KeyValues` gives the value each code stands for.
    typealias RollUp = ([GroupValue], KeyValues, _ merge: ([Int]) throws(QueryError) -> Cell?) throws(QueryError) -> Void

    public func run(_ plan: Plan) throws(QueryError) -> ResultSet {
        try run(plan, rollUp: nil)
    }

    func run(_ plan: Plan, rollUp: RollUp?) throws(QueryError) -> ResultSet {
        if plan.aggregate == .list { return try list(plan) }
        let keys = plan.groupBy
        let converter = plan.aggregate != .count ? self.converter(plan) : nil
        let scan: Scan
        // A split view's count, average, least and greatest see entries, not parts (an entry's
        // parts in one group are one amount there), and so does `order by count` of any
        // aggregate: the general path.
        let denseAllowed = useDenseKernel && !((plan.aggregate != .sum || plan.ranksByEntryCount) && ledger.isSplitView)
        if denseAllowed, let dense = try denseAggregate(plan, keys: keys, converter: converter) { scan = dense } else { scan = try aggregate(plan, keys: keys, converter: converter) }
        var warnings = try outcome(converter, scan.tally)
        // A count converts only for its `where amount …`: those rates' warnings and sources.
        let filterConverter = converter == nil && scan.filterTally != nil ? self.converter(plan) : nil
        if let filterConverter, let t = scan.filterTally { warnings += try outcome(filterConverter, t) }

        // One value per group, exact until rounded here. Group 0 is the whole statement.
        func currency(_ g: Int) -> Currency? {
            if let t = plan.target { return t }
            guard g > 0, let ci = keys.firstIndex(of: .currency) else { return nil }
            return Currency(packed: UInt16(scan.groups.key(g)[ci]))
        }
        // Each sum or average rounded once where its approximation settles it (nearly always),
        // the groups shared between two threads when there are many.
        // Converted, every group's scale is the target's: looked up once, not for each group.
        let targetScale = plan.target?.minorUnits
        let settled = scan.settledAll(plan.aggregate) { g in targetScale ?? currency(g)?.minorUnits }
        var exact: [Int: Fraction] = [:]
        let doubtful = (0..<scan.groups.count).filter { g in
            settled[g] == nil && (currency(g).map { scan.needsExactSum(g, plan.aggregate, scale: $0.minorUnits) } ?? false)
        }
        if !doubtful.isEmpty { exact = try exactSums(plan, keys: keys, converter: converter, groups: Set(doubtful), scan: scan) }
        /// Group g's cell where it is known already (a count, no currency, a settled sum: nearly
        /// every group), else nil.
        func readyCell(_ g: Int) -> Cell? {
            if plan.aggregate == .count { return .count(scan.acc.counts[g]) }
            guard let c = currency(g) else { return .empty }
            return settled[g].map { .money($0, c) }
        }
        func cell(_ g: Int) throws(QueryError) -> Cell {
            if let ready = readyCell(g) { return ready }
            guard let c = currency(g) else { return .empty }
            guard let v = try scan.value(g, plan.aggregate, converter: converter, exact: exact[g], scale: c.minorUnits) else { return .empty }
            return .money(v, c)
        }
        let provenance = converter.map { scan.tally.provenance($0) } ?? filterConverter.flatMap { c in scan.filterTally.map { $0.provenance(c) } }
        let rateConverter = converter ?? filterConverter
        var result = ResultSet(columns: keys.map { Column($0.rawValue, .key($0)) } + [plan.aggregate == .count ? Column("count", .count) : Column("amount", .money)],
                               rows: [], currency: plan.aggregate == .count ? nil : plan.target, warnings: warnings, provenance: provenance,
                               rateNotes: rateConverter.flatMap { c in provenance.map { Executor.rateNotes(c, $0) } } ?? [])
        if keys.isEmpty {
            // An ungrouped statement over no rows still answers: 0 for sum and count, nothing for the others.
            let value: Cell = scan.acc.counts[0] == 0 && plan.aggregate == .sum ? .money(ExactDecimal(significand: 0, scale: plan.target?.minorUnits ?? 2), plan.target ?? ledger.defaultCurrency) : try cell(0)
            result.rows = [[value]]
            if plan.logical.keepsExactSum && plan.aggregate == .sum && plan.target != nil {
                let s = scan.sum(0)
                if s.isExact {
                    result.exactSum = Fraction(s.approximate)
                } else if let known = exact[0] {
                    result.exactSum = known
                } else {
                    result.exactSum = try exactSums(plan, keys: keys, converter: converter, groups: [0], scan: scan)[0]
                }
            }
            return result
        }
        // The groups carry their codes; their key cells are made only for a roll-up (a crosstab
        // reads them), else by the shaper, once per distinct value.
        var values = KeyValues(keys: keys, names: keyNames(keys))
        values.nameRanks = keys.map(nameRanks)
        let entries = scan.acc.counts
        // Min and max: each group's value as shown, by its id, kept: the extreme of several groups
        // is the extreme of their values (rounding keeps the order), not worked out again.
        let extremes = plan.aggregate == .min || plan.aggregate == .max
        var shown = [Cell](repeating: .empty, count: extremes ? scan.groups.count : 0)
        // Made by two threads, half each, where there are thousands; then, one by one, the few
        // whose value needs more (an exact sum, an extreme rounded).
        var groups = Executor.mapInHalves(scan.groups.count - 1) { i in
            GroupValue(id: i + 1, key: [], value: readyCell(i + 1) ?? .empty, entries: entries[i + 1], codes: scan.groups.key(i + 1))
        }
        for i in groups.indices where readyCell(i + 1) == nil { groups[i].value = try cell(i + 1) }
        if extremes { for (i, group) in groups.enumerated() { shown[i + 1] = group.value } }
        if let rollUp {
            try rollUp(groups, values) { ids throws(QueryError) in try self.shownValue(ids, scan, plan, converter: converter, exact: &exact, keys: keys, known: shown) }
        }
        // `in native` by tag on the general path: every currency's total from one statement by currency (`nativeTotal`).
        var totalsByCurrency: [Currency: Cell]?
        var shaper = ResultShaper(plan: plan, home: ledger.defaultCurrency, isCancelled: isCancelled, whole: { () throws(QueryError) in try cell(0) }, subtotal: { ids throws(QueryError) in
            try self.shownValue(ids, scan, plan, converter: converter, exact: &exact, keys: keys, known: shown)
        }, currencyTotal: { ids, c, shownAll throws(QueryError) in
            try self.nativeTotal(ids, scan, plan, currency: c, keys: keys, shownAll: shownAll, known: shown, byCurrency: &totalsByCurrency)
        })
        shaper.keyValues = values
        shaper.wholeEntries = { scan.acc.counts[0] }
        try shaper.shape(consume groups, into: &result)
        return result
    }

    /// The total of the groups shown after `top N`: their sum (or count), or the extreme among them.
    /// `known`: the groups' values as shown, by id, where they are known already.
    func shownValue(_ groups: [Int], _ scan: Scan, _ plan: Plan, converter: RowConverter?, exact: inout [Int: Fraction], keys: [GroupKey],
                    known: [Cell] = []) throws(QueryError) -> Cell? {
        guard let target = plan.target ?? (plan.aggregate == .count ? ledger.defaultCurrency : nil) else { return nil }
        switch plan.aggregate {
        case .count:
            return .count(groups.reduce(0) { $0 + scan.acc.counts[$1] })
        case .sum, .avg:
            let n = groups.reduce(0) { $0 + scan.acc.counts[$1] }
            if plan.aggregate == .avg && n == 0 { return nil }
            // A sum (or average) from the groups' slots added in 256 bits, nearly always; else their bounded values.
            if case let r?? = scan.acc.roundedSum(of: groups, toScale: target.minorUnits, averagedOver: plan.aggregate == .avg ? n : nil) {
                return .money(r, target)
            }
            var total = BoundedValue(approximate: .zero)
            for g in groups {
                let v = scan.sum(g)
                total = BoundedValue(approximate: total.approximate + v.approximate, error: total.error + v.error)
            }
            if plan.aggregate == .avg { total = total.divided(by: n) }
            if let r = total.roundedIfCertain(toScale: target.minorUnits) { return .money(r, target) }
            let missing = Set(groups.filter { exact[$0] == nil })
            if !missing.isEmpty { exact.merge(try exactSums(plan, keys: keys, converter: converter, groups: missing, scan: scan)) { a, _ in a } }
            var f = groups.reduce(Fraction.zero) { $0 + (exact[$1] ?? Fraction(scan.sum($1).approximate)) }
            if plan.aggregate == .avg { f = f.divided(by: n) }
            guard let r = f.rounded(toScale: target.minorUnits) else { throw QueryError(.overflow, at: nil) }
            return .money(r, target)
        case .min, .max:
            var values: [ExactDecimal] = []
            for g in groups {
                if g < known.count, case .money(let v, let c) = known[g], c == target {
                    values.append(v)
                } else if let v = try scan.value(g, plan.aggregate, converter: converter, exact: exact[g], scale: target.minorUnits) {
                    values.append(v)
                }
            }
            guard let v = plan.aggregate == .max ? values.max() : values.min() else { return nil }
            return .money(v, target)
        case .list:
            return nil
        }
    }

    /// An `in native` total for one currency: over the groups of that currency. When tags
    /// repeat entries across groups, each entry once: from the scan's sums with each row in
    /// one group (`Scan.eachRowOnce`), else by running the statement by currency alone, once
    /// for every currency (`byCurrency` keeps its totals). A min or max is the same either way.
    func nativeTotal(_ groups: [Int], _ scan: Scan, _ plan: Plan, currency c: Currency, keys: [GroupKey], shownAll: Bool, known: [Cell] = [],
                     byCurrency totals: inout [Currency: Cell]?) throws(QueryError) -> Cell? {
        var over = scan
        if keys.contains(.tag) && shownAll && plan.aggregate != .min && plan.aggregate != .max {
            if let once = scan.eachRowOnce {
                over = Scan(groups: scan.groups, acc: once, tally: scan.tally)
            } else {
                if totals == nil {
                    var byCurrency = plan
                    byCurrency.groupBy = [.currency]
                    byCurrency.order = nil
                    byCurrency.top = nil
                    var found: [Currency: Cell] = [:]
                    for row in try run(byCurrency).rows { if case .currency(let code)? = row.first, let total = row.last { found[code] = total } }
                    totals = found
                }
                return totals?[c]
            }
        }
        var exact: [Int: Fraction] = [:]
        var native = plan
        native.target = c
        return try shownValue(groups, over, native, converter: nil, exact: &exact, keys: keys, known: known)
    }

    // MARK: The scan

    /// Everything one pass over the rows gathers.
    final class Scan {
        let groups: Grouper
        let acc: Accumulators
        let tally: ConversionTally
        /// The rates the `where amount …` filter converted at, when the aggregate converts nothing itself (`count`).
        let filterTally: ConversionTally?
        /// Grouping by tag, the sums and counts with each row in one group only (that of its
        /// first tag): over the groups of one currency, that currency's total with each entry
        /// once (`nativeTotal`). Nil where the scan kept none.
        let eachRowOnce: Accumulators?
        init(groups: Grouper, acc: Accumulators, tally: ConversionTally, filterTally: ConversionTally? = nil, eachRowOnce: Accumulators? = nil) {
            self.groups = groups
            self.acc = acc
            self.tally = tally
            self.filterTally = filterTally
            self.eachRowOnce = eachRowOnce
        }

        /// Group `g`'s sum, worked out from its accumulators where it is needed (nearly always
        /// once: to be rounded), not kept for every group.
        func sum(_ g: Int) -> BoundedValue { acc.sum(g) }

        /// Each group's sum or average rounded to `scale(g)` (nil: it has no value to round)
        /// where the approximation settles the rounding (as `value` rounds it); nil where it
        /// does not, and for the other aggregates. The groups are shared between two threads
        /// when there are many; a sum is rounded straight from its slots (nearly always).
        func settledAll(_ aggregate: Aggregate, scale: @escaping (Int) -> Int?) -> [ExactDecimal?] {
            guard aggregate == .sum || aggregate == .avg, !acc.overflowed else { return Array(repeating: nil, count: groups.count) }
            return acc.withReader { reader in
                Executor.mapInHalves(groups.count) { g in
                    guard let scale = scale(g) else { return nil }
                    if aggregate == .sum, let r = reader.roundedSum(g, toScale: scale) { return r }
                    let n = self.acc.counts[g]
                    if aggregate == .avg && n == 0 { return nil }
                    if aggregate == .avg, let r = reader.roundedAverage(g, count: n, toScale: scale) { return r }
                    let s = self.sum(g)
                    return (aggregate == .avg ? s.divided(by: n) : s).roundedIfCertain(toScale: scale)
                }
            }
        }

        /// Whether group `g`'s sum needs working out exactly to be rounded (a quotient
        /// factor's error straddles a rounding boundary).
        func needsExactSum(_ g: Int, _ aggregate: Aggregate, scale: Int) -> Bool {
            guard aggregate == .sum || aggregate == .avg else { return false }
            let s = sum(g)
            guard !s.isExact else { return false }
            let n = acc.counts[g]
            let v = aggregate == .avg && n > 0 ? s.divided(by: n) : s
            return v.roundedIfCertain(toScale: scale) == nil
        }

        /// Group `g`'s value, rounded to `scale` decimals: exact, using `exact` (its exact sum)
        /// where the approximation cannot settle the rounding.
        func value(_ g: Int, _ aggregate: Aggregate, converter: RowConverter?, exact: Fraction?, scale: Int) throws(QueryError) -> ExactDecimal? {
            let n = acc.counts[g]
            switch aggregate {
            case .count, .list:
                return nil
            case .sum, .avg:
                if aggregate == .avg && n == 0 { return nil }
                if acc.overflowed { throw QueryError(.overflow, at: nil) }
                let s = sum(g)
                var v = s
                if aggregate == .avg { v = v.divided(by: n) }
                if let r = v.roundedIfCertain(toScale: scale) { return r }
                guard var f = exact ?? (s.isExact ? Fraction(s.approximate) : nil) else {
                    throw QueryError(.overflow, at: nil)
                }
                if aggregate == .avg { f = f.divided(by: n) }
                guard let r = f.rounded(toScale: scale) else { throw QueryError(.overflow, at: nil) }
                return r
            case .min, .max:
                guard let e = aggregate == .max ? acc.extremes[g].max : acc.extremes[g].min else { return nil }
                return try Executor.round(e, converter: converter, scale: scale)
            }
        }
    }

    /// Rounds one row's converted value, exactly.
    static func round(_ e: RowPick, converter: RowConverter?, scale: Int) throws(QueryError) -> ExactDecimal {
        // Nearly always settled in 256 bits, with no BigInt made (a min or max of thousands of groups).
        if case let r?? = roundedIfCertain(e, converter: converter, scale: scale) { return r }
        if let converter, let error = converter.productError(amount: e.amount, id: e.id) {
            let bounded = BoundedValue(approximate: e.wide, error: error)
            if let r = bounded.roundedIfCertain(toScale: scale) { return r }
            guard let r = converter.exactValue(amount: e.amount, id: e.id).rounded(toScale: scale) else { throw QueryError(.overflow, at: nil) }
            return r
        }
        guard let r = e.wide.rounded(toScale: scale) else { throw QueryError(.overflow, at: nil) }
        return r
    }

    /// One row's converted value rounded half-even to `scale` from its 256-bit product, as a
    /// group's sum is (`SumReader.roundedSum`): at a quotient rate, within the product's error,
    /// |amount| × ½ unit of the factor's last place (at one more decimal than the pick, 5 ×
    /// |amount|, times the power of ten a shared slot scaled the factor by). `.some(nil)` when
    /// the error leaves the rounding in doubt; nil when 256 bits cannot tell.
    static func roundedIfCertain(_ e: RowPick, converter: RowConverter?, scale: Int) -> ExactDecimal?? {
        var error = Int256.zero
        if let converter, e.id >= 0, !converter.factorIsExact[Int(e.id)] {
            let shift = e.scale - (converter.amountScale + converter.factorScale[Int(e.id)])
            guard shift >= 0, e.amount != .min, let x = Int256(e.amount < 0 ? -e.amount : e.amount, times: 5).timesPowerOfTen(shift) else { return nil }
            error = x
        }
        return BoundedValue.roundedIfCertain(e.value, scale: e.scale, error: error, toScale: scale)
    }

    /// What the pass of `aggregate` carries from row to row (passed `inout`, never captured,
    /// so the inner loop needs no run-time exclusivity checks).
    struct ScanState {
        var groups: Grouper
        var acc: Accumulators
        var tally: ConversionTally
        let slots: SumSlots
        /// In a split view, for min and max, the entry of each row: its parts in one group are picked as one.
        var entryOfRow: StoreColumn<UInt32>? = nil

        /// Adds one row's converted value to group 0 and to the row's groups.
        @inline(__always)
        mutating func feed(_ row: Int, _ value: Int128, _ product: Int256, scale: Int, slot: Int, id: Int32) {
            let inexact = slots.inexact[slot]
            acc.add(0, slot: slot, product, amount: value, inexact: inexact)
            let pick = acc.keepsExtremes ? RowPick(row: row, amount: value, id: id, value: product, scale: scale) : nil
            let entry = pick == nil ? nil : entryOfRow?[row]
            if let pick { acc.pick(0, pick, entry: entry) }
            let n = groups.find(row)
            for i in 0..<n {
                let g = groups.found(i)
                if g == acc.groupCount { acc.addGroup() }
                acc.add(g, slot: slot, product, amount: value, inexact: inexact)
                if let pick { acc.pick(g, pick, entry: entry) }
            }
        }

        @inline(__always)
        mutating func count(_ row: Int) {
            acc.count(0)
            let n = groups.find(row)
            for i in 0..<n {
                let g = groups.found(i)
                if g == acc.groupCount { acc.addGroup() }
                acc.count(g)
            }
        }

        /// In a split view: counts an entry once per group however many of its parts are there
        /// (its parts are adjacent rows; `last` holds the entry each group counted last).
        mutating func countEntry(_ row: Int, entry: UInt32, last: inout [UInt32?]) {
            if last[0] != entry { acc.count(0); last[0] = entry }
            let n = groups.find(row)
            for i in 0..<n {
                let g = groups.found(i)
                if g == acc.groupCount { acc.addGroup() }
                while last.count <= g { last.append(nil) }
                if last[g] != entry { acc.count(g); last[g] = entry }
            }
        }
    }

    /// One pass: subject, filter, groups, accumulators, and the tally of rates.
    func aggregate(_ plan: Plan, keys: [GroupKey], converter: RowConverter?) throws(QueryError) -> Scan {
        let slots = SumSlots(converter: converter, store: store)
        var state = ScanState(groups: Grouper(keys: keys, ledger: ledger),
                              acc: Accumulators(slots: slots, extremes: plan.aggregate == .min || plan.aggregate == .max),
                              tally: converter.map(ConversionTally.init) ?? .none, slots: slots)
        state.acc.addGroup()   // group 0: the whole statement
        if state.acc.keepsExtremes && ledger.isSplitView { state.entryOfRow = store.entryID }
        let flip = plan.subject == .expenses
        let amounts = store.amount
        let days = store.day
        let amountScale = store.amountScale

        var filterTally: ConversionTally?
        if plan.aggregate == .count && ledger.isSplitView {
            filterTally = try countEntries(plan, converter: converter, into: &state)
        } else if plan.aggregate == .count {
            filterTally = try forEachRow(plan, converter: converter, state: &state) { row, state throws(QueryError) in state.count(row) }
        } else if let converter {
            try forEachRow(plan, converter: converter, state: &state) { row, state throws(QueryError) in
                let value = flip ? -amounts[row] : amounts[row]
                let id = converter.id(row)
                state.tally.count(id, day: days[row])
                // No rate: the statement fails after the scan.
                guard let (product, scale) = converter.product(row, id: id, amount: value, negate: flip) else { return }
                state.feed(row, value, product, scale: scale, slot: id >= 0 ? slots.ofRate[Int(id)] : slots.ofExactScale[scale], id: id)
            }
        } else {
            // In native: every amount as it is.
            let slot = slots.same
            try forEachRow(plan, converter: nil, state: &state) { row, state throws(QueryError) in
                let value = flip ? -amounts[row] : amounts[row]
                state.feed(row, value, Int256(value), scale: amountScale, slot: slot, id: RateColumn.same)
            }
        }
        state.acc.closeEntries()
        if (plan.aggregate == .avg || plan.ranksByEntryCount) && ledger.isSplitView && plan.aggregate != .count {
            // An average divides by the entries, not by the parts of split entries, and `order by
            // count` ranks by them: a second pass over the same rows, in the same order, numbers
            // the same groups and counts each entry once in each.
            var entriesState = ScanState(groups: Grouper(keys: keys, ledger: ledger), acc: Accumulators(slots: slots, extremes: false),
                                         tally: .none, slots: slots)
            entriesState.acc.addGroup()
            _ = try countEntries(plan, converter: converter, into: &entriesState)
            state.acc.takeCounts(of: entriesState.acc)
        }
        return Scan(groups: state.groups, acc: state.acc, tally: state.tally, filterTally: filterTally)
    }

    /// A split view's rows counted as entries: each entry once per group, however many of its
    /// parts are there. Returns the tally of a `where amount …` filter's rates.
    func countEntries(_ plan: Plan, converter: RowConverter?, into state: inout ScanState) throws(QueryError) -> ConversionTally? {
        var last: [UInt32?] = [nil]
        let entries = store.entryID
        return try forEachRow(plan, converter: converter, state: &state) { row, state throws(QueryError) in
            state.countEntry(row, entry: entries[row], last: &last)
        }
    }

    /// The exact sums of some groups (and group 0, the whole statement), from a second pass
    /// that keeps each quotient rate's native sum apart: the rare case of a rounding the
    /// approximation cannot settle.
    func exactSums(_ plan: Plan, keys: [GroupKey], converter: RowConverter?, groups wanted: Set<Int>, scan: Scan) throws(QueryError) -> [Int: Fraction] {
        guard let converter else { return [:] }
        struct State {
            var groups: Grouper
            var native: [Int: [Int32: WideSum]] = [:]
        }
        var state = State(groups: Grouper(keys: keys, ledger: ledger))
        // The wanted groups by their keys: a few, nearly always, of a scan's hundreds of thousands
        // (indexing all of them cost more than this pass).
        var wantedOf: [GroupCodes: Int] = [:]
        for g in wanted where g > 0 { wantedOf[scan.groups.key(g)] = g }
        let flip = plan.subject == .expenses
        let amounts = store.amount
        let masks = wanted.contains(0) ? nil : codeMasks(wanted, keys: keys, scan: scan)
        let (currencies, days) = (store.currency, store.day)
        try forEachRow(plan, rows: rowsHolding(wanted, plan, keys: keys, scan: scan), converter: converter, state: &state) { row, state throws(QueryError) in
            // A row whose code of a key no wanted group has is in none of them.
            if masks?.passes(row, currency: currencies, day: days) == false { return }
            let id = converter.id(row)
            guard id >= 0, !converter.factorIsExact[Int(id)] else { return }
            let value = flip ? -amounts[row] : amounts[row]
            if wanted.contains(0) { state.native[0, default: [:]][id, default: WideSum()].add(value) }
            // Groups are found afresh and matched to the scan's by their keys.
            for i in 0..<state.groups.find(row) {
                guard let g = wantedOf[state.groups.key(state.groups.found(i))] else { continue }
                state.native[g, default: [:]][id, default: WideSum()].add(value)
            }
        }
        let native = state.native
        var result: [Int: Fraction] = [:]
        for g in wanted {
            // The exact parts as summed, then each quotient rate's native sum times the exact rate.
            var f = Fraction(scan.acc.exactPart(g))
            for (id, sum) in native[g] ?? [:] {
                f = f + converter.rates[Int(id)].resolved.rate.converted(sum.value, scale: store.amountScale)
            }
            result[g] = f
        }
        return result
    }

    /// For each key read from a code column (category, book, party, payment), the codes the
    /// `wanted` groups have: a row of another code is in none of them. Few doubtful groups of a
    /// big grouping then cost one test a row, not the finding of its groups.
    func codeMasks(_ wanted: Set<Int>, keys: [GroupKey], scan: Scan) -> MaskFilter {
        var masks: [(column: StoreColumn<UInt32>, mask: [Bool])] = []
        // `top category` groups by a category's root, not by the row's own code.
        for (k, key) in keys.enumerated() where key != .topCategory {
            guard let c = key.codeColumn, let column = store.codes(c) else { continue }
            let codes = wanted.map { Int(scan.groups.key($0)[k]) }
            var mask = [Bool](repeating: false, count: (codes.max() ?? -1) + 1)
            for code in codes { mask[code] = true }
            masks.append((column, mask))
        }
        return MaskFilter(codes: masks)
    }

    /// The plan's rows that can hold the entries of `wanted` groups: with a period among the keys,
    /// only those in the groups' periods (a few doubtful groups of a big grouping are worked out
    /// exactly without reading every row); nil for all the plan's rows.
    func rowsHolding(_ wanted: Set<Int>, _ plan: Plan, keys: [GroupKey], scan: Scan) -> DenseRows? {
        guard !wanted.contains(0), let k = keys.firstIndex(where: \.isPeriod), let unit = keys[k].periodUnit else { return nil }
        let spans = wanted.map { g -> Range<Int> in
            let p = Period(unit: unit, code: Int32(bitPattern: scan.groups.key(g)[k]))
            return store.firstRow(onOrAfter: p.days.first)..<store.firstRow(onOrAfter: p.days.last.advanced(by: 1))
        }.sorted { $0.lowerBound < $1.lowerBound }
        // The spans joined where they meet (groups of one period share theirs).
        var joined: [Range<Int>] = []
        for span in spans {
            if let last = joined.last, span.lowerBound <= last.upperBound {
                joined[joined.count - 1] = last.lowerBound..<max(last.upperBound, span.upperBound)
            } else {
                joined.append(span)
            }
        }
        if plan.index != nil, case .list(let listed) = planRows(plan) { return .list(listed.filter { row in joined.contains { $0.contains(row) } }) }
        return .list(joined.flatMap { Array($0.clamped(to: plan.rows)) })
    }

    // MARK: Rows

    /// Calls `body` for each row of the plan that passes the subject and the filter, in row (date) order.
    /// `amount` conditions compare the amount as the result shows it: converted into the target
    /// currency (or native `in native`), so `where amount > 1000` in INR means above ₹1,000.
    /// Returns the tally of the rates the amount filter converted at (nil without one).
    @discardableResult
    func forEachRow<State>(_ plan: Plan, rows: DenseRows? = nil, converter: RowConverter?, state: inout State,
                           _ body: (Int, inout State) throws(QueryError) -> Void) throws(QueryError) -> ConversionTally? {
        let amounts = plan.filter?.testsAmount == true ? (converter ?? self.converter(plan)) : nil
        var filterTally = amounts.map(ConversionTally.init)
        let flip = plan.subject == .expenses
        let subject = SubjectTest(plan.subject, store: store)
        let filter = plan.filter.map { RowFilter($0, store: store, amounts: amounts) }
        // Checked every 64k rows: Ctrl-C stops a long scan.
        let stride = 1 << 16
        switch rows ?? planRows(plan) {
        case .list(let list):
            for (k, row) in list.enumerated() {
                if k & (stride - 1) == stride - 1, isCancelled() { throw QueryError(.cancelled, at: nil) }
                guard subject.passes(row) else { continue }
                if filter?.passes(row, flip: flip, tally: &filterTally) == false { continue }
                try body(row, &state)
            }
        case .range(let range):
            for row in range {
                if row & (stride - 1) == stride - 1, isCancelled() { throw QueryError(.cancelled, at: nil) }
                guard subject.passes(row) else { continue }
                if filter?.passes(row, flip: flip, tally: &filterTally) == false { continue }
                try body(row, &state)
            }
        }
        if let amounts, let filterTally { _ = try outcome(amounts, filterTally) }
        return filterTally
    }

    /// The rows a plan visits: a day range, or the rows of its posting lists.
    func planRows(_ plan: Plan) -> DenseRows {
        plan.index.map { .list(indexRows($0, plan.rows)) } ?? .range(plan.rows)
    }

    /// Runs `work` on each of `parts` pieces at once (one per processor) and returns their
    /// results in order; the first error any piece met is thrown.
    func inParts<T>(_ parts: Int, _ work: @Sendable @escaping (Int) throws(QueryError) -> T) throws(QueryError) -> [T] {
        let results = (0..<parts).map { _ in Slot<Result<T, QueryError>>() }
        let job: @Sendable (Int) -> Void = { k in
            do throws(QueryError) { results[k].value = .success(try work(k)) } catch { results[k].value = .failure(error) }
        }
        if parts == 1 { job(0) } else { DispatchQueue.concurrentPerform(iterations: parts, execute: job) }
        var out: [T] = []
        for r in results {
            switch r.value {
            case .success(let v)?: out.append(v)
            case .failure(let e)?: throw e
            case nil: throw QueryError(.cancelled, at: nil)
            }
        }
        return out
    }


    /// From this many, work over groups is shared by two threads, half each (`mapInHalves`,
    /// `DensePartial.wholeFromGroups`).
    static let halvesFrom = 2048

    /// `transform` of each of 0..<count, in order: the two halves at once when there are many
    /// and a second processor (each half written in place by its own thread). `transform` only reads.
    static func mapInHalves<T>(_ count: Int, _ transform: @escaping (Int) -> T) -> [T] {
        fillInHalves(count) { range, base in
            for i in range { (base + i).initialize(to: transform(i)) }
        }
    }

    /// An array of `count` values, `fill` initializing those of a range of places from the
    /// array's start: in one call, or, when there are many and a second processor, in two at
    /// once, a half each (written in place: no copy of the halves into one array). A caller's
    /// own loop inside `fill`, rather than a function called for each value, lets reads that
    /// miss the cache overlap. `fill` only reads what it captures.
    static func fillInHalves<T>(_ count: Int, _ fill: @escaping (Range<Int>, UnsafeMutablePointer<T>) -> Void) -> [T] {
        [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            guard let start = buffer.baseAddress else { return }
            if count >= halvesFrom && onlineProcessors > 1 {
                let (job, out) = (ReadOnly(fill), ReadOnly(start))
                DispatchQueue.concurrentPerform(iterations: 2) { k in job.value(count * k / 2..<count * (k + 1) / 2, out.value) }
            } else {
                fill(0..<count, start)
            }
            initialized = count
        }
    }

    /// Rows of the posting lists of `index.codes` inside `range`, ascending.
    func indexRows(_ index: IndexAccess, _ range: Range<Int>) -> [Int] {
        let postings: PostingIndex
        switch index.column {
        case .category: postings = store.byCategory
        case .book: postings = store.byBook
        case .currency: postings = store.byCurrency
        }
        var rows: [Int] = []
        rows.reserveCapacity(index.rowCount)
        for c in index.codes {
            let list = postings.rows(for: Int(c))
            let lo = PostingIndex.lowerBound(list, UInt32(range.lowerBound))
            let hi = PostingIndex.lowerBound(list, UInt32(range.upperBound))
            for k in lo..<hi { rows.append(Int(list[k])) }
        }
        if index.codes.count > 1 { rows.sort() }
        return rows
    }

    /// Whether a row is of a statement's subject, with the columns that tell taken out of the
    /// store once (read through the store, each was a reference counted at every row).
    struct SubjectTest {
        let subject: Subject
        let amount: StoreColumn<Int128>, entrySign: StoreColumn<Int8>, isTransfer: StoreColumn<Bool>

        init(_ subject: Subject, store: EntryStore) {
            self.subject = subject
            (amount, entrySign, isTransfer) = (store.amount, store.entrySign, store.isTransfer)
        }

        @inline(__always)
        func passes(_ row: Int) -> Bool {
            // A part of a split entry is an expense or an income by its entry's sign (`EntryStore.entrySign(at:)`).
            switch subject {
            case .expenses: return (entrySign.isEmpty ? amount[row] < 0 : entrySign[row] < 0) && !isTransfer[row]
            case .income: return (entrySign.isEmpty ? amount[row] > 0 : entrySign[row] > 0) && !isTransfer[row]
            case .transfers: return isTransfer[row]
            case .entries: return true
            }
        }
    }

    // MARK: Helpers

    /// After a scan: a missing or unusable rate fails the statement; otherwise the conversion's warnings.
    func outcome(_ converter: RowConverter?, _ tally: ConversionTally) throws(QueryError) -> [String] {
        guard let converter else { return [] }
        return try Executor.outcome(converter, tally)
    }

    /// After the rows of a statement were counted by rate (here, or by a database engine): a
    /// missing or unusable rate fails the statement; otherwise the conversion's warnings.
    public static func outcome(_ converter: some ConversionRates, _ tally: ConversionTally) throws(QueryError) -> [String] {
        let missing = tally.missingRates(converter)
        if !missing.isEmpty { throw QueryError(.missingRates(missing, target: converter.target), at: nil) }
        if let limit = converter.agePolicy.maxAgeDays, case let old = tally.tooOldRates(converter), !old.isEmpty {
            throw QueryError(.ratesTooOld(old, maxAgeDays: limit, target: converter.target), at: nil)
        }
        if tally.unusable > 0 { throw QueryError(.overflow, at: nil) }
        return tally.warnings(converter)
    }

    /// Where the rates came from, for `explain`.
    public static func rateNotes(_ converter: some ConversionRates, _ p: Provenance) -> [String] {
        var notes: [String] = []
        func line(_ n: Int, _ what: String) { if n > 0 { notes.append("\(n) \(n == 1 ? "entry" : "entries") \(what)") } }
        line(p.unconverted, "already in \(converter.target.code)")
        line(p.whatIf, "at what-if rates")
        line(p.bookedNormalized, "at their booked normalizedAmount")
        line(p.bookedConversionRate, "at their booked conversionRate")
        line(p.bookedLocked, "at their book's locked rate")
        line(p.custom, "at custom rates")
        if p.market > 0 {
            var m = "\(p.market) \(p.market == 1 ? "entry" : "entries") at market rates"
            if let a = p.oldestMarketDay, let b = p.newestMarketDay { m += a == b ? " of \(a)" : " dated \(a)..\(b)" }
            notes.append(m)
        }
        if p.staleMarket > 0 {
            notes.append("\(p.staleMarket) \(p.staleMarket == 1 ? "entry" : "entries") at market rates more than 7 days old"
                         + (p.oldestMarketAgeInDays.map { " (the oldest \($0) days)" } ?? ""))
        }
        return notes
    }
}

/// A value two threads only read at once.
final class ReadOnly<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}

extension WideDecimal {
    /// The quotient by a count, to `quotientScale` decimals (an average).
    func divided(by n: Int) -> WideDecimal {
        let s = max(scale, WideDecimal.quotientScale)
        let v = rescaled(to: s)
        return WideDecimal(WideDecimal.divideHalfEven(v.significand, BigInt(n)), scale: s)
    }
}

extension BoundedValue {
    /// The quotient by a count (an average): the error shrinks with it, and the division's own
    /// rounding adds half a unit of its last place.
    func divided(by n: Int) -> BoundedValue {
        let q = approximate.divided(by: n)
        let e = isExact ? WideDecimal.zero : error.divided(by: n)
        return BoundedValue(approximate: q, error: e + WideDecimal(BigInt(1), scale: q.scale))
    }
}
