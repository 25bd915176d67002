// What `budget`, `balance`, `networth` and `holdings` share (docs/language.md#budgets-and-net-worth):
// sums of entries asked of the query engine itself (so conversion, the category tree and
// splits follow the rules every query follows), single rates on a day by the custom then
// market rules (docs/conversion.md#rules), exact arithmetic on fractions rounded once, and
// the trace `explain` prints.

import AbacusCore
import BigInt

/// Balances asked ahead (`Session.balanceSums`): by book id and day, what the sum gave.
struct BalanceSums {
    var answers: [String: [Day: Result<ResultSet, QueryError>]] = [:]
}

/// A pair a report found no rate for (`QueryError.Kind.noRateOn`): the report dates it was
/// missing on, the first of them named.
public struct MissedReportRate: Sendable, Equatable {
    public var pair: CurrencyPair
    public var days: [Day]

    /// "SGD/INR and EUR/INR on 2025-06-01", or each pair with its own dates.
    static func list(_ missed: [MissedReportRate]) -> String {
        func dates(_ days: [Day]) -> String {
            "on \(days[0])" + (days.count == 1 ? "" : " (and \(days.count - 1) later report \(days.count == 2 ? "date" : "dates") up to \(days[days.count - 1]))")
        }
        let pairs = missed.map { "\($0.pair)" }
        if let first = missed.first, missed.allSatisfy({ $0.days == first.days }) {
            let names = pairs.count == 1 ? pairs[0] : pairs.dropLast().joined(separator: ", ") + " and " + pairs[pairs.count - 1]
            return names + " " + dates(first.days)
        }
        return missed.map { "\($0.pair) " + dates($0.days) }.joined(separator: "; ")
    }
}

/// What a report did, for `explain`: the sums it asked, the rates it used, its warnings.
struct ReportTrace {
    var plan: [String] = []
    private(set) var rates: [String] = []
    private var notes: [String] = []
    /// `rates` and `notes` as sets: a history of thousands of periods adds a line for each
    /// period, and looking each up in the lists made the report quadratic.
    private var ratesSeen: Set<String> = [], notesSeen: Set<String> = []
    /// Market rates dated after the report days they stood in for: one warning for each rate
    /// however many days (a history of 36 months before the first rate warns once).
    private var late: [(rate: String, dated: Day, days: Set<Day>)] = []
    /// Market rates more than `RateAgePolicy.staleAfterDays` older than the report days they
    /// were used for: one warning for each rate, with the first of those days and the oldest age.
    private var stale: [(rate: String, dated: Day, days: Set<Day>, oldest: Int)] = []

    var warnings: [String] {
        notes + late.map { l in
            let days = l.days.sorted()
            return "no market rate for \(l.rate) on or before \(days[0])"
                + (days.count == 1 ? "" : " (nor at \(days.count - 1) later report \(days.count == 2 ? "date" : "dates") up to \(days[days.count - 1]))")
                + "; used the oldest, dated \(l.dated)"
        } + stale.map { s in
            let days = s.days.sorted()
            return "the market rate for \(s.rate) dated \(s.dated) is more than \(AgedRateUse.days(RateAgePolicy.staleAfterDays)) older than \(days[0])"
                + (days.count == 1 ? " (\(AgedRateUse.days(s.oldest)))" : " and \(days.count - 1) later report \(days.count == 2 ? "date" : "dates") (up to \(AgedRateUse.days(s.oldest)))")
        }
    }

    /// The pairs no rate priced, in the order met, each with the report dates it was missing on.
    private(set) var missed: [MissedReportRate] = []

    /// No rate prices `pair` on `day`: the report goes on, to name every pair it misses, and
    /// fails at its end (`ReportRunner.computed`).
    mutating func missed(_ pair: CurrencyPair, on day: Day) {
        if let i = missed.firstIndex(where: { $0.pair == pair }) {
            // A report asks its dates in order, each for every part: a date is new when it is not the last.
            if missed[i].days.last != day { missed[i].days.append(day) }
        } else {
            missed.append(MissedReportRate(pair: pair, days: [day]))
        }
    }

    mutating func rate(_ line: String) { if ratesSeen.insert(line).inserted { rates.append(line) } }
    mutating func warn(_ line: String) { if notesSeen.insert(line).inserted { notes.append(line) } }

    /// A market rate (`what`: its pair, and the pair it served in a chain) dated `dated`, used
    /// `age` days later, on `day`: stale (docs/conversion.md#rate-age).
    mutating func staleRate(_ what: String, dated: Day, age: Int, on day: Day) {
        if let i = stale.firstIndex(where: { $0.rate == what && $0.dated == dated }) {
            stale[i].days.insert(day)
            stale[i].oldest = max(stale[i].oldest, age)
        } else {
            stale.append((what, dated, [day], age))
        }
    }

    /// A market rate (`what`: its pair, and the pair it served in a chain) dated `dated`, used on `day`, before it.
    mutating func lateRate(_ what: String, dated: Day, on day: Day) {
        if let i = late.firstIndex(where: { $0.rate == what && $0.dated == dated }) {
            late[i].days.insert(day)
        } else {
            late.append((what, dated, [day]))
        }
    }
}

/// A report statement: computes its table and says how.
protocol ReportRunner: StatementRunner {
    func compute(in session: Session, trace: inout ReportTrace) throws(QueryError) -> ResultSet
    /// The statement as its first `explain` line.
    var summary: String { get }
}

extension ReportRunner {
    func run(in session: Session) throws(QueryError) -> Output {
        var trace = ReportTrace()
        var result = try computed(in: session, trace: &trace)
        result.warnings += trace.warnings
        return .table(result)
    }

    /// The table; a query's missing rates told as a report's (it takes no `with rate`). A rate
    /// missing on a report date fails the report once it has met every pair it misses (what it
    /// worked out past one is never shown), whatever else failed after it.
    func computed(in session: Session, trace: inout ReportTrace) throws(QueryError) -> ResultSet {
        let result: ResultSet
        do {
            result = try compute(in: session, trace: &trace)
        } catch {
            if !trace.missed.isEmpty, error.kind != .cancelled { throw QueryError(.noRateOn(trace.missed), at: nil) }
            var error = error
            if case .missingRates = error.kind, error.advice == nil { error.advice = .ratesForAReport }
            throw error
        }
        if !trace.missed.isEmpty { throw QueryError(.noRateOn(trace.missed), at: nil) }
        return result
    }
}

extension Report {
    var runner: any ReportRunner {
        switch self {
        case .budget(let r): return BudgetStatement(request: r)
        case .balance(let r): return BalanceStatement(request: r)
        case .networth(let r): return NetWorthStatement(request: r)
        case .holdings(let r): return HoldingsStatement(request: r)
        }
    }
}

/// `explain budget …` (and the others): the sums asked, then the rates used.
struct ExplainReportStatement: StatementRunner {
    let report: Report

    func run(in session: Session) throws(QueryError) -> Output {
        let runner = report.runner
        var trace = ReportTrace()
        // Rates it misses are shown with the plan (as a query's are), not an error.
        do {
            _ = try runner.computed(in: session, trace: &trace)
        } catch {
            guard case .noRateOn = error.kind else { throw error }
        }
        let missing = trace.missed.map { "\(MissedReportRate.list([$0])), which no rate supplies" }
        let advice = missing.isEmpty ? [] : ["this statement cannot run until \(missing.count == 1 ? "that rate is" : "those rates are") supplied (`set rate PAIR = …`, or market rates in the ledger or with --rates)"]
        return .explain(plan: ([runner.summary] + trace.plan.map { "  " + $0 }).joined(separator: "\n"), rates: trace.rates + missing, warnings: trace.warnings + advice)
    }
}

extension Fraction {
    static func - (a: Fraction, b: Fraction) -> Fraction { a + Fraction(-b.numerator, b.denominator) }
    static func * (a: Fraction, b: Fraction) -> Fraction { Fraction(a.numerator * b.numerator, a.denominator * b.denominator) }
    var isNegative: Bool { numerator.signum() < 0 }
    var isPositive: Bool { numerator.signum() > 0 }
    var magnitude: Fraction { isNegative ? Fraction(-numerator, denominator) : self }

    /// Rounded half-even to a currency's minor unit, as money.
    func money(_ c: Currency) throws(QueryError) -> Cell {
        guard let r = rounded(toScale: c.minorUnits) else { throw QueryError(.overflow, at: nil) }
        return .money(r, c)
    }

    /// `self ÷ whole × 100`, half-even to one decimal; nil when `whole` is not positive.
    func percent(of whole: Fraction) throws(QueryError) -> ExactDecimal? {
        guard whole.isPositive else { return nil }
        let q = Fraction(numerator * whole.denominator * 100, denominator * whole.numerator)
        // Past 38 digits it fails, as every result does: never an empty cell that reads as "no limit".
        guard let p = q.rounded(toScale: 1) else { throw QueryError(.overflow, at: nil) }
        return p
    }
}

extension Session {
    /// A report asks many small questions (a period's sums, a month's budget): Ctrl-C stops it between them.
    func stopIfCancelled() throws(QueryError) {
        if isCancelled() { throw QueryError(.cancelled, at: nil) }
    }

    /// The report date of `at DATE` (its last day), else today.
    func reportDay(_ e: DateExpression?) throws(QueryError) -> Day {
        try e.map { d throws(QueryError) in try d.resolve(today: today).last } ?? today
    }

    /// The rate of `from` into `to` on `day` by the custom, then market rules (a statement's
    /// conversion at one date); a pair nothing prices is recorded in the trace, and the report
    /// fails at its end naming it (`ReportRunner.computed`).
    func rate(_ from: Currency, _ to: Currency, on day: Day, trace: inout ReportTrace) throws(QueryError) -> Rate {
        guard from != to else { return Rate(.one) }
        let pair = CurrencyPair(from, to)
        guard let r = resolver.resolve(pair, on: day) else {
            // Recorded, and the report fails at its end naming every pair it missed: the value
            // worked out with this stand-in is never shown.
            trace.missed(pair, on: day)
            return Rate(.one)
        }
        try refuseTooOld(r, on: day)
        var line = "\(pair) on \(day): \(r.rate) (\(resolver.describe(r.origin))"
        if case .market(let q) = r.origin { line += ", dated \(q.newestDay)" }
        trace.rate(line + ")")
        if case .market(let q) = r.origin {
            // Each leg dated after the day, by its own pair and date (a chain's other leg may be on time).
            for leg in q.legs where leg.isAfterRequestedDay {
                trace.lateRate(q.legs.count == 1 ? "\(pair)" : "\(leg.pair) (for \(pair))", dated: leg.day, on: day)
            }
            // Each leg more than a week older than the day (held leg by leg, as a maximum age is).
            for leg in RateAge(q, usedOn: day).legs(olderThan: RateAgePolicy.staleAfterDays) {
                trace.staleRate(q.legs.count == 1 ? "\(pair)" : "\(leg.pair) (for \(pair))", dated: leg.day, age: leg.ageInDays, on: day)
            }
        }
        return r.rate
    }

    /// An exact amount converted on `day` (custom, then market).
    func converted(_ x: Fraction, _ from: Currency, _ to: Currency, on day: Day, trace: inout ReportTrace) throws(QueryError) -> Fraction {
        guard from != to else { return x }
        return x * (try rate(from, to, on: day, trace: &trace)).fraction
    }

    /// A condition `field = "name"`.
    static func equals(_ field: Field, _ name: String) -> Condition {
        .comparison(Comparison(field: field, op: .equal, values: [LiteralValue(literal: .text(name), range: 0..<0)], range: 0..<0))
    }

    /// The query `sum SUBJECT in TARGET where … PERIODS`, and its text for `explain`.
    static func sumQuery(_ subject: Subject, in target: Currency, category: String? = nil, book: String? = nil,
                         periods: [PeriodClause]) -> (query: Query, text: String) {
        var q = Query(aggregate: .sum, text: "")
        q.subject = subject
        q.currency = .code(target)
        var conditions: [Condition] = []
        var words: [String] = []
        if let category {
            conditions.append(Session.equals(.category, category))
            words.append("category = " + ShownText.literal(category))
        }
        if let book {
            conditions.append(Session.equals(.book, book))
            words.append("book = " + ShownText.literal(book))
        }
        if !conditions.isEmpty { q.condition = conditions.count == 1 ? conditions[0] : .and(conditions) }
        q.periods = periods
        let text = "sum \(subject.rawValue) in \(target.code)" + (words.isEmpty ? "" : " where " + words.joined(separator: " and "))
            + periods.map { " \($0.kind.rawValue) \($0.date.description)" }.joined()
        return (q, text)
    }

    /// A sum's value as shown, its rates and warnings written in the trace; its exact value.
    func record(_ result: ResultSet, text: String, trace: inout ReportTrace) throws(QueryError) -> Fraction {
        guard case .money(let value, _)? = result.rows.first?.first, let exact = result.exactSum else { throw QueryError(.overflow, at: nil) }
        trace.plan.append(text + " = \(value)")
        for note in result.rateNotes { trace.rate("\(text): \(note)") }
        for w in result.warnings { trace.warn(w) }
        return exact
    }

    /// The sum of entries as the query `sum SUBJECT in TARGET where … PERIODS` answers it (by
    /// the rules of every query: conversion at the default valuation, the category tree,
    /// splits), exact, before any rounding: what a report converts or divides further,
    /// rounding once where it shows the result (docs/conversion.md#rounding).
    func exactSum(_ subject: Subject, in target: Currency, category: String? = nil, book: String? = nil, periods: [PeriodClause],
                  trace: inout ReportTrace) throws(QueryError) -> Fraction {
        let (q, text) = Session.sumQuery(subject, in: target, category: category, book: book, periods: periods)
        return try record(try sumResult(q, exact: true), text: text, trace: &trace)
    }

    /// The result of a sum query; with `exact`, it keeps the exact sum before rounding.
    func sumResult(_ q: Query, exact: Bool) throws(QueryError) -> ResultSet {
        try stopIfCancelled()
        // The database's engine first (`--db`), else the in-memory store, entries read first.
        let engine = ReportEngine(q, in: self)
        var plan = try engine.bind(q)
        plan.keepsExactSum = exact
        return try engine.result(of: plan)
    }

    /// Whether the ledger holds a category (in any letter case), so that a condition on it resolves.
    func holdsCategory(_ name: String) -> Bool {
        let lower = name.lowercased()
        return ledger.entries.categories.contains { $0 == name || $0.lowercased() == lower }
    }

    /// The balance of an account on `day` in its own currency: its opening balance plus all its
    /// entries (transfers too) dated on or before `day` (the sum from `known` when it was asked ahead).
    /// The balance is exact, not rounded: a report converts it further, and each component
    /// converts exactly (docs/language.md#balance); it is rounded where it is shown.
    func balance(of book: Book, on day: Day, known: BalanceSums = BalanceSums(), trace: inout ReportTrace) throws(QueryError) -> Fraction {
        let (q, text) = Session.balanceQuery(book, on: day)
        let result: ResultSet
        if let answer = known.answers[book.id]?[day] {
            try stopIfCancelled()
            result = try answer.get()
        } else {
            result = try sumResult(q, exact: true)
        }
        return Fraction(book.openingBalance ?? .zero) + (try record(result, text: text, trace: &trace))
    }

    static func until(_ day: Day) -> PeriodClause {
        PeriodClause(kind: .until, date: .literal(Period(.day, containing: day), text: day.description), range: 0..<0)
    }

    static func balanceQuery(_ book: Book, on day: Day) -> (query: Query, text: String) {
        sumQuery(.entries, in: book.currency, book: book.name, periods: [until(day)])
    }

    /// The balances of the accounts that count in net worth on each of `days`, asked of the
    /// database's engine at once when it takes them (docs/postgres.md, Reports); the trace
    /// records each when it is used, as if asked then.
    func balanceSums(on days: [Day]) throws(QueryError) -> BalanceSums {
        var out = BalanceSums()
        guard days.count > 1, let last = days.max() else { return out }
        guard let external = engine else { return try residentBalanceSums(on: days) }
        for book in ledger.books where book.openingBalance != nil && book.includeInNetWorth {
            let q = Session.balanceQuery(book, on: last).query
            let reports = ReportEngine(q, in: self)
            var plan = try reports.bind(q)
            plan.keepsExactSum = true
            guard let results = try external.run(plan, endingOn: days, in: self) else { continue }
            out.answers[book.id] = Dictionary(zip(days, results), uniquingKeysWith: { a, _ in a })
        }
        return out
    }

    /// `balanceSums` from the entries in memory: days with the same entries on or before them
    /// (none between them: the months after the last entry of a long history) have the same
    /// sums, each asked once (a balance converts each entry by its own date, never the report's).
    /// A sum that fails is kept, and fails where it is used, as if asked then.
    func residentBalanceSums(on days: [Day]) throws(QueryError) -> BalanceSums {
        try loadEntries()
        let store = ledger.entries
        var out = BalanceSums()
        for book in ledger.books where book.openingBalance != nil && book.includeInNetWorth {
            var byRows: [Int: Result<ResultSet, QueryError>] = [:]
            var answers: [Day: Result<ResultSet, QueryError>] = [:]
            for day in days {
                // The rows dated on or before `day` (the store is sorted by day).
                let rows = day == .distantFuture ? store.count : store.firstRow(onOrAfter: day.advanced(by: 1))
                if byRows[rows] == nil {
                    let q = Session.balanceQuery(book, on: day).query
                    byRows[rows] = Result { () throws(QueryError) in try sumResult(q, exact: true) }
                }
                answers[day] = byRows[rows]
            }
            out.answers[book.id] = answers
        }
        return out
    }

    /// Whether the entries in memory hold none dated within `days`: a sum over them is then
    /// zero with nothing to warn of, and need not be asked (nil: the entries are in a database).
    func holdsNoEntries(within days: DayRange) throws(QueryError) -> Bool? {
        guard engine == nil else { return nil }
        try loadEntries()
        let store = ledger.entries
        let first = store.firstRow(onOrAfter: days.first)
        return first == store.count || store.day[first] > days.last.number
    }

    /// The first month of the ledger's entries (today's when it has none).
    var firstEntryMonth: Period {
        Period(.month, containing: ledger.entries.day.first.map(Day.init(number:)) ?? today)
    }
}

extension ExactDecimal {
    /// self ÷ |whole| × 100, half-even to one decimal (`change %`, `share`): in 128-bit
    /// integers nearly always, else as a fraction; an overflow past 38 digits. `whole` is not zero.
    func percent(ofMagnitude whole: ExactDecimal) throws(QueryError) -> ExactDecimal {
        if let p = ExactDecimal.fastPercent(self, of: whole) { return p }
        let q = Fraction(BigInt(significand) * 100 * bigPowerOfTen(whole.scale), BigInt(whole.significand.magnitude) * bigPowerOfTen(scale))
        guard let p = q.rounded(toScale: 1) else { throw QueryError(.overflow, at: nil) }
        return p
    }

    /// `percent(ofMagnitude:)` in 128-bit integers: both at the finer of their scales, d × 1000
    /// divided by |y|, the remainder rounding the quotient. Nil past 128 bits; y is not zero.
    static func fastPercent(_ d: ExactDecimal, of y: ExactDecimal) -> ExactDecimal? {
        let scale = max(d.scale, y.scale)
        guard scale - d.scale < pow10.count, scale - y.scale < pow10.count, y.significand != .min else { return nil }
        let (n, o1) = d.significand.multipliedReportingOverflow(by: pow10[scale - d.scale])
        let (m, o2) = n.multipliedReportingOverflow(by: 1000)
        let (den, o3) = y.significand.magnitude.multipliedReportingOverflow(by: UInt128(pow10[scale - y.scale]))
        guard !o1, !o2, !o3 else { return nil }
        var (q, r) = m.magnitude.quotientAndRemainder(dividingBy: den)
        // Half-even: past half, or at half with an odd quotient, rounds away from zero.
        if r > den - r || (r == den - r && q & 1 == 1) { q += 1 }
        guard let magnitude = Int128(exactly: q), magnitude <= ExactDecimal.maxSignificand else { return nil }
        return ExactDecimal(significand: m < 0 ? -magnitude : magnitude, scale: 1)
    }
}
