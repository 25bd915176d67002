// What `convert`, `rate` and `rates` share: the single rate of a pair under a
// valuation (what-if, then custom, then market), the date of its source, the book
// locks that apply to the pair, and the warnings a single rate can carry.

import AbacusCore

extension Rate {
    /// The rate in a result: its decimal, or its scientific text where no decimal here holds it.
    var cell: Cell {
        switch shown {
        case .decimal(let d): return .number(d)
        case .scientific(let text): return .text(text)
        }
    }
}

extension Session {
    /// The day a valuation takes its rates as of: today, or the valuation's date.
    func valuationDay(_ valuation: ValuationClause?) throws(QueryError) -> Day {
        if case .asOf(let d)? = valuation { return try d.resolve(today: today).last }
        return today
    }

    /// The single rate for a pair under a valuation, and the day it was taken as of.
    func resolve(_ pair: CurrencyPair, _ valuation: ValuationClause?, _ whatIf: [WhatIfRate]) throws(QueryError) -> (rate: ResolvedRate, day: Day) {
        let day = try valuationDay(valuation)
        for w in whatIf {
            if w.pair == pair { return (ResolvedRate(pair: pair, rate: Rate(w.rate), origin: .whatIf(pair)), day) }
            if w.pair == pair.inverse { return (ResolvedRate(pair: pair, rate: Rate(w.rate).inverse, origin: .whatIf(pair)), day) }
        }
        guard let r = resolver.resolve(pair, on: day) else { throw QueryError(.noRate(pair), at: nil) }
        try refuseTooOld(r, on: day)
        return (r, day)
    }

    /// A market rate older than the session's maximum rate age (`set max rate age`) fails the
    /// statement that would use it, as a missing one does (docs/conversion.md#rate-age).
    func refuseTooOld(_ r: ResolvedRate, on day: Day) throws(QueryError) {
        guard let limit = maxRateAge, case .market(let q) = r.origin else { return }
        let old = RateAge(q, usedOn: day).legs(olderThan: limit)
        if !old.isEmpty { throw QueryError(.rateTooOld(r.pair, legs: old, usedOn: day, maxAgeDays: limit), at: nil) }
    }

    /// The date of a rate's source (empty for a what-if or an undated custom rate).
    func sourceDate(_ r: ResolvedRate) -> Cell {
        switch r.origin {
        case .market(let q): return .date(q.newestDay)
        case .custom(let c): return c.day.map(Cell.date) ?? .empty
        case .locked(let b): return ledger.books[b].rateLockedAt.map(Cell.date) ?? .empty
        case .whatIf, .bookedShare: return .empty
        }
    }

    /// Books whose locked rate converts `pair` for their own entries under the default
    /// valuation: what `rate` and `convert` mention beside the rate they give. A lock converts
    /// only the book's currency into its target, never back.
    func lockedRates(_ pair: CurrencyPair) -> [ResolvedRate] {
        ledger.books.indices.compactMap { i in
            let b = ledger.books[i]
            guard let l = b.lockedExchangeRate, b.currency == pair.from, b.targetCurrency == pair.to else { return nil }
            return ResolvedRate(pair: pair, rate: Rate(l), origin: .locked(book: i))
        }
    }

    /// What-if rates of `convert` or `rate` for another pair than the one asked for.
    func unusedWhatIfs(_ whatIf: [WhatIfRate], _ pair: CurrencyPair) -> [String] {
        whatIf.filter { $0.pair != pair && $0.pair != pair.inverse }.map { "the what-if rate \($0.pair) was not used: this statement is about \(pair)" }
    }

    /// A market rate dated after the day asked for is the oldest there is; under `at latest`
    /// a newest rate dated before today is stale; otherwise a rate (or a chain's leg) more than
    /// a week older than the day is (docs/conversion.md#rate-age): say so, of each leg of a
    /// chain (one leg late does not hide the other's age).
    func staleness(_ r: ResolvedRate, _ valuation: ValuationClause?, _ day: Day) -> [String] {
        guard case .market(let q) = r.origin else { return [] }
        // Of a chain, the leg that had no rate by then, and its own date.
        var out = q.legs.filter(\.isAfterRequestedDay).map { late in
            "no market rate for \(r.pair)\(q.legs.count > 1 ? " (its leg \(late.pair))" : "") on or before \(day); used the oldest, dated \(late.day)"
        }
        if valuation == .latest {
            if let oldest = q.legs.filter({ !$0.isAfterRequestedDay }).map(\.day).min(), oldest < today {
                out.append(StaleRate(pair: r.pair, day: oldest, fetched: resolver.fetchDay(q), today: today).warning)
            }
            return out
        }
        // A leg dated after the day is 0 days old: only the others can be stale.
        let old = RateAge(q, usedOn: day).legs(olderThan: RateAgePolicy.staleAfterDays)
        if !old.isEmpty {
            out.append("the market rate for \(r.pair) on \(day) is more than \(AgedRateUse.days(RateAgePolicy.staleAfterDays)) old: "
                       + old.map { ($0.pair == r.pair ? "" : "leg \($0.pair) ") + "dated \($0.day), \(AgedRateUse.days($0.ageInDays)) old" }.joined(separator: ", "))
        }
        return out
    }
}
