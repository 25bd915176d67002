// The small parts of a store image — books, rate snapshots and pairs, custom rates,
// budgets and the store's scalars — written field by field, and read back with
// every length and value checked: a count that would run past the end, a scale
// beyond 38 digits or a currency outside ISO 4217 is a damaged image, never a crash.

struct ByteWriter {
    var bytes: [UInt8] = []

    mutating func raw(_ b: [UInt8]) { bytes.append(contentsOf: b) }
    mutating func u8(_ v: UInt8) { bytes.append(v) }
    mutating func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func u64(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func i64(_ v: Int) { u64(UInt64(bitPattern: Int64(v))) }
    mutating func string(_ s: String) {
        u64(UInt64(s.utf8.count))
        bytes.append(contentsOf: s.utf8)
    }
    mutating func optionalString(_ s: String?) {
        u8(s == nil ? 0 : 1)
        if let s { string(s) }
    }
    mutating func currency(_ c: Currency) { u32(UInt32(c.packed)) }
    mutating func day(_ d: Day?) {
        u8(d == nil ? 0 : 1)
        u32(UInt32(bitPattern: d?.number ?? 0))
    }
    mutating func decimal(_ d: ExactDecimal) {
        withUnsafeBytes(of: d.significand.littleEndian) { bytes.append(contentsOf: $0) }
        u8(UInt8(d.scale))
    }
    mutating func optionalDecimal(_ d: ExactDecimal?) {
        u8(d == nil ? 0 : 1)
        if let d { decimal(d) }
    }
}

struct ByteReader {
    let bytes: UnsafeRawBufferPointer
    var pos = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    var atEnd: Bool { pos == bytes.count }

    mutating func take(_ n: Int) throws(ImageProblem) -> UnsafeRawBufferPointer {
        guard n >= 0, n <= bytes.count - pos else { throw ImageProblem("a field runs past the end of its section: damaged") }
        defer { pos += n }
        return UnsafeRawBufferPointer(rebasing: bytes[pos..<(pos + n)])
    }

    mutating func u8() throws(ImageProblem) -> UInt8 { try take(1)[0] }
    mutating func u32() throws(ImageProblem) -> UInt32 { UInt32(littleEndian: try take(4).loadUnaligned(as: UInt32.self)) }
    mutating func u64() throws(ImageProblem) -> UInt64 { UInt64(littleEndian: try take(8).loadUnaligned(as: UInt64.self)) }
    mutating func i64() throws(ImageProblem) -> Int { Int(Int64(bitPattern: try u64())) }

    /// A count of things that each take at least a byte: never more than `max` nor the bytes left.
    mutating func count(max: Int) throws(ImageProblem) -> Int {
        let n = try u64()
        guard n <= UInt64(min(max, bytes.count - pos)) else { throw ImageProblem("a count exceeds what its section holds: damaged") }
        return Int(n)
    }

    mutating func flag() throws(ImageProblem) -> Bool {
        let b = try u8()
        guard b <= 1 else { throw ImageProblem("a flag is neither 0 nor 1: damaged") }
        return b == 1
    }

    mutating func string() throws(ImageProblem) -> String {
        let n = try count(max: Int.max)
        return String(decoding: try take(n), as: UTF8.self)
    }

    mutating func optionalString() throws(ImageProblem) -> String? {
        try flag() ? try string() : nil
    }

    mutating func currency(allowNone: Bool = false) throws(ImageProblem) -> Currency {
        let v = try u32()
        guard v <= UInt32(UInt16.max) else { throw ImageProblem("a currency is out of range: damaged") }
        let c = Currency(packed: UInt16(v))
        guard c.isISO || (allowNone && c == .none) else { throw ImageProblem("a currency is not an ISO 4217 code: damaged") }
        return c
    }

    mutating func day() throws(ImageProblem) -> Day? {
        let present = try flag()
        let n = Int32(bitPattern: try u32())
        guard present else { return nil }
        guard StoreImage.days.contains(n) else { throw ImageProblem("a date is out of range: damaged") }
        return Day(number: n)
    }

    mutating func decimal() throws(ImageProblem) -> ExactDecimal {
        let significand = Int128(littleEndian: try take(16).loadUnaligned(as: Int128.self))
        let scale = Int(try u8())
        guard scale <= ExactDecimal.maxScale, significand.magnitude <= ExactDecimal.maxSignificand.magnitude else {
            throw ImageProblem("a decimal is out of range: damaged")
        }
        return ExactDecimal(significand: significand, scale: scale)
    }

    mutating func optionalDecimal() throws(ImageProblem) -> ExactDecimal? {
        try flag() ? try decimal() : nil
    }

    /// A rate: positive, as the loader requires (the engine divides by rates).
    mutating func rate() throws(ImageProblem) -> ExactDecimal {
        let d = try decimal()
        guard d.isPositive else { throw ImageProblem("a rate is not positive: damaged") }
        return d
    }

    mutating func optionalRate() throws(ImageProblem) -> ExactDecimal? {
        try flag() ? try rate() : nil
    }
}

extension StoreImage {
    /// What the directory holds besides the sections.
    struct Small {
        var ledger: Ledger
        var count: Int
        var amountScale: Int
        var normalizedScales: [Int]
        var conversionRateScales: [Int]
        var currencies: [Currency]
        /// The saved rate column's currency and recipes (its ids are a section).
        var rateTarget: Currency
        var recipes: [RateRecipe]
    }

    static func encodeSmall(_ l: Ledger, rateColumn: SavedRateColumn, into w: inout ByteWriter) {
        let s = l.entries
        w.i64(s.count)
        w.i64(s.amountScale)
        w.u64(UInt64(s.booked.normalizedScales.count)); s.booked.normalizedScales.forEach { w.i64($0) }
        w.u64(UInt64(s.booked.conversionRateScales.count)); s.booked.conversionRateScales.forEach { w.i64($0) }
        w.u64(UInt64(s.currencies.count)); s.currencies.forEach { w.currency($0) }
        w.currency(l.defaultCurrency)
        w.u64(UInt64(l.books.count))
        for b in l.books {
            w.string(b.id); w.string(b.name); w.currency(b.currency); w.optionalDecimal(b.lockedExchangeRate)
            w.currency(b.targetCurrency); w.day(b.rateLockedAt); w.optionalString(b.description); w.u8(b.archived ? 1 : 0)
        }
        w.u64(UInt64(l.snapshots.count))
        for snap in l.snapshots {
            w.currency(snap.base); w.day(snap.day)
            let codes = snap.rates.keys.sorted()
            w.u64(UInt64(codes.count))
            for c in codes { w.currency(c); w.decimal(snap.rates[c] ?? .zero) }
            w.optionalString(snap.source); w.optionalString(snap.fetchedAt); w.i64(snap.order)
        }
        for pairs in [l.pairs, l.customRates] {
            w.u64(UInt64(pairs.count))
            for p in pairs {
                w.currency(p.from); w.currency(p.to); w.decimal(p.rate); w.day(p.day); w.optionalString(p.source); w.i64(p.order)
            }
        }
        w.u64(UInt64(l.budgets.count))
        for b in l.budgets {
            w.string(b.category); w.day(b.month); w.decimal(b.limitAmount); w.currency(b.currency)
        }
        encodeExtras(l, into: &w)
        w.currency(rateColumn.target)
        w.u64(UInt64(rateColumn.recipes.count))
        for r in rateColumn.recipes {
            w.u8(r.kind.rawValue); w.u8(r.madeMissing ? 1 : 0); w.i64(r.value); w.u32(UInt32(r.from.packed))
        }
    }

    static func decodeSmall(_ r: inout ByteReader) throws(ImageProblem) -> Small {
        let count = try r.i64()
        let amountScale = try r.i64()
        guard count >= 0, count <= Int(UInt32.max) else { throw ImageProblem("an entry count out of range: damaged") }
        var normalizedScales: [Int] = [], conversionRateScales: [Int] = [], currencies: [Currency] = []
        for _ in 0..<(try r.count(max: 64)) { normalizedScales.append(try r.i64()) }
        for _ in 0..<(try r.count(max: 64)) { conversionRateScales.append(try r.i64()) }
        for _ in 0..<(try r.count(max: 26 * 26 * 26)) { currencies.append(try r.currency()) }
        let defaultCurrency = try r.currency()
        var books: [Book] = []
        for _ in 0..<(try r.count(max: Int.max)) {
            books.append(Book(id: try r.string(), name: try r.string(), currency: try r.currency(), lockedExchangeRate: try r.optionalRate(),
                              targetCurrency: try r.currency(allowNone: true), rateLockedAt: try r.day(), description: try r.optionalString(),
                              archived: try r.flag()))
        }
        var snapshots: [RateSnapshot] = []
        for _ in 0..<(try r.count(max: Int.max)) {
            let base = try r.currency()
            guard let day = try r.day() else { throw ImageProblem("a snapshot without a date: damaged") }
            var rates: [Currency: ExactDecimal] = [:]
            for _ in 0..<(try r.count(max: 26 * 26 * 26)) { rates[try r.currency()] = try r.rate() }
            guard rates[base] == nil else { throw ImageProblem("a snapshot quotes its own base: damaged") }
            snapshots.append(RateSnapshot(base: base, day: day, rates: rates, source: try r.optionalString(), fetchedAt: try r.optionalString(),
                                          order: try r.i64()))
        }
        var lists: [[RatePair]] = []
        for _ in 0..<2 {
            var pairs: [RatePair] = []
            for _ in 0..<(try r.count(max: Int.max)) {
                let pair = RatePair(from: try r.currency(), to: try r.currency(), rate: try r.rate(), day: try r.day(),
                                    source: try r.optionalString(), order: try r.i64())
                guard pair.from != pair.to else { throw ImageProblem("a rate from a currency to itself: damaged") }
                pairs.append(pair)
            }
            lists.append(pairs)
        }
        var budgets: [Budget] = []
        for _ in 0..<(try r.count(max: Int.max)) {
            let budget = Budget(category: try r.string(), month: try r.day(), limitAmount: try r.decimal(), currency: try r.currency())
            guard !budget.limitAmount.isNegative else { throw ImageProblem("a budget limit is negative: damaged") }
            budgets.append(budget)
        }
        var ledger = Ledger(files: [], defaultCurrency: defaultCurrency, books: books, entries: EntryStore(),
                            snapshots: snapshots, pairs: lists[0], customRates: lists[1], budgets: budgets)
        try decodeExtras(&r, into: &ledger, rows: count, amountScale: amountScale)
        let rateTarget = try r.currency()
        var recipes: [RateRecipe] = []
        for _ in 0..<(try r.count(max: Int.max)) {
            guard let kind = RateRecipe.Kind(rawValue: try r.u8()) else { throw ImageProblem("a rate recipe of no known kind: damaged") }
            let missing = try r.flag(), value = try r.i64()
            // The currency is checked when the recipe is replayed (SavedRateColumn.swift).
            let from = try r.u32()
            guard from <= UInt32(UInt16.max) else { throw ImageProblem("a currency is out of range: damaged") }
            var recipe = RateRecipe(kind, value, from: Currency(packed: UInt16(from)))
            recipe.madeMissing = missing
            recipes.append(recipe)
        }
        return Small(ledger: ledger, count: count, amountScale: amountScale, normalizedScales: normalizedScales,
                     conversionRateScales: conversionRateScales, currencies: currencies, rateTarget: rateTarget, recipes: recipes)
    }
}
