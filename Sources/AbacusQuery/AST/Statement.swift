// The syntax tree: what a statement says, with the source range of each part
// (for carets), before any name is looked up in the ledger.

import AbacusCore

public enum Statement: Sendable {
    case query(Query)
}

public enum Aggregate: String, Sendable, CaseIterable {
    case sum, count
}

public enum Subject: String, Sendable, CaseIterable {
    case expenses, income, transfers, entries
}

public enum GroupKey: String, Sendable, CaseIterable {
    case category, book, party, payment, currency, tag, day, week, month, quarter, year

    public var isPeriod: Bool {
        switch self {
        case .day, .week, .month, .quarter, .year: return true
        default: return false
        }
    }
}

public enum TargetCurrency: Sendable, Equatable {
    case code(Currency)
    case native
}

/// A date or period as written: resolved against `today` by the planner.
public enum DateExpression: Sendable, Equatable {
    /// `2025`, `2025-10`, `2025-10-05`, `2025-Q4`, `2025-W41`, already resolved to days.
    case literal(DayRange, text: String)
    case today
    case yesterday
    case thisMonth, lastMonth, thisYear, lastYear
    case lastDays(Int)
}

/// An inclusive range of days.
public struct DayRange: Sendable, Equatable {
    public var first: Day
    public var last: Day
    public init(_ first: Day, _ last: Day) { self.first = first; self.last = last }
}

public enum PeriodKind: String, Sendable, CaseIterable {
    /// Inclusive of the named day or period's first day.
    case since
    /// Through the end of the named period.
    case until
    /// Strictly before the named period's first day.
    case before
    /// Within the named period (`on` a day, `during` a month…).
    case on, during
}

public struct PeriodClause: Sendable, Equatable {
    public var kind: PeriodKind
    public var date: DateExpression
    public var range: Range<Int>
}

public struct Query: Sendable {
    public var aggregate: Aggregate
    public var subject: Subject = .entries
    public var currency: TargetCurrency?
    public var currencyRange: Range<Int>?
    public var groupBy: [GroupKey] = []
    public var periods: [PeriodClause] = []
    public var text: String

    public init(aggregate: Aggregate, text: String) {
        self.aggregate = aggregate
        self.text = text
    }
}
