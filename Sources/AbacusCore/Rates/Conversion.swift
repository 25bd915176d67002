// Converting entries into a target currency (docs/conversion.md), exactly.
//
// `RateColumn` knows, row by row, which rule of conversion applies for a target and a
// valuation — booked (normalizedAmount, conversionRate, the book's locked rate),
// custom, market — as a rate id; `RowConverter` lays a statement's what-if rates
// (step 1) over it. Every rate becomes a decimal factor: the rate itself when it
// is a decimal, or the quotient to 34 significant digits for an inverse, cross or
// chained rate. An entry's converted value is its amount times that factor, an
// exact product, and products are summed exactly (`Int256`). Where a factor is a
// cut quotient, the error it can make is bounded and, when it could change a
// rounding, the value is worked out again exactly (`Fraction`). `ConversionTally`
// counts where every entry's rate came from.

import BigInt

/// How amounts are valued (docs/conversion.md#valuations).
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
    /// A part of a split entry whose booked value is a normalizedAmount: the entry's booked
    /// rate, normalizedAmount ÷ amount, as an exact fraction (docs/conversion.md#splits).
    /// `entry` is the part's row in the split view.
    case bookedShare(entry: Int)
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
    /// Entries converted at market rates more than `RateAgePolicy.staleAfterDays` old, and the oldest age.
    public var staleMarket = 0
    public var oldestMarketAgeInDays: Int?
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
    public var lastEntryDay: Day
    public var entries: Int
    /// Of a chain, the legs that were late (the pair itself has no source to be late).
    public var legs: [CurrencyPair] = []

    public var warning: String {
        let what = entries == 1 ? "1 entry" : "\(entries) entries"
        let named = "\(pair)" + (legs.isEmpty ? "" : " (its \(legs.count == 1 ? "leg" : "legs") \(legs.map(\.description).joined(separator: " and ")))")
        if firstEntryDay == lastEntryDay {
            return "no market rate for \(named) on or before \(firstEntryDay); used the oldest, dated \(sourceDay), for \(what)"
        }
        return "no market rate for \(named) on or before the dates of \(what) (\(firstEntryDay)..\(lastEntryDay)); used the oldest, dated \(sourceDay)"
    }
}

/// Under `at latest`, a newest rate dated before today: how stale it is (docs/conversion.md#valuations).
public struct StaleRate: Sendable, Equatable {
    public var pair: CurrencyPair
    /// The rate's own date, which its age counts from.
    public var day: Day
    /// When it was fetched, if the source records a fetch after its date (a live rate).
    public var fetched: Day?
    public var ageInDays: Int

    public init(pair: CurrencyPair, day: Day, fetched: Day?, today: Day) {
        self.pair = pair
        self.day = day
        self.fetched = fetched
        self.ageInDays = Int(today.number - day.number)
    }

    public var warning: String {
        let days = "\(ageInDays) \(ageInDays == 1 ? "day" : "days")"
        return "the newest \(pair) rate is dated \(day), \(days) before today" + (fetched.map { " (fetched on \($0))" } ?? "")
    }
}

/// How old a market rate may be. A rate used for a date is stale when its source is dated
/// more than `staleAfterDays` before that date (a weekend or a holiday is shorter): a
/// statement converting at one says so. With `maxAgeDays`, a rate older than that many days
/// is refused, as a missing rate is. The age of a chain is held leg by leg.
public struct RateAgePolicy: Sendable, Hashable {
    public static let staleAfterDays = 7
    /// The largest maximum age a user may set (`set max rate age`, `--max-rate-age`): 273 years.
    public static let mostDays = 100_000
    /// Nil: no limit.
    public var maxAgeDays: Int?

    public init(maxAgeDays: Int? = nil) { self.maxAgeDays = maxAgeDays }

    /// From what age a rate's uses are told apart day by day (the smaller of the two limits).
    var noticedAfterDays: Int { min(RateAgePolicy.staleAfterDays, maxAgeDays ?? RateAgePolicy.staleAfterDays) }
}

/// The age of each leg of a market rate on the day it was used for.
public struct RateAge: Sendable, Hashable {
    public struct Leg: Sendable, Hashable {
        public var pair: CurrencyPair
        public var day: Day
        public var ageInDays: Int
    }
    /// The day the rate was asked for (an entry's date, or the valuation's date).
    public var usedOn: Day
    public var legs: [Leg]
    /// The age of the oldest leg.
    public var ageInDays: Int { legs.map(\.ageInDays).max() ?? 0 }

    /// A market quote's legs, aged on `day`; a leg dated after the day is 0 days old.
    public init(_ quote: MarketQuote, usedOn day: Day) {
        usedOn = day
        legs = quote.legs.map { Leg(pair: $0.pair, day: $0.day, ageInDays: max(0, Int(day.number) - Int($0.day.number))) }
    }

    /// The legs older than `days`.
    public func legs(olderThan days: Int) -> [Leg] { legs.filter { $0.ageInDays > days } }
}

/// Market rates older than a limit, per pair converted: how many entries, the oldest age,
/// and, for a chain, which legs were too old.
public struct AgedRateUse: Sendable, Equatable {
    public var pair: CurrencyPair
    /// The intermediate currency of a chain.
    public var via: Currency?
    public var entries: Int
    public var oldestAgeInDays: Int
    /// Legs past the limit (for a single source, the pair itself), with their oldest age.
    public var legs: [CurrencyPair: Int]

    /// `SGD/INR (2, oldest 12 days)`, `EUR/INR via USD (1, oldest 9 days: USD/INR)`.
    public var brief: String {
        var s = "\(pair)" + (via.map { " via \($0)" } ?? "") + " (\(entries), oldest \(AgedRateUse.days(oldestAgeInDays))"
        if via != nil { s += ": " + legs.keys.sorted { ($0.from, $0.to) < ($1.from, $1.to) }.map(\.description).joined(separator: ", ") }
        return s + ")"
    }

    /// `SGD/INR: 2 entries, 12 days old`, `EUR/INR via USD: 1 entry, leg USD/INR 9 days old`.
    public var line: String {
        var s = "\(pair)" + (via.map { " via \($0)" } ?? "") + ": \(entries) \(entries == 1 ? "entry" : "entries"), "
        if via != nil {
            s += legs.sorted { ($0.key.from, $0.key.to) < ($1.key.from, $1.key.to) }.map { "leg \($0.key) \(AgedRateUse.days($0.value)) old" }.joined(separator: ", ")
        } else {
            s += "\(AgedRateUse.days(oldestAgeInDays)) old"
        }
        return s
    }

    public static func days(_ n: Int) -> String { "\(n) \(n == 1 ? "day" : "days")" }

    /// The one warning line for stale rates: `3 entries converted at market rates more than 7 days old: …`.
    public static func warning(_ uses: [AgedRateUse], olderThan days: Int) -> String {
        let total = uses.reduce(0) { $0 + $1.entries }
        return "\(total) \(total == 1 ? "entry" : "entries") converted at market rates more than \(AgedRateUse.days(days)) old: "
            + uses.map(\.brief).joined(separator: ", ")
    }
}

/// The rates one statement converts at, as its tally reads them (`ConversionTally`): a
/// rate id indexes `rates`; `RateColumn.missingBase - k` stands for `missingPairs[k]`. The
/// in-memory engine's `RowConverter` is one; a database engine's `RateCalendar` another, so
/// both tell the same provenance, warnings and errors from the same code.
public protocol ConversionRates {
    var target: Currency { get }
    /// The rates, what-if rates last.
    var rates: [ColumnRate] { get }
    var missingPairs: [CurrencyPair] { get }
    /// The one day rates are taken as of (`at DATE`, `at latest`), or nil.
    var asOf: Day? { get }
    var agePolicy: RateAgePolicy { get }
    /// Each what-if rate as given, with the rate id it converts at (nil: no row can use it).
    var whatIfUse: [(given: CurrencyPair, id: Int32?)] { get }
}

/// A statement's what-if rates (docs/conversion.md#what-if-rates) laid over the rates of
/// its valuation: each appended as a rate converting its pair into the target.
public struct WhatIfOverlay {
    /// `base`, then the what-if rates.
    public var rates: [ColumnRate]
    /// The what-if rate id that replaces every other rule for entries in a currency.
    public var byCurrency: [(from: Currency, id: Int32)] = []
    public var uses: [(given: CurrencyPair, id: Int32?)] = []

    public init(_ base: [ColumnRate], target: Currency, whatIf: [CurrencyPair: ExactDecimal]) {
        rates = base
        for (given, value) in whatIf.sorted(by: { ($0.key.from, $0.key.to) < ($1.key.from, $1.key.to) }) {
            let pair: CurrencyPair
            let rate: Rate
            if given.to == target { pair = given; rate = Rate(value) }
            else if given.from == target { pair = given.inverse; rate = Rate(value).inverse }
            else { uses.append((given, nil)); continue }
            guard let r = ColumnRate(ResolvedRate(pair: pair, rate: rate, origin: .whatIf(pair))) else { uses.append((given, nil)); continue }
            byCurrency.append((pair.from, Int32(rates.count)))
            uses.append((given, Int32(rates.count)))
            rates.append(r)
        }
    }
}

/// Converting the rows of one statement: the session's `RateColumn` for the target and
/// valuation, with the statement's what-if rates (docs/conversion.md#what-if-rates) laid over it.
public final class RowConverter: ConversionRates, @unchecked Sendable {
    /// The store's columns a conversion reads (not the whole store: this struct is copied into inner loops).
    @usableFromInline let currency: StoreColumn<Currency>
    @usableFromInline let bookedIndex: StoreColumn<Int32>
    @usableFromInline let booked: BookedColumns
    public let amountScale: Int
    public let target: Currency
    public let valuation: Valuation
    public let column: RateColumn
    /// The column's rates, then the statement's what-if rates.
    public let rates: [ColumnRate]
    /// Per packed currency code, the what-if rate that replaces the column's; empty without what-ifs.
    public let whatIfID: [Int32]
    /// `rates[id].factor` split up, for the inner loops.
    public let factorSignificand: [Int128]
    public let factorScale: [Int]
    public let factorIsExact: [Bool]
    /// Each what-if rate as given, with the rate id it converts at (nil when neither of its
    /// currencies is the target, so no row can use it).
    public let whatIfUse: [(given: CurrencyPair, id: Int32?)]

    public init(column: RateColumn, store: EntryStore, whatIf: [CurrencyPair: ExactDecimal]) {
        self.currency = store.currency
        self.bookedIndex = store.bookedIndex
        self.booked = store.booked
        self.amountScale = store.amountScale
        self.target = column.target
        self.valuation = column.valuation
        self.column = column
        let overlay = WhatIfOverlay(column.rates, target: column.target, whatIf: whatIf)
        var byCurrency: [Int32] = []
        if !whatIf.isEmpty {
            byCurrency = [Int32](repeating: -1, count: 26 * 26 * 26 + 1)
            for (from, id) in overlay.byCurrency { byCurrency[Int(from.packed)] = id }
        }
        self.rates = overlay.rates
        self.whatIfID = byCurrency
        self.whatIfUse = overlay.uses
        factorSignificand = rates.map(\.factor.significand)
        factorScale = rates.map(\.factor.scale)
        factorIsExact = rates.map(\.isExact)
    }

    public var missingPairs: [CurrencyPair] { column.missingPairs }
    public var asOf: Day? { column.asOf }
    public var agePolicy: RateAgePolicy { column.agePolicy }

    /// The rate id (or `RateColumn` code) of a row.
    @inlinable @inline(__always)
    public func id(_ row: Int) -> Int32 {
        if !whatIfID.isEmpty {
            let w = whatIfID[Int(currency[row].packed)]
            if w >= 0 { return w }
        }
        return column.ids[row]
    }

    /// A row's converted value, exact, as a 256-bit integer at a scale: `amount` is the row's
    /// amount as the statement shows it (negated for expenses, with `negate`). Nil when the row
    /// has no usable rate.
    @inlinable @inline(__always)
    public func product(_ row: Int, id: Int32, amount: Int128, negate: Bool) -> (value: Int256, scale: Int)? {
        if id >= 0 {
            let i = Int(id)
            return (Int256(amount, times: factorSignificand[i]), amountScale + factorScale[i])
        }
        switch id {
        case RateColumn.same: return (Int256(amount), amountScale)
        case RateColumn.normalized:
            let b = Int(bookedIndex[row])
            let n = booked.normalizedAmount[b]
            return (Int256(negate ? -n : n), Int(booked.normalizedScale[b]))
        case RateColumn.conversionRate:
            let b = Int(bookedIndex[row])
            return (Int256(amount, times: booked.conversionRate[b]), amountScale + Int(booked.conversionRateScale[b]))
        default: return nil
        }
    }

    /// The same value as a bounded approximation: exact unless the row's rate is a quotient
    /// whose factor is inexact, then within `productError`.
    public func bounded(_ row: Int, id: Int32, amount: Int128, negate: Bool) -> BoundedValue? {
        guard let (p, scale) = product(row, id: id, amount: amount, negate: negate) else { return nil }
        return BoundedValue(approximate: WideDecimal(p.big, scale: scale), error: productError(amount: amount, id: id) ?? .zero)
    }

    /// How far `product` may be from the exact value at rate `id`: nil when it is exact (a
    /// code, or a factor that is exact), else |amount| × ½ unit of the product's last place.
    public func productError(amount: Int128, id: Int32) -> WideDecimal? {
        guard id >= 0, !factorIsExact[Int(id)] else { return nil }
        return WideDecimal(BigInt(amount.magnitude) * 5, scale: amountScale + factorScale[Int(id)] + 1)
    }

    /// The exact converted value of `amount` at rate `id` (a rate id, not a code).
    public func exactValue(amount: Int128, id: Int32) -> Fraction {
        rates[Int(id)].resolved.rate.converted(BigInt(amount), scale: amountScale)
    }
}
/// What the rows of one statement needed: how many were converted at each rate, and
/// which pairs had no rate. `Provenance`, the missing-rate error and the warnings come
/// from here.
public struct ConversionTally: Sendable {
    /// Rows per rate id.
    public var perRate: [Int]
    /// Rows per missing pair (`RateColumn.missingPairs`).
    public var missing: [Int]
    public var same = 0
    public var normalized = 0
    public var conversionRate = 0
    public var unusable = 0
    /// Which rates are late (dated after the day asked for), and the first and last day each
    /// was used on: only their warnings need the days.
    @usableFromInline let isLate: [Bool]
    @usableFromInline var firstDay: [Int32]
    @usableFromInline var lastDay: [Int32]

    /// The tally of a statement that converts nothing.
    public static var none: ConversionTally { ConversionTally(late: [], missing: 0) }

    public init(_ c: some ConversionRates) {
        self.init(late: c.rates.map(\.isLate), missing: c.missingPairs.count)
    }

    private init(late: [Bool], missing pairs: Int) {
        let rates = late.count
        isLate = late
        perRate = [Int](repeating: 0, count: rates)
        missing = [Int](repeating: 0, count: pairs)
        firstDay = [Int32](repeating: .max, count: rates)
        lastDay = [Int32](repeating: .min, count: rates)
    }


    @inlinable @inline(__always)
    public mutating func count(_ id: Int32, day: Int32) {
        if id >= 0 {
            let i = Int(id)
            perRate[i] &+= 1
            if isLate[i] {
                if day < firstDay[i] { firstDay[i] = day }
                if day > lastDay[i] { lastDay[i] = day }
            }
            return
        }
        switch id {
        case RateColumn.same: same &+= 1
        case RateColumn.normalized: normalized &+= 1
        case RateColumn.conversionRate: conversionRate &+= 1
        case RateColumn.unusable: unusable &+= 1
        default: missing[Int(RateColumn.missingBase - id)] &+= 1
        }
    }

    /// Counts `entries` rows of one day at rate `id` (or a `RateColumn` code) at once: what a
    /// database reports per currency and day.
    public mutating func count(_ id: Int32, day: Int32, entries: Int) {
        guard entries > 0 else { return }
        count(id, day: day)
        let more = entries - 1
        if id >= 0 { perRate[Int(id)] += more; return }
        switch id {
        case RateColumn.same: same += more
        case RateColumn.normalized: normalized += more
        case RateColumn.conversionRate: conversionRate += more
        case RateColumn.unusable: unusable += more
        default: missing[Int(RateColumn.missingBase - id)] += more
        }
    }

    /// Adds what a scan counted on its own: rows per rate id, and the days late rates were used on.
    public mutating func add(perRate counts: UnsafeMutableBufferPointer<Int>, firstDay first: UnsafeMutableBufferPointer<Int32>,
                             lastDay last: UnsafeMutableBufferPointer<Int32>) {
        for i in perRate.indices where counts[i] > 0 {
            perRate[i] += counts[i]
            firstDay[i] = min(firstDay[i], first[i])
            lastDay[i] = max(lastDay[i], last[i])
        }
    }

    /// Adds another tally of the same conversion (a second thread's).
    public mutating func merge(_ o: ConversionTally) {
        for i in perRate.indices {
            perRate[i] += o.perRate[i]
            firstDay[i] = min(firstDay[i], o.firstDay[i])
            lastDay[i] = max(lastDay[i], o.lastDay[i])
        }
        for i in missing.indices { missing[i] += o.missing[i] }
        same += o.same
        normalized += o.normalized
        conversionRate += o.conversionRate
        unusable += o.unusable
    }

    /// Pairs some row needed and no rate priced, with their counts.
    public func missingRates(_ c: some ConversionRates) -> [MissingRate] {
        missing.indices.filter { missing[$0] > 0 }.map { MissingRate(pair: c.missingPairs[$0], entries: missing[$0]) }
            .sorted { ($0.pair.from, $0.pair.to) < ($1.pair.from, $1.pair.to) }
    }

    public func provenance(_ c: some ConversionRates) -> Provenance {
        var p = Provenance()
        p.unconverted = same
        p.bookedNormalized = normalized
        p.bookedConversionRate = conversionRate
        // Each rate's fields read where they lie: a whole rate copied is a dozen references retained.
        let rates = c.rates
        for (i, n) in perRate.enumerated() where n > 0 {
            switch rates[i].kind {
            case .whatIf: p.whatIf += n
            case .locked: p.bookedLocked += n
            case .bookedShare: p.bookedNormalized += n
            case .custom: p.custom += n
            case .market:
                p.market += n
                if let d = rates[i].oldestDay, p.oldestMarketDay.map({ d < $0 }) ?? true { p.oldestMarketDay = d }
                if let d = rates[i].newestDay, p.newestMarketDay.map({ d > $0 }) ?? true { p.newestMarketDay = d }
                if let age = rates[i].age?.ageInDays, age > RateAgePolicy.staleAfterDays {
                    p.staleMarket += n
                    p.oldestMarketAgeInDays = max(p.oldestMarketAgeInDays ?? 0, age)
                }
            }
        }
        return p
    }

    /// Market rates dated after the entries they priced (the oldest there was), per pair.
    public func lateRateUses(_ c: some ConversionRates) -> [LateRateUse] {
        var late: [CurrencyPair: LateRateUse] = [:]
        let rates = c.rates
        for (i, n) in perRate.enumerated() where n > 0 && rates[i].isLate {
            guard case .market(let q) = rates[i].resolved.origin else { continue }
            let pair = rates[i].resolved.pair
            // The day a rate was asked for: the entry's, or the valuation date of `at DATE`.
            var first = Day(number: firstDay[i]), last = Day(number: lastDay[i])
            if let d = c.asOf { first = d; last = d }
            var use = late[pair] ?? LateRateUse(pair: pair, sourceDay: q.newestDay, firstEntryDay: first, lastEntryDay: last, entries: 0)
            if q.legs.count > 1 {
                // A leg is late for the entries it priced when dated after the first of them (the
                // quote's own flags are of the day it was resolved for, which a rate's other days
                // share), and the legs are named in the chain's order, whichever use came first.
                let late = Set(use.legs + q.legs.filter { $0.day > first }.map(\.pair))
                use.legs = q.legs.map(\.pair).filter(late.contains)
            }
            use.entries += n
            use.firstEntryDay = min(use.firstEntryDay, first)
            use.lastEntryDay = max(use.lastEntryDay, last)
            late[pair] = use
        }
        return late.values.sorted { ($0.pair.from, $0.pair.to) < ($1.pair.from, $1.pair.to) }
    }

    /// Under `at latest`: pairs whose newest market rate is older than today.
    public func staleRates(_ c: some ConversionRates) -> [StaleRate] {
        var stale: [CurrencyPair: StaleRate] = [:]
        let rates = c.rates
        for (i, n) in perRate.enumerated() where n > 0 {
            if let s = rates[i].stale { stale[s.pair] = s }
        }
        return stale.values.sorted { ($0.pair.from, $0.pair.to) < ($1.pair.from, $1.pair.to) }
    }

    /// Market rates older than `days` days on the dates they were used for, per pair (each rate's
    /// uses are told apart by day from `RateAgePolicy.noticedAfterDays` on). Rates under
    /// `at latest` whose age is already told by `staleRates` are left out unless `includingLatest`.
    public func agedRates(_ c: some ConversionRates, olderThan days: Int, includingLatest: Bool = true) -> [AgedRateUse] {
        var aged: [CurrencyPair: AgedRateUse] = [:]
        let rates = c.rates
        for (i, n) in perRate.enumerated() where n > 0 {
            guard let age = rates[i].age, includingLatest || rates[i].stale == nil, case .market(let q) = rates[i].resolved.origin else { continue }
            let old = age.legs(olderThan: days)
            guard !old.isEmpty else { continue }
            let pair = rates[i].resolved.pair
            var use = aged[pair] ?? AgedRateUse(pair: pair, via: q.via, entries: 0, oldestAgeInDays: 0, legs: [:])
            use.entries += n
            use.oldestAgeInDays = max(use.oldestAgeInDays, age.ageInDays)
            for leg in old { use.legs[leg.pair] = max(use.legs[leg.pair] ?? 0, leg.ageInDays) }
            // Rows of one pair may chain through different currencies on different days: name none then.
            if use.via != q.via { use.via = nil }
            aged[pair] = use
        }
        return aged.values.sorted { ($0.pair.from, $0.pair.to) < ($1.pair.from, $1.pair.to) }
    }

    /// Rates past the column's maximum age (`RateAgePolicy.maxAgeDays`): the statement must fail.
    public func tooOldRates(_ c: some ConversionRates) -> [AgedRateUse] {
        guard let limit = c.agePolicy.maxAgeDays else { return [] }
        return agedRates(c, olderThan: limit)
    }

    /// The staleness warning, when some rate was more than a week old (and within any maximum age).
    public func staleWarning(_ c: some ConversionRates) -> String? {
        let uses = agedRates(c, olderThan: RateAgePolicy.staleAfterDays, includingLatest: false)
        return uses.isEmpty ? nil : AgedRateUse.warning(uses, olderThan: RateAgePolicy.staleAfterDays)
    }

    /// What-if rates no row was converted at: most likely a mistyped code or the wrong pair.
    public func unusedWhatIfs(_ c: some ConversionRates) -> [String] {
        c.whatIfUse.compactMap { use in
            if let id = use.id, perRate[Int(id)] > 0 { return nil }
            let other = use.given.to == c.target ? use.given.from : (use.given.from == c.target ? use.given.to : nil)
            if let other { return ConversionTally.unused(use.given) + ": no entry in \(other) is converted by this statement" }
            return ConversionTally.unused(use.given) + ": this statement converts into \(c.target), and neither of its currencies is \(c.target)"
        }
    }

    /// How the warning of an unused what-if rate starts (`unusedWhatIfs`).
    public static func unused(_ pair: CurrencyPair) -> String { "the what-if rate \(pair) was not used" }

    /// The statement's warnings: stale rates (at latest, then by age), late ones, then unused what-if rates.
    public func warnings(_ c: some ConversionRates) -> [String] {
        staleRates(c).map(\.warning) + (staleWarning(c).map { [$0] } ?? []) + lateRateUses(c).map(\.warning) + unusedWhatIfs(c)
    }
}

extension WideDecimal {
    /// Fractional digits kept by a division (an average): far beyond the 28 significant digits promised (docs/conversion.md#exactness).
    public static let quotientScale = 40
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

