// `books` and `categories`: what the ledger holds, with the number of entries of each.

import AbacusCore

struct BooksStatement: StatementRunner {
    func run(in session: Session) throws(QueryError) -> Output {
        let ledger = session.ledger
        let counted = try ledger.entriesElsewhere == nil ? nil : entryCounts("count entries by book", in: session)
        let rows: [[Cell]] = ledger.books.enumerated().map { i, b in
            let locked = b.lockedExchangeRate.map { "1 \(b.currency) = \($0) \(b.targetCurrency)" + (b.rateLockedAt.map { " (\($0))" } ?? "") }
            return [.text(b.name), .currency(b.currency), locked.map(Cell.text) ?? .empty,
                    .count(counted.map { $0[b.name] ?? 0 } ?? ledger.entries.byBook.rows(for: i).count), .text(b.id)]
        }
        return .table(ResultSet(columns: [Column("book", .key(.book)), Column("currency", .key(.currency)), Column("locked rate", .text),
                                          Column("entries", .count), Column("id", .text)], rows: rows))
    }
}

struct CategoriesStatement: StatementRunner {
    func run(in session: Session) throws(QueryError) -> Output {
        let store = session.ledger.entries
        let counted = try session.ledger.entriesElsewhere == nil ? nil : entryCounts("count entries by category", in: session)
        // In any letter case, then as written (`Misc` before `misc`), as a key's values sort:
        // never in the order the names were first met, which a file and a database differ in.
        let rows: [[Cell]] = store.categories.indices
            .sorted { (store.categories[$0].lowercased(), store.categories[$0]) < (store.categories[$1].lowercased(), store.categories[$1]) }
            .map { i in [.text(store.categories[i]), .count(counted.map { $0[store.categories[i]] ?? 0 } ?? store.byCategory.rows(for: i).count)] }
        return .table(ResultSet(columns: [Column("category", .key(.category)), Column("entries", .count)], rows: rows))
    }
}

/// Entries per name (a book's, a category), counted where they live when they are in a
/// database (`Ledger.entriesElsewhere`): `statement` is `count entries by KEY`, bound on the
/// ledger as loaded (each split entry once, under its own category).
func entryCounts(_ statement: String, in session: Session) throws(QueryError) -> [String: Int] {
    let plan = try Binder.bind(try Parser.query(statement), in: session.context)
    guard let result = try session.engine?.run(plan, in: session) else {
        throw QueryError(.database("the database did not count its entries (\(statement))"), at: nil)
    }
    var counts: [String: Int] = [:]
    for row in result.rows {
        if case .text(let name)? = row.first, case .count(let n)? = row.last { counts[name] = n }
    }
    return counts
}
