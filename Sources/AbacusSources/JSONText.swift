// Writing a ledger document as JSON text.
//
// Both the app-database reader (a document for the loader) and the statement importer
// (a file for the user) write ledger JSON. Numbers are written as the exact decimal text
// they were read as; strings are escaped so that any text (quotes, controls, any
// Unicode) comes back unchanged when the loader reads it.

public struct JSONText: Sendable {
    public private(set) var bytes: [UInt8] = []
    /// For each open object or array: whether it has a member yet (a comma goes before the next).
    private var hasMember: [Bool] = []

    public init() {}

    public mutating func beginObject() { separate(); bytes.append(UInt8(ascii: "{")); hasMember.append(false) }
    public mutating func endObject() { breakLine(); hasMember.removeLast(); bytes.append(UInt8(ascii: "}")) }
    public mutating func beginArray() { separate(); bytes.append(UInt8(ascii: "[")); hasMember.append(false) }
    public mutating func endArray() { breakLine(); hasMember.removeLast(); bytes.append(UInt8(ascii: "]")) }

    /// An object's key; its value is written next.
    public mutating func key(_ name: String) {
        separate()
        appendString(name)
        bytes.append(UInt8(ascii: ":"))
        pendingValue = true
    }

    public mutating func string(_ text: String) { separate(); appendString(text) }
    public mutating func null() { raw("null") }
    public mutating func bool(_ value: Bool) { raw(value ? "true" : "false") }
    /// A number, or any JSON value, written as the given text.
    public mutating func raw(_ text: String) { separate(); bytes.append(contentsOf: text.utf8) }
    public mutating func raw(_ text: [UInt8]) { separate(); bytes.append(contentsOf: text) }
    /// A line break before the next member (after its comma), for a file people read.
    public mutating func newline() { pendingLineBreak = true }

    /// Set by `key`: the value that follows belongs to the key and takes no comma.
    private var pendingValue = false
    private var pendingLineBreak = false

    private mutating func breakLine() {
        if pendingLineBreak { bytes.append(UInt8(ascii: "\n")); pendingLineBreak = false }
    }

    private mutating func separate() {
        if pendingValue { pendingValue = false; return }
        guard let last = hasMember.last else { return }
        if last { bytes.append(UInt8(ascii: ",")) }
        hasMember[hasMember.count - 1] = true
        if pendingLineBreak { bytes.append(UInt8(ascii: "\n")); pendingLineBreak = false }
    }

    private mutating func appendString(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        // Most text needs no escape: one copy, not a byte at a time.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) {
            bytes.append(contentsOf: text.utf8)
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for b in text.utf8 {
            switch b {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(b >> 4)], hex[Int(b & 15)]])
            default: bytes.append(b)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
