// Hostile statements: whatever is typed, the answer is a result or a clear error with a
// place — never a trap, a stack overflow or a hang. A trap would end this test process.

import AbacusCore
@testable import AbacusQuery
import Testing

@Suite struct HostileStatementTests {
    func session() throws -> Session {
        Session(ledger: try DemoLedgerTests.ledger.get(), today: Day(year: 2025, month: 12, day: 31)!)
    }

    /// Runs a statement; returns the error's message, or nil when it succeeded.
    func outcome(_ s: Session, _ text: String) -> String? {
        do { _ = try s.execute(text); return nil } catch { return error.message }
    }

    @Test func deepParenthesesAreRefusedWithALimit() throws {
        let s = try session()
        let deep = "count entries where " + String(repeating: "(", count: 100_000) + "category = Rent" + String(repeating: ")", count: 100_000)
        #expect(outcome(s, deep)?.contains("nests deeper than 200 levels") == true)
        let nots = "count entries where " + String(repeating: "not ", count: 100_000) + "category = Rent"
        #expect(outcome(s, nots)?.contains("nests deeper than 200 levels") == true)
        // Within the limit, it simply works.
        let fine = "count entries where " + String(repeating: "(", count: 150) + "category = Rent" + String(repeating: ")", count: 150)
        #expect(outcome(s, fine) == nil)
    }

    @Test func longLinesStringsAndChains() throws {
        let s = try session()
        #expect(outcome(s, "count entries where " + Array(repeating: "category = Rent", count: 5_000).joined(separator: " or ")) == nil)
        #expect(outcome(s, "count entries where remarks ~ \"" + String(repeating: "x", count: 1_000_000) + "\"") == nil)
        #expect(outcome(s, "count entries where category in (" + Array(repeating: "Rent", count: 50_000).joined(separator: ",") + ")") == nil)
        #expect(outcome(s, "sum expenses " + String(repeating: "by ", count: 10_000)) != nil)
    }

    /// Runs a statement; the error when it failed.
    func failure(_ s: Session, _ text: String) -> QueryError? {
        do { _ = try s.execute(text); return nil } catch { return error }
    }

    /// Absurd inputs each get the answer or the refusal worked out for them.
    @Test(arguments: [
        ("sum expenses\u{0}", "unexpected character \\u{0}"),
        ("sum\u{7F}", "unexpected character \\u{7f}"),
        // A byte-order mark inside a statement is shown, not taken silently (scripts drop one at their start).
        ("\u{FEFF}sum expenses", "expected a statement (a query: sum, count, avg, min, max, list; a report: budget, balance, networth, holdings; convert, rate, rates, set, unset, books, categories, explain, define, defines, undefine, watch, unwatch, watching, or a defined name), found '\\u{feff}sum'"),
        ("count entries where party = \"\u{1}\u{2}\"", "no party is named \"\\u{1}\\u{2}\""),
        // A name is shown as a statement writes it: its quotes and backslashes escaped.
        ("count entries where party = \"a\\\"b\\\\c\"", "no party is named \"a\\\"b\\\\c\""),
        ("sum expenses top 99999999999999999999999999", "expected a whole number of rows above zero, found '99999999999999999999999999'"),
        ("convert 1e400 USD to INR", "expected an amount written out in digits (1000, not 1e3), found '1e400'"),
        ("sum expenses where amount > 1e3", "expected a number written out in digits (1000, not 1e3), found '1e3'"),
        ("convert 99999999999999999999999999999999999999 USD to INR", "a result needs more than 38 digits and cannot be held exactly"),
        ("set rate USD/INR = 0.00000000000000000000000000000000000001", nil),
        ("count entries during last 99999999999 days", "expected a number from 1 to 100000, found '99999999999'"),
        ("count entries since 9999-12-31", nil),
        ("count entries since 0001-01-01", nil),
        ("sum expenses where amount > -99999999999999999999999999999999999999", nil),
    ] as [(String, String?)])
    func absurdInputsGetTheirOwnAnswer(_ text: String, _ expected: String?) throws {
        #expect(outcome(try session(), text) == expected)
    }

    @Test func theLargestRowCountIsAnAnswerNotATrap() throws {
        let s = try session()
        let r = try s.run("sum expenses by category top 9223372036854775807")
        #expect(r.rows.count == (try s.run("sum expenses by category")).rows.count)
        // Since the last day there is, nothing; a single count of no rows is 0.
        #expect(try s.run("count entries since 9999-12-31").rows == [[.count(0)]])
    }

    @Test func hugeNamesAreRefusedQuicklyWithAShortMessage() throws {
        let s = try session()
        // A misspelt name is compared with the ledger's names only as far as a near miss could go.
        let cut = "\"" + String(repeating: "a", count: 60) + "…\""
        #expect(outcome(s, "count entries where category = " + String(repeating: "a", count: 3_000_000)) == "no category is named " + cut)
        #expect(outcome(s, "count entries where category = \"" + String(repeating: "a", count: 1_000_000) + "\"") == "no category is named " + cut)
        #expect(outcome(s, "sum expenses " + String(repeating: "x", count: 1_000_000))?.hasSuffix("found '" + String(repeating: "x", count: 60) + "…'") == true)
        // The loader's dangling-id hint uses the same search.
        #expect(nearest(String(repeating: "b", count: 10_000_000), in: ["b1", "b2"]) == nil)
        #expect(editDistance(String(repeating: "a", count: 1_000_000), String(repeating: "a", count: 1_000_001), limit: 2) == 1)
    }

    @Test func controlCharactersAreShownEscaped() throws {
        let s = try session()
        #expect(outcome(s, "count entries\u{1} where category = Rent") == "unexpected character \\u{1}")
        #expect(outcome(s, "count entries where party = \"\u{1}\u{2}\"") == "no party is named \"\\u{1}\\u{2}\"")
        #expect(outcome(s, "count entries where party = \"\u{202E}x\"")?.contains("\\u{202e}") == true)
    }

    /// Names from the ledger in `explain` (a query's WHERE, a report's sums and budgets) with
    /// their invisible characters written out: a book's escape sequence set the terminal's
    /// title, a category's newline split the plan's line.
    @Test func explainShowsLedgerNamesEscaped() throws {
        let hostileBook = "Main\u{1B}]0;pwned\u{7}", hostileCategory = "Snacks\u{1B}[2J\u{202E}X\nY"
        let ledger = try LedgerLoader.load(documents: [("hostile.json", #"""
            {"version": 1, "defaultCurrency": "INR", "books": [{"id": "b1", "name": "Main\u001b]0;pwned\u0007", "currency": "INR"}],
             "entries": [{"id": "e1", "bookId": "b1", "date": "2026-01-15", "category": "Food", "amount": -1},
                         {"id": "e2", "bookId": "b1", "date": "2026-01-15", "category": "Snacks\u001b[2J\u202eX\nY", "amount": -2}],
             "categories": [{"name": "Food"}, {"name": "Snacks\u001b[2J\u202eX\nY", "parent": "Food"}],
             "budgets": [{"category": "Food", "limitAmount": 100, "currencyCode": "INR", "bookId": "b1"}]}
            """#)])
        #expect(ledger.books.first?.name == hostileBook && ledger.entries.categories.contains(hostileCategory))
        let s = Session(ledger: ledger, today: Day(year: 2026, month: 6, day: 30)!)
        for statement in ["explain sum expenses where category = food", "explain budget during 2026-01", "explain networth"] {
            guard case .explain(let plan, let rates, let warnings) = try s.execute(statement) else { Issue.record("\(statement): not an explanation"); continue }
            let text = ([plan] + rates + warnings).joined(separator: "\n")
            #expect(!text.unicodeScalars.contains { ShownText.isInvisible($0) && $0 != "\n" }, "\(statement)")
            #expect(text.split(separator: "\n").allSatisfy { !$0.hasPrefix("Y") }, "\(statement): a name's newline split a line")
        }
        guard case .explain(let plan, _, _) = try s.execute("explain sum expenses where category = food") else { return }
        #expect(plan.contains(#"WHERE category in ("Food", "Snacks\e[2J\u{202e}X\nY")"#))
        guard case .explain(let budget, _, _) = try s.execute("explain budget during 2026-01") else { return }
        #expect(budget.contains(#"2026-01 "Food" book "Main\e]0;pwned\u{7}": limit 100.00 INR"#))
    }

    /// A defined name called without parentheses is told how a call is written (it read
    /// "expected a statement … or a defined name, found 'monthly'"); a number with a stray
    /// point is told what a number is (it read "at most 38 digits").
    @Test func aCallWithoutParenthesesAndAStrayPointSayWhatIsMeant() throws {
        let s = try session()
        _ = try s.execute("define monthly(m) as sum expenses by category during $m top 5")
        let call = failure(s, "monthly 2025-10")
        #expect(call?.message == "monthly is a defined name: its arguments go in parentheses, monthly(2025-10)")
        #expect(call?.range == 0..<7)
        // An undefined word still says what a statement is.
        #expect(failure(s, "weekly 2025-10")?.message.hasPrefix("expected a statement") == true)
        for (statement, found) in [("convert 5. SGD to INR", "'5.'"), ("convert 1.2.3 SGD to INR", "'1.2.3'"), ("count expenses where amount > 5.", "'5.'")] {
            let message = failure(s, statement)?.message ?? ""
            #expect(message.contains("written as digits with at most one point between them (5 or 5.25), found \(found)"), "\(statement): \(message)")
        }
        #expect(failure(s, "convert 123456789012345678901234567890123456789 SGD to INR")?.message.contains("at most 38 digits") == true)
    }

    /// Every keyword in every place: each statement answers, or fails with a caret inside the
    /// statement, under the very text the message says it found.
    @Test func everyKeywordInEveryPlace() throws {
        let s = try session()
        let words = Array(Keywords.all).sorted() + ["--force", "(", ")", ",", "=", "~", "/", "\"", "2025", "2025-10", "12.5", "INR"]
        let frames = ["%", "sum %", "sum expenses %", "sum expenses by %", "count entries where %", "count entries where category = %",
                      "sum expenses in %", "convert 100 % to INR", "rate %", "rates %", "set %", "explain %", "sum expenses at %",
                      "sum expenses with rate %", "sum expenses order by %", "list entries top %", "count entries where (%"]
        var errors = 0
        for frame in frames {
            for w in words {
                let text = frame.replacingOccurrences(of: "%", with: w)
                guard let e = failure(s, text) else { continue }
                errors += 1
                #expect(!e.message.isEmpty, "\(text)")
                guard let range = e.range else { continue }
                let bytes = Array(text.utf8)
                #expect(range.lowerBound >= 0 && range.upperBound <= bytes.count, "\(text)")
                // "found 'X'" names the text under the caret.
                if let found = e.message.range(of: "found '"), range.upperBound <= bytes.count {
                    let quoted = e.message[found.upperBound...].prefix { $0 != "'" }
                    #expect(String(decoding: bytes[range], as: UTF8.self).hasPrefix(quoted), "\(text): \(e.message)")
                }
            }
        }
        // Most of these are wrong, and each said so.
        #expect(errors > frames.count * words.count / 2)
    }
}
