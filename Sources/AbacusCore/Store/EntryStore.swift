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
    public internal(set) var party: StoreColumn<UInt32> = []
    public internal(set) var payment: StoreColumn<UInt32> = []
    public internal(set) var remarks: StoreColumn<UInt32> = []
    public internal(set) var isTransfer: StoreColumn<Bool> = []
    public internal(set) var entryID: StoreColumn<UInt32> = []
    /// Tags of row r: `tagCodes[tagStart[r]..<tagStart[r+1]]`.
    public internal(set) var tagStart: StoreColumn<UInt32> = [0]
    public internal(set) var tagCodes: StoreColumn<UInt32> = []
    /// Index into the booked side columns, or -1 when the entry has no pre-converted fields.
    public internal(set) var bookedIndex: StoreColumn<Int32> = []

    // Sparse side columns of the pre-converted fields.
    public internal(set) var booked = BookedColumns()

    // Dictionaries.
    public internal(set) var categories: [String] = []
    /// `parties[0]`, `payments[0]` and `remarkTexts[0]` stand for "none".
    public internal(set) var parties: [String] = [""]
    public internal(set) var payments: [String] = [""]
    public internal(set) var tags: [String] = []
    public internal(set) var remarkTexts: [String] = [""]
    public internal(set) var ids = IDColumn()

    // Indexes.
    public internal(set) var byCategory = PostingIndex()
    public internal(set) var byBook = PostingIndex()
    public internal(set) var byCurrency = PostingIndex()
    /// Distinct currencies of the entries, ascending.
    public internal(set) var currencies: [Currency] = []

    public init() {}

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
