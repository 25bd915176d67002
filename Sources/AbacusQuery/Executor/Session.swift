// A session: the loaded ledger and the settings statements run under.
//
// `run` takes the text of one statement through the whole pipeline —
// lexer → parser → planner → executor — and returns its result. The shell owns a
// session; the engine never prints.

import AbacusCore

public final class Session {
    public private(set) var ledger: Ledger
    public var today: Day
    /// `set currency`; the ledger's defaultCurrency until then.
    public var currency: Currency
    public private(set) var sessionRates = SessionRates()
    private var resolver: RateResolver

    public init(ledger: Ledger, today: Day) {
        self.ledger = ledger
        self.today = today
        self.currency = ledger.defaultCurrency
        self.resolver = RateResolver(ledger: ledger)
    }

    public var context: PlanContext {
        PlanContext(ledger: ledger, today: today, defaultCurrency: currency)
    }

    public func plan(_ text: String) throws(QueryError) -> Plan {
        switch try Parser.parse(text) {
        case .query(let q): return try Planner.plan(q, in: context)
        }
    }

    public func run(_ text: String) throws(QueryError) -> ResultSet {
        try Executor(ledger: ledger, resolver: resolver).run(try plan(text))
    }

    public func setRate(_ pair: CurrencyPair, _ rate: ExactDecimal) {
        sessionRates.set(pair, rate)
        resolver = RateResolver(ledger: ledger, session: sessionRates)
    }
}
