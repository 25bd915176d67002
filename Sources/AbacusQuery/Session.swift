// A session: the loaded ledger and the settings statements run under.
//
// `execute` takes the text of one statement through the whole pipeline — lexer →
// parser → (for a query) binder → physical planner → executor → result shaper —
// and returns its `Output`. Each kind of statement runs in its own file under
// `Statements/`; the session holds only what they share: the ledger, today, the
// currency, the session's custom rates and the rate columns built from them. The
// shell owns a session; the engine never prints.

import AbacusCore

public final class Session {
    public private(set) var ledger: Ledger
    public var today: Day
    /// `set currency`; the ledger's defaultCurrency until then.
    public internal(set) var currency: Currency
    /// Whether `set currency` chose the currency (else it follows the ledger's default).
    var currencyWasSet = false
    public internal(set) var sessionRates = SessionRates()
    public private(set) var resolver: RateResolver
    /// Which rate converts each entry, per target and valuation: built on first use, dropped
    /// whenever the rates change.
    private var columns: RateColumnCache
    /// The split view of the ledger and its rate columns, built when a statement first reads
    /// splits (Session+Splits.swift); dropped with the rates.
    var splitEngine: (ledger: Ledger, columns: RateColumnCache)?
    /// Off only in tests that compare index access with scans.
    public var useIndexes = true
    /// Off only in tests that compare the dense aggregation kernel with the general path.
    public var useDenseKernel = true
    /// From how many rows a scan takes two threads (tests lower it to exercise both).
    public var parallelRows = Executor.parallelRows
    /// From how many cells a product of keys numbers only the groups it meets (lowered in tests).
    public var compactAbove = Executor.compactAbove
    /// Up to how many cells a period and one other key are laid out whole, past `compactAbove`
    /// (lowered in tests).
    public var periodLayoutCells = Executor.periodLayoutCells
    /// Up to how many cells (groups × product scales) a product with a tag key is laid out
    /// whole; past them, the groups its rows meet are numbered first (lowered in tests).
    public var tagLayoutCells = Executor.tagLayoutCells
    /// From how many accumulators (groups × product scales) a dense scan lets rates of different
    /// scales share slots (lowered in tests).
    public var shareSlotsAbove = Executor.shareSlotsAbove
    /// Where `rates refresh` and `rates status` go; nil where there is no such source.
    public weak var liveRates: LiveRateSource?
    /// What the session's host keeps outside the engine: the watch list, rate files.
    public weak var host: SessionHost?
    /// `set max rate age N days` / `--max-rate-age N`: market rates older than this many days on
    /// the date they convert for fail the statement; nil, no limit (rates over a week old still warn).
    public var maxRateAge: Int? {
        didSet {
            // The split view's columns too (statements that read categories run there).
            for c in [columns, splitEngine?.columns].compactMap({ $0 }) { c.agePolicy = RateAgePolicy(maxAgeDays: maxRateAge) }
        }
    }
    /// Where queries run when the ledger's entries live elsewhere (`--db`); nil, in memory.
    public var engine: (any QueryEngine)?
    /// Reads the whole ledger where its entries live (`--db`), for `loadEntries`.
    public var entrySource: (() throws(QueryError) -> Ledger)?
    /// Polled while a statement runs; true stops it (Ctrl-C in the shell).
    public var isCancelled: @Sendable () -> Bool = { false }
    /// `define`: the session's saved statements, by their name in lower case.
    public internal(set) var definitions: [String: Definition] = [:]
    /// How many calls of defined statements are running, one inside another.
    var expansionDepth = 0

    public init(ledger: Ledger, today: Day) {
        self.ledger = ledger
        self.today = today
        self.currency = ledger.defaultCurrency
        self.resolver = RateResolver(ledger: ledger)
        self.columns = RateColumnCache(ledger: ledger, resolver: resolver)
    }

    /// After the ledger or the session's rates changed.
    func resetRates() {
        resolver = RateResolver(ledger: ledger, session: sessionRates)
        columns = RateColumnCache(ledger: ledger, resolver: resolver)
        columns.agePolicy = RateAgePolicy(maxAgeDays: maxRateAge)
        splitEngine = nil
    }

    var executor: Executor {
        executor(ledger, columns)
    }

    /// An executor over `ledger` (the session's, or its split view) with its rate columns.
    func executor(_ ledger: Ledger, _ columns: RateColumnCache) -> Executor {
        var e = Executor(ledger: ledger, columns: columns, today: today, isCancelled: isCancelled)
        e.useDenseKernel = useDenseKernel
        e.parallelRows = parallelRows
        e.compactAbove = compactAbove
        e.periodLayoutCells = periodLayoutCells
        e.tagLayoutCells = tagLayoutCells
        e.shareSlotsAbove = shareSlotsAbove
        return e
    }

    public var context: PlanContext { context(ledger) }

    func context(_ ledger: Ledger) -> PlanContext {
        var c = PlanContext(ledger: ledger, today: today, defaultCurrency: currency)
        c.useIndexes = useIndexes
        return c
    }

    /// Replaces the ledger (`.load`); session rates and a `set currency` stay.
    public func replaceLedger(_ l: Ledger) {
        ledger = l
        if !currencyWasSet { currency = l.defaultCurrency }
        resetRates()
    }

    /// Adds market snapshots to the session's ledger (the ledger file is never touched).
    public func addMarketSnapshots(_ snapshots: [RateSnapshot]) {
        guard !snapshots.isEmpty else { return }
        ledger.addMarketSnapshots(snapshots)
        resetRates()
    }

    /// The session's market rates, as a live rate source sees them.
    public var marketRates: MarketRates { MarketRates(ledger: ledger, today: today, currency: currency) }

    /// The logical plan of a query.
    public func logicalPlan(_ text: String) throws(QueryError) -> LogicalPlan {
        let q = try Parser.query(text)
        return try Binder.bind(q, in: engine(for: q).context)
    }

    /// The physical plan of a query.
    public func plan(_ text: String) throws(QueryError) -> Plan {
        let q = try Parser.query(text)
        return try Planner.plan(q, in: engine(for: q).context)
    }

    /// Runs a query and returns its table (a convenience for tests and callers that only query).
    public func run(_ text: String) throws(QueryError) -> ResultSet {
        switch try execute(text) {
        case .table(let r): return r
        default: throw QueryError(.unsupported("not a query"), at: nil)
        }
    }

    public func execute(_ text: String) throws(QueryError) -> Output {
        let statement: Statement
        do {
            statement = try Parser.parse(text)
        } catch {
            throw callWithoutParentheses(error, text)
        }
        if statement.readsResidentEntries { try loadEntries() }
        do {
            return try statement.runner.run(in: self)
        } catch {
            throw withUnheldChains(error)
        }
    }

    /// `monthly 2025-10` for a defined `monthly`: not "expected a statement", but how a call is written.
    func callWithoutParentheses(_ error: QueryError, _ text: String) -> QueryError {
        guard case .expected([Parser.aStatement], _, _) = error.kind, let at = error.range else { return error }
        let lexer = Lexer(text)
        let words = lexer.partialTokens().tokens.filter { $0.kind != .end }
        guard let first = words.first, first.range == at, let name = definitions[lexer.text(first).lowercased()]?.name else { return error }
        let arguments = words.dropFirst().map { lexer.text($0) }.filter { $0 != "," }
        return QueryError(.unsupported("\(name) is a defined name: its arguments go in parentheses, \(name)(\(arguments.joined(separator: ", ")))"), at: at)
    }

    /// A missing rate's error, saying which of its pairs market rates chain with a product no
    /// decimal holds (the only way a pair with a chain goes unpriced: its legs price every day).
    func withUnheldChains(_ error: QueryError) -> QueryError {
        let pairs: [CurrencyPair]
        switch error.kind {
        case .missingRates(let missing, _): pairs = missing.map(\.pair)
        case .noRate(let pair): pairs = [pair]
        case .noRateOn(let missed): pairs = missed.map(\.pair)
        default: return error
        }
        var e = error
        e.unheldChains = pairs.compactMap { p in resolver.unheldChain(p).map { QueryError.UnheldChain(pair: p, via: $0) } }
        return e
    }

    /// Makes the entries resident when they live in a database (`ledger.entriesElsewhere`):
    /// read once, the first time a statement needs them in memory; the session's rates and
    /// settings stay.
    public func loadEntries() throws(QueryError) {
        guard ledger.entriesElsewhere != nil else { return }
        guard let entrySource else { throw QueryError(.database("the ledger's entries were not read, and no database is there to read them from"), at: nil) }
        let whole = try entrySource()
        ledger.entries = whole.entries
        ledger.splits = whole.splits
        ledger.entriesElsewhere = nil
        resetRates()
    }
}

extension Parser {
    /// The query of a query or `explain` statement.
    static func query(_ text: String) throws(QueryError) -> Query {
        switch try parse(text) {
        case .query(let q), .explain(let q): return q
        default: throw QueryError(.unsupported("only queries (sum, count, avg, min, max, list) have a plan"), at: nil)
        }
    }
}

/// What a session asks of the program that hosts it (the shell): things kept outside the
/// engine, in files, between sessions.
public protocol SessionHost: AnyObject {
    /// The watched currencies, in the order they were added.
    var watched: [Currency] { get }
    /// Watches more currencies (kept between sessions); returns those newly watched.
    func watch(_ currencies: [Currency]) throws(QueryError) -> [Currency]
    /// Stops watching; returns those that were watched.
    func unwatch(_ currencies: [Currency]) throws(QueryError) -> [Currency]
    /// Adds a rate file's market rates to the session (all or nothing), as `--rates FILE` does.
    func importRates(_ path: String) throws(QueryError) -> String
}
