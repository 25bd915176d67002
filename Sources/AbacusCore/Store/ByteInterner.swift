// Dictionary encoding of strings, keyed by their UTF-8 bytes.
//
// The loader meets the same category, party, payment mode and book id hundreds of
// thousands of times; hashing the bytes where they lie in the document and getting
// back a small integer avoids building a `String` for each. Entry ids go through
// the same table, which is how duplicates are found. Open addressing, linear
// probing, power-of-two capacity; codes are dense, 0..<count, in first-seen order.
//
// Texts that are canonically equivalent (`"Caf\u00e9"` and `"Cafe\u0301"`: one é
// written precomposed or as e and an accent) are one key, as Swift's `String`
// compares them everywhere else (a condition, a book id): they get one code, shown
// as first met. Only a text with a byte past ASCII can have another form; one met
// for the first time is looked up by its text (`byText`), its other forms kept by
// their bytes (`aliases`), so that each form is worked out once.

public struct ByteInterner: Sendable {
    /// All keys' bytes, back to back.
    private var arena: [UInt8] = []
    /// Start of key `i` in `arena`; key `i` ends where key `i + 1` starts.
    private var starts: [UInt32] = [0]
    /// Slot → hash << 32 | (code + 1); 0 = empty. Keeping the hash in the slot means a new key
    /// (the common case for entry ids) costs one cache miss, not four.
    private var slots: [UInt64]
    /// Whether canonically equivalent texts share a code (remarks, searched by their text
    /// only, skip it: nearly every one is new).
    private let canonical: Bool
    /// Each key past ASCII, by its text (a `String` hashes and compares canonically).
    private var byText: [String: UInt32] = [:]
    /// Other byte forms of keys past ASCII, and their keys' codes.
    private var aliases: [[UInt8]: UInt32] = [:]

    public init(capacity: Int = 16, canonical: Bool = true) {
        var c = 16
        while c < capacity * 2 { c <<= 1 }
        slots = [UInt64](repeating: 0, count: c)
        self.canonical = canonical
    }

    public var count: Int { starts.count - 1 }

    @inline(__always)
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        // FNV-1a, 64-bit, folded.
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return UInt32(truncatingIfNeeded: h ^ (h >> 32))
    }

    /// The code of these bytes, adding them when new. `isNew` tells which.
    @inline(__always)
    public mutating func intern(_ bytes: UnsafeBufferPointer<UInt8>) -> (code: UInt32, isNew: Bool) {
        let h = ByteInterner.hash(bytes)
        let mask = slots.count - 1
        var i = Int(h) & mask
        while true {
            let s = slots[i]
            if s == 0 { break }
            if UInt32(truncatingIfNeeded: s >> 32) == h {
                let code = Int(UInt32(truncatingIfNeeded: s) - 1)
                if matches(code, bytes) { return (UInt32(code), false) }
            }
            i = (i + 1) & mask
        }
        // Past ASCII: another form of a key met already, or a new key under its text.
        if canonical, bytes.contains(where: { $0 >= 0x80 }) {
            if let code = aliases[Array(bytes)] { return (code, false) }
            let text = String(decoding: bytes, as: UTF8.self)
            if let code = byText[text] {
                aliases[Array(bytes)] = code
                return (code, false)
            }
            byText[text] = UInt32(count)
        }
        let code = UInt32(count)
        arena.append(contentsOf: bytes)
        starts.append(UInt32(arena.count))
        slots[i] = UInt64(h) << 32 | UInt64(code + 1)
        if count * 2 > slots.count { grow() }
        return (code, true)
    }

    /// The code of these bytes (or of a canonically equivalent text) when present.
    public func find(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32? {
        let h = ByteInterner.hash(bytes)
        let mask = slots.count - 1
        var i = Int(h) & mask
        while true {
            let s = slots[i]
            if s == 0 { return canonical ? byText[String(decoding: bytes, as: UTF8.self)] : nil }
            if UInt32(truncatingIfNeeded: s >> 32) == h {
                let code = Int(UInt32(truncatingIfNeeded: s) - 1)
                if matches(code, bytes) { return UInt32(code) }
            }
            i = (i + 1) & mask
        }
    }

    public func find(_ string: String) -> UInt32? {
        var s = string
        return s.withUTF8 { find($0) }
    }

    @inline(__always)
    private func matches(_ code: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let a = Int(starts[code]), b = Int(starts[code + 1])
        guard b - a == bytes.count else { return false }
        return arena.withUnsafeBufferPointer { memcmpEqual(bytes.baseAddress, $0.baseAddress! + a, b - a) }
    }

    private mutating func grow() {
        var bigger = [UInt64](repeating: 0, count: slots.count * 2)
        let mask = bigger.count - 1
        for s in slots where s != 0 {
            var i = Int(UInt32(truncatingIfNeeded: s >> 32)) & mask
            while bigger[i] != 0 { i = (i + 1) & mask }
            bigger[i] = s
        }
        slots = bigger
    }

    public func string(_ code: UInt32) -> String {
        withBytes(code) { String(decoding: $0, as: UTF8.self) }
    }

    /// The bytes of key `code`.
    func withBytes<R>(_ code: UInt32, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        let a = Int(starts[Int(code)]), b = Int(starts[Int(code) + 1])
        return try arena.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[a..<b])) }
    }

    /// Every key as a `String`, by code.
    public func allStrings() -> [String] {
        (0..<count).map { string(UInt32($0)) }
    }
}
