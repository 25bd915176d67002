// The planner: a parsed query + the session → a `Plan` the executor can run.
//
// It resolves names against the ledger (currencies, categories, books, parties…,
// with the nearest existing names as suggestions when one is misspelt), resolves
// relative dates against `today`, and compiles the `where` condition into a
// `Predicate` over the store's columns: a test on a dictionary-encoded column
// becomes a mask over its codes, so each row costs one table lookup.
//
// Access path. Period clauses and top-level date conditions intersect into one
// day range, found with two binary searches on the date-sorted store. A
// top-level equality or `in` on category, book or currency can use that
// column's posting lists instead: the planner estimates the rows each would
// touch inside the day range and takes the smallest, when it is clearly fewer
// than a scan of the range. Anything else is a scan, and both paths give the
// same rows (a property test holds them to it). The plan prints as text:
// that is what `explain` shows.

import AbacusCore

public struct Plan: Sendable {
    /// Whether a predicate compares amounts (which are converted first).
    static func testsAmount(_ p: Predicate) -> Bool {
        switch p {
        case .amount, .amountIn: return true
        case .and(let ps), .or(let ps): return ps.contains(where: testsAmount)
        case .not(let q): return testsAmount(q)
        default: return false
        }
    }

    public var aggregate: Aggregate
    public var subject: Subject
    /// nil for `in native`.
    public var target: Currency?
    public var groupBy: [GroupKey]
    public var days: DayRange?
    /// Rows of the day range (the date index's answer).
    public var rows: Range<Int>
    /// A posting-list access instead of a scan of `rows`.
    public var index: IndexAccess?
    /// Conditions left for each row.
    public var filter: Predicate?
    public var filterText: [String]
    public var valuation: Valuation
    public var whatIf: [CurrencyPair: ExactDecimal]
    public var order: Order?
    public var top: Int?

    /// Groups rank by how many entries they hold, not by their value (`sum … order by count`):
    /// the order's key is `.value` and its direction applies as usual.
    public var ranksByEntryCount: Bool { order?.byEntryCount == true }

    /// `2025-10-01..2025-10-31`, `2025-10-01..` (open end), `..2025-03-31` (open start).
    static func describe(_ days: DayRange) -> String {
        (days.first.number == Int32.min ? "" : days.first.description) + ".." + (days.last.number == Int32.max ? "" : days.last.description)
    }

    /// The plan as indented text (what `explain` prints before the rates).
    public var description: String {
        var lines: [String] = []
        let target = aggregate == .count ? "" : (self.target.map { " in \($0.code)" } ?? " in native")
        lines.append("\(aggregate.rawValue) \(subject.rawValue)\(target)")
        if let index {
            lines.append("  SEARCH entries USING INDEX \(index.column.rawValue) (\(index.text)): \(index.rowCount) of \(rows.count) rows"
                         + (days.map { " in " + Plan.describe($0) } ?? ""))
        } else if let days {
            lines.append("  SEARCH entries USING INDEX date (\(Plan.describe(days))): rows \(rows.lowerBound)..<\(rows.upperBound), \(rows.count) rows")
        } else {
            lines.append("  SCAN entries: \(rows.count) rows")
        }
        switch subject {
        case .expenses: lines.append("  FILTER amount < 0 and not a transfer (expenses)")
        case .income: lines.append("  FILTER amount > 0 and not a transfer (income)")
        case .transfers: lines.append("  FILTER transfers")
        case .entries: break
        }
        for f in filterText { lines.append("  FILTER " + f) }
        if !groupBy.isEmpty { lines.append("  GROUP BY " + groupBy.map(\.rawValue).joined(separator: ", ")) }
        // A count converts nothing, unless its filter compares amounts (as shown in the target).
        let filterConverts = filter.map(Plan.testsAmount) ?? false
        if aggregate != .count || filterConverts {
            if let t = self.target {
                var line = "  CONVERT into \(t.code)" + (aggregate == .count ? " for the amount filter" : "") + ", \(valuation) valuation"
                if !whatIf.isEmpty {
                    line += ", with " + whatIf.keys.sorted { $0.description < $1.description }.map { "\($0) = \(whatIf[$0]?.description ?? "")" }.joined(separator: ", ")
                }
                lines.append(line)
            } else {
                lines.append("  NO CONVERSION (native currencies)")
            }
        }
        if let order { lines.append("  ORDER BY \(order.describe)") }
        if let top { lines.append("  TOP \(top)") }
        return lines.joined(separator: "\n")
    }
}

/// Rows from posting lists: the union of the lists of `codes`, restricted to the day range.
public struct IndexAccess: Sendable {
    public enum Column: String, Sendable { case category, book, currency }
    public var column: Column
    public var codes: [UInt32]
    public var text: String
    public var rowCount: Int
}

/// A compiled condition over one row.
public indirect enum Predicate: Sendable {
    case always(Bool)
    /// The row's code in `column` is set in `mask`.
    case code(CodeColumn, [Bool])
    /// One of the row's tags is set in `mask` (index = tag code + 1; 0 is "no tags").
    case tags([Bool])
    case amount(ComparisonOperator, ExactDecimal)
    /// The amount is one of these (sorted, distinct): `amount in (…)`, found by binary search
    /// however long the list.
    case amountIn([ExactDecimal])
    case days(DayRange)
    case and([Predicate])
    case or([Predicate])
    case not(Predicate)
}

public enum CodeColumn: String, Sendable {
    case category, book, party, payment, currency, remarks
}

extension Order {
    var describe: String {
        let k: String
        switch key {
        case .value: k = byEntryCount ? "count" : "value"
        case .date: k = "date"
        case .key(let g): k = g.rawValue
        }
        return k + (descending ? " desc" : " asc")
    }
}

public struct PlanContext: Sendable {
    public var ledger: Ledger
    public var today: Day
    public var defaultCurrency: Currency
    /// Off in tests that compare index and scan.
    public var useIndexes = true

    public init(ledger: Ledger, today: Day, defaultCurrency: Currency) {
        self.ledger = ledger
        self.today = today
        self.defaultCurrency = defaultCurrency
    }
}

public enum Planner {
    public static func plan(_ q: Query, in context: PlanContext) throws(QueryError) -> Plan {
        if q.groupBy.count > 4 { throw QueryError(.tooManyGroupKeys(q.groupBy.count), at: q.groupRange) }
        if q.aggregate == .list && !q.groupBy.isEmpty {
            throw QueryError(.listCannotGroup, at: q.groupRange)
        }
        let target: Currency?
        switch q.currency {
        case .native?: target = nil
        case .code(let c)?: target = c
        case nil: target = context.defaultCurrency
        }
        var order = q.order
        if let o = order { order = try checked(o, q, target: target) }

        // Day range: periods and top-level date conditions.
        var days: DayRange?
        var empty = false
        func intersect(_ lo: Day, _ hi: Day) {
            let current = days ?? DayRange(Day(number: Int32.min), Day(number: Int32.max))
            let merged = DayRange(max(current.first, lo), min(current.last, hi))
            if merged.first > merged.last { empty = true }
            days = merged
        }
        for p in q.periods {
            let r = resolve(p.date, today: context.today)
            switch p.kind {
            case .since: intersect(r.first, Day(number: Int32.max))
            case .until: intersect(Day(number: Int32.min), r.last)
            case .before: intersect(Day(number: Int32.min), Day(number: r.first.number - 1))
            case .on, .during: intersect(r.first, r.last)
            }
        }

        var compiler = ConditionCompiler(ledger: context.ledger, today: context.today, subject: q.subject)
        var conjuncts: [(Predicate, String, Comparison?)] = []
        if let c = q.condition {
            for part in flattenAnd(c) {
                // A top-level date comparison narrows the day range instead of filtering rows.
                if case .comparison(let cmp) = part, cmp.field == .date, let r = try compiler.dateBounds(cmp) {
                    intersect(r.first, r.last)
                    continue
                }
                conjuncts.append((try compiler.compile(part), compiler.text(part), { if case .comparison(let x) = part { return x }; return nil }()))
            }
        }

        let store = context.ledger.entries
        var rows = 0..<store.count
        if let days {
            let lo = store.firstRow(onOrAfter: days.first)
            let hi = days.last.number == Int32.max ? store.count : store.firstRow(onOrAfter: Day(number: days.last.number + 1))
            rows = empty ? lo..<lo : lo..<max(lo, hi)
        }

        // Posting lists: the most selective usable top-level conjunct, when clearly better than the scan.
        var index: IndexAccess?
        var chosen: Int?
        if context.useIndexes {
            for (i, part) in conjuncts.enumerated() {
                guard let cmp = part.2, let access = indexAccess(cmp, compiler: compiler, store: store, rows: rows) else { continue }
                if access.rowCount * 2 < rows.count, access.rowCount < (index?.rowCount ?? Int.max) {
                    index = access
                    chosen = i
                }
            }
        }
        var remaining = conjuncts
        if let chosen { remaining.remove(at: chosen) }
        let filter: Predicate? = remaining.isEmpty ? nil : (remaining.count == 1 ? remaining[0].0 : .and(remaining.map(\.0)))

        var whatIf: [CurrencyPair: ExactDecimal] = [:]
        for w in q.whatIf { whatIf[w.pair] = w.rate }
        let valuation: Valuation
        switch q.valuation {
        case nil: valuation = .booked
        case .market?: valuation = .market
        case .latest?: valuation = .latest
        case .asOf(let d)?: valuation = .asOf(resolve(d, today: context.today).last)
        }
        // `top N` ranks: without `order by`, the largest values come first.
        if order == nil, q.top != nil { order = Order(key: .value, descending: true, range: 0..<0) }
        return Plan(aggregate: q.aggregate, subject: q.subject, target: target, groupBy: q.groupBy,
                    days: days, rows: rows, index: index, filter: filter, filterText: remaining.map(\.1),
                    valuation: valuation, whatIf: whatIf, order: order, top: q.top)
    }

    /// An `order by` the result can follow. `amount` is the value of a money aggregate and
    /// `count` the number of entries (for `count`, the value itself); a grouped result orders
    /// by its own keys, a listing by the columns it shows.
    static func checked(_ order: Order, _ q: Query, target: Currency?) throws(QueryError) -> Order {
        var order = order
        switch (q.aggregate, order.key) {
        case (.count, .value):
            if !order.byEntryCount { throw QueryError(.countHasNoAmount, at: order.range) }
            order.byEntryCount = false
        case (.list, .value):
            if order.byEntryCount { throw QueryError(.listHasNoCount, at: order.range) }
        case (.list, .key(let k)):
            let columns: [GroupKey] = [.book, .category, .party] + (target == nil ? [.currency] : [])
            if !columns.contains(k) { throw QueryError(.listCannotOrder(by: k.rawValue), at: order.range) }
        case (_, .key(let k)):
            if !q.groupBy.contains(k) {
                throw QueryError(.notAGroupKey(k.rawValue), at: order.range)
            }
        case (.list, .date), (_, .value):
            break
        case (_, .date):
            throw QueryError(.dateOrderNeedsList, at: order.range)
        }
        return order
    }

    static func flattenAnd(_ c: Condition) -> [Condition] {
        if case .and(let terms) = c { return terms.flatMap(flattenAnd) }
        return [c]
    }

    /// A posting-list access for `category|book|currency = x` or `in (…)`, with its row estimate.
    static func indexAccess(_ cmp: Comparison, compiler: ConditionCompiler, store: EntryStore, rows: Range<Int>) -> IndexAccess? {
        guard cmp.op == .equal || cmp.op == .isIn else { return nil }
        let column: IndexAccess.Column
        let postings: PostingIndex
        switch cmp.field {
        case .category: column = .category; postings = store.byCategory
        case .book: column = .book; postings = store.byBook
        case .currency: column = .currency; postings = store.byCurrency
        default: return nil
        }
        // `in (Rent, Rent)` names one list once.
        guard let codes = (try? compiler.codes(cmp)).map({ Array(Set($0)).sorted() }) else { return nil }
        var count = 0
        for c in codes {
            let list = postings.rows(for: Int(c))
            count += PostingIndex.lowerBound(list, UInt32(rows.upperBound)) - PostingIndex.lowerBound(list, UInt32(rows.lowerBound))
        }
        return IndexAccess(column: column, codes: codes, text: compiler.text(.comparison(cmp)), rowCount: count)
    }

    /// The days a date expression names.
    public static func resolve(_ e: DateExpression, today: Day) -> DayRange {
        let (y, m, _) = today.civil
        func month(_ year: Int, _ month: Int) -> DayRange {
            let first = Day(year: year, month: month, day: 1) ?? today
            return DayRange(first, Day(number: first.number + Int32(Day.daysIn(year: year, month: month)) - 1))
        }
        func year(_ year: Int) -> DayRange {
            DayRange(Day(year: year, month: 1, day: 1) ?? today, Day(year: year, month: 12, day: 31) ?? today)
        }
        switch e {
        case .literal(let r, _): return r
        case .today: return DayRange(today, today)
        case .yesterday: return DayRange(Day(number: today.number - 1), Day(number: today.number - 1))
        case .thisMonth: return month(y, m)
        case .lastMonth: return m == 1 ? month(y - 1, 12) : month(y, m - 1)
        case .thisYear: return year(y)
        case .lastYear: return year(y - 1)
        case .lastDays(let n): return DayRange(Day(number: today.number - Int32(n) + 1), today)
        }
    }
}

extension PostingIndex {
    /// First position in an ascending row list whose row is ≥ `row`.
    static func lowerBound(_ list: ArraySlice<UInt32>, _ row: UInt32) -> Int {
        var lo = list.startIndex, hi = list.endIndex
        while lo < hi {
            let mid = (lo + hi) / 2
            if list[mid] < row { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
