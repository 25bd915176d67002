// Text from a ledger, a rates response or a statement, made safe to show.
//
// The one rule for every place that prints text it did not write: table cells,
// chart labels, error messages, warnings. Characters that would be invisible or
// would disturb the terminal (C0 and C1 controls, DEL, the byte-order mark, line
// and paragraph separators, bidi embeddings, overrides and isolates) are written
// out: `\n`, `\t`, `\r`, `\e` for the common ones, `\u{202E}` for the rest. So
// an escape sequence cannot clear the screen, a newline cannot split a table row
// and a right-to-left override cannot reverse the rest of a line. Messages also
// cut what they quote, so a 50 MB string does not make a 50 MB message.

public enum ShownText {
    /// Longest piece of text a message quotes, in characters.
    public static let limit = 60
    /// Longest path or key of a file a message shows before its text (`entries[4127].splits[2].category` is 33).
    public static let pathLimit = 120

    /// `text` with invisible characters written out; cut to `limit` characters with "…" when given.
    public static func shown(_ text: String, limit: Int? = nil) -> String {
        guard limit != nil || text.unicodeScalars.contains(where: isInvisible) else { return text }
        var out = ""
        var count = 0
        for ch in text {
            if let limit, count == limit { return out + "…" }
            out += ch.unicodeScalars.contains(where: isInvisible) ? ch.unicodeScalars.map(escape).joined() : String(ch)
            count += 1
        }
        return out
    }

    /// A message's quotation: `shown`, cut to `limit` characters.
    public static func quoted(_ text: String) -> String { shown(text, limit: limit) }

    /// A name as a statement writes it, in double quotes with `\` and `"` escaped, and shown
    /// (`shown`): what error messages and `explain` quote, so that it can be typed back.
    public static func literal(_ text: String, limit: Int? = nil) -> String {
        "\"" + shown(text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\""), limit: limit) + "\""
    }

    /// Controls (C0, DEL, C1), the byte-order mark, line and paragraph separators, bidi embeddings, overrides and isolates.
    public static func isInvisible(_ u: Unicode.Scalar) -> Bool {
        switch u.value {
        case 0..<0x20, 0x7F...0x9F, 0xFEFF, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// An invisible character written out (`\n`, `\e`, `\u{202E}`); anything else as itself.
    public static func escape(_ u: Unicode.Scalar) -> String {
        guard isInvisible(u) else { return String(u) }
        switch u {
        case "\n": return "\\n"
        case "\t": return "\\t"
        case "\r": return "\\r"
        case "\u{1B}": return "\\e"
        default: return "\\u{" + String(u.value, radix: 16) + "}"
        }
    }

    public static func isEscaped(_ text: String) -> Bool { text.unicodeScalars.contains(where: isInvisible) }
}
