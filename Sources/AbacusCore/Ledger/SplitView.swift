// The split view of a ledger: the same entries, except that each split entry is
// replaced by one row per part, with the part's amount and category and every other
// field of its entry (docs/ledger-format.md#splits). Statements that group or test by
// category read this view; every other statement reads the ledger itself, where a split
// entry is one row. A ledger without splits has no view: it is its own.
//
// Conversion of a part (docs/conversion.md#splits): an entry's booked conversionRate, its
// book's locked rate, custom and market rates convert the part's amount like any amount.
// A booked normalizedAmount N of an entry of amount A becomes the rate N ÷ A, kept as an
// exact fraction (`BookedShare`), so the parts of one entry add up to exactly N.

/// A part's booked rate into `currency`: its entry's normalizedAmount ÷ amount.
public struct BookedShare: Sendable, Equatable {
    public var currency: Currency
    public var rate: Rate
}

extension Ledger {
    /// The ledger with split entries as one row per part (itself when nothing is split).
    public func splitView() -> Ledger {
        guard !splits.isEmpty else { return self }
        let s = entries
        var codeOf: [String: UInt32] = [:]
        for (i, c) in s.categories.enumerated() { codeOf[c] = UInt32(i) }
        // Parts are held at the store's scale (the loader rescaled them).
        let scale = s.amountScale

        var out = EntryStore()
        out.amountScale = scale
        out.categories = s.categories
        out.parties = s.parties
        out.payments = s.payments
        out.tags = s.tags
        out.remarkTexts = s.remarkTexts
        out.ids = s.ids
        out.booked = s.booked
        var shares: [Int: BookedShare] = [:]
        // The view's columns, built as arrays and then kept as the store's columns.
        var day: [Int32] = [], amount: [Int128] = [], currency: [Currency] = [], book: [UInt32] = [], category: [UInt32] = []
        var party: [UInt32] = [], payment: [UInt32] = [], remarks: [UInt32] = [], isTransfer: [Bool] = [], entryID: [UInt32] = []
        var bookedIndexes: [Int32] = [], tagCodes: [UInt32] = [], tagStart: [UInt32] = [0], entrySign: [Int8] = []
        let n = s.count + splits.parts.reduce(0) { $0 + $1.count - 1 }
        day.reserveCapacity(n); amount.reserveCapacity(n); category.reserveCapacity(n)
        var next = 0
        func copy(_ r: Int, amount a: Int128, category c: UInt32, bookedIndex: Int32) {
            day.append(s.day[r]); amount.append(a); currency.append(s.currency[r]); book.append(s.book[r])
            category.append(c); party.append(s.party[r]); payment.append(s.payment[r]); remarks.append(s.remarks[r])
            isTransfer.append(s.isTransfer[r]); entryID.append(s.entryID[r]); bookedIndexes.append(bookedIndex)
            entrySign.append(Int8(s.amount[r].signum()))
            tagCodes.append(contentsOf: s.tags(at: r)); tagStart.append(UInt32(tagCodes.count))
        }
        for r in 0..<s.count {
            guard next < splits.rows.count, Int(splits.rows[next]) == r else {
                copy(r, amount: s.amount[r], category: s.category[r], bookedIndex: s.bookedIndex[r])
                continue
            }
            let parts = splits.parts[next]
            next += 1
            // A normalizedAmount becomes a share rate; the part keeps the entry's other booked fields.
            var bookedIndex = s.bookedIndex[r]
            var share: BookedShare?
            if bookedIndex >= 0, let normalized = s.booked.normalizedAmount(Int(bookedIndex)), !s.amount(at: r).isZero {
                share = BookedShare(currency: s.booked.normalizedCurrency[Int(bookedIndex)],
                                    rate: Rate(numerator: normalized.magnitude, denominator: s.amount(at: r).magnitude))
                out.booked.append(amount: nil, currency: s.booked.normalizedCurrency[Int(bookedIndex)], rate: s.booked.conversionRate(Int(bookedIndex)))
                bookedIndex = Int32(out.booked.count - 1)
            }
            for p in parts {
                if let share { shares[day.count] = share }
                copy(r, amount: p.amount.significand, category: codeOf[p.category] ?? s.category[r], bookedIndex: bookedIndex)
            }
        }
        out.day = StoreColumn(day); out.amount = StoreColumn(amount); out.currency = StoreColumn(currency); out.book = StoreColumn(book)
        out.category = StoreColumn(category); out.party = StoreColumn(party); out.payment = StoreColumn(payment)
        out.remarks = StoreColumn(remarks); out.isTransfer = StoreColumn(isTransfer); out.entryID = StoreColumn(entryID)
        out.bookedIndex = StoreColumn(bookedIndexes); out.tagCodes = StoreColumn(tagCodes); out.tagStart = StoreColumn(tagStart)
        out.entrySign = StoreColumn(entrySign)
        out.setCount(out.day.count)
        out.booked.noteScales()
        out.byCategory = PostingIndex(codes: out.category, codeCount: out.categories.count)
        out.byBook = PostingIndex(codes: out.book, codeCount: books.count)
        out.byCurrency = PostingIndex(codes: out.currency.map { UInt32($0.packed) }, codeCount: 26 * 26 * 26 + 1)
        out.currencies = s.currencies
        var view = self
        view.entries = out
        view.splits = SplitTable()
        view.bookedShares = shares
        view.isSplitView = true
        return view
    }
}
