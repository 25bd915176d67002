// `~` (contains, any letter case) searches ASCII text byte by byte and other text through
// `lowercased()` and Foundation's `contains` (Planner/PredicateLowering.swift): both ways must
// pass the same names.

import Foundation
import AbacusCore
@testable import AbacusQuery
import Testing

struct TextMatchTests {
    @Test func theByteSearchPassesWhatLowercasedContainsPasses() throws {
        let names = ["", "a", "A", "Uber", "UBER EATS", "uber", "Über", "cafe", "Café", "CAFÉ", "e\u{301}te\u{301}", "été",
                     "x", "xx", "aXb", "Lunch at 7-Eleven", "lunch", "LUNCH!", "ab", "ba", "abab", "İstanbul", "straße", "STRASSE", "tab\there"]
        let needles = ["", "a", "x", "ub", "uber", "UBER", "eats", "café", "CAFE", "été", "é", "lunch", "7-ele", "bab", "abab", "ababa",
                       "i", "ss", "ß", "\t", "t\th"]
        for needle in needles {
            let test = LogicalCondition.contains(.remarks, needle).textTest
            for name in names {
                let want = needle.isEmpty || name.lowercased().contains(needle.lowercased())
                #expect(test(name) == want, "\"\(name)\" ~ \"\(needle)\"")
            }
            #expect(!test(nil), "no value ~ \"\(needle)\"")
        }
        // ASCII text is decided by the byte search; other text is left to the slow way.
        #expect(LogicalCondition.asciiContains("Lunch at 7-Eleven", folded: Array("7-eleven".utf8)) == true)
        #expect(LogicalCondition.asciiContains("Lunch", folded: Array("lunches".utf8)) == false)
        #expect(LogicalCondition.asciiContains("Café", folded: Array("caf".utf8)) == nil)
    }

    /// One é written two ways (precomposed, and e with a combining accent) is one text, as Swift
    /// compares strings: one group (shown as first met), one category for a condition and for
    /// `categories`, one entry id (a second is a duplicate), as book ids already were.
    @Test func canonicallyEquivalentTextIsOneName() throws {
        let ledger = """
        {"version": 1, "defaultCurrency": "INR", "books": [{"id": "b", "name": "B", "currency": "INR"}],
         "entries": [{"id": "e1", "bookId": "b", "date": "2025-10-01", "amount": -2, "category": "Caf\\u00e9", "party": "Jos\\u00e9", "tags": ["n\\u00e9"]},
                     {"id": "e2", "bookId": "b", "date": "2025-10-02", "amount": -3, "category": "Cafe\\u0301", "party": "Jose\\u0301", "tags": ["ne\\u0301"]},
                     {"id": "e3", "bookId": "b", "date": "2025-10-03", "amount": -5, "category": "Cafe\\u0301", "remarks": "Cafe\\u0301"}]}
        """
        let s = try session(ledger)
        for key in ["category", "party", "tag"] {
            let r = try s.run("sum expenses by \(key) where date <= 2025-10-02")
            #expect(r.rows.count == 1, "by \(key)")
            #expect(plainText(r.rows.first?.last) == "5.00", "by \(key)")
        }
        // The first form met names the group, byte for byte.
        let shown = try s.run("count expenses by category").rows.first?.first
        #expect(shown.flatMap { if case .text(let t) = $0 { Array(t.utf8) } else { nil } } == Array("Caf\u{E9}".utf8))
        #expect(plainText(try s.run("sum expenses where category = \"Cafe\u{301}\"").rows.first?.last) == "10.00")
        #expect(plainText(try s.run("sum expenses where category = \"Caf\u{E9}\"").rows.first?.last) == "10.00")
        #expect(try s.run("categories").rows.count == 1)
        // Names that differ in letter case only list as a key's values sort, whichever the file
        // meets first: `Misc` before `misc` (a database, which meets them by day, agrees).
        for (first, second) in [("misc", "Misc"), ("Misc", "misc")] {
            let twins = try session("""
                {"version": 1, "defaultCurrency": "INR", "books": [{"id": "b", "name": "B", "currency": "INR"}],
                 "entries": [{"id": "e1", "bookId": "b", "date": "2025-02-01", "amount": -1, "category": "\(first)"},
                             {"id": "e2", "bookId": "b", "date": "2025-01-01", "amount": -2, "category": "\(second)"},
                             {"id": "e3", "bookId": "b", "date": "2025-01-02", "amount": -2, "category": "Ahead"}]}
                """)
            #expect(try twins.run("categories").rows.map { plainText($0.first) } == ["Ahead", "Misc", "misc"])
        }
        #expect(throws: LoadError.self) {
            try LedgerLoader.load(documents: [("ids.json", ledger.replacingOccurrences(of: "\"e2\"", with: "\"Caf\\u00e9\"")
                .replacingOccurrences(of: "\"e3\"", with: "\"Cafe\\u0301\""))])
        }
    }
}
