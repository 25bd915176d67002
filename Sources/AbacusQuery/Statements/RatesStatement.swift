// `rates [in CUR] [where currency …] [at DATE]`: the rate of every currency against
// a base on one day; `rates PAIR [since D]`: the history of one pair, one rate a
// date (the source that wins on that date).

import AbacusCore

struct RatesStatement: StatementRunner {
    let listing: RatesListing

    func run(in session: Session) throws(QueryError) -> Output {
        switch listing {
        case .history(let pair, let since): return .table(try history(pair, since: since, in: session))
        case .day(let base, let filter, let at, let watchedOnly):
            return .table(try day(base: base, filter: filter, at: at, watchedOnly: watchedOnly, in: session))
        }
    }

    func history(_ pair: CurrencyPair, since: DateExpression?, in session: Session) throws(QueryError) -> ResultSet {
        let resolver = session.resolver
        let from = try since.map { d throws(QueryError) in try d.resolve(today: session.today).first }
        var legs: [MarketLeg] = []
        for leg in resolver.history(pair) where from.map({ leg.day >= $0 }) ?? true {
            if let last = legs.last, last.day == leg.day { legs[legs.count - 1] = leg } else { legs.append(leg) }
        }
        if legs.isEmpty && !resolver.hasSingleSource(pair) {
            throw QueryError(.unsupported("no market source quotes \(pair) directly"), at: nil)
        }
        let rows: [[Cell]] = legs.map { [.date($0.day), $0.rate.cell, .text(resolver.describe($0.source))] }
        return ResultSet(columns: [Column("date", .date), Column("rate", .rate), Column("source", .text)], rows: rows,
                         footnotes: legs.count > 1 ? [.sparkline(pair)] : [])
    }

    func day(base: Currency?, filter: CurrencyFilter?, at: DateExpression?, watchedOnly: Bool, in session: Session) throws(QueryError) -> ResultSet {
        let base = base ?? session.currency
        let resolver = session.resolver
        let day = try at.map { d throws(QueryError) in try d.resolve(today: session.today).last } ?? session.today
        let watched = session.host?.watched ?? []
        if watchedOnly && watched.isEmpty {
            throw QueryError(.unsupported("no currency is watched: `watch USD, SGD` adds some"), at: nil)
        }
        var rows: [[Cell]] = []
        var late: [String] = []
        // Watched currencies first, in the order they were added; then the others.
        let quoted = resolver.quotedCurrencies(with: session.ledger.customRates, session: session.sessionRates)
        let listed = watched.filter { quoted.contains($0) } + (watchedOnly ? [] : quoted.filter { !watched.contains($0) })
        // The rate `rate` would give for each currency: custom first, then market.
        for c in listed where c != base {
            if let filter, !filter.keeps(c) { continue }
            let pair = CurrencyPair(base, c)
            guard let r = resolver.resolve(pair, on: day) else { continue }
            if case .market(let q) = r.origin, q.isAfterRequestedDay { late.append(c.code) }
            rows.append((watched.isEmpty ? [] : [watched.contains(c) ? .text("★") : .empty])
                        + [.currency(c), .text(c.name), r.rate.cell, .text(resolver.describe(r.origin)), session.sourceDate(r)])
        }
        if rows.isEmpty && filter == nil {
            throw QueryError(.unsupported("no custom or market rate prices \(base.code) against any other currency"), at: nil)
        }
        var warnings: [String] = []
        if !late.isEmpty {
            warnings.append("no rate on or before \(day) for \(late.joined(separator: ", ")) against \(base.code); the oldest of each is shown")
        }
        if rows.isEmpty, let filter { warnings.append("no currency with a rate against \(base.code) has \(filter)") }
        // A mark column only when something is watched: the listing is otherwise as it always was.
        return ResultSet(columns: (watched.isEmpty ? [] : [Column("watched", .text)])
                            + [Column("currency", .key(.currency)), Column("name", .text), Column("rate (1 \(base.code))", .rate),
                               Column("source", .text), Column("date", .date)], rows: rows, warnings: warnings)
    }
}
