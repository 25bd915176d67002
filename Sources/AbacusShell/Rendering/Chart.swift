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

    /// Nil when the result is not a grouped list of amounts or counts, nor a rate history
    /// (the table is used instead).
    func render(_ r: ResultSet) -> String? {
        if case .sparkline(let pair)? = r.footnotes.first { return history(r, pair) }
        if let used = r.columns.firstIndex(where: { $0.name == "used %" }) { return budget(r, used: used) }
        guard r.columns.count >= 2, !r.rows.isEmpty else { return nil }
        if r.columns.contains(where: \.summary) { return crosstab(r) }
        // `holdings` without `in CUR` ends with its gain %: it draws each symbol's value.
        if let value = r.columns.firstIndex(where: { $0.name == "value" && $0.kind == .money }), r.columns.last?.kind == .quantity {
            return bars(r.rows.map { (label($0, columns: r.columns), $0[value]) })
        }
        return bars(r.rows.map { (label($0, columns: r.columns), $0.last ?? .empty) })
    }

    /// A crosstab (`per KEY`): a group of bars for each row, one bar per column, all on one
    /// scale (per currency), the row's Total in its heading.
    func crosstab(_ r: ResultSet) -> String? {
        let cells = r.columns.indices.filter { !r.columns[$0].summary && !r.columns[$0].isKey }
        guard let total = r.columns.firstIndex(where: \.summary) else { return nil }
        var items: [(String, Cell)] = []
        var headings: [Int: String] = [:]
        for row in r.rows {
            let name = label(Array(row.prefix(cells.first ?? 0)) + [.empty], columns: r.columns)
            headings[items.count] = (name.isEmpty ? "" : name + ": ") + "total " + renderer.display(row[total])
            items += cells.map { ("  " + r.columns[$0].name, row[$0]) }
        }
        return bars(items, headings: headings)
    }

    /// Horizontal bars for labelled values (money or counts; nil for anything else), with a
    /// heading line before the items `headings` names.
    func bars(_ items: [(label: String, value: Cell)], headings: [Int: String] = [:]) -> String? {
        var values: [WideDecimal] = []
        var texts: [String] = []
        /// Each bar's currency: amounts in different currencies are never drawn on one scale.
        var scales: [String] = []
        for item in items {
            switch item.value {
            case .money(let d, let c):
                values.append(WideDecimal(d))
                texts.append(renderer.symbols?.compact(d, c) ?? renderer.money.compact(d, c))
                scales.append(c.code)
            case .count(let n):
                values.append(WideDecimal(BigInt(n), scale: 0))
                texts.append(String(n))
                scales.append("")
            case .empty where !headings.isEmpty:
                // An empty crosstab cell (an avg, min or max without entries) draws no bar.
                values.append(.zero)
                texts.append("")
                scales.append("")
            default:
                return nil
            }
        }
        let labels = items.map(\.label)
        let valueWidth = texts.map(TextWidth.of).max() ?? 0
        let total = renderer.width ?? 80
        let (labelWidth, barWidth) = Chart.widths(labels: labels.map(TextWidth.of).max() ?? 0, values: valueWidth, gaps: 4, total: total)
        var largest: [String: WideDecimal] = [:]
        for (v, scale) in zip(values, scales) { largest[scale] = max(largest[scale] ?? .zero, Chart.magnitude(v)) }
        var lines: [String] = []
        for (i, v) in values.enumerated() {
            if let heading = headings[i] { lines.append(TextWidth.truncate(heading, to: total)) }
            let negative = v < .zero
            let eighthsCount = Chart.scaled(Chart.magnitude(v), of: largest[scales[i]] ?? .zero, into: barWidth * 8)
            var bar = String(repeating: negative ? "▒" : "█", count: eighthsCount / 8)
            if !negative { bar += Chart.eighths[eighthsCount % 8] } else if eighthsCount % 8 >= 4 { bar += "▒" }
            if renderer.color && negative { bar = ANSI.red + bar + ANSI.reset }
            let label = Chart.cut(labels[i], to: labelWidth)
            let pad = String(repeating: " ", count: labelWidth - TextWidth.of(label))
            let valuePad = String(repeating: " ", count: valueWidth - TextWidth.of(texts[i]))
            lines.append(label + pad + "  " + valuePad + texts[i] + "  " + bar)
        }
        if largest.filter({ !$0.key.isEmpty }).count > 1 {
            lines.append("Each currency has its own scale: `in CUR` converts them to compare.")
        }
        return lines.joined(separator: "\n")
    }

    /// Budget use (`budget`): a bar per budget and month against a mark at 100%, the scale
    /// reaching the largest use (at least 100%); a budget over its limit draws past the mark.
    func budget(_ r: ResultSet, used: Int) -> String? {
        let alert = r.columns.firstIndex { $0.kind == .alert }
        let labels = r.rows.map { row in
            zip(r.columns, row).compactMap { column, cell -> String? in
                guard case .key(let k) = column.kind, k != .currency, cell != .none else { return nil }
                return renderer.display(cell)
            }.joined(separator: " / ")
        }
        let percents: [ExactDecimal?] = r.rows.map { if case .decimal(let d) = $0[used] { return d } else { return nil } }
        let texts = zip(r.rows, percents).map { row, p -> String in
            guard let p else { return "limit ≤ 0" }
            var t = "\(p)%"
            if let a = alert, case .text(let level) = row[a] { t += " ≥ " + level }
            return t
        }
        let valueWidth = texts.map(TextWidth.of).max() ?? 0
        let total = renderer.width ?? 80
        let (labelWidth, barWidth) = Chart.widths(labels: labels.map(TextWidth.of).max() ?? 0, values: valueWidth, gaps: 5, total: total)
        let hundred = WideDecimal(ExactDecimal(100))
        let largest = max(hundred, percents.compactMap { $0.map(WideDecimal.init) }.max() ?? hundred)
        // The column of the 100% mark.
        let mark = Chart.scaled(hundred, of: largest, into: barWidth)
        var lines: [String] = []
        for (i, p) in percents.enumerated() {
            let cells = p.map { Chart.scaled(WideDecimal($0.isNegative ? .zero : $0), of: largest, into: barWidth * 8) } ?? 0
            var bar = ""
            for column in 0..<max(barWidth, mark + 1) {
                let filled = cells - column * 8
                let piece = filled >= 8 ? "█" : (filled > 0 ? Chart.eighths[filled] : (column == mark ? "│" : " "))
                bar += piece
            }
            bar = String(bar.reversed().drop { $0 == " " }.reversed())
            if renderer.color, let p, p > ExactDecimal(100) { bar = ANSI.red + bar + ANSI.reset }
            let label = Chart.cut(labels[i], to: labelWidth)
            let pad = String(repeating: " ", count: labelWidth - TextWidth.of(label))
            let valuePad = String(repeating: " ", count: valueWidth - TextWidth.of(texts[i]))
            lines.append(label + pad + "  " + texts[i] + valuePad + "  " + bar)
        }
        // The mark's label after it, or before it where the window ends first.
        let markAt = labelWidth + valueWidth + 4 + mark
        lines.append(markAt + 6 <= total || markAt < 5 ? String(repeating: " ", count: markAt) + "└ 100%"
                                                       : String(repeating: " ", count: markAt - 5) + "100% ┘")
        return lines.joined(separator: "\n")
    }

    /// A label cut to `width` columns; one that ends in a currency code (`Home / USD`, the
    /// last key of an `in native` result) keeps it, and its head is cut instead: the code is
    /// what tells the bars' scales apart.
    static func cut(_ label: String, to width: Int) -> String {
        guard TextWidth.of(label) > width else { return label }
        let tail = label.suffix(6)
        if tail.count == 6, tail.hasPrefix(" / "), tail.dropFirst(3).allSatisfy({ $0.isASCII && $0.isUppercase }), width > 8 {
            return TextWidth.truncate(String(label.dropLast(6)), to: width - 6) + tail
        }
        return TextWidth.truncate(label, to: width)
    }

    /// The label and bar columns of a chart `total` columns wide, beside values `values` wide
    /// and `gaps` blanks: labels up to 36 columns, cut first (to no fewer than 8) where the
    /// window is narrow, then the bars (to no fewer than 4), so that a line fits the window.
    static func widths(labels: Int, values: Int, gaps: Int, total: Int) -> (label: Int, bar: Int) {
        let label = min(36, labels, max(8, total - values - gaps - 10))
        return (label, max(4, total - label - values - gaps))
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
        // Rows named by a first text column (`networth`'s measures, `holdings`' symbols).
        if columns.first?.kind == .text, let first = row.first { return renderer.display(first) }
        let keys = zip(columns, row).dropLast().compactMap { column, cell -> String? in
            guard case .key = column.kind else { return nil }
            return renderer.display(cell)
        }
        return keys.joined(separator: " / ")
    }

    /// The history of one pair (`rates SGD/INR since …`): a column chart over time, 12 lines
    /// high and as wide as the window (the last rate of each stretch of days when there are
    /// more rates than columns), scaled exactly between the lowest and the highest rate, with
    /// the first, last, lowest and highest rates and their dates written out.
    func history(_ r: ResultSet, _ pair: CurrencyPair) -> String? {
        guard let d = r.columns.firstIndex(where: { $0.kind == .date }), let v = r.columns.firstIndex(where: { $0.kind == .rate }) else { return nil }
        var points: [(day: Day, rate: ExactDecimal)] = []
        for row in r.rows {
            if case .date(let day) = row[d], case .number(let rate) = row[v] { points.append((day, rate)) }
        }
        guard let first = points.first, let last = points.last,
              let low = points.min(by: { $0.rate < $1.rate }), let high = points.max(by: { $0.rate < $1.rate }) else { return nil }
        // Labels to 8 significant digits, as the sparkline's: the table has every digit.
        func short(_ x: ExactDecimal) -> String { WideDecimal(x).approximated(significantDigits: 8)?.description ?? Renderer.shortNumber(x) }
        let axis = [short(high.rate), short(low.rate)].map(TextWidth.of).max() ?? 0
        // One column a rate, or a stretch of rates when the window is narrower than the history.
        let width = min(points.count, max(10, (renderer.width ?? 80) - axis - 3))
        let sampled = (0..<width).map { points[($0 + 1) * points.count / width - 1] }
        let height = 12
        let span = WideDecimal(high.rate) + WideDecimal(low.rate.negated)
        // Each column's height in eighths of a line, at least one so the lowest rate shows.
        let levels: [Int] = sampled.map { p in
            guard span.significand != 0 else { return height * 4 }
            let offset = WideDecimal(p.rate) + WideDecimal(low.rate.negated)
            return max(1, Chart.scaled(offset, of: span, into: height * 8))
        }
        var lines: [String] = []
        let title = "\(pair), \(first.day)..\(last.day):"
        let values = "first \(short(first.rate)), last \(short(last.rate)), lowest \(short(low.rate)) (\(low.day)), highest \(short(high.rate)) (\(high.day))"
        // One line when the window is wide enough, else the values under the title.
        if TextWidth.of(title + " " + values) <= (renderer.width ?? 80) { lines.append(title + " " + values) } else { lines += [title, values] }
        for line in (0..<height).reversed() {
            let label = line == height - 1 ? short(high.rate) : (line == 0 ? short(low.rate) : "")
            let pad = String(repeating: " ", count: axis - TextWidth.of(label))
            let cells = levels.map { level -> String in
                let filled = level - line * 8
                if filled >= 8 { return "█" }
                if filled <= 0 { return " " }
                return Chart.rising[filled]
            }.joined()
            lines.append(pad + label + " ┤" + cells)
        }
        let start = first.day.description, end = last.day.description
        let gap = width - start.count - end.count
        lines.append(String(repeating: " ", count: axis + 2) + start + (gap >= 1 ? String(repeating: " ", count: gap) + end : ".." + end))
        return lines.joined(separator: "\n")
    }

    /// A column's top, in eighths of a cell.
    static let rising = ["", "▁", "▂", "▃", "▄", "▅", "▆", "▇"]

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
