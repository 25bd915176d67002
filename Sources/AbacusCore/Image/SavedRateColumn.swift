// The rate column of a ledger's default currency, kept in its store image
// (docs/architecture.md, "The store image").
//
// The first converted answer of a session is nearly always in the ledger's own
// currency at booked rates, and working out which rate converts each of a million
// rows is a pass over five columns. The image keeps that column's row ids, and how
// each of its rates was made (`RateRecipe`: a book's locked rate, a split part's
// booked rate, or the custom-then-market rate of a currency on a day). A warm
// start makes the rates again by replaying the recipes, in their order, against
// the session's own resolver, and takes the row ids as they are.
//
// The saved column is used only where it provably equals the one that would be
// built: it hangs on the `Ledger` it was built for and is dropped by any change
// to what the column depends on (entries, books, the default currency, every
// kind of rate, splits: `Ledger`'s observers), and `RateColumnCache` takes it only
// for the same target and valuation (booked, which no `today` affects), the
// default age policy and a resolver over that very ledger with no session rates.
// A replay that does not make exactly the recorded rates, in order, is refused and
// the column built as usual.

/// What made one rate or missing pair of a rate column.
struct RateRecipe: Sendable, Equatable {
    enum Kind: UInt8 {
        /// The locked rate of book `value`.
        case locked = 0
        /// The booked rate of the split part at row `value`.
        case share = 1
        /// Custom, then market, for `from` on day `value`.
        case resolve = 2
    }
    var kind: Kind
    var value: Int
    var from: Currency = .none
    /// The recipe made a missing pair, not a rate.
    var madeMissing = false

    init(_ kind: Kind, _ value: Int, from: Currency = .none) {
        self.kind = kind
        self.value = value
        self.from = from
    }

    var missing: RateRecipe {
        var r = self
        r.madeMissing = true
        return r
    }
}

/// A rate column saved in a store image, for `target` at booked rates.
public final class SavedRateColumn: Sendable {
    let target: Currency
    let ids: StoreColumn<Int32>
    let recipes: [RateRecipe]

    init(target: Currency, ids: StoreColumn<Int32>, recipes: [RateRecipe]) {
        self.target = target
        self.ids = ids
        self.recipes = recipes
    }

    /// The valuation a saved column is for.
    static let valuation = Valuation.booked

    /// The column a store image keeps for `ledger`: its default currency, booked, built with
    /// the ledger's own rates and the default age policy.
    static func building(_ ledger: Ledger) -> SavedRateColumn {
        let c = RateColumn(ledger: ledger, resolver: RateResolver(ledger: ledger), target: ledger.defaultCurrency,
                           valuation: valuation, today: nil, agePolicy: RateAgePolicy())
        return SavedRateColumn(target: c.target, ids: c.ids, recipes: c.recipes)
    }

    /// How many rates and missing pairs the recipes make: the ids a row may hold lie in
    /// `missingBase - missing + 1 ..< rates` (the codes -1 to -4 between them).
    var counts: (rates: Int, missing: Int) {
        let missing = recipes.filter(\.madeMissing).count
        return (recipes.count - missing, missing)
    }
}

extension RateColumnCache {
    /// The ledger's saved column for `target` and `valuation`, when it provably equals the one
    /// `RateColumn(ledger:resolver:…)` would build here; nil otherwise.
    func saved(_ target: Currency, _ valuation: Valuation, today: Day?) -> RateColumn? {
        guard valuation == SavedRateColumn.valuation, agePolicy == RateAgePolicy(), resolver.session.rates.isEmpty,
              let saved = ledger.savedRateColumn, saved === resolver.ledger.savedRateColumn, saved.target == target,
              saved.ids.count == ledger.entries.count else { return nil }
        let rates = RateTable(resolver: resolver, target: target, valuation: valuation, today: today, noticeAfter: agePolicy.noticedAfterDays)
        let books = ledger.books, shares = ledger.bookedShares, store = ledger.entries
        for (i, r) in saved.recipes.enumerated() {
            switch r.kind {
            case .locked:
                guard r.value >= 0, r.value < books.count, let l = books[r.value].lockedExchangeRate, books[r.value].targetCurrency == target,
                      books[r.value].currency != target else { return nil }
                _ = rates.intern(RateColumn.lockedRate(books[r.value], l, book: r.value, target: target), recipe: r)
            case .share:
                guard r.value >= 0, r.value < store.count, let share = shares[r.value], share.currency == target else { return nil }
                _ = rates.intern(RateColumn.shareRate(share, from: store.currency[r.value], row: r.value, target: target, store: store), recipe: r)
            case .resolve:
                guard let day = Int32(exactly: r.value), StoreImage.days.contains(day), r.from.isISO, r.from != target else { return nil }
                _ = rates.resolve(r.from, on: day, fixedDay: nil)
            }
            // Each recipe must make what it made when the column was built, in the same order.
            guard rates.recipes.count == i + 1, rates.recipes[i] == r else { return nil }
        }
        return RateColumn(ids: saved.ids, rates: rates, target: target, valuation: valuation, asOf: nil, agePolicy: agePolicy)
    }
}
