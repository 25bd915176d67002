// Groups another engine worked out (a database, docs/postgres.md), shaped by the same
// result shaper as the in-memory executor's: the same order, `top N`, total rows, shares
// and running totals, so both engines give the same result from the same values.

import AbacusCore

public struct ComputedGroup: Sendable {
    public var key: [Cell]
    public var value: Cell
    public var entries: Int
    public init(key: [Cell], value: Cell, entries: Int) {
        self.key = key
        self.value = value
        self.entries = entries
    }
}

extension ResultSet {
    /// The result of an aggregate over `groups` (numbered by their place in the array, from 0).
    /// `whole` is the value over the whole statement, each entry once; `subtotal` over some
    /// groups; `currencyTotal` (in native) over some groups of one currency; `wholeEntries`
    /// how many entries the whole statement has, each once.
    public static func shaped(_ logical: LogicalPlan, ledger: Ledger, groups: [ComputedGroup],
                              whole: @escaping () throws(QueryError) -> Cell,
                              wholeEntries: (() throws(QueryError) -> Int)? = nil,
                              subtotal: @escaping ([Int]) throws(QueryError) -> Cell?,
                              currencyTotal: @escaping ([Int], Currency, Bool) throws(QueryError) -> Cell?,
                              isCancelled: @escaping @Sendable () -> Bool) throws(QueryError) -> ResultSet {
        let keys = logical.groupBy
        let count = logical.aggregate == .count
        var result = ResultSet(columns: keys.map { Column($0.rawValue, .key($0)) } + [count ? Column("count", .count) : Column("amount", .money)],
                               rows: [], currency: count ? nil : logical.target)
        if keys.isEmpty {
            result.rows = [[try whole()]]
            return result
        }
        let plan = Planner.lower(logical, ledger: ledger)
        var shaper = ResultShaper(plan: plan, home: ledger.defaultCurrency, isCancelled: isCancelled, whole: whole,
                                  subtotal: subtotal, currencyTotal: currencyTotal)
        shaper.wholeEntries = wholeEntries
        try shaper.shape(groups.enumerated().map { GroupValue(id: $0.offset, key: $0.element.key, value: $0.element.value, entries: $0.element.entries) },
                         into: &result)
        return result
    }
}
