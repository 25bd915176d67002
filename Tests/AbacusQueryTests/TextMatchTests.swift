// `~` (contains, any letter case) searches ASCII text byte by byte and other text through
// `lowercased()` and Foundation's `contains` (Planner/PredicateLowering.swift): both ways must
// pass the same names.

import Foundation
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
}
