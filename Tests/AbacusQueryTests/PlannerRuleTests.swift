// The planner's rules about names and ordering: which entries a name picks when the
// ledger holds it in two letter cases, which suggestions a misspelt name gets, and
// which `order by` a result can follow.

import AbacusCore
@testable import AbacusQuery
import Testing

@Suite struct PlannerRuleTests {
    /// Books "Main" and "main", categories "Rent" and "rent": names that differ only in case.
    static let caseLedger = Result {
        try LedgerLoader.load(documents: [(name: "case.json", text: """
        {"version": 1, "defaultCurrency": "INR",
         "books": [{"id": "b1", "name": "Main", "currency": "INR", "lockedExchangeRate": null, "targetCurrency": "INR", "rateLockedAt": null},
                   {"id": "b2", "name": "main", "currency": "INR", "lockedExchangeRate": null, "targetCurrency": "INR", "rateLockedAt": null}],
         "entries": [{"id": "e1", "bookId": "b1", "amount": -1, "date": "2025-01-01", "category": "Rent"},
                     {"id": "e2", "bookId": "b2", "amount": -2, "date": "2025-01-01", "category": "rent"},
                     {"id": "e3", "bookId": "b2", "amount": -4, "date": "2025-01-01", "category": "Food"}]}
        """)])
    }

    func demo() throws -> Session {
        Session(ledger: try DemoLedgerTests.ledger.get(), today: Day(year: 2025, month: 12, day: 31)!)
    }

    func total(_ s: Session, _ q: String) throws -> Cell? {
        try s.run(q).rows.first?.last
    }

    /// Statement → the sum it gives: an exact match wins, letter case decides only when there is none.
    @Test(arguments: [
        ("sum entries where book = main", "-6"), ("sum entries where book = Main", "-1"), ("sum entries where book = MAIN", "-7"),
        ("sum entries where category = rent", "-2"), ("sum entries where category = Rent", "-1"),
        ("sum entries where category = RENT", "-3"), ("sum entries where category = food", "-4"),
        ("sum entries where category in (rent, Food)", "-6"), ("sum entries where category != rent", "-5"),
        ("sum entries where book = b1", "-1"),
    ])
    func anExactNameWinsOverOneInAnotherCase(_ q: String, _ expected: String) throws {
        let s = Session(ledger: try PlannerRuleTests.caseLedger.get(), today: Day(year: 2025, month: 12, day: 31)!)
        #expect(try total(s, q) == .money(ExactDecimal(expected)!.rounded(toScale: 2), Currency(code: "INR")!))
    }

    /// Value typed → the names suggested for it among the demo's categories.
    @Test(arguments: [
        ("5", []), ("", []), ("x", []), ("Fod", ["Food & Dining"]), ("rnt", ["Rent", "Entertainment"]),   // a whole-name near miss first, then a near prefix
        (String(repeating: "a", count: 300_000), []),
    ] as [(String, [String])])
    func suggestionsAreNearMissesOnly(_ typed: String, _ expected: [String]) throws {
        let names = try DemoLedgerTests.ledger.get().entries.categories
        #expect(Spelling.suggestions(for: typed, in: names) == expected)
    }

    @Test func aCurrencyNearMissPrefersTheLedgersOwnCodes() throws {
        let s = try demo()
        var caught: QueryError?
        do { _ = try s.run("sum expenses where currency = IRN") } catch { caught = error }
        #expect(caught?.hint == "did you mean INR?")
    }

    // MARK: order by

    func plan(_ q: String) throws -> Plan { try demo().plan(q) }

    func planError(_ q: String) throws -> QueryError? {
        let s = try demo()
        do { _ = try s.plan(q); return nil } catch { return error }
    }

    @Test func orderByCountRanksMoneyResultsByTheirEntries() throws {
        let p = try plan("sum expenses by book order by count desc")
        #expect(p.ranksByEntryCount && p.order?.key == .value && p.order?.descending == true)
        #expect(p.description.contains("ORDER BY count desc"))
        // For `count`, the count is the value: no separate ranking.
        let c = try plan("count entries by book order by count")
        #expect(!c.ranksByEntryCount && c.order?.key == .value)
        #expect(try !plan("avg expenses by book order by amount").ranksByEntryCount)
    }

    @Test(arguments: [
        ("count entries by book order by amount desc", QueryError.Kind.countHasNoAmount),
        ("list entries order by count", .listHasNoCount),
        ("list entries order by month", .listCannotOrder(by: "month")),
        ("list entries order by currency", .listCannotOrder(by: "currency")),
        ("list expenses order by payment", .listCannotOrder(by: "payment")),
    ])
    func orderingsAResultCannotFollow(_ q: String, _ kind: QueryError.Kind) throws {
        let e = try #require(try planError(q))
        #expect(e.kind == kind)
        #expect(e.range.map { String(q.utf8.dropFirst($0.lowerBound)) ?? "" }?.hasPrefix("order by") == true)
    }

    @Test(arguments: ["list entries order by book top 2", "list expenses order by category desc", "list entries order by party",
                      "list entries in native order by currency"])
    func aListingOrdersByTheColumnsItShows(_ q: String) throws {
        guard case .key? = try plan(q).order?.key else { Issue.record("no key order: \(q)"); return }
    }

    // MARK: The logical plan

    @Test func inNativeGroupsByCurrencyAndThePlanSaysSo() throws {
        let s = try demo()
        let logical = try s.logicalPlan("sum expenses in native by book")
        #expect(logical.groupBy == [.book, .currency] && logical.impliesCurrencyKey)
        #expect(try s.plan("explain sum expenses in native by book").description.contains("GROUP BY book, currency (currency: in native)"))
        // Naming currency keeps it where it was written.
        #expect(try s.logicalPlan("sum expenses in native by currency, book").groupBy == [.currency, .book])
        // Four keys of one's own and the currency in native: five columns of keys, and an answer.
        let r = try s.run("sum expenses in native by book, category, party, tag")
        #expect(r.names == ["book", "category", "party", "tag", "currency", "amount"])
        #expect(!r.rows.isEmpty)
        // Five of one's own is one too many, with the caret on the keys.
        let e = try #require(try planError("sum expenses by book, category, party, tag, month"))
        #expect(e.kind == .tooManyGroupKeys(5) && e.range != nil)
    }

    @Test func theLogicalPlanHoldsLedgerNamesAndDaysNotCodes() throws {
        let s = try demo()
        let p = try s.logicalPlan("sum expenses where category in (rent, Taxes) and party = (none) and date >= 2025-10 during 2025")
        #expect(p.days == DayRange(Day(year: 2025, month: 10, day: 1)!, Day(year: 2025, month: 12, day: 31)!))
        #expect(p.condition == .and([.names(.category, ["Rent", "Taxes"]), .names(.party, [nil])]))
        #expect(p.description.contains("WHERE category in (\"Rent\", \"Taxes\") and party = (none)"))
    }

    @Test func everyTextContainsTheEmptyText() throws {
        let s = try demo()
        let withParty = try s.run("count entries where party != (none)").rows
        #expect(try s.run("count entries where party ~ ''").rows == withParty)
        #expect(try s.run("count entries where category ~ \"\"").rows == (try s.run("count entries")).rows)
    }
}
