// `… vs ALTERNATIVE`: the statement as written (A) beside the same statement with one
// thing changed (B): another period, another valuation, other what-if rates
// (Result/SideBySide.swift). `explain` shows both plans.

import AbacusCore

struct ComparisonStatement: StatementRunner {
    let query: Query

    func run(in session: Session) throws(QueryError) -> Output {
        var result = try ComparisonStatement.comparison(query, in: session).run()
        result.warnings += QueryStatement.notes(query)
        return .table(result)
    }

    static func explain(_ query: Query, in session: Session) throws(QueryError) -> Output {
        let c = try comparison(query, in: session)
        var text = "compare A (\(c.names.a)) with B (\(c.names.b)): the keys, A, B, change, change %"
        var rates: [String] = [], warnings: [[String]] = []
        for (side, plan) in [("A", c.a), ("B", c.b)] {
            let lowered = try c.engine.lowered(plan)
            guard case .explain(let t, let r, let w) = try ExplainStatement.explained(lowered, text: lowered.description, engine: c.engine) else { continue }
            text += "\n\(side): " + t
            rates += r.map { "\(side): " + $0 }
            warnings.append(w)
        }
        return .explain(plan: text, rates: rates, warnings: warnings.count == 2 ? SideBySide.merged(warnings[0], warnings[1], plans: (c.a, c.b)) : warnings.flatMap { $0 })
    }

    /// A's plan, B's plan and the names of their columns.
    static func comparison(_ query: Query, in session: Session) throws(QueryError) -> SideBySide {
        let engine = ReportEngine(query, in: session)
        let a = try engine.bind(query)
        var b = a
        var names: (String, String)
        switch query.versus {
        case .previousPeriod?, .samePeriodLastYear?:
            let previous = query.versus == .previousPeriod
            let versus = "`vs \(previous ? "previous period" : "same period last year")`"
            guard let days = a.days, days.first != .distantPast, days.last != .distantFuture else {
                throw QueryError(.unsupported("\(versus) needs the statement's own period to compare with: add one (during 2025-10, this month, since 2025-10-01 until 2025-10-15)"), at: query.versusRange)
            }
            // Periods that do not meet (`since 2025-11 until 2025-10`) leave no day to compare.
            guard !days.isEmpty else {
                throw QueryError(.unsupported("\(versus) has no period to compare with: the statement's own period holds no day (a `since` after its `until`, or periods that do not meet)"), at: query.versusRange)
            }
            let before = previous ? ComparisonStatement.previous(days) : ComparisonStatement.yearEarlier(days)
            // No date before year 1 is read or written (`during 0000` is not a date either).
            guard !before.isEmpty, before.first >= .calendarStart, before.last < days.first else {
                throw QueryError(.unsupported("\(versus) has no period to compare with: \(label(days)) starts the calendar (no date comes before 0001-01-01)"), at: query.versusRange)
            }
            b.days = before
            // B is named as A is: a period of the same unit, else a range (a range that
            // happens to be a week a year earlier is still the same range a year earlier).
            names = (label(days), unit(of: days).map { u in Period(u, containing: before.first).days == before ? label(before) : before.description } ?? before.description)
        case .period(let p)?:
            // P replaces A's period clauses and its top-level date comparisons (they narrow
            // the days as a period does): B is A over P's days.
            var q = query
            q.periods = [PeriodClause(kind: .during, date: p, range: query.versusRange ?? 0..<0)]
            q.condition = nil
            q.versus = nil
            b.days = try engine.bind(q).days
            names = (label(a.days ?? .all), label(b.days ?? .all))
        case .valuation(let v)?:
            var q = query
            q.valuation = v
            q.whatIf = []
            q.versus = nil
            b = try engine.bind(q)
            names = (ratesName(a), ratesName(b))
        case .whatIf(let rates)?:
            var q = query
            q.whatIf = rates
            q.versus = nil
            b = try engine.bind(q)
            names = (ratesName(a), ratesName(b))
        case nil:
            throw QueryError(.unsupported("not a comparison"), at: nil)
        }
        guard names.0 != names.1 else {
            throw QueryError(.unsupported("both sides of `vs` would be \(names.0): compare with another period, valuation or rate"), at: query.versusRange)
        }
        return SideBySide(a: a, b: b, names: names, engine: engine)
    }

    /// The period of the same length just before: the calendar month, quarter or year
    /// before one, else as many days just before.
    static func previous(_ days: DayRange) -> DayRange {
        for unit in [PeriodUnit.year, .quarter, .month] {
            let p = Period(unit, containing: days.first)
            if p.days == days { return p.advanced(by: -1).days }
        }
        let n = Int32(days.dayCount)
        return DayRange(days.first.advanced(by: -n), days.first.advanced(by: -1))
    }

    /// The same days a year earlier: a calendar month, quarter or year the same one a year
    /// before (February whole, 29th and all), other days each moved back a year.
    static func yearEarlier(_ days: DayRange) -> DayRange {
        for (unit, back) in [(PeriodUnit.year, 1), (.quarter, 4), (.month, 12)] {
            let p = Period(unit, containing: days.first)
            if p.days == days { return p.advanced(by: -back).days }
        }
        return DayRange(days.first.yearEarlier, days.last.yearEarlier)
    }

    /// A column's name for a range of days: the calendar period it is (`2025-10`,
    /// `2025-Q4`, `2025`, `2025-W41`, a day), else `2025-10-01..2025-10-15`.
    static func label(_ days: DayRange) -> String {
        if days == .all { return "all dates" }
        return unit(of: days).map { Period($0, containing: days.first).description } ?? days.description
    }

    /// The calendar unit whose period `days` is, if it is one.
    static func unit(of days: DayRange) -> PeriodUnit? {
        // Open at an end (`before 2025-03`): no calendar period, and none to work out from the open end.
        if days.first == .distantPast || days.last == .distantFuture { return nil }
        return [PeriodUnit.year, .quarter, .month, .week, .day].first { Period($0, containing: days.first).days == days }
    }

    /// A column's name for a valuation and its what-if rates: the rates (`SGD/INR = 55`),
    /// else the valuation (`booked`, `market`, `latest`, `at 2025-12-31`).
    static func ratesName(_ p: LogicalPlan) -> String {
        if !p.whatIf.isEmpty { return p.whatIf.map { "\($0.pair) = \($0.rate)" }.joined(separator: ", ") }
        switch p.valuation {
        case .booked: return "booked"
        case .market: return "market"
        case .latest: return "latest"
        case .asOf(let d): return "at \(d)"
        }
    }
}

extension Day {
    /// The same date a year earlier (29 February becomes 28 February).
    var yearEarlier: Day {
        let (y, m, d) = civil
        return Day(year: y - 1, month: m, day: min(d, Day.daysIn(year: y - 1, month: m))) ?? self
    }
}
