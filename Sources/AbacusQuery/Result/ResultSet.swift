// What statements return: columns that say what they hold, and cells of typed,
// exact values. Nothing here is display text: a period is a `Period`, a missing
// group value is `.none`, a total row says what kind of total it is, and money is
// an exact decimal with its currency. The renderers (table, CSV, JSON, markdown,
// chart) turn these into text, each by the column's kind.

import AbacusCore

/// What a column holds.
public enum ColumnKind: Sendable, Equatable {
    /// The values of a group key (a name, a currency code, a period).
    case key(GroupKey)
    /// Money: each cell carries its currency.
    case money
    /// A number of entries.
    case count
    /// A calendar day.
    case date
    /// An exchange rate.
    case rate
    /// A plain quantity (a length, a mass, a temperature).
    case quantity
    /// Other text (a source, a name, an id).
    case text
    /// A budget alert reached (`80%`): tables mark it (in colour, or with a marker).
    case alert
}

public struct Column: Sendable, Equatable {
    public var name: String
    public var kind: ColumnKind
    /// Left out of tables, markdown, CSV and charts (a listing's optional columns, unless
    /// `show` names them); JSON has every column.
    public var optional = false
    /// A summary of the cells to its left (a crosstab's `Total` and `Average`): tables,
    /// markdown and charts show it; JSON and CSV hold the cells only.
    public var summary = false
    public init(_ name: String, _ kind: ColumnKind, optional: Bool = false, summary: Bool = false) {
        self.name = name
        self.kind = kind
        self.optional = optional
        self.summary = summary
    }

    /// A group key's column.
    public var isKey: Bool {
        if case .key = kind { return true }
        return false
    }

    /// Columns whose cells are numbers (right-aligned in tables and markdown).
    public var isNumeric: Bool {
        switch kind {
        case .money, .count, .rate, .quantity: return true
        default: return false
        }
    }
}

/// The last row of a grouped result or a listing, and what it adds up.
public enum TotalLabel: Sendable, Hashable {
    /// The sum of the rows (`sum`, `count`).
    case total
    /// The aggregate over all the rows' entries (`avg`, `min`, `max`).
    case overall
    /// Over the N rows `top N` kept.
    case totalOfTop(Int)
    case overallOfTop(Int)
    /// Over the statement's entries, each once (tags put one entry in several rows).
    case totalEachEntryOnce
    case overallEachEntryOnce

    /// The label of the same row where an entry may stand in several rows or columns: a
    /// total or an overall value says it counts each entry once (`top N` already says what it covers).
    var eachEntryOnce: TotalLabel {
        switch self {
        case .total: return .totalEachEntryOnce
        case .overall: return .overallEachEntryOnce
        default: return self
        }
    }
}

public enum Cell: Sendable, Hashable {
    case text(String)
    case currency(Currency)
    case period(Period)
    case date(Day)
    /// A group key's value that an entry lacks (no party, no tags).
    case none
    /// Already rounded, half-even, to the currency's minor unit.
    case money(ExactDecimal, Currency)
    case count(Int)
    /// A plain exact number (a rate), shown without trailing zeros.
    case number(ExactDecimal)
    /// A number shown with exactly its decimals (a share: `31.0`).
    case decimal(ExactDecimal)
    /// Several names (an entry's tags): a JSON array, joined with ", " elsewhere.
    case names([String])
    /// The label of a total row.
    case total(TotalLabel)
    case empty
}

/// What a renderer may draw under a result for people (never in JSON or CSV).
public enum Footnote: Sendable, Equatable {
    /// The history of a pair in the `rate` column: a sparkline with its range.
    case sparkline(CurrencyPair)
    /// A sentence.
    case note(String)
}

public struct ResultSet: Sendable {
    public var columns: [Column]
    /// The rows as arrays of cells. A grouped result may hold them as columns (`keyed`): they
    /// are then made into arrays when first asked for here, and a change makes them arrays.
    public var rows: [[Cell]] {
        get {
            switch body {
            case .cells(let c): return c
            case .keyed(let k): return k.cells
            }
        }
        set { body = .cells(newValue) }
        _modify {
            var cells: [[Cell]]
            switch body {
            case .cells(let c): cells = c
            case .keyed(let k): cells = k.cells
            }
            // Nothing else holds the array while it is changed: it is changed in place.
            body = .cells([])
            defer { body = .cells(cells) }
            yield &cells
        }
    }
    /// The rows held as columns (a grouping's, `ResultShaper`), nil when they are arrays of cells
    /// (set to nil, rows held as columns become arrays of cells).
    public var keyed: KeyedRows? {
        get { if case .keyed(let k) = body { return k } else { return nil } }
        set { body = newValue.map(Body.keyed) ?? .cells(rows) }
    }
    /// How many rows, without making them into arrays.
    public var rowCount: Int {
        switch body {
        case .cells(let c): return c.count
        case .keyed(let k): return k.count
        }
    }
    private var body: Body
    private enum Body: Sendable {
        case cells([[Cell]])
        case keyed(KeyedRows)
    }
    /// Total rows (a grouped result ends with one; `in native` with one per currency).
    public var totals: [[Cell]]
    /// The currency of the amounts; nil for counts, listings and `in native`.
    public var currency: Currency?
    public var warnings: [String]
    public var provenance: Provenance?
    /// Conversion details for `explain` (the rates behind the numbers).
    public var rateNotes: [String]
    public var footnotes: [Footnote]
    /// An ungrouped sum's exact value before it was rounded, where the plan asked for it
    /// (`LogicalPlan.keepsExactSum`).
    public var exactSum: Fraction? = nil

    public init(columns: [Column], rows: [[Cell]], totals: [[Cell]] = [], currency: Currency? = nil,
                warnings: [String] = [], provenance: Provenance? = nil, rateNotes: [String] = [], footnotes: [Footnote] = []) {
        self.columns = columns
        self.body = .cells(rows)
        self.totals = totals
        self.currency = currency
        self.warnings = warnings
        self.provenance = provenance
        self.rateNotes = rateNotes
        self.footnotes = footnotes
    }

    /// The column names.
    public var names: [String] { columns.map(\.name) }

    /// The result without its optional columns (what tables, CSV and charts show).
    public var withoutOptionalColumns: ResultSet { without(\.optional) }

    /// The result without its summary columns (what JSON and CSV hold).
    public var withoutSummaryColumns: ResultSet { without(\.summary) }

    /// The result without the columns that have the property.
    func without(_ property: KeyPath<Column, Bool>) -> ResultSet {
        guard columns.contains(where: { $0[keyPath: property] }) else { return self }
        let keep = columns.indices.filter { !columns[$0][keyPath: property] }
        var r = self
        r.columns = keep.map { columns[$0] }
        r.rows = rows.map { row in keep.map { row[$0] } }
        r.totals = totals.map { row in keep.map { $0 < row.count ? row[$0] : .empty } }
        return r
    }
}

/// The outcome of one statement.
public enum Output: Sendable {
    case table(ResultSet)
    /// A confirmation (`set rate …`) or explanation text.
    case message(String)
    /// `explain`: the plan, then the rates.
    case explain(plan: String, rates: [String], warnings: [String])
}
