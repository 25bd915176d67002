// The rates of a statement whose entries live elsewhere (a database server,
// docs/postgres.md): the same rules as `RateColumn` (docs/conversion.md#rules), worked
// out by the same `RateTable` and resolver, but for the currencies and days the
// statement's entries need, as the server reports them, instead of for every row of a
// store. The server then multiplies each entry's amount by its rate's numerator and sums
// per denominator; the caller divides each partial sum once, exactly.
//
// It is a `ConversionRates`, so a `ConversionTally` filled from the server's counts gives
// the same provenance, warnings and errors as a scan of the store.

public struct RateCalendar: ConversionRates, Sendable {
    public let target: Currency
    public let valuation: Valuation
    public let asOf: Day?
    public let agePolicy: RateAgePolicy
    /// The custom, market and locked rates, then the statement's what-if rates.
    public let rates: [ColumnRate]
    public let missingPairs: [CurrencyPair]
    public let whatIfUse: [(given: CurrencyPair, id: Int32?)]
    /// Step 1: the what-if rate that converts every entry in a currency, whatever else applies.
    public let whatIf: [(from: Currency, id: Int32)]
    /// Step 2 (booked valuation only): per book, in the ledger's order, the id of its locked
    /// rate when it locks its own currency into the target, else -1.
    public let locked: [Int32]
    /// Per need, in the order given: the id of the custom or market rate (steps 3 and 4) for
    /// that currency on that day, or `RateColumn.missingBase - k` for `missingPairs[k]`, or
    /// `RateColumn.unusable`.
    public let ids: [Int32]

    /// The rates for `needs`: currencies (never the target) on days, each once.
    public init(ledger: Ledger, resolver: RateResolver, target: Currency, valuation: Valuation, today: Day?,
                agePolicy: RateAgePolicy, whatIf: [CurrencyPair: ExactDecimal], needs: [(currency: Currency, day: Day)]) {
        let fixedDay = RateColumn.fixedDay(valuation, today: today)
        let table = RateTable(resolver: resolver, target: target, valuation: valuation, today: today, noticeAfter: agePolicy.noticedAfterDays)
        locked = table.lockedRates(ledger.books)
        // Under a fixed day every entry of a currency shares one rate: resolved once.
        var byCurrency: [Currency: Int32] = [:]
        ids = needs.map { need in
            guard fixedDay != nil else { return table.resolve(need.currency, on: need.day.number, fixedDay: nil) }
            if let id = byCurrency[need.currency] { return id }
            let id = table.resolve(need.currency, on: need.day.number, fixedDay: fixedDay)
            byCurrency[need.currency] = id
            return id
        }
        let (base, missing, _) = table.finished()
        let overlay = WhatIfOverlay(base, target: target, whatIf: whatIf)
        self.target = target
        self.valuation = valuation
        self.asOf = fixedDay
        self.agePolicy = agePolicy
        self.rates = overlay.rates
        self.missingPairs = missing
        self.whatIfUse = overlay.uses
        self.whatIf = overlay.byCurrency
    }
}
