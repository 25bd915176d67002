// `convert 100 SGD to INR [at …] [with rate …]`: an amount at the single rate the
// valuation gives, with that rate, its source and its date.

import AbacusCore
import BigInt

struct ConvertStatement: StatementRunner {
    let conversion: Conversion

    static let columns = [Column("amount", .money), Column("converted", .money), Column("rate", .rate), Column("source", .text), Column("date", .date)]

    func run(in session: Session) throws(QueryError) -> Output {
        let c = conversion
        // Into its own currency: the same columns and currency as any conversion, no rate's date.
        if c.from == c.to {
            return .table(ResultSet(columns: ConvertStatement.columns,
                                    rows: [[.money(c.amount, c.from), .money(c.amount.rounded(toScale: c.to.minorUnits), c.to), .number(.one), .text("same currency"), .empty]],
                                    currency: c.to))
        }
        let pair = CurrencyPair(c.from, c.to)
        let (r, day) = try session.resolve(pair, c.valuation, c.whatIf)
        let exact = r.rate.converted(BigInt(c.amount.significand), scale: c.amount.scale)
        guard let rounded = exact.rounded(toScale: c.to.minorUnits) else { throw QueryError(.overflow, at: nil) }
        // A free amount belongs to no book; entries of a book that locks the pair use its rate instead.
        let locks = c.valuation == nil && c.whatIf.isEmpty ? session.lockedRates(pair) : []
        let notes: [Footnote] = locks.compactMap { l in
            guard case .locked(let b) = l.origin else { return nil }
            let book = session.ledger.books[b]
            return .note("book \(ShownText.literal(book.name)) locks \(pair) at \(l.rate)" + (book.rateLockedAt.map { " (\($0))" } ?? "") + ": its entries convert at that rate")
        }
        return .table(ResultSet(columns: ConvertStatement.columns,
                                rows: [[.money(c.amount, c.from), .money(rounded, c.to), r.rate.cell,
                                        .text(session.resolver.describe(r.origin)), session.sourceDate(r)]],
                                currency: c.to, warnings: session.staleness(r, c.valuation, day) + session.unusedWhatIfs(c.whatIf, pair), footnotes: notes))
    }
}
