// `rates refresh [BASE] [--force]` and `rates status`: live rates, from the
// session's live rate source (the shell's, which may use the network). A refresh
// hands back snapshots; the session adds them to its market rates.

import AbacusCore

struct RatesRefreshStatement: StatementRunner {
    let base: Currency?
    let force: Bool

    func run(in session: Session) throws(QueryError) -> Output {
        guard let source = session.liveRates else { throw QueryError(.unsupported("live rates are not available here"), at: nil) }
        let outcome: LiveRefresh
        do throws(LiveRateError) {
            outcome = try source.refresh(base: base, force: force, market: session.marketRates)
        } catch {
            throw QueryError(.unsupported(error.message), at: nil)
        }
        session.addMarketSnapshots(outcome.snapshots)
        return .message(outcome.message)
    }
}

struct RatesStatusStatement: StatementRunner {
    func run(in session: Session) throws(QueryError) -> Output {
        guard let source = session.liveRates else { throw QueryError(.unsupported("live rates are not available here"), at: nil) }
        let status = source.status(market: session.marketRates)
        let rows: [[Cell]] = status.sources.map { s in
            [.text(s.kind), .text(s.from), .date(s.newest), s.fetched.map(Cell.text) ?? .empty, .text(s.age)]
        }
        return .table(ResultSet(columns: [Column("source", .text), Column("from", .text), Column("newest rate", .date),
                                          Column("fetched", .text), Column("age", .text)],
                                rows: rows, footnotes: [.note(status.settings)]))
    }
}
