// The result shaper's order: groups ranked by their keys' codes (each distinct value made
// into a sort key once) must come out exactly as groups ranked by their values alone.

@testable import AbacusCore
@testable import AbacusQuery
import Testing

@Suite struct ShaperOrderTests {
    /// Random groups of two and three keys over names that differ only in letter case, a
    /// missing value, two codes standing for the same name (two books may share one), periods
    /// and currencies; in key order, by one key ascending and descending, and by value.
    @Test(arguments: 0..<12)
    func codesOrderGroupsAsTheirValuesDo(seed: Int) {
        var random = SplitMix64(state: UInt64(seed))
        let names: [Cell] = [.text("rent"), .text("Rent"), .text("rent"), .none, .text("Groceries"), .text("éclair"), .text("Zoo"), .text("a")]
        let periods: [Cell] = (0..<30).map { .period(Period(unit: .month, code: Int32(24_000 + $0 * 7 % 30))) }
        let currencies: [Cell] = ["USD", "INR", "EUR"].map { .currency(Currency(code: $0)!) }
        let wide = seed % 3 == 0   // codes too spread for a table: the dictionary path
        let columns: [[Cell]] = seed % 2 == 0 ? [names, periods] : [periods, names, currencies]
        var seen = Set<[UInt32]>()
        var groups: [GroupValue] = []
        for _ in 0..<(50 + seed * 40) {
            let codes = columns.map { UInt32(random.next() % UInt64($0.count)) }
            guard seen.insert(codes).inserted else { continue }
            let value = Cell.count(Int(random.next() % 5))
            groups.append(GroupValue(id: groups.count + 1, key: zip(columns, codes).map { $0[Int($1)] }, value: value,
                                     entries: 1, codes: GroupCodes(codes.map { wide ? $0 &* 40_000_003 : $0 })))
        }
        let keys: [GroupKey] = columns.count == 2 ? [.category, .month] : [.month, .book, .currency]
        let orders: [Order?] = [nil, Order(key: .key(keys[1]), descending: false, range: 0..<0),
                                Order(key: .key(keys[0]), descending: true, range: 0..<0), Order(key: .value, descending: true, range: 0..<0)]
        for order in orders {
            let byCodes = ResultShaper.ordered(groups, keys: keys, order: order, byEntries: false).map(\.id)
            let byValues = ResultShaper.ordered(groups.map { var g = $0; g.codes = nil; return g }, keys: keys, order: order, byEntries: false).map(\.id)
            #expect(byCodes == byValues, "order \(String(describing: order))")
            // By value: counts descending, ties in the keys' order.
            if order?.key == .value {
                let keyOrder = ResultShaper.ordered(groups, keys: keys, order: nil, byEntries: false).map(\.id)
                let place = Dictionary(uniqueKeysWithValues: keyOrder.enumerated().map { ($1, $0) })
                func count(_ id: Int) -> Int { if case .count(let n) = groups[id - 1].value { return n } else { return -1 } }
                for (a, b) in zip(byCodes, byCodes.dropFirst()) {
                    #expect(count(a) > count(b) || (count(a) == count(b) && place[a, default: 0] < place[b, default: 0]))
                }
            }
            // And the order is the keys' own: each group's sort keys ascend (or tie) from row to row.
            if order == nil {
                let rows = byCodes.map { id in groups[id - 1].key.map(ResultShaper.SortKey.init) }
                for (a, b) in zip(rows, rows.dropFirst()) { #expect(!b.lexicographicallyPrecedes(a)) }
            }
        }
    }

    /// The counting sort by rank columns orders positions as sorting them by their ranks, key
    /// by key, ties in position order, does: with ties, one key and three; keys whose ranks are
    /// sorted by together (folded into one rank: two of 3, two of 40, two and two of 50) and apart
    /// (two of 1,000: a million counters).
    @Test(arguments: [(1, 5), (2, 3), (3, 40), (4, 50), (2, 1000)])
    func countingOrderIsTheStableSortByRanks(keys: Int, size: Int) {
        var random = SplitMix64(state: UInt64(keys * 1000 + size))
        let n = 700
        let ranks = (0..<keys).map { _ in (0..<n).map { _ in Int(random.next() % UInt64(size)) } }
        let expected = (0..<n).sorted { a, b in
            for column in ranks where column[a] != column[b] { return column[a] < column[b] }
            return a < b
        }
        #expect(ResultShaper.countingOrder(ranks, count: n) == expected)
    }
}
