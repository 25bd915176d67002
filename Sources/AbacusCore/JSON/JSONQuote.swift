// A string as a JSON string literal: the renderers' JSON output and the ledger documents
// written back from a database both use this one escaping.

extension String {
    /// Whether a UTF-8 byte starts a character JSON escapes (a control, `"`, `\`); the UTF-8
    /// bytes of every other non-ASCII scalar are ≥ 0x80.
    @inline(__always)
    public static func jsonEscapes(_ b: UInt8) -> Bool { b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") }

    public var jsonQuoted: String {
        // Most text needs no escape: checked byte by byte.
        if !utf8.contains(where: String.jsonEscapes) { return "\"" + self + "\"" }
        var out = "\""
        for u in unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 {
                    let hex = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
    }
}
