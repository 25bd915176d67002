// Money display (the README's money display) and the output formats (docs/language.md).

import AbacusCore
import AbacusQuery
@testable import AbacusShell
import Foundation
import Testing

@Suite struct MoneyFormatTests {
    /// Expected strings are ICU/CLDR's, checked by hand: lakh grouping for INR, no decimals
    /// for JPY, de_CH's apostrophes, ar_AE's right-to-left marks around the amount.
    @Test(arguments: [
        ("1234567.885", "INR", "₹12,34,567.88"),     // half-even: …885 → …88
        ("-1234567.895", "INR", "-₹12,34,567.90"),   // …895 → …90
        ("1234567.885", "USD", "$1,234,567.88"),
        ("1234567.885", "EUR", "€1,234,567.88"),
        ("1234567.885", "GBP", "£1,234,567.88"),
        ("1234567.5", "JPY", "¥1,234,568"),          // half-even to 0 decimals: .5 → even 568
        ("2.5", "JPY", "¥2"),
        ("1234567.885", "CHF", "CHF\u{A0}1’234’567.88"),
        ("1234567.885", "AED", "\u{200F}1,234,567.88\u{A0}د.إ.\u{200F}"),
        ("-0.004", "INR", "₹0.00"),                  // rounds to zero: no sign
        ("0", "KWD", "KWD\u{A0}0.000"),              // ISO minor unit 3
    ])
    func formatsInTheHomeLocale(value: String, code: String, expected: String) throws {
        let money = MoneyFormat()
        let v = try #require(ExactDecimal(value))
        let c = try #require(Currency(code: code))
        #expect(money.format(v, c) == expected)
    }

    @Test func aLocaleOverrideAppliesToEveryCurrency() throws {
        let money = MoneyFormat(locale: "en_US")
        #expect(money.format(ExactDecimal("1234567.5")!, Currency(code: "INR")!) == "₹1,234,567.50")
    }

    @Test(arguments: [("-15000", "INR", "-15000.00"), ("1200.4", "JPY", "1200"), ("1.25", "KWD", "1.250"),
                      ("2.345", "USD", "2.34"), ("-0.001", "USD", "0.00")])
    func plainTextForMachines(value: String, code: String, expected: String) throws {
        #expect(MoneyFormat.plain(ExactDecimal(value)!, Currency(code: code)!) == expected)
    }

    @Test func compactStyleForSummaries() {
        let money = MoneyFormat()
        #expect(money.compact(ExactDecimal("1234567")!, Currency(code: "INR")!) == "₹12L")
        #expect(money.compact(ExactDecimal("12345678")!, Currency(code: "USD")!) == "$12M")
    }
}

@Suite struct RendererTests {
    static let aed = Currency(code: "AED")!
    static let result = ResultSet(
        columns: [Column("party", .key(.party)), Column("amount", .money)],
        rows: [[.text("Café, \"Le\" Nord"), .money(ExactDecimal("1234.5")!, aed)],
               [.text("Souk"), .money(ExactDecimal("-7")!, aed)]],
        totals: [[.total(.total), .money(ExactDecimal("1227.5")!, aed)]],
        currency: aed, warnings: ["a warning"])

    @Test func tableAlignsMoneyByDisplayWidth() {
        let text = Renderer(format: .table, money: MoneyFormat()).render(RendererTests.result)
        // Every line has the same display width: the RLM marks in AED amounts take no column.
        let widths = Set(text.split(separator: "\n").map { TextWidth.of(String($0)) })
        #expect(widths.count == 1)
        // "Café, \"Le\" Nord" sets the key column at 15 wide: "Total" and 10 spaces of padding.
        #expect(text.contains("│ Total" + String(repeating: " ", count: 11) + "│"))
        // Right-to-left money sits in a bidi isolate, so a terminal cannot reorder cells across `│`.
        #expect(text.contains("\u{2066}\u{200F}1,234.50\u{A0}د.إ.\u{200F}\u{2069}"))
    }

    @Test func aBudgetUsedUpIsMarkedWhateverItsHighestAlert() {
        // Alerts [50, 90] at 120% used: the alert is 90%, and the budget is over: `!!` (red in
        // colour). 85.0% under alerts [50, 80, 100] reached 80%: `!`. A 100% alert at 100.0%: `!!`.
        let result = ResultSet(columns: [Column("category", .key(.category)), Column("used %", .quantity), Column("alert", .alert)],
                               rows: [[.text("Food"), .decimal(ExactDecimal("120.0")!), .text("90%")],
                                      [.text("Rent"), .decimal(ExactDecimal("85.0")!), .text("80%")],
                                      [.text("Fuel"), .decimal(ExactDecimal("100.0")!), .text("100%")]],
                               currency: nil, warnings: [])
        let text = Renderer(format: .table, money: MoneyFormat()).render(result)
        #expect(text.contains("│ 90% !!"))
        #expect(text.contains("│ 80% !   │"))
        #expect(text.contains("│ 100% !!"))
        var colour = Renderer(format: .table, money: MoneyFormat())
        colour.color = true
        #expect(colour.render(result).contains(ANSI.red + ANSI.bold + "90%"))
    }

    /// A chart fits the window: in 40 columns long labels are cut (not kept at 36 columns
    /// with the bars wrapping), a crosstab's heading too, and the budget's 100% mark is
    /// labelled before it where the window ends first.
    @Test func aChartFitsANarrowWindow() {
        let inr = Currency(code: "INR")!
        let long = "A category whose name is rather long indeed"
        let sums = ResultSet(columns: [Column("category", .key(.category)), Column("amount", .money)],
                             rows: [[.text(long), .money(ExactDecimal("123456.78")!, inr)], [.text("Rent"), .money(ExactDecimal("5000")!, inr)]],
                             currency: inr, warnings: [])
        let budget = ResultSet(columns: [Column("month", .key(.month)), Column("category", .key(.category)), Column("used %", .quantity), Column("alert", .alert)],
                               rows: [[.period(Period(.month, containing: Day(year: 2025, month: 11, day: 1)!)), .text(long), .decimal(ExactDecimal("100.0")!), .text("100%")]],
                               currency: nil, warnings: [])
        var renderer = Renderer(format: .chart, money: MoneyFormat())
        renderer.color = false
        for width in [40, 60] {
            renderer.width = width
            for r in [sums, budget] {
                let lines = renderer.render(r).split(separator: "\n")
                #expect(lines.allSatisfy { TextWidth.of(String($0)) <= width }, "\(width): \(lines)")
            }
        }
        renderer.width = 40
        #expect(renderer.render(sums).hasPrefix("A category whose nam…  ₹1.2L  "))
        // A label ending in a currency code keeps it; its head is cut.
        #expect(Chart.cut("A book whose name is rather long / USD", to: 20) == "A book whose … / USD")
        #expect(Chart.cut("Home / USD", to: 20) == "Home / USD")
        // Used 100%: the mark is the bar's last column, its label before it.
        #expect(renderer.render(budget).hasSuffix("100% ┘"))
        renderer.width = 120
        #expect(renderer.render(sums).hasPrefix(String(long.prefix(35)) + "…"))
        // Used 200%: the mark halfway, its label after it.
        var over = budget
        over.rows[0][2] = .decimal(ExactDecimal("200.0")!)
        #expect(renderer.render(over).hasSuffix("└ 100%"))
    }

    @Test func aHoldingsChartDrawsEachSymbolsValueAndABudgetWithoutALimitSaysSo() {
        let usd = Currency(code: "USD")!
        // Without `in CUR` holdings end with gain %: the chart draws the value, $65 and $130.
        let holdings = ResultSet(columns: [Column("symbol", .text), Column("value", .money), Column("gain", .money), Column("gain %", .quantity)],
                                 rows: [[.text("ABC"), .money(ExactDecimal("65")!, usd), .money(ExactDecimal("6")!, usd), .decimal(ExactDecimal("10.2")!)],
                                        [.text("XYZ"), .money(ExactDecimal("130")!, usd), .money(ExactDecimal("-1")!, usd), .decimal(ExactDecimal("-0.8")!)]],
                                 currency: nil, warnings: [])
        let chart = Renderer(format: .chart, money: MoneyFormat()).render(holdings)
        #expect(chart.contains("ABC   $65.00  ") && chart.contains("XYZ  $130.00  "))
        #expect(!chart.contains("┌"))
        // A limit of 0 or less has no use %: the bar's text says why, not that there is no limit.
        let budget = ResultSet(columns: [Column("category", .key(.category)), Column("used %", .quantity), Column("alert", .alert)],
                               rows: [[.text("Food"), .empty, .empty]], currency: nil, warnings: [])
        #expect(Renderer(format: .chart, money: MoneyFormat()).render(budget).contains("Food  limit ≤ 0"))
    }

    @Test func csvQuotesPerRFC4180AndUsesPlainMoney() {
        let text = Renderer(format: .csv, money: MoneyFormat()).render(RendererTests.result)
        #expect(text == "party,amount\r\n\"Café, \"\"Le\"\" Nord\",1234.50\r\nSouk,-7.00")
    }

    @Test func jsonHasNoTotalAndCarriesWarnings() throws {
        let text = Renderer(format: .json, money: MoneyFormat()).render(RendererTests.result)
        #expect(text == #"{"columns":["party","amount"],"rows":[{"party":"Café, \"Le\" Nord","amount":"1234.50"},{"party":"Souk","amount":"-7.00"}],"currency":"AED","warnings":["a warning"]}"#)
        #expect(try JSONSerialization.jsonObject(with: Data(text.utf8)) is [String: Any])
    }

    /// JSON rows are written as bytes a piece at a time: every kind of cell, across the boundary
    /// of a piece (more rows than `Renderer.chunk`), reads back as the cells; and so do the rows
    /// of a result long enough to be written by two threads, half each.
    @Test(arguments: [Renderer.chunk * 2 + 3, Renderer.jsonHalvesFrom + 7])
    func jsonWritesEveryKindOfCellAcrossPieces(count: Int) throws {
        let jpy = Currency(code: "JPY")!, kwd = Currency(code: "KWD")!
        let month = Period(unit: .month, code: 2025 * 12 + 9)
        let rows: [[Cell]] = (0..<count).map { n in
            [n % 2 == 0 ? .text("a\"b\\c\u{1}é\(n)") : .none, .period(n % 3 == 0 ? month : Period(unit: .day, code: Int32(n))),
             .currency(n % 2 == 0 ? jpy : kwd), .count(n * 1_000_003), .money(ExactDecimal(significand: Int128(n) * 12_345 - 600_000, scale: 3), n % 2 == 0 ? jpy : kwd),
             .names(n % 4 == 0 ? [] : ["x", "y\(n)"]), .empty]
        }
        // Column names of several bytes a character and with escapes: each row's `"name":` pieces
        // are cut from one array by their UTF-8 lengths.
        let names = ["pärty", "mo\"nth", "currency", "count", "amount", "tags", "share"]
        let r = ResultSet(columns: names.map { Column($0, .text) }, rows: rows, currency: nil)
        let text = Renderer(format: .json, money: MoneyFormat()).render(r)
        // Written to a sink of bytes (stdout's, in the shell), the answer is the same text.
        var sent: [UInt8] = []
        var bytesSent = 0
        #expect(Renderer(format: .json, money: MoneyFormat()).write(r, to: { sent += $0.utf8 }, bytes: { bytesSent += $0.count; sent += $0 }))
        #expect(String(decoding: sent, as: UTF8.self) == text + "\n")
        // Only the rows of a long result go as bytes (two halves written side by side).
        #expect((bytesSent > 0) == (count >= Renderer.jsonHalvesFrom))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let back = try #require(object["rows"] as? [[String: Any]])
        #expect(back.count == rows.count)
        for (row, read) in zip(rows, back) {
            for (name, cell) in zip(names, row) {
                let renderer = Renderer(format: .json, money: MoneyFormat())
                switch cell {
                case .none, .empty: #expect(read[name] is NSNull)
                case .count(let n): #expect(read[name] as? Int == n)
                case .names(let xs): #expect(read[name] as? [String] == xs)
                default: #expect(read[name] as? String == renderer.plain(cell), "\(name): \(cell)")
                }
            }
        }
    }

    /// A grouping's rows held as columns (`KeyedRows`: each key's values once) render as the
    /// same rows held as arrays of cells do, in every format: JSON on one thread and on two (past
    /// `Renderer.jsonHalvesFrom` rows), CSV, table and markdown; with names that need escapes,
    /// a missing party, `top N`, a share and a running total after the value, `in native`, and
    /// comparisons of two sides with the same groups and with other groups (A's value, B's and
    /// the change after the keys).
    @Test func aGroupingsColumnsRenderAsItsRows() throws {
        var entries: [String] = []
        for i in 0..<9000 {
            let party = i % 11 == 0 ? "" : ", \"party\": \"" + (i % 7 == 0 ? "a\\\"b\\\\c\\u0001é" : "P") + "\(i % 97)\""
            let day = String(format: "2025-%02d-%02d", i % 3 + 1, i % 28 + 1)
            let currency = i % 5 == 0 ? "USD" : "INR"
            entries.append("{\"id\": \"\(i)\", \"bookId\": \"h\", \"amount\": -\(i % 1000).\(i % 89), \"currency\": \"\(currency)\", \"date\": \"\(day)\", \"category\": \"C\(i % 5)\"\(party)}")
        }
        let json = """
        {"version": 1, "defaultCurrency": "INR", "books": [{"id": "h", "name": "H", "currency": "INR"}],
         "entries": [\(entries.joined(separator: ",\n"))],
         "customRates": [{"from": "USD", "to": "INR", "rate": 83.5}]}
        """
        let ledger = try LedgerLoader.load(documents: [("keyed.json", json)])
        let session = Session(ledger: ledger, today: Day(year: 2025, month: 12, day: 31)!)
        var keyedSeen = 0
        for q in ["sum expenses by party, day", "count entries by day, party", "sum expenses by category, party with share with running total",
                  "sum expenses by party, month order by amount desc top 40", "sum expenses in native by currency, party",
                  "avg expenses in USD by party order by party desc", "sum expenses by party, day with rate USD/INR = 80 vs with rate USD/INR = 90",
                  "sum expenses by party, day during 2025-02 vs previous period"] {
            let keyed = try session.run(q)
            if keyed.keyed != nil { keyedSeen += 1 }
            var cells = ResultSet(columns: keyed.columns, rows: keyed.rows, totals: keyed.totals, currency: keyed.currency, warnings: keyed.warnings)
            cells.provenance = keyed.provenance
            #expect(cells.keyed == nil && keyed.rowCount == cells.rows.count)
            for format in OutputFormat.allCases {
                let renderer = Renderer(format: format, money: MoneyFormat())
                #expect(renderer.render(keyed) == renderer.render(cells), "\(format): \(q)")
                var sent: [[UInt8]] = [[], []]
                for (k, r) in [keyed, cells].enumerated() {
                    _ = renderer.write(r, to: { sent[k] += $0.utf8 }, bytes: { sent[k] += $0 })
                }
                #expect(sent[0] == sent[1], "\(format), as bytes: \(q)")
            }
        }
        #expect(keyedSeen == 8)
        #expect(try session.run("sum expenses by party, day").rowCount >= Renderer.jsonHalvesFrom)
    }

    /// Rows held as columns whose cells after the keys are of any kind (not only money, counts
    /// and shares, which JSON writes straight from the columns) render as the same rows of cells.
    @Test func keyedRowsOfEveryKindOfCellRenderAsTheirCells() throws {
        let usd = Currency(code: "USD")!
        let tails: [Cell] = [.money(ExactDecimal("-0.004")!, usd), .count(7), .decimal(ExactDecimal("31.0")!), .empty, .none,
                             .text("a\"b"), .period(Period(unit: .month, code: 2025 * 12 + 2)), .names(["x", "y"]), .number(ExactDecimal("1.50")!)]
        let n = Renderer.jsonHalvesFrom + 300
        let keyed = KeyedRows(dictionaries: [[.text("Ünï"), .none, .text("b,\"c")], [.currency(usd)]],
                              index: (0..<n).flatMap { [UInt32($0 % 3), 0] },
                              tail: (0..<n).flatMap { r in [tails[r % tails.count], tails[(r / 700) % tails.count]] }, width: 2)
        var a = ResultSet(columns: [Column("party", .key(.party)), Column("currency", .key(.currency)), Column("amount", .money), Column("x", .text)], rows: [])
        a.keyed = keyed
        let b = ResultSet(columns: a.columns, rows: keyed.cells)
        #expect(a.rowCount == n && b.rows == a.rows)
        // Rows no longer held as columns are the same rows as arrays of cells.
        var c = a
        c.keyed = nil
        #expect(c.keyed == nil && c.rows == a.rows)
        for format in OutputFormat.allCases {
            let renderer = Renderer(format: format, money: MoneyFormat())
            #expect(renderer.render(a) == renderer.render(b), "\(format)")
        }
    }

    /// A period's and a currency's JSON text is made once and kept: past what the keeping holds
    /// (1,024 periods, 16 currencies met lately) and with periods of every unit sharing a code,
    /// each cell still reads as its own text.
    @Test func jsonKeepsPeriodAndCurrencyTextAcrossManyValues() throws {
        let units: [PeriodUnit] = [.day, .week, .month, .quarter, .year]
        let codes = ["USD", "EUR", "INR", "JPY", "GBP", "SGD", "AED", "KWD", "CHF", "CAD", "AUD", "NZD", "SEK", "NOK", "DKK", "PLN", "CZK", "HUF", "ZAR", "MXN"]
        let rows: [[Cell]] = (0..<3000).map { n in
            let unit = units[n % units.count]
            let code: Int32 = unit == .day ? Int32(20_000 + n % 1500) : (unit == .week ? Int32(2900 + n % 40) : (unit == .month ? Int32(24_290 + n % 30) : (unit == .quarter ? Int32(8100 + n % 8) : 2025)))
            return [.period(Period(unit: unit, code: code)), .currency(Currency(code: codes[(n * 7) % codes.count])!)]
        }
        let r = ResultSet(columns: [Column("period", .text), Column("currency", .text)], rows: rows, currency: nil)
        let text = Renderer(format: .json, money: MoneyFormat()).render(r)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let back = try #require(object["rows"] as? [[String: Any]])
        #expect(back.count == rows.count)
        for (row, read) in zip(rows, back) {
            guard case .period(let p) = row[0], case .currency(let c) = row[1] else { continue }
            #expect(read["period"] as? String == p.description)
            #expect(read["currency"] as? String == c.code)
        }
    }

    @Test func markdownRightAlignsTheAmount() {
        let text = Renderer(format: .markdown, money: MoneyFormat()).render(RendererTests.result)
        #expect(text.hasPrefix("| party | amount |\n| --- | ---: |\n"))
        #expect(text.contains("| **Total** |"))
    }
}

@Suite struct RateHistoryChartTests {
    /// Five days of SGD/INR: the chart names the first, last, lowest and highest rates with their
    /// dates, draws 12 lines of columns between the lowest and the highest, and fits the window.
    @Test func aRateHistoryIsDrawnWithItsExtremesLabelled() throws {
        let days = (1...5).map { Day(year: 2025, month: 10, day: $0)! }
        let rates = ["62.5", "62.1", "63.9", "63.0", "62.8"].map { ExactDecimal($0)! }
        let r = ResultSet(columns: [Column("date", .date), Column("rate", .rate), Column("source", .text)],
                          rows: zip(days, rates).map { [.date($0), .number($1), .text("demo")] },
                          footnotes: [.sparkline(CurrencyPair(Currency(code: "SGD")!, Currency(code: "INR")!))])
        var renderer = Renderer(format: .chart, money: MoneyFormat())
        renderer.width = 40
        let lines = renderer.render(r).split(separator: "\n").map(String.init)
        // Too wide for 40 columns in one line: the values go under the title.
        #expect(lines[0] == "SGD/INR, 2025-10-01..2025-10-05:")
        #expect(lines[1] == "first 62.5, last 62.8, lowest 62.1 (2025-10-02), highest 63.9 (2025-10-03)")
        #expect(lines.count == 15)
        #expect(lines[2].hasPrefix("63.9 ┤") && lines[13].hasPrefix("62.1 ┤"))
        // The highest rate's column is full to the top line; the lowest's shows only at the bottom.
        let top = Array(lines[2].dropFirst(6)), bottom = Array(lines[13].dropFirst(6))
        #expect(top.count >= 5 && top[2] == "█" && top[1] == " ")
        #expect(bottom[1] != " ")
        #expect(lines.dropFirst(2).allSatisfy { TextWidth.of($0) <= 40 })
        // A wide window has the title and the values on one line.
        renderer.width = 120
        #expect(renderer.render(r).hasPrefix("SGD/INR, 2025-10-01..2025-10-05: first 62.5,"))
        // A table of the same result keeps the sparkline under it.
        #expect(Renderer(format: .table, money: MoneyFormat()).render(r).contains("SGD/INR ▃▁█▅▄ 62.1…63.9"))
    }
}
