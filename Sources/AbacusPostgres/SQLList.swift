// `list` run in the database (docs/postgres.md, Listings): SQL selects the entries (the
// subject, days and condition as one WHERE clause) with every field a listing shows; in
// date order, by date descending, by a native amount or by a name, `ORDER BY` and `LIMIT`
// run there, with the in-memory engine's tie-break (date order, the entries' positions). A
// name's order is Swift's (any letter case, "(none)" last), sent as each name's place in a
// CASE. A converted listing first asks for the rates (SQLConversion.swift: the rate
// calendar, its errors and warnings), then selects each entry's amount × numerator and
// denominator by the rules' CASE; Swift divides each shown amount exactly and rounds it
// once, half-even, and totals the rows shown exactly, rounded once. Ranked by a converted
// amount, Swift orders the selected entries exactly (with `top N`, SQL selects the best N
// of each denominator: within one, amount × numerator ranks as the converted amount).

import AbacusCore
import AbacusQuery
import Foundation

extension SQLLowering {
    /// Whether the listing's order is the database's: date order either way, or a native
    /// amount (exact `numeric` order), each tie in date order as the in-memory engine keeps it.
    var listOrdersInSQL: Bool {
        switch plan.order?.key {
        case nil, .date?: return true
        case .value?: return plan.target == nil
        case .key(let k)?: return nameOrder(k) != nil
        }
    }

    /// `order by` a name: each name's place in the order Swift gives the names in any letter
    /// case (`Listing.before`: names equal in lower case share a place, and their entries
    /// stay in date order), from the names the ledger's entries use; "(none)" after them.
    func nameOrder(_ k: GroupKey) -> (column: String, places: [String: Int], none: Int)? {
        let store = ledger.entries
        let column: String, names: [(value: String, label: String)]
        switch k {
        case .book: column = "e.book_id"; names = ledger.books.map { ($0.id, $0.name) }
        case .category: column = "e.category"; names = store.categories.map { ($0, $0) }
        case .party: column = "e.party"; names = store.parties.dropFirst().map { ($0, $0) }
        case .currency: column = "e.currency"; names = Set(store.currency).map { ($0.code, $0.code) }
        default: return nil
        }
        let lowered = Set(names.map { $0.label.lowercased() }).sorted()
        var place: [String: Int] = [:]
        for (i, l) in lowered.enumerated() { place[l] = i }
        var places: [String: Int] = [:]
        for n in names { places[n.value] = place[n.label.lowercased()] }
        return (column, places, lowered.count)
    }

    /// The place of each entry's name as SQL: NULL for a name the ledger's names lack, which
    /// sorts first either way (and is refused when read).
    func namePlace(_ order: (column: String, places: [String: Int], none: Int)) -> String {
        "CASE WHEN \(order.column) IS NULL THEN \(order.none)"
            + order.places.sorted { ($0.value, $0.key) < ($1.value, $1.key) }.map { " WHEN \(order.column) = \(SQLLowering.literal($0.key)) THEN \($0.value)" }.joined()
            + " END"
    }

    /// The listing's statement: each entry's fields (and, converted, its amount × numerator
    /// and denominator), with how many entries pass; ordered and cut in SQL when the order is
    /// the database's. `conversion` with `calendar` (nil: its placeholder) for converted amounts.
    func listing(_ conversion: SQLConversion?, calendar: [SQLConversion.CalendarRow]?, fixedDay: Bool) -> String? {
        guard let w = conversion?.lowering.whereClause ?? whereClause else { return nil }
        var columns = ["e.position::text", "e.id", "e.day::text", "e.book_id", "e.category", "e.party", "e.payment", "e.currency",
                       "e.remarks", "array_to_json(e.tags)::text", "e.amount::text"]
        if let conversion { columns += ["(\(conversion.cases(\.value)))::text", "(\(conversion.cases(\.denominator)))::text"] }
        columns.append("(count(*) OVER ())::text")
        let from = "\nFROM abacus_entries e" + (conversion != nil ? "\n" + SQLConversion.join(fixedDay: fixedDay) : "") + "\nWHERE " + w
        var sql = conversion.map { _ in SQLConversion.with(calendar) } ?? ""
        if let conversion, let top = plan.top, plan.order?.key == .value {
            // The best N of each denominator: within one (denominators are positive) amount ×
            // numerator ranks as the converted amount, so the best N overall are among them;
            // Swift ranks those exactly (no row is divided here).
            let den = conversion.cases(\.denominator), value = conversion.cases(\.value)
            let shown = (plan.subject == .expenses ? "-" : "") + "(\(value))"
            let named = columns.enumerated().map { "\($1) AS c\($0)" }
            let rank = "row_number() OVER (PARTITION BY \(den) ORDER BY \(shown)\(plan.order?.descending == true ? " DESC" : ""), e.position) AS rank"
            return sql + "SELECT " + columns.indices.map { "ranked.c\($0)" }.joined(separator: ", ")
                + "\nFROM (SELECT " + (named + [rank]).joined(separator: ", ") + from + ") AS ranked\nWHERE ranked.rank <= \(top)"
        }
        sql += "SELECT " + columns.joined(separator: ", ") + from
        guard listOrdersInSQL else { return sql }
        let descending = plan.order?.descending == true
        switch plan.order?.key {
        case .value?: sql += "\nORDER BY " + (plan.subject == .expenses ? "-e.amount" : "e.amount") + (descending ? " DESC" : "") + ", e.position"
        case .key(let k)?:
            guard let names = nameOrder(k) else { return nil }
            sql += "\nORDER BY " + namePlace(names) + (descending ? " DESC" : "") + " NULLS FIRST, e.position"
        case .date?, nil: sql += "\nORDER BY e.position" + (descending ? " DESC" : "")
        }
        if let top = plan.top { sql += "\nLIMIT \(top)" }
        return sql
    }

    /// The currencies of the entries a listing ranks by native amount (more than one is refused).
    var listCurrencies: String? {
        whereClause.map { "SELECT e.currency\nFROM abacus_entries e\nWHERE " + $0 + "\nGROUP BY e.currency" }
    }
}

extension SQLEngine {
    func explainList(_ plan: LogicalPlan, in session: Session) -> String? {
        let lowering = SQLLowering(plan: plan, ledger: session.ledger)
        guard lowering.selectsRows else { return nil }
        guard let target = plan.target else { return lowering.listing(nil, calendar: nil, fixedDay: false) }
        let conversion = SQLConversion(lowering: lowering, target: target)
        let fixedDay: Bool
        switch plan.valuation {
        case .latest, .asOf: fixedDay = true
        case .booked, .market: fixedDay = false
        }
        guard let needs = conversion.needs, let listing = lowering.listing(conversion, calendar: nil, fixedDay: fixedDay) else { return nil }
        var out = "-- the entries each rule converts, per currency and day" + (conversion.testsAmount ? " (and how many reach the test of amounts)" : "") + "\n" + needs + ";\n"
        if conversion.testsAmount, let passing = conversion.passing(calendar: nil, fixedDay: fixedDay) {
            out += "-- the entries that pass, per rule, currency and day\n" + passing + ";\n"
        }
        return out + "-- the entries listed, each amount × numerator and denominator\n" + listing
    }

    /// `list`: the entries from the database, each shown amount divided exactly and rounded
    /// once in Swift (nil: the statement runs in memory).
    func runList(_ plan: LogicalPlan, in session: Session) throws(QueryError) -> ResultSet? {
        let ledger = session.ledger
        let lowering = SQLLowering(plan: plan, ledger: ledger)
        guard lowering.selectsRows else { return nil }
        var rates: ConvertedRates?
        if let target = plan.target {
            guard let r = try self.rates(plan, target: target, lowering: lowering, in: session) else { return nil }
            rates = r
        }
        guard let sql = lowering.listing(rates?.conversion, calendar: rates?.rows, fixedDay: rates?.fixedDay ?? false) else { return nil }
        let negate = plan.subject == .expenses
        let unreadable = QueryError(.database("the database gave an entry Abacus cannot read while listing"), at: nil)

        /// One listed entry: its cells but the amount, its position, and its exact amount as shown.
        struct Listed {
            var position: Int
            var cells: [Cell]
            var currency: Currency
            var value: Fraction
        }
        var listed: [Listed] = []
        var matched = 0
        let rows = try query(sql)
        for (k, r) in rows.enumerated() {
            if k & 0xFFF == 0xFFF, session.isCancelled() { throw QueryError(.cancelled, at: nil) }
            guard r.count >= 12, let position = r[0].flatMap({ Int($0) }), let id = r[1], let day = r[2].flatMap(Day.parse),
                  let bookID = r[3], let book = ledger.books.first(where: { $0.id == bookID }), let category = r[4],
                  let currency = r[7].flatMap(Currency.init(code:)), let amount = r[10].flatMap(SQLConversion.fraction),
                  let n = r[r.count - 1].flatMap({ Int($0) }) else { throw unreadable }
            var tags: [String] = []
            if let json = r[9] {
                do { tags = try JSONDecoder().decode([String].self, from: Data(json.utf8)) } catch { throw unreadable }
            }
            matched = n
            var value = amount
            if rates != nil {
                guard let times = r[11].flatMap(SQLConversion.fraction), let den = r[12].flatMap(SQLConversion.fraction), den.numerator > 0 else {
                    throw unreadable
                }
                value = Fraction(times.numerator * den.denominator, times.denominator * den.numerator)
            }
            if negate { value = Fraction(-value.numerator, value.denominator) }
            let cells: [Cell] = [.text(id), .date(day), .text(book.name), .text(category), r[5].map(Cell.text) ?? .none,
                                 r[6].map(Cell.text) ?? .none, .currency(currency), r[8].map(Cell.text) ?? .empty, .names(tags)]
            listed.append(Listed(position: position, cells: cells, currency: currency, value: value))
        }
        if plan.target == nil, plan.order?.key == .value, let currencies = lowering.listCurrencies {
            var seen: [Currency] = []
            for r in try query(currencies) {
                guard let c = r[0].flatMap(Currency.init(code:)) else { throw unreadable }
                seen.append(c)
            }
            try Listing.refuseRankingAcrossCurrencies(seen, home: ledger.defaultCurrency)
        }
        if case .key(let k)? = plan.order?.key, let names = lowering.nameOrder(k) {
            // A name the ledger's names lack would have been ordered first: refused, not misplaced.
            let index = [GroupKey.book: 3, .category: 4, .party: 5, .currency: 7][k] ?? 0
            for r in rows where r[index].map({ names.places[$0] == nil }) ?? false {
                throw QueryError(.database("the database holds a \(k.rawValue) \(r[index] ?? "") that its names table lacks"), at: nil)
            }
        }
        if !lowering.listOrdersInSQL, let order = plan.order {
            // By a converted amount: exactly, ties in date order.
            listed.sort { a, b in
                if a.value == b.value { return a.position < b.position }
                return order.descending ? b.value < a.value : a.value < b.value
            }
            if let top = plan.top, top < listed.count { listed = Array(listed.prefix(top)) }
        }
        if session.isCancelled() { throw QueryError(.cancelled, at: nil) }

        func money(_ f: Fraction, _ c: Currency) throws(QueryError) -> Cell {
            guard let r = f.rounded(toScale: c.minorUnits) else { throw QueryError(.overflow, at: nil) }
            return .money(r, c)
        }
        let columns = Listing.columns(plan)
        var shown: [[Cell]] = []
        shown.reserveCapacity(listed.count)
        for l in listed { shown.append(l.cells + [try money(l.value, plan.target ?? l.currency)]) }
        var result = ResultSet(columns: columns, rows: shown, currency: plan.target)
        if let target = plan.target, let rates {
            if !listed.isEmpty {
                let total = listed.reduce(Fraction.zero) { $0 + $1.value }
                let cut = plan.top.map { $0 < matched } ?? false
                result.totals = [Listing.totalRow(columns, total: try money(total, target), shown: listed.count, cut: cut)]
            }
            result.warnings = rates.warnings
            result.provenance = rates.provenance
            result.rateNotes = Executor.rateNotes(rates.calendar, rates.provenance)
        }
        return result
    }
}
