// Tab completion in context, without a terminal: where the word at the cursor begins,
// and what may replace it.

import AbacusCore
import Foundation
@testable import AbacusShell
import Testing

@Suite struct CompleterTests {
    static let completer: Completer? = (try? LedgerLoader.load(paths: [Golden.demo])).map { Completer(ledger: $0) }

    /// The candidates for the word that ends `line` (the cursor at its end).
    func complete(_ line: String) throws -> [String] {
        try #require(CompleterTests.completer).complete(line).candidates
    }

    /// The word libedit is told to replace.
    func word(_ line: String) throws -> String {
        let c = try #require(CompleterTests.completer).complete(line)
        return String(decoding: Array(line.utf8)[c.wordStart...], as: UTF8.self)
    }

    @Test func statementsAndDotCommandsAtTheStart() throws {
        #expect(try complete("co") == ["count", "convert"])
        #expect(try complete(".fo") == [".format"])
        #expect(try complete(".format c") == ["csv", "chart"])
        #expect(try complete(".set rates-") == ["rates-url", "rates-key"])
    }

    @Test func reportsAndDefinedNames() throws {
        #expect(try complete("sum expenses by category pe") == ["per"])
        #expect(try complete("sum expenses by category per mo") == ["month"])
        #expect(try complete("sum expenses during 2025-10 vs pre") == ["previous"])
        #expect(try complete("sum expenses during 2025-10 vs previous ") == ["period"])
        #expect(try complete("sum expenses during 2025-10 vs same period ") == ["last"])
        #expect(try complete("sum expenses during 2025-10 vs same period last ") == ["year"])
        // A clause used once is not offered again.
        #expect(try !complete("sum expenses by book per month ").contains("per"))
        var c = try #require(CompleterTests.completer)
        c.defined = ["monthly", "mine"]
        #expect(c.complete("mon").candidates == ["monthly"])
        #expect(c.complete("undefine mi").candidates == ["mine"])
        #expect(c.complete(".help mon").candidates == ["monthly"])
    }

    @Test func onlyWhatTheParserTakesComesNext() throws {
        // A subject stands only right after the aggregate; a clause already used is not offered again.
        #expect(try !complete("sum expenses by category ").contains("expenses"))
        #expect(try !complete("sum expenses by category ").contains("by"))
        #expect(try complete("sum expenses by category ").contains("where"))
        // After a condition: more conditions, and every clause not yet used, `by` among them.
        #expect(try complete("sum expenses where amount > 5 ").contains("by"))
        #expect(try !complete("sum expenses where amount > 5 ").contains("where"))
        // `in (` of a condition leaves the currency clause free.
        #expect(try complete("sum expenses where category in (Rent) ").contains("in"))
        // A missing value is offered unquoted (quoted, "(none)" would be a name).
        #expect(try complete("count entries where party = ").contains("(none)"))
        #expect(try !complete("count entries where category = ").contains("(none)"))
    }

    @Test func sharesAndRunningTotalsAfterWith() throws {
        #expect(try complete("sum expenses by category with ") == ["rate", "share", "running"])
        #expect(try complete("sum expenses by category with running ") == ["total"])
        #expect(try complete("sum expenses with ") == ["rate"])
    }

    @Test func unitsAfterConvert() throws {
        #expect(try complete("convert 5 k").contains("kg"))
        #expect(try complete("convert 5 kg to ") == ["mg", "g", "oz", "lb", "st"])
        #expect(try complete("convert 72 F to ") == ["C", "K"])
    }

    @Test func groupKeysAfterBy() throws {
        #expect(try complete("sum expenses by bo") == ["book"])
        #expect(try complete("sum expenses by book, mo") == ["month"])
    }

    @Test func orderByOffersOnlyWhatCanOrderTheResult() throws {
        // A grouped result orders by its value or one of its own keys (the planner refuses the rest).
        #expect(try complete("sum expenses by category order by ") == ["amount", "count", "category"])
        #expect(try complete("sum expenses by book, month order by m") == ["month"])
        #expect(try complete("list expenses order by ") == ["amount", "date", "book", "category", "party"])
        #expect(try complete("sum expenses by book order by amount ") == ["desc", "asc", "top"])
    }

    @Test func fieldsAfterWhereAndOr() throws {
        #expect(try complete("sum expenses where pa") == ["party", "payment"])
        #expect(try complete("sum expenses where book = Home and ca") == ["category"])
    }

    @Test func andOrAndClausesAfterACondition() throws {
        let next = try complete("sum expenses where category = Rent ")
        #expect(next.prefix(2) == ["and", "or"])
        #expect(next.contains("since") && !next.contains("expenses") && !next.contains("where"))
        #expect(try complete("sum expenses where category in (Rent, Taxes) o") == ["or", "on", "order"])
        #expect(try complete("sum expenses where amount > 500 a") == ["and", "at"])
    }

    @Test func ledgerNamesAfterAComparisonQuotedWhenNeeded() throws {
        #expect(try complete("sum expenses where category = Foo") == ["\"Food & Dining\""])
        #expect(try complete("sum expenses where book = Sing") == ["\"Singapore Trip\""])
        #expect(try complete("sum expenses where category in (Rent, Ta") == ["Taxes"])
        #expect(try complete("sum expenses where tag = wo") == ["work"])
    }

    @Test func namesInsideAListAfterTheParenthesis() throws {
        #expect(try complete("sum expenses where category in (R") == ["Rent"])
        let all = try complete("sum expenses where category in (")
        #expect(all.contains("Rent") && all.contains("\"Food & Dining\"") && !all.contains("amount"))
    }

    @Test func aWordBeginningAtAnOpenQuoteKeepsItsSpaces() throws {
        // "Café de Flore" and "Café Einstein" share `Café `: after that, the space must not end the word.
        #expect(try word("sum expenses where party = \"Café E") == "Café E")
        #expect(try complete("sum expenses where party = \"Café E") == ["Café Einstein\""])
        #expect(try complete("sum expenses where party = \"café") == ["Café de Flore\"", "Café Einstein\""])
        #expect(try complete("sum expenses where category = \"Food & D") == ["Food & Dining\""])
        #expect(try complete("sum expenses where book = \"Singapore T") == ["Singapore Trip\""])
        // Right after the quote, libedit's own rules look one character further back.
        let empty = try #require(CompleterTests.completer).complete("sum expenses where book = \"")
        #expect(empty.breakCharacters == "\" " && empty.candidates.count == 6)
    }

    @Test func currencyCodesPreferTheLedgersOwn() throws {
        #expect(try complete("sum expenses in SG") == ["SGD"])
        // The ledger's six currencies and `native`, not all 181 ISO codes.
        let own = try #require(CompleterTests.completer).ledger.entries.currencies.map(\.code)
        #expect(own.count == 6)
        #expect(try complete("sum expenses in ") == own + ["native"])
        // A code the ledger does not use still completes, from every ISO code.
        #expect(try complete("convert 100 US") == ["USD"])
        #expect(try complete("convert 100 XA").contains("XAU"))
        #expect(try complete("convert 100 SGD to IN") == ["INR"])
        #expect(try complete("rate SGD/IN") == ["INR"])
        #expect(try complete("sum expenses in na") == ["native"])
    }

    @Test func whatFollowsRatesAndConvert() throws {
        #expect(try complete("rates st") == ["status"])
        #expect(try complete("rates re") == ["refresh"])
        #expect(try complete("rates w") == ["watched", "where"])
        #expect(try complete("convert 100 SGD ") == ["to"])
        // `rates where` tests the currency only; `rates refresh` takes a code or --force, not clauses.
        #expect(try complete("rates where ") == ["currency"])
        #expect(try complete("rates watched ") == ["in", "where", "at"])
        #expect(try complete("rates in USD ") == ["where", "at"])
        #expect(try complete("rates refresh --") == ["--force"])
        #expect(try complete("rates refresh USD ") == ["--force"])
        #expect(try complete("rates SGD/INR ") == ["since"])
        #expect(try complete("rates SGD/INR since 2025 ") == [])
        #expect(try complete("rates status ") == [])
    }

    /// `watch` takes currency codes, `unwatch` the codes watched; never a query's clauses,
    /// nor a lower-cased rewrite of what was typed.
    @Test func watchAndUnwatchTakeCurrencyCodes() throws {
        var c = try #require(CompleterTests.completer)
        c.watched = ["USD", "JPY"]
        #expect(c.complete("watch S").candidates.contains("SGD"))
        #expect(c.complete("watch S").candidates.allSatisfy { $0.hasPrefix("S") })
        #expect(c.complete("watch USD, E").candidates.contains("EUR"))
        #expect(c.complete("unwatch ").candidates == ["JPY", "USD"])
        #expect(c.complete("unwatch J").candidates == ["JPY"])
        #expect(c.complete("watch USD ").candidates == [])
    }

    /// Only a listing takes `show`, and a listing takes no `by` or `per`; `set` and `unset`
    /// reach `max rate age`; `explain` offers the defined names.
    @Test func clausesOnlyWhereTheParserTakesThem() throws {
        #expect(try !complete("sum expenses by book ").contains("show"))
        #expect(try !complete("sum expenses where amount > 5 ").contains("show"))
        #expect(try complete("list expenses ").contains("show"))
        #expect(try !complete("list expenses ").contains("by"))
        #expect(try !complete("list expenses ").contains("per"))
        #expect(try !complete("list expenses ").contains("vs"))
        #expect(try complete("list expenses where amount > 5 ").contains("order"))
        #expect(try !complete("list expenses where amount > 5 ").contains("by"))
        #expect(try complete("list expenses order by ").contains("amount"))
        #expect(try complete("set ") == ["rate", "currency", "max"])
        #expect(try complete("unset ") == ["rate", "max"])
        #expect(try complete("set max ") == ["rate"])
        #expect(try complete("set max rate ") == ["age"])
        var c = try #require(CompleterTests.completer)
        c.defined = ["zspend"]
        #expect(c.complete("explain zs").candidates == ["zspend"])
    }

    /// Every word offered is one the parser takes at the cursor (it checks each): none after a
    /// statement that takes no clause, only `at` after `rate A/B`, only `=` after `set rate A/B`,
    /// no key listed twice, no fifth key, no column key repeated by `per`.
    @Test func onlyWordsTheParserTakes() throws {
        for line in ["books ", "categories ", "watching ", "defines "] {
            #expect(try complete(line) == [], "\(line)")
        }
        #expect(try complete("rate SGD/INR ") == ["at", "with"])
        #expect(try complete("set rate SGD/INR ") == ["="])
        #expect(try complete("convert 100 SGD to INR ") == ["at", "with"])
        #expect(try !complete("sum expenses by category, ").contains("category"))
        #expect(try complete("sum expenses by category, ").contains("book"))
        #expect(try complete("sum expenses by category, book, party, tag, ") == [])
        #expect(try !complete("sum expenses by category per ").contains("category"))
        // A definition's statement is a statement of its own.
        #expect(try complete("define m(x) as ").contains("sum") && !complete("define m(x) as ").contains(".help"))
        #expect(try complete("define m(x) as sum expenses by category ").contains("where"))
        #expect(try !complete("define m(x) as sum expenses by category ").contains("category"))
        // A call's arguments are the user's; `party = (` is the missing value.
        var c = try #require(CompleterTests.completer)
        c.defined = ["monthly"]
        #expect(c.complete("monthly(").candidates == [])
        #expect(c.complete("monthly(2025-10) ").candidates == [])
        #expect(try complete("sum expenses where party = (") == ["none)"])
    }

    /// After a field, what compares it; inside or after parentheses, what joins or closes them.
    @Test func comparisonsAfterAFieldAndJoinsAfterParentheses() throws {
        let amount = try complete("sum expenses where amount ")
        #expect(amount.contains("=") && amount.contains(">") && amount.contains("in") && !amount.contains("by"))
        #expect(try complete("sum expenses where category ").contains("~"))
        #expect(try complete("count entries where (category = Rent) ").prefix(2) == ["and", "or"])
        #expect(try complete("count entries where not (category = Rent) ").contains("or"))
        let open = try complete("count entries where (category = Rent ")
        #expect(open.contains("and") && open.contains(")") && !open.contains("by"))
        #expect(try !complete("count entries where category in (Rent ").contains("by"))
    }

    /// `list … show` takes the columns a listing adds, each once.
    @Test func showOffersTheListingsColumns() throws {
        #expect(try complete("list expenses show ") == ["remarks", "tags", "payment", "currency", "id"])
        #expect(try complete("list expenses show remarks, ") == ["tags", "payment", "currency", "id"])
    }

    /// A bare name of several words completes as a whole, quoted (it became `Food & during`).
    @Test func aBareNameOfSeveralWordsCompletesWhole() throws {
        #expect(try complete("sum expenses where category = Food & D") == [" \"Food & Dining\""])
        #expect(try word("sum expenses where category = Food & D") == " Food & D")
        #expect(try complete("sum expenses where party = Dr. L").first?.hasPrefix(" \"Dr. Lal") == true)
        #expect(try complete("sum expenses where category in (Rent, Food & D") == [" \"Food & Dining\""])
        // A keyword after a whole name is still a keyword.
        #expect(try complete("sum expenses where category = Rent du") == ["during"])
    }

    /// Smaller gaps: every period `this`/`last` names, a list's names not listed yet, a pair's
    /// other currency, codes not watched yet.
    @Test func namesAndCodesAlreadyGivenAreNotOfferedAgain() throws {
        #expect(try complete("count entries during last ") == ["week", "month", "quarter", "year", "30"])
        #expect(try complete("count entries during this q") == ["quarter"])
        let more = try complete("sum expenses where category in (Rent, ")
        #expect(!more.contains("Rent") && more.contains("Taxes"))
        #expect(try !complete("rate SGD/").contains("SGD") && complete("rate SGD/").contains("INR"))
        #expect(try !complete("rates SGD/").contains("SGD"))
        var c = try #require(CompleterTests.completer)
        c.watched = ["USD"]
        #expect(!c.complete("watch ").candidates.contains("USD") && c.complete("watch ").candidates.contains("INR"))
        #expect(!c.complete("watch EUR, ").candidates.contains("EUR"))
    }

    @Test func pathsAfterLoadAndRunKeepTheirFolders() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("abacus-complete-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("dir with space"), withIntermediateDirectories: true)
        try Data().write(to: folder.appendingPathComponent("dir with space/x.abq"))
        try Data().write(to: folder.appendingPathComponent("demo.json"))
        defer { try? FileManager.default.removeItem(at: folder) }
        let root = folder.path
        #expect(try word(".load \(root)/de") == "\(root)/de")
        #expect(try complete(".load \(root)/de") == ["\(root)/demo.json"])
        // Folders end in `/`; names with spaces are escaped, or written inside the quote typed.
        #expect(try complete(".run \(root)/dir") == ["\(root)/dir\\ with\\ space/"])
        #expect(try complete(".run \(root)/dir\\ with\\ space/") == ["\(root)/dir\\ with\\ space/x.abq"])
        #expect(try complete(".run \"\(root)/dir w") == ["\(root)/dir with space/"])
        #expect(try complete(".run \"\(root)/dir with space/x") == ["\(root)/dir with space/x.abq\""])
    }
}

@Suite struct ReportCompletionTests {
    func complete(_ line: String) throws -> [String] {
        try #require(CompleterTests.completer).complete(line).candidates
    }

    @Test func theReportStatementsAndTheirClausesComplete() throws {
        #expect(try complete("bu") == ["budget"])
        #expect(try complete("net") == ["networth"])
        #expect(try complete("ho") == ["holdings"])
        #expect(try complete("balance by ") == ["book"])
        #expect(try complete("networth by ") == ["month", "quarter", "year"])
        #expect(try complete("networth by month ").contains("since"))
        #expect(try complete("budget ").contains("in"))
        #expect(try complete("holdings ") == ["in", "at"])
        #expect(try complete("holdings in U").contains("USD"))
        #expect(try complete("explain bu") == ["budget"])
    }

    @Test func topCategoryAndTreeNamesComplete() throws {
        #expect(try complete("sum expenses by to") == ["top"])
        #expect(try complete("sum expenses by top ") == ["category"])
        // A parent of the category tree that no entry names is a name like any other.
        #expect(try complete("sum expenses where category = Ess").contains("Essentials"))
    }
}
