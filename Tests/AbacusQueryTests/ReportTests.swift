// Crosstabs (`per`), comparisons (`vs`) and saved queries (`define`), on a ledger small
// enough to work every answer out by hand (in the comments).

import AbacusCore
import BigInt
@testable import AbacusQuery
import Testing

@Suite struct ReportTests {
    /// Book H keeps rupees; book T keeps Singapore dollars, locked at 60 rupees each. One market
    /// rate, SGD/INR 62 from 2025-03-01.
    ///   1  H  -100 INR  2025-01-10  Food  tags a
    ///   2  H   -50 INR  2025-01-20  Rent
    ///   3  H   -30 INR  2025-03-05  Food  tags a, b
    ///   4  T   -10 SGD  2025-03-07  Food            (booked 600 INR; at market 620)
    ///   5  H    -7 INR  2024-03-15  Food
    ///   6  H  -200 INR  2024-12-20  Rent
    static let ledger = """
    {"version": 1, "defaultCurrency": "INR",
     "books": [{"id": "h", "name": "H", "currency": "INR"},
               {"id": "t", "name": "T", "currency": "SGD", "lockedExchangeRate": 60, "targetCurrency": "INR"}],
     "entries": [{"id": "1", "bookId": "h", "amount": -100, "date": "2025-01-10", "category": "Food", "tags": ["a"]},
                 {"id": "2", "bookId": "h", "amount": -50, "date": "2025-01-20", "category": "Rent"},
                 {"id": "3", "bookId": "h", "amount": -30, "date": "2025-03-05", "category": "Food", "tags": ["a", "b"]},
                 {"id": "4", "bookId": "t", "amount": -10, "date": "2025-03-07", "category": "Food"},
                 {"id": "5", "bookId": "h", "amount": -7, "date": "2024-03-15", "category": "Food"},
                 {"id": "6", "bookId": "h", "amount": -200, "date": "2024-12-20", "category": "Rent"}],
     "rates": [{"from": "SGD", "to": "INR", "rate": 62, "date": "2025-03-01"}]}
    """

    func session() throws -> Session {
        Session(ledger: try LedgerLoader.load(documents: [("r.json", ReportTests.ledger)]), today: Day(year: 2025, month: 12, day: 31)!)
    }

    /// Cells as plain text; a total row's label as its case (`total`, `totalOfTop(1)`).
    func cells(_ rows: [[Cell]]) -> [[String]] {
        rows.map { $0.map { c in if case .total(let l) = c { return "\(l)" } else { return plainText(c) ?? "" } } }
    }

    func failure(_ q: String, in s: Session? = nil) throws -> QueryError? {
        let s = try s ?? session()
        do { _ = try s.execute(q) } catch { return error }
        return nil
    }

    // MARK: Crosstabs

    @Test func aCrosstabHasEveryPeriodOfTheRangeATotalAndAnAverage() throws {
        let r = try session().run("sum expenses by category per month during 2025-Q1")
        // February has no entries and is still a column.
        #expect(r.names == ["category", "2025-01", "2025-02", "2025-03", "Total", "Average"])
        #expect(r.columns.suffix(2).allSatisfy { $0.summary })
        // Food 100, 0, 30 + 600 (T's lock) = 630; Total 730, Average 730 / 3 = 243.33…
        // Rent 50, 0, 0; Total 50, Average 16.666… → 16.67. Total row 150, 0, 630, 780, 260.00.
        #expect(cells(r.rows) == [["Food", "100.00", "0.00", "630.00", "730.00", "243.33"],
                                  ["Rent", "50.00", "0.00", "0.00", "50.00", "16.67"]])
        #expect(cells(r.totals) == [["total", "150.00", "0.00", "630.00", "780.00", "260.00"]])
    }

    /// Weeks are counted by their days, not by their codes (year × 100 + week): ten years of
    /// weeks are 523 columns (it said 1001, past the limit of 1000, and refused).
    @Test func weeklyColumnsAreCountedByTheirDays() throws {
        let r = try session().run("count entries per week since 2014-06-02 until 2024-06-03")
        #expect(r.columns.filter { if case .key = $0.kind { return false } else { return !$0.summary } }.count == 523)
        #expect(r.names.first == "2014-W23" && r.names.contains("2024-W23"))
        // Past the limit it is refused with the true count: 2005-W01 to 2024-W23 is 1,014 weeks.
        #expect(try failure("count entries per week since 2005-01-03 until 2024-06-03")?.message.hasPrefix("`per week` would make 1014 columns") == true)
    }

    /// A crosstab's Average is its Total as shown over the period columns (docs/language.md):
    /// ₹0.015 shows as a Total of ₹0.02, which averages ₹0.01 over three months.
    @Test func anAverageReadsOffTheTotalShown() throws {
        let s = Session(ledger: try LedgerLoader.load(documents: [("a.json", """
            {"version": 1, "defaultCurrency": "INR", "books": [{"id": "h", "name": "H", "currency": "INR"}],
             "entries": [{"id": "1", "bookId": "h", "amount": -0.015, "date": "2024-01-10", "category": "A"}]}
            """)]), today: Day(year: 2025, month: 12, day: 31)!)
        let r = try s.run("sum expenses by category per month during 2024-Q1")
        #expect(cells(r.rows) == [["A", "0.02", "0.00", "0.00", "0.02", "0.01"]])
    }

    /// Categories named `Total` and `Average` keep their names as columns; the table's own
    /// total and average columns take ` (2)`, so that no two columns share a name.
    @Test func aValueNamedTotalLeavesTheTotalColumnADistinctName() throws {
        let renamed = ReportTests.ledger.replacingOccurrences(of: #""category": "Rent""#, with: #""category": "Total""#)
            .replacingOccurrences(of: #""amount": -7, "date": "2024-03-15", "category": "Food""#, with: #""amount": -7, "date": "2024-03-15", "category": "Average""#)
        let s = Session(ledger: try LedgerLoader.load(documents: [("r.json", renamed)]), today: Day(year: 2025, month: 12, day: 31)!)
        let r = try s.run("sum expenses by book per category")
        #expect(r.names == ["book", "Average", "Food", "Total", "Total (2)"])
        let m = try s.run("count expenses by book per month during 2025-Q1")
        #expect(m.names == ["book", "2025-01", "2025-02", "2025-03", "Total", "Average"])
        #expect(Set(r.names).count == r.names.count)
    }

    @Test func anOpenRangeRunsToTheLastMatchingEntry() throws {
        // Since February, no end: columns February to the last entry's month (March).
        let r = try session().run("sum expenses by category per month since 2025-02")
        #expect(r.names == ["category", "2025-02", "2025-03", "Total", "Average"])
        #expect(cells(r.rows) == [["Food", "0.00", "630.00", "630.00", "315.00"]])
    }

    /// An open end that no entry closes: the bounded end's period alone is the one column; with
    /// neither end bounded and no entry, there is no column and no row (not a row of nothing).
    @Test func anOpenRangeWithNoEntryHasItsBoundedEndAlone() throws {
        let s = try session()
        let since = try s.run("sum expenses per month since 2026-01")
        #expect(since.names == ["2026-01", "Total", "Average"])
        #expect(cells(since.rows) == [["0.00", "0.00", "0.00"]])
        let until = try s.run("count expenses by category per quarter until 2023-02")
        #expect(until.names == ["category", "2023-Q1", "Total", "Average"])
        #expect(until.rows.isEmpty)
        let none = try s.run("sum expenses per month where amount > 100000")
        #expect(none.names == ["Total", "Average"])
        #expect(none.rows.isEmpty && none.totals.isEmpty)
    }

    @Test func otherKeysGiveTheValuesThatOccurNoneLastAndEachEntryOnceInTheTotal() throws {
        let r = try session().run("count expenses by category per tag during 2025")
        #expect(r.names == ["category", "a", "b", "(none)", "Total"])
        // Food: a = entries 1 and 3, b = entry 3, none = entry 4; its Total counts 1, 3, 4 once: 3.
        #expect(cells(r.rows) == [["Food", "2", "1", "1", "3"], ["Rent", "0", "0", "1", "1"]])
        // The cells add up to more than the Total (entry 3 is in a and b): the row says so.
        #expect(cells(r.totals) == [["totalEachEntryOnce", "2", "1", "2", "4"]])
        // Without a key that repeats an entry, the cells add up to the Total: plain `Total`.
        #expect(try session().run("count expenses by category per month during 2025").totals.first?.first == .total(.total))
    }

    @Test func avgCellsWithoutEntriesAreEmpty() throws {
        let r = try session().run("avg expenses by category per month during 2025-Q1")
        // Food in January 100; in March (30 + 600) / 2 = 315; overall (100 + 30 + 600) / 3 = 243.33.
        #expect(cells(r.rows) == [["Food", "100.00", "", "315.00", "243.33"], ["Rent", "50.00", "", "", "50.00"]])
        #expect(r.rows[0][2] == .empty)
        // Each column over all its entries: January (100 + 50) / 2 = 75; overall 780 / 4 = 195.00.
        #expect(cells(r.totals) == [["overall", "75.00", "", "315.00", "195.00"]])
    }

    @Test func topRanksRowsByTheirTotalAndTheTotalRowKeepsToThem() throws {
        let r = try session().run("sum expenses by category per month during 2025-Q1 top 1")
        #expect(cells(r.rows) == [["Food", "100.00", "0.00", "630.00", "730.00", "243.33"]])
        #expect(cells(r.totals) == [["totalOfTop(1)", "100.00", "0.00", "630.00", "730.00", "243.33"]])
    }

    @Test func withoutByOneRow() throws {
        let r = try session().run("sum expenses per book during 2025")
        #expect(r.names == ["H", "T", "Total"])
        #expect(cells(r.rows) == [["180.00", "600.00", "780.00"]])
        #expect(r.totals.isEmpty)
    }

    /// Where rows partition the entries (any key but `tag`), each column's total after `top N`
    /// is the sum of the cells shown above it, and the grand total the sum of the row totals,
    /// but for rounding: a total is rounded once, each cell too, so they may differ by half a
    /// minor unit a row.
    @Test(arguments: ["category", "top category", "book", "party", "payment", "currency"])
    func aCutCrosstabsTotalsAddUpTheRowsShown(_ key: String) throws {
        let ledger = try DemoLedgerTests.ledger.get()
        let s = Session(ledger: ledger, today: Day(year: 2025, month: 12, day: 31)!)
        let r = try s.run("sum expenses by \(key) per quarter during 2025 top 3")
        #expect(r.rows.count == 3)
        let total = try #require(r.totals.first)
        for column in 1..<r.columns.count - 1 {
            var sum = ExactDecimal(0)
            for row in r.rows { if case .money(let v, _) = row[column] { sum = try sum.adding(v) } }
            let difference = try #require(total[column].amount).subtracting(sum).magnitude
            #expect(difference <= ExactDecimal(significand: Int128(r.rows.count), scale: 2), "\(key): \(r.columns[column].name)")
        }
    }

    /// One run rolled up and three runs put together give the same crosstab, cell for cell.
    @Test(arguments: [
        "sum expenses by category per month during 2025", "avg expenses in USD by book per quarter during 2025 top 3",
        "count entries by payment per book", "max expenses by book per month during 2025-Q4 order by amount desc",
        "sum income per month", "min expenses in EUR by currency per year", "sum expenses by book, party per quarter during 2025 top 5",
    ])
    func oneRunRolledUpEqualsThreeRuns(_ q: String) throws {
        let ledger = try DemoLedgerTests.ledger.get()
        let s = Session(ledger: ledger, today: Day(year: 2025, month: 12, day: 31)!)
        let crosstab = try CrosstabStatement.crosstab(try Parser.query(q), in: s)
        #expect(crosstab.rollsUp, "\(q)")
        let one = try crosstab.rolledUp(), three = try crosstab.separately()
        #expect(one.names == three.names, "\(q)")
        #expect(one.rows == three.rows, "\(q)")
        #expect(one.totals == three.totals, "\(q)")
        #expect(one.warnings == three.warnings, "\(q)")
    }

    // MARK: Comparisons

    @Test func previousPeriodOfACalendarQuarter() throws {
        let r = try session().run("sum expenses by category during 2025-Q1 vs previous period")
        #expect(r.names == ["category", "2025-Q1", "2024-Q4", "change", "change %"])
        // Food 730 against 0: no percentage. Rent 50 against 200: −150, −75.0 %.
        #expect(cells(r.rows) == [["Food", "730.00", "0.00", "730.00", ""], ["Rent", "50.00", "200.00", "-150.00", "-75.0"]])
        // 780 against 200: +580, +290.0 %.
        #expect(cells(r.totals) == [["total", "780.00", "200.00", "580.00", "290.0"]])
    }

    @Test func samePeriodLastYear() throws {
        let r = try session().run("sum expenses by category during 2025-03 vs same period last year")
        #expect(r.names == ["category", "2025-03", "2024-03", "change", "change %"])
        // Food 630 against 7: 623, 623 / 7 = 89, so 8900.0 %.
        #expect(cells(r.rows) == [["Food", "630.00", "7.00", "623.00", "8900.0"]])
    }

    /// `vs P` replaces a top-level `where date …` as it does a period clause: B is P's days, not
    /// the empty meeting of A's date and P (which answered 0 without a word).
    @Test func versusAPeriodReplacesATopLevelDateComparison() throws {
        let s = try session()
        for a in ["where date = 2025-03", "where date >= 2025-03-01 and date <= 2025-03-31", "during 2025-03"] {
            let r = try s.run("sum expenses by category \(a) vs 2024-03")
            #expect(r.names == ["category", "2025-03", "2024-03", "change", "change %"], "\(a)")
            // Food 630 against 7, as `vs same period last year` gives.
            #expect(cells(r.rows) == [["Food", "630.00", "7.00", "623.00", "8900.0"]], "\(a)")
        }
        // A's other conditions stay: Rent alone, 50 in 2025-01 against 200 in 2024-12.
        let r = try s.run("sum expenses where category = Rent and date = 2025-01 vs 2024-12")
        #expect(cells(r.rows) == [["50.00", "200.00", "-150.00", "-75.0"]])
    }

    /// A what-if rate A used is not called unused because B, over another period, met no entry
    /// in its currency; one neither side used still is.
    @Test func aWhatIfRateIsUnusedOnlyWhereNeitherSideUsedIt() throws {
        let s = try session()
        // A: the SGD entry at 70 (4 × … 700); B, 2024, has rupees only.
        let r = try s.run("sum expenses at market with rate SGD/INR = 70 during 2025 vs 2024")
        #expect(cells(r.rows) == [["880.00", "207.00", "673.00", "325.1"]])
        #expect(!r.warnings.contains { $0.contains("was not used") }, "\(r.warnings)")
        guard case .explain(_, _, let warnings) = try s.execute("explain sum expenses at market with rate SGD/INR = 70 during 2025 vs 2024") else {
            Issue.record("no plan"); return
        }
        #expect(!warnings.contains { $0.contains("was not used") }, "\(warnings)")
        let unused = try s.run("sum expenses at market with rate EUR/INR = 70 during 2025 vs 2024")
        #expect(unused.warnings.filter { $0.contains("was not used") } == ["the what-if rate EUR/INR was not used: no entry in EUR is converted by this statement"])
    }

    /// Nothing comes before 0001-01-01: a comparison with the period before the first month,
    /// quarter, year or day (or a year before year 1) is refused, never named by a garbled label.
    @Test func noPeriodBeforeTheCalendarStarts() throws {
        let s = try session()
        for statement in ["sum entries during 0001-01 vs previous period", "sum entries during 0001-Q1 vs previous period",
                          "sum entries during 0001 vs previous period", "sum entries on 0001-01-01 vs previous period",
                          "sum entries during 0001 vs same period last year", "sum entries during 0001-06 vs same period last year"] {
            #expect(throws: QueryError.self, "\(statement)") { try s.run(statement) }
        }
        let r = try s.run("count entries during 0001-02 vs previous period")
        #expect(r.names == ["0001-02", "0001-01", "change", "change %"])
    }

    /// A side open at one end (`before 2025-03`, `until 2025-02`, `since 2025-03`) is named by its
    /// range, its open end left blank; no calendar period is worked out from the open end (which
    /// stopped the process with an overflow).
    @Test func aSideOpenAtAnEndIsNamedByItsRange() throws {
        let s = try session()
        #expect(try s.run("count expenses before 2025-03 vs 2025-Q1").names == ["..2025-02-28", "2025-Q1", "change", "change %"])
        #expect(try s.run("count expenses until 2025-02 vs 2025-Q1").names == ["..2025-02-28", "2025-Q1", "change", "change %"])
        // A top-level condition on the date narrows A's days as a period does, and P replaces it.
        #expect(try s.run("count expenses where date < 2025-03-01 vs 2025-Q1").names == ["..2025-02-28", "2025-Q1", "change", "change %"])
        #expect(try s.run("count expenses since 2025-03 vs 2025-Q1").names == ["2025-03-01..", "2025-Q1", "change", "change %"])
        #expect(ComparisonStatement.label(DayRange(.distantPast, Day(year: 2025, month: 2, day: 28)!)) == "..2025-02-28")
    }

    /// The other side of `vs previous period` or `vs same period last year` is named as the
    /// statement's side is: a range a year earlier stays a range where it happens to be a
    /// week (2023-12-25..31 is 2023-W52), a week's previous period is a week.
    @Test func theShiftedSideIsNamedAsTheStatementsSideIs() throws {
        let s = try session()
        #expect(try s.run("count expenses since 2024-12-25 until 2024-12-31 vs same period last year").names
                == ["2024-12-25..2024-12-31", "2023-12-25..2023-12-31", "change", "change %"])
        #expect(try s.run("count expenses during 2025-W41 vs previous period").names == ["2025-W41", "2025-W40", "change", "change %"])
        #expect(try s.run("count expenses during 2025-W41 vs same period last year").names == ["2025-W41", "2024-10-06..2024-10-12", "change", "change %"])
        #expect(try s.run("count expenses during 2025-10 vs same period last year").names == ["2025-10", "2024-10", "change", "change %"])
    }

    /// A period word that lands before 0001-01-01 (`last week` when today is 0001-01-01) is
    /// refused, where a query, a crosstab, a budget, a net worth or a rate lookup meets it:
    /// it was an empty range (a sum of 0), or a period worked out before the calendar that
    /// overflowed (a crosstab by week) or a report that never ended (`budget before last week`).
    @Test func aPeriodWordBeforeTheCalendarIsRefused() throws {
        let s = Session(ledger: try LedgerLoader.load(documents: [("r.json", ReportTests.ledger)]), today: Day(year: 1, month: 1, day: 1)!)
        for statement in ["sum expenses since last week", "sum expenses during yesterday", "sum expenses since last week per day",
                          "count entries until last week by category per week", "sum expenses during last 1000 days", "sum expenses at last year",
                          "budget before last week", "networth by month before last month", "balance at last week", "rates USD/INR since last month"] {
            do {
                _ = try s.execute(statement)
                Issue.record("\(statement): not refused")
            } catch {
                #expect(error.message.contains("falls outside the calendar (0001-01-01 to 9999-12-31)"), "\(statement): \(error.message)")
            }
        }
        // Today and this week hold 0001-01-01: they stay.
        #expect(plainText(try s.run("sum expenses during today").rows.first?.last) == "0.00")
        #expect(plainText(try s.run("sum expenses during this week").rows.first?.last) == "0.00")
    }

    @Test func previousPeriodOfSomeDaysIsAsManyDaysBefore() throws {
        let r = try session().run("count expenses since 2025-01-10 until 2025-01-19 vs previous period")
        // Ten days; the ten before run from 2024-12-31 to 2025-01-09 and hold nothing.
        #expect(r.names == ["2025-01-10..2025-01-19", "2024-12-31..2025-01-09", "change", "change %"])
        #expect(cells(r.rows) == [["1", "0", "1", ""]])
        #expect(ComparisonStatement.previous(DayRange(Day(year: 2024, month: 2, day: 1)!, Day(year: 2024, month: 2, day: 29)!))
                == DayRange(Day(year: 2024, month: 1, day: 1)!, Day(year: 2024, month: 1, day: 31)!))
        #expect(Day(year: 2024, month: 2, day: 29)!.yearEarlier == Day(year: 2023, month: 2, day: 28)!)
        // A whole February a year later still means the whole February before, 29th and all.
        let february = Period(.month, containing: Day(year: 2025, month: 2, day: 1)!).days
        #expect(ComparisonStatement.yearEarlier(february) == Period(.month, containing: Day(year: 2024, month: 2, day: 1)!).days)
        #expect(ComparisonStatement.label(ComparisonStatement.yearEarlier(february)) == "2024-02")
    }

    @Test func aValuationAgainstBookedIsTheExchangeGain() throws {
        let r = try session().run("sum expenses by book during 2025-03 at market vs booked")
        #expect(r.names == ["book", "market", "booked", "change", "change %"])
        // T: 10 SGD at 62 = 620 against the lock's 600: 20, 20 / 600 = 3.33 %. H: 30 both.
        #expect(cells(r.rows) == [["H", "30.00", "30.00", "0.00", "0.0"], ["T", "620.00", "600.00", "20.00", "3.3"]])
    }

    /// `change %` and `share` in 128-bit integers (`ExactDecimal.fastPercent`) are the exact fraction's rounding,
    /// half-even to one decimal: values at many scales and signs, halfway cases (1 of 8 is
    /// 12.5 %, 1 of 16 is 6.25 %, 3 of 16 is 18.75 %) and values near the 38-digit limit.
    @Test func changePercentIsTheExactFractionsRounding() throws {
        let dice = IndexPropertyTests.Dice(seed: 19)
        func decimal() -> ExactDecimal {
            let digits = Int(dice.next() % 30) + 1
            var sig: Int128 = 0
            for _ in 0..<digits { sig = sig * 10 + Int128(dice.next() % 10) }
            return ExactDecimal(significand: dice.next() % 2 == 0 ? sig : -sig, scale: Int(dice.next() % 12))
        }
        var pairs: [(ExactDecimal, ExactDecimal)] = [(ExactDecimal(1), ExactDecimal(8)), (ExactDecimal(-1), ExactDecimal(8)),
                                                     (ExactDecimal(1), ExactDecimal(16)), (ExactDecimal(3), ExactDecimal(16)),
                                                     (ExactDecimal(-3), ExactDecimal(-16)), (ExactDecimal(significand: 5, scale: 4), ExactDecimal(1_000_000)),
                                                     (ExactDecimal(significand: ExactDecimal.maxSignificand, scale: 0), ExactDecimal(significand: 1, scale: 9))]
        for _ in 0..<20_000 { pairs.append((decimal(), decimal())) }
        var fast = 0
        for (d, y) in pairs where !y.isZero {
            let exact = Fraction(BigInt(d.significand) * 100 * BigInt(10).power(y.scale), BigInt(y.significand.magnitude) * BigInt(10).power(d.scale)).rounded(toScale: 1)
            if let p = ExactDecimal.fastPercent(d, of: y) {
                #expect(p == exact, "\(d) of \(y)")
                fast += 1
            }
        }
        #expect(fast > 10_000)
        #expect(ExactDecimal.fastPercent(ExactDecimal(1), of: ExactDecimal(8)) == ExactDecimal(significand: 125, scale: 1))
        #expect(ExactDecimal.fastPercent(ExactDecimal(1), of: ExactDecimal(16)) == ExactDecimal(significand: 62, scale: 1))
        #expect(ExactDecimal.fastPercent(ExactDecimal(3), of: ExactDecimal(16)) == ExactDecimal(significand: 188, scale: 1))
    }

    /// Both sides' groups paired row by row when they are the same groups (a valuation
    /// compared), matched by key when they are not (periods): the same rows either way.
    @Test func aComparisonPairsTheSameGroupsAsItMatchesThem() throws {
        let ledger = try LedgerLoader.load(documents: [("gen.json", LargeGroupingTests.ledger(seed: 5))])
        let s = Session(ledger: ledger, today: Day(year: 2025, month: 12, day: 31)!)
        let same = try s.run("sum expenses in INR by party, month at market vs booked")
        // Every group on both sides: the pairing is what matching by key would give.
        let a = try s.run("sum expenses in INR by party, month at market"), b = try s.run("sum expenses in INR by party, month")
        #expect(zip(a.rows, b.rows).filter { $0.last != $1.last }.count > 100, "booked values differ from market ones")
        #expect(a.rows.map { $0.dropLast() } == b.rows.map { $0.dropLast() }, "the same groups on both sides")
        #expect(same.rows.count == a.rows.count)
        for (row, (x, y)) in zip(same.rows, zip(a.rows, b.rows)) {
            #expect(Array(row.prefix(3)) == Array(x) && row[3] == y.last, "\(row)")
        }
        // Ranked and cut, each row keeps its own group's B value.
        let ranked = try s.run("sum expenses in INR by party, month at market vs booked order by amount desc top 25")
        let booked = b.valuesByKey
        #expect(ranked.rows.count == 25)
        for row in ranked.rows { #expect(row[3] == booked[Array(row.prefix(2))], "\(row)") }
        // Periods: groups found on one side only show 0 on the other.
        let periods = try s.run("sum expenses in USD by party during 2025-02 vs previous period")
        let feb = try s.run("sum expenses in USD by party during 2025-02").valuesByKey, jan = try s.run("sum expenses in USD by party during 2025-01").valuesByKey
        #expect(Set(periods.rows.map { Array($0.prefix(1)) }) == Set(feb.keys).union(jan.keys))
        for row in periods.rows {
            let key = Array(row.prefix(1))
            #expect(plainText(row[1]) == (plainText(feb[key]) ?? "0.00") && plainText(row[2]) == (plainText(jan[key]) ?? "0.00"), "\(row)")
        }
    }

    @Test func whatIfRatesInsteadOfTheStatements() throws {
        let r = try session().run("sum expenses by book during 2025-03 vs with rate SGD/INR = 65")
        #expect(r.names == ["book", "booked", "SGD/INR = 65", "change", "change %"])
        // A what-if rate comes before the lock: 650. 600 − 650 = −50, −50 / 650 = −7.69 %.
        #expect(cells(r.rows)[1] == ["T", "600.00", "650.00", "-50.00", "-7.7"])
    }

    @Test func inNativeByCurrencyAloneThereIsNoTotalRowEvenAfterTop() throws {
        // March: 30 INR (H) and 10 SGD (T); January: 150 INR. Ordered by currency, top 1: INR.
        let r = try session().run("sum expenses in native during 2025-03 order by currency top 1 vs 2025-01")
        #expect(cells(r.rows) == [["INR", "30.00", "150.00", "-120.00", "-80.0"]])
        #expect(r.totals.isEmpty)
    }

    @Test func aGroupOnOneSideOnlyIsEmptyForAvg() throws {
        let r = try session().run("avg expenses by category during 2025-03 vs 2024-12")
        // Food in March: (30 + 600) / 2 = 315, none in December; Rent only in December: 200.
        #expect(cells(r.rows) == [["Food", "315.00", "", "", ""], ["Rent", "", "200.00", "", ""]])
    }

    /// Every combination the reports refuse, each with a message that says why.
    @Test(arguments: [
        ("list expenses per month", "`per` makes a crosstab"),
        ("sum expenses by month per month", "already a row key"),
        ("sum expenses per month during 2025 vs 2024", "cannot go together"),
        ("sum expenses by category per month with share", "not a crosstab"),
        ("sum expenses by category per month order by month", "cannot order by month"),
        ("sum expenses by category, book, party, tag per month", "at most 4"),
        ("sum expenses in native per currency", "per currency"),
        // Ten years of days: more columns than a crosstab takes.
        ("sum expenses per day since 2016-01-01 until 2025-12-31", "columns (at most 1000)"),
        ("sum expenses vs previous period", "needs the statement's own period"),
        ("sum expenses by month since 2025-11 until 2025-10 vs previous period", "the statement's own period holds no day"),
        ("sum expenses during 2025-03 vs 2025-03", "both sides"),
        ("list expenses during 2025 vs 2024", "`list` shows entries"),
        ("sum expenses by book during 2025 vs 2024 with share", "cannot go with `vs`"),
        ("sum expenses by book during 2025 vs 2024 order by count", "rank by A's value"),
        ("define sum as books", "is a word of the language"),
        ("define f(a) as count entries where party = $b", "`$b` is not a parameter of f"),
        ("define f(a, a) as books", "a parameter not already listed"),
        ("define f as define g as books", "cannot define another"),
        ("count entries where party = $x", "only in the statement of a `define`"),
        ("nothingdefined(1)", "expected a statement"),
    ])
    func reportsRefuse(_ q: String, _ message: String) throws {
        let e = try failure(q)
        #expect(e?.message.contains(message) == true, "\(q): \(e?.message ?? "no error")")
    }

    @Test func explainShowsBothPlans() throws {
        guard case .explain(let plan, let rates, _) = try session().execute("explain sum expenses by book during 2025-03 at market vs booked") else {
            Issue.record("not an explanation")
            return
        }
        #expect(plan.contains("A: sum expenses in INR") && plan.contains("B: sum expenses in INR"))
        #expect(plan.contains("at market valuation") && plan.contains("booked valuation"))
        #expect(rates.contains { $0.hasPrefix("A: ") } && rates.contains { $0.hasPrefix("B: ") })
    }

    // MARK: Saved queries

    @Test func aDefinitionRunsWithItsArguments() throws {
        let s = try session()
        guard case .message(let m) = try s.execute("define spent(c, m) as sum expenses where category = $c during $m") else {
            Issue.record("define says nothing")
            return
        }
        #expect(m == "defined spent($c, $m)")
        #expect(cells(try s.run("spent(Food, 2025-03)").rows) == [["630.00"]])
        #expect(cells(try s.run("SPENT(\"Rent\", 2025)").rows) == [["50.00"]])
        #expect(cells(try s.run("defines").rows) == [["spent", "$c, $m", "sum expenses where category = $c during $m"]])
        // `explain` of a call explains what it runs.
        guard case .explain(let plan, _, _) = try s.execute("explain spent(Food, 2025-03)") else {
            Issue.record("explain of a call explains nothing")
            return
        }
        #expect(plan.contains("WHERE category = \"Food\"") && plan.contains("DAYS 2025-03-01..2025-03-31"))
        _ = try s.execute("undefine spent")
        #expect(try failure("spent(Food, 2025)", in: s) != nil)
    }

    @Test func anArgumentStaysOneValue() throws {
        let s = try session()
        _ = try s.execute("define spent(c) as sum expenses where category = $c")
        // A quoted argument holding quotes and keywords is one name, which the ledger lacks.
        let e = try failure(#"spent("Food\" or category = \"Rent")"#, in: s)
        guard case .unknownName(_, let value, _)? = e?.kind else {
            Issue.record("expected an unknown name, got \(String(describing: e))")
            return
        }
        #expect(value == #"Food" or category = "Rent"#)
        // A keyword as the argument stays a value (a name the ledger lacks); it does not open a clause.
        let keyword = try failure("spent(where)", in: s)
        #expect(keyword?.expansion?.text == "sum expenses where category = \"where\"")
        guard case .unknownName(_, "where", _)? = keyword?.kind else {
            Issue.record("expected the name \"where\", got \(String(describing: keyword))")
            return
        }
        // Other words of the language stand as they are: a date word, a group key.
        _ = try s.execute("define recent(d, k) as count expenses by $k since $d")
        #expect(cells(try s.run("recent(today, book)").rows).isEmpty)
        #expect(cells(try s.run("recent(2025-03-01, book)").rows) == [["H", "1"], ["T", "1"]])
        // Two words are two tokens: refused at the call, with advice.
        #expect(try failure("spent(Big Co)", in: s)?.advice == .oneTokenArgument)
    }

    @Test func errorsInsideAnExpansionShowTheCallAndTheStatement() throws {
        let s = try session()
        _ = try s.execute("define monthly(m) as sum expenses by category during $m")
        let e = try #require(try failure("monthly(2025-13)", in: s))
        #expect(e.expansion == QueryError.Expansion(call: "monthly(2025-13)", text: "sum expenses by category during 2025-13"))
        let picture = Diagnostic.render(e, statement: "monthly(2025-13)")
        #expect(picture.hasPrefix("  monthly(2025-13)\n  which runs:\n  sum expenses by category during 2025-13\n"
                                  + String(repeating: " ", count: 34) + "^~~~~~~\nerror: '2025-13' is not a date"))
    }

    @Test func wrongArgumentCountsAndEndlessCallsFail() throws {
        let s = try session()
        _ = try s.execute("define f(a) as count entries where category = $a")
        #expect(try failure("f(Food, Rent)", in: s)?.message == "f takes 1 argument (f($a)), not 2")
        _ = try s.execute("define again as again")
        #expect(try failure("again", in: s)?.message.contains("calls nest deeper than 16") == true)
        _ = try s.execute("define again() as books")
        _ = try s.execute("again()")
    }
}
