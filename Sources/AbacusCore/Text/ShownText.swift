// Text from a ledger, a rates response or a statement as a message quotes it.
//
// Characters that would be invisible or would disturb the terminal (controls, the
// byte-order mark, line and paragraph separators, bidi overrides) are written out as
// `<U+001B>`, and the text is cut short, so no input can garble the terminal or flood
// it: a 50 MB string would otherwise make a 50 MB message.

public enum ShownText {
    /// Longest piece of text a message quotes, in characters.
    public static let limit = 60

    /// `text` with invisible characters as `<U+0001>`, cut to `limit` characters with "…".
    public static func shown(_ text: String, limit: Int = limit) -> String {
        var out = ""
        var count = 0
        for ch in text {
            if count == limit { return out + "…" }
            out += ch.unicodeScalars.contains(where: isInvisible) ? ch.unicodeScalars.map(bracketed).joined() : String(ch)
            count += 1
        }
        return out
    }

    /// Controls (C0, DEL, C1), the byte-order mark, line and paragraph separators, bidi overrides and isolates.
    public static func isInvisible(_ u: Unicode.Scalar) -> Bool {
        switch u.value {
        case 0..<0x20, 0x7F...0x9F, 0xFEFF, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// An invisible character as `U+0001`, anything else as itself.
    public static func escape(_ u: Unicode.Scalar) -> String {
        guard isInvisible(u) else { return String(u) }
        let hex = String(u.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// An invisible character as `<U+0001>`, anything else as itself.
    public static func bracketed(_ u: Unicode.Scalar) -> String { isInvisible(u) ? "<" + escape(u) + ">" : String(u) }

    public static func isEscaped(_ text: String) -> Bool { text.unicodeScalars.contains(where: isInvisible) }
}
