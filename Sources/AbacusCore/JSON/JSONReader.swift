// A pull reader over the bytes of one JSON document.
//
// The ledger loader drives it field by field and writes straight into columns,
// so no tree of values is ever built: that is what keeps a 200 MB ledger inside
// a fraction of a second and of a gigabyte. Strings come back as byte ranges into
// the document (decoded into a scratch buffer only when they hold escapes);
// numbers come back as `ExactDecimal`, parsed from their text. The reader checks
// the whole grammar of RFC 8259 — UTF-8, control characters, escapes, surrogate
// pairs, nesting depth — and reports errors by byte offset; the caller turns an
// offset into line and column only when something went wrong.

public struct JSONSyntaxError: Error, Sendable {
    public var offset: Int
    public var message: String
}

/// A string value: a byte range of the document, or of the scratch buffer when
/// `escaped` (its escapes are then already decoded there).
struct JSONString {
    var start: Int
    var end: Int
    var escaped: Bool
}

struct JSONReader {
    let base: UnsafePointer<UInt8>
    let count: Int
    var pos = 0
    var depth = 0
    /// Decoded bytes of the last escaped string.
    var scratch: [UInt8] = []
    /// Where the key `nextKey` returned last begins in the file (its opening quote): a key
    /// with escapes is read into `scratch`, so its `start` is not a place in the file.
    var keyOffset = 0

    static let maxDepth = 512

    init(_ buffer: UnsafeBufferPointer<UInt8>) {
        // An empty buffer has no base address; point at a static empty byte.
        self.base = buffer.baseAddress ?? UnsafePointer(JSONReader.emptyByte)
        self.count = buffer.count
        // A UTF-8 byte-order mark is accepted and skipped.
        if hasByteOrderMark { pos = 3 }
    }

    /// Whether the text starts with a UTF-8 byte-order mark (EF BB BF).
    var hasByteOrderMark: Bool { count >= 3 && base[0] == 0xEF && base[1] == 0xBB && base[2] == 0xBF }

    nonisolated(unsafe) private static let emptyByte: UnsafeMutablePointer<UInt8> = {
        let p = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
        p.initialize(to: 0)
        return p
    }()

    // MARK: Structure

    @inline(__always)
    mutating func skipWhitespace() {
        while pos < count {
            let b = base[pos]
            if b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { pos += 1 } else { return }
        }
    }

    /// The next non-space byte, not consumed; nil at the end of the document.
    @inline(__always)
    mutating func peek() -> UInt8? {
        skipWhitespace()
        return pos < count ? base[pos] : nil
    }

    func fail(_ message: String, at offset: Int? = nil) -> JSONSyntaxError {
        JSONSyntaxError(offset: offset ?? pos, message: message)
    }

    /// Whether `word` is written at the current position.
    func startsHere(_ word: StaticString) -> Bool {
        pos + word.utf8CodeUnitCount <= count && memcmpEqual(base + pos, word.utf8Start, word.utf8CodeUnitCount)
    }

    /// What stands at the current position, for "found …" in messages.
    func foundHere() -> String {
        guard pos < count else { return "the end of the file" }
        switch base[pos] {
        case UInt8(ascii: "{"): return "an object"
        case UInt8(ascii: "["): return "an array"
        case UInt8(ascii: "\""):
            // The string itself where it is short enough to end nearby: `a string "12,50"` says
            // more than "a string" (a number written in quotes, a bad value from a database).
            var j = pos + 1
            while j < count, j - pos <= 4 * ShownText.limit, base[j] != UInt8(ascii: "\"") {
                j += base[j] == UInt8(ascii: "\\") ? 2 : 1
            }
            guard j < count, base[j] == UInt8(ascii: "\"") else { return "a string" }
            return "a string \"" + ShownText.quoted(String(decoding: UnsafeBufferPointer(start: base + pos + 1, count: j - pos - 1), as: UTF8.self)) + "\""
        // A word is true, false or null only when it is spelt so (`not json` is no null).
        case UInt8(ascii: "t") where startsHere("true"), UInt8(ascii: "f") where startsHere("false"): return "a boolean"
        case UInt8(ascii: "n") where startsHere("null"): return "null"
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return "a number"
        case let b where b < 0x20 || b >= 0x7F: return "byte 0x" + String(b, radix: 16, uppercase: true)
        case let b: return "'" + String(UnicodeScalar(b)) + "'"
        }
    }

    mutating func expect(_ byte: UInt8, _ what: String) throws(JSONSyntaxError) {
        guard peek() == byte else { throw fail("expected \(what), found \(foundHere())") }
        pos += 1
    }

    /// Enters an object: `{`.
    mutating func beginObject(_ what: String = "an object") throws(JSONSyntaxError) {
        guard peek() == UInt8(ascii: "{") else { throw fail("expected \(what), found \(foundHere())") }
        try enter()
        pos += 1
    }

    /// Enters an array: `[`.
    mutating func beginArray(_ what: String = "an array") throws(JSONSyntaxError) {
        guard peek() == UInt8(ascii: "[") else { throw fail("expected \(what), found \(foundHere())") }
        try enter()
        pos += 1
    }

    private mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > JSONReader.maxDepth {
            throw fail("nesting deeper than \(JSONReader.maxDepth) levels")
        }
    }

    /// The next key of the current object (its `:` consumed), or nil after its `}`.
    mutating func nextKey(_ first: inout Bool) throws(JSONSyntaxError) -> JSONString? {
        guard let b = peek() else { throw fail("unterminated object: expected '}' or a key, found the end of the file") }
        if b == UInt8(ascii: "}") {
            pos += 1; depth -= 1
            return nil
        }
        if !first {
            guard b == UInt8(ascii: ",") else { throw fail("expected ',' or '}' after an object member, found \(foundHere())") }
            pos += 1
            guard peek() == UInt8(ascii: "\"") else { throw fail("expected a key in double quotes, found \(foundHere())") }
        } else if b != UInt8(ascii: "\"") {
            throw fail("expected a key in double quotes or '}', found \(foundHere())")
        }
        first = false
        keyOffset = pos
        let key = try readString()
        guard peek() == UInt8(ascii: ":") else { throw fail("expected ':' after a key, found \(foundHere())") }
        pos += 1
        return key
    }

    /// True when the current array has another element; false after its `]`.
    mutating func nextElement(_ first: inout Bool) throws(JSONSyntaxError) -> Bool {
        guard let b = peek() else { throw fail("unterminated array: expected ']' or a value, found the end of the file") }
        if b == UInt8(ascii: "]") {
            pos += 1; depth -= 1
            return false
        }
        if !first {
            guard b == UInt8(ascii: ",") else { throw fail("expected ',' or ']' after an array element, found \(foundHere())") }
            pos += 1
            if peek() == UInt8(ascii: "]") { throw fail("expected a value after ',', found ']'") }
        }
        first = false
        return true
    }

    /// After the top-level value only whitespace may follow.
    mutating func expectEnd() throws(JSONSyntaxError) {
        if peek() != nil { throw fail("unexpected \(foundHere()) after the end of the JSON value") }
    }

    // MARK: Values

    /// True when the next value is `null` (which is then consumed).
    mutating func consumeNull() throws(JSONSyntaxError) -> Bool {
        guard peek() == UInt8(ascii: "n") else { return false }
        try literal("null")
        return true
    }

    mutating func readBool() throws(JSONSyntaxError) -> Bool? {
        switch peek() {
        case UInt8(ascii: "t"): try literal("true"); return true
        case UInt8(ascii: "f"): try literal("false"); return false
        default: return nil
        }
    }

    private mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
        let n = word.utf8CodeUnitCount
        let p = word.utf8Start
        guard pos + n <= count else { throw fail("invalid literal, expected '\(word)'") }
        for k in 0..<n where base[pos + k] != p[k] { throw fail("invalid literal, expected '\(word)'") }
        pos += n
    }

    /// Reads a string (the cursor is on its opening quote).
    mutating func readString() throws(JSONSyntaxError) -> JSONString {
        let open = pos
        pos += 1
        let start = pos
        while true {
            // Eight bytes at a time while none of them is a quote, a backslash, a control
            // character or non-ASCII: the common case of keys, codes, dates and names. The
            // lowest special byte of a word is where the scan stops.
            while pos + 8 <= count {
                let mask = JSONReader.specialBytes(UnsafeRawPointer(base + pos).loadUnaligned(as: UInt64.self))
                if mask == 0 { pos += 8; continue }
                pos += mask.trailingZeroBitCount >> 3
                break
            }
            guard pos < count else { throw fail("unterminated string", at: open) }
            let b = base[pos]
            if b == UInt8(ascii: "\"") {
                pos += 1
                return JSONString(start: start, end: pos - 1, escaped: false)
            }
            if b == UInt8(ascii: "\\") { return try readEscapedString(from: start) }
            if b < 0x20 { throw fail("raw control character 0x\(String(b, radix: 16, uppercase: true)) in a string (write it as an escape)") }
            if b >= 0x80 { try skipUTF8Sequence() } else { pos += 1 }
        }
    }

    /// The high bit of each byte of `w` that is `"`, `\\`, below 0x20 or at least 0x80 (SWAR).
    /// A borrow can mark a byte above a marked one; the lowest mark is always exact.
    @inline(__always)
    static func specialBytes(_ w: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func hasZero(_ x: UInt64) -> UInt64 { (x &- ones) & ~x & highs }
        let quote = hasZero(w ^ (ones &* 0x22))
        let backslash = hasZero(w ^ (ones &* 0x5C))
        let control = (w &- ones &* 0x20) & ~w & highs
        return quote | backslash | control | (w & highs)
    }

    /// Continues a string that holds escapes, decoding it into `scratch`.
    private mutating func readEscapedString(from start: Int) throws(JSONSyntaxError) -> JSONString {
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(start: base + start, count: pos - start))
        while pos < count {
            let b = base[pos]
            if b == UInt8(ascii: "\"") {
                pos += 1
                return JSONString(start: 0, end: scratch.count, escaped: true)
            }
            if b < 0x20 { throw fail("raw control character 0x\(String(b, radix: 16, uppercase: true)) in a string (write it as an escape)") }
            if b >= 0x80 {
                let s = pos
                try skipUTF8Sequence()
                scratch.append(contentsOf: UnsafeBufferPointer(start: base + s, count: pos - s))
                continue
            }
            if b != UInt8(ascii: "\\") { scratch.append(b); pos += 1; continue }
            guard pos + 1 < count else { break }
            let e = base[pos + 1]
            pos += 2
            switch e {
            case UInt8(ascii: "\""): scratch.append(0x22)
            case UInt8(ascii: "\\"): scratch.append(0x5C)
            case UInt8(ascii: "/"): scratch.append(0x2F)
            case UInt8(ascii: "b"): scratch.append(0x08)
            case UInt8(ascii: "f"): scratch.append(0x0C)
            case UInt8(ascii: "n"): scratch.append(0x0A)
            case UInt8(ascii: "r"): scratch.append(0x0D)
            case UInt8(ascii: "t"): scratch.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800...0xDBFF).contains(scalar) {
                    guard pos + 1 < count, base[pos] == UInt8(ascii: "\\"), base[pos + 1] == UInt8(ascii: "u") else {
                        throw fail("lone UTF-16 surrogate \\u\(String(scalar, radix: 16, uppercase: true)) in a string")
                    }
                    pos += 2
                    let low = try hex4()
                    guard (0xDC00...0xDFFF).contains(low) else { throw fail("invalid UTF-16 surrogate pair in a string") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw fail("lone UTF-16 surrogate \\u\(String(scalar, radix: 16, uppercase: true)) in a string")
                }
                guard let u = UnicodeScalar(scalar) else { throw fail("invalid \\u escape") }
                scratch.append(contentsOf: Array(String(Character(u)).utf8))
            default:
                throw fail("invalid escape '\\\(String(UnicodeScalar(e)))' in a string", at: pos - 2)
            }
        }
        throw fail("unterminated string", at: start - 1)
    }

    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        guard pos + 4 <= count else { throw fail("invalid \\u escape: expected four hex digits") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = base[pos]
            let d: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = b - 48
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = b - 87
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = b - 55
            default: throw fail("invalid \\u escape: expected four hex digits")
            }
            v = v << 4 | UInt32(d)
            pos += 1
        }
        return v
    }

    /// Validates one multi-byte UTF-8 sequence at `pos` and steps over it.
    private mutating func skipUTF8Sequence() throws(JSONSyntaxError) {
        let b0 = base[pos]
        let length: Int
        var minimum: UInt32
        var scalar: UInt32
        switch b0 {
        case 0xC2...0xDF: length = 2; scalar = UInt32(b0 & 0x1F); minimum = 0x80
        case 0xE0...0xEF: length = 3; scalar = UInt32(b0 & 0x0F); minimum = 0x800
        case 0xF0...0xF4: length = 4; scalar = UInt32(b0 & 0x07); minimum = 0x10000
        default: throw fail("invalid UTF-8 byte 0x\(String(b0, radix: 16, uppercase: true)) in a string")
        }
        guard pos + length <= count else { throw fail("truncated UTF-8 sequence in a string") }
        for k in 1..<length {
            let b = base[pos + k]
            guard b & 0xC0 == 0x80 else { throw fail("invalid UTF-8 sequence in a string") }
            scalar = scalar << 6 | UInt32(b & 0x3F)
        }
        guard scalar >= minimum, scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar) else {
            throw fail("invalid UTF-8 sequence in a string")
        }
        pos += length
    }

    /// The bytes of a string value.
    @inline(__always)
    func withBytes<R>(_ s: JSONString, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        if s.escaped {
            return try scratch.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[s.start..<s.end])) }
        }
        return try body(UnsafeBufferPointer(start: base + s.start, count: s.end - s.start))
    }

    func string(_ s: JSONString) -> String {
        withBytes(s) { String(decoding: $0, as: UTF8.self) }
    }

    /// True when the string's bytes equal `word` (a key name).
    @inline(__always)
    func equals(_ s: JSONString, _ word: StaticString) -> Bool {
        let n = word.utf8CodeUnitCount
        guard s.end - s.start == n else { return false }
        return withBytes(s) { b in memcmpEqual(b.baseAddress, word.utf8Start, n) }
    }

    /// Reads a number as an exact decimal. A number the type cannot hold exactly is an error.
    mutating func readNumber() throws(NumberFailure) -> ExactDecimal {
        skipWhitespace()
        let start = pos
        while pos < count {
            let b = base[pos]
            if (b &- 48) < 10 || b == UInt8(ascii: "-") || b == UInt8(ascii: "+") || b == UInt8(ascii: ".")
                || b == UInt8(ascii: "e") || b == UInt8(ascii: "E") { pos += 1 } else { break }
        }
        let text = UnsafeBufferPointer(start: base + start, count: pos - start)
        switch ExactDecimal.parse(text) {
        case .success(let value): return value
        case .failure(let failure):
            pos = start
            throw NumberFailure(kind: failure, offset: start, text: String(decoding: text, as: UTF8.self))
        }
    }

    struct NumberFailure: Error {
        var kind: ExactDecimal.ParseFailure
        var offset: Int
        var text: String
    }

    /// Skips any value, checking its syntax and refusing duplicate keys in its objects.
    mutating func skipValue() throws(JSONSyntaxError) {
        guard let b = peek() else { throw fail("expected a value, found the end of the file") }
        switch b {
        case UInt8(ascii: "{"):
            try beginObject()
            var first = true
            var keys = Set<[UInt8]>()
            while true {
                let keyStart = pos
                guard let key = try nextKey(&first) else { break }
                let bytes = withBytes(key) { Array($0) }
                if !keys.insert(bytes).inserted {
                    throw fail("duplicate key \"\(ShownText.quoted(String(decoding: bytes, as: UTF8.self)))\" in an object", at: skipSpace(from: keyStart))
                }
                try skipValue()
            }
        case UInt8(ascii: "["):
            try beginArray()
            var first = true
            while try nextElement(&first) { try skipValue() }
        case UInt8(ascii: "\""):
            _ = try readString()
        case UInt8(ascii: "t"), UInt8(ascii: "f"):
            _ = try readBool()
        case UInt8(ascii: "n"):
            _ = try consumeNull()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            do { _ = try readNumber() } catch {
                // An unknown field's number need not be held exactly, only be a number.
                if error.kind == .notANumber { throw fail("invalid number '\(ShownText.quoted(error.text))'", at: error.offset) }
                skipNumberText()
            }
        default:
            throw fail("expected a value, found \(foundHere())")
        }
    }

    private mutating func skipNumberText() {
        while pos < count {
            let b = base[pos]
            if (b &- 48) < 10 || b == UInt8(ascii: "-") || b == UInt8(ascii: "+") || b == UInt8(ascii: ".")
                || b == UInt8(ascii: "e") || b == UInt8(ascii: "E") { pos += 1 } else { break }
        }
    }

    func skipSpace(from offset: Int) -> Int {
        var i = offset
        while i < count, base[i] == 0x20 || base[i] == 0x0A || base[i] == 0x0D || base[i] == 0x09 || base[i] == UInt8(ascii: ",") { i += 1 }
        return i
    }

    /// 1-based line and column (in Unicode scalars) of a byte offset. A byte-order mark is no
    /// column: line 1 is counted from the character after it, as an editor shows it.
    func lineAndColumn(of offset: Int) -> (line: Int, column: Int) {
        var line = 1, column = 1
        var i = hasByteOrderMark ? 3 : 0
        let end = min(offset, count)
        let bytes = UnsafeBufferPointer(start: base, count: count)
        while i < end {
            if LineBreak.ends(in: bytes, at: i) { line += 1; column = 1 } else if base[i] & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        return (line, column)
    }
}

@inline(__always)
func memcmpEqual(_ a: UnsafePointer<UInt8>?, _ b: UnsafePointer<UInt8>, _ n: Int) -> Bool {
    guard let a else { return n == 0 }
    for k in 0..<n where a[k] != b[k] { return false }
    return true
}
