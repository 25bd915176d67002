// What a `list` result is made of, whichever engine selects its rows (the in-memory
// store or a database server, docs/postgres.md): its columns, the order of `order by` a
// name, and the total row of a converted listing.

import AbacusCore

public enum Listing {
    /// Every field of an entry; the optional ones reach tables only when `show` names them.
    public static func columns(_ plan: LogicalPlan) -> [Column] {
        let shown = Set(plan.show)
        func optional(_ c: ListColumn) -> Bool { !shown.contains(c) }
        return [Column("id", .text, optional: optional(.id)), Column("date", .date), Column("book", .key(.book)),
                Column("category", .key(.category)), Column("party", .key(.party)),
                Column("payment", .key(.payment), optional: optional(.payment)),
                Column("currency", .key(.currency), optional: plan.target != nil && optional(.currency)),
                Column("remarks", .text, optional: optional(.remarks)), Column("tags", .text, optional: optional(.tags)),
                Column("amount", .money)]
    }

    /// Whether a row showing name `x` (nil: "(none)") at `rowX` comes before one showing `y` at
    /// `rowY` under `order by` that name: any letter case, "(none)" last, then date order.
    public static func before(_ x: String?, _ rowX: Int, _ y: String?, _ rowY: Int, descending: Bool) -> Bool {
        if (x == nil) != (y == nil) { return (x != nil) != descending }
        if let x, let y, x.lowercased() != y.lowercased() { return (x.lowercased() < y.lowercased()) != descending }
        return rowX < rowY
    }

    /// A converted listing's total row: the exact total of the rows shown, its label in the
    /// first column a table shows (`cut`: `top N` left rows out).
    public static func totalRow(_ columns: [Column], total: Cell, shown: Int, cut: Bool) -> [Cell] {
        var row = [Cell](repeating: .empty, count: columns.count)
        row[columns.firstIndex { !$0.optional } ?? 0] = .total(cut ? .totalOfTop(shown) : .total)
        row[columns.count - 1] = total
        return row
    }

    /// `in native`, a listing ranked by amount compares the numbers of one currency only.
    public static func refuseRankingAcrossCurrencies(_ currencies: [Currency], home: Currency) throws(QueryError) {
        try ResultShaper.refuseRankingAcrossCurrencies(currencies, home: home)
    }
}
