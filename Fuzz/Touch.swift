// Shared by the fuzz targets: every cell of an output made into text, so that
// formatting what was loaded or computed is exercised too (and cannot be optimised away).

import AbacusQuery

/// Renders every cell as text, so formatting of what was loaded is exercised too.
func touch(_ out: Output) {
    switch out {
    case .table(let r):
        var n = 0
        for row in r.rows + r.totals {
            for cell in row {
                switch cell {
                case .text(let s): n &+= s.utf8.count
                case .money(let d, let c): n &+= d.description.utf8.count &+ c.code.utf8.count
                case .count(let k): n &+= k
                case .number(let d), .decimal(let d): n &+= d.description.utf8.count
                case .currency(let c): n &+= c.code.utf8.count
                case .period(let p): n &+= p.description.utf8.count
                case .date(let d): n &+= d.description.utf8.count
                case .names(let names): n &+= names.count
                case .total, .none, .empty: break
                }
            }
        }
        n &+= r.warnings.count &+ r.rateNotes.count &+ r.footnotes.count
        if n == -1 { print(n) }
    case .message(let m): _ = m.utf8.count
    case .explain(let plan, let rates, let warnings): _ = plan.utf8.count + rates.count + warnings.count
    }
}
