// Live rates, as the engine sees them: a source that fetches market snapshots (or
// reuses fresh cached ones) and describes where the session's market rates came
// from. The shell provides one (it may use the network); the engine adds what a
// refresh returns to the session's rates itself, so a source never reaches into
// a session.

public protocol LiveRateSource: AnyObject {
    /// Fetches (or reuses fresh cached) rates against `base` (nil: the source's default).
    func refresh(base: Currency?, force: Bool, market: MarketRates) throws(LiveRateError) -> LiveRefresh
    /// Each source of the session's market rates: its newest date, when it was fetched, its age.
    func status(market: MarketRates) -> LiveRatesStatus
}

/// The session's market rates as a live source needs to see them.
public struct MarketRates: Sendable {
    public var ledger: Ledger
    public var today: Day
    /// The session's currency.
    public var currency: Currency

    public init(ledger: Ledger, today: Day, currency: Currency) {
        self.ledger = ledger
        self.today = today
        self.currency = currency
    }
}

/// What a refresh brings: snapshots to add (none when it fetched nothing) and what it did, in a sentence.
public struct LiveRefresh: Sendable {
    public var snapshots: [RateSnapshot]
    public var message: String

    public init(snapshots: [RateSnapshot], message: String) {
        self.snapshots = snapshots
        self.message = message
    }
}

public struct LiveRatesStatus: Sendable {
    public struct Source: Sendable {
        public var kind: String
        public var from: String
        public var newest: Day
        public var fetched: String?
        public var age: String

        public init(kind: String, from: String, newest: Day, fetched: String?, age: String) {
            self.kind = kind
            self.from = from
            self.newest = newest
            self.fetched = fetched
            self.age = age
        }
    }
    public var sources: [Source]
    /// The provider, the TTL and the cache, in a line.
    public var settings: String

    public init(sources: [Source], settings: String) {
        self.sources = sources
        self.settings = settings
    }
}

/// A refresh that cannot be made (a setting out of range, an unusable URL): the statement fails.
public struct LiveRateError: Error, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
}
