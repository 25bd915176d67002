// Display width: what lines table columns and carets up.

@testable import AbacusCore
import Testing

@Suite struct TextWidthTests {
    @Test(arguments: [
        ("Café", 4), ("Cafe\u{301}", 4), ("☕", 2), ("Café ☕", 7), ("日本語", 6), ("🚀x", 3),
        ("\u{200F}ر.س\u{200F}", 3), ("a\tb", 2),
        // A flag is two regional indicators of one column each (each counted two, a flag took four);
        // a lone one takes one.
        ("Trip \u{1F1EE}\u{1F1F3}", 7), ("\u{1F1EE}", 1),
        // 각 as conjoining jamo: the vowel and final consonant join the leading consonant's two
        // columns (they counted one each); the precomposed syllable takes two as well.
        ("\u{1100}\u{1161}\u{11A8}", 2), ("\u{AC01}", 2), ("\u{1100}\u{D7B0}", 2),
    ] as [(String, Int)])
    func columnsATerminalDraws(_ text: String, _ width: Int) {
        #expect(TextWidth.of(text) == width, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
    }

    /// A value quoted in a loader message is cut, and control characters show as escapes.
    @Test func quotedValuesStayShort() {
        #expect(quoted(String(repeating: "x", count: 1_000_000)).count == 63)
        #expect(quoted("a\u{1B}b") == #""a\eb""#)
    }
}
