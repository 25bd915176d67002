// The physical planner: a `LogicalPlan` → a `Plan` the in-memory executor runs.
//
// Access path. The plan's days become a range of rows, found with two binary
// searches on the date-sorted store. A top-level equality or `in` on category,
// book or currency can use that column's posting lists instead: the planner
// estimates the rows each would touch inside the day range and takes the
// smallest, when it is clearly fewer than a scan of the range. Anything else is a
// scan, and both paths give the same rows (a property test holds them to it).
// The conditions left are lowered to masks over dictionary codes
// (`PredicateLowering`). `explain` prints the logical plan, then this access path.

import AbacusCore

public struct Plan: Sendable {
    /// What the query means.
    public var logical: LogicalPlan
    /// Rows of the day range (the date index's answer).
    public var rows: Range<Int>
    /// A posting-list access instead of a scan of `rows`.
    public var index: IndexAccess?
    /// Conditions left for each row, and how `explain` shows them.
    public var filter: Predicate?
    public var filterText: [String]
    /// The SQL a database engine runs instead of this access path (`--db`), when it does.
    public var sql: String?

    public var aggregate: Aggregate { logical.aggregate }
    public var subject: Subject { logical.subject }
    /// nil for `in native`.
    public var target: Currency? {
        get { logical.target }
        set { logical.target = newValue }
    }
    /// The result's keys, `currency` included `in native`.
    public var groupBy: [GroupKey] {
        get { logical.groupBy }
        set { logical.groupBy = newValue }
    }
    public var days: DayRange? { logical.days }
    public var valuation: Valuation { logical.valuation }
    public var whatIf: [CurrencyPair: ExactDecimal] { logical.whatIfRates }
    public var order: Order? {
        get { logical.order }
        set { logical.order = newValue }
    }
    public var top: Int? {
        get { logical.top }
        set { logical.top = newValue }
    }
    public var ranksByEntryCount: Bool { logical.ranksByEntryCount }

    /// The access path as indented lines: the index or scan, then the filters left for each row.
    public var accessPath: String {
        var lines: [String] = []
        if let index {
            lines.append("  SEARCH entries USING INDEX \(index.column.rawValue) (\(index.text)): \(index.rowCount) of \(Plan.rows(rows.count))"
                         + (days.map { " in " + $0.description } ?? ""))
        } else if let days {
            lines.append("  SEARCH entries USING INDEX date (\(days.description)): rows \(rows.lowerBound)..<\(rows.upperBound), \(Plan.rows(rows.count))")
        } else {
            lines.append("  SCAN entries: \(Plan.rows(rows.count))")
        }
        switch subject {
        case .expenses: lines.append("  FILTER amount < 0 and not a transfer (expenses)")
        case .income: lines.append("  FILTER amount > 0 and not a transfer (income)")
        case .transfers: lines.append("  FILTER transfers")
        case .entries: break
        }
        for f in filterText { lines.append("  FILTER " + f) }
        return lines.joined(separator: "\n")
    }

    /// `1 row`, `1200 rows`.
    static func rows(_ n: Int) -> String { n == 1 ? "1 row" : "\(n) rows" }

    /// What `explain` prints before the rates: the logical plan, then the access path.
    public var description: String {
        if let sql { return logical.description + "\nsql:\n" + sql.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n") }
        return logical.description + "\naccess path:\n" + accessPath
    }
}

/// Rows from posting lists: the union of the lists of `codes`, restricted to the day range.
public struct IndexAccess: Sendable {
    public enum Column: String, Sendable { case category, book, currency }
    public var column: Column
    public var codes: [UInt32]
    public var text: String
    public var rowCount: Int
}

public enum Planner {
    /// Binds and lowers a query.
    public static func plan(_ q: Query, in context: PlanContext) throws(QueryError) -> Plan {
        lower(try Binder.bind(q, in: context), ledger: context.ledger, useIndexes: context.useIndexes)
    }

    /// The in-memory store's plan for a logical plan.
    public static func lower(_ logical: LogicalPlan, ledger: Ledger, useIndexes: Bool = true) -> Plan {
        let store = ledger.entries
        var rows = 0..<store.count
        if let days = logical.days {
            if days.isEmpty {
                rows = 0..<0
            } else {
                let lo = days.first == .distantPast ? 0 : store.firstRow(onOrAfter: days.first)
                let hi = days.last == .distantFuture ? store.count : store.firstRow(onOrAfter: Day(number: days.last.number + 1))
                rows = lo..<max(lo, hi)
            }
        }
        let lowering = PredicateLowering(ledger: ledger)
        let conjuncts = logical.condition?.conjuncts ?? []
        // Each conjunct lowered once: its mask serves the index estimate and the filter alike.
        var predicates = conjuncts.map(lowering.lower)
        // Posting lists: the most selective usable top-level conjunct, when clearly better than the scan.
        var index: IndexAccess?
        var chosen: Int?
        if useIndexes {
            for (i, c) in conjuncts.enumerated() {
                guard let (column, codes) = PredicateLowering.postingCodes(c, predicates[i]) else { continue }
                let access = IndexAccess(column: column, codes: codes, text: c.description,
                                         rowCount: rowCount(column, codes, store: store, rows: rows))
                if access.rowCount * 2 < rows.count, access.rowCount < (index?.rowCount ?? Int.max) {
                    index = access
                    chosen = i
                }
            }
        }
        var remaining = conjuncts
        if let chosen {
            remaining.remove(at: chosen)
            predicates.remove(at: chosen)
        }
        let filter: Predicate? = predicates.isEmpty ? nil : (predicates.count == 1 ? predicates[0] : .and(predicates))
        return Plan(logical: logical, rows: rows, index: index, filter: filter, filterText: remaining.map(\.description))
    }

    /// The rows the posting lists of `codes` hold inside `rows`.
    static func rowCount(_ column: IndexAccess.Column, _ codes: [UInt32], store: EntryStore, rows: Range<Int>) -> Int {
        let postings = store.postings(column)
        var count = 0
        for c in codes {
            let list = postings.rows(for: Int(c))
            count += PostingIndex.lowerBound(list, UInt32(rows.upperBound)) - PostingIndex.lowerBound(list, UInt32(rows.lowerBound))
        }
        return count
    }
}

extension EntryStore {
    func postings(_ column: IndexAccess.Column) -> PostingIndex {
        switch column {
        case .category: return byCategory
        case .book: return byBook
        case .currency: return byCurrency
        }
    }
}

extension PostingIndex {
    /// First position in an ascending row list whose row is ≥ `row`.
    static func lowerBound(_ list: Slice<StoreColumn<UInt32>>, _ row: UInt32) -> Int {
        var lo = list.startIndex, hi = list.endIndex
        while lo < hi {
            let mid = (lo + hi) / 2
            if list[mid] < row { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
