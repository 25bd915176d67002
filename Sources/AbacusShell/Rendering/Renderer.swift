// Rendering a `ResultSet`: a table for people, JSON lines / CSV / markdown for
// other programs and documents (docs/language.md#output-formats).
//
// Table and markdown money is localized (`MoneyFormat`) and right-aligned by
// display width; JSON and CSV money is a plain decimal at the currency's minor
// unit. JSON has no total row; a grouped table ends with one.

import AbacusCore
import AbacusQuery
import BigInt
import Dispatch

public enum OutputFormat: String, CaseIterable, Sendable {
    case table, csv, json, markdown, chart

    /// Formats whose output is only results: a note (`set rate …`) or a plan goes to stderr,
    /// so a CSV file or a markdown table holds nothing else. JSON keeps notes as objects.
    var holdsOnlyTables: Bool { self == .csv || self == .markdown }
}

public struct Renderer {
    public var format: OutputFormat
    public let money: MoneyFormat
    /// ANSI styles (bold headers and totals, red negative money); only for a terminal.
    public var color = false
    /// The terminal's width: tables wider than this shrink their text columns; charts fill it.
    public var width: Int?
    /// The symbol of each currency in the result being drawn: no two currencies of one
    /// result share a symbol (`US$` and `S$` side by side, `$` alone).
    var symbols: DistinctMoneyFormat?

    public init(format: OutputFormat, money: MoneyFormat) {
        self.format = format
        self.money = money
    }

    /// The whole rendering of `r`, without the line end after its last line.
    public func render(_ r: ResultSet) -> String {
        var text = ""
        _ = write(r, to: { text += $0 })
        if text.hasSuffix("\r\n") { text.removeLast(1) }   // "\r\n" is one Character
        else if text.hasSuffix("\n") { text.removeLast() }
        return text
    }

    /// Writes `r` to `sink` a few hundred rows at a time, every line with its line end (CSV
    /// records end in CRLF, RFC 4180). Between pieces it asks `isCancelled`, so Ctrl-C stops a
    /// long listing at once; false when it stopped. `bytes`, when given, goes where `sink` goes
    /// and takes UTF-8 as it was written (a big JSON answer then is not copied into text first).
    public func write(_ r: ResultSet, to sink: (String) -> Void, bytes: ((UnsafeRawBufferPointer) -> Void)? = nil,
                      isCancelled: () -> Bool = { false }) -> Bool {
        // JSON has every column; the others leave out what was not asked for (`list … show …`).
        // JSON and CSV hold a crosstab's cells only, not its Total and Average.
        var r = format == .json ? r : r.withoutOptionalColumns
        if format == .json || format == .csv { r = r.withoutSummaryColumns }
        var renderer = self
        if format != .json && format != .csv { renderer.symbols = money.distinct(for: Renderer.currencies(of: r)) }
        if format == .json { return renderer.json(r, to: sink, bytes: bytes, isCancelled: isCancelled) }
        return renderer.draw(r, to: sink, isCancelled: isCancelled)
    }

    /// The currencies of a result's money.
    static func currencies(of r: ResultSet) -> Set<Currency> {
        var out = Set<Currency>()
        for row in r.rows + r.totals {
            for cell in row { if case .money(_, let c) = cell { out.insert(c) } }
        }
        return out
    }

    func draw(_ r: ResultSet, to sink: (String) -> Void, isCancelled: () -> Bool) -> Bool {
        switch format {
        case .table: return table(r, to: sink, isCancelled: isCancelled)
        case .chart:
            if let chart = Chart(renderer: self).render(r) { sink(chart + "\n"); return true }
            return table(r, to: sink, isCancelled: isCancelled)
        case .markdown: return markdown(r, to: sink, isCancelled: isCancelled)
        case .json: return json(r, to: sink, bytes: nil, isCancelled: isCancelled)
        case .csv: return csv(r, to: sink, isCancelled: isCancelled)
        }
    }

    /// Rows handled between two looks at the cancellation flag.
    static let chunk = 512

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

    /// A cell for people: localized money, ledger text with its invisible characters written
    /// out, `(none)` for a group without a value.
    func display(_ c: Cell) -> String {
        switch c {
        case .text(let s): return ShownText.shown(s)
        case .names(let names): return ShownText.shown(names.joined(separator: ", "))
        case .money(let d, let cur): return Renderer.isolated(symbols?.format(d, cur) ?? money.format(d, cur))
        case .number(let d): return Renderer.shortNumber(d)
        case .none: return Renderer.none
        default: return plain(c)
        }
    }

    /// A group without a value, as people see it.
    static let none = "(none)"

    /// The label of a total row: what it adds up.
    static func label(_ t: TotalLabel) -> String {
        switch t {
        case .total: return "Total"
        case .overall: return "Overall"
        case .totalOfTop(let n): return "Total (top \(n))"
        case .overallOfTop(let n): return "Overall (top \(n))"
        case .totalEachEntryOnce: return "Total (each entry once)"
        case .overallEachEntryOnce: return "Overall (each entry once)"
        }
    }

    /// Right-to-left money (ar_AE, ar_SA…) wrapped in a bidi isolate (U+2066 … U+2069): without
    /// it, two such cells in one row, and the `│` between them, are reordered by a terminal
    /// that applies the bidi algorithm. Isolates take no width.
    static func isolated(_ s: String) -> String {
        func rightToLeft(_ u: Unicode.Scalar) -> Bool {
            switch u.value {
            case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x200F, 0x061C: return true
            default: return false
            }
        }
        return s.unicodeScalars.contains(where: rightToLeft) ? "\u{2066}" + s + "\u{2069}" : s
    }

    /// A cell for programs (CSV, JSON): the exact text, plain decimal money; a group without a
    /// value is empty (JSON writes null), so a party really named "(none)" stays told apart.
    func plain(_ c: Cell) -> String {
        switch c {
        case .text(let s): return s
        case .currency(let cur): return cur.code
        case .period(let p): return p.description
        case .date(let d): return d.description
        case .none: return ""
        case .money(let d, let cur): return MoneyFormat.plain(d, cur)
        case .count(let n): return String(n)
        case .number(let d): return d.normalized.description
        case .decimal(let d): return d.description
        case .total(let t): return Renderer.label(t)
        case .names(let names): return names.joined(separator: ", ")
        case .empty: return ""
        }
    }

    /// A rate for people: at most 12 significant digits (JSON and CSV keep every digit).
    static func shortNumber(_ d: ExactDecimal) -> String {
        let n = d.normalized
        let digits = String(n.significand.magnitude).count
        return (digits > 12 ? n.rounded(toScale: max(0, n.scale - (digits - 12))).normalized : n).description
    }

    /// Which columns hold numbers (right-aligned).
    func numericColumns(_ r: ResultSet) -> [Bool] { r.columns.map(\.isNumeric) }

    /// Every row's cells for people, or nil when cancelled on the way (formatting a million
    /// amounts takes seconds).
    func displayed(_ rows: [[Cell]], isCancelled: () -> Bool) -> [[String]]? {
        var out: [[String]] = []
        out.reserveCapacity(rows.count)
        for (i, row) in rows.enumerated() {
            if i % Renderer.chunk == 0 && isCancelled() { return nil }
            out.append(row.map(display))
        }
        return out
    }

    /// Sends `lines` in pieces, each line ended by `end`; false when cancelled.
    static func send<S: Sequence>(_ lines: S, end: String = "\n", to sink: (String) -> Void, isCancelled: () -> Bool) -> Bool where S.Element == String {
        var piece = ""
        var count = 0
        for line in lines {
            piece += line
            piece += end
            count += 1
            if count == Renderer.chunk {
                if isCancelled() { return false }
                sink(piece)
                piece = ""
                count = 0
            }
        }
        if !piece.isEmpty { sink(piece) }
        return true
    }

    // MARK: Table

    func table(_ r: ResultSet, to sink: (String) -> Void, isCancelled: () -> Bool) -> Bool {
        guard var body = displayed(r.rows, isCancelled: isCancelled) else { return false }
        // Budget alerts stand out: in colour, or with a marker when there is none.
        let alerts = r.columns.indices.filter { r.columns[$0].kind == .alert }
        // Used up at 100% of the limit, whatever the highest alert reached (alerts [50, 90] at 120%).
        let used = r.columns.firstIndex { $0.name == "used %" }
        func usedUp(_ row: [Cell], _ alert: String) -> Bool {
            if let used, used < row.count, case .decimal(let d) = row[used] { return d >= ExactDecimal(100) }
            return Renderer.alertIsOver(alert)
        }
        if !color, !alerts.isEmpty {
            for k in body.indices {
                for i in alerts where i < body[k].count && !body[k][i].isEmpty {
                    body[k][i] = Renderer.alertMarker(body[k][i], usedUp: usedUp(r.rows[k], body[k][i]))
                }
            }
        }
        let totals = r.totals.map { $0.map(display) }
        let header = r.names.map { ShownText.shown($0) }
        var natural = header.map(TextWidth.of)
        for (n, row) in (body + totals).enumerated() {
            if n % (Renderer.chunk * 8) == 0 && isCancelled() { return false }
            for (i, cell) in row.enumerated() where i < natural.count { natural[i] = max(natural[i], TextWidth.of(cell)) }
        }
        let numeric = numericColumns(r)
        let layout = TableLayout(natural: natural, numeric: numeric, dates: dateColumns(r), width: width)
        let widths = layout.widths
        func line(_ l: String, _ m: String, _ r: String) -> String {
            l + widths.map { String(repeating: "─", count: $0 + 2) }.joined(separator: m) + r
        }
        func row(_ cells: [String], _ style: String?, _ source: [Cell]?) -> String {
            "│" + layout.columns.enumerated().map { position, column in
                guard let i = column else { return " " + TableLayout.marker + " " }
                let cell = i < cells.count ? cells[i] : ""
                let w = widths[position]
                let text = TextWidth.of(cell) > w ? TextWidth.truncate(cell, to: w) : cell
                let pad = String(repeating: " ", count: max(0, w - TextWidth.of(text)))
                var styled = text
                if color, let source, i < source.count, case .money(let d, _) = source[i], d.isNegative, !d.rounded(toScale: 2).isZero {
                    styled = ANSI.red + text + ANSI.reset
                } else if color, let source, i < source.count, r.columns[i].kind == .alert, case .text(let t) = source[i] {
                    styled = (usedUp(source, t) ? ANSI.red : ANSI.yellow) + ANSI.bold + text + ANSI.reset
                } else if color, let style { styled = style + text + ANSI.reset }
                return " " + (numeric[i] ? pad + styled : styled + pad) + " "
            }.joined(separator: "│") + "│"
        }
        sink([line("┌", "┬", "┐"), row(header, ANSI.bold, nil), line("├", "┼", "┤")].joined(separator: "\n") + "\n")
        guard Renderer.send(zip(body, r.rows).lazy.map { row($0, nil, $1) }, to: sink, isCancelled: isCancelled) else { return false }
        var end: [String] = []
        if !totals.isEmpty && !body.isEmpty {
            end.append(line("├", "┼", "┤"))
            end += zip(totals, r.totals).map { row($0, ANSI.bold, $1) }
        }
        end.append(line("└", "┴", "┘"))
        if !layout.hidden.isEmpty {
            let names = layout.hidden.map { header[$0] }.joined(separator: ", ")
            end.append("\(TableLayout.marker) stands for \(names) (too wide for the window)")
        }
        end += footnotes(r)
        sink(end.joined(separator: "\n") + "\n")
        return true
    }

    /// Whether an alert (`100%`) says the budget is used up.
    static func alertIsOver(_ alert: String) -> Bool {
        ExactDecimal(String(alert.prefix { $0 != "%" })).map { $0 >= ExactDecimal(100) } ?? false
    }

    /// An alert marked for a table without colour: `80% !`, and `100% !!` for a budget used up.
    static func alertMarker(_ alert: String, usedUp: Bool) -> String {
        alert + (usedUp ? " !!" : " !")
    }

    /// Columns of dates or periods (`2025-10-05`, `2025-10`, `2025-Q4`): cut, they would lose the day.
    func dateColumns(_ r: ResultSet) -> [Bool] {
        r.columns.map { c in
            switch c.kind {
            case .date: return true
            case .key(let k): return k.isPeriod
            default: return false
            }
        }
    }

    /// The lines under a table for people: notes, and the sparkline of a rate history.
    func footnotes(_ r: ResultSet) -> [String] {
        r.footnotes.map { f in
            switch f {
            case .note(let text): return text
            case .sparkline(let pair):
                guard let i = r.columns.firstIndex(where: { $0.kind == .rate }) else { return "" }
                let values = r.rows.compactMap { row -> ExactDecimal? in if case .number(let d) = row[i] { return d } else { return nil } }
                func short(_ d: ExactDecimal?) -> String { d.flatMap { WideDecimal($0).approximated(significantDigits: 8) }?.description ?? "" }
                return "\(pair) \(Renderer.sparkline(values)) \(short(values.min()))…\(short(values.max()))"
            }
        }
    }

    /// ▁▂▃▄▅▆▇█ for a series of rates, at most 64 wide (the last value of each stretch), scaled
    /// between its minimum and maximum with exact arithmetic.
    static func sparkline(_ values: [ExactDecimal]) -> String {
        let bars = Array("▁▂▃▄▅▆▇█")
        let width = min(values.count, 64)
        guard width > 0 else { return "" }
        let sampled = (0..<width).map { values[($0 + 1) * values.count / width - 1] }
        guard let lo = sampled.min(), let hi = sampled.max() else { return "" }
        let span = WideDecimal(hi) + WideDecimal(lo.negated)
        return String(sampled.map { v -> Character in
            guard span.significand != 0 else { return bars[3] }
            let offset = WideDecimal(v) + WideDecimal(lo.negated)
            let s = max(offset.scale, span.scale)
            let level = (offset.rescaled(to: s).significand * 7 * 2 + span.rescaled(to: s).significand) / (span.rescaled(to: s).significand * 2)
            return bars[max(0, min(7, Int(level)))]
        })
    }

    // MARK: Markdown

    func markdown(_ r: ResultSet, to sink: (String) -> Void, isCancelled: () -> Bool) -> Bool {
        guard let body = displayed(r.rows, isCancelled: isCancelled) else { return false }
        let totals = r.totals.map { $0.map(display) }
        let numeric = numericColumns(r)
        func escape(_ s: String) -> String { s.replacingAll("|", with: "\\|") }
        let head = ["| " + r.names.map { escape(ShownText.shown($0)) }.joined(separator: " | ") + " |",
                    "|" + r.columns.indices.map { numeric[$0] ? " ---: " : " --- " }.joined(separator: "|") + "|"]
        sink(head.joined(separator: "\n") + "\n")
        guard Renderer.send(body.lazy.map { "| " + $0.map(escape).joined(separator: " | ") + " |" }, to: sink, isCancelled: isCancelled) else { return false }
        var end = totals.map { "| " + $0.enumerated().map { i, c in i == 0 && !c.isEmpty ? "**\(escape(c))**" : escape(c) }.joined(separator: " | ") + " |" }
        let notes = footnotes(r)
        if !notes.isEmpty { end += [""] + notes }
        if !end.isEmpty { sink(end.joined(separator: "\n") + "\n") }
        return true
    }

    // MARK: JSON

    func json(_ r: ResultSet, to sink: (String) -> Void, bytes: ((UnsafeRawBufferPointer) -> Void)?, isCancelled: () -> Bool) -> Bool {
        let names = r.names.map(JSONText.quote)
        sink("{\"columns\":[" + names.joined(separator: ",") + "],\"rows\":[")
        // A grouping's rows as columns are written from them (each key's values made text once).
        let cells = r.keyed == nil ? r.rows : []
        let writer = JSONRows(names: names, keyed: r.keyed, plain: plain)
        let count = r.rowCount
        var out = JSONBytes(plain: plain)
        if count >= Renderer.jsonHalvesFrom && onlineProcessors > 1 {
            // Many rows: two halves written side by side, each into bytes of its own, then sent
            // in order: as they are to `bytes`, else as text. The second half is written by
            // another thread while the first is written here and sent.
            if isCancelled() { sink("\n"); return false }
            let second = Slot<[UInt8]>()
            let job = JSONHalves(renderer: self, rows: cells, writer: writer)
            let half: @Sendable (Int) -> [UInt8] = { k in
                var half = JSONBytes(plain: job.renderer.plain)
                half.bytes.reserveCapacity(job.writer.estimatedBytes(rows: count / 2 + 1))
                job.writer.write(job.rows, count * k / 2..<count * (k + 1) / 2, after: k > 0, into: &half)
                return half.bytes
            }
            let done = DispatchGroup()
            DispatchQueue.global().async(group: done) { second.value = half(1) }
            // The bytes are UTF-8: names from Swift strings, the rest ASCII.
            func send(_ b: [UInt8]) { if let bytes { b.withUnsafeBytes(bytes) } else { sink(String(decoding: b, as: UTF8.self)) } }
            send(half(0))
            done.wait()
            if isCancelled() { sink("\n"); return false }
            send(second.value ?? [])
        } else {
            // A piece of a few hundred rows at a time, looking for Ctrl-C between them.
            var lo = 0
            while lo < count {
                let hi = min(count, lo + Renderer.chunk)
                writer.write(cells, lo..<hi, after: lo > 0, into: &out)
                lo = hi
                guard lo < count else { break }
                // One object on one line: a cancelled one is ended with a newline all the same.
                if isCancelled() { sink("\n"); return false }
                sink(String(decoding: out.bytes, as: UTF8.self))
                out.bytes.removeAll(keepingCapacity: true)
            }
        }
        var end = String(decoding: out.bytes, as: UTF8.self)
        end += "],\"currency\":" + (r.currency.map { JSONText.quote($0.code) } ?? "null")
        end += ",\"warnings\":[" + r.warnings.map(JSONText.quote).joined(separator: ",") + "]}\n"
        sink(end)
        return true
    }

    /// Results with this many rows are written as JSON by two threads, half each.
    static let jsonHalvesFrom = 4096

    // MARK: CSV (RFC 4180)

    func csv(_ r: ResultSet, to sink: (String) -> Void, isCancelled: () -> Bool) -> Bool {
        func field(_ s: String) -> String {
            // Bytes, not Characters: a million fields are checked, and "\r\n" is one Character.
            let special = s.utf8.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }
            return special ? "\"" + s.replacingAll("\"", with: "\"\"") + "\"" : s
        }
        sink(r.names.map(field).joined(separator: ",") + "\r\n")
        return Renderer.send(r.rows.lazy.map { $0.map(plain).map(field).joined(separator: ",") }, end: "\r\n", to: sink, isCancelled: isCancelled)
    }
}

/// The rows of a JSON result as UTF-8 bytes: each column's `"name":` made once, side by side
/// in one array (column i's at `starts[i]..<starts[i + 1]`), rows and prefixes read through
/// buffer pointers (no reference counting per cell). Rows held as columns (`KeyedRows`) have
/// each key's values written once, and each row copies its keys' text from there.
struct JSONRows: Sendable {
    let prefixes: [UInt8]
    let starts: [Int]
    let keyed: KeyedRows?
    /// The JSON text of every value of every key of `keyed`, side by side: value v of key k is
    /// at `keyStarts[keyBase[k] + v] ..< keyStarts[keyBase[k] + v + 1]`.
    let keyText: [UInt8]
    let keyStarts: [Int]
    let keyBase: [Int]

    init(names: [String], keyed: KeyedRows? = nil, plain: @escaping (Cell) -> String) {
        prefixes = names.flatMap { Array(($0 + ":").utf8) }
        var starts = [0]
        for name in names { starts.append(starts[starts.count - 1] + name.utf8.count + 1) }
        self.starts = starts
        self.keyed = keyed
        var out = JSONBytes(plain: plain)
        var at: [Int] = [], base: [Int] = []
        for dictionary in keyed?.dictionaries ?? [] {
            base.append(at.count)
            at.append(out.bytes.count)
            for v in dictionary { out.value(v); at.append(out.bytes.count) }
        }
        (keyText, keyStarts, keyBase) = (out.bytes, at, base)
    }

    /// About how many bytes `rows` rows take (each key's values at their average length, other
    /// cells at a generous one), so that the bytes are reserved once rather than grown.
    func estimatedBytes(rows: Int) -> Int {
        let keys = keyBase.count, cells = starts.count - 1 - keys
        let keyBytes = keys == 0 ? 0 : keyText.count / max(1, keyStarts.count - keys) * keys
        return rows * (prefixes.count + keyBytes + 24 * cells + starts.count + 2)
    }

    /// Appends rows `range` (of `rows`, or of `keyed`) as objects, separated by commas (and
    /// preceded by one `after` others).
    func write(_ rows: [[Cell]], _ range: Range<Int>, after: Bool, into out: inout JSONBytes) {
        guard let keyed else { return write(rows[range], after: after, into: &out) }
        let columns = starts.count - 1, keys = keyed.keyCount, width = keyed.width
        let cells = min(keys + width, columns)
        // The most one row can take: braces, commas, each name, each key's longest value, and a
        // tail cell of money, a count or a share as long as a number's quoted text gets (other
        // cells are written the slower way).
        var longest = [Int](repeating: 0, count: keys)
        for k in 0..<keys {
            for v in keyBase[k]..<(keyBase[k] + keyed.dictionaries[k].count) { longest[k] = max(longest[k], keyStarts[v + 1] - keyStarts[v]) }
        }
        let rowBytes = 3 + cells + prefixes.count + longest.reduce(0, +) + width * (ExactDecimal.descriptionBytes + 2)
        let batch = 256
        var r = range.lowerBound
        while r < range.upperBound {
            let end = min(range.upperBound, r + batch)
            // Room for the batch's rows, written through a pointer, and what was not used taken off.
            let start = out.bytes.count
            out.bytes.append(contentsOf: repeatElement(0, count: (end - r) * rowBytes))
            let written = out.bytes.withUnsafeMutableBufferPointer { buffer -> Int? in
                guard let o = buffer.baseAddress else { return nil }
                var at = start
                // Everything else read through pointers taken once: no reference counting per cell.
                return prefixes.withUnsafeBufferPointer { prefixes in keyText.withUnsafeBufferPointer { text in
                keyStarts.withUnsafeBufferPointer { keyAt in keyBase.withUnsafeBufferPointer { base in
                keyed.index.withUnsafeBufferPointer { index in keyed.tail.withUnsafeBufferPointer { tail -> Int? in
                    func copy(_ from: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
                        guard let p = from.baseAddress else { return }
                        (o + at).update(from: p + range.lowerBound, count: range.count)
                        at += range.count
                    }
                    for row in r..<end {
                        if row > range.lowerBound || after { o[at] = UInt8(ascii: ","); at += 1 }
                        o[at] = UInt8(ascii: "{"); at += 1
                        for i in 0..<cells {
                            if i > 0 { o[at] = UInt8(ascii: ","); at += 1 }
                            copy(prefixes, starts[i]..<starts[i + 1])
                            if i < keys {
                                let v = base[i] &+ Int(index[row &* keys &+ i])
                                copy(text, keyAt[v]..<keyAt[v &+ 1])
                                continue
                            }
                            switch tail[row &* width &+ (i - keys)] {
                            case .money(let d, let c):
                                o[at] = UInt8(ascii: "\""); at += 1
                                at += MoneyFormat.plainValue(d, c).writeDescription(to: o + at)
                                o[at] = UInt8(ascii: "\""); at += 1
                            case .count(let n):
                                at += ExactDecimal(significand: Int128(n), scale: 0).writeDescription(to: o + at)
                            case .decimal(let d):
                                o[at] = UInt8(ascii: "\""); at += 1
                                at += d.writeDescription(to: o + at)
                                o[at] = UInt8(ascii: "\""); at += 1
                            case .empty, .none:
                                for b in "null".utf8 { o[at] = b; at += 1 }
                            default:
                                // Another kind of cell: the batch again, the slower way.
                                return nil
                            }
                        }
                        o[at] = UInt8(ascii: "}"); at += 1
                    }
                    return at
                } } } } } }
            }
            if let written {
                out.bytes.removeLast(out.bytes.count - written)
            } else {
                // Another kind of cell after the keys: the batch's rows as arrays of cells, written as those are.
                out.bytes.removeLast(out.bytes.count - start)
                write(ArraySlice((r..<end).map(keyed.row)), after: after || r > range.lowerBound, into: &out)
            }
            r = end
        }
    }

    /// Appends `rows` as objects, separated by commas (and preceded by one `after` others).
    func write(_ rows: ArraySlice<[Cell]>, after: Bool, into out: inout JSONBytes) {
        let columns = starts.count - 1
        prefixes.withUnsafeBufferPointer { prefixes in
            for (n, cells) in rows.enumerated() {
                if n > 0 || after { out.bytes.append(UInt8(ascii: ",")) }
                out.bytes.append(UInt8(ascii: "{"))
                cells.withUnsafeBufferPointer { row in
                    for i in 0..<min(row.count, columns) {
                        if i > 0 { out.bytes.append(UInt8(ascii: ",")) }
                        out.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: prefixes[starts[i]..<starts[i + 1]]))
                        out.value(row[i])
                    }
                }
                out.bytes.append(UInt8(ascii: "}"))
            }
        }
    }
}

/// What the two threads writing a JSON result's halves read (and only read).
private final class JSONHalves: @unchecked Sendable {
    let renderer: Renderer
    let rows: [[Cell]]
    let writer: JSONRows
    init(renderer: Renderer, rows: [[Cell]], writer: JSONRows) { (self.renderer, self.rows, self.writer) = (renderer, rows, writer) }
}

/// JSON values written as UTF-8 bytes (the rows of `Renderer.json`): numbers digit by digit,
/// text copied in one piece unless it needs escapes, a period's and a currency's text made once.
struct JSONBytes {
    var bytes: [UInt8] = []
    /// The plain text of the cells written no faster way.
    let plain: (Cell) -> String
    /// Periods' quoted text by unit and code: open addressing over a table made at the first
    /// period (a few hundred periods at most in a result; past half full, text is made each time).
    private var periodKeys: [Int64] = []
    private var periodTexts: [[UInt8]] = []
    private var periodCount = 0
    /// The currencies met lately, with their quoted codes (a result holds a few).
    private var currencies: [(Currency, [UInt8])] = []

    init(plain: @escaping (Cell) -> String) {
        self.plain = plain
    }

    mutating func quoted(_ s: String) {
        // Native text is read where it lies (no copy of the string); other text through `withUTF8`.
        let done: Bool = s.utf8.withContiguousStorageIfAvailable { utf8 in plainQuoted(utf8) } ?? {
            var text = s
            return text.withUTF8 { plainQuoted($0) }
        }()
        if !done { bytes.append(contentsOf: JSONText.quote(s).utf8) }
    }

    /// Appends text that needs no escape, quoted; false (nothing appended) for text that does.
    private mutating func plainQuoted(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        for b in utf8 where String.jsonEscapes(b) { return false }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: utf8)
        bytes.append(UInt8(ascii: "\""))
        return true
    }

    mutating func value(_ c: Cell) {
        switch c {
        case .count(let n): ExactDecimal(significand: Int128(n), scale: 0).appendDescription(to: &bytes)
        case .empty, .none: bytes.append(contentsOf: "null".utf8)
        case .names(let names): bytes.append(contentsOf: ("[" + names.map(JSONText.quote).joined(separator: ",") + "]").utf8)
        case .text(let s): quoted(s)
        case .currency(let cur): currency(cur)
        case .money(let d, let cur):
            bytes.append(UInt8(ascii: "\""))
            MoneyFormat.plainValue(d, cur).appendDescription(to: &bytes)
            bytes.append(UInt8(ascii: "\""))
        case .period(let p): period(p)
        default: bytes.append(contentsOf: JSONText.quote(plain(c)).utf8)
        }
    }

    private mutating func currency(_ c: Currency) {
        for (known, text) in currencies where known == c { bytes.append(contentsOf: text); return }
        let text = Array(JSONText.quote(c.code).utf8)
        if currencies.count == 16 { currencies.removeFirst() }
        currencies.append((c, text))
        bytes.append(contentsOf: text)
    }

    private mutating func period(_ p: Period) {
        if periodKeys.isEmpty { periodKeys = Array(repeating: .min, count: 2048); periodTexts = Array(repeating: [], count: 2048) }
        let unit: Int64
        switch p.unit {
        case .day: unit = 0
        case .week: unit = 1
        case .month: unit = 2
        case .quarter: unit = 3
        case .year: unit = 4
        }
        let key = Int64(p.code) << 3 | unit
        let mask = periodKeys.count - 1
        var i = Int(truncatingIfNeeded: UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15 >> 40) & mask
        while periodKeys[i] != .min {
            if periodKeys[i] == key { bytes.append(contentsOf: periodTexts[i]); return }
            i = (i + 1) & mask
        }
        // A period's label is digits and dashes: nothing to escape.
        var text: [UInt8] = [UInt8(ascii: "\"")]
        p.appendLabel(to: &text)
        text.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: text)
        guard periodCount * 2 < periodKeys.count else { return }
        periodKeys[i] = key
        periodTexts[i] = text
        periodCount += 1
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
    static func quote(_ s: String) -> String { s.jsonQuoted }
}

extension String {
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for ch in self { if ch == target { out += replacement } else { out.append(ch) } }
        return out
    }
}
