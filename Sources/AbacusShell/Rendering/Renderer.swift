// Rendering a `ResultSet`: a table for people, JSON lines / CSV / markdown for
// other programs and documents (SPEC §1).
//
// Table and markdown money is localized (`MoneyFormat`) and right-aligned by
// display width; JSON and CSV money is a plain decimal at the currency's minor
// unit. JSON has no total row; a grouped table ends with one.

import AbacusCore
import AbacusQuery

public enum OutputFormat: String, CaseIterable, Sendable {
    case table, csv, json, markdown, chart
}

public struct Renderer {
    public var format: OutputFormat
    public let money: MoneyFormat
    /// ANSI styles (bold headers and totals, red negative money); only for a terminal.
    public var color = false
    /// The terminal's width: tables wider than this shrink their text columns; charts fill it.
    public var width: Int?

    public init(format: OutputFormat, money: MoneyFormat) {
        self.format = format
        self.money = money
    }

    public func render(_ r: ResultSet) -> String {
        switch format {
        case .table: return table(r) + (r.footer.map { "\n" + $0 } ?? "")
        case .chart: return Chart(renderer: self).render(r) ?? (table(r) + (r.footer.map { "\n" + $0 } ?? ""))
        case .markdown: return markdown(r) + (r.footer.map { "\n\n" + $0 } ?? "")
        case .json: return json(r)
        case .csv: return csv(r)
        }
    }

    /// A message (`set rate …`) in the current format.
    public func render(message: String) -> String {
        format == .json ? "{\"message\":" + JSONText.quote(message) + "}" : message
    }

    /// `explain`: the plan, then where the rates came from.
    public func render(plan: String, rates: [String], warnings: [String]) -> String {
        if format == .json {
            return "{\"plan\":" + JSONText.quote(plan) + ",\"rates\":[" + rates.map(JSONText.quote).joined(separator: ",")
                + "],\"warnings\":[" + warnings.map(JSONText.quote).joined(separator: ",") + "]}"
        }
        var lines = [plan]
        if !rates.isEmpty { lines.append("rates:"); lines += rates.map { "  " + $0 } }
        return lines.joined(separator: "\n")
    }

    func display(_ c: Cell) -> String {
        switch c {
        case .text(let s): return s
        case .money(let d, let cur): return money.format(d, cur)
        case .count(let n): return String(n)
        case .number(let d): return Renderer.shortNumber(d)
        case .empty: return ""
        }
    }

    func plain(_ c: Cell) -> String {
        switch c {
        case .text(let s): return s
        case .money(let d, let cur): return MoneyFormat.plain(d, cur)
        case .count(let n): return String(n)
        case .number(let d): return d.normalized.description
        case .empty: return ""
        }
    }

    /// A rate for people: at most 12 significant digits (JSON and CSV keep every digit).
    static func shortNumber(_ d: ExactDecimal) -> String {
        let n = d.normalized
        let digits = String(n.significand.magnitude).count
        return (digits > 12 ? n.rounded(toScale: max(0, n.scale - (digits - 12))).normalized : n).description
    }

    /// Which columns hold numbers (right-aligned): those whose cells are all numeric or empty.
    func numericColumns(_ r: ResultSet) -> [Bool] {
        r.columns.indices.map { i in
            let cells = (r.rows + r.totals).compactMap { i < $0.count ? $0[i] : nil }
            return cells.contains { $0.isNumeric } && cells.allSatisfy { $0.isNumeric || $0 == .empty }
        }
    }

    // MARK: Table

    func table(_ r: ResultSet) -> String {
        let header = r.columns
        let body = r.rows.map { $0.map(display) }
        let totals = r.totals.map { $0.map(display) }
        var widths = header.map(TextWidth.of)
        for row in body + totals { for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], TextWidth.of(cell)) } }
        let numeric = numericColumns(r)
        // Too wide for the terminal: shrink the widest text column, a column at a time, never below 8.
        if let width {
            var total = widths.reduce(0, +) + 3 * widths.count + 1
            while total > width {
                guard let i = widths.indices.filter({ !numeric[$0] && widths[$0] > 8 }).max(by: { widths[$0] < widths[$1] }) else { break }
                let cut = min(total - width, widths[i] - 8)
                widths[i] -= cut
                total -= cut
            }
        }
        func line(_ l: String, _ m: String, _ r: String) -> String {
            l + widths.map { String(repeating: "─", count: $0 + 2) }.joined(separator: m) + r
        }
        func row(_ cells: [String], _ style: String?, _ source: [Cell]?) -> String {
            "│" + cells.enumerated().map { i, c in
                let text = TextWidth.of(c) > widths[i] ? TextWidth.truncate(c, to: widths[i]) : c
                let pad = String(repeating: " ", count: max(0, widths[i] - TextWidth.of(text)))
                var styled = text
                if color, let source, i < source.count, case .money(let d, _) = source[i], d.isNegative, !d.rounded(toScale: 2).isZero {
                    styled = ANSI.red + text + ANSI.reset
                } else if color, let style { styled = style + text + ANSI.reset }
                return " " + (numeric[i] ? pad + styled : styled + pad) + " "
            }.joined(separator: "│") + "│"
        }
        var out = [line("┌", "┬", "┐"), row(header, ANSI.bold, nil), line("├", "┼", "┤")]
        out += zip(body, r.rows).map { row($0, nil, $1) }
        if !totals.isEmpty && !body.isEmpty {
            out.append(line("├", "┼", "┤"))
            out += zip(totals, r.totals).map { row($0, ANSI.bold, $1) }
        }
        out.append(line("└", "┴", "┘"))
        return out.joined(separator: "\n")
    }

    // MARK: Markdown

    func markdown(_ r: ResultSet) -> String {
        let header = r.columns
        let body = r.rows.map { $0.map(display) }
        let totals = r.totals.map { $0.map(display) }
        let numeric = numericColumns(r)
        func escape(_ s: String) -> String { s.replacingAll("|", with: "\\|") }
        var out = ["| " + header.map(escape).joined(separator: " | ") + " |"]
        out.append("|" + header.indices.map { numeric[$0] ? " ---: " : " --- " }.joined(separator: "|") + "|")
        out += body.map { "| " + $0.map(escape).joined(separator: " | ") + " |" }
        out += totals.map { "| " + $0.enumerated().map { i, c in i == 0 && !c.isEmpty ? "**\(escape(c))**" : escape(c) }.joined(separator: " | ") + " |" }
        return out.joined(separator: "\n")
    }

    // MARK: JSON

    func json(_ r: ResultSet) -> String {
        func value(_ c: Cell) -> String {
            switch c {
            case .count(let n): return String(n)
            case .empty: return "null"
            default: return JSONText.quote(plain(c))
            }
        }
        var out = "{\"columns\":[" + r.columns.map(JSONText.quote).joined(separator: ",") + "],\"rows\":["
        out += r.rows.map { row in
            "{" + zip(r.columns, row).map { JSONText.quote($0) + ":" + value($1) }.joined(separator: ",") + "}"
        }.joined(separator: ",")
        out += "],\"currency\":" + (r.currency.map { JSONText.quote($0.code) } ?? "null")
        out += ",\"warnings\":[" + r.warnings.map(JSONText.quote).joined(separator: ",") + "]}"
        return out
    }

    // MARK: CSV (RFC 4180)

    func csv(_ r: ResultSet) -> String {
        func field(_ s: String) -> String {
            s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" })
                ? "\"" + s.replacingAll("\"", with: "\"\"") + "\"" : s
        }
        var lines = [r.columns.map(field).joined(separator: ",")]
        lines += r.rows.map { $0.map(plain).map(field).joined(separator: ",") }
        return lines.joined(separator: "\r\n")
    }
}

enum ANSI {
    static let bold = "\u{1B}[1m"
    static let red = "\u{1B}[31m"
    static let yellow = "\u{1B}[33m"
    static let cyan = "\u{1B}[36m"
    static let reset = "\u{1B}[0m"
}

enum JSONText {
    static func quote(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 {
                    let hex = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
    }
}

extension String {
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for ch in self { if ch == target { out += replacement } else { out.append(ch) } }
        return out
    }
}
