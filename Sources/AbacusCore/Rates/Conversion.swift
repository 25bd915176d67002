// Converting entries into a target currency (SPEC §3), exactly.
//
// `Converter` decides, entry by entry, which step of §3 applies — what-if,
// booked (normalizedAmount, conversionRate, the book's locked rate), custom,
// market — and returns a `Route`. Every rate becomes a decimal factor: the rate
// itself when it is a decimal, or the quotient to 34 significant digits for an
// inverse, cross or chained rate (§3 asks at least 28). Each entry's converted
// value is then its amount times that factor — an exact product — and
// `ConvertedSum` adds those products exactly in 256 bits, so a group's total is
// the exact sum of its entries converted one by one; it is rounded once, later.
// `Provenance` counts where every entry's rate came from.

import BigInt

/// How amounts are valued (SPEC §3's valuation clause).
public enum Valuation: Hashable, Sendable, CustomStringConvertible {
    /// Booked values first (the default).
    case booked
    /// Market rates as of each entry's date, skipping booked values.
    case market
    /// The newest market rate, whatever the entry's date.
    case latest
    /// Market rates as of a fixed date.
    case asOf(Day)

    public var description: String {
        switch self {
        case .booked: return "booked"
        case .market: return "at market"
        case .latest: return "at latest"
        case .asOf(let d): return "at \(d)"
        }
    }
}

/// Where one rate came from.
public enum RateOrigin: Hashable, Sendable {
    case whatIf(CurrencyPair)
    case locked(book: Int)
    case custom(CustomQuote)
    case market(MarketQuote)
}

public struct ResolvedRate: Hashable, Sendable {
    public var pair: CurrencyPair
    public var rate: Rate
    public var origin: RateOrigin
    public init(pair: CurrencyPair, rate: Rate, origin: RateOrigin) {
        self.pair = pair
        self.rate = rate
        self.origin = origin
    }
}

/// How many entries were converted at which kind of rate.
public struct Provenance: Sendable, Equatable {
    public var unconverted = 0
    public var bookedNormalized = 0
    public var bookedConversionRate = 0
    public var bookedLocked = 0
    public var custom = 0
    public var market = 0
    public var whatIf = 0
    public var oldestMarketDay: Day?
    public var newestMarketDay: Day?
    public init() {}

    public var booked: Int { bookedNormalized + bookedConversionRate + bookedLocked }
}

/// A rate that could not be found: the pair and how many entries needed it.
public struct MissingRate: Sendable, Equatable {
    public var pair: CurrencyPair
    public var entries: Int
    public init(pair: CurrencyPair, entries: Int) { self.pair = pair; self.entries = entries }
}

/// A market source dated after the entries it priced.
public struct LateRateUse: Sendable, Equatable {
    public var pair: CurrencyPair
    public var sourceDay: Day
    public var firstEntryDay: Day
    public var entries: Int
}

/// One entry's converted value, exact: 128-bit when it fits, wide otherwise.
public enum RowValue: Comparable, Sendable {
    /// Its scale may pass 38 (a product); comparison aligns it exactly.
    case exact(ExactDecimal)
    case wide(WideDecimal)

    public var wide: WideDecimal {
        switch self {
        case .exact(let d): return WideDecimal(d)
        case .wide(let w): return w
        }
    }

    public static func < (a: RowValue, b: RowValue) -> Bool {
        if case .exact(let x) = a, case .exact(let y) = b { return x < y }
        return a.wide < b.wide
    }

    public static func == (a: RowValue, b: RowValue) -> Bool {
        if case .exact(let x) = a, case .exact(let y) = b { return x == y }
        return a.wide == b.wide
    }
}

/// Under `at latest`, a newest rate older than today: how stale it is.
public struct StaleRate: Sendable, Equatable {
    public var pair: CurrencyPair
    /// The rate's own date.
    public var day: Day
    /// When it was fetched, if later than its date (a live rate).
    public var fetched: Day?
    public var ageInDays: Int

    public init(pair: CurrencyPair, day: Day, freshness: Day, today: Day) {
        self.pair = pair
        self.day = day
        self.fetched = freshness > day ? freshness : nil
        self.ageInDays = Int(today.number - freshness.number)
    }

    public var warning: String {
        let days = "\(ageInDays) \(ageInDays == 1 ? "day" : "days")"
        if let fetched { return "the newest \(pair) rate, dated \(day), was fetched on \(fetched), \(days) before today" }
        return "the newest \(pair) rate is dated \(day), \(days) before today"
    }
}

public final class Converter {
    public enum Route {
        /// Already in the target currency.
        case same
        /// The entry's normalizedAmount, in the target currency.
        case normalized(ExactDecimal)
        /// Multiply by this exact rate (the entry's conversionRate).
        case product(ExactDecimal)
        /// Sum natively, convert once at `rates[id]`.
        case rate(Int)
        case missing
    }

    public let store: EntryStore
    public let ledger: Ledger
    public let resolver: RateResolver
    public let target: Currency
    public let valuation: Valuation
    public let whatIf: [CurrencyPair: ExactDecimal]
    /// What "today" is, for the staleness of `at latest`.
    public let today: Day?

    /// Distinct rates used, by id.
    public private(set) var rates: [ResolvedRate] = []
    /// Each rate as the decimal amounts are multiplied by: exact, or to 34 significant digits for a quotient.
    public private(set) var factors: [ExactDecimal] = []
    /// Set when a rate's quotient exceeds 10^38 (only absurd inputs): the statement must fail.
    public private(set) var unrepresentable = false
    private var rateIDs: [ResolvedRate: Int] = [:]
    public private(set) var provenance = Provenance()
    private var missing: [CurrencyPair: Int] = [:]
    private var late: [CurrencyPair: LateRateUse] = [:]
    private var stale: [CurrencyPair: StaleRate] = [:]

    /// Day-scoped cache of custom/market routes: rows arrive mostly in day order.
    private var cacheDay: Int32 = .min
    /// (currency, rate id or -1 for none) for `cacheDay`: a few pairs, searched linearly.
    private var dayRoutes: [(currency: Currency, id: Int)] = []
    private var lockedRoutes: [Int: Int] = [:]

    public init(ledger: Ledger, resolver: RateResolver, target: Currency, valuation: Valuation = .booked,
                whatIf: [CurrencyPair: ExactDecimal] = [:], today: Day? = nil) {
        self.today = today
        self.ledger = ledger
        self.store = ledger.entries
        self.resolver = resolver
        self.target = target
        self.valuation = valuation
        self.whatIf = whatIf
    }

    public var missingRates: [MissingRate] {
        missing.map { MissingRate(pair: $0.key, entries: $0.value) }.sorted { ($0.pair.from, $0.pair.to) < ($1.pair.from, $1.pair.to) }
    }

    /// Under `at latest`: pairs whose newest market rate is older than today.
    public var staleRates: [StaleRate] {
        stale.values.sorted { ($0.pair.from, $0.pair.to) < ($1.pair.from, $1.pair.to) }
    }

    public var lateRateUses: [LateRateUse] {
        late.values.sorted { ($0.pair.from, $0.pair.to) < ($1.pair.from, $1.pair.to) }
    }

    /// Decides how row `row` is converted (and counts it in `provenance`).
    public func route(_ row: Int) -> Route {
        let from = store.currency[row]
        if from == target {
            provenance.unconverted += 1
            return .same
        }
        let pair = CurrencyPair(from, target)
        // 1. What-if.
        if !whatIf.isEmpty, let id = whatIfRate(pair) {
            provenance.whatIf += 1
            return .rate(id)
        }
        // 2. Booked.
        if valuation == .booked {
            let b = Int(store.bookedIndex[row])
            if b >= 0 && store.booked.normalizedCurrency[b] == target {
                if let amount = store.booked.normalizedAmount(b) {
                    provenance.bookedNormalized += 1
                    return .normalized(amount)
                }
                if let rate = store.booked.conversionRate(b) {
                    provenance.bookedConversionRate += 1
                    return .product(rate)
                }
            }
            let bookIndex = Int(store.book[row])
            let book = ledger.books[bookIndex]
            if let locked = book.lockedExchangeRate, book.currency == from, book.targetCurrency == target {
                provenance.bookedLocked += 1
                if let id = lockedRoutes[bookIndex] { return .rate(id) }
                let id = intern(ResolvedRate(pair: pair, rate: Rate(locked), origin: .locked(book: bookIndex)))
                lockedRoutes[bookIndex] = id
                return .rate(id)
            }
        }
        // 3 and 4. Custom, then market: depend only on (currency, day).
        let day = store.day[row]
        if day != cacheDay {
            dayRoutes.removeAll(keepingCapacity: true)
            cacheDay = day
        }
        var found = -2
        for entry in dayRoutes where entry.currency == from { found = entry.id; break }
        if found == -2 {
            found = resolve(pair, on: Day(number: day)) ?? -1
            dayRoutes.append((from, found))
        }
        guard found >= 0 else {
            missing[pair, default: 0] += 1
            return .missing
        }
        let id = found
        switch rates[id].origin {
        case .custom: provenance.custom += 1
        case .market(let q):
            provenance.market += 1
            if q.isAfterRequestedDay {
                // The day a rate was asked for: the entry's, or the valuation date of `at DATE`.
                var entryDay = Day(number: day)
                if case .asOf(let d) = valuation { entryDay = d }
                late[pair, default: LateRateUse(pair: pair, sourceDay: q.newestDay, firstEntryDay: entryDay, entries: 0)].entries += 1
                if let l = late[pair], entryDay < l.firstEntryDay { late[pair]?.firstEntryDay = entryDay }
            }
        default: break
        }
        return .rate(id)
    }

    /// One row's converted value: `amount` is the row's amount as the caller shows it
    /// (negated for expenses, with `negate`). Nil when no rate exists (recorded as missing).
    public func convertedValue(_ row: Int, amount: Int128, negate: Bool) -> WideDecimal? {
        rowValue(row, amount: amount, negate: negate)?.wide
    }

    /// The same, in 128 bits whenever the exact product fits (nearly always): comparing and
    /// ranking a million of these needs no allocation.
    public func rowValue(_ row: Int, amount: Int128, negate: Bool) -> RowValue? {
        func product(_ a: Int128, _ f: ExactDecimal) -> RowValue {
            let (p, o) = a.multipliedReportingOverflow(by: f.significand)
            let scale = store.amountScale + f.scale
            return o ? .wide(WideDecimal(BigInt(a) * BigInt(f.significand), scale: scale)) : .exact(ExactDecimal(significand: p, scale: scale))
        }
        switch route(row) {
        case .same: return .exact(ExactDecimal(significand: amount, scale: store.amountScale))
        case .normalized(let n): return .exact(ExactDecimal(significand: negate ? -n.significand : n.significand, scale: n.scale))
        case .product(let r): return product(amount, r)
        case .rate(let id): return product(amount, factors[id])
        case .missing: return nil
        }
    }

    private func whatIfRate(_ pair: CurrencyPair) -> Int? {
        let rate: Rate
        if let r = whatIf[pair] { rate = Rate(r) } else if let r = whatIf[pair.inverse] { rate = Rate(r).inverse } else { return nil }
        return intern(ResolvedRate(pair: pair, rate: rate, origin: .whatIf(pair)))
    }

    /// Custom, then market, for a pair on a day, as a rate id.
    private func resolve(_ pair: CurrencyPair, on day: Day) -> Int? {
        if valuation == .booked || valuation == .market, let c = resolver.custom(pair, on: day) {
            return intern(ResolvedRate(pair: pair, rate: c.rate, origin: .custom(c)))
        }
        let asOf: Day?
        switch valuation {
        case .booked, .market: asOf = day
        case .latest: asOf = nil
        case .asOf(let d): asOf = d
        }
        if case .asOf = valuation, let c = resolver.custom(pair, on: asOf ?? day) {
            return intern(ResolvedRate(pair: pair, rate: c.rate, origin: .custom(c)))
        }
        if valuation == .latest, let c = resolver.custom(pair, on: Day(number: .max)) {
            return intern(ResolvedRate(pair: pair, rate: c.rate, origin: .custom(c)))
        }
        guard let q = resolver.market(pair, on: asOf) else { return nil }
        // Under `at latest`, a rate is as fresh as its fetch (when the source records one) or its date.
        if valuation == .latest, let today, resolver.freshness(q) < today {
            stale[pair] = StaleRate(pair: pair, day: q.oldestDay, freshness: resolver.freshness(q), today: today)
        }
        if provenance.oldestMarketDay.map({ q.oldestDay < $0 }) ?? true { provenance.oldestMarketDay = q.oldestDay }
        if provenance.newestMarketDay.map({ q.newestDay > $0 }) ?? true { provenance.newestMarketDay = q.newestDay }
        return intern(ResolvedRate(pair: pair, rate: q.rate, origin: .market(q)))
    }

    private func intern(_ r: ResolvedRate) -> Int {
        if let id = rateIDs[r] { return id }
        let id = rates.count
        rates.append(r)
        if let f = r.rate.factor { factors.append(f) } else { factors.append(.zero); unrepresentable = true }
        rateIDs[r] = id
        return id
    }

    /// Converts a native sum (at the store's amount scale) at rate `id`: an exact product.
    public func convert(nativeSum: BigInt, rate id: Int) -> WideDecimal {
        let f = factors[id]
        return WideDecimal(nativeSum * BigInt(f.significand), scale: store.amountScale + f.scale)
    }
}

extension WideDecimal {
    /// Fractional digits kept by a division (an average): far beyond the 28 significant digits §3 asks.
    public static let quotientScale = 40

    /// `amount × 10^-scale × rate`: the exact product with the rate's factor.
    public static func convert(_ amount: BigInt, scale: Int, at rate: Rate) -> WideDecimal? {
        guard let f = rate.factor else { return nil }
        return WideDecimal(amount * BigInt(f.significand), scale: scale + f.scale)
    }
}

/// A 128-bit running sum that widens instead of overflowing.
public struct WideSum: Sendable {
    public private(set) var small: Int128 = 0
    public private(set) var big: BigInt?

    public init() {}

    @inline(__always)
    public mutating func add(_ v: Int128) {
        let (s, o) = small.addingReportingOverflow(v)
        if _fastPath(!o) { small = s; return }
        big = (big ?? BigInt(0)) + BigInt(small) + BigInt(v)
        small = 0
    }

    public var value: BigInt { (big ?? BigInt(0)) + BigInt(small) }
}

/// An exact running sum of products of two 128-bit integers, in 256 bits: a row's
/// amount times its conversion factor costs one full-width multiply and one add, no
/// allocation. 2^255 is far beyond any ledger; reaching it is reported, not wrapped.
public struct ProductSum: Sendable {
    var high: Int128 = 0
    var low: UInt128 = 0
    public private(set) var overflowed = false

    public init() {}

    @inline(__always)
    public mutating func add(_ a: Int128, times b: Int128) {
        // Most products fit 128 bits; only the rest need the full-width multiply.
        let (p, o) = a.multipliedReportingOverflow(by: b)
        if _fastPath(!o) {
            add(high: p < 0 ? -1 : 0, low: UInt128(truncatingIfNeeded: p))
        } else {
            let w = a.multipliedFullWidth(by: b)
            add(high: w.high, low: w.low)
        }
    }

    @inline(__always)
    mutating func add(high h: Int128, low l: UInt128) {
        let (newLow, carry) = low.addingReportingOverflow(l)
        low = newLow
        let (h1, o1) = high.addingReportingOverflow(h)
        let (h2, o2) = h1.addingReportingOverflow(carry ? 1 : 0)
        high = h2
        if o1 || o2 { overflowed = true }
    }

    public var value: BigInt { (BigInt(high) << 128) + BigInt(low) }
}

/// An exact sum of converted amounts: each row adds its amount times its conversion
/// factor (1 when already in the target), kept per scale of the product.
public struct ConvertedSum: Sendable {
    private var parts: [(scale: Int, sum: ProductSum)] = []
    public private(set) var count = 0

    public init() {}

    @inline(__always)
    public mutating func add(_ amount: Int128, times factor: Int128, scale: Int) {
        count += 1
        for i in parts.indices where parts[i].scale == scale {
            parts[i].sum.add(amount, times: factor)
            return
        }
        var s = ProductSum()
        s.add(amount, times: factor)
        parts.append((scale, s))
    }

    /// The exact total; nil only past 2^255.
    public var total: WideDecimal? {
        var t = WideDecimal.zero
        for part in parts {
            if part.sum.overflowed { return nil }
            t = t + WideDecimal(part.sum.value, scale: part.scale)
        }
        return t
    }
}
