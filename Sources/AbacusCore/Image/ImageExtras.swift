// The image's part for what a ledger holds beyond entries and rates: accounts' opening
// balances, budget rules, the category tree, splits, assets, liabilities, holdings and
// prices (docs/ledger-format.md), and the loader's notes. Written after everything else of
// the directory, field by field, and read back with the same checks the loader makes: a warm start answers
// `budget`, `balance`, `networth` and `holdings` as a cold one does.

extension StoreImage {
    static func encodeExtras(_ l: Ledger, into w: inout ByteWriter) {
        for b in l.books { w.optionalDecimal(b.openingBalance); w.u8(b.includeInNetWorth ? 1 : 0) }
        for b in l.budgets {
            w.optionalString(b.bookID)
            w.u64(UInt64(b.alerts.count)); b.alerts.forEach { w.decimal($0) }
            w.u8(b.carryOver ? 1 : 0); w.day(b.startMonth)
        }
        w.u64(UInt64(l.categoryLinks.count))
        for c in l.categoryLinks { w.string(c.name); w.optionalString(c.parent) }
        w.u64(UInt64(l.splits.rows.count))
        for (row, parts) in zip(l.splits.rows, l.splits.parts) {
            w.u64(UInt64(row)); w.u64(UInt64(parts.count))
            for p in parts { w.decimal(p.amount); w.string(p.category); w.optionalString(p.memo) }
        }
        w.u64(UInt64(l.assets.count))
        for a in l.assets {
            w.string(a.id); w.string(a.name); w.u8(a.tangible ? 1 : 0); w.decimal(a.value); w.currency(a.currency); w.day(a.day)
            w.u8(a.volatile ? 1 : 0); w.u8(a.includeInCore ? 1 : 0)
        }
        w.u64(UInt64(l.liabilities.count))
        for x in l.liabilities {
            w.string(x.id); w.string(x.name); w.optionalString(x.type); w.decimal(x.balance); w.currency(x.currency); w.day(x.day)
            w.optionalDecimal(x.interestRate); w.day(x.dueDate)
        }
        w.u64(UInt64(l.holdings.count))
        for h in l.holdings {
            w.string(h.id); w.optionalString(h.account); w.string(h.symbol); w.decimal(h.quantity); w.decimal(h.costPerUnit)
            w.decimal(h.fee); w.currency(h.currency); w.day(h.day)
        }
        w.u64(UInt64(l.prices.count))
        for p in l.prices { w.string(p.symbol); w.day(p.day); w.decimal(p.price); w.currency(p.currency); w.optionalString(p.source) }
        // The loader's notes (two files' default currencies), said again on every start.
        w.u64(UInt64(l.notes.count))
        l.notes.forEach { w.string($0) }
    }

    static func decodeExtras(_ r: inout ByteReader, into l: inout Ledger, rows: Int, amountScale: Int) throws(ImageProblem) {
        func dated(_ d: Day?) throws(ImageProblem) -> Day {
            guard let d else { throw ImageProblem("a record without its date: damaged") }
            return d
        }
        for i in l.books.indices {
            l.books[i].openingBalance = try r.optionalDecimal()
            l.books[i].includeInNetWorth = try r.flag()
        }
        for i in l.budgets.indices {
            l.budgets[i].bookID = try r.optionalString()
            var alerts: [ExactDecimal] = []
            for _ in 0..<(try r.count(max: 1 << 16)) { alerts.append(try r.decimal()) }
            l.budgets[i].alerts = alerts
            l.budgets[i].carryOver = try r.flag()
            l.budgets[i].startMonth = try r.day()
        }
        for _ in 0..<(try r.count(max: Int.max)) { l.categoryLinks.append(CategoryLink(name: try r.string(), parent: try r.optionalString())) }
        var splits = SplitTable()
        for _ in 0..<(try r.count(max: Int.max)) {
            let row = try r.i64()
            guard row >= 0, row < rows, splits.rows.last.map({ Int($0) < row }) ?? true else { throw ImageProblem("a split entry's row is out of order: damaged") }
            var parts: [SplitPart] = []
            for _ in 0..<(try r.count(max: Int.max)) {
                let part = SplitPart(amount: try r.decimal(), category: try r.string(), memo: try r.optionalString())
                guard part.amount.scale == amountScale else { throw ImageProblem("a split's amount is not at the store's scale: damaged") }
                parts.append(part)
            }
            splits.rows.append(UInt32(row))
            splits.parts.append(parts)
        }
        l.splits = splits
        for _ in 0..<(try r.count(max: Int.max)) {
            l.assets.append(AssetRecord(id: try r.string(), name: try r.string(), tangible: try r.flag(), value: try r.decimal(), currency: try r.currency(),
                                        day: try dated(try r.day()), volatile: try r.flag(), includeInCore: try r.flag()))
        }
        for _ in 0..<(try r.count(max: Int.max)) {
            l.liabilities.append(LiabilityRecord(id: try r.string(), name: try r.string(), type: try r.optionalString(), balance: try r.decimal(),
                                                 currency: try r.currency(), day: try dated(try r.day()), interestRate: try r.optionalDecimal(),
                                                 dueDate: try r.day()))
        }
        for _ in 0..<(try r.count(max: Int.max)) {
            l.holdings.append(HoldingLot(id: try r.string(), account: try r.optionalString(), symbol: try r.string(), quantity: try r.decimal(),
                                         costPerUnit: try r.decimal(), fee: try r.decimal(), currency: try r.currency(), day: try dated(try r.day())))
        }
        for _ in 0..<(try r.count(max: Int.max)) {
            l.prices.append(PriceRecord(symbol: try r.string(), day: try dated(try r.day()), price: try r.decimal(), currency: try r.currency(),
                                        source: try r.optionalString()))
        }
        for _ in 0..<(try r.count(max: 1 << 16)) { l.notes.append(try r.string()) }
    }
}
