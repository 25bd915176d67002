// The chart format: a horizontal bar chart of a grouped money or count result.
//
// One line per group: its label, a bar scaled to the largest magnitude and the
// terminal's width, and the value in the compact style (₹12L, $1.2M). Negative
// values draw with a lighter bar and a minus sign, so spending and income that
// share a chart stay apart. Scaling is exact (no binary floating point): the bar
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
        for row in r.rows {
            switch row.last {
            case .money(let d, let c)?:
                values.append(WideDecimal(d))
                texts.append(renderer.money.compact(d, c))
            case .count(let n)?:
                values.append(WideDecimal(BigInt(n), scale: 0))
                texts.append(String(n))
            default:
                return nil
            }
        }
        let labels = r.rows.map { row in row.dropLast().compactMap { cell -> String? in
            if case .text(let s) = cell { return s }
            return nil
        }.joined(separator: " / ") }
        let labelWidth = min(30, labels.map(TextWidth.of).max() ?? 0)
        let valueWidth = texts.map(TextWidth.of).max() ?? 0
        let total = max(40, renderer.width ?? 80)
        let barWidth = max(10, total - labelWidth - valueWidth - 4)
        let largest = values.map { $0.significand.magnitude == 0 ? WideDecimal.zero : ($0 < .zero ? WideDecimal($0.significand * -1, scale: $0.scale) : $0) }.max() ?? .zero
        var lines: [String] = []
        for (i, v) in values.enumerated() {
            let negative = v < .zero
            let magnitude = negative ? WideDecimal(v.significand * -1, scale: v.scale) : v
            let eighthsCount = Chart.scaled(magnitude, of: largest, into: barWidth * 8)
            var bar = String(repeating: negative ? "▒" : "█", count: eighthsCount / 8)
            if !negative { bar += Chart.eighths[eighthsCount % 8] } else if eighthsCount % 8 >= 4 { bar += "▒" }
            if renderer.color && negative { bar = ANSI.red + bar + ANSI.reset }
            let label = TextWidth.truncate(labels[i], to: labelWidth)
            let pad = String(repeating: " ", count: labelWidth - TextWidth.of(label))
            let valuePad = String(repeating: " ", count: valueWidth - TextWidth.of(texts[i]))
            lines.append(label + pad + "  " + valuePad + texts[i] + "  " + bar)
        }
        return lines.joined(separator: "\n")
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
