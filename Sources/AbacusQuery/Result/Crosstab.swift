// A crosstab (`sum expenses by category per month`): one row per combination of the
// `by` keys, one column per value of the `per` key.
//
// Where every entry falls in one cell, one run of the cells gives everything: the totals
// are the cells' groups merged exactly (`rolledUp`). Otherwise it runs the statement as
// three plain plans and puts them together (`separately`), so that every number is an
// exact aggregate of its own entries, never a sum of rounded cells:
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

    /// What `explain` adds to the logical plan: the plans that run.
    var runs: [String] {
        let rowKeys = plan.groupBy.map(\.rawValue)
        let cells = "cells: GROUP BY " + (rowKeys + [per.rawValue]).joined(separator: ", ")
        if rollsUp { return [cells, "row, column and grand totals: the cells' groups merged exactly (one run)"] }
        return [cells,
                "row totals: " + (rowKeys.isEmpty ? "no grouping" : "GROUP BY " + rowKeys.joined(separator: ", ")),
                "column totals: GROUP BY " + (plan.totalKeys + [per]).map(\.rawValue).joined(separator: ", ")
                    + (plan.top != nil ? " (over the entries of the rows top N keeps)" : "")]
    }

    /// Whether one run of the cells can give every total: each entry in one cell (no `tag`
    /// key; a split view's count, average, least or greatest sees an entry whole in a total,
    /// and in parts in the cells, and its `order by count` ranks rows by entries, not parts),
    /// the cells run in memory (a database engine does not take them), converted (an
    /// `in native` total would add currencies).
    var rollsUp: Bool {
        let ledger = engine.context.ledger
        let inMemory = engine.session.engine.map { $0.explain(cellsPlan, in: engine.session) == nil } ?? true
        return !plan.groupBy.contains(.tag) && per != .tag && inMemory
            && (plan.target != nil || plan.aggregate == .count)
            && !(ledger.isSplitView && (plan.aggregate != .sum || plan.ranksByEntryCount))
    }

    func run() throws(QueryError) -> ResultSet {
        try rollsUp ? rolledUp() : separately()
    }

    /// The crosstab from three runs: the cells, the rows' totals, the columns' totals.
    func separately() throws(QueryError) -> ResultSet {
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
        let grand = cut ? try engine.result(of: rowsPlan.totals(overRows: shown, in: engine.context.ledger)).valuesByKey : [:]

        var out = ResultSet(columns: header(Array(rows.columns.dropLast()), columns), rows: [], currency: cells.currency,
                            warnings: cells.warnings, provenance: cells.provenance, rateNotes: cells.rateNotes)
        for row in rows.rows {
            let key = Array(row.prefix(keyCount)), values = table[key, default: [:]]
            out.rows.append(line(key, columns.map { values[$0] }, total: row.last.or(.empty), currency: plan.target ?? key.currency))
        }
        // An entry in several columns (its tags; a split entry, by its parts' categories, for
        // all but a sum) is counted once (whole) in the Total column, and twice across the cells:
        // the total row says so, as a grouped result's does when an entry is in several rows.
        let severalColumns = per == .tag || (plan.readsSplits && plan.aggregate != .sum)
        for total in rows.totals {
            let labels = total.prefix(keyCount).map { cell -> Cell in
                if severalColumns, case .total(let l) = cell { return .total(l.eachEntryOnce) }
                return cell
            }
            let totalKey = plan.totalKeys.isEmpty ? [] : labels.filter { $0.currencyValue != nil }
            let currency = plan.target ?? totalKey.first?.currencyValue
            let whole = cut ? grand[totalKey].or(plan.aggregate.emptyValue(in: currency)) : total.last.or(.empty)
            let values = totalsTable[totalKey, default: [:]]
            out.totals.append(line(labels, columns.map { values[$0] }, total: whole, currency: currency))
        }
        // No `by` and no column (no period to show): no row, as the roll-up gives.
        if keyCount == 0 && columns.isEmpty { (out.rows, out.totals) = ([], []) }
        return out
    }

    /// Whether the table adds an `Average` column: per a period, for sum and count.
    var averaged: Bool { per.isPeriod && plan.aggregate.adds }

    /// The crosstab's columns: the row keys', one per column value, `Total`, and `Average`.
    func header(_ keyColumns: [Column], _ columns: [Cell]) -> [Column] {
        let kind: ColumnKind = plan.aggregate == .count ? .count : .money
        var out = keyColumns + Crosstab.names(columns, after: keyColumns).map { Column($0, kind) }
        // A value named `Total` or `Average` (a category) keeps its name; the table's own column takes ` (2)`.
        let summaries = Crosstab.names(averaged ? [.text("Total"), .text("Average")] : [.text("Total")], after: out)
        out.append(Column(summaries[0], kind, summary: true))
        if averaged { out.append(Column(summaries[1], plan.aggregate == .count ? .quantity : kind, summary: true)) }
        return out
    }

    /// A row (or the total row): its labels, a cell per column (0 or empty where it has none:
    /// `values` holds the row's value of each column, in the columns' order), its total and its average.
    func line(_ labels: [Cell], _ values: [Cell?], total: Cell, currency: Currency?) -> [Cell] {
        let empty = plan.aggregate.emptyValue(in: currency)
        var out = labels + values.map { $0 ?? empty }
        out.append(total)
        if averaged { out.append(Crosstab.average(total, over: values.count)) }
        return out
    }

    /// The crosstab from one run of the cells: each row's total, each column's and the whole
    /// merged exactly from the cells' groups (rounded once, as every total).
    func rolledUp() throws(QueryError) -> ResultSet {
        let keyCount = plan.groupBy.count
        var out: ResultSet?
        let cells = try engine.executor().run(engine.physical(cellsPlan)) { groups, values, merge throws(QueryError) in
            // The cells' groups by row (in first-seen order) and by column, told apart by their keys'
            // codes; each row's and column's values made once.
            var rowOf: [GroupCodes: Int] = [:], columnOf: [UInt32: Int] = [:]
            var rowKeys: [[Cell]] = [], rowIds: [[Int]] = [], rowEntries: [Int] = []
            var columnCells: [Cell] = []
            var placed: [(row: Int, column: Int, value: Cell)] = []
            placed.reserveCapacity(groups.count)
            // Each group's column by its id (the executor numbers groups from 1).
            var columnOfGroup = [Int](repeating: -1, count: (groups.map(\.id).max() ?? 0) + 1)
            for g in groups {
                guard let codes = g.codes else { continue }
                var rowCodes = codes
                rowCodes[keyCount] = 0
                let r: Int
                if let known = rowOf[rowCodes] { r = known } else {
                    r = rowKeys.count
                    rowOf[rowCodes] = r
                    rowKeys.append((0..<keyCount).map { values.cell($0, codes[$0]) }); rowIds.append([]); rowEntries.append(0)
                }
                let c: Int
                if let known = columnOf[codes[keyCount]] { c = known } else {
                    c = columnCells.count
                    columnOf[codes[keyCount]] = c
                    columnCells.append(values.cell(keyCount, codes[keyCount]))
                }
                rowIds[r].append(g.id)
                rowEntries[r] += g.entries
                columnOfGroup[g.id] = c
                placed.append((r, c, g.value))
            }
            let columns = try columnValues(Set(columnCells))
            // Each column met, at its place among the columns shown.
            var place = [Int](repeating: -1, count: columnCells.count)
            let placeOf = Dictionary(columns.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
            for (c, cell) in columnCells.enumerated() { place[c] = placeOf[cell] ?? -1 }
            var table = [[Cell?]](repeating: Array(repeating: nil, count: columns.count), count: rowKeys.count)
            for p in placed where place[p.column] >= 0 { table[p.row][place[p.column]] = p.value }
            var rows: [GroupValue] = []
            for (r, key) in rowKeys.enumerated() {
                rows.append(GroupValue(id: r, key: key, value: try merge(rowIds[r]) ?? .empty, entries: rowEntries[r]))
            }
            // No `by`: one row, of the columns; none when there is no column either (no period to show).
            if keyCount == 0 && rows.isEmpty && !columns.isEmpty { rows = [GroupValue(id: 0, key: [], value: plan.aggregate.emptyValue(in: plan.target), entries: 0)] }
            rows = keyCount == 0 ? rows : ResultShaper.ordered(rows, keys: plan.groupBy, order: plan.order, byEntries: plan.ranksByEntryCount)
            let cut = plan.top.map { $0 < rows.count } ?? false
            if let top = plan.top, cut { rows = Array(rows.prefix(top)) }

            var result = ResultSet(columns: header(plan.groupBy.map { Column($0.rawValue, .key($0)) }, columns), rows: [])
            let empty = plan.aggregate.emptyValue(in: plan.target)
            for row in rows {
                let values = row.id < table.count ? table[row.id] : Array(repeating: nil, count: columns.count)
                result.rows.append(line(row.key, values, total: row.value, currency: plan.target))
            }
            if keyCount > 0 {
                let shown = rows.flatMap { rowIds[$0.id] }
                var byColumn = [[Int]](repeating: [], count: columns.count)
                for id in shown where id < columnOfGroup.count && columnOfGroup[id] >= 0 && place[columnOfGroup[id]] >= 0 {
                    byColumn[place[columnOfGroup[id]]].append(id)
                }
                let label: TotalLabel = plan.aggregate.adds ? (cut ? .totalOfTop(plan.top ?? 0) : .total) : (cut ? .overallOfTop(plan.top ?? 0) : .overall)
                var totals: [Cell?] = []
                for ids in byColumn { totals.append(ids.isEmpty ? nil : try merge(ids)) }
                let labels = [Cell.total(label)] + Array(repeating: Cell.empty, count: keyCount - 1)
                result.totals = [line(labels, totals, total: try merge(shown) ?? empty, currency: plan.target)]
            }
            out = result
        }
        guard var result = out else { throw QueryError(.unsupported("a crosstab needs a grouped plan"), at: nil) }
        result.currency = cells.currency
        result.warnings = cells.warnings
        result.provenance = cells.provenance
        result.rateNotes = cells.rateNotes
        return result
    }

    /// The columns' names: each value's label, numbered when it repeats an earlier column's
    /// name (two columns of one name would be one key in JSON).
    static func names(_ columns: [Cell], after earlier: [Column]) -> [String] {
        var names = Set(earlier.map(\.name))
        return columns.map { c in
            var name = label(c)
            var n = 2
            while names.contains(name) { name = label(c) + " (\(n))"; n += 1 }
            names.insert(name)
            return name
        }
    }

    /// The columns: every period of the range, or the values that occur.
    func columnValues(_ seen: Set<Cell>) throws(QueryError) -> [Cell] {
        guard let unit = per.periodUnit else {
            let sorted = seen.map { (ResultShaper.SortKey($0), $0) }.sorted { $0.0 < $1.0 }.map(\.1)
            guard sorted.count <= Crosstab.maxColumns else { throw tooMany(sorted.count) }
            return sorted
        }
        let periods = seen.compactMap { if case .period(let p) = $0 { return p } else { return nil } }
        let days = plan.days ?? .all
        let from = days.first != .distantPast ? Period(unit, containing: days.first) : periods.min()
        let to = days.last != .distantFuture ? Period(unit, containing: days.last) : periods.max()
        // An open end with no entry to close it (`since 2027-01`, nothing since): the bounded end alone.
        guard let first = from ?? to, let last = to ?? from, first <= last else { return [] }
        // A week's code is year × 100 + week, not a count of weeks: weeks are counted by their days.
        let count = unit == .week ? Int(last.days.first.number - first.days.first.number) / 7 + 1 : Int(last.code) - Int(first.code) + 1
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
