// The executor: a `Plan` → a `ResultSet`.
//
// One pass over the planned rows (a day range of the store, or the union of
// posting lists inside it). Each row passes the subject filter and the compiled
// predicate, finds its group (the codes of the group keys packed into a SIMD4; a
// row with two tags lands in two groups) and feeds the group's accumulator along
// the route the `Converter` chose: its amount times the route's factor, added
// exactly. Min and max keep the extreme native amount per rate (a positive rate
// keeps order), so they need one conversion per rate, not per entry. Every value
// is rounded once, half-even, to the target's minor unit. A rate missing for any
// row fails the whole statement, naming pairs and counts.

import AbacusCore
import BigInt

public struct Executor {
    let ledger: Ledger
    let store: EntryStore
    let resolver: RateResolver
    /// For the staleness of `at latest`.
    let today: Day?
    let isCancelled: @Sendable () -> Bool

    public init(ledger: Ledger, resolver: RateResolver, today: Day? = nil, isCancelled: @escaping @Sendable () -> Bool = { false }) {
        self.ledger = ledger
        self.store = ledger.entries
        self.resolver = resolver
        self.today = today
        self.isCancelled = isCancelled
    }

    /// Per-group state.
    struct Group {
        var key: SIMD4<UInt32>
        var sum = ConvertedSum()
        var native = WideSum()
        var count = 0
        var extremes = Extremes()
    }

    /// Smallest and largest values of a group, per route.
    struct Extremes {
        var exactMin: ExactDecimal?
        var exactMax: ExactDecimal?
        /// Values too wide for 128 bits (a 38-digit amount times a 38-digit rate).
        var wideMin: WideDecimal?
        var wideMax: WideDecimal?
        var rateMin: [Int: Int128] = [:]
        var rateMax: [Int: Int128] = [:]

        mutating func add(_ v: ExactDecimal) {
            if exactMin.map({ v < $0 }) ?? true { exactMin = v }
            if exactMax.map({ v > $0 }) ?? true { exactMax = v }
        }

        mutating func add(_ v: WideDecimal) {
            if wideMin.map({ v < $0 }) ?? true { wideMin = v }
            if wideMax.map({ v > $0 }) ?? true { wideMax = v }
        }

        mutating func add(native a: Int128, rate id: Int) {
            if rateMin[id].map({ a < $0 }) ?? true { rateMin[id] = a }
            if rateMax[id].map({ a > $0 }) ?? true { rateMax[id] = a }
        }

        func extreme(_ max: Bool, converter: Converter?) -> WideDecimal? {
            var candidates: [WideDecimal] = []
            if let e = max ? exactMax : exactMin { candidates.append(WideDecimal(e)) }
            if let w = max ? wideMax : wideMin { candidates.append(w) }
            if let converter {
                for (id, a) in max ? rateMax : rateMin { candidates.append(converter.convert(nativeSum: BigInt(a), rate: id)) }
            }
            return max ? candidates.max(by: <) : candidates.min(by: <)
        }
    }

    public func run(_ plan: Plan) throws(QueryError) -> ResultSet {
        if plan.aggregate == .list { return try list(plan) }
        var keys = plan.groupBy
        if plan.target == nil && !keys.contains(.currency) { keys.append(.currency) }
        if keys.count > 4 { throw QueryError(.tooManyGroupKeys(keys.count), at: nil) }
        let converting = plan.aggregate != .count && plan.target != nil
        let converter = converting ? plan.target.map { Converter(ledger: ledger, resolver: resolver, target: $0, valuation: plan.valuation, whatIf: plan.whatIf, today: today) } : nil
        let wantsExtremes = plan.aggregate == .min || plan.aggregate == .max

        var groupOf: [SIMD4<UInt32>: Int] = [:]
        var groups: [Group] = []
        // The converter's factors, copied when it learns a new rate (a local array keeps the loop free of calls).
        var factors: [ExactDecimal] = []
        var single = Group(key: .zero)   // the one group of an ungrouped statement
        let grouped = !keys.isEmpty
        let flip = plan.subject == .expenses
        let tagIndex = keys.firstIndex(of: .tag)
        var dayCache: (day: Int32, codes: SIMD4<UInt32>) = (.min, .zero)
        let periodKeys = keys.enumerated().filter { $0.element.isPeriod }
        let codeKeys = keys.enumerated().filter { !$0.element.isPeriod && $0.element != .tag }
        var matched = 0
        let singleCodeKey: GroupKey? = keys.count == 1 && !keys[0].isPeriod && keys[0] != .tag ? keys[0] : nil
        var denseGroup = [Int32](repeating: -1, count: singleCodeKey.map(codeSpace) ?? 0)
        var dayGroup = -1

        try forEachRow(plan) { row throws(QueryError) in
            matched += 1
            let a = store.amount[row]
            let value = flip ? -a : a
            var route: Converter.Route = .same
            if let converter {
                route = converter.route(row)
                if case .rate = route, factors.count != converter.factors.count { factors = converter.factors }
            }

            func feed(_ g: inout Group) throws(QueryError) {
                g.count += 1
                guard plan.aggregate != .count else { return }
                guard let _ = converter else {
                    g.native.add(value)
                    if wantsExtremes { g.extremes.add(ExactDecimal(significand: value, scale: store.amountScale)) }
                    return
                }
                switch route {
                case .same:
                    g.sum.add(value, times: 1, scale: store.amountScale)
                    if wantsExtremes { g.extremes.add(ExactDecimal(significand: value, scale: store.amountScale)) }
                case .normalized(let n):
                    let v = flip ? -n.significand : n.significand
                    g.sum.add(v, times: 1, scale: n.scale)
                    if wantsExtremes { g.extremes.add(ExactDecimal(significand: v, scale: n.scale)) }
                case .product(let r):
                    g.sum.add(value, times: r.significand, scale: store.amountScale + r.scale)
                    if wantsExtremes {
                        let (p, o) = value.multipliedReportingOverflow(by: r.significand)
                        if o {
                            g.extremes.add(WideDecimal(BigInt(value) * BigInt(r.significand), scale: store.amountScale + r.scale))
                        } else {
                            g.extremes.add(ExactDecimal(significand: p, scale: store.amountScale + r.scale))
                        }
                    }
                case .rate(let id):
                    let f = factors[id]
                    g.sum.add(value, times: f.significand, scale: store.amountScale + f.scale)
                    if wantsExtremes { g.extremes.add(native: value, rate: id) }
                case .missing:
                    break
                }
            }

            guard grouped else { try feed(&single); return }
            // One key on a coded column: the code indexes the group directly.
            if let column = singleCodeKey {
                let c = Int(code(column, row))
                var g = Int(denseGroup[c])
                if g < 0 {
                    g = groups.count
                    denseGroup[c] = Int32(g)
                    var key = SIMD4<UInt32>.zero
                    key[0] = UInt32(c)
                    groups.append(Group(key: key))
                }
                try feed(&groups[g])
                return
            }
            var key = SIMD4<UInt32>.zero
            if !periodKeys.isEmpty {
                let d = store.day[row]
                if d != dayCache.day {
                    var codes = SIMD4<UInt32>.zero
                    for (i, k) in periodKeys { codes[i] = Executor.periodCode(k, Day(number: d)) }
                    dayCache = (d, codes)
                    dayGroup = -1
                }
                key = dayCache.codes
                // One period key: every row of a day is in the same group.
                if keys.count == 1, dayGroup >= 0 { try feed(&groups[dayGroup]); return }
            }
            for (i, k) in codeKeys { key[i] = code(k, row) }
            // Each tag of the row is a group of its own; no tags is the group "(none)".
            let tags = tagIndex != nil ? store.tags(at: row) : []
            var t = tags.startIndex
            repeat {
                if let tagIndex { key[tagIndex] = t < tags.endIndex ? tags[t] + 1 : 0 }
                let g: Int
                if let found = groupOf[key] {
                    g = found
                } else {
                    g = groups.count
                    groupOf[key] = g
                    groups.append(Group(key: key))
                }
                if keys.count == 1 && !periodKeys.isEmpty { dayGroup = g }
                try feed(&groups[g])
                t += 1
            } while t < tags.endIndex
        }

        let warnings = try conversionOutcome(converter, plan.target)

        // One value per group, exact until rounded here.
        let columns = keys.map(\.rawValue) + [plan.aggregate == .count ? "count" : "amount"]
        func exactValue(_ g: Group) throws(QueryError) -> WideDecimal? {
            switch plan.aggregate {
            case .count, .list: return nil
            case .sum:
                return try sumValue(g, converter)
            case .avg:
                guard g.count > 0 else { return nil }
                return try sumValue(g, converter).divided(by: g.count)
            case .min, .max:
                return g.extremes.extreme(plan.aggregate == .max, converter: converter)
            }
        }
        func currency(_ g: Group) -> Currency? {
            if let t = plan.target { return t }
            guard let ci = keys.firstIndex(of: .currency) else { return nil }
            return Currency(packed: UInt16(g.key[ci]))
        }
        func cell(_ g: Group, _ exact: WideDecimal?) throws(QueryError) -> Cell {
            if plan.aggregate == .count { return .count(g.count) }
            guard let exact, let c = currency(g) else { return .empty }
            return .money(try round(exact, c), c)
        }

        if !grouped {
            // An ungrouped statement over no rows still answers: 0 for sum and count, nothing for the others.
            let exact = single.count == 0 && plan.aggregate == .sum ? WideDecimal.zero : try exactValue(single)
            return ResultSet(columns: columns, rows: [[try cell(single, exact)]], currency: plan.aggregate == .count ? nil : plan.target,
                             warnings: warnings, provenance: converter?.provenance, rateNotes: converter.map(rateNotes) ?? [])
        }

        var results: [(group: Group, exact: WideDecimal?, labels: [String])] = []
        for g in groups { results.append((g, try exactValue(g), labels(g.key, keys))) }
        results.sort { a, b in compareKeys(a.group.key, b.group.key, keys, a.labels, b.labels) }
        if let order = plan.order {
            switch order.key {
            case .value:
                results.sort { a, b in
                    let less: Bool
                    if plan.aggregate == .count { less = a.group.count < b.group.count }
                    else if let x = a.exact, let y = b.exact { less = x < y }
                    else { less = a.exact == nil && b.exact != nil }
                    let greater: Bool
                    if plan.aggregate == .count { greater = a.group.count > b.group.count }
                    else if let x = a.exact, let y = b.exact { greater = y < x }
                    else { greater = a.exact != nil && b.exact == nil }
                    return order.descending ? greater : less
                }
            case .key(let k):
                if let i = keys.firstIndex(of: k) {
                    let ascending = { (a: (group: Group, exact: WideDecimal?, labels: [String]), b: (group: Group, exact: WideDecimal?, labels: [String])) -> Bool in
                        compareKeys(a.group.key, b.group.key, [k], [a.labels[i]], [b.labels[i]], onlyIndex: i)
                    }
                    results.sort { order.descending ? ascending($1, $0) : ascending($0, $1) }
                }
            case .date:
                break
            }
        }
        let shownAll = plan.top.map { $0 >= results.count } ?? true
        if let top = plan.top, top < results.count { results = Array(results.prefix(top)) }
        var rows: [[Cell]] = []
        for r in results { rows.append(r.labels.map(Cell.text) + [try cell(r.group, r.exact)]) }

        // Totals: over every matching entry once (tags can repeat an entry across groups), or over the rows shown after `top`.
        var totals: [[Cell]] = []
        // The last row aggregates everything shown: a total for sum and count, the overall value otherwise.
        let label = [Cell.text(plan.aggregate == .sum || plan.aggregate == .count ? "Total" : "Overall")]
            + Array(repeating: Cell.empty, count: keys.count - 1)
        if plan.aggregate == .count {
            // `matched` counts each entry once, however many tag groups it is in.
            let n = shownAll ? matched : results.reduce(0) { $0 + $1.group.count }
            totals = [label + [.count(n)]]
        } else if let target = plan.target {
            if let total = try overallValue(plan, results.map(\.group), shownAll: shownAll, converter: converter) {
                totals = [label + [.money(try round(total, target), target)]]
            }
        } else if let ci = keys.firstIndex(of: .currency) {
            var byCurrency: [Currency: [Group]] = [:]
            for r in results { byCurrency[Currency(packed: UInt16(r.group.key[ci])), default: []].append(r.group) }
            // With tags an entry sits in several groups: take each currency's value from the rows
            // themselves (the statement without its groups) so each entry counts once.
            var once: [Currency: WideDecimal] = [:]
            if tagIndex != nil && shownAll {
                var ungrouped = plan
                ungrouped.groupBy = []
                ungrouped.order = nil
                ungrouped.top = nil
                for row in try run(ungrouped).rows { if case .money(let v, let c)? = row.last { once[c] = WideDecimal(v) } }
            }
            for c in byCurrency.keys.sorted() {
                let value = tagIndex != nil && shownAll ? once[c] : try overallValue(plan, byCurrency[c] ?? [], shownAll: false, converter: nil)
                guard let total = value else { continue }
                var row = label
                if ci > 0 { row[ci] = .text(c.code) }
                totals.append(row + [.money(try round(total, c), c)])
            }
        }
        return ResultSet(columns: columns, rows: rows, totals: totals, currency: plan.aggregate == .count ? nil : plan.target,
                         warnings: warnings, provenance: converter?.provenance, rateNotes: converter.map(rateNotes) ?? [])
    }

    /// The total row's value: the aggregate over all the groups' entries.
    func overallValue(_ plan: Plan, _ groups: [Group], shownAll: Bool, converter: Converter?) throws(QueryError) -> WideDecimal? {
        let tagged = plan.groupBy.contains(.tag)
        if tagged && shownAll && converter != nil {
            // An entry with two tags sits in two groups: total it once, from the rows themselves.
            var one = plan
            one.groupBy = []
            one.order = nil
            one.top = nil
            let r = try run(one)
            if case .money(let v, _)? = r.rows.first?.last { return WideDecimal(v) }
            return nil
        }
        switch plan.aggregate {
        case .sum, .avg:
            var total = WideDecimal.zero
            var count = 0
            for g in groups {
                total = total + (try sumValue(g, converter))
                count += g.count
            }
            return plan.aggregate == .sum ? total : (count > 0 ? total.divided(by: count) : nil)
        case .min, .max:
            let values = groups.compactMap { $0.extremes.extreme(plan.aggregate == .max, converter: converter) }
            return plan.aggregate == .max ? values.max(by: <) : values.min(by: <)
        case .count, .list:
            return nil
        }
    }

    /// A group's exact sum: converted, or native (`in native`).
    func sumValue(_ g: Group, _ converter: Converter?) throws(QueryError) -> WideDecimal {
        guard converter != nil else { return WideDecimal(g.native.value, scale: store.amountScale) }
        guard let t = g.sum.total else { throw QueryError(.overflow, at: nil) }
        return t
    }

    // MARK: Rows

    /// Calls `body` for each row of the plan that passes the subject and the filter, in row (date) order.
    /// `amount` conditions compare the amount as the result shows it: converted into the target
    /// currency (or native `in native`), so `where amount > 1000` in INR means above ₹1,000.
    func forEachRow(_ plan: Plan, _ body: (Int) throws(QueryError) -> Void) throws(QueryError) {
        let amounts = plan.filter.map(Executor.testsAmount) == true
            ? plan.target.map { Converter(ledger: ledger, resolver: resolver, target: $0, valuation: plan.valuation, whatIf: plan.whatIf, today: today) }
            : nil
        let flip = plan.subject == .expenses
        var sinceCheck = 0
        func visit(_ row: Int) throws(QueryError) {
            sinceCheck &+= 1
            if sinceCheck & 0xFFFF == 0, isCancelled() { throw QueryError(.cancelled, at: nil) }
            guard passes(plan.subject, row) else { return }
            if let f = plan.filter, !evaluate(f, row, flip: flip, amounts: amounts) { return }
            try body(row)
        }
        if let index = plan.index {
            for row in indexRows(index, plan.rows) { try visit(row) }
        } else {
            for row in plan.rows { try visit(row) }
        }
        _ = try conversionOutcome(amounts, plan.target)
    }

    static func testsAmount(_ p: Predicate) -> Bool {
        switch p {
        case .amount: return true
        case .and(let ps), .or(let ps): return ps.contains(where: testsAmount)
        case .not(let q): return testsAmount(q)
        default: return false
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

    @inline(__always)
    func passes(_ subject: Subject, _ row: Int) -> Bool {
        let a = store.amount[row]
        switch subject {
        case .expenses: return a < 0 && !store.isTransfer[row]
        case .income: return a > 0 && !store.isTransfer[row]
        case .transfers: return store.isTransfer[row]
        case .entries: return true
        }
    }

    func evaluate(_ p: Predicate, _ row: Int, flip: Bool, amounts: Converter?) -> Bool {
        switch p {
        case .always(let b): return b
        case .code(let column, let mask):
            let c: Int
            switch column {
            case .category: c = Int(store.category[row])
            case .book: c = Int(store.book[row])
            case .party: c = Int(store.party[row])
            case .payment: c = Int(store.payment[row])
            case .currency: c = Int(store.currency[row].packed)
            case .remarks: c = Int(store.remarks[row])
            }
            return c < mask.count && mask[c]
        case .tags(let mask):
            let tags = store.tags(at: row)
            if tags.isEmpty { return mask[0] }
            for t in tags where Int(t) + 1 < mask.count && mask[Int(t) + 1] { return true }
            return false
        case .amount(let op, let x):
            let a = flip ? -store.amount[row] : store.amount[row]
            let order: Int
            if let amounts {
                guard let v = amounts.rowValue(row, amount: a, negate: flip) else { return false }
                let w = RowValue.exact(x)
                order = v < w ? -1 : (v == w ? 0 : 1)
            } else {
                let v = ExactDecimal(significand: a, scale: store.amountScale)
                order = v < x ? -1 : (v == x ? 0 : 1)
            }
            switch op {
            case .equal, .isIn: return order == 0
            case .notEqual, .notIn: return order != 0
            case .less: return order < 0
            case .lessOrEqual: return order <= 0
            case .greater: return order > 0
            case .greaterOrEqual: return order >= 0
            case .contains: return false
            }
        case .days(let r):
            let d = store.day[row]
            return d >= r.first.number && d <= r.last.number
        case .and(let ps):
            for q in ps where !evaluate(q, row, flip: flip, amounts: amounts) { return false }
            return true
        case .or(let ps):
            for q in ps where evaluate(q, row, flip: flip, amounts: amounts) { return true }
            return false
        case .not(let q):
            return !evaluate(q, row, flip: flip, amounts: amounts)
        }
    }

    // MARK: Helpers

    /// After a scan: a missing or unusable rate fails the statement; otherwise the converter's warnings.
    func conversionOutcome(_ converter: Converter?, _ target: Currency?) throws(QueryError) -> [String] {
        guard let converter, let target else { return [] }
        let missing = converter.missingRates
        if !missing.isEmpty { throw QueryError(.missingRates(missing, target: target), at: nil) }
        if converter.unrepresentable { throw QueryError(.overflow, at: nil) }
        return Executor.warnings(converter)
    }

    static func warnings(_ converter: Converter) -> [String] {
        converter.staleRates.map(\.warning) + converter.lateRateUses.map { late in
            "no market rate for \(late.pair) on or before \(late.firstEntryDay); used the oldest, dated \(late.sourceDay), for \(late.entries) \(late.entries == 1 ? "entry" : "entries")"
        }
    }

    /// Where the rates came from, for `explain`.
    func rateNotes(_ converter: Converter) -> [String] {
        let p = converter.provenance
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
        return notes
    }

    func round(_ v: WideDecimal, _ c: Currency) throws(QueryError) -> ExactDecimal {
        guard let r = v.rounded(toScale: c.minorUnits) else { throw QueryError(.overflow, at: nil) }
        return r
    }
}

extension WideDecimal {
    /// The quotient by a count, to `quotientScale` decimals (an average).
    func divided(by n: Int) -> WideDecimal {
        let s = max(scale, WideDecimal.quotientScale)
        let v = rescaled(to: s)
        return WideDecimal(WideDecimal.divideHalfEven(v.significand, BigInt(n)), scale: s)
    }
}
