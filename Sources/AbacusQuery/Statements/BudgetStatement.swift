// `budget [PERIOD] [in CUR]`: each budget's month against its limit
// (docs/language.md#budget). A row per budget and month: the limit (with what carries
// over), what was spent (that month's expenses in the category and below it, in the book
// when the budget names one, converted into the budget's currency at the default
// valuation), what remains, the share used and the highest alert reached.

import AbacusCore

struct BudgetStatement: ReportRunner {
    let request: BudgetRequest

    var summary: String {
        "budget" + request.periods.map { $0.kind == .during ? " \($0.date.description)" : " \($0.kind.rawValue) \($0.date.description)" }.joined()
            + (request.currency.map { " in \($0.code)" } ?? "")
    }

    /// A budget's category and book: a month-specific budget replaces the recurring one of the same key.
    struct Key: Hashable {
        var category: String
        var book: String?
    }

    func compute(in session: Session, trace: inout ReportTrace) throws(QueryError) -> ResultSet {
        let ledger = session.ledger
        // The months asked for: this month by default; an open end stops at the first entry or today.
        let thisMonth = Period(.month, containing: session.today)
        var months: [Period] = [thisMonth]
        if var days = try PeriodClause.days(request.periods, today: session.today) {
            if days.first == .distantPast { days.first = session.firstEntryMonth.days.first }
            if days.last == .distantFuture { days.last = thisMonth.days.last }
            months = Period.covering(days, unit: .month)
        }
        trace.plan.append("MONTHS " + (months.count == 1 ? months[0].description : "\(months.first?.description ?? "")..\(months.last?.description ?? "")"))

        var keys: [Key] = []
        var recurring: [Key: Budget] = [:]
        var specific: [Key: [Int32: Budget]] = [:]
        for b in ledger.budgets {
            let key = Key(category: b.category, book: b.bookID)
            if !keys.contains(key) { keys.append(key) }
            if let m = b.month { specific[key, default: [:]][Period(.month, containing: m).code] = b } else { recurring[key] = b }
        }
        /// The name of a budget's book (nil: every book).
        func bookName(_ key: Key) -> String? { key.book.flatMap { id in ledger.books.first { $0.id == id }?.name } }
        // In the order of the names shown, as a grouping's rows (docs/language.md): by category, then by
        // book, a budget of every book before those of one book.
        typealias Order = (category: ResultShaper.SortKey, everyBook: Bool, book: ResultShaper.SortKey)
        func order(_ k: Key) -> Order { (ResultShaper.SortKey(.text(k.category)), k.book == nil, ResultShaper.SortKey(.text(bookName(k) ?? k.book ?? ""))) }
        keys = keys.map { ($0, order($0)) }.sorted { a, b in
            if a.1.category != b.1.category { return a.1.category < b.1.category }
            if a.1.everyBook != b.1.everyBook { return a.1.everyBook }
            return a.1.book < b.1.book
        }.map(\.0)
        let hasBooks = keys.contains { $0.book != nil }

        /// What a key spent in a month, exact: shown, converted and compared with the limit, it is rounded once.
        var spentCache: [Key: [Int32: Fraction]] = [:]
        func spent(_ key: Key, _ budget: Budget, _ month: Period, _ trace: inout ReportTrace) throws(QueryError) -> Fraction {
            if let v = spentCache[key]?[month.code] { return v }
            var v = Fraction.zero
            // A category no entry (or split) uses has nothing spent; nor has a month without
            // entries (a carry-over chain through the years after the last entry asks of each month).
            if session.holdsCategory(key.category) {
                let during = PeriodClause(kind: .during, date: .literal(month, text: month.description), range: 0..<0)
                if try session.holdsNoEntries(within: month.days) == true {
                    let text = Session.sumQuery(.expenses, in: budget.currency, category: key.category, book: bookName(key), periods: [during]).text
                    trace.plan.append(text + " = \(ExactDecimal(significand: 0, scale: budget.currency.minorUnits))")
                } else {
                    v = try session.exactSum(.expenses, in: budget.currency, category: key.category, book: bookName(key), periods: [during], trace: &trace)
                }
            }
            spentCache[key, default: [:]][month.code] = v
            return v
        }

        /// Where each carry-over chain has got to: the month it reached and what carried into it
        /// (the months are asked in order: a chain goes on from there, not from its start again).
        var chains: [Key: (month: Period, carried: Fraction)] = [:]

        /// The budget shown for a key in a month, its limit (carry-over included) and spent.
        func row(_ key: Key, _ month: Period, _ trace: inout ReportTrace) throws(QueryError) -> (Budget, Fraction, Fraction)? {
            if let b = specific[key]?[month.code] { return (b, Fraction(b.limitAmount), try spent(key, b, month, &trace)) }
            guard let b = recurring[key] else { return nil }
            guard b.carryOver else { return (b, Fraction(b.limitAmount), try spent(key, b, month, &trace)) }
            let start = b.startMonth.map { Period(.month, containing: $0) } ?? session.firstEntryMonth
            guard start <= month else { return (b, Fraction(b.limitAmount), try spent(key, b, month, &trace)) }
            // The chain from the start month: each month's limit adds the previous month's remaining as shown.
            var (m, carried) = chains[key].flatMap { $0.month <= month ? $0 : nil } ?? (start, .zero)
            while true {
                let shown = specific[key]?[m.code] ?? b
                if shown.currency != b.currency {
                    throw QueryError(.unsupported("the \(m) budget for \"\(key.category)\" is in \(shown.currency), the carry-over budget in \(b.currency): a carried remaining stays in one currency"), at: nil)
                }
                let limit = shown.month == nil ? Fraction(b.limitAmount) + carried : Fraction(shown.limitAmount)
                let s = try spent(key, shown, m, &trace)
                if m == month {
                    chains[key] = (m, carried)
                    return (shown, limit, s)
                }
                guard let remaining = (limit - s).rounded(toScale: b.currency.minorUnits) else { throw QueryError(.overflow, at: nil) }
                carried = Fraction(remaining)
                m = m.advanced(by: 1)
            }
        }

        var rows: [[Cell]] = []
        for month in months {
            try session.stopIfCancelled()
            // Limits convert at the month's last day (today for the current month).
            let rateDay = month == thisMonth ? session.today : month.days.last
            for key in keys {
                guard let (budget, limit, spentF) = try row(key, month, &trace) else { continue }
                let c = budget.currency
                let remaining = limit - spentF
                guard let limitShown = limit.rounded(toScale: c.minorUnits), let spentValue = spentF.rounded(toScale: c.minorUnits) else {
                    throw QueryError(.overflow, at: nil)
                }
                guard let carried = (limit - Fraction(budget.limitAmount)).rounded(toScale: c.minorUnits) else { throw QueryError(.overflow, at: nil) }
                // Each shown value from the exact ones, rounded once (the spent as shown would
                // put 0.285 of 3 at 9.3% instead of 9.5%).
                let used = try spentF.percent(of: limit)
                let alert = used.flatMap { u in budget.alerts.last { $0 <= u } }
                trace.plan.append("\(month) \(ShownText.literal(key.category))" + (bookName(key).map { " book " + ShownText.literal($0) } ?? "") + ": limit \(limitShown) \(c)"
                                  + (carried.isZero ? "" : " (\(budget.limitAmount) + \(carried) carried over)")
                                  + ", spent \(spentValue)")
                var cells: [Cell] = [.period(month), .text(key.category)]
                if hasBooks { cells.append(bookName(key).map(Cell.text) ?? .none) }
                if let target = request.currency {
                    let r = try session.rate(c, target, on: rateDay, trace: &trace).fraction
                    cells += [try (limit * r).money(target), try (spentF * r).money(target), try (remaining * r).money(target)]
                } else {
                    cells += [.currency(c), try limit.money(c), .money(spentValue, c), try remaining.money(c)]
                }
                cells.append(used.map(Cell.decimal) ?? .empty)
                cells.append(alert.map { .text("\($0.normalized)%") } ?? .empty)
                rows.append(cells)
            }
        }
        var columns = [Column("month", .key(.month)), Column("category", .key(.category))]
        if hasBooks { columns.append(Column("book", .key(.book))) }
        if request.currency == nil { columns.append(Column("currency", .key(.currency))) }
        columns += [Column("limit", .money), Column("spent", .money), Column("remaining", .money), Column("used %", .quantity), Column("alert", .alert)]
        var warnings: [String] = []
        if ledger.budgets.isEmpty { warnings.append("the ledger has no budgets") }
        return ResultSet(columns: columns, rows: rows, currency: request.currency, warnings: warnings)
    }
}
