// The chart format: a horizontal bar chart of a grouped money or count result.
//
// One line per group: its label, a bar scaled to the largest magnitude and the
// terminal's width, and the value in the compact style (₹12L, $1.2M). Negative
// values draw with a lighter bar and a minus sign, so spending and income that
// share a chart stay apart. Amounts in different currencies (`in native`) are
// never compared by their raw numbers: each currency has its own scale, and the
// chart says so. Scaling is exact (no binary floating point): the bar
// length in eighths of a cell is |v| × width × 8 / max, rounded half-even.

import AbacusCore
import AbacusQuery
import BigInt

struct Chart {
    let renderer: Renderer

    static let eighths = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]

    /// Nil when the result is not a grouped list of amounts or counts (the table is used instead).
    func render(_ r: ResultSet) -> String? {
        guard r.columns.count >= 2, !r.rows.isEmpty else { return nil }
        var values: [WideDecimal] = []
        var texts: [String] = []
        /// Each bar's currency: amounts in different currencies are never drawn on one scale.
        var scales: [String] = []
        for row in r.rows {
            switch row.last {
            case .money(let d, let c)?:
                values.append(WideDecimal(d))
                texts.append(renderer.symbols?.compact(d, c) ?? renderer.money.compact(d, c))
                scales.append(c.code)
            case .count(let n)?:
                values.append(WideDecimal(BigInt(n), scale: 0))
                texts.append(String(n))
                scales.append("")
            default:
                return nil
            }
        }
        let labels = r.rows.map { label($0, columns: r.columns) }
        let labelWidth = min(36, labels.map(TextWidth.of).max() ?? 0)
        let valueWidth = texts.map(TextWidth.of).max() ?? 0
        let total = max(40, renderer.width ?? 80)
        let barWidth = max(10, total - labelWidth - valueWidth - 4)
        var largest: [String: WideDecimal] = [:]
        for (v, scale) in zip(values, scales) { largest[scale] = max(largest[scale] ?? .zero, Chart.magnitude(v)) }
        var lines: [String] = []
        for (i, v) in values.enumerated() {
            let negative = v < .zero
            let eighthsCount = Chart.scaled(Chart.magnitude(v), of: largest[scales[i]] ?? .zero, into: barWidth * 8)
            var bar = String(repeating: negative ? "▒" : "█", count: eighthsCount / 8)
            if !negative { bar += Chart.eighths[eighthsCount % 8] } else if eighthsCount % 8 >= 4 { bar += "▒" }
            if renderer.color && negative { bar = ANSI.red + bar + ANSI.reset }
            let label = TextWidth.truncate(labels[i], to: labelWidth)
            let pad = String(repeating: " ", count: labelWidth - TextWidth.of(label))
            let valuePad = String(repeating: " ", count: valueWidth - TextWidth.of(texts[i]))
            lines.append(label + pad + "  " + valuePad + texts[i] + "  " + bar)
        }
        if largest.count > 1 {
            lines.append("Each currency has its own scale: `in CUR` converts them to compare.")
        }
        return lines.joined(separator: "\n")
    }

    /// A bar's label: the group's keys; for a listing, the date and who was paid (the category
    /// when there is no party), which is what tells one entry from another.
    func label(_ row: [Cell], columns: [Column]) -> String {
        func text(_ kind: ColumnKind) -> String? {
            guard let i = columns.firstIndex(where: { $0.kind == kind }), i < row.count else { return nil }
            switch row[i] {
            case .none, .empty: return nil
            case let cell: return renderer.display(cell)
            }
        }
        if let date = text(.date), columns.contains(where: { $0.kind == .key(.party) }) {
            return [date, text(.key(.party)) ?? text(.key(.category))].compactMap { $0 }.joined(separator: "  ")
        }
        return zip(columns, row).dropLast().compactMap { column, cell -> String? in
            guard case .key = column.kind else { return nil }
            return renderer.display(cell)
        }.joined(separator: " / ")
    }

    static func magnitude(_ v: WideDecimal) -> WideDecimal {
        v < .zero ? WideDecimal(v.significand * -1, scale: v.scale) : v
    }

    /// round(value / largest × units), half-even, exactly.
    static func scaled(_ value: WideDecimal, of largest: WideDecimal, into units: Int) -> Int {
        guard largest.significand != 0 else { return 0 }
        let s = max(value.scale, largest.scale)
        let n = value.rescaled(to: s).significand * BigInt(units)
        let d = largest.rescaled(to: s).significand
        return Int(WideDecimal.divideHalfEven(n, d))
    }
}
