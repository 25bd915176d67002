// `rate SGD/INR [at …] [with rate …]`: the effective rate of a pair and its source;
// under the default valuation also the book locks its entries would use instead.

import AbacusCore

struct RateStatement: StatementRunner {
    let lookup: RateLookup

    func run(in session: Session) throws(QueryError) -> Output {
        let l = lookup
        let (r, day) = try session.resolve(l.pair, l.valuation, l.whatIf)
        var rows: [[Cell]] = [[.text(l.pair.description), r.rate.cell, .text(session.resolver.describe(r.origin)), session.sourceDate(r)]]
        // Under the default valuation, a book's locked rate is what its own entries use.
        if l.valuation == nil && l.whatIf.isEmpty {
            for lock in session.lockedRates(l.pair) {
                rows.append([.text(l.pair.description), lock.rate.cell, .text(session.resolver.describe(lock.origin) + ", for its entries"), session.sourceDate(lock)])
            }
        }
        return .table(ResultSet(columns: [Column("pair", .text), Column("rate", .rate), Column("source", .text), Column("date", .date)],
                                rows: rows, warnings: session.staleness(r, l.valuation, day) + session.unusedWhatIfs(l.whatIf, l.pair)))
    }
}
