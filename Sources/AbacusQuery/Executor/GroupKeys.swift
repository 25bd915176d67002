// Group keys: the code each row has for a key, the label each code shows as, and
// the order groups come in (periods chronologically, names alphabetically,
// "(none)" last).

import AbacusCore

extension Executor {
    static func periodCode(_ k: GroupKey, _ d: Day) -> UInt32 {
        let (y, m, _) = d.civil
        switch k {
        case .day: return UInt32(bitPattern: d.number)
        case .week: let w = d.isoWeek; return UInt32(w.year * 100 + w.week)
        case .month: return UInt32(y * 12 + m - 1)
        case .quarter: return UInt32(y * 4 + (m - 1) / 3)
        case .year: return UInt32(y)
        default: return 0
        }
    }

    func labels(_ key: SIMD4<UInt32>, _ keys: [GroupKey]) -> [String] {
        keys.enumerated().map { i, k in label(k, key[i]) }
    }

    public static let none = "(none)"

    /// Four digits, as dates are written (`0099`).
    static func year(_ y: Int) -> String {
        let s = String(y)
        return s.count >= 4 ? s : String(repeating: "0", count: 4 - s.count) + s
    }

    func label(_ k: GroupKey, _ c: UInt32) -> String {
        switch k {
        case .category: return store.categories[Int(c)]
        case .book: return ledger.books[Int(c)].name
        case .party: return c == 0 ? Executor.none : store.parties[Int(c)]
        case .payment: return c == 0 ? Executor.none : store.payments[Int(c)]
        case .currency: return Currency(packed: UInt16(c)).code
        case .tag: return c == 0 ? Executor.none : store.tags[Int(c) - 1]
        case .day: return Day(number: Int32(bitPattern: c)).description
        case .week: return Executor.year(Int(c / 100)) + "-W" + (c % 100 < 10 ? "0" : "") + "\(c % 100)"
        case .month: let m = c % 12 + 1; return Executor.year(Int(c / 12)) + "-" + (m < 10 ? "0" : "") + "\(m)"
        case .quarter: return Executor.year(Int(c / 4)) + "-Q\(c % 4 + 1)"
        case .year: return Executor.year(Int(c))
        }
    }

    /// Ascending by each key in turn: periods chronologically, names alphabetically, "(none)" last.
    func compareKeys(_ a: SIMD4<UInt32>, _ b: SIMD4<UInt32>, _ keys: [GroupKey], _ la: [String], _ lb: [String], onlyIndex: Int? = nil) -> Bool {
        for (j, k) in keys.enumerated() {
            let i = onlyIndex ?? j
            let li = onlyIndex == nil ? j : 0
            guard a[i] != b[i] else { continue }
            if k.isPeriod {
                if k == .day { return Int32(bitPattern: a[i]) < Int32(bitPattern: b[i]) }
                return a[i] < b[i]
            }
            let optional = k == .party || k == .payment || k == .tag
            let noneA = optional && a[i] == 0, noneB = optional && b[i] == 0
            if noneA != noneB { return noneB }
            let x = la[li].lowercased(), y = lb[li].lowercased()
            if x != y { return x < y }
            return la[li] < lb[li]
        }
        return false
    }
}

/// The groups of each row: the codes of its group keys packed into a SIMD4, numbered from
/// 1 in order of first appearance (group 0 stands for the whole statement). A single key on
/// a coded column indexes a table directly; a period key is worked out once per day.
struct Grouper {
    let keys: [GroupKey]
    let store: EntryStore
    private var keyOf: [SIMD4<UInt32>] = [.zero]
    private var index: [SIMD4<UInt32>: Int] = [:]
    private var dense: [Int32]
    private let singleCode: GroupKey?
    private let periodKeys: [(offset: Int, element: GroupKey)]
    private let codeKeys: [(offset: Int, element: GroupKey)]
    private let tagIndex: Int?
    private var dayCache: (day: Int32, codes: SIMD4<UInt32>) = (.min, .zero)
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
        case .category?: space = store.categories.count
        case .book?: space = ledger.books.count
        case .party?: space = store.parties.count
        case .payment?: space = store.payments.count
        case .currency?: space = 26 * 26 * 26 + 1
        default: space = 0
        }
        dense = [Int32](repeating: -1, count: space)
    }

    var count: Int { keyOf.count }

    func key(_ g: Int) -> SIMD4<UInt32> { keyOf[g] }

    /// The number of a key's group, if it has one.
    func lookup(_ key: SIMD4<UInt32>) -> Int? { index[key] }

    @inline(__always)
    func code(_ k: GroupKey, _ row: Int) -> UInt32 {
        switch k {
        case .category: return store.category[row]
        case .book: return store.book[row]
        case .party: return store.party[row]
        case .payment: return store.payment[row]
        case .currency: return UInt32(store.currency[row].packed)
        case .tag, .day, .week, .month, .quarter, .year: return 0
        }
    }

    /// The group of a key, numbered on first sight.
    mutating func group(_ key: SIMD4<UInt32>) -> Int {
        if let g = index[key] { return g }
        let g = keyOf.count
        keyOf.append(key)
        index[key] = g
        return g
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
                var key = SIMD4<UInt32>.zero
                key[0] = UInt32(c)
                g = group(key)
                dense[c] = Int32(g)
            }
            firstFound = g
            return 1
        }
        var key = SIMD4<UInt32>.zero
        if !periodKeys.isEmpty {
            let d = store.day[row]
            if d != dayCache.day {
                var codes = SIMD4<UInt32>.zero
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
