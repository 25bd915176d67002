// Group keys: the code each row has for a key, the typed value each code stands
// for, and the order groups come in (periods chronologically, names
// alphabetically in any letter case, a missing value last).

import AbacusCore

/// The codes of a row's group keys: one lane per key (at most four keys and the
/// `currency` that `in native` adds), found in `Grouper`'s own table by a 64-bit mix of
/// its lanes: one lookup per row of a multi-key grouping is the hot spot.
struct GroupCodes: Hashable {
    private var lanes = SIMD8<UInt32>.zero

    static let zero = GroupCodes()

    init() {}

    /// The codes of the keys in order (at most eight).
    init(_ codes: [UInt32]) {
        for (i, c) in codes.prefix(8).enumerated() { self[i] = c }
    }

    @inline(__always)
    subscript(_ i: Int) -> UInt32 {
        get { lanes[i] }
        set {
            // One lane replaced in registers: a lane stored alone into the vector's memory and the
            // whole vector read back after it cannot be forwarded, and stalls each time.
            precondition(i >= 0 && i < 8, "a group has at most eight keys")
            lanes.replace(with: newValue, where: SIMD8<UInt32>(0, 1, 2, 3, 4, 5, 6, 7) .== SIMD8(repeating: UInt32(truncatingIfNeeded: i)))
        }
    }

    @inline(__always)
    static func == (a: GroupCodes, b: GroupCodes) -> Bool { a.lanes == b.lanes }

    func hash(into hasher: inout Hasher) { hasher.combine(mixed) }

    /// A 64-bit mix of the lanes for `Grouper`'s own table: no two groups of one statement are
    /// told apart by it alone (equal mixes are compared lane by lane), it only spreads them.
    @inline(__always)
    var mixed: UInt64 {
        let a = UInt64(lanes[0]) | UInt64(lanes[1]) << 32
        let b = UInt64(lanes[2]) | UInt64(lanes[3]) << 32
        let c = UInt64(lanes[4]) | UInt64(lanes[5]) << 32
        var h = a &* 0x9E37_79B9_7F4A_7C15 ^ b &* 0xC2B2_AE3D_27D4_EB4F ^ c &* 0x1656_67B1_9E37_79F9
        h ^= h >> 29
        h = h &* 0xBF58_476D_1CE4_E5B9
        return h ^ (h >> 32)
    }
}

extension Executor {
    /// A period key's code for a day (`Period.code`, as 32 bits).
    @inline(__always)
    static func periodCode(_ k: GroupKey, _ d: Day) -> UInt32 {
        guard let unit = k.periodUnit else { return 0 }
        return UInt32(bitPattern: Period.code(unit, d))
    }

    /// The names the keys' codes stand for, read from the store once per result (not once
    /// per group: a store image's dictionaries are found through its late sections).
    func keyNames(_ keys: [GroupKey]) -> KeyNames {
        KeyNames(categories: keys.contains { $0 == .category || $0 == .topCategory } ? store.categories : [],
                 books: keys.contains(.book) ? ledger.books.map(\.name) : [],
                 parties: keys.contains(.party) ? store.parties : [],
                 payments: keys.contains(.payment) ? store.payments : [],
                 tags: keys.contains(.tag) ? store.tags : [])
    }
}

extension Executor {
    /// For a key of names (a category, a book, a party, a payment, a tag), the rank of each of
    /// its codes among all of them in the order results show them (`ResultShaper.SortKey`),
    /// worked out once for the ledger; nil for periods and currencies (their codes are their order).
    func nameRanks(_ key: GroupKey) -> [Int32]? {
        guard !key.isPeriod, key != .currency else { return nil }
        return columns.derived("name ranks of \(key.rawValue)") { () -> [Int32] in
            let names = keyNames([key])
            let size: Int
            switch key {
            case .category, .topCategory: size = names.categories.count
            case .book: size = names.books.count
            case .party: size = names.parties.count
            case .payment: size = names.payments.count
            case .tag: size = names.tags.count + 1
            case .currency, .day, .week, .month, .quarter, .year: size = 0
            }
            var ranks = [Int32](repeating: 0, count: size)
            for (code, r) in ResultShaper.rankedCodes((0..<size).map { (UInt32($0), ResultShaper.SortKey(names.value(key, UInt32($0)))) }) {
                ranks[Int(code)] = Int32(r)
            }
            return ranks
        }
    }
}

/// The names behind the codes of a statement's group keys (`Executor.keyNames`).
struct KeyNames {
    let categories: [String], books: [String], parties: [String], payments: [String], tags: [String]

    /// The value a key's code stands for.
    func value(_ k: GroupKey, _ c: UInt32) -> Cell {
        switch k {
        case .category, .topCategory: return .text(categories[Int(c)])
        case .book: return .text(books[Int(c)])
        case .party: return c == 0 ? .none : .text(parties[Int(c)])
        case .payment: return c == 0 ? .none : .text(payments[Int(c)])
        case .currency: return .currency(Currency(packed: UInt16(c)))
        case .tag: return c == 0 ? .none : .text(tags[Int(c) - 1])
        case .day: return .period(Period(unit: .day, code: Int32(bitPattern: c)))
        case .week: return .period(Period(unit: .week, code: Int32(bitPattern: c)))
        case .month: return .period(Period(unit: .month, code: Int32(bitPattern: c)))
        case .quarter: return .period(Period(unit: .quarter, code: Int32(bitPattern: c)))
        case .year: return .period(Period(unit: .year, code: Int32(bitPattern: c)))
        }
    }
}

/// The groups of each row: the codes of its group keys packed into `GroupCodes`, numbered from
/// 1 in order of first appearance (group 0 stands for the whole statement). A single key on
/// a coded column indexes a table directly; a period key is worked out once per day.
struct Grouper {
    let keys: [GroupKey]
    let store: EntryStore
    private var keyOf: [GroupCodes] = [.zero]
    /// Open addressing with linear probing: slot → group number, -1 for empty. A row's lookup
    /// is the inner loop of every grouping the dense kernel does not take, and the standard
    /// dictionary's hashing cost several times the rest of the row.
    private var table = [Int32](repeating: -1, count: 1024)
    /// Groups numbered by `appendNew` are not in `table` yet.
    private var unindexed = false
    private var dense: [Int32]
    private let singleCode: GroupKey?
    private let periodKeys: [(offset: Int, element: GroupKey)]
    private let codeKeys: [(offset: Int, element: GroupKey)]
    private let tagIndex: Int?
    private var dayCache: (day: Int32, codes: GroupCodes) = (.min, .zero)
    /// For `top category`: each category's root in the tree, as a category code.
    private let rootCode: [UInt32]
    private var dayGroup = -1

    init(keys: [GroupKey], ledger: Ledger) {
        self.keys = keys
        self.store = ledger.entries
        periodKeys = keys.enumerated().filter { $0.element.isPeriod }
        codeKeys = keys.enumerated().filter { !$0.element.isPeriod && $0.element != .tag }
        tagIndex = keys.firstIndex(of: .tag)
        singleCode = keys.count == 1 && !keys[0].isPeriod && keys[0] != .tag ? keys[0] : nil
        let space: Int
        switch singleCode {
        case .category?, .topCategory?: space = store.categories.count
        case .book?: space = ledger.books.count
        case .party?: space = store.parties.count
        case .payment?: space = store.payments.count
        case .currency?: space = 26 * 26 * 26 + 1
        default: space = 0
        }
        dense = [Int32](repeating: -1, count: space)
        rootCode = keys.contains(.topCategory) ? ledger.rootCategoryCodes : []
    }

    var count: Int { keyOf.count }

    func key(_ g: Int) -> GroupCodes { keyOf[g] }

    /// Numbers a key known to be new (the dense kernel's groups, each met once) without
    /// entering it in the table: `lookup` and `group` need `indexed()` or enter it themselves.
    mutating func appendNew(_ key: GroupCodes) {
        keyOf.append(key)
        unindexed = true
    }

    /// This numbering with every group in the table (`appendNew` leaves them out).
    func indexed() -> Grouper {
        guard unindexed else { return self }
        var g = self
        g.unindexed = false
        var size = 1024
        while size < keyOf.count * 2 { size *= 2 }
        g.rebuild(size: size)
        return g
    }

    /// The number of a key's group, if it has one (looked for one by one in a numbering that
    /// `appendNew` left out of the table: make it `indexed()` first to look up many).
    func lookup(_ key: GroupCodes) -> Int? {
        guard !unindexed else { return keyOf.indices.dropFirst().first { keyOf[$0] == key } }
        let mask = table.count - 1
        var i = Int(truncatingIfNeeded: key.mixed) & mask
        while true {
            let g = Int(table[i])
            if g < 0 { return nil }
            if keyOf[g] == key { return g }
            i = (i + 1) & mask
        }
    }

    @inline(__always)
    func code(_ k: GroupKey, _ row: Int) -> UInt32 {
        guard let column = k.codeColumn else { return 0 }
        if k == .topCategory { return rootCode[Int(store.category[row])] }
        return store.code(column, row)
    }

    /// The group of a key, numbered on first sight.
    mutating func group(_ key: GroupCodes) -> Int {
        if unindexed { self = indexed() }
        let mask = table.count - 1
        var i = Int(truncatingIfNeeded: key.mixed) & mask
        while true {
            let g = Int(table[i])
            if g < 0 { break }
            if keyOf[g] == key { return g }
            i = (i + 1) & mask
        }
        let g = keyOf.count
        keyOf.append(key)
        table[i] = Int32(g)
        // At most half full: probes stay short.
        if keyOf.count * 2 > table.count { grow() }
        return g
    }

    private mutating func grow() {
        rebuild(size: table.count * 2)
    }

    private mutating func rebuild(size: Int) {
        table = [Int32](repeating: -1, count: size)
        let mask = table.count - 1
        for g in 1..<keyOf.count {
            var i = Int(truncatingIfNeeded: keyOf[g].mixed) & mask
            while table[i] >= 0 { i = (i + 1) & mask }
            table[i] = Int32(g)
        }
    }

    /// The groups of `row` found by the last `find`: `found(0) ..< found(count)`.
    private(set) var firstFound = 0
    private var moreFound: [Int] = []

    @inline(__always)
    func found(_ i: Int) -> Int { i == 0 ? firstFound : moreFound[i - 1] }

    /// Finds the groups of `row` and returns how many there are (read them with `found`):
    /// none without keys, several for a row with several tags.
    @inline(__always)
    mutating func find(_ row: Int) -> Int {
        if keys.isEmpty { return 0 }
        if let column = singleCode {
            let c = Int(code(column, row))
            var g = Int(dense[c])
            if g < 0 {
                var key = GroupCodes.zero
                key[0] = UInt32(c)
                g = group(key)
                dense[c] = Int32(g)
            }
            firstFound = g
            return 1
        }
        var key = GroupCodes.zero
        if !periodKeys.isEmpty {
            let d = store.day[row]
            if d != dayCache.day {
                var codes = GroupCodes.zero
                for (i, k) in periodKeys { codes[i] = Executor.periodCode(k, Day(number: d)) }
                dayCache = (d, codes)
                dayGroup = -1
            }
            key = dayCache.codes
            // One period key: every row of a day is in the same group.
            if keys.count == 1 {
                if dayGroup < 0 { dayGroup = group(key) }
                firstFound = dayGroup
                return 1
            }
        }
        for (i, k) in codeKeys { key[i] = code(k, row) }
        guard let tagIndex else { firstFound = group(key); return 1 }
        // Each tag of the row is a group of its own; no tags is the group "(none)".
        let tags = store.tags(at: row)
        key[tagIndex] = tags.isEmpty ? 0 : tags[tags.startIndex] + 1
        firstFound = group(key)
        moreFound.removeAll(keepingCapacity: true)
        for t in tags.dropFirst() {
            key[tagIndex] = t + 1
            moreFound.append(group(key))
        }
        return 1 + moreFound.count
    }
}

extension Ledger {
    /// For each category code, the code of its root in the category tree.
    var rootCategoryCodes: [UInt32] {
        let names = entries.categories
        var codeOf: [String: UInt32] = [:]
        for (i, c) in names.enumerated() { codeOf[c] = UInt32(i) }
        let roots = rootCategories(names)
        return names.indices.map { i in roots[i] == names[i] ? UInt32(i) : codeOf[roots[i]] ?? UInt32(i) }
    }

    /// The group of each category under `by top category` that is another category (its
    /// root, as `rootCategoryCodes` finds it); a category not here is its own group. Another
    /// engine groups by this (docs/postgres.md).
    public var topCategoryGroups: [String: String] {
        let names = entries.categories
        let codes = rootCategoryCodes
        var out: [String: String] = [:]
        for i in names.indices where codes[i] != UInt32(i) { out[names[i]] = names[Int(codes[i])] }
        return out
    }
}

extension GroupKey {
    /// The coded column a key reads; nil for tags and periods.
    var codeColumn: CodeColumn? {
        switch self {
        case .category, .topCategory: return .category
        case .book: return .book
        case .party: return .party
        case .payment: return .payment
        case .currency: return .currency
        case .tag, .day, .week, .month, .quarter, .year: return nil
        }
    }
}
