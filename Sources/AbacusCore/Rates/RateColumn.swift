// Which rate converts each entry, as a column (docs/conversion.md#rules: booked, custom, market).
//
// For one target currency and one valuation, the rule of conversion that applies to an
// entry depends only on the ledger and the session's custom rates, never on the
// statement: so it is worked out once, for every row, as a rate id per row, and
// the session keeps the column until a rate changes. A query then reads one
// integer per row instead of walking the rules. What-if rates (step 1) are the
// statement's own and are laid over the column by `RowConverter`.
//
// Rows of one day and currency share their custom or market rate, and rows come
// in day order, so the resolver is asked once per currency and day.

import Dispatch
import Synchronization

/// How one rate converts: its source, the decimal factor amounts are multiplied by,
/// and what a query must say about it.
public struct ColumnRate: Sendable {
    public private(set) var resolved: ResolvedRate
    /// The rate itself when it is a decimal, else the quotient to 34 significant digits.
    public var factor: ExactDecimal
    /// True when `factor` is the rate exactly (a decimal rate, or a quotient that terminates).
    public var isExact: Bool
    /// A market source dated after the day asked for (no earlier one exists).
    public var isLate: Bool
    /// Under `at latest`: the newest rate is older than today.
    public var stale: StaleRate?
    /// A market rate's oldest and newest source dates (worked out once: a query only counts).
    public var oldestDay: Day?
    public var newestDay: Day?
    /// A market rate older than `RateAgePolicy.noticedAfterDays` on the day it is used for: such a
    /// rate has an id of its own for that day, so that its entries and age can be told.
    public var age: RateAge?
    /// Where the rate came from, without what it came with (`resolved.origin`).
    public var kind: Kind
    public enum Kind: Sendable { case whatIf, locked, custom, market, bookedShare }

    init?(_ resolved: ResolvedRate, stale: StaleRate? = nil, age: RateAge? = nil) {
        guard let (f, exact) = resolved.rate.factorAndExactness else { return nil }
        self.resolved = resolved
        self.factor = f
        self.isExact = exact
        switch resolved.origin {
        case .whatIf: kind = .whatIf
        case .locked: kind = .locked
        case .custom: kind = .custom
        case .market: kind = .market
        case .bookedShare: kind = .bookedShare
        }
        if case .market(let q) = resolved.origin {
            isLate = q.isAfterRequestedDay
            (oldestDay, newestDay) = (q.oldestDay, q.newestDay)
        } else {
            isLate = false
        }
        self.stale = stale
        self.age = age
    }
}

/// What tells two resolved rates apart, cheaply: the pair and where the rate came from (a
/// market rate is fixed by its sources, a custom or locked one by its record). Hashing the
/// rates themselves (fractions, lists of legs) cost more than building the column.
struct RateIdentity: Hashable {
    var pair: CurrencyPair
    var kind: UInt8
    var first: Int = -1
    var second: Int = -1
    var via: Currency = .none
    var late = false
    /// The day an aged rate is used for (its uses are told apart by day); `Int32.min` otherwise.
    var agedOn = Int32.min

    init(_ r: ResolvedRate, agedOn day: Day? = nil) {
        agedOn = day?.number ?? Int32.min
        pair = r.pair
        func code(_ s: MarketSource) -> Int {
            switch s {
            case .snapshot(let i): return 2 * i
            case .pair(let i): return 2 * i + 1
            }
        }
        switch r.origin {
        case .whatIf: kind = 0
        case .bookedShare(let row): kind = 4; first = row
        case .locked(let book): kind = 1; first = book
        case .custom(let q):
            kind = 2
            if case .file(let i) = q.origin { first = i }
        case .market(let q):
            kind = 3
            first = q.legs.first.map { code($0.source) } ?? -1
            second = q.legs.count > 1 ? code(q.legs[1].source) : -1
            via = q.via ?? .none
            late = q.isAfterRequestedDay
        }
    }
}

public struct RateColumn: Sendable {
    /// Row codes below zero.
    public static let same: Int32 = -1
    public static let normalized: Int32 = -2
    public static let conversionRate: Int32 = -3
    /// A quotient rate beyond 10^38 (absurd inputs only): converting with it must fail.
    public static let unusable: Int32 = -4
    /// `missingBase - k`: no rate for `missingPairs[k]`.
    public static let missingBase: Int32 = -5

    public let target: Currency
    public let valuation: Valuation
    /// The one day rates are taken as of, whatever the entry's date: the valuation date of
    /// `at DATE`, today under `at latest`; nil when each entry's own date counts.
    public let asOf: Day?
    /// Per row: an index into `rates`, or one of the codes above.
    public let ids: StoreColumn<Int32>
    public let rates: [ColumnRate]
    public let missingPairs: [CurrencyPair]
    /// How old market rates may be (the staleness warning, the maximum age).
    public let agePolicy: RateAgePolicy
    /// How each rate and missing pair was made, in order (what a store image keeps to make them again).
    let recipes: [RateRecipe]
    /// What was worked out from this build of the column (`derived`).
    private let kept = DerivedValues()

    /// The value `make` works out from this column, made on the first call for `key` and kept
    /// with this build of it. Anything that goes by the rates' numbering (a table by rate id)
    /// belongs here, not beside the columns (`RateColumnCache.derived`): a column built again
    /// (after other columns pushed it out of the cache, or under another rate age policy) may
    /// number its rates otherwise (two threads number their rows' booked rates as they meet
    /// them; a policy tells more uses of a rate apart).
    public func derived<T: Sendable>(_ key: String, _ make: () -> T) -> T { kept.value(key, make) }

    /// Works out the column for every row of `ledger`.
    public init(ledger: Ledger, resolver: RateResolver, target: Currency, valuation: Valuation, today: Day?,
                agePolicy: RateAgePolicy = RateAgePolicy()) {
        let store = ledger.entries
        let fixedDay = RateColumn.fixedDay(valuation, today: today)
        let rates = RateTable(resolver: resolver, target: target, valuation: valuation, today: today, noticeAfter: agePolicy.noticedAfterDays)
        let booked = valuation == .booked
        let lockedRates = rates.lockedRates(ledger.books)
        let shares = booked ? ledger.bookedShares : [:]
        var ids = [Int32](repeating: RateColumn.same, count: store.count)
        // Rows are independent but for the rates they share: two threads fill halves of the
        // column, each noting the custom or market rates its rows need (a currency on a new
        // day) instead of resolving them; those are resolved afterwards, on one thread and
        // in row order, and the rows that wait for them filled in a second pass.
        ids.withUnsafeMutableBufferPointer { buffer in
            let out = UnsafeSendable(buffer)
            let threads = store.count >= RateColumn.parallelRows ? 2 : 1
            let needs = (0..<threads).map { _ in Slot<[(day: Int32, from: Currency)]>() }
            func each(_ work: @escaping @Sendable (Range<Int>, Int) -> Void) {
                let parts: @Sendable (Int) -> Void = { k in work((store.count * k / threads)..<(store.count * (k + 1) / threads), k) }
                if threads == 1 { parts(0) } else { DispatchQueue.concurrentPerform(iterations: threads, execute: parts) }
            }
            each { range, k in
                needs[k].value = RateColumn.fill(range, into: out.value, store: store, books: ledger.books, target: target, booked: booked,
                                                 locked: lockedRates, shares: shares, rates: rates, dayMatters: valuation == .booked || valuation == .market)
            }
            let resolved = needs.map { slot in
                UnsafeSendable((slot.value ?? []).map { rates.resolve($0.from, on: $0.day, fixedDay: fixedDay) })
            }
            each { range, k in
                let ids = out.value, found = resolved[k].value
                for row in range where ids[row] <= RateColumn.waiting { ids[row] = found[Int(ids[row] - Int32.min)] }
            }
        }
        self.target = target
        self.valuation = valuation
        self.asOf = fixedDay
        self.agePolicy = agePolicy
        self.ids = StoreColumn(ids)
        (self.rates, self.missingPairs, self.recipes) = rates.finished()
    }

    /// A column whose rows' ids were worked out before (a store image): its rates made again by
    /// replaying `recipes` against `resolver`. `ids` must hold only ids those recipes make.
    init(ids: StoreColumn<Int32>, rates: RateTable, target: Currency, valuation: Valuation, asOf: Day?, agePolicy: RateAgePolicy) {
        self.target = target
        self.valuation = valuation
        self.asOf = asOf
        self.agePolicy = agePolicy
        self.ids = ids
        (self.rates, self.missingPairs, self.recipes) = rates.finished()
    }

    /// The locked rate of book `i` into `target` (step 2).
    static func lockedRate(_ b: Book, _ rate: ExactDecimal, book i: Int, target: Currency) -> ResolvedRate {
        ResolvedRate(pair: CurrencyPair(b.currency, target), rate: Rate(rate), origin: .locked(book: i))
    }

    /// The booked rate of the split part at `row` (docs/conversion.md, splits).
    /// A part's rate: one for all the parts of an entry (its entry's number, not the part's
    /// row, tells it from others), so that a least or greatest adds up an entry's parts in
    /// one group at one rate (`RowPick.merged`).
    static func shareRate(_ share: BookedShare, from: Currency, row: Int, target: Currency, store: EntryStore) -> ResolvedRate {
        ResolvedRate(pair: CurrencyPair(from, target), rate: share.rate, origin: .bookedShare(entry: Int(store.entryID[row])))
    }

    /// The one day every entry's rate is taken as of: the valuation date of `at DATE`, today
    /// under `at latest` (a rate dated later has not happened yet, which matters when --today
    /// replays an earlier day; without a today, the newest there is); nil when each entry's
    /// own date counts.
    static func fixedDay(_ valuation: Valuation, today: Day?) -> Day? {
        switch valuation {
        case .booked, .market: return nil
        case .latest: return today
        case .asOf(let d): return d
        }
    }

    /// From how many rows two threads fill a column.
    static let parallelRows = 100_000

    /// A row whose custom or market rate is not resolved yet: `waiting - k` waits for need k
    /// (far below the missing-pair codes, which count down from `missingBase`).
    static let waiting = Int32.min + Int32(1 << 30)

    /// Steps 2 to 4 for the rows of `range`: the rows that need a custom or market rate are
    /// marked `Int32.min + k` for the k-th (day, currency) returned, a pair noted once per day.
    private static func fill(_ range: Range<Int>, into ids: UnsafeMutableBufferPointer<Int32>, store: EntryStore, books: [Book],
                             target: Currency, booked: Bool, locked: [Int32], shares: [Int: BookedShare], rates: RateTable,
                             dayMatters: Bool) -> [(day: Int32, from: Currency)] {
        // The needs of the current day (every day alike when the valuation fixes the date): a
        // few currencies, searched linearly.
        var needs: [(day: Int32, from: Currency)] = []
        var cacheDay = Int32.min
        var dayNeeds: [(currency: Currency, need: Int32)] = []
        // The columns taken out of the store once, not at every row.
        let currency = store.currency, bookedIndex = store.bookedIndex, book = store.book, days = store.day
        let normalizedCurrency = store.booked.normalizedCurrency, normalizedScale = store.booked.normalizedScale
        let conversionRateScale = store.booked.conversionRateScale
        let bookCurrency = books.map(\.currency)
        for row in range {
            let from = currency[row]
            if from == target { continue }
            if booked {
                // A split part at its entry's booked rate (docs/conversion.md, splits).
                if !shares.isEmpty, let share = shares[row], share.currency == target {
                    ids[row] = rates.internShared(RateColumn.shareRate(share, from: from, row: row, target: target, store: store), recipe: RateRecipe(.share, row))
                    continue
                }
                let b = Int(bookedIndex[row])
                if b >= 0 && normalizedCurrency[b] == target {
                    if normalizedScale[b] >= 0 { ids[row] = RateColumn.normalized; continue }
                    if conversionRateScale[b] >= 0 { ids[row] = RateColumn.conversionRate; continue }
                }
                let k = Int(book[row])
                let l = locked[k]
                if l >= 0 && bookCurrency[k] == from { ids[row] = l; continue }
            }
            let day = days[row]
            if dayMatters && day != cacheDay {
                dayNeeds.removeAll(keepingCapacity: true)
                cacheDay = day
            }
            var need: Int32?
            for entry in dayNeeds where entry.currency == from { need = entry.need; break }
            if need == nil {
                need = Int32.min + Int32(needs.count)
                needs.append((day, from))
                dayNeeds.append((from, need ?? 0))
            }
            ids[row] = need ?? RateColumn.same
        }
        return needs
    }
}

/// The rates of a column being built: each resolution (custom, then market:
/// docs/conversion.md#rules) and each new rate happen under one lock (the column resolves
/// on one thread, but a table may be shared).
final class RateTable: @unchecked Sendable {
    private let resolver: RateResolver
    private let target: Currency
    private let valuation: Valuation
    private let today: Day?
    private let lock = Mutex<Void>(())
    private var rates: [ColumnRate] = []
    private var rateIDs: [RateIdentity: Int32] = [:]
    private var missingPairs: [CurrencyPair] = []
    private var missingIDs: [Currency: Int32] = [:]
    /// What made each rate and missing pair, in the order they were made.
    private(set) var recipes: [RateRecipe] = []
    /// Market rates older than this many days on the day they are used for get an id per day.
    private let noticeAfter: Int

    init(resolver: RateResolver, target: Currency, valuation: Valuation, today: Day?, noticeAfter: Int = RateAgePolicy.staleAfterDays) {
        self.resolver = resolver
        self.target = target
        self.valuation = valuation
        self.today = today
        self.noticeAfter = noticeAfter
    }

    func finished() -> ([ColumnRate], [CurrencyPair], [RateRecipe]) { (rates, missingPairs, recipes) }

    /// `intern` from a thread filling the column.
    func internShared(_ r: ResolvedRate, recipe: RateRecipe) -> Int32 {
        lock.withLock { _ in intern(r, recipe: recipe) }
    }

    func intern(_ r: ResolvedRate, stale: StaleRate? = nil, age: RateAge? = nil, recipe: RateRecipe) -> Int32 {
        let key = RateIdentity(r, agedOn: age?.usedOn)
        if let id = rateIDs[key] { return id }
        guard let rate = ColumnRate(r, stale: stale, age: age) else { return RateColumn.unusable }
        let id = Int32(rates.count)
        rates.append(rate)
        rateIDs[key] = id
        recipes.append(recipe)
        return id
    }

    /// Step 2's locked rates (booked valuation only): per book, the id of its locked rate when
    /// it locks its own currency into the target, else -1.
    func lockedRates(_ books: [Book]) -> [Int32] {
        var locked = [Int32](repeating: -1, count: books.count)
        guard valuation == .booked else { return locked }
        for (i, b) in books.enumerated() {
            guard let l = b.lockedRate(into: target) else { continue }
            locked[i] = intern(RateColumn.lockedRate(b, l, book: i, target: target), recipe: RateRecipe(.locked, i))
        }
        return locked
    }

    private func missing(_ from: Currency, recipe: RateRecipe) -> Int32 {
        if let id = missingIDs[from] { return id }
        let id = RateColumn.missingBase - Int32(missingPairs.count)
        missingPairs.append(CurrencyPair(from, target))
        missingIDs[from] = id
        recipes.append(recipe.missing)
        return id
    }

    /// Steps 3 and 4 for rows in `from` on `day` (or on `fixedDay`, when the valuation fixes one).
    func resolve(_ from: Currency, on day: Int32, fixedDay: Day?) -> Int32 {
        resolve(CurrencyPair(from, target), on: fixedDay ?? Day(number: day), recipe: RateRecipe(.resolve, Int(day), from: from))
    }

    /// Step 3 then 4 for a pair as of a day: custom, then market.
    func resolve(_ pair: CurrencyPair, on day: Day, recipe: RateRecipe) -> Int32 {
        lock.withLock { _ in
            let asOf = valuation == .latest ? today : day
            guard let r = resolver.resolve(pair, on: asOf) else { return missing(pair.from, recipe: recipe) }
            var stale: StaleRate?
            var age: RateAge?
            if case .market(let q) = r.origin {
                if valuation == .latest, let today, q.oldestDay < today {
                    stale = StaleRate(pair: pair, day: q.oldestDay, fetched: resolver.fetchDay(q), today: today)
                }
                // Under `at latest` without a today, rates are the newest there are: no date to age them on.
                if let asOf {
                    let a = RateAge(q, usedOn: asOf)
                    if a.ageInDays > noticeAfter { age = a }
                }
            }
            return intern(r, stale: stale, age: age, recipe: recipe)
        }
    }
}

extension Book {
    /// The rate this book locks its own currency into `target` at (step 2 of
    /// docs/conversion.md#rules), if it does.
    public func lockedRate(into target: Currency) -> ExactDecimal? {
        guard let l = lockedExchangeRate, targetCurrency == target, currency != target else { return nil }
        return l
    }
}

/// A value handed to other threads whose safety the caller sees to (disjoint ranges of one buffer).
struct UnsafeSendable<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}

/// Values worked out once and kept by a name (`RateColumnCache.derived`, `RateColumn.derived`).
final class DerivedValues: Sendable {
    private let values = Mutex<[String: any Sendable]>([:])

    /// The value kept for `key`, made by `make` on the first call.
    func value<T: Sendable>(_ key: String, _ make: () -> T) -> T {
        values.withLock { values in
            // Unwrapped before the cast: a missing value cast to an optional `T` would be a nil `T`.
            if let stored = values[key], let known = stored as? T { return known }
            let value = make()
            values[key] = value
            return value
        }
    }
}

/// A session's rate columns, built on first use for each target and valuation and kept
/// until the rates change (the session then starts a new cache); and, beside them, what a
/// query engine works out once from the ledger and those columns (`derived`).
public final class RateColumnCache: @unchecked Sendable {
    public let ledger: Ledger
    public let resolver: RateResolver
    private let kept = DerivedValues()

    /// The value `make` works out from this cache's ledger and rates, made on the first call for
    /// `key` and kept with the columns (a query engine's layouts and orders: each worked out in
    /// well under a statement's time, but not for every statement). `key` names what `make` makes
    /// and everything it depends on besides the ledger and the rates. What depends on a column's
    /// numbering of its rates is kept with that column instead (`RateColumn.derived`).
    public func derived<T: Sendable>(_ key: String, _ make: () -> T) -> T { kept.value(key, make) }
    private struct Key: Hashable {
        var target: Currency
        var valuation: Valuation
        var today: Day?
    }
    private var columns: [Key: RateColumn] = [:]
    private var order: [Key] = []
    /// How old market rates may be; a change drops the columns built under the old policy.
    public var agePolicy = RateAgePolicy() {
        didSet {
            guard agePolicy != oldValue else { return }
            columns.removeAll()
            order.removeAll()
        }
    }
    /// Columns kept at once (each is four bytes a row).
    private let capacity = 8

    public init(ledger: Ledger, resolver: RateResolver) {
        self.ledger = ledger
        self.resolver = resolver
    }

    public func column(_ target: Currency, _ valuation: Valuation, today: Day?) -> RateColumn {
        // Only `at latest` depends on today (its staleness).
        let key = Key(target: target, valuation: valuation, today: valuation == .latest ? today : nil)
        if let c = columns[key] { return c }
        let c = saved(target, valuation, today: today)
            ?? RateColumn(ledger: ledger, resolver: resolver, target: target, valuation: valuation, today: today, agePolicy: agePolicy)
        if order.count == capacity { columns[order.removeFirst()] = nil }
        columns[key] = c
        order.append(key)
        return c
    }
}
