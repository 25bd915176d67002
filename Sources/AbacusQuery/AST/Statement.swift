// The syntax tree: what a statement says, with the source range of each part
// (for carets), before any name is looked up in the ledger.

import AbacusCore

public enum Statement: Sendable {
    case query(Query)
    case explain(Query)
    /// `budget`, `balance`, `networth`, `holdings`.
    case report(Report)
    case explainReport(Report)
    case convert(Conversion)
    case rate(RateLookup)
    case rates(RatesListing)
    case setRate(CurrencyPair, ExactDecimal)
    case unsetRate(CurrencyPair, Range<Int>)
    case setCurrency(Currency)
    /// `rates refresh [BASE] [--force]`: fetch live rates (or reuse fresh cached ones).
    case ratesRefresh(base: Currency?, force: Bool)
    /// `rates status`: each source of market rates and its age.
    case ratesStatus
    case books
    case categories
    /// `convert 5 kg to lb`: a quantity in one unit of length, mass or temperature in another.
    case convertUnits(UnitRequest)
    /// `set max rate age N days` (nil: `unset max rate age`).
    case setMaxRateAge(Int?)
    /// `watch USD, SGD` / `unwatch SGD` / `watching`.
    case watch([Currency])
    case unwatch([Currency], Range<Int>)
    case watching
    /// `rates import FILE`: market rates from a file, as `--rates FILE` adds them.
    case ratesImport(path: String, range: Range<Int>)
    /// `define NAME(P, …) as STATEMENT`.
    case define(Definition)
    /// `NAME(ARG, …)`: a defined statement with its arguments.
    case call(Call)
    /// `defines`: the session's definitions.
    case defines
    /// `undefine NAME`.
    case undefine(String, Range<Int>)
}

/// A saved statement: `define NAME(P, …) as STATEMENT`, where `$P` stands for an argument.
public struct Definition: Sendable, Equatable {
    public var name: String
    public var parameters: [String]
    /// The statement as written after `as`, `$P` placeholders and all.
    public var body: String
}

/// `NAME(ARG, …)`: each argument is one token, kept as typed (quotes included) so that it
/// replaces its placeholder as that same token.
public struct Call: Sendable, Equatable {
    public var name: String
    public var nameRange: Range<Int>
    public var arguments: [String]
    public var argumentRanges: [Range<Int>]
    /// `explain NAME(…)`: the plan of the statement the call runs.
    public var explained = false
}

/// `convert 5 kg to lb`, with the place of each unit for carets. One side may be a currency
/// code (`convert 5 USD to kg`), which the conversion refuses as a conversion between kinds.
public struct UnitRequest: Sendable {
    public var amount: ExactDecimal
    public var from: String
    public var fromRange: Range<Int>
    public var to: String
    public var toRange: Range<Int>
}

public enum Aggregate: String, Sendable, CaseIterable {
    case sum, count, avg, min, max, list
}

public enum Subject: String, Sendable, CaseIterable {
    case expenses, income, transfers, entries
}

public enum GroupKey: String, Sendable, CaseIterable {
    case category, book, party, payment, currency, tag, day, week, month, quarter, year
    /// The root of the entry's category in the category tree (two words: `by top category`).
    case topCategory = "top category"

    /// The unit of a period key (`by month`); nil for the others.
    public var periodUnit: PeriodUnit? { PeriodUnit(rawValue: rawValue) }

    public var isPeriod: Bool { periodUnit != nil }

    /// Keys whose value an entry may lack (shown as "(none)").
    public var isOptional: Bool { self == .party || self == .payment || self == .tag }
}

public enum TargetCurrency: Sendable, Equatable {
    case code(Currency)
    case native
}

/// A date or period as written: resolved against `today` by the planner.
public enum DateExpression: Sendable, Equatable {
    /// `2025`, `2025-10`, `2025-10-05`, `2025-Q4`, `2025-W41`.
    case literal(Period, text: String)
    /// The period `offset` periods from the one holding today: `today` (day, 0), `yesterday`
    /// (day, −1), `this month` (month, 0), `last quarter` (quarter, −1), …
    case relative(PeriodUnit, offset: Int)
    /// `last 30 days`, `last 3 months`: the last `count` periods, the current one included.
    case trailing(Int, PeriodUnit)

    /// The days it names; an error when they fall outside the calendar (`last week` on
    /// 0001-01-01), whose periods cannot be named or counted.
    /// `range`: where it was written, for the caret of that error.
    public func resolve(today: Day, at range: Range<Int>? = nil) throws(QueryError) -> DayRange {
        let r = days(today: today)
        // A period before year 1 has no days to name (`Period.days` is empty there).
        guard !r.isEmpty, r.first >= .calendarStart, r.last <= .calendarEnd else {
            throw QueryError(.unsupported("\(description) on \(today) falls outside the calendar (0001-01-01 to 9999-12-31)"), at: range)
        }
        return r
    }

    private func days(today: Day) -> DayRange {
        switch self {
        case .literal(let p, _): return p.days
        case .relative(let unit, let offset): return Period(unit, containing: today).advanced(by: offset).days
        case .trailing(let n, .day): return DayRange(Day(number: today.number - Int32(n) + 1), today)
        case .trailing(let n, let unit):
            let current = Period(unit, containing: today)
            return DayRange(current.advanced(by: 1 - n).days.first, current.days.last)
        }
    }

    /// As it would be typed: `2025-10`, `today`, `last month`, `last 30 days`.
    public var description: String {
        switch self {
        case .literal(_, let text): return text
        case .relative(.day, 0): return "today"
        case .relative(.day, -1): return "yesterday"
        case .relative(let unit, 0): return "this \(unit.rawValue)"
        case .relative(let unit, -1): return "last \(unit.rawValue)"
        case .relative(let unit, let n): return "\(unit.rawValue) \(n)"
        case .trailing(let n, let unit): return "last \(n) \(unit.rawValue)\(n == 1 ? "" : "s")"
        }
    }
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

    /// The days that period clauses, all together, leave (nil: none given); `before` stops the
    /// day before its date, `until` at the end of its period.
    public static func days(_ periods: [PeriodClause], today: Day) throws(QueryError) -> DayRange? {
        guard !periods.isEmpty else { return nil }
        var days = DayRange.all
        for p in periods {
            let r = try p.date.resolve(today: today, at: p.range)
            switch p.kind {
            case .since: days = days.intersection(DayRange(r.first, .distantFuture))
            case .until: days = days.intersection(DayRange(.distantPast, r.last))
            case .before: days = days.intersection(DayRange(.distantPast, Day(number: r.first.number - 1)))
            case .on, .during: days = days.intersection(r)
            }
        }
        return days
    }
}

/// Fields a `where` condition can test.
public enum Field: String, Sendable, CaseIterable {
    case amount, category, book, party, payment, currency, tag, remarks, date
}

public enum ComparisonOperator: String, Sendable, CaseIterable {
    case equal = "=", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    case contains = "~"
    case isIn = "in", notIn = "not in"
}

/// A value written in a condition.
public enum Literal: Sendable, Equatable {
    /// A quoted string, or bare words as typed from the first to the last.
    case text(String)
    case number(ExactDecimal)
    case date(DateExpression)
    /// `(none)` unquoted, as groups show a missing value: the entries without one. A quoted
    /// `"(none)"` is text, the name.
    case missing
}

public struct LiteralValue: Sendable, Equatable {
    public var literal: Literal
    public var range: Range<Int>
}

public struct Comparison: Sendable, Equatable {
    public var field: Field
    public var op: ComparisonOperator
    public var values: [LiteralValue]
    public var range: Range<Int>
}

/// A condition; `and` and `or` hold all their operands in one list, so a long
/// chain (`a or b or c …`) is one node, not a deep tree.
public indirect enum Condition: Sendable, Equatable {
    case comparison(Comparison)
    case and([Condition])
    case or([Condition])
    case not(Condition)
}

public enum ValuationClause: Sendable, Equatable {
    case market
    case latest
    case asOf(DateExpression)
}

public struct WhatIfRate: Sendable, Equatable {
    public var pair: CurrencyPair
    public var rate: ExactDecimal
    public var range: Range<Int>
}

public enum OrderKey: Sendable, Equatable {
    case value
    case key(GroupKey)
    /// `list` only: order entries by their date.
    case date
}

public struct Order: Sendable, Equatable {
    public var key: OrderKey
    public var descending: Bool
    /// `order by count` (key `.value`): rank by the number of entries rather than the amount.
    /// Only a money aggregate's plan keeps it; for `count` the value is that number.
    public var byEntryCount = false
    public var range: Range<Int>

    public init(key: OrderKey, descending: Bool, byEntryCount: Bool = false, range: Range<Int>) {
        self.key = key
        self.descending = descending
        self.byEntryCount = byEntryCount
        self.range = range
    }
}

public struct Query: Sendable {
    public var aggregate: Aggregate
    public var subject: Subject = .entries
    public var currency: TargetCurrency?
    public var currencyRange: Range<Int>?
    public var groupBy: [GroupKey] = []
    public var groupRange: Range<Int>?
    public var condition: Condition?
    public var periods: [PeriodClause] = []
    public var valuation: ValuationClause?
    public var whatIf: [WhatIfRate] = []
    public var order: Order?
    public var top: Int?
    /// `with share`, `with running total`: columns added to a grouped sum or count.
    public var withShare = false
    public var withRunningTotal = false
    public var extrasRange: Range<Int>?
    /// `list … show remarks, tags`: columns a listing shows in tables beyond its usual ones.
    public var show: [ListColumn] = []
    public var showRange: Range<Int>?
    /// `per KEY`: a crosstab with one column per value of the key.
    public var per: GroupKey?
    public var perRange: Range<Int>?
    /// `vs …`: the statement again with one thing changed, side by side.
    public var versus: Alternative?
    public var versusRange: Range<Int>?
    public var text: String

    public init(aggregate: Aggregate, text: String) {
        self.aggregate = aggregate
        self.text = text
    }
}

/// What `vs` compares a query with: the same statement with one thing changed.
public enum Alternative: Sendable, Equatable {
    /// `vs previous period`: the period of the same length just before.
    case previousPeriod
    /// `vs same period last year`: every date one year earlier.
    case samePeriodLastYear
    /// `vs 2025-10`, `vs last month`: the period clauses replaced by `during P`.
    case period(DateExpression)
    /// `vs booked` (nil), `vs at market`, `vs at latest`, `vs at DATE`, without what-if rates.
    case valuation(ValuationClause?)
    /// `vs with rate SGD/INR = 55`: these what-if rates instead of the statement's.
    case whatIf([WhatIfRate])
}

/// Columns of a listing that tables show only when asked (`show`); JSON always has them.
public enum ListColumn: String, Sendable, CaseIterable {
    case id, payment, currency, remarks, tags
}

public struct Conversion: Sendable {
    public var amount: ExactDecimal
    public var from: Currency
    public var to: Currency
    public var valuation: ValuationClause?
    public var whatIf: [WhatIfRate]
}

public struct RateLookup: Sendable {
    public var pair: CurrencyPair
    public var valuation: ValuationClause?
    public var whatIf: [WhatIfRate]
}

/// `rates where currency …`: which currencies a listing keeps. `=` names a currency by its
/// code or its whole name, `!=` keeps the others, `~` looks for a part of either; letter case
/// never matters.
public struct CurrencyFilter: Sendable, Equatable, CustomStringConvertible {
    public enum Test: String, Sendable { case equal = "=", notEqual = "!=", contains = "~" }
    public var test: Test
    public var text: String

    public init(_ test: Test, _ text: String) {
        self.test = test
        self.text = text
    }

    public func keeps(_ c: Currency) -> Bool {
        let t = text.lowercased(), code = c.code.lowercased(), name = c.name.lowercased()
        switch test {
        case .equal: return code == t || name == t
        case .notEqual: return code != t && name != t
        case .contains: return code.contains(t) || name.contains(t)
        }
    }

    /// As written after `where`: `currency ~ "dollar"`.
    public var description: String { "currency \(test.rawValue) " + ShownText.literal(text) }
}

public enum RatesListing: Sendable {
    /// The rates of one day against a base currency, optionally filtered (`rates watched`:
    /// only the watched currencies).
    case day(base: Currency?, filter: CurrencyFilter?, at: DateExpression?, watchedOnly: Bool = false)
    /// The history of one pair.
    case history(CurrencyPair, since: DateExpression?)
}
