// `balance [by book] [in CUR] [at DATE]`: each account (a book with an openingBalance)
// and its balance on DATE (docs/language.md#balance): the opening balance plus all its
// entries, transfers too, dated on or before DATE, in the book's currency; with `in CUR`
// also converted at DATE's rate (custom, then market), with their total.

import AbacusCore

struct BalanceStatement: ReportRunner {
    let request: BalanceRequest

    var summary: String {
        "balance by book" + (request.currency.map { " in \($0.code)" } ?? "") + (request.at.map { " at \($0.description)" } ?? "")
    }

    func compute(in session: Session, trace: inout ReportTrace) throws(QueryError) -> ResultSet {
        let day = try session.reportDay(request.at)
        trace.plan.append("AT \(day)")
        var rows: [[Cell]] = []
        var total = Fraction.zero
        let accounts = session.ledger.books.filter { $0.openingBalance != nil }
        for book in accounts {
            let balance = try session.balance(of: book, on: day, trace: &trace)
            var cells: [Cell] = [.text(book.name), .currency(book.currency), try balance.money(book.currency)]
            if let target = request.currency {
                let converted = try session.converted(balance, book.currency, target, on: day, trace: &trace)
                total = total + converted
                cells.append(try converted.money(target))
            }
            rows.append(cells)
        }
        var columns = [Column("book", .key(.book)), Column("currency", .key(.currency)), Column("balance", .money)]
        var totals: [[Cell]] = []
        if let target = request.currency {
            columns.append(Column("converted", .money))
            if !rows.isEmpty { totals = [[.total(.total), .empty, .empty, try total.money(target)]] }
        }
        let warnings = accounts.isEmpty ? ["no book has an openingBalance: balance reports accounts (books with one)"] : []
        return ResultSet(columns: columns, rows: rows, totals: totals, currency: request.currency, warnings: warnings)
    }
}
