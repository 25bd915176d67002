// A converted statement's rate calendar (docs/postgres.md, Converted sums): the database
// counts the entries each rule converts, per currency and day; the in-memory resolver works
// out the custom and market rates those need (`RateCalendar`); and the counts fill a
// `ConversionTally` as a scan would, so the errors, warnings and `explain`'s rates are the
// in-memory engine's own.

import AbacusCore
import AbacusQuery

struct SQLRateCalendar {
    /// How many entries follow a rule (`SQLConversion.Branch.code`) in a currency on a day,
    /// and (with a test of amounts) how many of them reach the test.
    struct Need {
        var code: String
        var currency: Currency
        var day: Day
        var entries: Int
        var reached: Int
    }

    private struct DayOf: Hashable {
        var currency: Currency
        var day: Int32
    }

    let calendar: RateCalendar
    private var calendarID: [DayOf: Int32] = [:]
    private let whatIfID: [Currency: Int32]
    /// The calendar's rates as the `VALUES` list sends them: one row per currency and day (per
    /// currency under a fixed day).
    private(set) var rows: [SQLConversion.CalendarRow] = []

    /// The needs the first statement's rows give: rule, currency, day, entries (and reached).
    static func needs(_ rows: [TextRow]) throws(QueryError) -> [Need] {
        var needs: [Need] = []
        for r in rows {
            guard let code = r[0], let c = r[1].flatMap(Currency.init(code:)), let d = r[2].flatMap(Day.parse), let n = r[3].flatMap({ Int($0) }),
                  let reached = r.count > 4 ? r[4].flatMap({ Int($0) }) : n else {
                throw QueryError(.database("the database gave a row Abacus cannot read while counting the rates a statement needs"), at: nil)
            }
            needs.append(Need(code: code, currency: c, day: d, entries: n, reached: reached))
        }
        return needs
    }

    /// The calendar of the custom and market rates (rule `m`) that `needs` count.
    init(_ plan: LogicalPlan, target: Currency, needs: [Need], in session: Session) {
        let calendarNeeds = needs.filter { $0.code == "m" }
        calendar = RateCalendar(ledger: session.ledger, resolver: session.resolver, target: target, valuation: plan.valuation, today: session.today,
                                agePolicy: RateAgePolicy(maxAgeDays: session.maxRateAge), whatIf: plan.whatIfRates,
                                needs: calendarNeeds.map { ($0.currency, $0.day) })
        for (i, n) in calendarNeeds.enumerated() { calendarID[DayOf(currency: n.currency, day: n.day.number)] = calendar.ids[i] }
        whatIfID = Dictionary(calendar.whatIf.map { ($0.from, $0.id) }, uniquingKeysWith: { a, _ in a })
        var seen = Set<Currency>()
        for (i, n) in calendarNeeds.enumerated() {
            let id = calendar.ids[i]
            guard id >= 0 else { continue }
            if calendar.asOf != nil {
                guard seen.insert(n.currency).inserted else { continue }
                rows.append(.init(currency: n.currency, day: nil, rate: calendar.rates[Int(id)].resolved.rate))
            } else {
                rows.append(.init(currency: n.currency, day: n.day, rate: calendar.rates[Int(id)].resolved.rate))
            }
        }
    }

    /// The counts as a scan would tally them.
    func tally(_ needs: [Need]) throws(QueryError) -> ConversionTally {
        var tally = ConversionTally(calendar)
        for n in needs {
            let id: Int32
            switch n.code {
            case "w": id = whatIfID[n.currency] ?? RateColumn.unusable
            case "s": id = RateColumn.same
            case "n": id = RateColumn.normalized
            case "c": id = RateColumn.conversionRate
            case "m":
                guard let m = calendarID[DayOf(currency: n.currency, day: n.day.number)] else {
                    throw QueryError(.database("the database gave a currency and day the rate calendar lacks"), at: nil)
                }
                id = m
            default:
                guard n.code.hasPrefix("l"), let b = Int(n.code.dropFirst()), calendar.locked.indices.contains(b), calendar.locked[b] >= 0 else {
                    throw QueryError(.database("the database gave a rule \(n.code) Abacus did not write"), at: nil)
                }
                id = calendar.locked[b]
            }
            tally.count(id, day: n.day.number, entries: n.entries)
        }
        return tally
    }
}
