// The ledger's domain model, as docs/ledger-format.md names it: books, rate snapshots and pairs,
// custom rates and budgets. Entries do not appear here one by one: they live in
// the columns of `EntryStore`.

public struct Book: Sendable {
    public var id: String
    public var name: String
    public var currency: Currency
    /// 1 `currency` = this many `targetCurrency`.
    public var lockedExchangeRate: ExactDecimal?
    public var targetCurrency: Currency
    public var rateLockedAt: Day?
    public var description: String?
    public var archived: Bool
    /// In the book's currency: the book is an account (a wallet, a bank account) whose
    /// balance `balance` and `networth` report (docs/ledger-format.md#books).
    public var openingBalance: ExactDecimal? = nil
    /// Whether an account's balance counts in `networth`.
    public var includeInNetWorth: Bool = true
}

/// One rate source as a rate API returns it: 1 `base` = `rates[X]` of X.
public struct RateSnapshot: Sendable {
    public var base: Currency
    public var day: Day
    public var rates: [Currency: ExactDecimal]
    public var source: String?
    public var fetchedAt: String?
    /// Position among all market sources of all files, for "later in the file wins".
    public var order: Int
}

/// 1 `from` = `rate` of `to`.
public struct RatePair: Sendable {
    public var from: Currency
    public var to: Currency
    public var rate: ExactDecimal
    /// Optional on custom rates; required on market rates.
    public var day: Day?
    public var source: String?
    public var order: Int
}

public struct Budget: Sendable {
    public var category: String
    /// First day of the month the budget is for; nil for every month.
    public var month: Day?
    public var limitAmount: ExactDecimal
    public var currency: Currency
    /// Only this book's entries count (its id); nil for every book.
    public var bookID: String? = nil
    /// Thresholds in percent, ascending (default 50, 80, 100).
    public var alerts: [ExactDecimal] = Budget.defaultAlerts
    /// A month's limit adds the previous month's remaining (budgets without `month` only).
    public var carryOver: Bool = false
    /// First day of the month carrying over starts from; nil: the ledger's earliest entry's month.
    public var startMonth: Day? = nil

    public static let defaultAlerts: [ExactDecimal] = [ExactDecimal(significand: 50, scale: 0), ExactDecimal(significand: 80, scale: 0),
                                                       ExactDecimal(significand: 100, scale: 0)]
}

/// Everything loaded from one or more ledger files.
public struct Ledger: Sendable {
    public var files: [String]
    // Whatever a rate column depends on drops the saved one when it changes.
    public var defaultCurrency: Currency { didSet { savedRateColumn = nil } }
    public var books: [Book] { didSet { savedRateColumn = nil } }
    public var entries: EntryStore { didSet { savedRateColumn = nil } }
    public var snapshots: [RateSnapshot] { didSet { savedRateColumn = nil } }
    public var pairs: [RatePair] { didSet { savedRateColumn = nil } }
    public var customRates: [RatePair] { didSet { savedRateColumn = nil } }
    public var budgets: [Budget]
    /// Rate files whose market rates were added (`addRates`), in the order they were added.
    public var rateFiles: [String] = []
    /// What loading decided that a person should hear of (printed on stderr).
    public var notes: [String] = []
    /// The category tree: each child and its parent, in file order (docs/ledger-format.md#categories).
    public var categoryLinks: [CategoryLink] = []
    /// Entries split across categories, by row.
    public var splits = SplitTable() { didSet { savedRateColumn = nil } }
    public var assets: [AssetRecord] = []
    public var liabilities: [LiabilityRecord] = []
    public var holdings: [HoldingLot] = []
    public var prices: [PriceRecord] = []
    /// In a split view only: the booked rate of each part whose entry has a normalizedAmount, by row.
    public var bookedShares: [Int: BookedShare] = [:] { didSet { savedRateColumn = nil } }
    /// Whether this is a split view (`splitView()`): rows are parts of entries.
    public var isSplitView = false { didSet { savedRateColumn = nil } }
    /// Nil when `entries` are the ledger's entries. Otherwise the entries live in a database
    /// (docs/postgres.md), this many of them, and `entries` holds a few: one for each
    /// category, party, payment, tag, currency and book there (and a split entry when there
    /// are any), so that names resolve and complete as on the whole ledger.
    public var entriesElsewhere: Int? = nil
    /// How many entries the ledger holds, wherever they are.
    public var entryCount: Int { entriesElsewhere ?? entries.count }
    /// The default currency's rate column as the store image keeps it (SavedRateColumn.swift): set
    /// only by the image reader, dropped by any change to what the column depends on.
    public internal(set) var savedRateColumn: SavedRateColumn?

    public func book(named name: String) -> Int? {
        books.firstIndex { $0.name == name }
    }
}
