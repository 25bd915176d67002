// Group keys: the code each row has for a key, the label each code shows as, and
// the order groups come in (periods chronologically, names alphabetically,
// "(none)" last).

import AbacusCore

extension Executor {
    /// How many codes a coded column can hold.
    func codeSpace(_ k: GroupKey) -> Int {
        switch k {
        case .category: return store.categories.count
        case .book: return ledger.books.count
        case .party: return store.parties.count
        case .payment: return store.payments.count
        case .currency: return 26 * 26 * 26 + 1
        default: return 0
        }
    }

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
