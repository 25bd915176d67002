// The schema of one ledger file (docs/ledger-format.md), walked with `JSONReader`.
//
// One method per object kind of the spec. Each checks its fields' types and rules
// as it reads them and appends to the `LedgerBuilder`; `path` always names the
// value being read, so any error can say `entries[4127].currency`.

struct FileParser {
    var reader: JSONReader
    let fileIndex: Int
    /// Path of the value being read; kept up to date only at the granularity of errors.
    var section = ""
    var index = -1
    var field = ""
    /// The entry field being read (an index into `entryFieldNames`), or -1: an Int is cheaper
    /// to keep current than a String, and entries are read a million times.
    var entryField = -1
    /// Index inside the field's array (`tags[2]`), or -1.
    var subIndex = -1

    init(reader: JSONReader, fileIndex: Int) {
        self.reader = reader
        self.fileIndex = fileIndex
    }

    var path: String {
        var p = section
        if index >= 0 { p += "[\(index)]" }
        let name = entryField >= 0 ? FileParser.entryFieldNames[entryField] : field
        if !name.isEmpty { p += p.isEmpty ? name : "." + name }
        if subIndex >= 0 { p += "[\(subIndex)]" }
        return p
    }

    func rule(_ message: String, at offset: Int? = nil) -> LedgerRuleError {
        LedgerRuleError(offset: offset ?? reader.pos, path: path, message: message)
    }

    // MARK: Document

    mutating func parseDocument(into b: inout LedgerBuilder) throws {
        if reader.peek() == nil {
            throw rule(reader.count == 0 ? "the file is empty, expected a ledger object ({\"version\": 1, …})"
                                         : "no JSON value in the file, expected a ledger object ({\"version\": 1, …})")
        }
        try reader.beginObject("a ledger object ({\"version\": 1, …})")
        var first = true
        var seen: Set<String> = []
        var version: ExactDecimal?
        var versionOffset = 0
        let start = reader.pos
        while let key = try reader.nextKey(&first) {
            let name = reader.string(key)
            let keyOffset = reader.keyOffset
            guard seen.insert(name).inserted else {
                throw LedgerRuleError(offset: keyOffset, path: name, message: "duplicate key \(quoted(name)) in the ledger object")
            }
            section = name; index = -1; field = ""
            switch name {
            case "version":
                versionOffset = reader.skipSpace(from: reader.pos)
                version = try number("1")
            case "defaultCurrency":
                let c = try currencyCode()
                // Files loaded together keep the first file's default, and say so.
                if let existing = b.defaultCurrency {
                    if existing != c {
                        b.notes.append("\(b.files[fileIndex]) has defaultCurrency \(c); \(existing), from \(b.defaultCurrencyFile), the first file to give one, is used (`set currency \(c)` to change it)")
                    }
                } else {
                    b.defaultCurrency = c
                    b.defaultCurrencyFile = b.files[fileIndex]
                }
            case "books": try array { p in try p.parseBook(into: &b) }
            case "entries": try parseEntries(into: &b)
            case "rates": try array { p in try p.parseRate(into: &b, custom: false) }
            case "customRates": try array { p in try p.parseRate(into: &b, custom: true) }
            case "budgets": try array { p in try p.parseBudget(into: &b) }
            case "categories": try array { p in try p.parseCategory(into: &b) }
            case "assets": try array { p in try p.parseAsset(into: &b) }
            case "liabilities": try array { p in try p.parseLiability(into: &b) }
            case "holdings": try array { p in try p.parseHolding(into: &b) }
            case "prices": try array { p in try p.parsePrice(into: &b) }
            default: try reader.skipValue()
            }
            section = ""
        }
        try reader.expectEnd()
        guard let version else {
            throw rule("missing \"version\": expected \"version\": 1 at the top of the ledger", at: start - 1)
        }
        guard version == .one else {
            throw LedgerRuleError(offset: versionOffset, path: "version", message: "unsupported version \(version), expected 1")
        }
    }

    /// Reads an array (or null, as empty) calling `element` for each item with `index` set.
    mutating func array(_ element: (inout FileParser) throws -> Void) throws {
        if try reader.consumeNull() { return }
        try reader.beginArray("an array")
        var first = true
        index = 0
        while try reader.nextElement(&first) {
            field = ""
            try element(&self)
            index += 1
        }
        index = -1
        field = ""
    }

    /// The entries array. A large one is read by two threads: a helper reads from an
    /// entry boundary guessed near the middle of what is left (`EntrySplit`), while this
    /// thread reads up to it. The helper's work is used only when this thread's own reading
    /// lands exactly on the guessed boundary and the helper read to the array's end without
    /// an error; otherwise this thread reads on alone. Either way the ledger, and the first
    /// error with its place, are those of a single reading.
    private mutating func parseEntries(into b: inout LedgerBuilder) throws {
        if try reader.consumeNull() { return }
        try reader.beginArray("an array")
        var split = b.parallel ? EntrySplit.begin(reader, name: b.files[fileIndex], minimumBytes: b.splitBytes,
                                                  progress: b.progress, releasable: b.releasable) : nil
        defer { split?.abandon() }
        var release = ReadRelease(mapping: b.releasable ? reader.base : nil, from: 0)
        var first = true
        index = 0
        while try reader.nextElement(&first) {
            if index & 0xFFF == 0 {
                b.progress?.main(b.bytesBefore + reader.pos)
                release.upTo(reader.pos)
            }
            if let s = split, reader.pos >= s.start {
                if reader.pos == s.start, let half = s.result() {
                    b.merge(half.builder, fileIndex: fileIndex, firstIndex: index)
                    b.progress?.helper(0)
                    reader.pos = half.end
                    reader.depth -= 1
                    break
                }
                s.abandon()
                split = nil
            }
            field = ""
            try parseEntry(into: &b)
            index += 1
        }
        index = -1
        field = ""
    }

    // MARK: Typed values

    mutating func string() throws -> JSONString {
        guard reader.peek() == UInt8(ascii: "\"") else {
            throw rule("expected a string, found \(reader.foundHere())")
        }
        let at = reader.pos
        let s = try reader.readString()
        // NUL can only be written as an escape; no text a ledger keeps may hold it (a database's
        // text cannot: docs/postgres.md), so every engine refuses it alike.
        if s.escaped, reader.scratch.contains(0) {
            throw rule("found \\u0000 (NUL) in a string, expected text without it", at: at)
        }
        return s
    }

    /// A string or null.
    mutating func optionalString() throws -> JSONString? {
        if try reader.consumeNull() { return nil }
        return try string()
    }

    mutating func number(_ expected: String = "a number") throws -> ExactDecimal {
        guard let b = reader.peek(), b == UInt8(ascii: "-") || (b &- 48) < 10 else {
            throw rule("expected \(expected), found \(reader.foundHere())")
        }
        do {
            return try reader.readNumber()
        } catch {
            switch error.kind {
            case .notANumber: throw rule("invalid number '\(ShownText.quoted(error.text))'", at: error.offset)
            case .notExact: throw rule(ExactDecimal.notExactMessage(ShownText.quoted(error.text)), at: error.offset)
            }
        }
    }

    mutating func positiveNumber(_ what: String) throws -> ExactDecimal {
        let at = reader.pos
        let value = try number("a positive number (\(what))")
        guard value.isPositive else { throw rule("\(what) must be positive, found \(value)", at: reader.skipSpace(from: at)) }
        return value
    }

    mutating func currencyCode() throws -> Currency {
        let at = reader.skipSpace(from: reader.pos)
        let s = try string()
        if let c = reader.withBytes(s, { $0.count == 3 ? Currency.pack($0[0], $0[1], $0[2]) : nil }), c.isISO { return c }
        let text = reader.string(s)
        var message = "found \(quoted(text)), expected an ISO 4217 currency code such as \"INR\" or \"USD\""
        if let c = Currency(caseInsensitiveCode: text) { message += "; did you mean \"\(c.code)\"?" }
        throw rule(message, at: at)
    }

    mutating func optionalCurrency() throws -> Currency? {
        if try reader.consumeNull() { return nil }
        return try currencyCode()
    }

    mutating func date() throws -> Day {
        let at = reader.skipSpace(from: reader.pos)
        let s = try string()
        if let d = reader.withBytes(s, { Day.parse($0) }) { return d }
        throw rule("found \(quoted(reader.string(s))), expected a date YYYY-MM-DD (or an ISO 8601 date-time) that exists in the calendar", at: at)
    }

    mutating func optionalDate() throws -> Day? {
        if try reader.consumeNull() { return nil }
        return try date()
    }

    mutating func bool() throws -> Bool? {
        if try reader.consumeNull() { return nil }
        guard let v = try reader.readBool() else { throw rule("expected true or false, found \(reader.foundHere())") }
        return v
    }

    /// Checks a key against those already seen in this object; `name` is the field's path
    /// below the object being read, `key` the key as written (when they differ).
    mutating func markSeen(_ bit: Int, _ seen: inout UInt32, _ keyOffset: Int, _ name: String, key: String? = nil) throws {
        field = name
        let mask = UInt32(1) << UInt32(bit)
        if seen & mask != 0 {
            throw LedgerRuleError(offset: keyOffset, path: path, message: "duplicate key \(quoted(key ?? name)) in one object")
        }
        seen |= mask
    }

    static let entryFieldNames = ["id", "bookId", "amount", "currency", "date", "category", "party", "paymentMode", "remarks",
                                  "tags", "isTransfer", "normalizedAmount", "normalizedCurrency", "conversionRate", "historicalRates", "splits"]

    /// Bits of the fields every entry must have, and how a message names them.
    static let requiredEntryFields: UInt32 = 0b110111
    static let requiredEntryFieldNames: [(Int, String)] = [
        (0, "\"id\" (a unique string)"), (1, "\"bookId\" (the id of its book)"), (2, "\"amount\" (negative for an expense)"),
        (4, "\"date\" (YYYY-MM-DD)"), (5, "\"category\""),
    ]

    /// The index of an entry key in `entryFieldNames`, or -1: by length first, then bytes.
    @inline(__always)
    static func entryField(_ reader: JSONReader, _ key: JSONString) -> Int {
        switch key.end - key.start {
        case 2: return reader.equals(key, "id") ? 0 : -1
        case 4: return reader.equals(key, "date") ? 4 : reader.equals(key, "tags") ? 9 : -1
        case 5: return reader.equals(key, "party") ? 6 : -1
        case 6: return reader.equals(key, "bookId") ? 1 : reader.equals(key, "amount") ? 2 : reader.equals(key, "splits") ? 15 : -1
        case 7: return reader.equals(key, "remarks") ? 8 : -1
        case 8: return reader.equals(key, "currency") ? 3 : reader.equals(key, "category") ? 5 : -1
        case 10: return reader.equals(key, "isTransfer") ? 10 : -1
        case 11: return reader.equals(key, "paymentMode") ? 7 : -1
        case 14: return reader.equals(key, "conversionRate") ? 13 : -1
        case 15: return reader.equals(key, "historicalRates") ? 14 : -1
        case 16: return reader.equals(key, "normalizedAmount") ? 11 : -1
        case 18: return reader.equals(key, "normalizedCurrency") ? 12 : -1
        default: return -1
        }
    }

    /// Marks an entry field as read, refusing a repeat.
    @inline(__always)
    mutating func markEntryField(_ bit: Int, _ seen: inout UInt32, _ keyOffset: Int) throws {
        entryField = bit
        let mask = UInt32(1) << UInt32(bit)
        if seen & mask != 0 {
            throw LedgerRuleError(offset: keyOffset, path: path, message: "duplicate key \"\(FileParser.entryFieldNames[bit])\" in one object")
        }
        seen |= mask
    }

    /// Unknown keys are ignored, but must still not repeat.
    mutating func skipUnknown(_ key: JSONString, _ unknown: inout [[UInt8]], _ keyOffset: Int) throws {
        let bytes = reader.withBytes(key) { Array($0) }
        if unknown.contains(bytes) {
            throw LedgerRuleError(offset: keyOffset, path: path, message: "duplicate key \(quoted(String(decoding: bytes, as: UTF8.self))) in one object")
        }
        unknown.append(bytes)
        try reader.skipValue()
    }

    // MARK: Book

    mutating func parseBook(into b: inout LedgerBuilder) throws {
        let objectStart = reader.skipSpace(from: reader.pos)
        try reader.beginObject("a book object")
        var first = true
        var seen: UInt32 = 0
        var unknown: [[UInt8]] = []
        var id: String?, name: String?, currency: Currency?, locked: ExactDecimal?, target: Currency?
        var lockedAt: Day?, description: String?, archived = false
        var opening: ExactDecimal?, inNetWorth = true
        var placeOf: [String: Int] = [:]
        while let key = try reader.nextKey(&first) {
            let keyOffset = reader.keyOffset
            let k = reader.string(key)
            field = k
            placeOf[k] = reader.skipSpace(from: reader.pos)
            switch k {
            // Read the string first, then its text: `reader.string(try string())` would take
            // `reader` before `string()` has read (and decoded into the scratch buffer).
            case "id": try markSeen(0, &seen, keyOffset, k); let s = try string(); id = reader.string(s)
            case "name": try markSeen(1, &seen, keyOffset, k); let s = try string(); name = reader.string(s)
            case "currency": try markSeen(2, &seen, keyOffset, k); currency = try currencyCode()
            case "lockedExchangeRate":
                try markSeen(3, &seen, keyOffset, k)
                locked = try reader.consumeNull() ? nil : try positiveNumber("lockedExchangeRate")
            case "targetCurrency": try markSeen(4, &seen, keyOffset, k); target = try optionalCurrency()
            case "rateLockedAt": try markSeen(5, &seen, keyOffset, k); lockedAt = try optionalDate()
            case "description": try markSeen(6, &seen, keyOffset, k); description = try optionalString().map { reader.string($0) }
            case "createdAt": try markSeen(7, &seen, keyOffset, k); _ = try optionalDate()
            case "archived": try markSeen(8, &seen, keyOffset, k); archived = try bool() ?? false
            case "openingBalance": try markSeen(9, &seen, keyOffset, k); opening = try reader.consumeNull() ? nil : try number()
            case "includeInNetWorth": try markSeen(10, &seen, keyOffset, k); inNetWorth = try bool() ?? true
            default: try skipUnknown(key, &unknown, keyOffset)
            }
        }
        field = ""
        guard let id else { throw rule("missing \"id\": every book needs a unique string id", at: objectStart) }
        guard let name else { throw rule("missing \"name\": every book needs a unique name", at: objectStart) }
        guard let currency else { throw rule("missing \"currency\": the book's ISO 4217 currency code", at: objectStart) }
        if locked != nil && target == nil {
            field = "targetCurrency"
            throw rule("missing \"targetCurrency\": a book with a lockedExchangeRate must say which currency the rate is into", at: objectStart)
        }
        if let target, locked != nil, target == currency {
            field = "targetCurrency"
            throw rule("targetCurrency \(target) is the book's own currency; a locked rate converts into another currency", at: placeOf["targetCurrency"] ?? objectStart)
        }
        let here = "\(b.files[fileIndex]): \(section)[\(index)]"
        if let other = b.bookIDs[id] {
            field = "id"
            throw rule("duplicate book id \"\(id)\" (first defined at \(b.bookPlaces[other]))", at: placeOf["id"] ?? objectStart)
        }
        if let other = b.bookNames[name] {
            field = "name"
            throw rule("duplicate book name \"\(name)\" (first defined at \(b.bookPlaces[other]))", at: placeOf["name"] ?? objectStart)
        }
        b.bookIDs[id] = b.books.count
        b.bookNames[name] = b.books.count
        b.bookPlaces.append(here)
        b.books.append(Book(id: id, name: name, currency: currency, lockedExchangeRate: locked,
                            targetCurrency: target ?? .none, rateLockedAt: lockedAt, description: description, archived: archived,
                            openingBalance: opening, includeInNetWorth: inNetWorth))
    }

    // MARK: Entry

    mutating func parseEntry(into b: inout LedgerBuilder) throws {
        let objectStart = reader.skipSpace(from: reader.pos)
        try reader.beginObject("an entry object")
        var first = true
        var seen: UInt32 = 0
        var unknown: [[UInt8]] = []
        var amount: ExactDecimal?
        var day: Int32 = 0
        var currency = Currency.none
        var bookRef: UInt32 = 0
        var category: UInt32 = 0
        var party: UInt32 = 0, payment: UInt32 = 0, remarks: UInt32 = 0
        var transfer = false
        var normalizedAmount: ExactDecimal?, normalizedCurrency = Currency.none, conversionRate: ExactDecimal?
        var normalizedAt = 0
        var splits: [SplitPart]?, splitsAt = 0
        let tagsBefore = b.tagCodes.count
        while let key = try reader.nextKey(&first) {
            let keyOffset = reader.keyOffset
            // Most keys are plain ASCII without escapes; compare bytes, build no string.
            switch FileParser.entryField(reader, key) {
            case 0:
                try markEntryField(0, &seen, keyOffset)
                let at = reader.skipSpace(from: reader.pos)
                let s: JSONString
                if let c = reader.peek(), c == UInt8(ascii: "-") || (c &- 48) < 10 {
                    _ = try number("an id")
                    s = JSONString(start: at, end: reader.pos, escaped: false)
                } else {
                    field = "id"
                    s = try string()
                }
                reader.withBytes(s) { b.ids.append($0) }
                if var set = b.idSet {
                    b.idSet = nil   // keeps `set` uniquely referenced: no copy on insert
                    let (code, isNew) = reader.withBytes(s) { set.intern($0) }
                    b.idSet = set
                    if !isNew {
                        field = "id"
                        let (file, i) = b.place(ofRow: Int(code))
                        throw rule("duplicate entry id \"\(b.ids.string(code))\" (also \(file): entries[\(i)])", at: at)
                    }
                }
            case 1:
                try markEntryField(1, &seen, keyOffset)
                let at = reader.skipSpace(from: reader.pos)
                let s = try string()
                let (code, isNew) = reader.withBytes(s) { b.bookRefs.intern($0) }
                bookRef = code
                if isNew { b.bookRefFirstUse.append((fileIndex, index, at)) }
            case 2:
                try markEntryField(2, &seen, keyOffset)
                amount = try number("a number (negative for an expense, positive for income)")
            case 3:
                try markEntryField(3, &seen, keyOffset)
                currency = try optionalCurrency() ?? .none
            case 4:
                try markEntryField(4, &seen, keyOffset)
                day = try date().number
            case 5:
                try markEntryField(5, &seen, keyOffset)
                let s = try string()
                category = reader.withBytes(s) { b.categories.intern($0).code }
            case 6:
                try markEntryField(6, &seen, keyOffset)
                if let s = try optionalString() { party = reader.withBytes(s) { b.parties.intern($0).code + 1 } }
            case 7:
                try markEntryField(7, &seen, keyOffset)
                if let s = try optionalString() { payment = reader.withBytes(s) { b.payments.intern($0).code + 1 } }
            case 8:
                try markEntryField(8, &seen, keyOffset)
                if let s = try optionalString(), s.end > s.start { remarks = reader.withBytes(s) { b.remarkTexts.intern($0).code + 1 } }
            case 9:
                try markEntryField(9, &seen, keyOffset)
                if !(try reader.consumeNull()) {
                    try reader.beginArray("an array of strings")
                    var firstTag = true
                    subIndex = 0
                    while try reader.nextElement(&firstTag) {
                        let s = try string()
                        let code = reader.withBytes(s) { b.tags.intern($0).code }
                        // A tag listed twice counts once.
                        if !b.tagCodes[tagsBefore...].contains(code) { b.tagCodes.append(code) }
                        subIndex += 1
                    }
                    subIndex = -1
                }
            case 10:
                try markEntryField(10, &seen, keyOffset)
                transfer = try bool() ?? false
            case 11:
                try markEntryField(11, &seen, keyOffset)
                normalizedAt = reader.skipSpace(from: reader.pos)
                normalizedAmount = try reader.consumeNull() ? nil : try number()
            case 12:
                try markEntryField(12, &seen, keyOffset)
                normalizedCurrency = try optionalCurrency() ?? .none
            case 13:
                try markEntryField(13, &seen, keyOffset)
                conversionRate = try reader.consumeNull() ? nil : try positiveNumber("conversionRate")
            case 14:
                try markEntryField(14, &seen, keyOffset)
                try parseRateTable(allowNull: true)
            case 15:
                try markEntryField(15, &seen, keyOffset)
                splitsAt = reader.skipSpace(from: reader.pos)
                splits = try parseSplits(into: &b)
            default:
                entryField = -1
                field = reader.string(key)
                try skipUnknown(key, &unknown, keyOffset)
            }
        }
        entryField = -1
        field = ""
        if seen & FileParser.requiredEntryFields != FileParser.requiredEntryFields {
            for (bit, what) in FileParser.requiredEntryFieldNames where seen & (1 << UInt32(bit)) == 0 {
                throw rule("missing \(what) in this entry", at: objectStart)
            }
        }
        if (normalizedAmount != nil || conversionRate != nil) && normalizedCurrency == .none {
            field = normalizedAmount != nil ? "normalizedAmount" : "conversionRate"
            throw rule("\(field) is given without normalizedCurrency: say which currency it is in", at: objectStart)
        }
        guard let amount else { throw rule("missing \"amount\"", at: objectStart) }
        // The amount converted keeps the amount's sign: an expense stored as positive spending
        // would otherwise count as income once converted.
        if let n = normalizedAmount, n.significand.signum() != amount.significand.signum() {
            field = "normalizedAmount"
            // Zero on one side only: converted, an amount does not become 0, nor 0 something.
            let what = n.isZero || amount.isZero ? "normalizedAmount is \(n) where amount is \(amount)" : "\(n) has the opposite sign of amount \(amount)"
            throw rule("\(what); normalizedAmount is the amount converted, so it keeps its sign (negative for an expense)", at: normalizedAt)
        }
        if let splits {
            try checkSplits(splits, add: amount, at: splitsAt)
            b.pendingSplits.append((b.day.count, splits))
        }
        b.day.append(day)
        b.amount.append(amount.significand)
        let scale = UInt8(amount.scale)
        b.amountScale.append(scale)
        if !b.hasAmounts { b.amountScales = scale...scale; b.hasAmounts = true }
        else if !b.amountScales.contains(scale) { b.amountScales = min(scale, b.amountScales.lowerBound)...max(scale, b.amountScales.upperBound) }
        // Parts of a split are held at the store's one scale too.
        for part in splits ?? [] {
            let ps = UInt8(min(part.amount.scale, Int(UInt8.max)))
            if !b.amountScales.contains(ps) { b.amountScales = min(ps, b.amountScales.lowerBound)...max(ps, b.amountScales.upperBound) }
        }
        b.currency.append(currency)
        b.bookRef.append(bookRef)
        b.category.append(category)
        b.party.append(party)
        b.payment.append(payment)
        b.remarks.append(remarks)
        b.isTransfer.append(transfer)
        b.tagStart.append(UInt32(b.tagCodes.count))
        if normalizedCurrency != .none {
            b.bookedIndex.append(Int32(b.booked.count))
            b.booked.append(amount: normalizedAmount, currency: normalizedCurrency, rate: conversionRate)
        } else {
            b.bookedIndex.append(-1)
        }
    }

    /// `{CODE: positive number}` (historicalRates, a snapshot's rates).
    @discardableResult
    mutating func parseRateTable(allowNull: Bool) throws -> [Currency: ExactDecimal] {
        if allowNull, try reader.consumeNull() { return [:] }
        try reader.beginObject("an object of currency codes to rates")
        var first = true
        var table: [Currency: ExactDecimal] = [:]
        let outer = entryField >= 0 ? FileParser.entryFieldNames[entryField] : field
        entryField = -1
        while let key = try reader.nextKey(&first) {
            let keyOffset = reader.keyOffset
            let code = reader.string(key)
            field = outer + "." + code
            guard let c = Currency(code: code) else {
                var message = "found \(quoted(code)), expected an ISO 4217 currency code as the key"
                if let c = Currency(caseInsensitiveCode: code) { message += "; did you mean \"\(c.code)\"?" }
                throw rule(message, at: keyOffset)
            }
            guard table[c] == nil else { throw rule("duplicate key \"\(code)\" in one object", at: keyOffset) }
            table[c] = try positiveNumber("a rate")
        }
        field = outer
        return table
    }

    // MARK: Rates

    mutating func parseRate(into b: inout LedgerBuilder, custom: Bool) throws {
        let objectStart = reader.skipSpace(from: reader.pos)
        try reader.beginObject(custom ? "a rate pair object ({\"from\", \"to\", \"rate\"})" : "a rate snapshot or rate pair object")
        var first = true
        var seen: UInt32 = 0
        var unknown: [[UInt8]] = []
        var base: Currency?, from: Currency?, to: Currency?, rate: ExactDecimal?, day: Day?
        var rates: [Currency: ExactDecimal]?, source: String?, fetchedAt: String?
        var placeOf: [String: Int] = [:]
        while let key = try reader.nextKey(&first) {
            let keyOffset = reader.keyOffset
            let k = reader.string(key)
            field = k
            placeOf[k] = reader.skipSpace(from: reader.pos)
            switch k {
            case "base": try markSeen(0, &seen, keyOffset, k); base = try currencyCode()
            case "from": try markSeen(1, &seen, keyOffset, k); from = try currencyCode()
            case "to": try markSeen(2, &seen, keyOffset, k); to = try currencyCode()
            case "rate": try markSeen(3, &seen, keyOffset, k); rate = try positiveNumber("a rate")
            case "date": try markSeen(4, &seen, keyOffset, k); day = custom ? try optionalDate() : try date()
            case "rates": try markSeen(5, &seen, keyOffset, k); rates = try parseRateTable(allowNull: false)
            case "source": try markSeen(6, &seen, keyOffset, k); source = try optionalString().map { reader.string($0) }
            case "fetchedAt": try markSeen(7, &seen, keyOffset, k); fetchedAt = try optionalString().map { reader.string($0) }
            default: try skipUnknown(key, &unknown, keyOffset)
            }
        }
        field = ""
        let isSnapshot = base != nil || rates != nil
        let isPair = from != nil || to != nil || rate != nil
        if isSnapshot && isPair {
            throw rule("this object mixes a snapshot (base, rates) with a pair (from, to, rate); use one shape", at: objectStart)
        }
        if isSnapshot && !custom {
            guard let base else { throw rule("missing \"base\": the currency the snapshot's rates are quoted against", at: objectStart) }
            guard var rates else { throw rule("missing \"rates\": {\"CODE\": rate, …}", at: objectStart) }
            guard let day else { throw rule("missing \"date\": a market snapshot needs the date it is for", at: objectStart) }
            // Rate APIs list the base itself at 1 (`"USD": 1`); any other value is a contradiction.
            if let own = rates[base] {
                guard own == .one else {
                    field = "rates." + base.code
                    throw rule("the snapshot quotes its own base \(base) at \(own); 1 \(base) is 1 \(base)", at: placeOf["rates"] ?? objectStart)
                }
                rates[base] = nil
            }
            b.snapshots.append(RateSnapshot(base: base, day: day, rates: rates, source: source, fetchedAt: fetchedAt, order: b.marketOrder))
            b.marketOrder += 1
            return
        }
        if isSnapshot {
            throw rule("customRates holds rate pairs ({\"from\", \"to\", \"rate\"}), found a snapshot", at: objectStart)
        }
        guard let from else { throw rule("missing \"from\": expected a rate snapshot {base, date, rates} or a rate pair {from, to, rate, date}", at: objectStart) }
        guard let to else { throw rule("missing \"to\": the currency 1 \(from) is converted into", at: objectStart) }
        guard let rate else { throw rule("missing \"rate\": how many \(to) one \(from) is worth", at: objectStart) }
        if from == to {
            field = "to"
            throw rule("a rate from \(from) to itself", at: placeOf["to"] ?? objectStart)
        }
        if !custom && day == nil {
            throw rule("missing \"date\": a market rate pair needs the date it is for (only customRates may be undated)", at: objectStart)
        }
        let pair = RatePair(from: from, to: to, rate: rate, day: day, source: source, order: custom ? b.customRates.count : b.marketOrder)
        if custom {
            b.customRates.append(pair)
        } else {
            b.pairs.append(pair)
            b.marketOrder += 1
        }
    }

    // MARK: Budget

    mutating func parseBudget(into b: inout LedgerBuilder) throws {
        let objectStart = reader.skipSpace(from: reader.pos)
        try reader.beginObject("a budget object")
        var first = true
        var seen: UInt32 = 0
        var unknown: [[UInt8]] = []
        var category: String?, month: Day?, limit: ExactDecimal?, currency: Currency?
        var bookID: String?, bookAt: Int?, alerts: [ExactDecimal]?, carryOver = false, carryOverAt = 0, startMonth: Day?
        while let key = try reader.nextKey(&first) {
            let keyOffset = reader.keyOffset
            let k = reader.string(key)
            field = k
            switch k {
            case "category": try markSeen(0, &seen, keyOffset, k); let s = try string(); category = reader.string(s)
            case "month": try markSeen(1, &seen, keyOffset, k); month = try optionalMonth()
            case "limitAmount":
                try markSeen(2, &seen, keyOffset, k)
                let at = reader.skipSpace(from: reader.pos)
                let v = try number()
                guard !v.isNegative else { throw rule("limitAmount must not be negative, found \(v)", at: at) }
                limit = v
            case "currencyCode": try markSeen(3, &seen, keyOffset, k); currency = try currencyCode()
            case "bookId":
                try markSeen(4, &seen, keyOffset, k)
                bookAt = reader.skipSpace(from: reader.pos)
                bookID = try optionalString().map { reader.string($0) }
            case "alerts": try markSeen(5, &seen, keyOffset, k); alerts = try parseAlerts()
            case "carryOver": try markSeen(6, &seen, keyOffset, k); carryOverAt = reader.skipSpace(from: reader.pos); carryOver = try bool() ?? false
            case "startMonth": try markSeen(7, &seen, keyOffset, k); startMonth = try optionalMonth()
            default: try skipUnknown(key, &unknown, keyOffset)
            }
        }
        field = ""
        guard let category else { throw rule("missing \"category\"", at: objectStart) }
        guard let limit else { throw rule("missing \"limitAmount\"", at: objectStart) }
        guard let currency else { throw rule("missing \"currencyCode\"", at: objectStart) }
        if carryOver && month != nil {
            field = "carryOver"
            throw rule("carryOver is for a budget without \"month\" (one for every month); a budget for one month has nothing to carry", at: carryOverAt)
        }
        b.budgets.append(Budget(category: category, month: month, limitAmount: limit, currency: currency, bookID: bookID,
                                alerts: alerts ?? Budget.defaultAlerts, carryOver: carryOver, startMonth: startMonth))
        b.budgetPlaces.append(Place(file: fileIndex, path: "\(section)[\(index)]", offset: bookAt ?? objectStart))
    }
}

/// A value from the file as a message quotes it: `ShownText`, in double quotes.
func quoted(_ text: String) -> String {
    "\"" + ShownText.quoted(text) + "\""
}
