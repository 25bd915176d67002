// Groupings with thousands of groups take paths of their own in the dense kernel: a product
// of keys numbers only the groups it meets (in product order, marked by both threads), the
// groups' sums are read where the scan left them, and their sums and roundings are worked
// out by two threads, each over half the groups. On a generated ledger with thousands of
// (party, day) groups, each group's sum must be the sum of its entries converted one by one
// at their exact rates, rounded once, and the dense kernel must agree with the general path
// on every aggregate, with tags, missing parties and several currencies.

import AbacusCore
@testable import AbacusQuery
import Testing

@Suite struct LargeGroupingTests {
    /// 8,000 entries: 400 parties and none, 120 days, five currencies converted through USD
    /// snapshots (cut quotient factors), booked values, a locked book, up to three tags.
    static func ledger(seed: UInt64) -> String {
        let dice = IndexPropertyTests.Dice(seed: seed)
        func digits(_ n: Int) -> String { String(dice.next() % UInt64(n)) }
        let currencies = ["INR", "USD", "EUR", "SGD", "JPY"]
        let tags = ["a", "b", "c", "d", "e"]
        var entries: [String] = []
        for i in 0..<8000 {
            let book = dice.pick(["h", "t", "u"])
            let currency = dice.pick(currencies)
            let sign = dice.next() % 5 == 0 ? "" : "-"
            let amount = sign + digits(100000) + (currency == "JPY" ? "" : "." + String(format: "%02d", Int(digits(100)) ?? 0))
            let day = String(format: "2025-%02d-%02d", Int(dice.next() % 4) + 1, Int(dice.next() % 28) + 1)
            var extra = ""
            if dice.next() % 6 != 0 { extra += ", \"party\": \"P\(digits(400))\"" }
            let n = Int(dice.next() % 4)
            if n > 0 { extra += ", \"tags\": [" + Set((0..<n).map { _ in dice.pick(tags) }).sorted().map { "\"\($0)\"" }.joined(separator: ", ") + "]" }
            if currency != "INR" && dice.next() % 4 == 0 {
                extra += ", \"normalizedCurrency\": \"INR\", \"conversionRate\": \(Int(digits(90)) ?? 0 + 1).\(digits(10000))"
            }
            entries.append("{\"id\": \"\(i)\", \"bookId\": \"\(book)\", \"amount\": \(amount), \"currency\": \"\(currency)\", \"date\": \"\(day)\", \"category\": \"C\(digits(7))\"\(extra)}")
        }
        var rates: [String] = []
        for m in 1...4 {
            for d in stride(from: 1, through: 28, by: 2) {
                rates.append("{\"base\": \"USD\", \"date\": \"2025-\(String(format: "%02d-%02d", m, d))\", \"rates\": {\"INR\": 8\(digits(10)).\(digits(10000)), \"EUR\": 0.9\(digits(1000)), \"SGD\": 1.3\(digits(1000)), \"JPY\": 15\(digits(10)).\(digits(100))}}")
            }
        }
        return """
        {"version": 1, "defaultCurrency": "INR",
         "books": [{"id": "h", "name": "H", "currency": "INR"},
                   {"id": "t", "name": "T", "currency": "SGD", "lockedExchangeRate": 55.5, "targetCurrency": "INR"},
                   {"id": "u", "name": "U", "currency": "USD"}],
         "entries": [\(entries.joined(separator: ",\n"))],
         "rates": [\(rates.joined(separator: ",\n"))]}
        """
    }

    /// The conversion of a ledger's rows into `currency` at `valuation`, as a statement makes it.
    static func converter(_ ledger: Ledger, into currency: Currency, _ valuation: Valuation) -> RowConverter {
        let column = RateColumn(ledger: ledger, resolver: RateResolver(ledger: ledger), target: currency, valuation: valuation, today: nil)
        return RowConverter(column: column, store: ledger.entries, whatIf: [:])
    }

    @Test(arguments: [3, 4] as [UInt64])
    func everyGroupIsTheExactSumOfItsEntries(seed: UInt64) throws {
        let ledger = try LedgerLoader.load(documents: [("gen.json", LargeGroupingTests.ledger(seed: seed))])
        let store = ledger.entries
        for target in ["EUR", "INR"] {
            let query = "sum expenses in \(target) by party, day"
            let session = Session(ledger: ledger, today: Day(year: 2025, month: 12, day: 31)!)
            // Numbering only the groups met, as the product of 401 parties by 120 days does.
            session.compactAbove = 0
            session.parallelRows = 2
            let result = try session.run(query)
            // Thousands of groups: their sums and roundings are shared between two threads.
            #expect(result.rows.count > 2048, "\(query)")
            let currency = try #require(Currency(code: target))
            let column = RateColumn(ledger: ledger, resolver: RateResolver(ledger: ledger), target: currency, valuation: .booked, today: nil)
            let converter = RowConverter(column: column, store: store, whatIf: [:])
            var perGroup: [String: Fraction] = [:]
            var all = Fraction.zero
            for row in 0..<store.count where store.amount[row] < 0 && !store.isTransfer[row] {
                let v = try ExactAggregationPropertyTests.exactExpense(row, converter, store)
                let party = store.party[row] == 0 ? "" : store.parties[Int(store.party[row])]
                let key = party + "|" + Day(number: store.day[row]).description
                perGroup[key, default: .zero] = perGroup[key, default: .zero] + v
                all = all + v
            }
            var got: [String: String] = [:]
            for row in result.rows {
                guard case .period(let p) = row[1], case .money(let v, _) = row[2] else { continue }
                let party: String
                switch row[0] {
                case .text(let s): party = s
                default: party = ""
                }
                got[party + "|" + p.description] = v.description
            }
            #expect(got == perGroup.mapValues { $0.rounded(toScale: currency.minorUnits)?.description ?? "" }, "seed \(seed): \(query)")
            guard case .money(let whole, _)? = result.totals.first?.last else { Issue.record("no total: \(query)"); continue }
            #expect(whole.description == all.rounded(toScale: currency.minorUnits)?.description, "seed \(seed): \(query)")
        }
    }

    /// Each group's average is rounded from its 256-bit sum divided by its count where that
    /// settles it (`SumReader.roundedAverage`): over thousands of (party, day) groups it must
    /// be the exact average of the group's entries, each converted at its exact rate, rounded once.
    @Test(arguments: ["EUR", "JPY", "INR"])
    func everyGroupsAverageIsTheExactAverageOfItsEntries(target: String) throws {
        let ledger = try LedgerLoader.load(documents: [("gen.json", LargeGroupingTests.ledger(seed: 4))])
        let store = ledger.entries
        let currency = try #require(Currency(code: target))
        let converter = LargeGroupingTests.converter(ledger, into: currency, .booked)
        var sums: [String: Fraction] = [:], counts: [String: Int] = [:]
        for row in 0..<store.count where store.amount[row] < 0 && !store.isTransfer[row] {
            let party = store.party[row] == 0 ? "" : store.parties[Int(store.party[row])]
            let key = party + "|" + Day(number: store.day[row]).description
            sums[key] = (sums[key] ?? .zero) + (try ExactAggregationPropertyTests.exactExpense(row, converter, store))
            counts[key, default: 0] += 1
        }
        var want: [String: String] = [:]
        for (key, sum) in sums { want[key] = sum.divided(by: counts[key] ?? 1).rounded(toScale: currency.minorUnits)?.description ?? "" }
        let session = Session(ledger: ledger, today: Day(year: 2025, month: 12, day: 31)!)
        session.compactAbove = 0
        session.parallelRows = 2
        let result = try session.run("avg expenses in \(target) by party, day")
        #expect(result.rows.count > 2048)
        var got: [String: String] = [:]
        for row in result.rows {
            guard case .period(let p) = row[1], case .money(let v, _) = row[2] else { continue }
            let party: String
            if case .text(let s) = row[0] { party = s } else { party = "" }
            got[party + "|" + p.description] = v.description
        }
        #expect(got == want, "\(target)")
    }

    /// A crosstab's row and column totals, and the grand total, are added from their groups'
    /// 256-bit sums (`Accumulators.roundedSum(of:toScale:)`): each must be the exact sum of its
    /// entries converted one by one (cut quotient factors, booked values, a locked book),
    /// rounded once, in both kernels.
    @Test func aCrosstabsTotalsAreTheExactSumsAndAveragesOfTheirEntries() throws {
        let ledger = try LedgerLoader.load(documents: [("gen.json", LargeGroupingTests.ledger(seed: 6))])
        let store = ledger.entries
        let today = Day(year: 2025, month: 12, day: 31)!
        for target in ["EUR", "INR"] {
            let currency = try #require(Currency(code: target))
            let converter = LargeGroupingTests.converter(ledger, into: currency, .booked)
            var byCategory: [String: Fraction] = [:], byMonth: [String: Fraction] = [:], all = Fraction.zero
            var inCategory: [String: Int] = [:], inMonth: [String: Int] = [:], entries = 0
            for row in 0..<store.count where store.amount[row] < 0 && !store.isTransfer[row] {
                let v = try ExactAggregationPropertyTests.exactExpense(row, converter, store)
                let category = store.categories[Int(store.category[row])], month = Period(.month, containing: Day(number: store.day[row])).description
                byCategory[category] = (byCategory[category] ?? .zero) + v
                byMonth[month] = (byMonth[month] ?? .zero) + v
                all = all + v
                inCategory[category, default: 0] += 1
                inMonth[month, default: 0] += 1
                entries += 1
            }
            // Sums, then averages: each total the exact sum (or average) of its entries, rounded once.
            for average in [false, true] {
            func rounded(_ f: Fraction?, _ n: Int?) -> String {
                (average ? n.flatMap { n in f?.divided(by: n) } : f)?.rounded(toScale: currency.minorUnits)?.description ?? "none"
            }
            for dense in [true, false] {
                let session = Session(ledger: ledger, today: today)
                session.useDenseKernel = dense
                let r = try session.run("\(average ? "avg" : "sum") expenses in \(target) by category per month")
                let months = r.names.dropFirst().prefix { $0 != "Total" }
                #expect(months.count == 4, "\(r.names)")
                for row in r.rows {
                    guard case .text(let category) = row[0], case .money(let total, _) = row[months.count + 1] else { Issue.record("\(row)"); continue }
                    #expect(total.description == rounded(byCategory[category], inCategory[category]), "\(target) \(category), dense: \(dense), average: \(average)")
                }
                let totals = try #require(r.totals.first)
                for (i, month) in months.enumerated() {
                    guard case .money(let v, _) = totals[i + 1] else { Issue.record("\(month): \(totals[i + 1])"); continue }
                    #expect(v.description == rounded(byMonth[month], inMonth[month]), "\(target) \(month), dense: \(dense), average: \(average)")
                }
                guard case .money(let whole, _) = totals[months.count + 1] else { Issue.record("no grand total"); continue }
                #expect(whole.description == rounded(all, entries), "\(target), dense: \(dense), average: \(average)")
            }
            }
        }
    }

    /// A crosstab of `min` or `max`: each cell, each row's and column's total and the grand total
    /// is the extreme of its entries' exact values, rounded once (the totals are taken from the
    /// cells' values: rounding keeps their order).
    @Test func aCrosstabsExtremesAreTheExtremesOfTheirEntries() throws {
        let ledger = try LedgerLoader.load(documents: [("gen.json", LargeGroupingTests.ledger(seed: 7))])
        let store = ledger.entries
        let today = Day(year: 2025, month: 12, day: 31)!
        let currency = try #require(Currency(code: "EUR"))
        let converter = LargeGroupingTests.converter(ledger, into: currency, .booked)
        var values: [(category: String, month: String, value: Fraction)] = []
        for row in 0..<store.count where store.amount[row] < 0 && !store.isTransfer[row] {
            let v = try ExactAggregationPropertyTests.exactExpense(row, converter, store)
            values.append((store.categories[Int(store.category[row])], Period(.month, containing: Day(number: store.day[row])).description, v))
        }
        for aggregate in ["min", "max"] {
            func extreme(_ of: [Fraction]) -> String {
                let e = of.dropFirst().reduce(of.first) { a, b in a.map { aggregate == "max" ? ($0 < b ? b : $0) : (b < $0 ? b : $0) } }
                return e?.rounded(toScale: currency.minorUnits)?.description ?? "none"
            }
            for dense in [true, false] {
                let session = Session(ledger: ledger, today: today)
                session.useDenseKernel = dense
                let r = try session.run("\(aggregate) expenses in EUR by category per month")
                let months = Array(r.names.dropFirst().prefix { $0 != "Total" })
                #expect(months.count == 4, "\(r.names)")
                for row in r.rows {
                    guard case .text(let category) = row[0] else { Issue.record("\(row)"); continue }
                    for (i, month) in months.enumerated() {
                        let cell = values.filter { $0.category == category && $0.month == month }.map(\.value)
                        guard case .money(let v, _) = row[i + 1] else { #expect(cell.isEmpty); continue }
                        #expect(v.description == extreme(cell), "\(aggregate) \(category) \(month), dense: \(dense)")
                    }
                    guard case .money(let total, _) = row[months.count + 1] else { Issue.record("\(row)"); continue }
                    #expect(total.description == extreme(values.filter { $0.category == category }.map(\.value)), "\(aggregate) \(category), dense: \(dense)")
                }
                let totals = try #require(r.totals.first)
                for (i, month) in months.enumerated() {
                    guard case .money(let v, _) = totals[i + 1] else { Issue.record("\(month): \(totals[i + 1])"); continue }
                    #expect(v.description == extreme(values.filter { $0.month == month }.map(\.value)), "\(aggregate) \(month), dense: \(dense)")
                }
                guard case .money(let whole, _) = totals[months.count + 1] else { Issue.record("no grand total"); continue }
                #expect(whole.description == extreme(values.map(\.value)), "\(aggregate), dense: \(dense)")
            }
        }
    }

    /// `by top category` in the dense kernel reads each category's root from a table
    /// (`DenseKey.mapped`): over a tree two levels deep, a root without entries of its own and
    /// categories outside the tree, it must group as the general path does, alone, in a product
    /// of keys, and in a crosstab.
    @Test func topCategoryGroupsAsTheGeneralPathDoes() throws {
        let tree = #""categories": [{"name": "C0"}, {"name": "C1", "parent": "C0"}, {"name": "C2", "parent": "C1"},"#
            + #" {"name": "C3"}, {"name": "C4", "parent": "C3"}, {"name": "Z"}, {"name": "C5", "parent": "Z"}],"#
        let text = LargeGroupingTests.ledger(seed: 9).replacingOccurrences(of: #""version": 1,"#, with: #""version": 1, "# + tree)
        let ledger = try LedgerLoader.load(documents: [("tree.json", text)])
        #expect(ledger.rootCategory("C2") == "C0" && ledger.rootCategory("C5") == "Z" && ledger.rootCategory("C6") == "C6")
        let today = Day(year: 2025, month: 12, day: 31)!
        let r = try Session(ledger: ledger, today: today).run("count entries by top category")
        #expect(r.rows.compactMap { row -> String? in if case .text(let s) = row[0] { return s } else { return nil } } == ["C0", "C3", "C6", "Z"])
        for q in ["sum expenses in INR by top category", "count entries by top category, month", "avg expenses in EUR by book, top category",
                  "max income in USD by top category, party", "sum expenses in INR by top category per month", "count expenses by tag, top category"] {
            LargeGroupingTests.expectKernelsAgree(ledger, today, q, [(2, 0), (2, Executor.compactAbove), (Executor.parallelRows, 0)])
        }
    }

    /// Products at one cut quotient factor that cancel to zero keep their error: 100 GBP in
    /// January and −100 GBP in February at rates whose quotients into USD cut to the same 34
    /// digits (1/3 and 1/2.99…9) add to exactly 0 in their slot, but their exact values to
    /// about −1.1e−34. With 0.015 USD beside them the total, 0.015 − 1.1e−34, rounds to 0.01; a
    /// slot skipped for its zero sum lost the error and rounded 0.015 half-even to 0.02. Alone,
    /// by a key whose one group holds both, and in a crosstab's row total (groups added).
    @Test func productsThatCancelKeepTheirError() throws {
        let ledger = try LedgerLoader.load(documents: [("cancel.json", """
            {"version": 1, "defaultCurrency": "USD", "books": [{"id": "m", "name": "Main", "currency": "USD"}],
             "entries": [{"id": "1", "bookId": "m", "amount": 100, "currency": "GBP", "date": "2025-01-10", "category": "C"},
                         {"id": "2", "bookId": "m", "amount": 0.015, "date": "2025-01-11", "category": "C"},
                         {"id": "3", "bookId": "m", "amount": -100, "currency": "GBP", "date": "2025-02-10", "category": "C"}],
             "rates": [{"base": "EUR", "date": "2025-01-10", "rates": {"USD": 1, "GBP": 3}},
                       {"base": "EUR", "date": "2025-02-10", "rates": {"USD": 1, "GBP": 2.99999999999999999999999999999999999}}]}
            """)])
        let today = Day(year: 2025, month: 12, day: 31)!
        for dense in [true, false] {
            let session = Session(ledger: ledger, today: today)
            session.useDenseKernel = dense
            for q in ["sum entries in USD", "sum entries in USD by book", "sum entries in USD by book per month"] {
                let r = try session.run(q)
                let total: Cell?
                switch q {
                case "sum entries in USD": total = r.rows.first?.last
                case "sum entries in USD by book": total = r.rows.first?.last
                default: total = r.rows.first.flatMap { row in r.names.firstIndex(of: "Total").map { row[$0] } }
                }
                guard case .money(let v, _)? = total else { Issue.record("\(q): \(String(describing: total))"); continue }
                #expect(v.description == "0.01", "\(q), dense: \(dense)")
            }
        }
    }

    @Test func theDenseKernelAgreesWithTheGeneralPathOnThousandsOfGroups() throws {
        let ledger = try LedgerLoader.load(documents: [("gen.json", LargeGroupingTests.ledger(seed: 5))])
        let today = Day(year: 2025, month: 12, day: 31)!
        for q in ["sum expenses in EUR by party, day", "avg entries in USD by party, day", "min expenses in INR by day, party",
                  "max income in SGD by party, week, currency", "count entries by party, day", "sum entries in native by currency, party, month",
                  "sum expenses in JPY by party, tag, month", "count entries by tag, party, day", "avg expenses in EUR by day, party order by amount desc top 50",
                  "sum expenses in INR by party, day with share", "count expenses by party, day, currency",
                  "count entries where party ~ \"1\" by day, party", "count entries by day, party, currency during 2025-03",
                  "sum entries in GBP by book, tag", "avg expenses in EUR by tag, party", "count entries by tag, category",
                  "max income in USD by party, tag", "sum expenses in native by tag, book"] {
            LargeGroupingTests.expectKernelsAgree(ledger, today, q, [(2, 0), (2, Executor.compactAbove), (Executor.parallelRows, 0)])
            // A product with a tag key, its groups numbered first (`CompactGroups(tagged:)`).
            LargeGroupingTests.expectKernelsAgree(ledger, today, q, [(2, 0), (Executor.parallelRows, 0)], tagLayoutCells: 0)
        }
    }

    /// A product of keys with a period (`party, month`; `book, month, category, currency`) is
    /// scanned a period at a time (`Executor.PeriodStretches`), into its whole layout or, with
    /// too many groups to lay out, a period's groups at a time (`Executor.PeriodBlocks`):
    /// whatever the period, the other keys and their order, the rows (all of them, a part of the
    /// range, posting lists, rows a filter drops) and the threads (a period cut in two where the
    /// threads' rows meet), it answers as the general path does.
    @Test func aProductWithAPeriodIsScannedAPeriodAtATime() throws {
        let ledger = try LedgerLoader.load(documents: [("gen.json", LargeGroupingTests.ledger(seed: 6))])
        let today = Day(year: 2025, month: 12, day: 31)!
        let executor = Executor(ledger: ledger, columns: RateColumnCache(ledger: ledger, resolver: RateResolver(ledger: ledger)))
        for keys: [GroupKey] in [[.party, .month], [.day, .book], [.category, .week], [.book, .month, .category, .currency], [.topCategory, .day, .payment]] {
            guard case .product(let parts, let strides, _, _)? = executor.denseKey(keys, rows: 0..<ledger.entries.count) else {
                Issue.record("\(keys): no product"); continue
            }
            #expect(Executor.PeriodStretches(parts, strides, currency: ledger.entries.currency) != nil, "\(keys)")
        }
        for q in ["sum expenses in EUR by party, month", "sum entries in USD by month, book", "avg expenses in INR by book, day",
                  "min income in SGD by payment, week", "max expenses in JPY by quarter, party", "count expenses by category, day",
                  "sum expenses in INR by category, week where category in (\"C1\", \"C2\")", "sum entries in USD by book, day since 2025-02-10 until 2025-03-03",
                  "sum expenses in INR by party, month where amount > 500", "avg entries in EUR by day, category where party ~ \"1\"",
                  "sum income in native by currency, month", "sum expenses in INR by party, month order by amount desc top 7 with share",
                  "sum expenses in INR by book, month, category, currency", "min expenses in USD by category, day, book",
                  "max income in EUR by week, payment, currency where amount > 100", "avg expenses in INR by top category, day, book during 2025-02",
                  "count expenses by party, week, book", "sum entries in native by currency, party, month",
                  "sum expenses in INR by party, day during 2025-02-11"] {
            // Compacted from 0 groups: every product of more than one group is scanned a period at a time into blocks,
            // or, a period and one other key, into its whole layout (`periodLayoutCells`; 0: into blocks too).
            LargeGroupingTests.expectKernelsAgree(ledger, today, q, [(2, 0), (2, Executor.compactAbove), (Executor.parallelRows, 0)])
            LargeGroupingTests.expectKernelsAgree(ledger, today, q, [(2, 0), (Executor.parallelRows, 0)], periodLayoutCells: 0)
        }
    }

    /// The dense kernel (with each pair of `parallelRows` and `compactAbove`, slots shared from
    /// `shareSlotsAbove` accumulators) and the general path give the same answer.
    static func expectKernelsAgree(_ ledger: Ledger, _ today: Day, _ q: String, _ settings: [(Int, Int)],
                                   shareSlotsAbove: Int = Executor.shareSlotsAbove, periodLayoutCells: Int = Executor.periodLayoutCells,
                                   tagLayoutCells: Int = Executor.tagLayoutCells) {
        for (parallelRows, compactAbove) in settings {
            let dense = Session(ledger: ledger, today: today)
            dense.parallelRows = parallelRows
            dense.compactAbove = compactAbove
            dense.periodLayoutCells = periodLayoutCells
            dense.tagLayoutCells = tagLayoutCells
            dense.shareSlotsAbove = shareSlotsAbove
            let general = Session(ledger: ledger, today: today)
            general.useDenseKernel = false
            IndexPropertyTests.expectSame(Result { try dense.run(q) }, Result { try general.run(q) }, q)
        }
    }

    /// A ledger whose rates have many scales: eight currencies against USD, a snapshot every
    /// other day with 1 to 12 decimals (exact decimal factors into USD's pairs, quotients cut to
    /// 34 digits across the others), amounts with up to 4 decimals.
    static func manyRates(seed: UInt64) -> String {
        let dice = IndexPropertyTests.Dice(seed: seed)
        let currencies = ["USD", "INR", "EUR", "SGD", "JPY", "GBP", "CHF", "AUD", "KWD"]
        func decimals(_ whole: String) -> String {
            let n = Int(dice.next() % 13)
            return n == 0 ? whole : whole + "." + String((0..<n).map { _ in Character(String(dice.next() % 10)) })
        }
        var rates: [String] = []
        for d in stride(from: 1, through: 60, by: 2) {
            let day = Day(year: 2025, month: 1, day: 1)!.advanced(by: Int32(d - 1))
            let values = currencies.dropFirst().map { "\"\($0)\": \(decimals(String(dice.next() % 300 + 1)))" }
            rates.append("{\"base\": \"USD\", \"date\": \"\(day)\", \"rates\": {\(values.joined(separator: ", "))}}")
        }
        var entries: [String] = []
        for i in 0..<3000 {
            let day = Day(year: 2025, month: 1, day: 1)!.advanced(by: Int32(dice.next() % 60))
            let sign = dice.next() % 4 == 0 ? "" : "-"
            let amount = sign + String(dice.next() % 1_000_000) + "." + String(format: "%04d", Int(dice.next() % 10000))
            entries.append("{\"id\": \"\(i)\", \"bookId\": \"h\", \"amount\": \(amount), \"currency\": \"\(dice.pick(currencies))\", \"date\": \"\(day)\", \"category\": \"C\(dice.next() % 9)\", \"party\": \"P\(dice.next() % 150)\"}")
        }
        return """
        {"version": 1, "defaultCurrency": "INR", "books": [{"id": "h", "name": "H", "currency": "INR"}],
         "entries": [\(entries.joined(separator: ",\n"))], "rates": [\(rates.joined(separator: ",\n"))]}
        """
    }

    /// The dense scan lets rates of different scales share a slot (a factor scaled by a power of
    /// ten; an inexact slot's error bound widened by the largest such power among its rates):
    /// each rate's slot holds its products exactly and fewer slots are kept; with many rates of
    /// many scales, both kernels agree.
    @Test func ratesOfManyScalesShareSlotsExactly() throws {
        let ledger = try LedgerLoader.load(documents: [("rates.json", LargeGroupingTests.manyRates(seed: 7))])
        let store = ledger.entries
        for target in ["INR", "USD", "KWD", "JPY"] {
            let currency = try #require(Currency(code: target))
            let column = RateColumn(ledger: ledger, resolver: RateResolver(ledger: ledger), target: currency, valuation: .market, today: nil)
            let converter = RowConverter(column: column, store: store, whatIf: [:])
            let plain = SumSlots(converter: converter, store: store)
            let shared = SumSlots(converter: converter, store: store, sharing: true)
            #expect(shared.scaled, "\(target): some rate is scaled into a shared slot")
            #expect(shared.scales.count < plain.scales.count, "\(target): \(shared.scales.count) slots, \(plain.scales.count) without sharing")
            var largestShift = [Int](repeating: 0, count: shared.scales.count)
            for id in converter.rates.indices {
                let slot = shared.ofRate[id]
                let k = shared.scales[slot] - (store.amountScale + converter.factorScale[id])
                #expect(k >= 0 && k < 19, "\(target) rate \(id)")
                #expect(shared.factor[id] == converter.factorSignificand[id] * pow10[k], "\(target) rate \(id)")
                #expect(shared.inexact[slot] == !converter.factorIsExact[id], "\(target) rate \(id)")
                if !converter.factorIsExact[id] { largestShift[slot] = max(largestShift[slot], k) }
                #expect(plain.factor[id] == converter.factorSignificand[id])
            }
            // An inexact slot's error sum counts amounts as they are, its bound widened by the largest
            // power of ten one of its factors was brought up by; exact slots and unshared ones by none.
            #expect(shared.errorShift == largestShift, "\(target)")
            #expect(shared.errorShift.contains { $0 > 0 }, "\(target): some inexact factor is scaled")
            #expect(plain.errorShift.allSatisfy { $0 == 0 })
        }
        let today = Day(year: 2025, month: 12, day: 31)!
        for q in ["sum expenses in INR by party, day", "sum entries in KWD at market by category, party", "avg expenses in JPY by day, category",
                  "min entries in USD at market by party", "max expenses in GBP by category, day", "sum income in AUD by currency, party",
                  "sum expenses in INR by category"] {
            // Shared slots (the scaled scan) and one slot per scale (the plain one).
            for share in [0, Int.max] {
                LargeGroupingTests.expectKernelsAgree(ledger, today, q, [(2, 0), (Executor.parallelRows, Executor.compactAbove)], shareSlotsAbove: share)
            }
        }
    }

    /// One row's value (a group's min or max, a listed row) is rounded from its 256-bit product
    /// within the product's error, in a shared slot's scale too, as a sum is
    /// (`Executor.roundedIfCertain`): where that settles it, it is the rounding of the exact
    /// value; on a rounding boundary, within the error of a quotient rate, it is left to the
    /// exact value.
    @Test func aRowsValueRoundsAsItsExactValueDoes() throws {
        let ledger = try LedgerLoader.load(documents: [("rates.json", LargeGroupingTests.manyRates(seed: 7))])
        let store = ledger.entries
        var settled = 0, boundaries = 0
        for target in ["INR", "USD", "KWD", "JPY"] {
            let currency = try #require(Currency(code: target))
            let minor = currency.minorUnits
            let column = RateColumn(ledger: ledger, resolver: RateResolver(ledger: ledger), target: currency, valuation: .market, today: nil)
            let converter = RowConverter(column: column, store: store, whatIf: [:])
            let shared = SumSlots(converter: converter, store: store, sharing: true)
            for row in 0..<store.count {
                let id = converter.id(row)
                guard id >= 0 else { continue }
                let (i, amount) = (Int(id), store.amount[row])
                let exact = try #require(converter.exactValue(amount: amount, id: id).rounded(toScale: minor))
                // The product at the factor's own scale, and as a shared slot holds it (the factor scaled up).
                let natural = store.amountScale + converter.factorScale[i]
                let k = shared.scales[shared.ofRate[i]] - natural
                for (value, scale) in [(Int256(amount, times: converter.factorSignificand[i]), natural),
                                       (Int256(amount, times: shared.factor[i]), natural + k)] {
                    let pick = RowPick(row: row, amount: amount, id: id, value: value, scale: scale)
                    if case let r?? = Executor.roundedIfCertain(pick, converter: converter, scale: minor) {
                        #expect(r == exact, "\(target) row \(row) at scale \(scale)")
                        settled += 1
                    }
                    #expect(try Executor.round(pick, converter: converter, scale: minor) == exact, "\(target) row \(row)")
                    // A value exactly halfway between two roundings: a quotient rate's error leaves it in doubt.
                    guard !converter.factorIsExact[i], amount != 0, scale > minor,
                          let q = Int256(Int128(12_345)).timesPowerOfTen(scale - minor), let half = Int256(Int128(5)).timesPowerOfTen(scale - minor - 1) else { continue }
                    var tie = q
                    _ = tie.add(half)
                    // And one just inside the product's error of it: 5 × |amount| at one more
                    // decimal, times the power of ten the factor was scaled by.
                    var inside = tie
                    if let e = Int256(amount < 0 ? -amount : amount, times: 5).timesPowerOfTen(scale - natural) {
                        var below = e
                        _ = below.add(Int256(Int128(-1)))
                        _ = inside.add(below.dividedTruncating(by: 10).0)
                    }
                    for p in [tie, inside] {
                        let onBoundary = RowPick(row: row, amount: amount, id: id, value: p, scale: scale)
                        if case .some(nil) = Executor.roundedIfCertain(onBoundary, converter: converter, scale: minor) { boundaries += 1 } else {
                            Issue.record("\(target) row \(row) at scale \(scale): a value within the error of a boundary was settled")
                        }
                    }
                }
            }
        }
        #expect(settled > 10_000 && boundaries > 1_000, "\(settled) settled, \(boundaries) boundaries")
    }

    /// A period key takes the largest stride of a product, wherever it is named, and the other
    /// keys keep their order: rows come in day order, so the groups of one stretch of days lie
    /// side by side in the accumulators. A tag key takes a larger one still: the other keys'
    /// strides are then the same whether a scan lays the tag out by its tags or by the rows'
    /// first two (`TagHeads`). (That the answers are right is the kernels' agreement above.)
    @Test func aTagThenAPeriodKeyAreTheOutermostOfAProduct() throws {
        let ledger = try LedgerLoader.load(documents: [("gen.json", LargeGroupingTests.ledger(seed: 5))])
        let executor = Executor(ledger: ledger, columns: RateColumnCache(ledger: ledger, resolver: RateResolver(ledger: ledger)))
        let rows = 0..<ledger.entries.count
        for keys: [GroupKey] in [[.month, .party], [.party, .month], [.book, .day, .category], [.tag, .currency, .week], [.week, .book, .tag]] {
            guard case .product(let parts, let strides, let count, _)? = executor.denseKey(keys, rows: rows) else {
                Issue.record("\(keys): no product"); continue
            }
            // Innermost first: the keys that are neither, in the order named, then the period, then the tag.
            let order = keys.indices.filter { keys[$0] != .tag && !keys[$0].isPeriod } + keys.indices.filter { keys[$0].isPeriod } + keys.indices.filter { keys[$0] == .tag }
            var stride = 1
            for i in order {
                #expect(strides[i] == stride, "\(keys): \(keys[i])")
                stride *= max(1, parts[i].count)
            }
            #expect(count == stride, "\(keys)")
        }
    }

    /// A period and several other keys whose product has more groups than a scan lays out
    /// (40 books × 40 categories × 8 currencies a month) are scanned as the other keys'
    /// combinations that occur, numbered once for the store (`KeyCombos`), and a period: every
    /// group laid out, or kept a period at a time. Either way the answers are the general path's.
    @Test func keyCombinationsLayOutTheGroupsThatOccurOfABigProduct() throws {
        let currencies = ["INR", "USD", "EUR", "GBP", "SGD", "JPY", "AED", "CHF"]
        let books = (0..<40).map { "{\"id\": \"b\($0)\", \"name\": \"B\($0)\", \"currency\": \"\(currencies[$0 % 8])\"}" }
        let dice = IndexPropertyTests.Dice(seed: 11)
        var triples = Set<String>()
        let entries = (0..<4000).map { i -> String in
            let (book, category) = (Int(dice.next() % 40), Int(dice.next() % 40))
            // Now and then in another currency than the book's.
            let currency = dice.next() % 5 == 0 ? currencies[Int(dice.next() % 8)] : currencies[book % 8]
            triples.insert("\(book) \(category) \(currency)")
            return "{\"id\": \"\(i)\", \"bookId\": \"b\(book)\", \"currency\": \"\(currency)\", \"amount\": \(dice.next() % 9 == 0 ? "" : "-")\(dice.next() % 5000 + 1).\(dice.next() % 100), \"date\": \"2025-\(String(format: "%02d", i * 12 / 4000 + 1))-\(String(format: "%02d", i % 28 + 1))\", \"category\": \"C\(category)\"}"
        }
        let rates = currencies.dropFirst().enumerated().map { "\"\($1)\": \($0 + 2).\($0 * 7 + 1)" }.joined(separator: ", ")
        let ledger = try LedgerLoader.load(documents: [("combos.json", """
            {"version": 1, "defaultCurrency": "INR", "books": [\(books.joined(separator: ", "))],
             "entries": [\(entries.joined(separator: ",\n"))],
             "rates": [{"base": "INR", "date": "2025-01-01", "rates": {\(rates)}}]}
            """)])
        let executor = Executor(ledger: ledger, columns: RateColumnCache(ledger: ledger, resolver: RateResolver(ledger: ledger)))
        let keys: [GroupKey] = [.book, .month, .category, .currency]
        let key = try #require(executor.denseKey(keys, rows: 0..<ledger.entries.count))
        let combo = try #require(executor.comboKey(key, keys: keys, cellsPerGroup: 1))
        #expect(combo.combos.count == triples.count && combo.key.count == triples.count * 12)
        let today = Day(year: 2025, month: 12, day: 31)!
        for q in ["sum expenses in INR by book, month, category, currency", "avg entries in USD by month, book, category, currency",
                  "max expenses in EUR by book, month, category, currency", "count expenses by category, currency, book, week where amount > 100",
                  "sum expenses in native by book, month, category, currency", "sum income in INR by book, month, category, currency during 2025-Q2"] {
            LargeGroupingTests.expectKernelsAgree(ledger, today, q, [(2, Executor.compactAbove), (2, 0), (Executor.parallelRows, Executor.compactAbove)])
        }
    }

    /// Two threads scanning a period at a time split the rows where a period starts, the one
    /// nearest the middle, and then add to one layout of the groups (`periodSplit`): no period,
    /// so no group, is in both threads' rows. One period, or a split that would leave a thread
    /// with less than a third of the rows, is no split (the threads then add apart and merge).
    @Test func twoThreadsSplitTheRowsWhereAPeriodStarts() throws {
        let ledger = try LedgerLoader.load(documents: [("gen.json", LargeGroupingTests.ledger(seed: 5))])
        let executor = Executor(ledger: ledger, columns: RateColumnCache(ledger: ledger, resolver: RateResolver(ledger: ledger)))
        let n = ledger.entries.count, days = ledger.entries.day
        for keys: [GroupKey] in [[.party, .month], [.book, .week], [.category, .day], [.party, .year], [.book, .quarter]] {
            guard case .product(let parts, let strides, _, nil)? = executor.denseKey(keys, rows: 0..<n),
                  let stretches = Executor.PeriodStretches(parts, strides, currency: ledger.entries.currency) else {
                Issue.record("\(keys): no period stretches"); continue
            }
            func period(_ row: Int) -> Int32 { stretches.table[Int(days[row] - stretches.base)] }
            let starts = (1..<n).filter { period($0) != period($0 - 1) }
            let nearest = starts.min { abs($0 - n / 2) < abs($1 - n / 2) }
            let split = executor.periodSplit(.range(0..<n), stretches)
            if let nearest, nearest >= n / 3, n - nearest >= n / 3 {
                #expect(split == nearest, "\(keys)")
            } else {
                #expect(split == nil, "\(keys)")
            }
            if let split { #expect(period(split - 1) < period(split), "\(keys): a period on both sides of \(split)") }
            // Rows of some days only (a posting list): split by position among them.
            let list = Array(stride(from: 0, to: n, by: 3))
            if let s = executor.periodSplit(.list(list), stretches) { #expect(period(list[s - 1]) < period(list[s]), "\(keys)") }
        }
        // One period: no split.
        let one = try #require(executor.denseKey([.party, .year], rows: 0..<n))
        guard case .product(let parts, let strides, _, nil) = one, let stretches = Executor.PeriodStretches(parts, strides, currency: ledger.entries.currency) else {
            Issue.record("no period stretches by year"); return
        }
        let firstYear = (0..<n).filter { stretches.table[Int(days[$0] - stretches.base)] == stretches.table[Int(days[0] - stretches.base)] }
        #expect(executor.periodSplit(.range(0..<firstYear.count), stretches) == nil)
    }

    /// A group whose approximation cannot settle its rounding (exactly half a cent at a quotient
    /// rate: 86.10 INR at 84 INR a dollar is $1.025, which rounds half-even to $1.02) is worked
    /// out exactly from its rows. With a period among the keys only the rows of its period are
    /// read for it (`Executor.rowsHolding`), through a scan or posting lists, on either kernel,
    /// and every group comes out as its exact value rounded once.
    @Test func aDoubtfulGroupIsWorkedOutFromItsPeriodsRows() throws {
        var entries: [String] = []
        func entry(_ party: String, _ day: String, _ amount: String, _ category: String = "Food") {
            entries.append("{\"id\": \"e\(entries.count)\", \"bookId\": \"h\", \"amount\": \(amount), \"date\": \"\(day)\", \"category\": \"\(category)\", \"party\": \"\(party)\"}")
        }
        entry("A", "2025-01-05", "-168.00"); entry("A", "2025-02-05", "-252.00"); entry("A", "2025-03-05", "-86.10")
        entry("B", "2025-03-06", "-86.10"); entry("B", "2025-03-20", "-84.00"); entry("B", "2025-02-06", "-86.10")
        for i in 0..<60 { entry("C", String(format: "2025-0%d-%02d", i % 3 + 1, i % 28 + 1), "-1.00", "Rent") }
        for session in try LargeGroupingTests.tieSessions(entries, books: ["h": "H"]) {
            let dense = session.useDenseKernel
            for q in ["sum expenses in USD by party, month", "sum expenses in USD by month, party where category = \"Food\""] {
                #expect(try session.plan(q).index != nil || !q.contains("where"), "\(q): posting lists")
                var got: [String: String] = [:]
                for row in try session.run(q).rows {
                    let (party, month) = q.contains("by party") ? (row[0], row[1]) : (row[1], row[0])
                    guard case .text(let p) = party, case .period(let m) = month, case .money(let v, _) = row[2] else { continue }
                    got["\(p) \(m)"] = v.description
                }
                // 168/84 = 2; 252/84 = 3; 86.10/84 = 1.025 (a tie: 1.02); (86.10 + 84)/84 = 2.025 (2.02).
                for (key, value) in ["A 2025-01": "2.00", "A 2025-02": "3.00", "A 2025-03": "1.02", "B 2025-02": "1.02", "B 2025-03": "2.02"] {
                    #expect(got[key] == value, "\(q), dense: \(dense): \(key)")
                }
            }
        }
    }

    /// Without a period among the keys, the exact pass for doubtful groups skips the rows whose
    /// codes no doubtful group has (`Executor.codeMasks`) before finding their groups: the
    /// groups still come out as their exact values rounded once, beside rows of other parties,
    /// books and categories, and of no party.
    @Test func aDoubtfulGroupIsWorkedOutFromTheRowsOfItsCodes() throws {
        var entries: [String] = []
        func entry(_ party: String?, _ book: String, _ amount: String, _ category: String) {
            let p = party.map { ", \"party\": \"\($0)\"" } ?? ""
            entries.append("{\"id\": \"e\(entries.count)\", \"bookId\": \"\(book)\", \"amount\": \(amount), \"date\": \"2025-0\(entries.count % 3 + 1)-05\", \"category\": \"\(category)\"\(p)}")
        }
        entry("A", "h", "-168.00", "Food"); entry("A", "h", "-252.00", "Food"); entry("A", "h", "-86.10", "Food")
        entry("B", "h", "-86.10", "Food"); entry("B", "g", "-84.00", "Food"); entry(nil, "h", "-86.10", "Food")
        for i in 0..<60 { entry(["C", "D", "A"][i % 3], i % 2 == 0 ? "g" : "h", "-1.00", "Rent") }
        for session in try LargeGroupingTests.tieSessions(entries, books: ["h": "H", "g": "G"]) {
            let dense = session.useDenseKernel
            var got: [String: String] = [:]
            for row in try session.run("sum expenses in USD by party, category, book").rows {
                guard case .text(let c) = row[1], case .text(let b) = row[2], case .money(let v, _) = row[3] else { continue }
                let p: String
                if case .text(let name) = row[0] { p = name } else { p = "-" }
                got["\(p) \(c) \(b)"] = v.description
            }
            // 506.10/84 = 6.025 (a tie: 6.02); 86.10/84 = 1.025 (1.02); 84/84 = 1; ten rows of 1.00: 10/84 = 0.119….
            for (key, value) in ["A Food H": "6.02", "B Food H": "1.02", "B Food G": "1.00", "- Food H": "1.02",
                                 "A Rent G": "0.12", "A Rent H": "0.12", "C Rent G": "0.12", "D Rent H": "0.12"] {
                #expect(got[key] == value, "dense: \(dense): \(key)")
            }
        }
    }

    /// Sessions on the dense kernel and on the general path over INR books and these entries,
    /// with one rate, 1 USD = 84 INR: a sum of INR into USD is then a quotient, and one that
    /// ends in 5 at the third decimal a tie the approximation cannot settle.
    static func tieSessions(_ entries: [String], books: [String: String]) throws -> [Session] {
        let books = books.sorted { $0.key < $1.key }.map { "{\"id\": \"\($0.key)\", \"name\": \"\($0.value)\", \"currency\": \"INR\"}" }
        let json = "{\"version\": 1, \"defaultCurrency\": \"INR\", \"books\": [" + books.joined(separator: ", ") + "], \"entries\": ["
            + entries.joined(separator: ",\n") + "], \"rates\": [{\"from\": \"USD\", \"to\": \"INR\", \"rate\": 84, \"date\": \"2025-01-01\"}]}"
        let ledger = try LedgerLoader.load(documents: [("tie.json", json)])
        return [true, false].map { dense in
            let session = Session(ledger: ledger, today: Day(year: 2025, month: 12, day: 31)!)
            session.useDenseKernel = dense
            return session
        }
    }

    /// What an engine works out once for a ledger and its rates (`RateColumnCache.derived`) is
    /// made on the first call for its key and kept, nil too, and another key makes its own.
    @Test func derivedValuesAreMadeOnceForEachKey() throws {
        let ledger = try LedgerLoader.load(documents: [("gen.json", LargeGroupingTests.ledger(seed: 5))])
        let cache = RateColumnCache(ledger: ledger, resolver: RateResolver(ledger: ledger))
        var made = 0
        func value(_ key: String, _ v: Int?) -> Int? { cache.derived(key) { () -> Int? in made += 1; return v } }
        #expect(value("a", 5) == 5 && value("a", 7) == 5 && made == 1)
        #expect(value("none", nil) == nil && value("none", 3) == nil && made == 2)
        #expect(cache.derived("b") { 9 } == 9 && made == 2)
    }

    /// A dense scan shares slots between scales only past `shareSlotsAbove` accumulators
    /// (groups and the whole statement × one slot per scale): at the limit, the plain slots.
    @Test func slotsAreSharedOnlyPastTheLimit() throws {
        let ledger = try LedgerLoader.load(documents: [("rates.json", LargeGroupingTests.manyRates(seed: 7))])
        let store = ledger.entries
        let column = RateColumn(ledger: ledger, resolver: RateResolver(ledger: ledger), target: try #require(Currency(code: "INR")),
                                valuation: .market, today: nil)
        let converter = RowConverter(column: column, store: store, whatIf: [:])
        let plain = SumSlots(converter: converter, store: store)
        let n = plain.scales.count
        for groups in [0, 1, 149, 150] {
            let atLimit = Executor.sumSlots(converter, store: store, groups: groups, shareAbove: (groups + 1) * n)
            #expect(!atLimit.scaled && atLimit.scales == plain.scales && atLimit.factor == plain.factor, "\(groups) groups at the limit")
            let past = Executor.sumSlots(converter, store: store, groups: groups, shareAbove: (groups + 1) * n - 1)
            #expect(past.scaled && past.scales.count < n, "\(groups) groups past the limit")
        }
        // The default: one key of a few groups keeps its plain slots; a product of thousands shares.
        #expect(!Executor.sumSlots(converter, store: store, groups: 9, shareAbove: Executor.shareSlotsAbove).scaled)
        #expect(Executor.sumSlots(converter, store: store, groups: 150 * 60, shareAbove: Executor.shareSlotsAbove).scaled)
    }

    /// Scaled factors make bigger products: a sum that passes 256 bits only because its rate was
    /// scaled into a shared slot, or an error sum that passes 128 bits only because of its weight,
    /// is summed again unscaled by the general path, and the answer is exact.
    @Test func aScaledSumPast256BitsIsRedoneUnscaled() throws {
        func ledger(_ rates: String, _ entries: [(String, String, String)]) throws -> Ledger {
            let list = entries.enumerated().map { i, e in
                "{\"id\": \"\(i)\", \"bookId\": \"h\", \"amount\": \(e.0), \"currency\": \"\(e.1)\", \"date\": \"\(e.2)\", \"category\": \"C\(i % 3)\"}"
            }
            return try LedgerLoader.load(documents: [("big.json", """
                {"version": 1, "defaultCurrency": "INR", "books": [{"id": "h", "name": "H", "currency": "INR"}],
                 "entries": [\(list.joined(separator: ",\n"))], "rates": [\(rates)]}
                """)])
        }
        let today = Day(year: 2025, month: 12, day: 31)!
        func check(_ l: Ledger, _ q: String, _ expected: String) throws {
            for parallelRows in [2, Executor.parallelRows] {
                let dense = Session(ledger: l, today: today)
                dense.parallelRows = parallelRows
                // Few groups: slots are shared only when the limit is lowered.
                dense.shareSlotsAbove = 0
                let general = Session(ledger: l, today: today)
                general.useDenseKernel = false
                let got = try dense.run(q)
                IndexPropertyTests.expectSame(.success(got), Result { try general.run(q) }, q)
                guard case .money(let v, _)? = got.totals.first?.last ?? got.rows.first?.last else { Issue.record("no total: \(q)"); continue }
                #expect(v.description == expected, "\(q)")
            }
        }
        // USD at 1 (factor 10^0) shares the slot of USD at 1.0…01 (scale 37): its products are
        // 10^37 times larger there, and 600 of 10^35 dollars pass 2^255 before the refunds
        // bring the sum back; without the scaling they never come near.
        let big = "100000000000000000000000000000000000.00"
        var entries: [(String, String, String)] = []
        for _ in 0..<600 { entries.append((big, "USD", "2025-01-01")) }
        for _ in 0..<600 { entries.append(("-" + big, "USD", "2025-01-01")) }
        entries.append(("-2.00", "USD", "2025-01-02"))
        let exact = try ledger("""
            {"base": "USD", "date": "2025-01-01", "rates": {"INR": 1}},
            {"base": "USD", "date": "2025-01-02", "rates": {"INR": 1.0000000000000000000000000000000000001}}
            """, entries)
        try check(exact, "sum entries in INR at market", "-2.00")
        try check(exact, "sum entries in INR at market by category", "-2.00")
        // EUR to INR through USD: 1/3 (cut at scale 34) and 1/300 (scale 36) share a slot, the first
        // scaled by 100, and so is its error sum: 1.5 × 10^35 euros × 100 pass 128 bits.
        let inexact = try ledger("""
            {"base": "USD", "date": "2025-01-01", "rates": {"INR": 1, "EUR": 3}},
            {"base": "USD", "date": "2025-01-02", "rates": {"INR": 1, "EUR": 300}}
            """, [("150000000000000000000000000000000000.00", "EUR", "2025-01-01"), ("3.00", "EUR", "2025-01-02")])
        try check(inexact, "sum entries in INR at market", "50000000000000000000000000000000000.01")
        try check(inexact, "sum entries in INR at market by category", "50000000000000000000000000000000000.01")
    }

    /// A row's tag heads are read with no branch (a neighbour's tag, or the last one, where the
    /// row has fewer, `TagHeads`): a ledger without any tag, tagless rows at either end,
    /// and rows of one to five tags (up to three after a row's first two) must give what the
    /// general path gives, and the right counts. In native, each currency's total counts each
    /// entry once (the general path's by a statement by currency).
    @Test(arguments: [0, 1, 3, 5])
    func tagsAreGroupedRightAtTheEdges(mostTags: Int) throws {
        // Row i has i % (mostTags + 1) tags: the first and last rows have none.
        let n = 2 * (mostTags + 1) * 7 + 1
        let entries = (0..<n).map { i in
            let tags = (0..<(i % (mostTags + 1))).map { "\"t\((i + $0) % 5)\"" }
            return "{\"id\": \"\(i)\", \"bookId\": \(i % 2 == 0 ? "\"h\"" : "\"u\""), \"amount\": -\(i + 1).25, \"date\": \"2025-01-\(String(format: "%02d", i % 28 + 1))\", \"category\": \"C\", \"tags\": [\(tags.joined(separator: ", "))]}"
        }
        let ledger = try LedgerLoader.load(documents: [("tags.json", """
            {"version": 1, "defaultCurrency": "INR",
             "books": [{"id": "h", "name": "H", "currency": "INR"}, {"id": "u", "name": "U", "currency": "USD"}],
             "entries": [\(entries.joined(separator: ",\n"))],
             "rates": [{"base": "USD", "date": "2025-01-01", "rates": {"INR": 83.3}}]}
            """)])
        let today = Day(year: 2025, month: 12, day: 31)!
        // In native, each currency's total counts an entry once however many tags it has (`Scan.eachRowOnce`).
        for q in ["count entries by tag", "sum expenses in INR by tag", "sum expenses in INR by book, tag", "count entries by tag, book, day",
                  "sum expenses in USD by tag, day", "sum expenses in native by tag", "avg expenses in native by tag, day", "max entries in native by book, tag",
                  // Rows of posting lists (a book's, a currency's), their later tags found among them.
                  "sum expenses in INR by book, tag where book = \"U\"", "count entries by tag where currency = INR", "min expenses in USD by tag where book = \"H\"",
                  "sum entries in INR by book, day, tag where book = \"U\"", "count entries by day, tag, book where currency = INR"] {
            LargeGroupingTests.expectKernelsAgree(ledger, today, q, [(2, 0), (2, Executor.compactAbove), (Executor.parallelRows, 0)])
            // Products with a tag key, their groups numbered first: a row's later tags' groups among them.
            LargeGroupingTests.expectKernelsAgree(ledger, today, q, [(2, 0), (Executor.parallelRows, 0)], tagLayoutCells: 0)
        }
        let dense = Session(ledger: ledger, today: today)
        dense.parallelRows = 2
        let counts = try dense.run("count entries by tag").rows.map { row -> String in
            if case .text(let tag) = row[0], case .count(let c) = row[1] { return "\(tag)=\(c)" }
            if case .none = row[0], case .count(let c) = row[1] { return "none=\(c)" }
            return "?"
        }
        var expected: [String: Int] = [:]
        for i in 0..<n {
            let k = i % (mostTags + 1)
            if k == 0 { expected["none", default: 0] += 1 }
            for j in 0..<k { expected["t\((i + j) % 5)", default: 0] += 1 }
        }
        #expect(Set(counts) == Set(expected.map { "\($0.key)=\($0.value)" }), "\(mostTags) tags at most")
    }

    /// By tag, a scan adds each row of up to two tags once, to its pair of tags' group, and each
    /// pair's group to its two tags' groups afterwards (`TagHeads`): a pair is one pair in
    /// either order, a row's third tag is added apart, and past `TagHeads.mostPairs` pairs the
    /// scan goes by the rows' first tags alone. Each way must give what the general path gives.
    @Test func tagPairsAreOnePairInEitherOrderAndTooManyFallBackToFirstTags() throws {
        func ledger(_ tags: [[String]]) throws -> Ledger {
            let entries = tags.enumerated().map { i, t in
                let names = t.map { "\"\($0)\"" }.joined(separator: ", ")
                return "{\"id\": \"\(i)\", \"bookId\": \(i % 3 == 0 ? "\"u\"" : "\"h\""), \"amount\": \(i % 4 == 0 ? "" : "-")\(i % 97 + 1).35, \"date\": \"2025-01-\(String(format: "%02d", i * 28 / tags.count + 1))\", \"category\": \"C\", \"tags\": [\(names)]}"
            }
            return try LedgerLoader.load(documents: [("pairs.json", """
                {"version": 1, "defaultCurrency": "INR",
                 "books": [{"id": "h", "name": "H", "currency": "INR"}, {"id": "u", "name": "U", "currency": "USD"}],
                 "entries": [\(entries.joined(separator: ",\n"))],
                 "rates": [{"base": "USD", "date": "2025-01-01", "rates": {"INR": 83.3, "EUR": 0.917}}]}
                """)])
        }
        let today = Day(year: 2025, month: 12, day: 31)!
        let queries = ["count entries by tag", "sum expenses in INR by tag", "sum entries in EUR by book, tag", "avg income in USD by tag, book",
                       "sum entries in native by tag", "count entries by tag, day", "max expenses in INR by tag"]
        // Rows in the order written (one day each, or several in order): [a, b] and [b, a] are one pair.
        let few = try ledger([["a", "b"], ["b", "a"], ["a"], [], ["c", "a", "b"], ["b", "c"], ["c"], ["b", "a", "c"], []])
        let heads = try #require(TagHeads(few.entries, width: 2))
        #expect(heads.code[0] == heads.code[1] && heads.code[0] == heads.code[7] && heads.code[3] == 0 && heads.code[8] == 0)
        #expect(Set(heads.code).count == 6, "none, {a, b}, {a}, {a, c}, {b, c}, {c}: \(heads.code)")
        // Rows 4 and 7 have a third tag, kept beside the rows for the scan (`laterRows`).
        #expect(heads.laterRows == [4, 7])
        let tagGroup = Dictionary(uniqueKeysWithValues: few.entries.tags.enumerated().map { ($1, UInt32($0 + 1)) })
        #expect(heads.laterStart == [0, 1, 2] && heads.laterGroups == [tagGroup["b"], tagGroup["c"]].compactMap { $0 })
        for q in queries { LargeGroupingTests.expectKernelsAgree(few, today, q, [(2, 0), (Executor.parallelRows, 0)]) }
        // Every pair of 100 tags once, and a third tag on some rows: more pairs than a scan lays out.
        let names = (0..<100).map { "t\($0)" }
        var tags: [[String]] = []
        for a in 0..<100 { for b in (a + 1)..<100 { tags.append(tags.count % 7 == 0 ? [names[b], names[a], names[(a + b) % 100 == a || (a + b) % 100 == b ? (a + 1) % 100 : (a + b) % 100]] : [names[b], names[a]]) } }
        let many = try ledger(Array(tags.prefix(TagHeads.mostPairs + 300)))
        #expect(TagHeads(many.entries, width: 2) == nil && TagHeads(many.entries, width: 1) != nil)
        for q in queries { LargeGroupingTests.expectKernelsAgree(many, today, q, [(2, 0), (Executor.parallelRows, 0)]) }
    }

    @Test func mapInHalvesKeepsTheOrder() {
        for n in [0, 1, 2047, 2048, 2049, 10_001] {
            #expect(Executor.mapInHalves(n) { $0 &* 7 &+ 1 } == (0..<n).map { $0 &* 7 &+ 1 })
        }
    }

    /// A period's accumulators are read ahead a word per cache line (`DensePartial.touch`):
    /// the words at 64-byte steps from the first value asked for, never past the buffer's ends.
    @Test func readingAheadReadsAWordOfEachLineInsideTheBuffer() {
        let buffer = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: 20)
        defer { buffer.deallocate() }
        for i in 0..<20 { buffer[i] = 1 << UInt64(i) }
        // Eight words a line: from value 0, values 0, 8 and 16; from value 3, values 3, 11 and 19.
        #expect(Executor.readLines(buffer, 0..<20) == 1 | 1 << 8 | 1 << 16)
        #expect(Executor.readLines(buffer, -5..<100) == 1 | 1 << 8 | 1 << 16)
        #expect(Executor.readLines(buffer, 3..<20) == 1 << 3 | 1 << 11 | 1 << 19)
        #expect(Executor.readLines(buffer, 3..<11) == 1 << 3)
        #expect(Executor.readLines(buffer, 25..<30) == 0)
        #expect(Executor.readLines(buffer, 7..<7) == 0)
    }
}
