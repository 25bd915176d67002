// The parts of a ledger beyond entries and rates (docs/ledger-format.md#categories,
// #splits, #assets, #liabilities, #holdings): the category tree, entries split across
// categories, and what a net worth adds up. Records with one id form a history: the
// newest dated on or before a report date is the one that counts.

/// A category and its parent in the tree.
public struct CategoryLink: Sendable, Equatable {
    public var name: String
    public var parent: String?
    public init(name: String, parent: String?) {
        self.name = name
        self.parent = parent
    }
}

/// One part of a split entry: its amount (in the entry's currency) and category.
public struct SplitPart: Sendable, Equatable {
    public var amount: ExactDecimal
    public var category: String
    public var memo: String?
    public init(amount: ExactDecimal, category: String, memo: String?) {
        self.amount = amount
        self.category = category
        self.memo = memo
    }
}

/// The split entries of a store, by row (ascending), each with its parts in file order.
public struct SplitTable: Sendable {
    public internal(set) var rows: [UInt32] = []
    public internal(set) var parts: [[SplitPart]] = []
    public init() {}

    public var isEmpty: Bool { rows.isEmpty }

    /// The parts of `row`, or nil when the entry is not split.
    public func parts(ofRow row: Int) -> [SplitPart]? {
        var lo = 0, hi = rows.count
        while lo < hi { let mid = (lo + hi) / 2; if Int(rows[mid]) < row { lo = mid + 1 } else { hi = mid } }
        return lo < rows.count && Int(rows[lo]) == row ? parts[lo] : nil
    }
}

public struct AssetRecord: Sendable, Equatable {
    public var id: String
    public var name: String
    public var tangible: Bool
    public var value: ExactDecimal
    public var currency: Currency
    public var day: Day
    public var volatile: Bool
    public var includeInCore: Bool
    public init(id: String, name: String, tangible: Bool, value: ExactDecimal, currency: Currency, day: Day, volatile: Bool, includeInCore: Bool) {
        self.id = id; self.name = name; self.tangible = tangible; self.value = value
        self.currency = currency; self.day = day; self.volatile = volatile; self.includeInCore = includeInCore
    }
}

public struct LiabilityRecord: Sendable, Equatable {
    public var id: String
    public var name: String
    public var type: String?
    /// What is owed: positive.
    public var balance: ExactDecimal
    public var currency: Currency
    public var day: Day
    public var interestRate: ExactDecimal?
    public var dueDate: Day?
    public init(id: String, name: String, type: String?, balance: ExactDecimal, currency: Currency, day: Day, interestRate: ExactDecimal?, dueDate: Day?) {
        self.id = id; self.name = name; self.type = type; self.balance = balance
        self.currency = currency; self.day = day; self.interestRate = interestRate; self.dueDate = dueDate
    }
}

/// One lot of an investment: bought on `day`, counting from then on.
public struct HoldingLot: Sendable, Equatable {
    public var id: String
    public var account: String?
    public var symbol: String
    public var quantity: ExactDecimal
    public var costPerUnit: ExactDecimal
    public var fee: ExactDecimal
    public var currency: Currency
    public var day: Day
    public init(id: String, account: String?, symbol: String, quantity: ExactDecimal, costPerUnit: ExactDecimal, fee: ExactDecimal, currency: Currency, day: Day) {
        self.id = id; self.account = account; self.symbol = symbol; self.quantity = quantity
        self.costPerUnit = costPerUnit; self.fee = fee; self.currency = currency; self.day = day
    }
}

public struct PriceRecord: Sendable, Equatable {
    public var symbol: String
    public var day: Day
    public var price: ExactDecimal
    public var currency: Currency
    public var source: String?
    public init(symbol: String, day: Day, price: ExactDecimal, currency: Currency, source: String?) {
        self.symbol = symbol; self.day = day; self.price = price; self.currency = currency; self.source = source
    }
}

extension Ledger {
    /// Each category's parent (none for a root).
    public var parentOf: [String: String] {
        var out: [String: String] = [:]
        for l in categoryLinks { if let p = l.parent { out[l.name] = p } }
        return out
    }

    /// The category and every category below it in the tree.
    public func categoryAndDescendants(_ name: String) -> [String] {
        var children: [String: [String]] = [:]
        for l in categoryLinks { if let p = l.parent { children[p, default: []].append(l.name) } }
        var out = [name]
        var seen: Set<String> = [name]
        var i = 0
        while i < out.count {
            for c in children[out[i]] ?? [] where seen.insert(c).inserted { out.append(c) }
            i += 1
        }
        return out
    }

    /// The root ancestor of a category (itself when it has no parent).
    public func rootCategory(_ name: String) -> String {
        rootCategories([name])[0]
    }

    /// The root ancestor of each category, the tree read once and each walk up remembered.
    public func rootCategories(_ names: [String]) -> [String] {
        let parents = parentOf
        var root: [String: String] = [:]
        return names.map { name in
            var path: [String] = []
            var c = name
            while root[c] == nil, let p = parents[c], path.count <= parents.count { path.append(c); c = p }
            let r = root[c] ?? c
            for n in path { root[n] = r }
            return r
        }
    }

    /// The newest record of each id dated on or before `day`, in order of first appearance.
    public static func current<R>(_ records: [R], id: (R) -> String, day: (R) -> Day, asOf d: Day) -> [R] {
        var order: [String] = []
        var best: [String: (R, Int)] = [:]
        for (i, r) in records.enumerated() where day(r) <= d {
            let key = id(r)
            if let (b, _) = best[key] {
                if day(b) <= day(r) { best[key] = (r, i) }
            } else {
                order.append(key)
                best[key] = (r, i)
            }
        }
        return order.compactMap { best[$0]?.0 }
    }
}
