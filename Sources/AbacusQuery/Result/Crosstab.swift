// A crosstab (`sum expenses by category per month`): one row per combination of the
// `by` keys, one column per value of the `per` key.
//
// It runs the statement as plain plans and puts them together, so that every number is
// an exact aggregate of its own entries, never a sum of rounded cells:
//   cells          grouped by the `by` keys and the `per` key;
//   rows           grouped by the `by` keys, with the statement's `order by` and `top N`:
//                  the rows' order, their Total column and the total row's Total;
//   column totals  grouped by the `per` key (and `currency` in native), over the rows
//                  shown (after `top N`, restricted to their entries).
// Period columns run from the first to the last period of the statement's days (or of
// the matching entries, where the days are open), empty ones included; other keys'
// values are those that occur, ascending, `(none)` last. docs/language.md, Reports.

import AbacusCore

struct Crosstab {
    let plan: LogicalPlan
    let per: GroupKey
    let engine: ReportEngine

    /// More columns than anyone reads: `per day` over years is refused, with advice.
    static let maxColumns = 1_000

    init(plan: LogicalPlan, per: GroupKey, engine: ReportEngine) {
        self.plan = plan
        self.per = per
        self.engine = engine
    }

    var cellsPlan: LogicalPlan {
        var p = plan.unranked
        p.groupBy.append(per)
        return p
    }

    var rowsPlan: LogicalPlan {
        var p = plan
        p.per = nil
        return p
    }

    func columnTotalsPlan(shownRows: [[Cell]]?) -> LogicalPlan {
        var p = shownRows.map { rowsPlan.restricted(toRows: $0, in: engine.context.ledger) } ?? plan
        p = p.unranked
        p.groupBy = plan.totalKeys + [per]
        return p
    }

    func grandTotalPlan(shownRows: [[Cell]]) -> LogicalPlan {
        var p = rowsPlan.restricted(toRows: shownRows, in: engine.context.ledger).unranked
        p.groupBy = plan.totalKeys
        return p
    }

    /// What `explain` adds to the logical plan: the plans that run.
    var runs: [String] {
        let rowKeys = plan.groupBy.map(\.rawValue)
        return ["cells: GROUP BY " + (rowKeys + [per.rawValue]).joined(separator: ", "),
                "row totals: " + (rowKeys.isEmpty ? "no grouping" : "GROUP BY " + rowKeys.joined(separator: ", ")),
                "column totals: GROUP BY " + (plan.totalKeys + [per]).map(\.rawValue).joined(separator: ", ")
                    + (plan.top != nil ? " (over the entries of the rows top N keeps)" : "")]
    }

    func run() throws(QueryError) -> ResultSet {
        let cells = try engine.result(of: cellsPlan)
        let rows = try engine.result(of: rowsPlan)
        let keyCount = plan.groupBy.count
        // Cells by their row's keys, then the column's value.
        var table: [[Cell]: [Cell: Cell]] = [:]
        var seen = Set<Cell>()
        for row in cells.rows {
            let key = Array(row.prefix(keyCount)), column = row[keyCount]
            table[key, default: [:]][column] = row.last ?? .empty
            seen.insert(column)
        }
        let columns = try columnValues(seen)

        let cut = rows.totalsAreCut
        let shown = rows.rows.map { Array($0.prefix(keyCount)) }
        let columnTotals = try engine.result(of: columnTotalsPlan(shownRows: cut ? shown : nil))
        var totalsTable: [[Cell]: [Cell: Cell]] = [:]
        let totalKeyCount = plan.totalKeys.count
        for row in columnTotals.rows {
            totalsTable[Array(row.prefix(totalKeyCount)), default: [:]][row[totalKeyCount]] = row.last ?? .empty
        }
        let grand = cut ? try engine.result(of: grandTotalPlan(shownRows: shown)).valuesByKey : [:]

        let valueColumn = rows.columns.last ?? Column("amount", .money)
        let averaged = per.isPeriod && plan.aggregate.adds
        var out = ResultSet(columns: Array(rows.columns.dropLast()), rows: [], currency: cells.currency, warnings: cells.warnings,
                            provenance: cells.provenance, rateNotes: cells.rateNotes)
        var names = Set(out.columns.map(\.name))
        for c in columns {
            var name = Crosstab.label(c)
            // Two columns of one name would be one key in JSON: the later one is numbered.
            var n = 2
            while names.contains(name) { name = Crosstab.label(c) + " (\(n))"; n += 1 }
            names.insert(name)
            out.columns.append(Column(name, valueColumn.kind))
        }
        out.columns.append(Column("Total", valueColumn.kind, summary: true))
        if averaged { out.columns.append(Column("Average", plan.aggregate == .count ? .quantity : valueColumn.kind, summary: true)) }

        for row in rows.rows {
            let key = Array(row.prefix(keyCount))
            let currency = plan.target ?? key.currency
            let values = table[key, default: [:]]
            let empty = plan.aggregate.emptyValue(in: currency)
            var line = key + columns.map { values[$0].or(empty) }
            line.append(row.last ?? .empty)
            if averaged { line.append(Crosstab.average(row.last ?? .empty, over: columns.count)) }
            out.rows.append(line)
        }
        for total in rows.totals {
            let labels = Array(total.prefix(keyCount))
            let totalKey = plan.totalKeys.isEmpty ? [] : labels.filter { $0.currencyValue != nil }
            let currency = plan.target ?? totalKey.first?.currencyValue
            let values = totalsTable[totalKey, default: [:]]
            let empty = plan.aggregate.emptyValue(in: currency)
            var line = labels + columns.map { values[$0].or(empty) }
            let whole = cut ? grand[totalKey].or(empty) : total.last.or(.empty)
            line.append(whole)
            if averaged { line.append(Crosstab.average(whole, over: columns.count)) }
            out.totals.append(line)
        }
        return out
    }

    /// The columns: every period of the range, or the values that occur.
    func columnValues(_ seen: Set<Cell>) throws(QueryError) -> [Cell] {
        guard let unit = per.periodUnit else {
            let sorted = seen.sorted { ResultShaper.SortKey.ascending([ResultShaper.SortKey($0)], [ResultShaper.SortKey($1)]) }
            guard sorted.count <= Crosstab.maxColumns else { throw tooMany(sorted.count) }
            return sorted
        }
        let periods = seen.compactMap { if case .period(let p) = $0 { return p } else { return nil } }
        let days = plan.days ?? .all
        let first = days.first != .distantPast ? Period(unit, containing: days.first) : periods.min()
        let last = days.last != .distantFuture ? Period(unit, containing: days.last) : periods.max()
        guard let first, let last, first <= last else { return [] }
        let count = Int(last.code) - Int(first.code) + 1
        guard count <= Crosstab.maxColumns else { throw tooMany(count) }
        return Period.covering(DayRange(first.days.first, last.days.last), unit: unit).map(Cell.period)
    }

    func tooMany(_ n: Int) -> QueryError {
        QueryError(.unsupported("`per \(per.rawValue)` would make \(n) columns (at most \(Crosstab.maxColumns)): narrow the period (during 2025) or use a longer period (per month)"), at: nil)
    }

    /// A column's name: its value as a label (`2025-10`, `INR`, a name, `(none)`).
    static func label(_ c: Cell) -> String {
        switch c {
        case .period(let p): return p.description
        case .currency(let cur): return cur.code
        case .text(let s): return s
        case .none: return "(none)"
        default: return ""
        }
    }

    /// A row's Total over its period columns, half-even to the currency's minor unit (a
    /// count's average to one decimal).
    static func average(_ total: Cell, over n: Int) -> Cell {
        guard n > 0 else { return .empty }
        switch total {
        case .money(let d, let c):
            return Fraction(d).divided(by: n).rounded(toScale: c.minorUnits).map { .money($0, c) } ?? .empty
        case .count(let k):
            return Fraction(ExactDecimal(k)).divided(by: n).rounded(toScale: 1).map(Cell.decimal) ?? .empty
        default:
            return .empty
        }
    }
}
