// One converted sum as of several days at once (docs/postgres.md, Reports): the balance of a
// book at the end of each period of `networth by month`. Asked one day at a time, each
// would be two statements over the book's entries up to that day; here the two statements
// run once, up to the last day, the rules' counts per currency and day and the partial sums
// per day and denominator. For each day, Swift keeps the rows dated up to it: its tally
// (so its errors, warnings and rates are those the statement of that day alone would give:
// every count is per day) and its exact sum, rounded once.

import AbacusCore
import AbacusQuery

extension SQLEngine {
    public func run(_ plan: LogicalPlan, endingOn days: [Day], in session: Session) throws(QueryError) -> [Result<ResultSet, QueryError>]? {
        // A plain converted sum at the default valuation: no groups, no test of amounts, no what-if rates.
        guard plan.aggregate == .sum, let target = plan.target, plan.groupBy.isEmpty, plan.valuation == .booked, plan.whatIfRates.isEmpty,
              plan.condition?.testsAmount != true, let last = days.max() else { return nil }
        var whole = plan
        whole.days = DayRange(plan.days?.first ?? .distantPast, last)
        let lowering = SQLLowering(plan: whole, ledger: session.ledger)
        guard lowering.lowers else { return nil }
        let conversion = SQLConversion(lowering: lowering, target: target)
        guard let needsSQL = conversion.needs else { return nil }
        let needs = try SQLRateCalendar.needs(try query(needsSQL))
        let rates = SQLRateCalendar(whole, target: target, needs: needs, in: session)
        guard let sumSQL = conversion.sum([.day], calendar: rates.rows, fixedDay: false) else { return nil }

        // Each day's exact sum (an expense positive, as the result shows it).
        var byDay: [(day: Day, sum: Fraction)] = []
        let negate = plan.subject == .expenses
        let unreadable = QueryError(.database("the database gave a partial sum Abacus cannot read exactly"), at: nil)
        // Entries whose rate the calendar lacks (a missing rate) have no partial sum: the days
        // from theirs on fail on the tally first, the days before them do not count them.
        var rateless: Day?
        for r in try query(sumSQL) {
            guard let day = r[0].flatMap(Day.parse) else { throw unreadable }
            guard r[1] != nil || r[3] != nil else {
                if rateless.map({ day < $0 }) ?? true { rateless = day }
                continue
            }
            guard let den = r[1].flatMap(SQLConversion.fraction), den.numerator > 0, let partial = r[3].flatMap(SQLConversion.fraction) else {
                throw unreadable
            }
            byDay.append((day, Fraction(partial.numerator * den.denominator * (negate ? -1 : 1), partial.denominator * den.numerator)))
        }
        // The running sum up to each day asked, in order of day (each partial added once).
        byDay.sort { $0.day < $1.day }
        var upTo: [Day: Fraction] = [:]
        var running = Fraction.zero
        var next = 0
        for day in days.sorted() {
            while next < byDay.count && byDay[next].day <= day {
                running = running + byDay[next].sum
                next += 1
            }
            upTo[day] = running
        }
        var out: [Result<ResultSet, QueryError>] = []
        for day in days {
            do throws(QueryError) {
                if session.isCancelled() { throw QueryError(.cancelled, at: nil) }
                let tally = try rates.tally(needs.filter { $0.day <= day })
                let warnings = try Executor.outcome(rates.calendar, tally)
                if let rateless, rateless <= day { throw unreadable }
                let sum = upTo[day] ?? .zero
                guard let value = sum.rounded(toScale: target.minorUnits) else { throw QueryError(.overflow, at: nil) }
                var result = ResultSet(columns: [Column(plan.aggregate.rawValue, .money)], rows: [[.money(value, target)]], currency: target)
                if plan.keepsExactSum { result.exactSum = sum }
                let provenance = tally.provenance(rates.calendar)
                result.warnings = warnings
                result.provenance = provenance
                result.rateNotes = Executor.rateNotes(rates.calendar, provenance)
                out.append(.success(result))
            } catch {
                out.append(.failure(error))
            }
        }
        return out
    }
}
