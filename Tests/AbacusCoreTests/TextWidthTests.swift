// Display width: what lines table columns and carets up.

@testable import AbacusCore
import Testing

@Suite struct TextWidthTests {
    @Test(arguments: [
        ("Café", 4), ("Cafe\u{301}", 4), ("☕", 2), ("Café ☕", 7), ("日本語", 6), ("🚀x", 3),
        ("\u{200F}ر.س\u{200F}", 3), ("a\tb", 2),
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
