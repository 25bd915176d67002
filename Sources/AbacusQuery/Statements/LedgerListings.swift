// `books` and `categories`: what the ledger holds, with the number of entries of each.

import AbacusCore

struct BooksStatement: StatementRunner {
    func run(in session: Session) throws(QueryError) -> Output {
        let ledger = session.ledger
        let rows: [[Cell]] = ledger.books.enumerated().map { i, b in
            let locked = b.lockedExchangeRate.map { "1 \(b.currency) = \($0) \(b.targetCurrency)" + (b.rateLockedAt.map { " (\($0))" } ?? "") }
            return [.text(b.name), .currency(b.currency), locked.map(Cell.text) ?? .empty,
                    .count(ledger.entries.byBook.rows(for: i).count), .text(b.id)]
        }
        return .table(ResultSet(columns: [Column("book", .key(.book)), Column("currency", .key(.currency)), Column("locked rate", .text),
                                          Column("entries", .count), Column("id", .text)], rows: rows))
    }
}

struct CategoriesStatement: StatementRunner {
    func run(in session: Session) throws(QueryError) -> Output {
        let store = session.ledger.entries
        let rows: [[Cell]] = store.categories.indices
            .sorted { store.categories[$0].lowercased() < store.categories[$1].lowercased() }
            .map { [.text(store.categories[$0]), .count(store.byCategory.rows(for: $0).count)] }
        return .table(ResultSet(columns: [Column("category", .key(.category)), Column("entries", .count)], rows: rows))
    }
}
