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

    @Test func controlCharactersAndAbsurdNumbers() throws {
        let s = try session()
        for text in ["sum expenses\u{0}", "count entries where party = \"\u{1}\u{2}\"", "sum\u{7F}", "\u{FEFF}sum expenses",
                     "sum expenses top 99999999999999999999999999", "sum expenses top 9223372036854775807",
                     "convert 1e400 USD to INR", "convert 99999999999999999999999999999999999999 USD to INR",
                     "set rate USD/INR = 0.00000000000000000000000000000000000001", "count entries during last 99999999999 days",
                     "count entries since 9999-12-31", "count entries since 0001-01-01", "sum expenses where amount > -99999999999999999999999999999999999999"] {
            _ = outcome(s, text)   // any answer or error; reaching here means no trap
        }
        #expect(outcome(s, "sum expenses top 99999999999999999999999999")?.contains("whole number of rows") == true)
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

    @Test func everyKeywordInEveryPlace() throws {
        let s = try session()
        let words = ["sum", "count", "avg", "min", "max", "list", "expenses", "income", "transfers", "entries", "in", "native",
                     "by", "where", "and", "or", "not", "category", "book", "party", "payment", "currency", "tag", "remarks",
                     "amount", "date", "day", "week", "month", "quarter", "year", "since", "until", "before", "on", "during",
                     "today", "yesterday", "this", "last", "days", "at", "market", "latest", "with", "rate", "order", "asc",
                     "desc", "top", "explain", "convert", "to", "rates", "set", "unset", "books", "categories", "refresh",
                     "status", "--force", "(", ")", ",", "=", "~", "/", "\"", "2025", "2025-10", "12.5", "INR"]
        let frames = ["%", "sum %", "sum expenses %", "sum expenses by %", "count entries where %", "count entries where category = %",
                      "sum expenses in %", "convert 100 % to INR", "rate %", "rates %", "set %", "explain %", "sum expenses at %",
                      "sum expenses with rate %", "sum expenses order by %", "list entries top %", "count entries where (%"]
        var errors = 0
        for frame in frames {
            for w in words {
                let text = frame.replacingOccurrences(of: "%", with: w)
                if let message = outcome(s, text) {
                    errors += 1
                    #expect(!message.isEmpty, "\(text)")
                }
            }
        }
        // Most of these are wrong, and each said so.
        #expect(errors > frames.count * words.count / 2)
    }
}
