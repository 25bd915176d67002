// What statements return: a table of typed cells, or a message. Rendering
// (localized money, JSON, CSV) is the shell's business; cells keep exact values.

import AbacusCore

public enum Cell: Sendable, Equatable {
    case text(String)
    /// Already rounded, half-even, to the currency's minor unit.
    case money(ExactDecimal, Currency)
    case count(Int)
    /// A plain exact number (a rate).
    case number(ExactDecimal)
    case empty

    public var isNumeric: Bool {
        switch self {
        case .money, .count, .number: return true
        default: return false
        }
    }
}

public struct ResultSet: Sendable {
    public var columns: [String]
    public var rows: [[Cell]]
    /// Total rows (a grouped result ends with one; `in native` with one per currency).
    public var totals: [[Cell]]
    /// The currency of the amounts; nil for counts, listings and `in native`.
    public var currency: Currency?
    public var warnings: [String]
    public var provenance: Provenance?
    /// Conversion details for `explain` (the rates behind the numbers).
    public var rateNotes: [String]
    /// A line for people under the table (the sparkline of a rate history); not in JSON or CSV.
    public var footer: String?

    public init(columns: [String], rows: [[Cell]], totals: [[Cell]] = [], currency: Currency? = nil,
                warnings: [String] = [], provenance: Provenance? = nil, rateNotes: [String] = [], footer: String? = nil) {
        self.footer = footer
        self.columns = columns
        self.rows = rows
        self.totals = totals
        self.currency = currency
        self.warnings = warnings
        self.provenance = provenance
        self.rateNotes = rateNotes
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
