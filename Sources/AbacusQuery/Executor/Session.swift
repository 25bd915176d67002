// A session: the loaded ledger and the settings statements run under.
//
// `execute` takes the text of one statement through the whole pipeline —
// lexer → parser → planner → executor — and returns its `Output`. Statements
// other than queries (convert, rate, rates, set, books, categories) are answered
// here from the same rate resolver. The shell owns a session; the engine never prints.

import AbacusCore
import BigInt

/// Live rates (fetching, the cache, their status): provided by the shell, which may use the network.
public protocol LiveRatesService: AnyObject {
    /// Fetches (or reuses fresh cached) rates, adds them to the session, and says what happened.
    func refresh(base: Currency?, force: Bool, session: Session) throws(QueryError) -> String
    /// Each source of market rates, its newest date, when it was fetched and its age.
    func status(session: Session) -> ResultSet
}

public final class Session {
    public private(set) var ledger: Ledger
    public var today: Day
    /// `set currency`; the ledger's defaultCurrency until then.
    public var currency: Currency
    public private(set) var sessionRates = SessionRates()
    private var resolver: RateResolver
    /// Which rate converts each entry, per target and valuation: built on first use, dropped
    /// whenever the rates change.
    private var columns: RateColumnCache
    /// Off only in tests that compare index access with scans.
    public var useIndexes = true
    /// Off only in tests that compare the dense aggregation kernel with the general path.
    public var useDenseKernel = true
    /// From how many rows a scan takes two threads (tests lower it to exercise both).
    public var parallelRows = Executor.parallelRows
    /// `rates refresh` and `rates status` go here; nil where there is no such service.
    public weak var liveRates: LiveRatesService?
    /// `set max rate age N days` / `--max-rate-age N`: market rates older than this many days on
    /// the date they convert for fail the statement; nil, no limit (rates over a week old still warn).
    public var maxRateAge: Int? {
        didSet { columns.agePolicy = RateAgePolicy(maxAgeDays: maxRateAge) }
    }
    /// Polled while a statement runs; true stops it (Ctrl-C in the shell).
    public var isCancelled: @Sendable () -> Bool = { false }

    public init(ledger: Ledger, today: Day) {
        self.ledger = ledger
        self.today = today
        self.currency = ledger.defaultCurrency
        self.resolver = RateResolver(ledger: ledger)
        self.columns = RateColumnCache(ledger: ledger, resolver: resolver)
    }

    /// After the ledger or the session's rates changed.
    private func resetRates() {
        resolver = RateResolver(ledger: ledger, session: sessionRates)
        columns = RateColumnCache(ledger: ledger, resolver: resolver)
        columns.agePolicy = RateAgePolicy(maxAgeDays: maxRateAge)
    }

    var executor: Executor {
        var e = Executor(ledger: ledger, columns: columns, today: today, isCancelled: isCancelled)
        e.useDenseKernel = useDenseKernel
        e.parallelRows = parallelRows
        return e
    }

    public var context: PlanContext {
        var c = PlanContext(ledger: ledger, today: today, defaultCurrency: currency)
        c.useIndexes = useIndexes
        return c
    }

    /// Whether `set currency` chose the currency (else it follows the ledger's default).
    private var currencyWasSet = false

    /// Replaces the ledger (`.load`); session rates and a `set currency` stay.
    public func replaceLedger(_ l: Ledger) {
        ledger = l
        if !currencyWasSet { currency = l.defaultCurrency }
        resetRates()
    }

    /// Adds fetched market snapshots to the session's ledger (the ledger file is never touched).
    public func addMarketSnapshots(_ snapshots: [RateSnapshot]) {
        ledger.addMarketSnapshots(snapshots)
        resetRates()
    }

    public func plan(_ text: String) throws(QueryError) -> Plan {
        switch try Parser.parse(text) {
        case .query(let q), .explain(let q): return try Planner.plan(q, in: context)
        default: throw QueryError(.unsupported("only queries (sum, count, avg, min, max, list) have a plan"), at: nil)
        }
    }

    /// Runs a query and returns its table (a convenience for tests and callers that only query).
    public func run(_ text: String) throws(QueryError) -> ResultSet {
        switch try execute(text) {
        case .table(let r): return r
        default: throw QueryError(.unsupported("not a query"), at: nil)
        }
    }

    public func execute(_ text: String) throws(QueryError) -> Output {
        switch try Parser.parse(text) {
        case .query(let q):
            return .table(try executor.run(try Planner.plan(q, in: context)))
        case .explain(let q):
            let plan = try Planner.plan(q, in: context)
            do throws(QueryError) {
                let result = try executor.run(plan)
                return .explain(plan: plan.description, rates: result.rateNotes, warnings: result.warnings)
            } catch {
                // The plan of a statement that cannot run is what one most wants to see.
                guard case .missingRates(let missing, let target) = error.kind else { throw error }
                let lines = missing.map { "\($0.entries) \($0.entries == 1 ? "entry needs" : "entries need") \($0.pair), which no rate supplies" }
                return .explain(plan: plan.description, rates: lines,
                                warnings: ["this statement cannot run until those rates into \(target.code) are supplied (`set rate PAIR = …` or `with rate PAIR = …`)"])
            }
        case .convert(let c):
            return .table(try convert(c))
        case .rate(let r):
            return .table(try rate(r))
        case .rates(let listing):
            return .table(try rates(listing))
        case .setRate(let pair, let rate):
            sessionRates.set(pair, rate)
            resetRates()
            return .message("custom rate for this session: 1 \(pair.from) = \(rate) \(pair.to)")
        case .unsetRate(let pair, let range):
            guard sessionRates.unset(pair) else {
                throw QueryError(.unsupported("no rate for \(pair) was set in this session"), at: range)
            }
            resetRates()
            return .message("removed this session's rate for \(pair)")
        case .setCurrency(let c):
            currency = c
            currencyWasSet = true
            return .message("amounts now convert into \(c) unless a statement says otherwise")
        case .ratesRefresh(let base, let force):
            guard let liveRates else { throw QueryError(.unsupported("live rates are not available here"), at: nil) }
            return .message(try liveRates.refresh(base: base, force: force, session: self))
        case .ratesStatus:
            guard let liveRates else { throw QueryError(.unsupported("live rates are not available here"), at: nil) }
            return .table(liveRates.status(session: self))
        case .books:
            return .table(books())
        case .categories:
            return .table(categories())
        }
    }

    // MARK: Rates

    /// The single rate for a pair under a valuation: what-if, then custom, then market; and the
    /// day it was taken as of (today, or the valuation date).
    func resolve(_ pair: CurrencyPair, _ valuation: ValuationClause?, _ whatIf: [WhatIfRate]) throws(QueryError) -> (rate: ResolvedRate, day: Day) {
        var day = today
        if case .asOf(let d)? = valuation { day = Planner.resolve(d, today: today).last }
        for w in whatIf {
            if w.pair == pair { return (ResolvedRate(pair: pair, rate: Rate(w.rate), origin: .whatIf(pair)), day) }
            if w.pair == pair.inverse { return (ResolvedRate(pair: pair, rate: Rate(w.rate).inverse, origin: .whatIf(pair)), day) }
        }
        guard let r = resolver.resolve(pair, on: day) else { throw QueryError(.noRate(pair), at: nil) }
        return (r, day)
    }

    func sourceDate(_ r: ResolvedRate) -> Cell {
        switch r.origin {
        case .market(let q): return .text(q.newestDay.description)
        case .custom(let c): return c.day.map { .text($0.description) } ?? .empty
        case .locked(let b): return ledger.books[b].rateLockedAt.map { .text($0.description) } ?? .empty
        case .whatIf: return .empty
        }
    }

    /// Books whose locked rate converts `pair` (or its inverse) for their own entries under the
    /// default valuation: what `rate` and `convert` mention beside the rate they give.
    func lockedRates(_ pair: CurrencyPair) -> [ResolvedRate] {
        ledger.books.indices.compactMap { i in
            let b = ledger.books[i]
            guard let l = b.lockedExchangeRate else { return nil }
            if b.currency == pair.from && b.targetCurrency == pair.to { return ResolvedRate(pair: pair, rate: Rate(l), origin: .locked(book: i)) }
            if b.currency == pair.to && b.targetCurrency == pair.from { return ResolvedRate(pair: pair, rate: Rate(l).inverse, origin: .locked(book: i)) }
            return nil
        }
    }

    func convert(_ c: Conversion) throws(QueryError) -> ResultSet {
        if c.from == c.to {
            return ResultSet(columns: ["amount", "converted", "rate", "source"],
                             rows: [[.money(c.amount, c.from), .money(c.amount.rounded(toScale: c.to.minorUnits), c.to), .number(.one), .text("same currency")]])
        }
        let pair = CurrencyPair(c.from, c.to)
        let (r, day) = try resolve(pair, c.valuation, c.whatIf)
        let exact = r.rate.converted(BigInt(c.amount.significand), scale: c.amount.scale)
        guard let rounded = exact.rounded(toScale: c.to.minorUnits) else { throw QueryError(.overflow, at: nil) }
        // A free amount belongs to no book; entries of a book that locks the pair use its rate instead.
        let locks = c.valuation == nil && c.whatIf.isEmpty ? lockedRates(pair) : []
        let footer = locks.isEmpty ? nil : locks.map { l in
            guard case .locked(let b) = l.origin else { return "" }
            let book = ledger.books[b]
            return "book \"\(book.name)\" locks \(pair) at \(l.rate)" + (book.rateLockedAt.map { " (\($0))" } ?? "") + ": its entries convert at that rate"
        }.joined(separator: "\n")
        return ResultSet(columns: ["amount", "converted", "rate", "source", "date"],
                         rows: [[.money(c.amount, c.from), .money(rounded, c.to), .number(r.rate.decimal()),
                                 .text(resolver.describe(r.origin)), sourceDate(r)]],
                         currency: c.to, warnings: staleness(r, c.valuation, day) + unusedWhatIfs(c.whatIf, pair), footer: footer)
    }

    func rate(_ l: RateLookup) throws(QueryError) -> ResultSet {
        let (r, day) = try resolve(l.pair, l.valuation, l.whatIf)
        var rows: [[Cell]] = [[.text(l.pair.description), .number(r.rate.decimal()), .text(resolver.describe(r.origin)), sourceDate(r)]]
        // Under the default valuation, a book's locked rate is what its own entries use.
        if l.valuation == nil && l.whatIf.isEmpty {
            for lock in lockedRates(l.pair) {
                rows.append([.text(l.pair.description), .number(lock.rate.decimal()), .text(resolver.describe(lock.origin) + ", for its entries"), sourceDate(lock)])
            }
        }
        return ResultSet(columns: ["pair", "rate", "source", "date"], rows: rows, warnings: staleness(r, l.valuation, day) + unusedWhatIfs(l.whatIf, l.pair))
    }

    /// What-if rates of `convert` or `rate` for another pair than the one asked for.
    func unusedWhatIfs(_ whatIf: [WhatIfRate], _ pair: CurrencyPair) -> [String] {
        whatIf.filter { $0.pair != pair && $0.pair != pair.inverse }.map { "the what-if rate \($0.pair) was not used: this statement is about \(pair)" }
    }

    /// A market rate dated after the day asked for is the oldest there is; under `at latest`
    /// a newest rate dated before today is stale: say so.
    func staleness(_ r: ResolvedRate, _ valuation: ValuationClause?, _ day: Day) -> [String] {
        guard case .market(let q) = r.origin else { return [] }
        if q.isAfterRequestedDay {
            return ["no market rate for \(r.pair) on or before \(day); used the oldest, dated \(q.oldestDay)"]
        }
        if valuation == .latest, q.oldestDay < today {
            return [StaleRate(pair: r.pair, day: q.oldestDay, fetched: resolver.fetchDay(q), today: today).warning]
        }
        return []
    }

    func rates(_ listing: RatesListing) throws(QueryError) -> ResultSet {
        switch listing {
        case .history(let pair, let since):
            let from = since.map { Planner.resolve($0, today: today).first }
            // One rate per date: the source that wins on that date (a pair over a snapshot, the later in the file).
            var legs: [MarketLeg] = []
            for leg in resolver.history(pair) where from.map({ leg.day >= $0 }) ?? true {
                if let last = legs.last, last.day == leg.day { legs[legs.count - 1] = leg } else { legs.append(leg) }
            }
            if legs.isEmpty && !resolver.hasSingleSource(pair) {
                throw QueryError(.unsupported("no market source quotes \(pair) directly"), at: nil)
            }
            let rows: [[Cell]] = legs.map { [.text($0.day.description), .number($0.rate.decimal()), .text(resolver.describe($0.source))] }
            let values = legs.map { $0.rate.decimal() }
            func short(_ d: ExactDecimal?) -> String { d.flatMap { WideDecimal($0).approximated(significantDigits: 8) }?.description ?? "" }
            let footer = values.count > 1 ? "\(pair) \(Session.sparkline(values)) \(short(values.min()))…\(short(values.max()))" : nil
            return ResultSet(columns: ["date", "rate", "source"], rows: rows, footer: footer)
        case .day(let base, let filter, let at):
            let base = base ?? currency
            let day = at.map { Planner.resolve($0, today: today).last } ?? today
            var rows: [[Cell]] = []
            var late: [String] = []
            // The rate `rate` would give for each currency: custom first, then market.
            for c in resolver.quotedCurrencies(with: ledger.customRates, session: sessionRates) where c != base {
                if let filter, !filter.keeps(c) { continue }
                let pair = CurrencyPair(base, c)
                guard let r = resolver.resolve(pair, on: day) else { continue }
                if case .market(let q) = r.origin, q.isAfterRequestedDay { late.append(c.code) }
                rows.append([.text(c.code), .text(c.name), .number(r.rate.decimal()), .text(resolver.describe(r.origin)), sourceDate(r)])
            }
            if rows.isEmpty && filter == nil {
                throw QueryError(.unsupported("no custom or market rate prices \(base.code) against any other currency"), at: nil)
            }
            var warnings: [String] = []
            if !late.isEmpty {
                warnings.append("no rate on or before \(day) for \(late.joined(separator: ", ")) against \(base.code); the oldest of each is shown")
            }
            if rows.isEmpty, let filter { warnings.append("no currency with a rate against \(base.code) has \(filter)") }
            return ResultSet(columns: ["currency", "name", "rate (1 \(base.code))", "source", "date"], rows: rows, warnings: warnings)
        }
    }

    /// ▁▂▃▄▅▆▇█ for a series of rates, at most 64 wide (the last value of each stretch), scaled
    /// between its minimum and maximum with exact arithmetic.
    static func sparkline(_ values: [ExactDecimal]) -> String {
        let bars = Array("▁▂▃▄▅▆▇█")
        let width = min(values.count, 64)
        let sampled = (0..<width).map { values[($0 + 1) * values.count / width - 1] }
        guard let lo = sampled.min(), let hi = sampled.max() else { return "" }
        let span = WideDecimal(hi) + WideDecimal(lo.negated)
        return String(sampled.map { v -> Character in
            guard span.significand != 0 else { return bars[3] }
            let offset = WideDecimal(v) + WideDecimal(lo.negated)
            let s = max(offset.scale, span.scale)
            let level = (offset.rescaled(to: s).significand * 7 * 2 + span.rescaled(to: s).significand) / (span.rescaled(to: s).significand * 2)
            return bars[max(0, min(7, Int(level)))]
        })
    }

    // MARK: Listings

    func books() -> ResultSet {
        let rows: [[Cell]] = ledger.books.enumerated().map { i, b in
            let locked = b.lockedExchangeRate.map { "1 \(b.currency) = \($0) \(b.targetCurrency)" + (b.rateLockedAt.map { " (\($0))" } ?? "") }
            return [.text(b.name), .text(b.currency.code), locked.map(Cell.text) ?? .empty,
                    .count(ledger.entries.byBook.rows(for: i).count), .text(b.id)]
        }
        return ResultSet(columns: ["book", "currency", "locked rate", "entries", "id"], rows: rows)
    }

    func categories() -> ResultSet {
        let store = ledger.entries
        let rows: [[Cell]] = store.categories.indices
            .sorted { store.categories[$0].lowercased() < store.categories[$1].lowercased() }
            .map { [.text(store.categories[$0]), .count(store.byCategory.rows(for: $0).count)] }
        return ResultSet(columns: ["category", "entries"], rows: rows)
    }
}
