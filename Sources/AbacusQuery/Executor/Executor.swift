// The executor: a `Plan` → a `ResultSet`.
//
// One pass over the planned row range. Each row passes the subject filter, finds
// its group (codes of the group keys packed into a SIMD4 key; a row with two
// tags lands in two groups), and adds its amount to the group's `ConvertedSum`
// along the route the `Converter` chose. After the pass every group is converted
// once per rate, rounded once (half-even, to the target's minor unit), and the
// groups are sorted by their keys. A rate that is missing for any row fails the
// whole statement with the pairs and counts.

import AbacusCore
import BigInt

public enum ResultValue: Sendable, Equatable {
    case money(ExactDecimal, Currency)
    case count(Int)
}

public struct ResultRow: Sendable, Equatable {
    public var keys: [String]
    public var value: ResultValue
    public init(keys: [String], value: ResultValue) { self.keys = keys; self.value = value }
}

public struct ResultSet: Sendable {
    /// Group key names then `amount` or `count`.
    public var columns: [String]
    public var rows: [ResultRow]
    /// Total rows, one per currency (several only `in native`, where the currency
    /// column names it); empty when ungrouped.
    public var totals: [ResultRow]
    /// The currency of the amounts; nil for counts and `in native`.
    public var currency: Currency?
    public var warnings: [String]
    public var provenance: Provenance?

    public var keyCount: Int { columns.count - 1 }

    public init(columns: [String], rows: [ResultRow], totals: [ResultRow], currency: Currency?,
                warnings: [String], provenance: Provenance?) {
        self.columns = columns
        self.rows = rows
        self.totals = totals
        self.currency = currency
        self.warnings = warnings
        self.provenance = provenance
    }
}

public struct Executor {
    let ledger: Ledger
    let store: EntryStore
    let resolver: RateResolver

    public init(ledger: Ledger, resolver: RateResolver) {
        self.ledger = ledger
        self.store = ledger.entries
        self.resolver = resolver
    }

    public func run(_ plan: Plan) throws(QueryError) -> ResultSet {
        var keys = plan.groupBy
        if plan.target == nil && !keys.contains(.currency) { keys.append(.currency) }
        if keys.count > 4 { throw QueryError(.tooManyGroupKeys(keys.count), at: nil) }
        let converting = plan.aggregate == .sum && plan.target != nil
        let converter = plan.target.map { Converter(ledger: ledger, resolver: resolver, target: $0, valuation: plan.valuation) }

        var groupOf: [SIMD4<UInt32>: Int] = [:]
        var groupKeys: [SIMD4<UInt32>] = []
        var sums: [ConvertedSum] = []
        var natives: [WideSum] = []
        var counts: [Int] = []

        let flip = plan.subject == .expenses
        let tagIndex = keys.firstIndex(of: .tag)
        var dayCache: (day: Int32, codes: SIMD4<UInt32>) = (.min, .zero)
        let periodKeys = keys.enumerated().filter { $0.element.isPeriod }

        for row in plan.rows {
            let a = store.amount[row]
            switch plan.subject {
            case .expenses: if a >= 0 || store.isTransfer[row] { continue }
            case .income: if a <= 0 || store.isTransfer[row] { continue }
            case .transfers: if !store.isTransfer[row] { continue }
            case .entries: break
            }
            var key = SIMD4<UInt32>.zero
            if !periodKeys.isEmpty {
                let d = store.day[row]
                if d != dayCache.day {
                    var codes = SIMD4<UInt32>.zero
                    for (i, k) in periodKeys { codes[i] = Executor.periodCode(k, Day(number: d)) }
                    dayCache = (d, codes)
                }
                key = dayCache.codes
            }
            for (i, k) in keys.enumerated() where !k.isPeriod && k != .tag {
                key[i] = code(k, row)
            }
            var route: Converter.Route = .same
            if converting, let converter { route = converter.route(row) }
            let value = flip ? -a : a

            // Each tag of the row is a group of its own; no tags is the group "(none)".
            let tags = tagIndex != nil ? store.tags(at: row) : []
            var t = tags.startIndex
            repeat {
                if let tagIndex { key[tagIndex] = t < tags.endIndex ? tags[t] + 1 : 0 }
                let g: Int
                if let found = groupOf[key] {
                    g = found
                } else {
                    g = groupKeys.count
                    groupOf[key] = g
                    groupKeys.append(key)
                    sums.append(ConvertedSum())
                    natives.append(WideSum())
                    counts.append(0)
                }
                counts[g] += 1
                if converting {
                    switch route {
                    case .same: sums[g].addExact(value, scale: store.amountScale)
                    case .normalized(let n): sums[g].addExact(flip ? -n.significand : n.significand, scale: n.scale)
                    case .product(let r):
                        let (p, o) = value.multipliedReportingOverflow(by: r.significand)
                        if o { throw QueryError(.overflow, at: nil) }
                        sums[g].addExact(p, scale: store.amountScale + r.scale)
                    case .rate(let id): sums[g].addNative(value, rate: id)
                    case .missing: break
                    }
                } else {
                    natives[g].add(value)
                }
                t += 1
            } while t < tags.endIndex
        }

        var warnings: [String] = []
        if let converter, converting {
            let missing = converter.missingRates
            if !missing.isEmpty, let target = plan.target { throw QueryError(.missingRates(missing, target: target), at: nil) }
            for late in converter.lateRateUses {
                warnings.append("no market rate for \(late.pair) on or before \(late.firstEntryDay); used the oldest, dated \(late.sourceDay), for \(late.entries) \(late.entries == 1 ? "entry" : "entries")")
            }
        }

        // Values per group, then the totals (from exact values, rounded once).
        var rows: [(key: SIMD4<UInt32>, row: ResultRow)] = []
        var totals: [ResultValue] = []
        var totalCurrencies: [Currency?] = []
        let columns = keys.map(\.rawValue) + [plan.aggregate == .count ? "count" : "amount"]
        if plan.aggregate == .count {
            for (g, key) in groupKeys.enumerated() {
                rows.append((key, ResultRow(keys: labels(key, keys), value: .count(counts[g]))))
            }
            totals = [.count(countRows(plan))]
        } else if let target = plan.target, let converter {
            var total = WideDecimal.zero
            for (g, key) in groupKeys.enumerated() {
                let exact = sums[g].total(with: converter)
                total = total + exact
                rows.append((key, ResultRow(keys: labels(key, keys), value: .money(try round(exact, target), target))))
            }
            // An entry with two tags is in two groups: the total counts it once.
            if tagIndex != nil { total = try exactTotal(plan, converter: converter) }
            totals = [.money(try round(total, target), target)]
        } else {
            // in native: a total per currency.
            var perCurrency: [Currency: BigInt] = [:]
            let currencyIndex = keys.firstIndex(of: .currency) ?? 0
            for (g, key) in groupKeys.enumerated() {
                let c = Currency(packed: UInt16(key[currencyIndex]))
                let v = WideDecimal(natives[g].value, scale: store.amountScale)
                rows.append((key, ResultRow(keys: labels(key, keys), value: .money(try round(v, c), c))))
            }
            if tagIndex == nil {
                for (g, key) in groupKeys.enumerated() {
                    perCurrency[Currency(packed: UInt16(key[currencyIndex])), default: 0] += natives[g].value
                }
            } else {
                for row in plan.rows where passes(plan.subject, row) {
                    perCurrency[store.currency[row], default: 0] += BigInt(plan.subject == .expenses ? -store.amount[row] : store.amount[row])
                }
            }
            for c in perCurrency.keys.sorted() {
                totals.append(.money(try round(WideDecimal(perCurrency[c] ?? 0, scale: store.amountScale), c), c))
                totalCurrencies.append(c)
            }
        }
        // An ungrouped statement over no rows still answers: 0 (SQL's count(*) does too).
        if keys.isEmpty && rows.isEmpty {
            if plan.aggregate == .count {
                rows.append((.zero, ResultRow(keys: [], value: .count(0))))
            } else if let target = plan.target {
                rows.append((.zero, ResultRow(keys: [], value: .money(.zero, target))))
            }
        }
        rows.sort { a, b in compareKeys(a.key, b.key, keys, a.row.keys, b.row.keys) }
        let totalRows: [ResultRow] = keys.isEmpty ? [] : totals.enumerated().map { i, value in
            var labels = ["Total"] + Array(repeating: "", count: keys.count - 1)
            if i < totalCurrencies.count, let c = totalCurrencies[i], let ci = keys.firstIndex(of: .currency), ci > 0 {
                labels[ci] = c.code
            }
            return ResultRow(keys: labels, value: value)
        }
        return ResultSet(columns: columns, rows: rows.map(\.row), totals: totalRows,
                         currency: plan.aggregate == .count ? nil : plan.target, warnings: warnings,
                         provenance: converter?.provenance)
    }

    func passes(_ subject: Subject, _ row: Int) -> Bool {
        let a = store.amount[row]
        switch subject {
        case .expenses: return a < 0 && !store.isTransfer[row]
        case .income: return a > 0 && !store.isTransfer[row]
        case .transfers: return store.isTransfer[row]
        case .entries: return true
        }
    }

    /// Rows matching the subject, each counted once.
    func countRows(_ plan: Plan) -> Int {
        var n = 0
        for row in plan.rows where passes(plan.subject, row) { n += 1 }
        return n
    }

    /// The converted total with each entry once (used when tags repeat entries across groups).
    func exactTotal(_ plan: Plan, converter: Converter) throws(QueryError) -> WideDecimal {
        var sum = ConvertedSum()
        let flip = plan.subject == .expenses
        for row in plan.rows where passes(plan.subject, row) {
            let value = flip ? -store.amount[row] : store.amount[row]
            switch converter.route(row) {
            case .same: sum.addExact(value, scale: store.amountScale)
            case .normalized(let n): sum.addExact(flip ? -n.significand : n.significand, scale: n.scale)
            case .product(let r):
                let (p, o) = value.multipliedReportingOverflow(by: r.significand)
                if o { throw QueryError(.overflow, at: nil) }
                sum.addExact(p, scale: store.amountScale + r.scale)
            case .rate(let id): sum.addNative(value, rate: id)
            case .missing: break
            }
        }
        return sum.total(with: converter)
    }

    func round(_ v: WideDecimal, _ c: Currency) throws(QueryError) -> ExactDecimal {
        guard let r = v.rounded(toScale: c.minorUnits) else { throw QueryError(.overflow, at: nil) }
        return r
    }

    @inline(__always)
    func code(_ k: GroupKey, _ row: Int) -> UInt32 {
        switch k {
        case .category: return store.category[row]
        case .book: return store.book[row]
        case .party: return store.party[row]
        case .payment: return store.payment[row]
        case .currency: return UInt32(store.currency[row].packed)
        case .tag, .day, .week, .month, .quarter, .year: return 0
        }
    }

    static func periodCode(_ k: GroupKey, _ d: Day) -> UInt32 {
        let (y, m, _) = d.civil
        switch k {
        case .day: return UInt32(bitPattern: d.number)
        case .week: let w = d.isoWeek; return UInt32(w.year * 100 + w.week)
        case .month: return UInt32(y * 12 + m - 1)
        case .quarter: return UInt32(y * 4 + (m - 1) / 3)
        case .year: return UInt32(y)
        default: return 0
        }
    }

    func labels(_ key: SIMD4<UInt32>, _ keys: [GroupKey]) -> [String] {
        keys.enumerated().map { i, k in label(k, key[i]) }
    }

    public static let none = "(none)"

    func label(_ k: GroupKey, _ c: UInt32) -> String {
        switch k {
        case .category: return store.categories[Int(c)]
        case .book: return ledger.books[Int(c)].name
        case .party: return c == 0 ? Executor.none : store.parties[Int(c)]
        case .payment: return c == 0 ? Executor.none : store.payments[Int(c)]
        case .currency: return Currency(packed: UInt16(c)).code
        case .tag: return c == 0 ? Executor.none : store.tags[Int(c) - 1]
        case .day: return Day(number: Int32(bitPattern: c)).description
        case .week: return "\(c / 100)-W" + (c % 100 < 10 ? "0" : "") + "\(c % 100)"
        case .month: let m = c % 12 + 1; return "\(c / 12)-" + (m < 10 ? "0" : "") + "\(m)"
        case .quarter: return "\(c / 4)-Q\(c % 4 + 1)"
        case .year: return "\(c)"
        }
    }

    /// Ascending by each key in turn: periods chronologically, names alphabetically, "(none)" last.
    func compareKeys(_ a: SIMD4<UInt32>, _ b: SIMD4<UInt32>, _ keys: [GroupKey], _ la: [String], _ lb: [String]) -> Bool {
        for (i, k) in keys.enumerated() where a[i] != b[i] {
            if k.isPeriod {
                if k == .day { return Int32(bitPattern: a[i]) < Int32(bitPattern: b[i]) }
                return a[i] < b[i]
            }
            let noneA = la[i] == Executor.none && (k == .party || k == .payment || k == .tag) && a[i] == 0
            let noneB = lb[i] == Executor.none && (k == .party || k == .payment || k == .tag) && b[i] == 0
            if noneA != noneB { return noneB }
            let x = la[i].lowercased(), y = lb[i].lowercased()
            if x != y { return x < y }
            return la[i] < lb[i]
        }
        return false
    }
}
