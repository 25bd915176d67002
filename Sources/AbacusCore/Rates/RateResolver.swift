// Finding the rate for a pair of currencies on a day: custom, then market rates
// (docs/conversion.md#custom-rates, #market-rates, #chains).
//
// Custom rates: set in this session (undated, always apply), else the file's
// customRates for the pair or its inverse, undated ones always applying, dated
// ones from their date on, the newest applicable winning.
//
// Market rates: every single source that prices X→Y (a pair X→Y or Y→X, or a
// snapshot quoting both currencies, directly or through its base) goes on a
// timeline sorted by (date, pair-before-snapshot, file order). The rate for a day
// is the last source dated on or before it; when every source is dated after,
// the oldest one, flagged so the caller can warn. Only when no single source
// prices the pair at any date is a two-leg chain used, through USD first and then
// the other quoted currencies alphabetically, each leg by the same date rule.

public struct CurrencyPair: Hashable, Sendable, CustomStringConvertible {
    public var from: Currency
    public var to: Currency
    public init(_ from: Currency, _ to: Currency) { self.from = from; self.to = to }
    public var inverse: CurrencyPair { CurrencyPair(to, from) }
    public var description: String { "\(from.code)/\(to.code)" }
}

/// Where a single market rate came from.
public enum MarketSource: Hashable, Sendable {
    case snapshot(Int)
    case pair(Int)
}

/// One priced leg of a market rate.
public struct MarketLeg: Hashable, Sendable {
    public var pair: CurrencyPair
    public var source: MarketSource
    public var day: Day
    public var rate: Rate
    /// True when the source is dated after the day asked for (no earlier source existed).
    public var isAfterRequestedDay: Bool
}

public struct MarketQuote: Hashable, Sendable {
    public var legs: [MarketLeg]
    public var rate: Rate
    /// The intermediate currency of a chain.
    public var via: Currency? { legs.count == 2 ? legs[0].pair.to : nil }
    public var isAfterRequestedDay: Bool { legs.contains { $0.isAfterRequestedDay } }
    public var newestDay: Day { legs.map(\.day).max() ?? Day(number: 0) }
    public var oldestDay: Day { legs.map(\.day).min() ?? Day(number: 0) }
}

public struct CustomQuote: Hashable, Sendable {
    public enum Origin: Hashable, Sendable {
        case session
        case file(index: Int)
    }
    public var origin: Origin
    public var rate: Rate
    public var day: Day?
}

/// Rates the user set with `set rate` in this session, one per unordered pair.
public struct SessionRates: Sendable {
    public private(set) var rates: [CurrencyPair: ExactDecimal] = [:]
    public init() {}

    public mutating func set(_ pair: CurrencyPair, _ rate: ExactDecimal) {
        rates[pair.inverse] = nil
        rates[pair] = rate
    }

    @discardableResult
    public mutating func unset(_ pair: CurrencyPair) -> Bool {
        rates.removeValue(forKey: pair) != nil || rates.removeValue(forKey: pair.inverse) != nil
    }

    public func rate(_ pair: CurrencyPair) -> Rate? {
        if let r = rates[pair] { return Rate(r) }
        if let r = rates[pair.inverse] { return Rate(r).inverse }
        return nil
    }
}

public final class RateResolver: @unchecked Sendable {
    public let ledger: Ledger
    public let session: SessionRates

    private struct TimelinePoint {
        var day: Day
        var isPair: Bool
        var order: Int
        var source: MarketSource
        var rate: Rate
    }
    private var timelines: [CurrencyPair: [TimelinePoint]] = [:]
    private var chains: [CurrencyPair: Currency?] = [:]
    private var customByPair: [CurrencyPair: [(day: Day?, index: Int, rate: Rate)]]?
    /// Every currency some market source quotes.
    public private(set) lazy var quotedCurrencies: [Currency] = {
        var s = Set<Currency>()
        for snap in ledger.snapshots { s.insert(snap.base); s.formUnion(snap.rates.keys) }
        for p in ledger.pairs { s.insert(p.from); s.insert(p.to) }
        return s.sorted()
    }()

    /// Every currency some market source quotes, or a custom rate (of the file or the session) names.
    public func quotedCurrencies(with customRates: [RatePair], session: SessionRates) -> [Currency] {
        var s = Set(quotedCurrencies)
        for c in customRates { s.insert(c.from); s.insert(c.to) }
        for p in session.rates.keys { s.insert(p.from); s.insert(p.to) }
        return s.sorted()
    }

    public init(ledger: Ledger, session: SessionRates = SessionRates()) {
        self.ledger = ledger
        self.session = session
    }

    /// Custom then market rates (docs/conversion.md#rules) for a pair on `day` (`nil`: the newest): a custom rate,
    /// else the market's; nil when neither has one.
    public func resolve(_ pair: CurrencyPair, on day: Day?) -> ResolvedRate? {
        if let c = custom(pair, on: day ?? Day(number: .max)) {
            return ResolvedRate(pair: pair, rate: c.rate, origin: .custom(c))
        }
        guard let q = market(pair, on: day) else { return nil }
        return ResolvedRate(pair: pair, rate: q.rate, origin: .market(q))
    }

    // MARK: Custom

    public func custom(_ pair: CurrencyPair, on day: Day) -> CustomQuote? {
        if let r = session.rate(pair) { return CustomQuote(origin: .session, rate: r, day: nil) }
        if customByPair == nil { buildCustomIndex() }
        guard let list = customByPair?[pair] else { return nil }
        // Sorted undated first, then by date, then file order: the last applicable wins.
        var best: (day: Day?, index: Int, rate: Rate)?
        for c in list {
            if let d = c.day, d > day { break }
            best = c
        }
        guard let best else { return nil }
        return CustomQuote(origin: .file(index: best.index), rate: best.rate, day: best.day)
    }

    private func buildCustomIndex() {
        var index: [CurrencyPair: [(day: Day?, index: Int, rate: Rate)]] = [:]
        for (i, c) in ledger.customRates.enumerated() {
            let pair = CurrencyPair(c.from, c.to)
            index[pair, default: []].append((c.day, i, Rate(c.rate)))
            index[pair.inverse, default: []].append((c.day, i, Rate(c.rate).inverse))
        }
        for key in Array(index.keys) {
            index[key]?.sort { a, b in
                let da = a.day?.number ?? Int32.min, db = b.day?.number ?? Int32.min
                return (da, a.index) < (db, b.index)
            }
        }
        customByPair = index
    }

    // MARK: Market

    /// The market rate for the pair on `day` (`nil` day: the newest available).
    public func market(_ pair: CurrencyPair, on day: Day?) -> MarketQuote? {
        if let leg = single(pair, on: day) { return MarketQuote(legs: [leg], rate: leg.rate) }
        guard let via = chainCurrency(pair),
              let first = single(CurrencyPair(pair.from, via), on: day),
              let second = single(CurrencyPair(via, pair.to), on: day),
              let rate = first.rate.then(second.rate) else { return nil }
        return MarketQuote(legs: [first, second], rate: rate)
    }

    /// The currency market rates chain `pair` through when no single source prices it, yet its
    /// legs' product cannot be held (`Rate.then`) on some day: nil when it has no such chain.
    public func unheldChain(_ pair: CurrencyPair) -> Currency? {
        hasSingleSource(pair) ? nil : chainCurrency(pair)
    }

    /// True when some single source prices the pair at some date.
    public func hasSingleSource(_ pair: CurrencyPair) -> Bool { !timeline(pair).isEmpty }

    private func single(_ pair: CurrencyPair, on day: Day?) -> MarketLeg? {
        let points = timeline(pair)
        guard let firstPoint = points.first, let lastPoint = points.last else { return nil }
        guard let day else {
            return MarketLeg(pair: pair, source: lastPoint.source, day: lastPoint.day, rate: lastPoint.rate, isAfterRequestedDay: false)
        }
        // Last point with point.day <= day.
        var lo = 0, hi = points.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if points[mid].day <= day { lo = mid + 1 } else { hi = mid }
        }
        if lo > 0 {
            let p = points[lo - 1]
            return MarketLeg(pair: pair, source: p.source, day: p.day, rate: p.rate, isAfterRequestedDay: false)
        }
        // Every source is dated after: the oldest date, and on it the winner of the tie rule.
        var k = 0
        while k + 1 < points.count && points[k + 1].day == firstPoint.day { k += 1 }
        let p = points[k]
        return MarketLeg(pair: pair, source: p.source, day: p.day, rate: p.rate, isAfterRequestedDay: true)
    }

    private func timeline(_ pair: CurrencyPair) -> [TimelinePoint] {
        if let t = timelines[pair] { return t }
        var points: [TimelinePoint] = []
        for (i, p) in ledger.pairs.enumerated() {
            guard let d = p.day else { continue }
            if p.from == pair.from && p.to == pair.to {
                points.append(TimelinePoint(day: d, isPair: true, order: p.order, source: .pair(i), rate: Rate(p.rate)))
            } else if p.from == pair.to && p.to == pair.from {
                points.append(TimelinePoint(day: d, isPair: true, order: p.order, source: .pair(i), rate: Rate(p.rate).inverse))
            }
        }
        for (i, s) in ledger.snapshots.enumerated() {
            // Value of one unit of the base in each currency: base = 1.
            let x = pair.from == s.base ? ExactDecimal.one : s.rates[pair.from]
            let y = pair.to == s.base ? ExactDecimal.one : s.rates[pair.to]
            guard let x, let y else { continue }
            points.append(TimelinePoint(day: s.day, isPair: false, order: s.order, source: .snapshot(i),
                                        rate: Rate(numerator: y, denominator: x)))
        }
        points.sort { a, b in
            if a.day != b.day { return a.day < b.day }
            if a.isPair != b.isPair { return !a.isPair }   // snapshot first, so a pair wins as the later
            return a.order < b.order
        }
        timelines[pair] = points
        return points
    }

    private func chainCurrency(_ pair: CurrencyPair) -> Currency? {
        if let c = chains[pair] { return c }
        var candidates = quotedCurrencies.filter { $0 != pair.from && $0 != pair.to }
        if let usd = Currency(code: "USD"), let i = candidates.firstIndex(of: usd) {
            candidates.remove(at: i)
            candidates.insert(usd, at: 0)
        }
        let via = candidates.first { c in
            hasSingleSource(CurrencyPair(pair.from, c)) && hasSingleSource(CurrencyPair(c, pair.to))
        }
        chains[pair] = .some(via)
        return via
    }

    /// Every single market source for the pair, oldest first (the history of a pair).
    public func history(_ pair: CurrencyPair) -> [MarketLeg] {
        timeline(pair).map { MarketLeg(pair: pair, source: $0.source, day: $0.day, rate: $0.rate, isAfterRequestedDay: false) }
    }

    /// When the quote's oldest leg (the one its age counts from: `oldestDay`) was fetched, if
    /// after its own date (a live rate): a chain's other leg's fetch says nothing of its age.
    public func fetchDay(_ q: MarketQuote) -> Day? {
        q.legs.filter { $0.day == q.oldestDay }.compactMap { leg -> Day? in
            guard case .snapshot(let i) = leg.source, let fetched = ledger.snapshots[i].fetchedAt.flatMap(Day.parse), fetched > leg.day else { return nil }
            return fetched
        }.max()
    }

    // MARK: Descriptions

    /// Where a rate came from, in words: `market snapshot 2025-10-04 (demo) via USD`.
    public func describe(_ origin: RateOrigin) -> String {
        switch origin {
        case .whatIf: return "what-if, in this statement"
        case .bookedShare: return "booked normalizedAmount, shared among its splits"
        case .locked(let b):
            let book = ledger.books[b]
            return "book \"\(book.name)\" locked" + (book.rateLockedAt.map { " \($0)" } ?? "")
        case .custom(let q):
            switch q.origin {
            case .session: return "custom, set in this session"
            case .file(let i):
                let c = ledger.customRates[i]
                return "custom rate" + (c.source.map { " (\($0))" } ?? "") + (c.day.map { " from \($0)" } ?? ", undated")
            }
        case .market(let q):
            if let via = q.via {
                return q.legs.map { describe($0.source) }.joined(separator: " and ") + " via \(via)"
            }
            guard let leg = q.legs.first else { return "market" }
            // A cross rate inside a snapshot: both currencies quoted against its base.
            if case .snapshot(let i) = leg.source, leg.pair.from != ledger.snapshots[i].base, leg.pair.to != ledger.snapshots[i].base {
                return describe(leg.source) + " via \(ledger.snapshots[i].base)"
            }
            return describe(leg.source)
        }
    }

    public func describe(_ source: MarketSource) -> String {
        switch source {
        case .snapshot(let i):
            let s = ledger.snapshots[i]
            return "market snapshot \(s.day)" + (s.source.map { " (\($0))" } ?? "")
        case .pair(let i):
            let p = ledger.pairs[i]
            return "market rate \(p.from)/\(p.to) \(p.day.map { "\($0)" } ?? "")" + (p.source.map { " (\($0))" } ?? "")
        }
    }
}
