// The columnar entry store and its indexes.
//
// Entries are kept column by column, sorted by day (stable, so entries of one day
// stay in file order). Because of that order the date column is its own index:
// a date range is two binary searches. Category, book and currency have posting
// lists (row numbers in ascending order, grouped by code). Strings are dictionary
// encoded; amounts are 128-bit integers at one common scale, so a sum is an
// integer addition. The pre-converted fields most entries lack live in sparse
// side columns.

public struct EntryStore: Sendable {
    public private(set) var count: Int = 0

    // Dense columns, one element per row.
    public internal(set) var day: StoreColumn<Int32> = []
    /// Amount × 10^amountScale.
    public internal(set) var amount: StoreColumn<Int128> = []
    public internal(set) var amountScale: Int = 0
    public internal(set) var currency: StoreColumn<Currency> = []
    public internal(set) var book: StoreColumn<UInt32> = []
    public internal(set) var category: StoreColumn<UInt32> = []
    /// Code 0 is "no party"; code c > 0 is `parties[c]`.
    public internal(set) var party: StoreColumn<UInt32> {
        get { lateFields.contains(.party) ? lateSections.unsafelyUnwrapped.store(for: .party).pointee._party : _party }
        _modify {
            adopt(.party)
            yield &_party
        }
    }
    public internal(set) var payment: StoreColumn<UInt32> {
        get { lateFields.contains(.payment) ? lateSections.unsafelyUnwrapped.store(for: .payment).pointee._payment : _payment }
        _modify {
            adopt(.payment)
            yield &_payment
        }
    }
    public internal(set) var remarks: StoreColumn<UInt32> {
        get { lateFields.contains(.remarks) ? lateSections.unsafelyUnwrapped.store(for: .remarks).pointee._remarks : _remarks }
        _modify {
            adopt(.remarks)
            yield &_remarks
        }
    }
    public internal(set) var isTransfer: StoreColumn<Bool> = []
    /// In a split view, each row's entry's amount sign (−1, 0, 1): a part is an expense or an
    /// income by its entry's amount, not its own (docs/ledger-format.md#splits). Empty elsewhere.
    public internal(set) var entrySign: StoreColumn<Int8> = []

    /// Whether row r's entry is an expense (< 0) or an income (> 0) by its sign: its own amount,
    /// or in a split view its entry's.
    @inline(__always) public func entrySign(at r: Int) -> Int {
        entrySign.isEmpty ? Int(amount[r].signum()) : Int(entrySign[r])
    }
    public internal(set) var entryID: StoreColumn<UInt32> {
        get { lateFields.contains(.entryID) ? lateSections.unsafelyUnwrapped.store(for: .entryID).pointee._entryID : _entryID }
        _modify {
            adopt(.entryID)
            yield &_entryID
        }
    }
    /// Tags of row r: `tagCodes[tagStart[r]..<tagStart[r+1]]`.
    public internal(set) var tagStart: StoreColumn<UInt32> {
        get { lateFields.contains(.tagStart) ? lateSections.unsafelyUnwrapped.store(for: .tagStart).pointee._tagStart : _tagStart }
        _modify {
            adopt(.tagStart)
            yield &_tagStart
        }
    }
    public internal(set) var tagCodes: StoreColumn<UInt32> {
        get { lateFields.contains(.tagCodes) ? lateSections.unsafelyUnwrapped.store(for: .tagCodes).pointee._tagCodes : _tagCodes }
        _modify {
            adopt(.tagCodes)
            yield &_tagCodes
        }
    }
    /// Index into the booked side columns, or -1 when the entry has no pre-converted fields.
    public internal(set) var bookedIndex: StoreColumn<Int32> = []

    // Sparse side columns of the pre-converted fields.
    public internal(set) var booked = BookedColumns()

    // Dictionaries.
    public internal(set) var categories: [String] = []
    /// `parties[0]`, `payments[0]` and `remarkTexts[0]` stand for "none".
    public internal(set) var parties: [String] {
        get { lateFields.contains(.parties) ? lateSections.unsafelyUnwrapped.store(for: .parties).pointee._parties : _parties }
        _modify {
            adopt(.parties)
            yield &_parties
        }
    }
    public internal(set) var payments: [String] {
        get { lateFields.contains(.payments) ? lateSections.unsafelyUnwrapped.store(for: .payments).pointee._payments : _payments }
        _modify {
            adopt(.payments)
            yield &_payments
        }
    }
    public internal(set) var tags: [String] {
        get { lateFields.contains(.tags) ? lateSections.unsafelyUnwrapped.store(for: .tags).pointee._tags : _tags }
        _modify {
            adopt(.tags)
            yield &_tags
        }
    }
    public internal(set) var remarkTexts: [String] {
        get { lateFields.contains(.remarkTexts) ? lateSections.unsafelyUnwrapped.store(for: .remarkTexts).pointee._remarkTexts : _remarkTexts }
        _modify {
            adopt(.remarkTexts)
            yield &_remarkTexts
        }
    }
    public internal(set) var ids: IDColumn {
        get { lateFields.contains(.ids) ? lateSections.unsafelyUnwrapped.store(for: .ids).pointee._ids : _ids }
        _modify {
            adopt(.ids)
            yield &_ids
        }
    }

    // Indexes.
    public internal(set) var byCategory: PostingIndex {
        get { lateFields.contains(.byCategory) ? lateSections.unsafelyUnwrapped.store(for: .byCategory).pointee._byCategory : _byCategory }
        _modify {
            adopt(.byCategory)
            yield &_byCategory
        }
    }
    public internal(set) var byBook: PostingIndex {
        get { lateFields.contains(.byBook) ? lateSections.unsafelyUnwrapped.store(for: .byBook).pointee._byBook : _byBook }
        _modify {
            adopt(.byBook)
            yield &_byBook
        }
    }
    public internal(set) var byCurrency: PostingIndex {
        get { lateFields.contains(.byCurrency) ? lateSections.unsafelyUnwrapped.store(for: .byCurrency).pointee._byCurrency : _byCurrency }
        _modify {
            adopt(.byCurrency)
            yield &_byCurrency
        }
    }
    /// Distinct currencies of the entries, ascending.
    public internal(set) var currencies: [Currency] = []

    // What the properties above hold. A store opened from its image reads the fields in
    // `lateFields` from `lateSections` instead, which checks their sections when first read
    // (LateSections.swift); setting such a field makes it the store's own again.
    private var _party: StoreColumn<UInt32> = []
    private var _payment: StoreColumn<UInt32> = []
    private var _remarks: StoreColumn<UInt32> = []
    private var _entryID: StoreColumn<UInt32> = []
    private var _tagStart: StoreColumn<UInt32> = [0]
    private var _tagCodes: StoreColumn<UInt32> = []
    private var _parties: [String] = [""]
    private var _payments: [String] = [""]
    private var _tags: [String] = []
    private var _remarkTexts: [String] = [""]
    private var _ids = IDColumn()
    private var _byCategory = PostingIndex()
    private var _byBook = PostingIndex()
    private var _byCurrency = PostingIndex()
    public internal(set) var lateSections: LateSections?
    var lateFields: LateFields = []

    public init() {}

    /// Makes a late field the store's own (checked first), before it is changed in place.
    private mutating func adopt(_ field: LateFields) {
        guard lateFields.contains(field), let late = lateSections else { return }
        let from = late.store(for: field)
        switch field {
        case .party: _party = from.pointee.party
        case .payment: _payment = from.pointee.payment
        case .remarks: _remarks = from.pointee.remarks
        case .entryID: _entryID = from.pointee.entryID
        case .tagStart: _tagStart = from.pointee.tagStart
        case .tagCodes: _tagCodes = from.pointee.tagCodes
        case .parties: _parties = from.pointee.parties
        case .payments: _payments = from.pointee.payments
        case .tags: _tags = from.pointee.tags
        case .remarkTexts: _remarkTexts = from.pointee.remarkTexts
        case .ids: _ids = from.pointee.ids
        case .byCategory: _byCategory = from.pointee.byCategory
        case .byBook: _byBook = from.pointee.byBook
        default: _byCurrency = from.pointee.byCurrency
        }
        lateFields.remove(field)
    }

    mutating func setCount(_ n: Int) { count = n }

    /// First row whose day is on or after `d`.
    public func firstRow(onOrAfter d: Day) -> Int {
        var lo = 0, hi = count
        while lo < hi {
            let mid = (lo + hi) / 2
            if day[mid] < d.number { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    public func amount(at row: Int) -> ExactDecimal {
        ExactDecimal(significand: amount[row], scale: amountScale)
    }

    public func id(at row: Int) -> String { ids.string(entryID[row]) }

    public func tags(at row: Int) -> Slice<StoreColumn<UInt32>> {
        tagCodes[Int(tagStart[row])..<Int(tagStart[row + 1])]
    }
}

/// Pre-converted fields of the entries that have them (docs/ledger-format.md#entries).
public struct BookedColumns: Sendable {
    /// normalizedAmount × 10^scale; `normalizedScale` -1 when absent.
    public internal(set) var normalizedAmount: [Int128] = []
    public internal(set) var normalizedScale: [Int8] = []
    public internal(set) var normalizedCurrency: [Currency] = []
    /// conversionRate × 10^scale; `conversionRateScale` -1 when absent.
    public internal(set) var conversionRate: [Int128] = []
    public internal(set) var conversionRateScale: [Int8] = []

    public var count: Int { normalizedCurrency.count }

    /// The distinct scales of the normalized amounts and of the conversion rates (worked out
    /// once, at load: every converting query lays out an accumulator per product scale).
    public internal(set) var normalizedScales: [Int] = []
    public internal(set) var conversionRateScales: [Int] = []

    mutating func noteScales() {
        normalizedScales = Set(normalizedScale.filter { $0 >= 0 }.map(Int.init)).sorted()
        conversionRateScales = Set(conversionRateScale.filter { $0 >= 0 }.map(Int.init)).sorted()
    }

    public func normalizedAmount(_ i: Int) -> ExactDecimal? {
        normalizedScale[i] < 0 ? nil : ExactDecimal(significand: normalizedAmount[i], scale: Int(normalizedScale[i]))
    }

    public func conversionRate(_ i: Int) -> ExactDecimal? {
        conversionRateScale[i] < 0 ? nil : ExactDecimal(significand: conversionRate[i], scale: Int(conversionRateScale[i]))
    }

    mutating func append(contentsOf other: BookedColumns) {
        normalizedAmount.append(contentsOf: other.normalizedAmount)
        normalizedScale.append(contentsOf: other.normalizedScale)
        normalizedCurrency.append(contentsOf: other.normalizedCurrency)
        conversionRate.append(contentsOf: other.conversionRate)
        conversionRateScale.append(contentsOf: other.conversionRateScale)
    }

    mutating func append(amount: ExactDecimal?, currency: Currency, rate: ExactDecimal?) {
        normalizedAmount.append(amount?.significand ?? 0)
        normalizedScale.append(amount.map { Int8($0.scale) } ?? -1)
        normalizedCurrency.append(currency)
        conversionRate.append(rate?.significand ?? 0)
        conversionRateScale.append(rate.map { Int8($0.scale) } ?? -1)
    }
}

/// Rows grouped by a dictionary code: rows of code c are `rows[starts[c]..<starts[c+1]]`, ascending.
public struct PostingIndex: Sendable {
    public internal(set) var starts: StoreColumn<UInt32> = [0]
    public internal(set) var rows: StoreColumn<UInt32> = []

    public init() {}

    init(starts: StoreColumn<UInt32>, rows: StoreColumn<UInt32>) {
        self.starts = starts
        self.rows = rows
    }

    /// Builds the index of a code column with codes in `0..<codeCount` (counting sort, so rows stay ascending).
    init(codes: some Collection<UInt32>, codeCount: Int) {
        var counts = [UInt32](repeating: 0, count: codeCount + 1)
        for c in codes { counts[Int(c) + 1] += 1 }
        for i in 1..<counts.count { counts[i] += counts[i - 1] }
        starts = StoreColumn(counts)
        var next = counts
        var rows = [UInt32](repeating: 0, count: codes.count)
        for (row, c) in codes.enumerated() {
            rows[Int(next[Int(c)])] = UInt32(row)
            next[Int(c)] += 1
        }
        self.rows = StoreColumn(rows)
    }

    public func rows(for code: Int) -> Slice<StoreColumn<UInt32>> {
        guard code + 1 < starts.count else { return rows[0..<0] }
        return rows[Int(starts[code])..<Int(starts[code + 1])]
    }
}
