// The planner: a parsed query + the session → a `Plan` the executor can run.
//
// It resolves names (the target currency, relative dates against `today`),
// intersects the period clauses into one day range, and turns that range into a
// row range with two binary searches on the date-sorted store (the date index).
// The plan prints as text; `explain` will show it.

import AbacusCore

public struct Plan: Sendable {
    public var aggregate: Aggregate
    public var subject: Subject
    /// nil for `in native`.
    public var target: Currency?
    public var groupBy: [GroupKey]
    public var days: DayRange?
    /// Rows the scan touches, from the date index.
    public var rows: Range<Int>
    public var usesDateIndex: Bool
    public var valuation: Valuation

    /// The plan as indented text.
    public var description: String {
        var lines: [String] = []
        lines.append("\(aggregate.rawValue) \(subject.rawValue)")
        if usesDateIndex, let days {
            lines.append("  scan rows \(rows.lowerBound)..<\(rows.upperBound) (\(rows.count) rows) using the date index for \(days.first)..\(days.last)")
        } else {
            lines.append("  scan all \(rows.count) rows")
        }
        switch subject {
        case .expenses: lines.append("  filter amount < 0 and not a transfer")
        case .income: lines.append("  filter amount > 0 and not a transfer")
        case .transfers: lines.append("  filter transfers")
        case .entries: break
        }
        if !groupBy.isEmpty { lines.append("  group by " + groupBy.map(\.rawValue).joined(separator: ", ")) }
        if aggregate != .count {
            lines.append(target.map { "  convert into \($0.code) (\(valuation))" } ?? "  no conversion (native currencies)")
        }
        return lines.joined(separator: "\n")
    }
}

public struct PlanContext: Sendable {
    public var ledger: Ledger
    public var today: Day
    public var defaultCurrency: Currency

    public init(ledger: Ledger, today: Day, defaultCurrency: Currency) {
        self.ledger = ledger
        self.today = today
        self.defaultCurrency = defaultCurrency
    }
}

public enum Planner {
    public static func plan(_ q: Query, in context: PlanContext) throws(QueryError) -> Plan {
        if q.groupBy.count > 4 { throw QueryError(.tooManyGroupKeys(q.groupBy.count), at: nil) }
        let target: Currency?
        switch q.currency {
        case .native?: target = nil
        case .code(let c)?: target = c
        case nil: target = context.defaultCurrency
        }
        var days: DayRange?
        var empty = false
        for p in q.periods {
            let r = resolve(p.date, today: context.today)
            var lo = Day(number: Int32.min), hi = Day(number: Int32.max)
            switch p.kind {
            case .since: lo = r.first
            case .until: hi = r.last
            case .before: hi = Day(number: r.first.number - 1)
            case .on, .during: lo = r.first; hi = r.last
            }
            let current = days ?? DayRange(Day(number: Int32.min), Day(number: Int32.max))
            let merged = DayRange(max(current.first, lo), min(current.last, hi))
            if merged.first > merged.last { empty = true }
            days = merged
        }
        let store = context.ledger.entries
        var rows = 0..<store.count
        if let days {
            let lo = store.firstRow(onOrAfter: days.first)
            let hi = days.last.number == Int32.max ? store.count : store.firstRow(onOrAfter: Day(number: days.last.number + 1))
            rows = empty ? lo..<lo : lo..<max(lo, hi)
        }
        return Plan(aggregate: q.aggregate, subject: q.subject, target: target, groupBy: q.groupBy,
                    days: days, rows: rows, usesDateIndex: days != nil, valuation: .booked)
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
