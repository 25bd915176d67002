// `networth [in CUR] [at DATE]` and `networth by month|quarter|year [PERIOD] [in CUR]`
// (docs/language.md#networth). Assets are the balances of the accounts that count in net
// worth (a negative one counts as a liability), the manual assets as of DATE (the newest
// record of each id dated on or before it) and the holdings at market value; liabilities
// are the liability records as of DATE. Every part converts at DATE (custom, then market),
// exactly, and each measure is rounded once.

import AbacusCore

/// The parts of a net worth on one day, exact, in one currency.
struct NetWorthParts {
    var assets = Fraction.zero
    var liabilities = Fraction.zero
    /// Manual assets marked `includeInCore: false`.
    var outsideCore = Fraction.zero
    var tangibleAssets = Fraction.zero
    /// The accounts' balances, negative ones included.
    var accounts = Fraction.zero
    /// The liability records alone.
    var liabilityRecords = Fraction.zero
    var volatile = Fraction.zero

    var netWorth: Fraction { assets - liabilities }
}

extension Session {
    func netWorthParts(on day: Day, in target: Currency, known: BalanceSums = BalanceSums(), trace: inout ReportTrace) throws(QueryError) -> NetWorthParts {
        try stopIfCancelled()
        var p = NetWorthParts()
        for book in ledger.books where book.openingBalance != nil && book.includeInNetWorth {
            let v = try converted(try balance(of: book, on: day, known: known, trace: &trace), book.currency, target, on: day, trace: &trace)
            p.accounts = p.accounts + v
            if v.isNegative { p.liabilities = p.liabilities + v.magnitude } else { p.assets = p.assets + v }
        }
        for a in Ledger.current(ledger.assets, id: \.id, day: \.day, asOf: day) {
            let v = try converted(Fraction(a.value), a.currency, target, on: day, trace: &trace)
            trace.plan.append("asset \(ShownText.literal(a.name)) \(a.value) \(a.currency) of \(a.day)")
            p.assets = p.assets + v
            if !a.includeInCore { p.outsideCore = p.outsideCore + v }
            if a.tangible { p.tangibleAssets = p.tangibleAssets + v }
            if a.volatile { p.volatile = p.volatile + v }
        }
        for h in try holdingPositions(on: day, trace: &trace) {
            let v = try converted(h.value, h.currency, target, on: day, trace: &trace)
            p.assets = p.assets + v
            p.volatile = p.volatile + v
        }
        for l in Ledger.current(ledger.liabilities, id: \.id, day: \.day, asOf: day) {
            let v = try converted(Fraction(l.balance), l.currency, target, on: day, trace: &trace)
            trace.plan.append("liability \(ShownText.literal(l.name)) \(l.balance) \(l.currency) of \(l.day)")
            p.liabilities = p.liabilities + v
            p.liabilityRecords = p.liabilityRecords + v
        }
        return p
    }
}

struct NetWorthStatement: ReportRunner {
    let request: NetWorthRequest

    var summary: String {
        "networth" + (request.by.map { " by \($0.rawValue)" } ?? "") + (request.currency.map { " in \($0.code)" } ?? "")
            + (request.at.map { " at \($0.description)" } ?? "")
    }

    func compute(in session: Session, trace: inout ReportTrace) throws(QueryError) -> ResultSet {
        let target = request.currency ?? session.currency
        guard let unit = request.by else {
            let day = try session.reportDay(request.at)
            trace.plan.append("AT \(day) in \(target.code)")
            let p = try session.netWorthParts(on: day, in: target, trace: &trace)
            let measures: [(String, Fraction)] = [
                ("assets", p.assets), ("liabilities", p.liabilities), ("net worth", p.netWorth),
                ("core net worth", p.netWorth - p.outsideCore),
                ("tangible net worth", p.tangibleAssets + p.accounts - p.liabilityRecords),
                ("volatile assets", p.volatile),
            ]
            var rows: [[Cell]] = []
            for (name, value) in measures { rows.append([.text(name), try value.money(target)]) }
            return ResultSet(columns: [Column("measure", .text), Column("amount", .money)], rows: rows, currency: target)
        }
        // The history: each period's values as of its last day.
        let thisPeriod = Period(unit, containing: session.today)
        var days = try PeriodClause.days(request.periods, today: session.today) ?? DayRange(session.firstRecordDay, thisPeriod.days.last)
        if days.first == .distantPast { days.first = session.firstRecordDay }
        if days.last == .distantFuture { days.last = thisPeriod.days.last }
        let periods = Period.covering(days, unit: unit)
        trace.plan.append("EACH \(unit.rawValue) \(periods.first?.description ?? "")..\(periods.last?.description ?? "") in \(target.code), as of its last day")
        var rows: [[Cell]] = []
        let known = try session.balanceSums(on: periods.map(\.days.last))
        for period in periods {
            let p = try session.netWorthParts(on: period.days.last, in: target, known: known, trace: &trace)
            rows.append([.period(period), try p.assets.money(target), try p.liabilities.money(target), try p.netWorth.money(target)])
        }
        guard let key = GroupKey(rawValue: unit.rawValue) else { throw QueryError(.unsupported("networth by \(unit.rawValue): by month, quarter or year"), at: nil) }
        return ResultSet(columns: [Column(unit.rawValue, .key(key)), Column("assets", .money), Column("liabilities", .money), Column("net worth", .money)],
                         rows: rows, currency: target)
    }
}

extension Session {
    /// The earliest date of an entry, asset, liability or holding (today when there is none).
    var firstRecordDay: Day {
        let days = [ledger.entries.day.first.map(Day.init(number:))] + [ledger.assets.map(\.day).min(), ledger.liabilities.map(\.day).min(),
                                                                     ledger.holdings.map(\.day).min()]
        return days.compactMap { $0 }.min() ?? today
    }
}
