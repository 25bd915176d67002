// Which ledger a query reads: statements that group or test by category read the split
// view, where a split entry is one row per part with the part's amount and category
// (docs/ledger-format.md#splits); every other statement reads the ledger as loaded, where a
// split entry is one row. A ledger without splits takes its usual path, unchanged.

import AbacusCore

extension Query {
    /// Whether the query groups or tests by category (and so reads the parts of split entries).
    /// An order alone does not: `list … order by category` lists entries, by their own category
    /// (a grouped query orders only by its own keys).
    var readsCategories: Bool {
        if groupBy.contains(.category) || groupBy.contains(.topCategory) || per == .category || per == .topCategory { return true }
        guard let condition else { return false }
        func tests(_ c: Condition) -> Bool {
            switch c {
            case .comparison(let cmp): return cmp.field == .category
            case .and(let cs), .or(let cs): return cs.contains(where: tests)
            case .not(let c): return tests(c)
            }
        }
        return tests(condition)
    }
}

extension Session {
    /// Whether a query reads the split view.
    func readsSplits(_ q: Query) -> Bool { !ledger.splits.isEmpty && q.readsCategories }

    /// The plan context and executor a query runs with.
    func engine(for q: Query) -> (context: PlanContext, executor: Executor) {
        guard readsSplits(q) else { return (context, executor) }
        let view: (ledger: Ledger, columns: RateColumnCache)
        if let built = splitEngine {
            view = built
        } else {
            let l = ledger.splitView()
            let columns = RateColumnCache(ledger: l, resolver: resolver)
            columns.agePolicy = RateAgePolicy(maxAgeDays: maxRateAge)
            view = (l, columns)
            splitEngine = view
        }
        return (context(view.ledger), executor(view.ledger, view.columns))
    }
}
