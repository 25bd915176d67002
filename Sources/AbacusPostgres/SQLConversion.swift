// A sum converted into a currency, run in the database (docs/postgres.md, Converted sums).
//
// The rules of conversion (docs/conversion.md#rules) stay in one place, the in-memory
// engine's: the database is asked which currencies on which days the statement's entries
// need a custom or market rate for (and how many entries each), the resolver works out
// those rates as a `RateCalendar`, and the calendar goes back into the database as a
// `VALUES` list of (currency, day, numerator, denominator). The sum then multiplies each
// amount by its rate's numerator, an exact product in `numeric`, and sums per group and
// per denominator; Swift divides each partial sum by its denominator as an exact fraction
// and rounds each value once, half-even. No quotient is ever taken per row.
//
// What-if rates (step 1) and the booked values (step 2: normalizedAmount, conversionRate,
// a book's locked rate) are decided per entry by a `CASE` in the order the rules give, as
// `RateColumn` decides them. The counts per rule, currency and day fill a
// `ConversionTally`, so the missing-rate errors, the warnings and `explain`'s rates come
// from the same code as in memory.
//
// An average divides the exact sum by the count; `min` and `max` rank the least and greatest
// amount × numerator of each denominator as exact fractions. A test of amounts compares
// amount × numerator with the number × denominator; its rates are those of the entries that
// reach the test as the in-memory engine evaluates the condition (docs/postgres.md).

import AbacusCore
import AbacusQuery
import BigInt

struct SQLConversion {
    /// The plan's lowering, its tests of amounts written with the rules' CASE.
    private(set) var lowering: SQLLowering
    let target: Currency
    /// Step 1: per currency, the what-if rate into the target.
    let whatIf: [(from: Currency, rate: Rate)]
    /// Step 2's locked books: (book index, book) for those that lock their currency into the target.
    let locked: [(index: Int, book: Book, rate: ExactDecimal)]
    let booked: Bool

    init(lowering: SQLLowering, target: Currency) {
        self.lowering = lowering
        self.target = target
        let plan = lowering.plan
        let overlay = WhatIfOverlay([], target: target, whatIf: plan.whatIfRates)
        whatIf = overlay.byCurrency.map { ($0.from, overlay.rates[Int($0.id)].resolved.rate) }
        booked = plan.valuation == .booked
        locked = booked ? lowering.ledger.books.enumerated().compactMap { i, b in b.lockedRate(into: target).map { (i, b, $0) } } : []
        // A test of amounts: the converted amount times its denominator (an expense
        // negated, as the result shows it) against the number times the denominator.
        let value = cases(\.value)
        self.lowering.convertedAmounts = SQLLowering.AmountTerms(value: plan.subject == .expenses ? "-(\(value))" : "(\(value))",
                                                                 denominator: "(\(cases(\.denominator)))")
    }

    /// Whether the condition tests amounts: the rates are then needed for the entries that
    /// reach the test, before the condition can be written.
    var testsAmount: Bool { lowering.plan.condition?.testsAmount == true }

    /// How a rule is written in SQL for each entry that follows it.
    struct Branch {
        /// Which rule (`w` what-if, `s` same currency, `n` normalizedAmount, `c` conversionRate,
        /// `l<book>` a locked rate, `m` the calendar's custom or market rate).
        var code: String
        /// The entry's converted value times the denominator.
        var value: String
        var denominator: String
    }

    /// The rules in the order they apply: a condition (nil: every entry left) and its branch.
    var rules: [(when: String?, then: Branch)] {
        let t = SQLLowering.literal(target.code)
        var out: [(String?, Branch)] = []
        for w in whatIf {
            out.append(("e.currency = \(SQLLowering.literal(w.from.code))",
                        Branch(code: "w", value: "e.amount * \(SQLConversion.number(w.rate.numerator))", denominator: SQLConversion.number(w.rate.denominator))))
        }
        out.append(("e.currency = \(t)", Branch(code: "s", value: "e.amount", denominator: "1")))
        if booked {
            out.append(("e.normalized_currency = \(t) AND e.normalized_amount IS NOT NULL",
                        Branch(code: "n", value: "e.normalized_amount", denominator: lowering.plan.readsSplits ? SQLSplitView.shareDenominator : "1")))
            out.append(("e.normalized_currency = \(t) AND e.conversion_rate IS NOT NULL", Branch(code: "c", value: "e.amount * e.conversion_rate", denominator: "1")))
            for l in locked {
                out.append(("e.book_id = \(SQLLowering.literal(l.book.id)) AND e.currency = \(SQLLowering.literal(l.book.currency.code))",
                            Branch(code: "l\(l.index)", value: "e.amount * \(SQLConversion.number(l.rate))", denominator: "1")))
            }
        }
        out.append((nil, Branch(code: "m", value: "e.amount * r.num", denominator: "r.den")))
        return out
    }

    /// One CASE over the rules, taking `part` of each branch.
    func cases(_ part: (Branch) -> String) -> String {
        var sql = "CASE"
        for r in rules {
            if let when = r.when { sql += "\n    WHEN \(when) THEN \(part(r.then))" } else { sql += "\n    ELSE \(part(r.then))" }
        }
        return sql + " END"
    }

    /// A numeric literal: exact decimal text.
    static func number(_ d: ExactDecimal) -> String { "CAST('\(d.description)' AS numeric)" }

    /// The first statement: how many entries follow each rule, per currency and day (with a
    /// test of amounts, of the entries that may need a rate, how many reach the test).
    var needs: String? {
        let code = cases { "'" + $0.code + "'" }
        if testsAmount {
            guard let w = lowering.candidatesClause, let c = lowering.plan.condition, let reach = lowering.reaching(c) else { return nil }
            return """
                SELECT \(code), e.currency, e.day::text, count(*)::text, sum(CASE WHEN \(reach) THEN 1 ELSE 0 END)::text
                FROM \(lowering.rows)
                WHERE \(w)
                GROUP BY \(code), e.currency, e.day
                """
        }
        guard let w = lowering.whereClause else { return nil }
        return """
            SELECT \(code), e.currency, e.day::text, count(*)::text
            FROM \(lowering.rows)
            WHERE \(w)
            GROUP BY \(code), e.currency, e.day
            """
    }

    /// With a test of amounts, the entries that pass it, per rule, currency and day: those
    /// whose rates a sum's warnings and `explain`'s rates count.
    func passing(calendar: [CalendarRow]?, fixedDay: Bool) -> String? {
        guard let w = lowering.whereClause else { return nil }
        let code = cases { "'" + $0.code + "'" }
        return SQLConversion.with(calendar) + """
            SELECT \(code), e.currency, e.day::text, count(*)::text
            FROM \(lowering.rows)
            \(SQLConversion.join(fixedDay: fixedDay))
            WHERE \(w)
            GROUP BY \(code), e.currency, e.day
            """
    }

    /// The rate calendar as a `WITH` clause (a placeholder for `explain`, before it is worked out).
    static func with(_ calendar: [CalendarRow]?) -> String {
        guard let calendar else {
            return "WITH r(currency, day, num, den) AS (VALUES <the rate calendar: a currency, a day, a numerator and a denominator for each currency and day the first statement counts under rule 'm'>)\n"
        }
        if calendar.isEmpty {
            return "WITH r(currency, day, num, den) AS (SELECT CAST(NULL AS text), CAST(NULL AS date), CAST(NULL AS numeric), CAST(NULL AS numeric) WHERE FALSE)\n"
        }
        let rows = calendar.map { c in
            "(\(SQLLowering.literal(c.currency.code)), \(c.day.map(SQLLowering.literal) ?? "CAST(NULL AS date)"), \(SQLConversion.number(c.rate.numerator)), \(SQLConversion.number(c.rate.denominator)))"
        }
        return "WITH r(currency, day, num, den) AS (VALUES\n    " + rows.joined(separator: ",\n    ") + ")\n"
    }

    /// The calendar joined to the entries (by currency alone under a fixed day).
    static func join(fixedDay: Bool) -> String {
        "  LEFT JOIN r ON r.currency = e.currency" + (fixedDay ? "" : " AND r.day = e.day")
    }

    /// The rate calendar as rows of a VALUES list: (currency, day, numerator, denominator);
    /// `fixedDay` rates are one per currency, whatever the day.
    struct CalendarRow {
        var currency: Currency
        var day: Day?
        var rate: Rate
    }

    /// Whether the statement keeps the least and greatest converted amount (`min`, `max`).
    var extremes: Bool { lowering.plan.aggregate == .min || lowering.plan.aggregate == .max }

    /// The second statement: per group and denominator, the entries and the sum of amount ×
    /// numerator (and for `min` and `max` its least and greatest value).
    func sum(_ keys: [GroupKey], calendar: [CalendarRow]?, fixedDay: Bool) -> String? {
        guard let w = lowering.whereClause else { return nil }
        let exprs = keys.map(lowering.key)
        let den = cases(\.denominator)
        var sql = SQLConversion.with(calendar)
        let value = cases(\.value)
        let from = "\nFROM " + lowering.rows + (keys.contains(.tag) ? "\n  LEFT JOIN LATERAL unnest(e.tags) AS t(tag) ON TRUE" : "")
            + "\n" + SQLConversion.join(fixedDay: fixedDay) + "\nWHERE " + w
        if extremes && lowering.plan.readsSplits {
            // The least and greatest entry: the parts of one entry in a group added up first
            // (they share its rate), as the in-memory engine picks them (`Accumulators.pick(_:_:entry:)`).
            let (names, entries) = SQLLowering.perEntry(exprs, columns: ["(\(den)) AS d", "count(*) AS n", "sum(\(value)) AS v"], groupBy: [den], from: from, as: "x")
            // The count is of the parts, as in memory; of the entries (one row each here) for `order by count`.
            let count = lowering.plan.ranksByEntryCount ? "count(*)" : "sum(n)"
            sql += "SELECT " + (names + ["d::text", count + "::text", "(sum(v))::text", "(min(v))::text", "(max(v))::text"]).joined(separator: ", ") + entries
            sql += "\nGROUP BY " + (names + ["d"]).joined(separator: ", ")
            return sql
        }
        var columns = exprs + ["(\(den))::text", "\(lowering.entriesCount)::text", "(sum(\(value)))::text"]
        // The least and greatest amount × numerator per denominator (denominators are positive,
        // so their order is the order of the converted values): Swift compares them exactly.
        if extremes { columns += ["(min(\(value)))::text", "(max(\(value)))::text"] }
        sql += "SELECT " + columns.joined(separator: ", ") + from
        sql += "\nGROUP BY " + (exprs + [den]).joined(separator: ", ")
        return sql
    }

    /// What `explain` shows: both statements.
    var explained: String? {
        let fixedDay: Bool
        switch lowering.plan.valuation {
        case .latest, .asOf: fixedDay = true
        case .booked, .market: fixedDay = false
        }
        guard let needs, let sum = sum(lowering.plan.groupBy, calendar: nil, fixedDay: fixedDay) else { return nil }
        var out = "-- the entries each rule converts, per currency and day" + (testsAmount ? " (and how many reach the test of amounts)" : "") + "\n" + needs + ";\n"
        if testsAmount && lowering.plan.aggregate != .count, let passing = passing(calendar: nil, fixedDay: fixedDay) {
            out += "-- the entries that pass, per rule, currency and day\n" + passing + ";\n"
        }
        return out + "-- the " + (lowering.plan.aggregate == .count ? "counts" : "sums") + ", per group and denominator\n" + sum
    }

    /// A decimal as the database writes it, as an exact fraction.
    static func fraction(_ text: String) -> Fraction? {
        var digits = Substring(text)
        var negative = false
        if digits.first == "-" { negative = true; digits = digits.dropFirst() }
        var scale = 0
        var whole = String(digits)
        if let dot = digits.firstIndex(of: ".") {
            scale = digits.distance(from: dot, to: digits.endIndex) - 1
            whole = String(digits[..<dot]) + String(digits[digits.index(after: dot)...])
        }
        guard !whole.isEmpty, whole.allSatisfy({ $0 >= "0" && $0 <= "9" }), let n = BigInt(whole) else { return nil }
        return Fraction(negative ? -n : n, BigInt(10).power(scale))
    }
}

extension SQLEngine {
    /// The rates a converted statement uses: the calendar (as VALUES rows), and the warnings
    /// and provenance of the entries it counts (nil: the statement does not lower).
    struct ConvertedRates {
        var conversion: SQLConversion
        var calendar: RateCalendar
        var rows: [SQLConversion.CalendarRow]
        var fixedDay: Bool { calendar.asOf != nil }
        var warnings: [String]
        var provenance: Provenance
    }

    /// The first statement (and, with a test of amounts, the count of the entries that pass),
    /// the calendar worked out by the in-memory resolver; a missing or too old rate fails here.
    func rates(_ plan: LogicalPlan, target: Currency, lowering: SQLLowering, in session: Session) throws(QueryError) -> ConvertedRates? {
        let conversion = SQLConversion(lowering: lowering, target: target)
        guard let needsSQL = conversion.needs else { return nil }

        // The entries each rule converts, per currency and day, and their rates.
        let candidates = try SQLRateCalendar.needs(try query(needsSQL))
        // Without a test of amounts every entry reaches the sum.
        let reached = candidates.filter { $0.reached > 0 }.map { n in
            SQLRateCalendar.Need(code: n.code, currency: n.currency, day: n.day, entries: n.reached, reached: n.reached)
        }
        let rates = SQLRateCalendar(plan, target: target, needs: candidates, in: session)
        let calendar = rates.calendar
        func tally(_ needs: [SQLRateCalendar.Need]) throws(QueryError) -> ConversionTally { try rates.tally(needs) }
        // With a test of amounts, the entries that reach it fail the statement if a rate is
        // missing (or too old); a count's warnings and rates are theirs, a sum's those of the
        // entries that pass (computed below, once the calendar is known).
        let reachedTally = try tally(reached)
        var warnings = try Executor.outcome(calendar, reachedTally)
        var provenance = reachedTally.provenance(calendar)

        let rows = rates.rows

        if conversion.testsAmount && plan.aggregate != .count {
            guard let sql = conversion.passing(calendar: rows, fixedDay: calendar.asOf != nil) else { throw QueryError(.database("the statement no longer lowers"), at: nil) }
            let passed = try tally(try SQLRateCalendar.needs(try query(sql)))
            warnings = try Executor.outcome(calendar, passed)
            provenance = passed.provenance(calendar)
        }
        return ConvertedRates(conversion: conversion, calendar: calendar, rows: rows, warnings: warnings, provenance: provenance)
    }

    /// A sum, average, least or greatest amount converted into `target` (or a count whose
    /// condition tests converted amounts): the rates from a calendar, the values from the database.
    func runConverted(_ plan: LogicalPlan, target: Currency, lowering: SQLLowering, in session: Session) throws(QueryError) -> ResultSet? {
        let ledger = session.ledger
        guard let rates = try rates(plan, target: target, lowering: lowering, in: session) else { return nil }
        let (conversion, calendar, rows) = (rates.conversion, rates.calendar, rates.rows)

        let keys = plan.groupBy
        let negate = plan.subject == .expenses
        /// One group's exact sum, its entries, and (`min`, `max`) its least and greatest value.
        struct Exact {
            var sum = Fraction.zero
            var entries = 0
            var least: Fraction?
            var greatest: Fraction?

            mutating func add(_ other: Exact) {
                sum = sum + other.sum
                entries += other.entries
                if let l = other.least, least.map({ l < $0 }) ?? true { least = l }
                if let g = other.greatest, greatest.map({ $0 < g }) ?? true { greatest = g }
            }
        }
        /// Per group (its key cells), the exact values; in the order the database gave them.
        func sums(_ keys: [GroupKey]) throws(QueryError) -> (order: [[Cell]], values: [[Cell]: Exact]) {
            guard let sql = conversion.sum(keys, calendar: rows, fixedDay: calendar.asOf != nil) else { throw QueryError(.database("the statement no longer lowers"), at: nil) }
            var order: [[Cell]] = []
            var values: [[Cell]: Exact] = [:]
            let unreadable = QueryError(.database("the database gave a partial sum Abacus cannot read exactly"), at: nil)
            for r in try query(sql) {
                var key: [Cell] = []
                for (i, k) in keys.enumerated() { key.append(try keyCell(k, r[i], ledger: ledger)) }
                guard let den = r[keys.count].flatMap(SQLConversion.fraction), den.numerator > 0,
                      let n = r[keys.count + 1].flatMap({ Int($0) }), let partial = r[keys.count + 2].flatMap(SQLConversion.fraction) else {
                    throw unreadable
                }
                /// x / den, exactly, as the result shows it (an expense positive).
                func shown(_ x: Fraction) -> Fraction {
                    Fraction(x.numerator * den.denominator * (negate ? -1 : 1), x.denominator * den.numerator)
                }
                var part = Exact(sum: shown(partial), entries: n)
                if conversion.extremes {
                    guard let low = r[keys.count + 3].flatMap(SQLConversion.fraction), let high = r[keys.count + 4].flatMap(SQLConversion.fraction) else {
                        throw unreadable
                    }
                    (part.least, part.greatest) = negate ? (shown(high), shown(low)) : (shown(low), shown(high))
                }
                if values[key] == nil { order.append(key) }
                values[key, default: Exact()].add(part)
            }
            return (order, values)
        }
        func money(_ f: Fraction) throws(QueryError) -> Cell {
            guard let r = f.rounded(toScale: target.minorUnits) else { throw QueryError(.overflow, at: nil) }
            return .money(r, target)
        }
        /// The value shown for exact values: the sum, the average (the exact quotient) or the
        /// extreme, rounded once; nothing for an average or extreme of no entries.
        func value(_ e: Exact) throws(QueryError) -> Cell {
            switch plan.aggregate {
            case .avg: return e.entries > 0 ? try money(e.sum.divided(by: e.entries)) : .empty
            case .min: return try e.least.map(money) ?? .empty
            case .max: return try e.greatest.map(money) ?? .empty
            case .count: return .count(e.entries)
            case .sum, .list: return try money(e.sum)
            }
        }

        let (order, values) = try sums(keys)
        var groups: [ComputedGroup] = []
        var exact: [Exact] = []
        for key in order {
            guard let v = values[key] else { continue }
            groups.append(ComputedGroup(key: key, value: try value(v), entries: v.entries))
            exact.append(v)
        }
        func merged(_ parts: some Sequence<Exact>) -> Exact {
            var total = Exact()
            for p in parts { total.add(p) }
            return total
        }
        // Each entry once: with tags, or an average or extreme over split entries (an entry's
        // parts in several groups, whole over the statement), the statement again without its keys.
        let once = keys.contains(.tag) || (plan.readsSplits && plan.aggregate != .sum)
        var wholeKnown: Exact?
        func wholeExact() throws(QueryError) -> Exact {
            // Asked for its value and its entries: the statement runs again once.
            if let wholeKnown { return wholeKnown }
            let w = once ? merged(try sums([]).values.values) : merged(exact)
            wholeKnown = w
            return w
        }
        let whole: () throws(QueryError) -> Cell = { () throws(QueryError) -> Cell in
            // Over no entries a sum is 0, an average or an extreme nothing.
            try value(wholeExact())
        }
        let subtotal: ([Int]) throws(QueryError) -> Cell? = { ids throws(QueryError) in
            try value(merged(ids.map { exact[$0] }))
        }
        var result = try ResultSet.shaped(plan, ledger: ledger, groups: groups, whole: whole, wholeEntries: { () throws(QueryError) in try wholeExact().entries },
                                          subtotal: subtotal, currencyTotal: { _, _, _ in nil }, isCancelled: session.isCancelled)
        if plan.keepsExactSum && plan.aggregate == .sum && keys.isEmpty { result.exactSum = merged(exact).sum }
        result.warnings = rates.warnings
        result.provenance = rates.provenance
        result.rateNotes = Executor.rateNotes(calendar, rates.provenance)
        return result
    }
}
