// Fitting a table to the terminal's width.
//
// A table wider than the window would wrap every row into two broken lines. First
// the text columns are cut (with "…"), widest first, never below 8 columns; if
// that is not enough, whole columns are left out, wide text columns from the right
// first, and one "…" column stands where they were (as DuckDB's shell does). Money
// and counts are never cut, nor dates and periods (`2025-04…` would hide the day),
// nor narrow columns such as a currency code: they are left out whole, and only
// when nothing else is left to give. The first column (the group or the date) and
// the answer (the last column of numbers: the amount, the rate) always stay.

import AbacusCore

struct TableLayout {
    /// The header and cells of the column that stands for those left out.
    static let marker = "…"
    /// Narrowest a cut text column gets.
    static let minimumCut = 8

    /// The columns shown, in order: an index into the result's columns, or nil for the marker.
    var columns: [Int?]
    /// The width of each shown column.
    var widths: [Int]
    /// Indices of the columns left out.
    var hidden: [Int]

    /// `natural` widths fit in `width` (nil: no limit) once laid out.
    init(natural: [Int], numeric: [Bool], dates: [Bool], width: Int?) {
        let all = Array(natural.indices)
        columns = all
        widths = natural
        hidden = []
        guard let width, TableLayout.total(natural) > width else { return }
        let cuttable = all.map { !numeric[$0] && !dates[$0] && natural[$0] > TableLayout.minimumCut }
        // Left out first: text columns from the right; then dates and short text; then numbers,
        // all from the right. Never the first column, nor the answer: the last column of
        // numbers (the amount, the rate), else the last column.
        let answer = numeric.lastIndex(of: true) ?? (all.last ?? 0)
        let inner = all.dropFirst().filter { $0 != answer }
        let order = inner.reversed().filter { cuttable[$0] } + inner.reversed().filter { !cuttable[$0] && !numeric[$0] }
            + inner.reversed().filter { numeric[$0] }
        for k in 0...order.count {
            let left = Set(order.prefix(k))
            var shown: [Int?] = []
            for i in all {
                if !left.contains(i) { shown.append(i) } else if shown.last != .some(nil) { shown.append(nil) }
            }
            var w = shown.map { $0.map { natural[$0] } ?? TextWidth.of(TableLayout.marker) }
            var total = TableLayout.total(w)
            while total > width {
                let candidates = w.indices.filter { p in
                    guard let i = shown[p] else { return false }
                    return cuttable[i] && w[p] > TableLayout.minimumCut
                }
                guard let p = candidates.max(by: { w[$0] < w[$1] }) else { break }
                let cut = min(total - width, w[p] - TableLayout.minimumCut)
                w[p] -= cut
                total -= cut
            }
            if total <= width || k == order.count {
                columns = shown
                widths = w
                hidden = left.sorted()
                return
            }
        }
    }

    /// Columns of these widths, with their padding and borders: `│ a │ b │`.
    static func total(_ widths: [Int]) -> Int {
        widths.reduce(0, +) + 3 * widths.count + 1
    }
}
