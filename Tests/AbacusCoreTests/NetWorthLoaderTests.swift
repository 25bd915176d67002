// Refusal rules of the optional ledger parts (docs/ledger-format.md#budgets, #categories,
// #splits, #assets, #liabilities, #holdings): each bad document is the minimal ledger with
// one part added or changed, refused whole with its file, line and JSON path.

import Foundation
import Testing
@testable import AbacusCore

/// The minimal ledger with `part` (one or more top-level fields) on line 12, after customRates.
func ledger(with part: String, books: String = book1, e1: String = entry1) -> String {
    ledger(books: books, e1: e1, customRates: "], " + part + #", "_": ["#)
}

let netWorthCases: [BadCase] = [
    BadCase("splits that do not add up to the amount",
            ledger(e1: entry1(replacing: #""category": "Food""#, with: #""category": "Food", "splits": [{"amount": -10, "category": "Food"}, {"amount": -2, "category": "Tea"}]"#)),
            path: "entries[0].splits", line: 8, "the splits add up to -12, not to the entry's amount -12.5", "must add up exactly"),
    BadCase("a split without a category",
            ledger(e1: entry1(replacing: #""category": "Food""#, with: #""category": "Food", "splits": [{"amount": -12.50}]"#)),
            path: "entries[0].splits[0]", line: 8, #"missing "category" in this split"#),
    BadCase("an empty splits array",
            ledger(e1: entry1(replacing: #""category": "Food""#, with: #""category": "Food", "splits": []"#)),
            path: "entries[0].splits", line: 8, "an empty splits array"),
    BadCase("a category whose parent is not listed",
            ledger(with: #""categories": [{"name": "Food"}, {"name": "Tea", "parent": "Fod"}]"#),
            path: "categories[1].parent", line: 12, #"unknown parent "Fod""#, #"did you mean "Food"?"#),
    BadCase("a cycle in the category tree",
            ledger(with: #""categories": [{"name": "A", "parent": "B"}, {"name": "B", "parent": "A"}]"#),
            path: "categories[0].parent", line: 12, "the category tree has a cycle", #""A" → "B" → "A""#),
    BadCase("a category listed twice",
            ledger(with: #""categories": [{"name": "Food"}, {"name": "Food", "parent": null}]"#),
            path: "categories[1].name", line: 12, #"category "Food" is listed twice"#),
    BadCase("a budget naming a missing book",
            ledger(with: #""budgets": [{"category": "Food", "limitAmount": 10, "currencyCode": "INR", "bookId": "b9"}]"#),
            path: "budgets[0].bookId", line: 12, #"no book has id "b9""#),
    BadCase("two budgets for every month of one category",
            ledger(with: #""budgets": [{"category": "Food", "limitAmount": 10, "currencyCode": "INR"}, {"category": "Food", "limitAmount": 20, "currencyCode": "INR"}]"#),
            path: "budgets[1]", line: 12, #"a second budget for "Food" in every month"#, "budgets[0]"),
    BadCase("two budgets for one month of one category and book",
            ledger(with: #""budgets": [{"category": "Food", "bookId": "b1", "month": "2025-10", "limitAmount": 10, "currencyCode": "INR"}, {"category": "Food", "month": "2025-10", "limitAmount": 5, "currencyCode": "INR"}, {"category": "Food", "month": "2025-10", "bookId": "b1", "limitAmount": 20, "currencyCode": "USD"}]"#),
            path: "budgets[2]", line: 12, #"a second budget for "Food" in book "b1" in 2025-10"#, "budgets[0]"),
    BadCase("a key twice in a split",
            ledger(e1: entry1(replacing: #""category": "Food""#, with: #""category": "Food", "splits": [{"amount": -12.5, "category": "Food", "amount": -12.5}]"#)),
            path: "entries[0].splits[0].amount", line: 8, #"duplicate key "amount" in one object"#),
    BadCase("carry-over on a budget for one month",
            ledger(with: #""budgets": [{"category": "Food", "month": "2025-10", "limitAmount": 10, "currencyCode": "INR", "carryOver": true}]"#),
            path: "budgets[0].carryOver", line: 12, "carryOver is for a budget without"),
    BadCase("an alert that is not positive",
            ledger(with: #""budgets": [{"category": "Food", "limitAmount": 10, "currencyCode": "INR", "alerts": [50, 0]}]"#),
            path: "budgets[0].alerts[1]", line: 12, "must be positive"),
    BadCase("a start month that is not a month",
            ledger(with: #""budgets": [{"category": "Food", "limitAmount": 10, "currencyCode": "INR", "carryOver": true, "startMonth": "2025-13"}]"#),
            path: "budgets[0].startMonth", line: 12, "expected a month YYYY-MM"),
    BadCase("an opening balance that is not a number",
            ledger(books: book1(replacing: #""currency": "INR""#, with: #""currency": "INR", "openingBalance": "100""#)),
            path: "books[0].openingBalance", line: 5, "expected a number"),
    BadCase("an asset of an unknown type",
            ledger(with: #""assets": [{"id": "a", "name": "Car", "type": "car", "value": 10, "currency": "INR", "date": "2025-01-01"}]"#),
            path: "assets[0].type", line: 12, #"expected "tangible" or "intangible""#),
    BadCase("an asset without a date",
            ledger(with: #""assets": [{"id": "a", "name": "Car", "type": "tangible", "value": 10, "currency": "INR"}]"#),
            path: "assets[0]", line: 12, #"missing "date""#),
    BadCase("a negative liability",
            ledger(with: #""liabilities": [{"id": "l", "name": "Loan", "balance": -5, "currency": "INR", "date": "2025-01-01"}]"#),
            path: "liabilities[0].balance", line: 12, "must not be negative"),
    BadCase("a lot of no units",
            ledger(with: #""holdings": [{"id": "h", "symbol": "ABC", "quantity": 0, "costPerUnit": 1, "currency": "INR", "date": "2025-01-01"}]"#),
            path: "holdings[0].quantity", line: 12, "must be positive"),
    BadCase("two lots with one id",
            ledger(with: #""holdings": [{"id": "h", "symbol": "ABC", "quantity": 1, "costPerUnit": 1, "currency": "INR", "date": "2025-01-01"}, {"id": "h", "symbol": "ABC", "quantity": 2, "costPerUnit": 1, "currency": "INR", "date": "2025-02-01"}]"#),
            path: "holdings[1].id", line: 12, #"duplicate holding id "h""#),
    BadCase("a price in an unknown currency",
            ledger(with: #""prices": [{"symbol": "ABC", "date": "2025-01-01", "price": 3, "currency": "XYZ"}]"#),
            path: "prices[0].currency", line: 12, "ISO 4217"),
    BadCase("a symbol priced in another currency than its lots",
            ledger(with: #""holdings": [{"id": "h", "symbol": "ABC", "quantity": 1, "costPerUnit": 1, "currency": "INR", "date": "2025-01-01"}], "prices": [{"symbol": "ABC", "date": "2025-01-01", "price": 3, "currency": "USD"}]"#),
            path: "prices[0].currency", line: 12, "a symbol's lots and prices are in one currency"),
]

@Test(arguments: netWorthCases)
func netWorthPartsAreRefused(_ c: BadCase) throws {
    try loaderRefuses(c)
}

@Test func theNetWorthPartsLoad() throws {
    let l = try load(ledger(with: """
        "categories": [{"name": "Meals"}, {"name": "Food", "parent": "Meals"}],
        "budgets": [{"category": "Meals", "limitAmount": 100, "currencyCode": "INR", "bookId": "b1", "alerts": [90, 40], "carryOver": true, "startMonth": "2025-09"}],
        "assets": [{"id": "a", "name": "Car", "type": "tangible", "value": 10, "currency": "INR", "date": "2025-01-01", "volatile": true, "includeInCore": false}],
        "liabilities": [{"id": "l", "name": "Loan", "type": "loan", "balance": 5, "currency": "INR", "date": "2025-01-01", "interestRate": 8.5, "dueDate": "2030-01-01"}],
        "holdings": [{"id": "h", "account": "Broker", "symbol": "ABC", "quantity": 2, "costPerUnit": 1.5, "fee": 0.1, "currency": "INR", "date": "2025-01-01"}],
        "prices": [{"symbol": "ABC", "date": "2025-01-01", "price": 3, "currency": "INR", "source": "close"}]
        """, books: book1(replacing: #""currency": "INR""#, with: #""currency": "INR", "openingBalance": 250.5, "includeInNetWorth": false"#),
        e1: entry1(replacing: #""category": "Food""#, with: #""category": "Food", "splits": [{"amount": -10.125, "category": "Food"}, {"amount": -2.375, "category": "Tea", "memo": "chai"}]"#)))
    #expect(l.books[0].openingBalance == ExactDecimal("250.5") && l.books[0].includeInNetWorth == false)
    let b = l.budgets[0]
    #expect(b.bookID == "b1" && b.carryOver && b.startMonth == Day(year: 2025, month: 9, day: 1) && b.alerts == [ExactDecimal(40), ExactDecimal(90)])
    #expect(l.categoryLinks == [CategoryLink(name: "Meals", parent: nil), CategoryLink(name: "Food", parent: "Meals")])
    #expect(l.assets.count == 1 && l.liabilities.count == 1 && l.holdings.count == 1 && l.prices.count == 1)
    // The parts are held at the store's one scale: three decimals, as the splits write them.
    guard let r = row(of: "e1", in: l), let parts = l.splits.parts(ofRow: r) else { Issue.record("no split entry"); return }
    #expect(parts.map(\.amount) == [ExactDecimal("-10.125"), ExactDecimal("-2.375")])
    #expect(l.entries.amountScale == 3 && l.entries.amount(at: r) == ExactDecimal("-12.5"))
    // Split and tree categories are in the dictionary, so that conditions can name them.
    #expect(Set(["Meals", "Tea"]).isSubset(of: Set(l.entries.categories)))
    // The split view: e1 becomes its two parts; e2 stays one row.
    let view = l.splitView()
    #expect(view.entries.count == l.entries.count + 1)
    #expect(view.isSplitView && view.splits.isEmpty)
}

@Test func aDeepCategoryTreeIsCheckedWalkingEachCategoryOnce() throws {
    // A chain of 2000 categories, c1999 under c1998 … under c0: each walks up to c0, and the
    // walks are remembered (walked afresh, the check took ~50 s for this chain and grew with the cube).
    let chain = (0..<2000).map { i in i == 0 ? #"{"name": "c0"}"# : #"{"name": "c\#(i)", "parent": "c\#(i - 1)"}"# }
    let l = try load(ledger(with: #""categories": [\#(chain.joined(separator: ", "))]"#))
    #expect(l.categoryLinks.count == 2000)
    #expect(l.rootCategories(["c1999", "c1000", "c0", "Food"]) == ["c0", "c0", "c0", "Food"])
    // A cycle hanging under the chain is still found at its first member, named in order.
    let cyclic = chain + [#"{"name": "x", "parent": "y"}"#, #"{"name": "y", "parent": "z"}"#, #"{"name": "z", "parent": "x"}"#,
                          #"{"name": "w", "parent": "x"}"#]
    let e = #expect(throws: LoadError.self) { try load(ledger(with: #""categories": [\#(cyclic.joined(separator: ", "))]"#)) }
    #expect(e?.path == "categories[2000].parent")
    #expect(e?.message == #"the category tree has a cycle: "x" → "y" → "z" → "x""#)
}

@Test func anUnknownParentNeverSuggestsTheCategoryItself() throws {
    // "Grocerie" is one edit from "Groceries" itself and two from "Grocery": only "Grocery"
    // can be meant, as a category under itself would be a cycle.
    let e = #expect(throws: LoadError.self) {
        try load(ledger(with: #""categories": [{"name": "Grocery"}, {"name": "Groceries", "parent": "Grocerie"}]"#))
    }
    #expect(e?.message == #"unknown parent "Grocerie": a parent must itself be listed in categories; did you mean "Grocery"?"#)
    let alone = #expect(throws: LoadError.self) { try load(ledger(with: #""categories": [{"name": "Tea", "parent": "Tee"}]"#)) }
    #expect(alone?.message == #"unknown parent "Tee": a parent must itself be listed in categories"#)
}
