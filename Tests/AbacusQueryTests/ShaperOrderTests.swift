// The result shaper's order: groups ranked by their keys' codes (each distinct value made
// into a sort key once) must come out exactly as groups ranked by their values alone.

@testable import AbacusCore
@testable import AbacusQuery
import Testing

@Suite struct ShaperOrderTests {
    /// `order by amount` and `top N` rank by the value as shown (docs/language.md): ₹0.58 and
    /// ₹0.5849 are both ₹0.58, a tie, kept in key order, in memory and in every report.
    @Test func valuesThatShowTheSameAreATieInKeyOrder() throws {
        let ledger = """
            {"version": 1, "defaultCurrency": "INR", "books": [{"id": "h", "name": "H", "currency": "INR"}],
             "entries": [{"id": "1", "bookId": "h", "amount": -0.58, "date": "2025-01-10", "category": "A"},
                         {"id": "2", "bookId": "h", "amount": -0.5849, "date": "2025-01-11", "category": "B"},
                         {"id": "3", "bookId": "h", "amount": -0.57, "date": "2025-01-12", "category": "C"}]}
            """
        let s = Session(ledger: try LedgerLoader.load(documents: [("t.json", ledger)]), today: Day(year: 2025, month: 12, day: 31)!)
        func firsts(_ statement: String) throws -> [String] { try s.run(statement).rows.map { plainText($0[0]) ?? "" } }
        #expect(try firsts("sum expenses by category order by amount desc") == ["A", "B", "C"])
        #expect(try firsts("sum expenses by category order by amount asc") == ["C", "A", "B"])
        #expect(try firsts("sum expenses by category top 1") == ["A"])
    }

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

    /// Ranking by value, whole or only the first k (`top N`: a heap when k is small), gives
    /// exactly what sorting every group by its exact value does: descending and ascending, ties
    /// in the order given, empty values last, money at several scales, and values whose scales
    /// cannot be aligned in 128 bits (the exact comparison decides those).
    @Test(arguments: 0..<8)
    func rankingByValueKeepsTheSortedPrefix(seed: Int) {
        var random = SplitMix64(state: UInt64(seed) &+ 77)
        let usd = Currency(code: "USD")!
        let n = 40 + seed * 150
        let groups: [GroupValue] = (0..<n).map { g in
            let pick = random.next() % 10
            let value: Cell
            switch pick {
            case 0: value = .empty
            case 1 where seed % 4 == 3: value = .money(ExactDecimal(significand: Int128(random.next() % 1000) * pow10[37 - 3], scale: 0), usd)
            case 2, 3: value = .money(ExactDecimal(significand: Int128(random.next() % 30) - 15, scale: 0), usd)
            default: value = .money(ExactDecimal(significand: Int128(random.next() % 3000) - 1500, scale: 2 + seed % 3), usd)
            }
            return GroupValue(id: g + 1, key: [], value: value, entries: Int(random.next() % 6))
        }
        let order = Array(0..<n).shuffled(using: &random)
        for descending in [true, false] {
            for byEntries in [false, true] {
                func value(_ p: Int) -> ExactDecimal? {
                    if byEntries { return ExactDecimal(groups[p].entries) }
                    if case .money(let v, _) = groups[p].value { return v }
                    return nil
                }
                let expected = order.enumerated().sorted { a, b in
                    switch (value(a.element), value(b.element)) {
                    case let (x?, y?) where x != y: return descending ? y < x : x < y
                    case (.some, nil): return true
                    case (nil, .some): return false
                    default: return a.offset < b.offset
                    }
                }.map(\.element)
                #expect(ResultShaper.ranked(order, of: groups, descending: descending, byEntries: byEntries) == expected)
                for keep in [0, 1, 3, 10, n / 9, n / 2, n, n + 5] {
                    #expect(ResultShaper.ranked(order, of: groups, descending: descending, byEntries: byEntries, keep: keep) == Array(expected.prefix(keep)),
                            "keep \(keep) descending \(descending) by entries \(byEntries)")
                }
            }
        }
    }

    /// The first k by a total order, through the heap (k at most an eighth of the items) and the sort.
    @Test func firstOfIsTheSortedPrefix() {
        var random = SplitMix64(state: 5)
        let items = (0..<2000).map { _ in Int(random.next() % 500) }
        let sorted = items.enumerated().sorted { ($0.element, $0.offset) < ($1.element, $1.offset) }
        for k in [1, 2, 7, 100, 250, 251, 1999, 2000] {
            let first = ResultShaper.firstOf(Array(items.enumerated()), k) { ($0.element, $0.offset) < ($1.element, $1.offset) }
            #expect(first.map(\.offset) == sorted.prefix(k).map(\.offset), "k \(k)")
        }
    }
}
