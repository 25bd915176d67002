// The language's front end, case by case: how names, strings and continued lines are
// read, which errors say what, and where the caret and the hints go. The golden files
// hold the same behaviour as a user sees it; these cases pin the parts golden files
// cannot show (the value a bare name parses to, the text a statement splits into).

import AbacusCore
@testable import AbacusQuery
import Testing

@Suite struct FrontEndTests {
    /// The text value of the (single) comparison of `where …`.
    func value(_ statement: String) throws -> String? {
        guard case .query(let q) = try Parser.parse(statement), case .comparison(let c)? = q.condition,
              case .text(let s) = c.values[0].literal else { return nil }
        return s
    }

    func error(_ statement: String) -> QueryError? {
        do { _ = try Parser.parse(statement); return nil } catch { return error }
    }

    // MARK: Bare names and strings

    @Test(arguments: [
        ("count entries where party = Dr. Lal PathLabs", "Dr. Lal PathLabs"),
        ("count entries where party = 91springboard", "91springboard"),
        ("count entries where party = Tata 1mg", "Tata 1mg"),
        ("count entries where party = 7-Eleven", "7-Eleven"),
        ("count entries where party = Domino's", "Domino's"),
        ("count entries where party = In-N-Out Burger since 2025", "In-N-Out Burger"),
        ("count entries where category = Food  &  Dining", "Food  &  Dining"),
        ("count entries where category = Food &\n Dining", "Food & Dining"),
        ("count entries where category = 'Rent'", "Rent"),
        ("count entries where party = 'Domino''s'", "Domino's"),
        ("count entries where party = 'Cash in Hand'", "Cash in Hand"),
        ("count entries where remarks = \"a\\\"b\\\\c\\nd\\te\"", "a\"b\\c\nd\te"),
    ])
    func bareNamesKeepTheirSpelling(_ statement: String, _ expected: String) throws {
        #expect(try value(statement) == expected)
    }

    @Test func insideAnInListOnlyCommaAndParenthesisEndAName() throws {
        guard case .query(let q) = try Parser.parse("count entries where category in (Books, Top Up, Cash in Hand)"),
              case .comparison(let c)? = q.condition else { Issue.record("not a comparison"); return }
        #expect(c.values.map(\.literal) == [.text("Books"), .text("Top Up"), .text("Cash in Hand")])
    }

    @Test func unknownEscapesAreErrorsAtTheEscape() throws {
        let text = "count entries where category = \"R\\ent\""
        let e = try #require(error(text))
        #expect(e.kind == .unknownEscape("\\e"))
        #expect(e.range == 33..<35)
        #expect(error("count entries where category = 'R\\ent'") == nil)   // single quotes have no escapes
    }

    @Test(arguments: [
        ("count entries where category = 'Rent", "'"),
        ("count entries where category = \"Rent", "\""),
        ("count entries where category = 'Rent\n'", "'"),   // a single-quoted string stays on its line
    ])
    func unterminatedStringsNameTheirQuote(_ statement: String, _ quote: String) {
        #expect(error(statement)?.kind == .unterminatedString(quote: quote))
    }

    @Test(arguments: ["2025-10-0", "2025-1-5", "2025-10-05x", "2025-Q5"])
    func textShapedLikeADateIsOneBadDate(_ text: String) {
        #expect(error("count entries since " + text)?.kind == .badDate(text))
    }

    @Test func digitsGroupOnlyBetweenDigits() throws {
        guard case .query(let q) = try Parser.parse("count entries where amount > 1_000.5"), case .comparison(let c)? = q.condition else {
            Issue.record("not a comparison"); return
        }
        #expect(c.values[0].literal == .number(ExactDecimal("1000.5")!))
        #expect(error("count entries where amount > 1__0") != nil)
        #expect(error("count entries where amount > 1_") != nil)
    }

    /// `rates where currency …`: `=` is the code or the whole name, `!=` the others, `~` a part of either.
    @Test(arguments: [
        ("rates where currency = \"S\"", "SGD", false), ("rates where currency = sgd", "SGD", true),
        ("rates where currency = 'us dollar'", "USD", true), ("rates where currency != USD", "USD", false),
        ("rates where currency <> usd", "SGD", true), ("rates where currency ~ dollar", "SGD", true),
        // Clauses in any order; "Pound Sterling" holds an "s", "Yen" does not.
        ("rates at 2025-06-01 where currency ~ S in EUR", "GBP", true), ("rates in EUR where currency ~ S at 2025-06-01", "JPY", false),
    ])
    func ratesFilterByEqualityOrContainment(_ statement: String, _ code: String, _ kept: Bool) throws {
        guard case .rates(.day(_, let filter?, _, _)) = try Parser.parse(statement) else { Issue.record("no filter"); return }
        #expect(filter.keeps(Currency(code: code)!) == kept)
    }

    // MARK: Errors and their hints

    /// Statement → (message, hint).
    @Test(arguments: [
        ("sum expenses where category = Top Up", "expected a value (a \"quoted string\" or words), found 'Top'",
         "if \"Top Up\" is one name, put it in quotes: category = \"Top Up\""),
        ("sum expenses where party = Not Sure", "expected a value (a \"quoted string\" or words), found 'Not'",
         "if \"Not Sure\" is one name, put it in quotes: party = \"Not Sure\""),
        ("sum expenses where category = Cash in Hand by book",
         "unknown currency 'Hand': expected an ISO 4217 code such as INR, USD or EUR",
         "if \"Cash in Hand\" is one name, put it in quotes: category = \"Cash in Hand\""),
        // A wrong date after a period keyword is the error: the keyword ended the name.
        ("sum expenses where category = A during 2024-13",
         "'2024-13' is not a date: expected YYYY, YYYY-MM, YYYY-MM-DD, YYYY-Qn, YYYY-Wnn, today, this month, …", nil),
        // A better hint wins, and words running into an operator are no name.
        ("sum expenses where category = Rent and amout > 5",
         "expected a field (amount, category, book, party, payment, currency, tag, remarks, date), found 'amout'", "did you mean `amount`?"),
        ("sum expenses where category = Rent and bogus > 5",
         "expected a field (amount, category, book, party, payment, currency, tag, remarks, date), found 'bogus'", nil),
        ("sum since 2025-10 expenses", "expected a clause (in, by, per, where, since, until, before, on, during, at, with, order by, top, vs), found 'expenses'",
         "the subject comes right after `sum`: sum expenses …"),
        ("sum expenses by date", "expected a group key (category, book, party, payment, currency, tag, day, week, month, quarter, year), found 'date'",
         "did you mean `day`?"),
        ("sum expenses where date = \"2025-10-05\"",
         "expected a date (2025-10-05, 2025-10, 2025, 2025-Q4, 2025-W41, today, this month, last 30 days), found \"2025-10-05\"",
         "dates are written without quotes: 2025-10-05"),
        ("sum expenses in IRN", "unknown currency 'IRN': expected an ISO 4217 code such as INR, USD or EUR", "did you mean INR?"),
        ("exit", "expected a statement (a query: sum, count, avg, min, max, list; a report: budget, balance, networth, holdings; convert, rate, rates, set, unset, books, categories, explain, define, defines, undefine, watch, unwatch, watching, or a defined name), found 'exit'",
         "did you mean `.quit`?"),
        ("help", "expected a statement (a query: sum, count, avg, min, max, list; a report: budget, balance, networth, holdings; convert, rate, rates, set, unset, books, categories, explain, define, defines, undefine, watch, unwatch, watching, or a defined name), found 'help'",
         "did you mean `.help`?"),
        ("convert 100 SGD to INR at market at latest", "expected at most one `at` clause, found a second one", nil),
        ("rate SGD/INR with rate SGD/INR = 5 with rate SGD/INR = 6", "expected at most one `with` clause, found a second one", nil),
        ("rates in SGD where currency ~ rupee in USD", "expected at most one `in` clause, found a second one", nil),
        ("sum expenses with rate SGD/INR = 55, rate SGD/INR = 56", "a rate for SGD/INR is already given in this statement",
         "give each pair once: a rate also gives its inverse"),
        ("convert 1 SGD to INR with rate SGD/INR = 55, INR/SGD = 0.02",
         "INR/SGD is the inverse of SGD/INR, whose rate is already given in this statement", "give each pair once: a rate also gives its inverse"),
        ("count entries where category in (Rent,\n\ncount income", "this '(' is never closed: expected ')' before the end of the statement", nil),
    ] as [(String, String, String?)])
    func errorsSayWhatAndHowToFixIt(_ statement: String, _ message: String, _ hint: String?) throws {
        let e = try #require(error(statement))
        #expect(e.message == message)
        #expect(e.hint == hint)
    }

    @Test func theWordTypedIsNeverItsOwnSuggestion() {
        for statement in ["sum since 2025 expenses", "convert 1 SGD to INR at market at latest", "sum expenses by book order by book by"] {
            guard case .expected(_, _, let s)? = error(statement)?.kind else { continue }
            #expect(s == nil || !statement.lowercased().contains(" \(s ?? "") "), "\(statement)")
        }
    }

    @Test func anUnclosedParenthesisIsPointedAt() throws {
        let text = "count entries where category in (Rent,\n\ncount income"
        let e = try #require(error(text))
        #expect(e.range == 32..<33)
        let e2 = try #require(error("count entries where (category = Rent"))
        #expect(e2.kind == .unclosedParenthesis && e2.range == 20..<21)
    }

    // MARK: The caret picture

    @Test(arguments: [
        // A tab expands to the next 8-column stop on the echo line, so the caret stays under the word.
        ("count entries\twhere amout > 5", "amout", "  count entries   where amout > 5"),
        // Wide characters take two columns; a line that fits is shown whole, without "…".
        ("count entries where category = \"日本語テキスト\" and amout > 5", "amout",
         "  count entries where category = \"日本語テキスト\" and amout > 5"),
        // Control characters are shown escaped.
        ("count entries\u{1} where amout > 5", "amout", "  count entries\\u{1} where amout > 5"),
    ])
    func theCaretStandsUnderTheToken(_ statement: String, _ token: String, _ echo: String) throws {
        let e = try #require(error(statement))
        let lines = Diagnostic.render(e, statement: statement).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if e.kind == .unexpectedCharacter("\u{1}") {
            #expect(lines[0] == echo)
            #expect(lines[2] == "error: unexpected character \\u{1}")
            return
        }
        #expect(lines[0] == echo)
        let column = lines[1].firstIndex(of: "^").map { lines[1].distance(from: lines[1].startIndex, to: $0) }
        let before = String(lines[0][..<(lines[0].range(of: token)?.lowerBound ?? lines[0].endIndex)])
        #expect(column == TextWidth.of(before))
        #expect(lines[1].filter { $0 == "^" || $0 == "~" }.count == token.count)
    }

    @Test func aVeryLongValueIsCutInTheMessageAndTheEcho() throws {
        let long = String(repeating: "a", count: 300_000)
        let session = Session(ledger: try DemoLedgerTests.ledger.get(), today: Day(year: 2025, month: 12, day: 31)!)
        var caught: QueryError?
        do { _ = try session.execute("count entries where category = " + long) } catch { caught = error }
        let e = try #require(caught)
        #expect(e.message == "no category is named \"" + String(repeating: "a", count: 60) + "…\"")
        #expect(e.hint == nil)
        let picture = Diagnostic.render(e, statement: "count entries where category = " + long)
        #expect(picture.count < 400)
    }

    // MARK: Statement splitting

    @Test(arguments: [
        ("count entries \\   \nsince 2025-10\n", ["count entries  since 2025-10"]),
        ("count entries \\", ["count entries"]),
        ("count entries # see C:\\\nby book\n", ["count entries", "by book"]),
        ("count entries where party = \"A\nB\"\n", ["count entries where party = \"A\nB\""]),
        ("count entries where party = Domino's; count income", ["count entries where party = Domino's", "count income"]),
        ("count entries where category = 'a;b#c'; count income", ["count entries where category = 'a;b#c'", "count income"]),
        ("\u{FEFF}count entries\n", ["count entries"]),
    ])
    func scriptsSplitIntoStatements(_ script: String, _ statements: [String]) {
        #expect(StatementSplitter.split(script).map(\.text) == statements)
    }

    @Test(arguments: [
        ("count entries \\", true), ("count entries \\  ", true), ("count entries # C:\\", false),
        ("count entries where (", true), ("count entries where party = \"A", true),
        ("count entries where party = 'A", false), ("count entries where party = Domino's", false),
    ])
    func theREPLContinuesOpenStatements(_ text: String, _ open: Bool) {
        #expect(StatementSplitter.needsContinuation(text) == open)
    }

    @Test func aStatementOverSeveralLinesIsRememberedAsOneLineThatMeansTheSame() throws {
        let typed = "count entries where party = \"A\nB\" \\\n  and category in (Rent, # the rent\n Taxes)"
        let line = StatementSplitter.joinedLines(typed)
        #expect(line == "count entries where party = \"A\\nB\"    and category in (Rent, Taxes)")
        #expect(try value("count entries where party = \"A\\nB\"") == "A\nB")
    }
}
