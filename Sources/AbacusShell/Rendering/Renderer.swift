// Rendering a `ResultSet`: a table for people, JSON lines / CSV / markdown for
// other programs and documents (SPEC §1).
//
// Table and markdown money is localized (`MoneyFormat`) and right-aligned by
// display width; JSON and CSV money is a plain decimal at the currency's minor
// unit. JSON has no total row; a grouped table ends with one.

import AbacusCore
import AbacusQuery

public enum OutputFormat: String, CaseIterable, Sendable {
    case table, csv, json, markdown
}

public struct Renderer {
    public var format: OutputFormat
    public let money: MoneyFormat

    public init(format: OutputFormat, money: MoneyFormat) {
        self.format = format
        self.money = money
    }

    public func render(_ r: ResultSet) -> String {
        switch format {
        case .table: return table(r)
        case .markdown: return markdown(r)
        case .json: return json(r)
        case .csv: return csv(r)
        }
    }

    func display(_ v: ResultValue) -> String {
        switch v {
        case .money(let d, let c): return money.format(d, c)
        case .count(let n): return String(n)
        }
    }

    func plain(_ v: ResultValue) -> String {
        switch v {
        case .money(let d, let c): return MoneyFormat.plain(d, c)
        case .count(let n): return String(n)
        }
    }

    /// Header, body rows and total rows as display strings.
    func cells(_ r: ResultSet) -> (header: [String], body: [[String]], totals: [[String]]) {
        let body = r.rows.map { $0.keys + [display($0.value)] }
        let totals = r.totals.map { $0.keys + [display($0.value)] }
        return (r.columns, body, totals)
    }

    // MARK: Table

    func table(_ r: ResultSet) -> String {
        let (header, body, totals) = cells(r)
        let columns = header.count
        var widths = header.map(TextWidth.of)
        for row in body + totals { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], TextWidth.of(cell)) } }
        let numeric = (0..<columns).map { $0 == columns - 1 }
        func line(_ l: String, _ m: String, _ r: String) -> String {
            l + widths.map { String(repeating: "─", count: $0 + 2) }.joined(separator: m) + r
        }
        func row(_ cells: [String]) -> String {
            "│" + cells.enumerated().map { i, c in
                let pad = String(repeating: " ", count: widths[i] - TextWidth.of(c))
                return " " + (numeric[i] ? pad + c : c + pad) + " "
            }.joined(separator: "│") + "│"
        }
        var out = [line("┌", "┬", "┐"), row(header), line("├", "┼", "┤")]
        out += body.map(row)
        if !totals.isEmpty && !body.isEmpty {
            out.append(line("├", "┼", "┤"))
            out += totals.map(row)
        }
        out.append(line("└", "┴", "┘"))
        return out.joined(separator: "\n")
    }

    // MARK: Markdown

    func markdown(_ r: ResultSet) -> String {
        let (header, body, totals) = cells(r)
        func escape(_ s: String) -> String { s.replacingAll("|", with: "\\|") }
        var out = ["| " + header.map(escape).joined(separator: " | ") + " |"]
        out.append("|" + header.indices.map { $0 == header.count - 1 ? " ---: " : " --- " }.joined(separator: "|") + "|")
        out += body.map { "| " + $0.map(escape).joined(separator: " | ") + " |" }
        out += totals.map { "| " + $0.enumerated().map { i, c in i == 0 && !c.isEmpty ? "**\(escape(c))**" : escape(c) }.joined(separator: " | ") + " |" }
        return out.joined(separator: "\n")
    }

    // MARK: JSON

    func json(_ r: ResultSet) -> String {
        var out = "{\"columns\":[" + r.columns.map(JSONText.quote).joined(separator: ",") + "],\"rows\":["
        out += r.rows.map { row in
            var fields = zip(r.columns, row.keys).map { JSONText.quote($0) + ":" + JSONText.quote($1) }
            let valueText: String
            switch row.value {
            case .money: valueText = JSONText.quote(plain(row.value))
            case .count(let n): valueText = String(n)
            }
            fields.append(JSONText.quote(r.columns[r.columns.count - 1]) + ":" + valueText)
            return "{" + fields.joined(separator: ",") + "}"
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
        lines += r.rows.map { ($0.keys + [plain($0.value)]).map(field).joined(separator: ",") }
        return lines.joined(separator: "\r\n")
    }
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
