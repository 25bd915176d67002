// Budgets, the category tree, splits, balances, net worth and holdings on small ledgers
// whose answers are worked out by hand in the comments.

import AbacusCore
@testable import AbacusQuery
import Testing

@Suite struct BudgetNetWorthTests {
    static func session(_ json: String, today: Day = Day(year: 2025, month: 12, day: 31)!) throws -> Session {
        Session(ledger: try LedgerLoader.load(documents: [("t.json", json)]), today: today)
    }

    static func rows(_ r: ResultSet) -> [[String]] { r.rows.map { $0.map { plainText($0) ?? "" } } }

    static func failure(_ s: Session, _ statement: String) -> QueryError? {
        do { _ = try s.execute(statement) } catch { return error }
        return nil
    }

    static func entry(_ id: String, _ amount: String, _ date: String, _ category: String, book: String = "h", extra: String = "") -> String {
        #"{"id": "\#(id)", "bookId": "\#(book)", "amount": \#(amount), "date": "\#(date)", "category": "\#(category)"\#(extra)}"#
    }

    static func ledger(books: String = #"{"id": "h", "name": "Home", "currency": "INR"}"#, entries: [String], rest: String = "") -> String {
        #"{"version": 1, "defaultCurrency": "INR", "books": [\#(books)], "entries": [\#(entries.joined(separator: ", "))]\#(rest)}"#
    }

    // MARK: Budgets

    @Test func aCarryOverChainOverThreeMonthsWithAnOverspend() throws {
        let s = try Self.session(Self.ledger(entries: [
            Self.entry("1", "-600", "2025-01-10", "Food"), Self.entry("2", "-1700", "2025-02-10", "Food"),
            Self.entry("3", "-500", "2025-03-10", "Food"),
        ], rest: #", "budgets": [{"category": "Food", "limitAmount": 1000, "currencyCode": "INR", "carryOver": true, "startMonth": "2025-01"}]"#))
        let r = try s.run("budget since 2025-01 until 2025-03")
        #expect(r.names == ["month", "category", "currency", "limit", "spent", "remaining", "used %", "alert"])
        // January: 1000 − 600 = 400 left. February: 1000 + 400 = 1400, 1700 spent: −300, 121.4% (1700/1400).
        // March: 1000 − 300 = 700, 500 spent: 200 left, 71.4% (500/700 = 71.43): the 50% alert.
        #expect(Self.rows(r) == [
            ["2025-01", "Food", "INR", "1000.00", "600.00", "400.00", "60.0", "50%"],
            ["2025-02", "Food", "INR", "1400.00", "1700.00", "-300.00", "121.4", "100%"],
            ["2025-03", "Food", "INR", "700.00", "500.00", "200.00", "71.4", "50%"],
        ])
    }

    @Test func aCarryOverChainRunsForCenturies() throws {
        let s = try Self.session(Self.ledger(entries: [
            Self.entry("1", "-600", "2025-01-10", "Food"), Self.entry("2", "-50", "2025-03-10", "Rent"),
        ], rest: #", "budgets": [{"category": "Food", "limitAmount": 1000, "currencyCode": "INR", "carryOver": true, "startMonth": "2025-01"}]"#))
        // 2525-12 is 6,011 months after 2025-01. January leaves 400; every later month spends
        // nothing and carries all of its limit on: 1000 × 6,012 − 600 = 6,011,400.
        #expect(Self.rows(try s.run("budget 2525-12")) == [["2525-12", "Food", "INR", "6011400.00", "0.00", "6011400.00", "0.0", ""]])
        // A year of the chain goes on from the month before, not from the start again: 2030-01
        // is 60 months after 2025-01 (1000 × 61 − 600), 2030-12 71 (1000 × 72 − 600).
        let year = Self.rows(try s.run("budget during 2030"))
        #expect(year.map { $0[3] } == (61...72).map { "\($0 * 1000 - 600).00" })
        // A month with entries (Rent's) and one with none at all say what they added alike.
        for month in ["2025-03", "2026-07"] {
            guard case .explain(let plan, _, _) = try s.execute("explain budget \(month)") else { Issue.record("no plan"); return }
            #expect(plan.contains("sum expenses in INR where category = \"Food\" during \(month) = 0.00"))
        }
    }

    /// Spent, remaining, used % and the converted columns come from the exact sum, each
    /// rounded once: not from the spent as shown in the budget's currency (docs/language.md#budget).
    @Test func aBudgetsValuesAreRoundedOnceFromTheExactSpent() throws {
        let s = try Self.session(#"""
            {"version": 1, "defaultCurrency": "USD", "books": [{"id": "b", "name": "Main", "currency": "USD"}],
             "entries": [{"id": "1", "bookId": "b", "amount": -10.005, "date": "2025-03-05", "category": "Food"},
                         {"id": "2", "bookId": "b", "amount": -0.285, "date": "2025-03-05", "category": "Taxi"},
                         {"id": "3", "bookId": "b", "amount": -0.015, "date": "2025-03-05", "category": "Fun"}],
             "rates": [{"from": "USD", "to": "INR", "rate": 100, "date": "2025-03-01"}],
             "budgets": [{"category": "Food", "limitAmount": 20, "currencyCode": "USD"}, {"category": "Taxi", "limitAmount": 3, "currencyCode": "USD"},
                         {"category": "Fun", "limitAmount": 10.01, "currencyCode": "USD", "carryOver": true}]}
            """#)
        // Taxi: 0.285 of 3 is 9.5% (the shown 0.28 would make it 9.3%); 2.715 remains: 2.72.
        // Fun: 10.01 − 0.015 = 9.995 → 10.00 remains, carried into April: 20.01.
        #expect(Self.rows(try s.run("budget since 2025-03 until 2025-04")) == [
            ["2025-03", "Food", "USD", "20.00", "10.00", "10.00", "50.0", "50%"],
            ["2025-03", "Fun", "USD", "10.01", "0.02", "10.00", "0.1", ""],
            ["2025-03", "Taxi", "USD", "3.00", "0.28", "2.72", "9.5", ""],
            ["2025-04", "Food", "USD", "20.00", "0.00", "20.00", "0.0", ""],
            ["2025-04", "Fun", "USD", "20.01", "0.00", "20.01", "0.0", ""],
            ["2025-04", "Taxi", "USD", "3.00", "0.00", "3.00", "0.0", ""],
        ])
        // In INR at 100: 10.005 USD is ₹1000.50 (as `convert 10.005 USD to INR` says), not 10.00 × 100.
        #expect(Self.rows(try s.run("budget 2025-03 in INR")).first == ["2025-03", "Food", "2000.00", "1000.50", "999.50", "50.0", "50%"])
    }

    @Test func aMonthsOwnBudgetReplacesTheRecurringOne() throws {
        let s = try Self.session(Self.ledger(entries: [
            Self.entry("1", "-900", "2025-01-10", "Food"), Self.entry("2", "-2000", "2025-02-10", "Food"),
        ], rest: #", "budgets": [{"category": "Food", "limitAmount": 1000, "currencyCode": "INR"}, {"category": "Food", "month": "2025-02", "limitAmount": 2500, "currencyCode": "INR"}]"#))
        // January keeps the recurring 1000 (900 spent, 90.0%); February's own 2500 replaces it: 2000 is 80.0%.
        #expect(Self.rows(try s.run("budget 2025-01")) == [["2025-01", "Food", "INR", "1000.00", "900.00", "100.00", "90.0", "80%"]])
        #expect(Self.rows(try s.run("budget 2025-02")) == [["2025-02", "Food", "INR", "2500.00", "2000.00", "500.00", "80.0", "80%"]])
    }

    @Test func alertsAtCustomThresholds() throws {
        let s = try Self.session(Self.ledger(entries: [
            Self.entry("1", "-650", "2025-01-10", "Food"), Self.entry("2", "-240", "2025-02-10", "Food"), Self.entry("3", "-900", "2025-03-10", "Food"),
        ], rest: #", "budgets": [{"category": "Food", "limitAmount": 1000, "currencyCode": "INR", "alerts": [90, 25, 60]}]"#))
        // 65.0% has passed 25 and 60: 60%. 24.0% has passed none. 90.0% reaches 90 exactly: 90%.
        let r = try s.run("budget since 2025-01 until 2025-03")
        #expect(r.rows.map { plainText($0[6]) ?? "" } == ["65.0", "24.0", "90.0"])
        #expect(r.rows.map { plainText($0[7]) ?? "" } == ["60%", "", "90%"])
    }

    @Test func aBudgetInAnotherCurrencyThanItsEntries() throws {
        let s = try Self.session(Self.ledger(entries: [Self.entry("1", "-4150", "2025-03-10", "Travel")], rest: """
            , "budgets": [{"category": "Travel", "limitAmount": 100, "currencyCode": "USD"}],
              "rates": [{"from": "USD", "to": "INR", "rate": 83, "date": "2025-03-01"}, {"from": "USD", "to": "INR", "rate": 80, "date": "2025-04-01"}]
            """))
        // ₹4,150 at the market rate of its day (83) is $50.00 of the $100 budget: 50.0%.
        #expect(Self.rows(try s.run("budget 2025-03")) == [["2025-03", "Travel", "USD", "100.00", "50.00", "50.00", "50.0", "50%"]])
        // In INR every amount converts at the month's last day, 2025-03-31 (83): ₹8,300, ₹4,150, ₹4,150.
        #expect(Self.rows(try s.run("budget 2025-03 in INR")) == [["2025-03", "Travel", "8300.00", "4150.00", "4150.00", "50.0", "50%"]])
    }

    @Test func aBudgetOfAParentCountsItsDescendantsAndItsBook() throws {
        let s = try Self.session(Self.ledger(books: #"{"id": "h", "name": "Home", "currency": "INR"}, {"id": "w", "name": "Work", "currency": "INR"}"#, entries: [
            Self.entry("1", "-300", "2025-01-10", "Groceries"), Self.entry("2", "-200", "2025-01-11", "Dining"),
            Self.entry("3", "-1000", "2025-01-12", "Dining", book: "w"),
        ], rest: """
            , "categories": [{"name": "Food"}, {"name": "Groceries", "parent": "Food"}, {"name": "Dining", "parent": "Food"}],
              "budgets": [{"category": "Food", "bookId": "h", "limitAmount": 1000, "currencyCode": "INR"}]
            """))
        // Home's Groceries 300 and Dining 200; Work's 1000 is another book's.
        #expect(Self.rows(try s.run("budget 2025-01")) == [["2025-01", "Food", "Home", "INR", "1000.00", "500.00", "500.00", "50.0", "50%"]])
        // explain names the book as the sum does (its name, not its id).
        guard case .explain(let plan, _, _) = try s.execute("explain budget 2025-01") else { Issue.record("no plan"); return }
        #expect(plan.contains(#"sum expenses in INR where category = "Food" and book = "Home" during 2025-01 = 500.00"#))
        #expect(plan.contains(#"2025-01 "Food" book "Home": limit 1000.00 INR, spent 500.00"#))
    }

    /// Rows in the order of the names shown (SPEC §4), not of the books' ids: Alpha (id z) before
    /// Zeta (id a); categories in any letter case; a budget of every book before one book's.
    @Test func budgetRowsComeInTheOrderOfTheNamesShown() throws {
        let s = try Self.session(Self.ledger(books: #"{"id": "a", "name": "Zeta", "currency": "INR"}, {"id": "z", "name": "Alpha", "currency": "INR"}"#, entries: [
            Self.entry("1", "-10", "2025-01-10", "food", book: "a"),
        ], rest: """
            , "budgets": [{"category": "food", "bookId": "a", "limitAmount": 100, "currencyCode": "INR"},
                          {"category": "food", "bookId": "z", "limitAmount": 100, "currencyCode": "INR"},
                          {"category": "Bills", "limitAmount": 100, "currencyCode": "INR"},
                          {"category": "food", "limitAmount": 100, "currencyCode": "INR"}]
            """))
        #expect(Self.rows(try s.run("budget 2025-01")).map { Array($0[1...2]) } == [["Bills", "(none)"], ["food", "(none)"], ["food", "Alpha"], ["food", "Zeta"]])
    }

    /// A `used %` or `gain %` past 38 digits fails, as every result does: an empty cell would
    /// read as a limit of 0 or less, and the budget's alert would vanish.
    @Test func aPercentagePast38DigitsIsAnErrorNotAnEmptyCell() throws {
        let s = try Self.session(Self.ledger(entries: [Self.entry("1", "-100000000000000000000", "2025-06-01", "X")], rest: """
            , "budgets": [{"category": "X", "limitAmount": 0.00000000000000000001, "currencyCode": "INR"}],
              "holdings": [{"id": "h1", "symbol": "S", "quantity": 1, "costPerUnit": 0.00000000000000000001, "currency": "INR", "date": "2025-04-01"}],
              "prices": [{"symbol": "S", "price": 100000000000000000000, "currency": "INR", "date": "2025-04-01"}]
            """), today: Day(year: 2025, month: 6, day: 15)!)
        #expect(Self.failure(s, "budget")?.kind == .overflow)
        #expect(Self.failure(s, "holdings")?.kind == .overflow)
    }

    /// A report takes no `with rate`: its missing rates say where else one comes from.
    @Test func aReportsMissingRateAdviceIsOneItTakes() throws {
        let s = try Self.session(Self.ledger(books: #"{"id": "h", "name": "Home", "currency": "INR", "openingBalance": 5}"#,
                                             entries: [Self.entry("1", "-10", "2025-03-05", "X", extra: #", "currency": "GBP""#)]))
        for statement in ["balance", "networth", "explain balance"] {
            let message = Self.failure(s, statement)?.message ?? ""
            #expect(message.hasSuffix("supply one with `set rate GBP/INR = …` for this session, or add a market rate to the ledger or with --rates"), "\(statement): \(message)")
        }
        // A query still offers its own clause.
        #expect(Self.failure(s, "sum entries in INR")?.message.hasSuffix("or `with rate GBP/INR = …` in the query") == true)
    }

    // MARK: The category tree and splits

    static let splitLedger = ledger(books: #"{"id": "a", "name": "A", "currency": "INR"}, {"id": "b", "name": "B", "currency": "INR"}, {"id": "e", "name": "E", "currency": "EUR"}"#, entries: [
        entry("1", "-100", "2025-01-10", "Shopping", book: "a", extra: #", "splits": [{"amount": -60, "category": "Groceries"}, {"amount": -40, "category": "Household", "memo": "soap"}]"#),
        entry("2", "-30", "2025-01-11", "Dining", book: "b"),
        entry("3", "-20", "2025-01-12", "Household", book: "a"),
    ], rest: #", "categories": [{"name": "Food"}, {"name": "Groceries", "parent": "Food"}, {"name": "Dining", "parent": "Food"}, {"name": "Household"}]"#)

    @Test func aSplitEntryInAParentCategoryConditionAndByBook() throws {
        let s = try Self.session(Self.splitLedger)
        // Food holds Groceries (entry 1's part of 60) and Dining (entry 2's 30): 90.
        #expect(plainText(try s.run("sum expenses where category = Food").rows.first?.first) == "90.00")
        // By book, only the matching parts: A 60, B 30.
        #expect(amounts(try s.run("sum expenses by book where category = Food")) == ["A": "60.00", "B": "30.00"])
        // Outside Food: entry 1's Household part 40 and entry 3's 20.
        #expect(plainText(try s.run("sum expenses where category != Food").rows.first?.first) == "60.00")
        // Without a category, every key counts the entry once: A has entries 1 and 3, B entry 2.
        #expect(amounts(try s.run("count expenses by book")) == ["A": "2", "B": "1"])
        #expect(amounts(try s.run("sum expenses by book")) == ["A": "120.00", "B": "30.00"])
        // By category, each part in its own category; Shopping (split whole) has nothing left.
        #expect(amounts(try s.run("sum expenses by category")) == ["Groceries": "60.00", "Household": "60.00", "Dining": "30.00"])
        #expect(amounts(try s.run("sum expenses by top category")) == ["Food": "90.00", "Household": "60.00"])
        // A count that tests category counts entries with a matching part, each once: entries 1 and 2;
        // every part of entry 1 matches `~ ""`, and it still counts once: 3 entries.
        #expect(plainText(try s.run("count expenses where category = Food").rows.first?.first) == "2")
        #expect(plainText(try s.run("count expenses where category ~ \"\"").rows.first?.first) == "3")
        #expect(amounts(try s.run("count expenses by top category")) == ["Food": "2", "Household": "2"])
        // An average divides by entries, not parts: outside Food are entry 1's Household part 40
        // and entry 3's 20, in two entries: 60 / 2.
        #expect(plainText(try s.run("avg expenses where category != Food").rows.first?.first) == "30.00")
        // Every part of entries 1, 2 and 3 (150 in all) matches `~ ""`, in three entries: 50, not 150 / 4.
        #expect(plainText(try s.run("avg expenses where category ~ \"\"").rows.first?.first) == "50.00")
        // By top category: Household holds entry 1's part 40 and entry 3's 20, two entries: 30.
        #expect(amounts(try s.run("avg expenses by top category")) == ["Food": "45.00", "Household": "30.00"])
    }

    /// `order by count` ranks by entries, whatever the aggregate: an entry whose two parts are
    /// both Food is one entry there (it ranked as two, and `top 1` kept the wrong row); an order
    /// by category alone does not make a listing list parts; `order by top category` parses.
    @Test func orderByCountAndByCategorySeeEntries() throws {
        let s = try Self.session(Self.ledger(entries: [
            #"{"id": "e1", "bookId": "h", "amount": -100, "date": "2025-10-07", "category": "Food", "splits": [{"amount": -60, "category": "Food"}, {"amount": -40, "category": "Food"}]}"#,
            #"{"id": "e2", "bookId": "h", "amount": -500, "date": "2025-10-08", "category": "Apparel"}"#,
            #"{"id": "e3", "bookId": "h", "amount": -10, "date": "2025-10-09", "category": "Groceries", "splits": [{"amount": -4, "category": "Dining"}, {"amount": -6, "category": "Groceries"}]}"#,
        ], rest: #", "categories": [{"name": "Food"}, {"name": "Dining", "parent": "Food"}, {"name": "Groceries", "parent": "Food"}]"#))
        // Each category has one entry: a tie, in key order.
        #expect(Self.rows(try s.run("sum expenses by category order by count desc")) == [["Apparel", "500.00"], ["Dining", "4.00"], ["Food", "100.00"], ["Groceries", "6.00"]])
        #expect(Self.rows(try s.run("max expenses by category order by count desc top 1")) == [["Apparel", "500.00"]])
        #expect(Self.rows(try s.run("avg expenses by category order by count desc top 1")) == [["Apparel", "500.00"]])
        // Food (a root) holds e1 and e3: two entries, first.
        #expect(Self.rows(try s.run("sum expenses by top category order by count desc")) == [["Food", "110.00"], ["Apparel", "500.00"]])
        // The in-memory kernels agree (the dense one is not used for it).
        let ledger = try LedgerLoader.load(documents: [("t.json", Self.ledger(entries: [
            #"{"id": "e1", "bookId": "h", "amount": -100, "date": "2025-10-07", "category": "Food", "splits": [{"amount": -60, "category": "Food"}, {"amount": -40, "category": "Food"}]}"#,
            #"{"id": "e2", "bookId": "h", "amount": -500, "date": "2025-10-08", "category": "Apparel"}"#]))])
        LargeGroupingTests.expectKernelsAgree(ledger, Day(year: 2025, month: 12, day: 31)!, "sum expenses by category order by count desc", [(2, 0), (Executor.parallelRows, 0)])
        // A listing ordered by category lists entries, by their own category.
        #expect(Self.rows(try s.run("list expenses order by category")).map { [$0[3], $0.last ?? ""] } == [["Apparel", "500.00"], ["Food", "100.00"], ["Groceries", "10.00"]])
        // A crosstab's rows rank by entries too (its rolled-up rows counted parts).
        #expect(Self.rows(try s.run("sum expenses by category per month order by count desc top 1")).first?.first == "Apparel")
        // `top category` orders as the group key it is.
        #expect(Self.rows(try s.run("sum expenses by top category order by top category desc")).map(\.first) == ["Food", "Apparel"])
    }

    /// An expense split into parts of both signs (a refund inside a purchase) is an expense in
    /// every part: grouped by category its parts add up to the ungrouped sum, and no part of it
    /// is an income (docs/ledger-format.md#splits: by the entry's amount).
    static let mixedSplits = Self.ledger(entries: [
        #"{"id": "e1", "bookId": "h", "amount": -100, "date": "2025-10-05", "category": "X", "splits": [{"amount": -160, "category": "G"}, {"amount": 60, "category": "H"}]}"#,
        #"{"id": "e2", "bookId": "h", "amount": 50, "date": "2025-10-06", "category": "Y", "splits": [{"amount": 70, "category": "G"}, {"amount": -20, "category": "H"}]}"#,
    ])

    @Test func aSplitEntrysPartsAreExpensesOrIncomeByTheEntrysSign() throws {
        let s = try Self.session(Self.mixedSplits)
        #expect(Self.rows(try s.run("sum expenses")) == [["100.00"]])
        // G 160 spent, H 60 given back: −60 of spending; together the 100 of the entry.
        #expect(Self.rows(try s.run("sum expenses by category")) == [["G", "160.00"], ["H", "-60.00"]])
        #expect(plainText(try s.run("sum expenses by category").totals.first?.last) == "100.00")
        #expect(Self.rows(try s.run("sum income by category")) == [["G", "70.00"], ["H", "-20.00"]])
        #expect(Self.rows(try s.run("count expenses by category")) == [["G", "1"], ["H", "1"]])
        #expect(Self.rows(try s.run("list expenses where category = H")).map { $0.last } == ["-60.00"])
        let today = Day(year: 2025, month: 12, day: 31)!
        let ledger = try LedgerLoader.load(documents: [("t.json", Self.mixedSplits)])
        for q in ["sum expenses by category", "sum income by category", "count expenses by category", "avg expenses in INR by category", "min expenses by category"] {
            LargeGroupingTests.expectKernelsAgree(ledger, today, q, [(2, 0), (Executor.parallelRows, 0)])
        }
    }

    /// A least or greatest adds up an entry's parts in one group at its booked share rate, as
    /// at any other rate: one entry of ₹300 booked, split −7 and +2 SGD, is ₹300, not its
    /// parts ₹420 and −₹120 (each part had a rate of its own, so they were never added up).
    @Test func anExtremeOfASplitAtItsBookedShareIsTheEntrysAmount() throws {
        let s = try Self.session(Self.ledger(books: #"{"id": "s", "name": "SG", "currency": "SGD"}"#, entries: [
            Self.entry("1", "-5", "2025-03-05", "X", book: "s", extra: #", "splits": [{"amount": -7, "category": "A"}, {"amount": 2, "category": "B"}], "normalizedAmount": -300, "normalizedCurrency": "INR""#),
        ]))
        for statement in ["max expenses in INR where category in (A, B)", "min expenses in INR where category in (A, B)", "sum expenses in INR where category in (A, B)"] {
            #expect(Self.rows(try s.run(statement)) == [["300.00"]], "\(statement)")
        }
        // By category each part is its own group's.
        #expect(Self.rows(try s.run("max expenses in INR by category")) == [["A", "420.00"], ["B", "-120.00"]])
    }

    @Test func aSplitOfABookedNormalizedAmountConvertsAtTheEntrysRateExactly() throws {
        // €30 booked as ₹3,001: the parts of €10 and €20 are 3001 × 10/30 = 1000.333… and
        // 2000.666…, shown 1000.33 and 2000.67, and together exactly 3001.00.
        let s = try Self.session(Self.ledger(books: #"{"id": "e", "name": "E", "currency": "EUR"}"#, entries: [
            Self.entry("1", "-30", "2025-01-10", "Trip", book: "e", extra: #", "normalizedAmount": -3001, "normalizedCurrency": "INR", "splits": [{"amount": -10, "category": "Dining"}, {"amount": -20, "category": "Groceries"}]"#),
        ], rest: #", "rates": [{"from": "EUR", "to": "INR", "rate": 90, "date": "2025-01-01"}]"#))
        let r = try s.run("sum expenses in INR by category")
        #expect(amounts(r) == ["Dining": "1000.33", "Groceries": "2000.67"])
        #expect(plainText(r.totals.first?.last) == "3001.00")
        #expect(plainText(try s.run("sum expenses in INR").rows.first?.first) == "3001.00")
    }

    // MARK: Balances, net worth, holdings

    static let wealth = ledger(books: """
        {"id": "c", "name": "Cash", "currency": "INR", "openingBalance": 1000},
        {"id": "k", "name": "Bank", "currency": "INR", "openingBalance": 10000},
        {"id": "x", "name": "Trip", "currency": "INR"}
        """, entries: [
            entry("1", "-1500", "2025-02-10", "Food", book: "c"), entry("2", "2000", "2025-05-05", "Salary", book: "k"),
            entry("3", "-50", "2025-02-11", "Food", book: "x"),
        ], rest: """
        , "rates": [{"from": "USD", "to": "INR", "rate": 83, "date": "2025-01-01"}, {"from": "USD", "to": "INR", "rate": 85, "date": "2025-06-01"}],
          "assets": [
            {"id": "flat", "name": "Flat", "type": "tangible", "value": 500000, "currency": "INR", "date": "2025-01-01", "includeInCore": false},
            {"id": "gold", "name": "Gold", "type": "tangible", "value": 100000, "currency": "INR", "date": "2025-01-01", "volatile": true},
            {"id": "gold", "name": "Gold", "type": "tangible", "value": 120000, "currency": "INR", "date": "2025-06-01", "volatile": true},
            {"id": "btc", "name": "Crypto", "type": "intangible", "value": 100, "currency": "USD", "date": "2025-03-01", "volatile": true}],
          "liabilities": [
            {"id": "loan", "name": "Loan", "type": "loan", "balance": 300000, "currency": "INR", "date": "2025-01-01"},
            {"id": "loan", "name": "Loan", "type": "loan", "balance": 280000, "currency": "INR", "date": "2025-06-01"},
            {"id": "loan", "name": "Loan", "type": "loan", "balance": 260000, "currency": "INR", "date": "2025-09-01"}],
          "holdings": [
            {"id": "l1", "symbol": "VWRA", "quantity": 10, "costPerUnit": 100, "fee": 5, "currency": "USD", "date": "2025-02-01"},
            {"id": "l2", "symbol": "VWRA", "quantity": 5, "costPerUnit": 110, "currency": "USD", "date": "2025-08-01"}],
          "prices": [{"symbol": "VWRA", "date": "2025-02-01", "price": 100, "currency": "USD"}, {"symbol": "VWRA", "date": "2025-06-15", "price": 120, "currency": "USD"}]
        """)

    @Test func balancesAreTheOpeningBalancePlusEntriesConvertedAtTheDate() throws {
        let s = try Self.session(Self.wealth)
        // Cash 1000 − 1500 = −500; Bank 10000 + 2000 = 12000 (on 2025-06-30). Trip has no opening balance.
        #expect(Self.rows(try s.run("balance at 2025-06-30")) == [["Cash", "INR", "-500.00"], ["Bank", "INR", "12000.00"]])
        // In USD at 85: −5.882… → −5.88 and 141.176… → 141.18; the total 11500/85 = 135.294… → 135.29, rounded once.
        let r = try s.run("balance by book in USD at 2025-06-30")
        #expect(Self.rows(r).map { $0.last } == ["-5.88", "141.18"])
        #expect(plainText(r.totals.first?.last) == "135.29")
        // Before Cash's expense (2025-02-01), its balance is the opening one.
        #expect(Self.rows(try s.run("balance at 2025-02-01")).first == ["Cash", "INR", "1000.00"])
    }

    /// A balance converted at the report date is the exact balance converted, rounded once: not
    /// the balance as its own currency shows it (docs/language.md#balance).
    @Test func aBalanceConvertsExactlyNotAsItsOwnCurrencyShowsIt() throws {
        // A USD account paying ₹1000 at 88.77 rupees a dollar: −11.2651… dollars, shown −11.27;
        // converted back at the same rate it is −₹1000.00 exactly (−11.27 × 88.77 would be −1000.44).
        let s = try Self.session(#"""
            {"version": 1, "defaultCurrency": "INR",
             "books": [{"id": "us", "name": "US", "currency": "USD", "openingBalance": 0}],
             "entries": [{"id": "e1", "bookId": "us", "amount": -1000, "currency": "INR", "date": "2025-10-06", "category": "Tax"}],
             "rates": [{"from": "USD", "to": "INR", "rate": 88.77, "date": "2025-10-01"}]}
            """#, today: Day(year: 2025, month: 10, day: 6)!)
        #expect(Self.rows(try s.run("balance in INR")) == [["US", "USD", "-11.27", "-1000.00"]])
        let n = try s.run("networth")
        #expect(Self.rows(n).prefix(3) == [["assets", "0.00"], ["liabilities", "1000.00"], ["net worth", "-1000.00"]])
        // Half a cent in the account's own currency: 1500 − 1 − 0.005 = 1498.995 dollars, shown
        // 1499.00 (half-even), converted at 80: ₹119919.60, not 1499.00 × 80 = ₹119920.00.
        let t = try Self.session(#"""
            {"version": 1, "defaultCurrency": "INR",
             "books": [{"id": "us", "name": "US", "currency": "USD", "openingBalance": 1500}],
             "entries": [{"id": "e1", "bookId": "us", "amount": -1, "date": "2025-10-02", "category": "Fee"},
                         {"id": "e2", "bookId": "us", "amount": -0.005, "date": "2025-10-03", "category": "Fee"}],
             "rates": [{"from": "USD", "to": "INR", "rate": 80, "date": "2025-10-01"}]}
            """#, today: Day(year: 2025, month: 10, day: 6)!)
        #expect(Self.rows(try t.run("balance in INR")) == [["US", "USD", "1499.00", "119919.60"]])
        #expect(Self.rows(try t.run("networth")).first == ["assets", "119919.60"])
    }

    @Test func netWorthWithANegativeAccountVolatileAndNonCoreAssetsALaterLotAndALiabilityHistory() throws {
        let s = try Self.session(Self.wealth)
        // On 2025-06-30: Bank 12000 is an asset, Cash −500 a liability. Flat 500000 (outside core),
        // gold 120000 (the 2025-06-01 record), crypto $100 × 85 = 8500, VWRA lot 1 only (lot 2 is
        // bought 2025-08-01): 10 × $120 × 85 = 102000. The loan's record of 2025-06-01: 280000.
        // assets 12000 + 500000 + 120000 + 8500 + 102000 = 742500; liabilities 280000 + 500 = 280500;
        // net worth 462000; core 462000 − 500000 = −38000; tangible 500000 + 120000 + (12000 − 500)
        // − 280000 = 351500; volatile 120000 + 8500 + 102000 = 230500.
        let r = try s.run("networth at 2025-06-30")
        #expect(r.names == ["measure", "amount"])
        #expect(Self.rows(r) == [["assets", "742500.00"], ["liabilities", "280500.00"], ["net worth", "462000.00"],
                                 ["core net worth", "-38000.00"], ["tangible net worth", "351500.00"], ["volatile assets", "230500.00"]])
        // History by quarter, each as of its last day. Q1 (03-31): Cash −500, Bank 10000, flat 500000,
        // gold 100000, crypto 100 × 83 = 8300, VWRA 10 × 100 × 83 = 83000; loan 300000.
        // assets 701300, liabilities 300500, net 400800. Q2 as above.
        let h = try s.run("networth by quarter since 2025-01 until 2025-06")
        #expect(Self.rows(h) == [["2025-Q1", "701300.00", "300500.00", "400800.00"], ["2025-Q2", "742500.00", "280500.00", "462000.00"]])
    }

    /// A history's periods answer as `networth at` their last days does, whether entries fall
    /// in them or not (days with the same entries before them share their balances), for centuries.
    @Test func aNetWorthHistoryAgreesWithTheNetWorthAtEachPeriodsEnd() throws {
        // Entries on a month's last day and on the next month's first, in two currencies.
        let s = try Self.session(Self.ledger(books: """
            {"id": "c", "name": "Cash", "currency": "INR", "openingBalance": 1000},
            {"id": "w", "name": "Wallet", "currency": "USD", "openingBalance": 10}
            """, entries: [
                Self.entry("1", "-300", "2025-02-28", "Food", book: "c"), Self.entry("2", "-2", "2025-03-01", "Food", book: "w"),
                Self.entry("3", "500", "2025-05-15", "Salary", book: "c"), Self.entry("4", "-1.25", "2025-05-31", "Fee", book: "w"),
            ], rest: #", "rates": [{"from": "USD", "to": "INR", "rate": 83, "date": "2025-01-01"}, {"from": "USD", "to": "INR", "rate": 85.5, "date": "2025-04-01"}]"#))
        let history = try s.run("networth by month since 2024-11 until 2025-09")
        #expect(history.rows.count == 11)
        // 2025-02: Cash 700, Wallet $10 × 83 = 830; 2025-05: Cash 1200, Wallet $6.75 × 85.5 =
        // 577.125: 1777.125 → 1777.12 (half-even, rounded once).
        #expect(Self.rows(history)[3] == ["2025-02", "1530.00", "0.00", "1530.00"])
        #expect(Self.rows(history)[6] == ["2025-05", "1777.12", "0.00", "1777.12"])
        for row in Self.rows(history) {
            guard let month = row.first, let period = Period.parse(month) else { Issue.record("no month in \(row)"); continue }
            let at = Self.rows(try s.run("networth at \(period.days.last)")).prefix(3).map { $0[1] }
            #expect(Array(row.dropFirst()) == at, "\(month)")
        }
        let years = Self.rows(try s.run("networth by year since 2025 until 2525"))
        #expect(years.count == 501)
        #expect(Array(years[years.count - 1].dropFirst()) == Self.rows(try s.run("networth at 2525-12-31")).prefix(3).map { $0[1] })
        #expect(Array(years[1].dropFirst()) == Self.rows(try s.run("networth at 2026-12-31")).prefix(3).map { $0[1] })
    }

    @Test func holdingsValueEachSymbolAtItsNewestPrice() throws {
        let s = try Self.session(Self.wealth)
        // On 2025-06-30: 10 units costing 10 × 100 + 5 = 1005, priced 120 (2025-06-15): value 1200,
        // gain 195, 195/1005 = 19.40…%; in INR at 85: 102000.
        let r = try s.run("holdings in INR at 2025-06-30")
        #expect(Self.rows(r) == [["VWRA", "USD", "10", "1005.00", "120", "2025-06-15", "1200.00", "195.00", "19.4", "102000.00"]])
    }

    @Test func aHoldingWithoutAPriceIsAnError() throws {
        let s = try Self.session(Self.wealth)
        // On 2025-01-31 no lot is held yet: nothing to price. On 2025-02-01 lot 1 is, and priced that day.
        #expect(try s.run("holdings at 2025-01-31").rows.isEmpty)
        let noPrice = try Self.session(Self.ledger(entries: [], rest: #", "holdings": [{"id": "l", "symbol": "ABC", "quantity": 1, "costPerUnit": 5, "currency": "INR", "date": "2025-03-01"}]"#))
        let e = Self.failure(noPrice, "networth")
        #expect(e?.kind == .noPrice(symbol: "ABC", day: Day(year: 2025, month: 12, day: 31)!))
        #expect(e?.message.contains("no price for \"ABC\" on or before 2025-12-31") == true)
        #expect(Self.failure(noPrice, "holdings")?.kind == .noPrice(symbol: "ABC", day: Day(year: 2025, month: 12, day: 31)!))
    }

    @Test func ofTwoPricesOnOneDayTheLaterInTheFileWins() throws {
        // As with rates (and asset records): on one date the later record counts. ABC's 12 of
        // 2025-03-01 comes after its 10 of that day: 2 units are worth 24, cost 2 × 5 = 10, gain 14, 140.0%.
        let s = try Self.session(Self.ledger(entries: [], rest: #"""
            , "holdings": [{"id": "l", "symbol": "ABC", "quantity": 2, "costPerUnit": 5, "currency": "INR", "date": "2025-03-01"}],
            "prices": [{"symbol": "ABC", "date": "2025-03-01", "price": 10, "currency": "INR"}, {"symbol": "ABC", "date": "2025-03-01", "price": 12, "currency": "INR"},
                       {"symbol": "ABC", "date": "2025-02-01", "price": 99, "currency": "INR"}]
            """#))
        #expect(Self.rows(try s.run("holdings")) == [["ABC", "INR", "2", "10.00", "12", "2025-03-01", "24.00", "14.00", "140.0"]])
        // Likewise two records of one asset on one date: the later (300) counts, not 200.
        let a = try Self.session(Self.ledger(entries: [], rest: #"""
            , "assets": [{"id": "a", "name": "Car", "type": "tangible", "value": 200, "currency": "INR", "date": "2025-03-01"},
                         {"id": "a", "name": "Car", "type": "tangible", "value": 300, "currency": "INR", "date": "2025-03-01"}]
            """#))
        #expect(Self.rows(try a.run("networth")).first == ["assets", "300.00"])
    }

    @Test func aRateWarningNamesTheLegDatedAfterTheDay() throws {
        // SGD/USD chains through INR: USD/INR 80 of 2025-01-01 is on time, SGD/INR 60 (2025-10-01) is
        // not. The warning names that leg and its date, not the chain's oldest (2025-01-01).
        // Trip's −50 SGD on 2025-06-30: −50 × 60 / 80 = −37.50 USD, a liability.
        let s = try Self.session(Self.ledger(books: #"{"id": "t", "name": "Trip", "currency": "SGD", "openingBalance": -50}"#, entries: [], rest: #"""
            , "rates": [{"from": "SGD", "to": "INR", "rate": 60, "date": "2025-10-01"}, {"from": "USD", "to": "INR", "rate": 80, "date": "2025-01-01"}]
            """#))
        let r = try s.run("networth in USD at 2025-06-30")
        #expect(Self.rows(r)[1] == ["liabilities", "37.50"])
        // USD/INR is on time but 180 days old: stale, a warning of its own.
        #expect(r.warnings == ["no market rate for SGD/INR (for SGD/USD) on or before 2025-06-30; used the oldest, dated 2025-10-01",
                               "the market rate for INR/USD (for SGD/USD) dated 2025-01-01 is more than 7 days older than 2025-06-30 (180 days)"])
        // A history warns once for that rate, however many period ends it stood in for: −50 × 60 = −3000
        // INR at the ends of Q1, Q2 and Q3; Q4 (12-31) has it on time.
        let h = try s.run("networth by quarter since 2025-01")
        #expect(Self.rows(h).map { $0[2] } == ["3000.00", "3000.00", "3000.00", "3000.00"])
        #expect(h.warnings == ["no market rate for SGD/INR on or before 2025-03-31 (nor at 2 later report dates up to 2025-09-30); used the oldest, dated 2025-10-01",
                               "the market rate for SGD/INR dated 2025-10-01 is more than 7 days older than 2025-12-31 (91 days)"])
    }

    @Test func aMissingRateNamesEveryPair() throws {
        let s = try Self.session(Self.wealth)
        // The accounts and assets in INR and the holdings and crypto in USD: both pairs named at once
        // (it named the first alone, and the next only once that one was set).
        let e = Self.failure(s, "networth in EUR")
        let (inr, usd, eur) = (Currency(code: "INR")!, Currency(code: "USD")!, Currency(code: "EUR")!)
        let day = Day(year: 2025, month: 12, day: 31)!
        #expect(e?.kind == .noRateOn([MissedReportRate(pair: CurrencyPair(inr, eur), days: [day]), MissedReportRate(pair: CurrencyPair(usd, eur), days: [day])]))
        #expect(e?.message.hasPrefix("no exchange rate for INR/EUR and USD/EUR on 2025-12-31: no custom or market rate prices them") == true)
        #expect(e?.message.contains("`set rate INR/EUR = …`, `set rate USD/EUR = …`") == true)
        // A history names the report dates each pair was missing on.
        let h = Self.failure(s, "networth by quarter since 2025-07 in EUR")
        #expect(h?.message.hasPrefix("no exchange rate for INR/EUR and USD/EUR on 2025-09-30 (and 1 later report date up to 2025-12-31):") == true)
        // `explain` shows the plan and the pairs it misses, as a query's does, rather than failing.
        guard case .explain(_, let rates, let warnings) = try s.execute("explain networth in EUR") else { Issue.record("not an explanation"); return }
        #expect(rates.suffix(2) == ["INR/EUR on 2025-12-31, which no rate supplies", "USD/EUR on 2025-12-31, which no rate supplies"])
        #expect(warnings.last?.hasPrefix("this statement cannot run until those rates are supplied") == true)
        // With one of them set for the session, the other is still named.
        _ = try s.execute("set rate USD/EUR = 0.9")
        #expect(Self.failure(s, "networth in EUR")?.kind == .noRateOn([MissedReportRate(pair: CurrencyPair(inr, eur), days: [day])]))
        // With a rate set for the session, it converts: the accounts' 11500 / 90 = 127.777… → 127.78.
        _ = try s.execute("set rate EUR/INR = 90")
        #expect(plainText(try s.run("balance in EUR at 2025-06-30").totals.first?.last) == "127.78")
    }

    @Test func ctrlCStopsAReportBetweenItsPeriods() throws {
        // Neither report asks the engine anything here (no account, no entry in Rent), so only the
        // reports' own loops can notice the interrupt.
        let s = try Self.session(Self.ledger(entries: [], rest: #"""
            , "assets": [{"id": "a", "name": "Car", "type": "tangible", "value": 10, "currency": "INR", "date": "2025-01-01"}],
              "budgets": [{"category": "Rent", "limitAmount": 10, "currencyCode": "INR"}]
            """#))
        #expect(Self.rows(try s.run("networth by quarter")).count == 4)
        s.isCancelled = { true }
        #expect(Self.failure(s, "networth by month since 1000")?.kind == .cancelled)
        #expect(Self.failure(s, "budget since 1000")?.kind == .cancelled)
    }

    @Test func explainSaysWhatEachReportAdded() throws {
        let s = try Self.session(Self.wealth)
        guard case .explain(let plan, let rates, _) = try s.execute("explain networth at 2025-06-30") else { Issue.record("no plan"); return }
        #expect(plan.hasPrefix("networth at 2025-06-30"))
        #expect(plan.contains("sum entries in INR where book = \"Cash\" until 2025-06-30 = -1500.00"))
        #expect(rates.contains { $0.hasPrefix("USD/INR on 2025-06-30: 85") })
    }
}
