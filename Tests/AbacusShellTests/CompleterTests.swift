// Tab completion in context, without a terminal: what may follow the words before the cursor.

import AbacusCore
@testable import AbacusShell
import Testing

@Suite struct CompleterTests {
    static let completer: Completer? = (try? LedgerLoader.load(paths: [Golden.demo])).map { Completer(ledger: $0) }

    /// Candidates for the last word of `line` (the cursor at its end).
    func complete(_ line: String) throws -> [String] {
        let c = try #require(CompleterTests.completer)
        let breaks = Set(" \t\n,()=<>~!/;")
        var start = line.endIndex
        while start > line.startIndex, !breaks.contains(line[line.index(before: start)]) { start = line.index(before: start) }
        let prefix = String(line[start...])
        switch c.complete(line: line, start: line.utf8.distance(from: line.startIndex, to: start)) {
        case .words(let w): return Completer.filter(w, prefix: prefix)
        case .files: return ["<files>"]
        }
    }

    @Test func statementsAndDotCommandsAtTheStart() throws {
        #expect(try complete("co") == ["count", "convert"])
        #expect(try complete(".fo") == [".format"])
        #expect(try complete(".format c") == ["csv", "chart"])
    }

    @Test func groupKeysAfterBy() throws {
        #expect(try complete("sum expenses by bo") == ["book"])
        #expect(try complete("sum expenses by book, mo") == ["month"])
        #expect(try complete("sum expenses by book order by am") == ["amount"])
    }

    @Test func fieldsAfterWhereAndOr() throws {
        #expect(try complete("sum expenses where pa") == ["party", "payment"])
        #expect(try complete("sum expenses where book = Home and ca") == ["category"])
    }

    @Test func ledgerNamesAfterAComparisonQuotedWhenNeeded() throws {
        #expect(try complete("sum expenses where category = Foo") == ["\"Food & Dining\""])
        #expect(try complete("sum expenses where category = \"Foo") == ["\"Food & Dining\""])
        #expect(try complete("sum expenses where book = Sing") == ["\"Singapore Trip\""])
        #expect(try complete("sum expenses where category in (Rent, Ta") == ["Taxes"])
        #expect(try complete("sum expenses where tag = wo") == ["work", "weekend"].filter { $0.hasPrefix("wo") })
    }

    @Test func currencyCodesWhereACurrencyGoes() throws {
        #expect(try complete("sum expenses in SG") == ["SGD"])
        // The ledger's own currencies come first, then every other ISO code (USN).
        #expect(try complete("convert 100 US") == ["USD", "USN"])
        #expect(try complete("convert 100 SGD to IN") == ["INR"])
        #expect(try complete("rate SGD/IN") == ["INR"])
        #expect(try complete("sum expenses in na") == ["native"])
    }

    @Test func filePathsAfterLoadAndRun() throws {
        #expect(try complete(".load Exa") == ["<files>"])
        #expect(try complete(".run ") == ["<files>"])
    }
}
