// The sections of a store image checked when first read (docs/architecture.md, "The
// store image").
//
// Most answers read a few of the store's columns: a sum by category never reads the
// entry ids, remarks, tags, parties, payment modes or posting lists, nearly half of an
// image. A warm start checks, before the store is used, the sections every answer may
// need (`StoreImage.ledger`) and leaves these groups to be checked when one of their
// fields is first read: `EntryStore`'s property for such a field asks `store(for:)`,
// which checks the group's sections (hash and values, as at open) once, under a lock,
// and from then on hands out the checked fields. No read of such a field goes around
// it: the fields are private to `EntryStore` behind those properties.
//
// A group that fails its check is never read. From then on every group not yet
// checked reads a stand-in of the right shape (zero codes, no names, every row under
// the first code), which keeps the engine within bounds but means nothing, and every
// read of a stand-in is counted. Whoever runs a statement (the shell) compares the count
// before and after it; when it moved, the image is given up as one refused at open is
// (the same note), the ledger is read from the JSON, and the statement runs again on that.
//
// The ledger files' contents are still being hashed when the store is handed out
// (`ContentCheck`); `filesChangedNote()` waits for that, and the shell shows nothing
// made from the store before it said the files match. The image itself is mapped, not
// copied: another program that rewrote it in place would change what the store reads
// under it, so the shell also asks, after each statement, whether the mapping still shows
// the image opened (its head, the directory of sections and their hashes, unchanged:
// `imageChangedNote()`), and reads the JSON instead if not. (Its times are no sign: every
// start that uses an image touches it, to keep it when the folder is trimmed.)

import Synchronization

/// The fields of an `EntryStore` whose image sections are checked when first read.
struct LateFields: OptionSet, Sendable {
    let rawValue: UInt16

    static let entryID = LateFields(rawValue: 1 << 0)
    static let ids = LateFields(rawValue: 1 << 1)
    static let party = LateFields(rawValue: 1 << 2)
    static let parties = LateFields(rawValue: 1 << 3)
    static let payment = LateFields(rawValue: 1 << 4)
    static let payments = LateFields(rawValue: 1 << 5)
    static let remarks = LateFields(rawValue: 1 << 6)
    static let remarkTexts = LateFields(rawValue: 1 << 7)
    static let tagStart = LateFields(rawValue: 1 << 8)
    static let tagCodes = LateFields(rawValue: 1 << 9)
    static let tags = LateFields(rawValue: 1 << 10)
    static let byCategory = LateFields(rawValue: 1 << 11)
    static let byBook = LateFields(rawValue: 1 << 12)
    static let byCurrency = LateFields(rawValue: 1 << 13)
    static let all = LateFields(rawValue: (1 << 14) - 1)

    /// The group whose check covers this one field.
    var group: LateSections.Group {
        switch self {
        case .entryID, .ids: return .ids
        case .party, .parties: return .parties
        case .payment, .payments: return .payments
        case .remarks, .remarkTexts: return .remarks
        case .tagStart, .tagCodes, .tags: return .tags
        case .byCategory: return .categoryPostings
        case .byBook: return .bookPostings
        default: return .currencyPostings
        }
    }
}

/// The groups of an image's sections left to be checked when first read, and the fields read from them.
public final class LateSections: @unchecked Sendable {
    /// Sections checked together: a code column with its dictionary, a posting list's two halves.
    enum Group: Int, CaseIterable {
        case ids, parties, payments, remarks, tags, categoryPostings, bookPostings, currencyPostings

        var sections: [StoreImage.S] {
            switch self {
            case .ids: return [.idArena, .idStarts, .entryID]
            case .parties: return [.party, .parties]
            case .payments: return [.payment, .payments]
            case .remarks: return [.remarks, .remarkTexts]
            case .tags: return [.tagStart, .tagCodes, .tags]
            case .categoryPostings: return [.categoryStarts, .categoryRows]
            case .bookPostings: return [.bookStarts, .bookRows]
            case .currencyPostings: return [.currencyStarts, .currencyRows]
            }
        }
    }

    /// The image file, for the note when it is given up.
    public let imagePath: String
    /// The ledger files' contents, still being hashed when the session started (StoreCache.swift).
    private let contents: ContentCheck?
    /// Whether the mapping still shows the image opened.
    private let stillThisImage: @Sendable () -> Bool
    /// Checks a group's sections; the store it returns holds that group's fields.
    private let check: @Sendable (Group) -> Result<EntryStore, ImageProblem>
    /// What the stand-ins are shaped after: rows, categories, books.
    private let rows: Int, categories: Int, books: Int
    /// One store per group, written once (under `lock`) before its bit in `state` is set.
    private let slots: UnsafeMutablePointer<EntryStore>
    /// Bit g: group g is settled; bit 16 + g: what it reads is a stand-in.
    private let state = Atomic<UInt32>(0)
    private let reads = Atomic<Int>(0)
    private let lock = Mutex<ImageProblem?>(nil)

    init(imagePath: String, rows: Int, categories: Int, books: Int, contents: ContentCheck? = nil,
         stillThisImage: @escaping @Sendable () -> Bool = { true },
         check: @escaping @Sendable (Group) -> Result<EntryStore, ImageProblem>) {
        self.imagePath = imagePath
        self.contents = contents
        self.stillThisImage = stillThisImage
        self.rows = rows
        self.categories = categories
        self.books = books
        self.check = check
        slots = .allocate(capacity: Group.allCases.count)
        slots.initialize(repeating: EntryStore(), count: Group.allCases.count)
    }

    deinit {
        slots.deinitialize(count: Group.allCases.count)
        slots.deallocate()
    }

    /// The store to read `field` from, its group checked first (once).
    @inline(__always)
    func store(for field: LateFields) -> UnsafePointer<EntryStore> {
        let g = field.group.rawValue
        var s = state.load(ordering: .acquiring)
        if s & (1 << g) == 0 { s = settle(g) }
        if s & (1 << (16 + g)) != 0 { reads.wrappingAdd(1, ordering: .relaxed) }
        return UnsafePointer(slots + g)
    }

    @inline(never)
    private func settle(_ g: Int) -> UInt32 {
        lock.withLock { problem in
            let s = state.load(ordering: .acquiring)
            if s & (1 << g) != 0 { return s }
            if problem == nil, let group = Group(rawValue: g) {
                switch check(group) {
                case .success(let store):
                    slots[g] = store
                    return state.bitwiseOr(1 << g, ordering: .releasing).newValue
                case .failure(let p):
                    problem = p
                }
            }
            slots[g] = standIn()
            return state.bitwiseOr((1 << g) | (1 << (16 + g)), ordering: .releasing).newValue
        }
    }

    /// Waits until the ledger files' contents are hashed: nil when they hold what the image was
    /// made from, else the note that says which file changed (then nothing made from this store
    /// may be shown: the files are read from the JSON instead).
    public func filesChangedNote() -> String? { contents?.changedNote() }

    /// Nil while the mapping shows the image opened; else the note that gives it up (it was
    /// rewritten in place while in use: what the store read may be another image's).
    public func imageChangedNote() -> String? {
        stillThisImage() ? nil : StoreCache.ignoring(imagePath, ImageProblem("it was rewritten while in use"))
    }

    /// Why the image was given up: the first group that failed its check, if any did.
    public var problem: ImageProblem? { lock.withLock { $0 } }

    /// How many times a stand-in was read (a statement during which this moved read one).
    public var standInReads: Int { reads.load(ordering: .relaxed) }

    /// Checks every group not yet checked; the first problem found, if any.
    func checkAll() -> ImageProblem? {
        for g in Group.allCases { _ = settle(g.rawValue) }
        return problem
    }

    /// Fields of the right shape for the engine to stay within bounds, meaning nothing.
    private func standIn() -> EntryStore {
        var s = EntryStore()
        let zeros = StoreColumn([UInt32](repeating: 0, count: rows))
        s.party = zeros
        s.payment = zeros
        s.remarks = zeros
        s.entryID = zeros
        s.ids = IDColumn(arena: StoreColumn<UInt8>(), starts: [0, 0])
        s.tagStart = StoreColumn([UInt32](repeating: 0, count: rows + 1))
        func everyRowUnderTheFirstCode(_ codes: Int) -> PostingIndex {
            PostingIndex(starts: StoreColumn([0] + [UInt32](repeating: UInt32(rows), count: max(1, codes))),
                         rows: StoreColumn((0..<rows).map { UInt32($0) }))
        }
        s.byCategory = everyRowUnderTheFirstCode(categories)
        s.byBook = everyRowUnderTheFirstCode(books)
        s.byCurrency = everyRowUnderTheFirstCode(26 * 26 * 26 + 1)
        return s
    }
}
