// `set rate PAIR = N`, `unset rate PAIR`, `set currency CUR`: settings that last
// for the session (a custom rate beats the file's custom and market rates).

import AbacusCore

struct SetRateStatement: StatementRunner {
    let pair: CurrencyPair
    let rate: ExactDecimal

    func run(in session: Session) throws(QueryError) -> Output {
        session.sessionRates.set(pair, rate)
        session.resetRates()
        return .message("custom rate for this session: 1 \(pair.from) = \(rate) \(pair.to)")
    }
}

struct UnsetRateStatement: StatementRunner {
    let pair: CurrencyPair
    let range: Range<Int>

    func run(in session: Session) throws(QueryError) -> Output {
        guard session.sessionRates.unset(pair) else {
            throw QueryError(.unsupported("no rate for \(pair) was set in this session"), at: range)
        }
        session.resetRates()
        return .message("removed this session's rate for \(pair)")
    }
}

struct SetCurrencyStatement: StatementRunner {
    let currency: Currency

    func run(in session: Session) throws(QueryError) -> Output {
        session.currency = currency
        session.currencyWasSet = true
        return .message("amounts now convert into \(currency) unless a statement says otherwise")
    }
}
