// Loading ledger files (version 1, docs/ledger-format.md) into a `Ledger`.
//
// The loader reads each file whole (memory-mapped), walks it once with
// `JSONReader`, and writes each entry field straight into the columns of a
// builder: no intermediate objects, no `Double`, no `String` per repeated value.
// Every rule of the format is checked on the way; the first broken rule stops the load
// with a `LoadError` naming the file, the line and column, the JSON path, what was
// found and what was expected. Loading is all or nothing: a `Ledger` exists only
// when every file passed. References that may point forward or into another file
// (an entry's book) are resolved once all files are read.

import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

public struct LoadError: Error, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var column: Int?
    /// JSON path of the offending value (`entries[4127].currency`), when there is one.
    public var path: String?
    public var message: String

    public var description: String {
        var s = file
        if let line, let column { s += ":\(line):\(column)" }
        s += ": "
        // A path holds the file's own keys (`rates[0].rates.<key>`): shown as messages show text,
        // cut where a key is very long.
        if let path, !path.isEmpty { s += ShownText.shown(path, limit: ShownText.pathLimit) + ": " }
        return s + message
    }
}

public enum LedgerLoader {
    /// Loads and validates the files, all or nothing. `progress` counts the bytes read.
    public static func load(paths: [String], progress: LoadProgress? = nil) throws(LoadError) -> Ledger {
        try load(paths: paths, stamping: false, progress: progress).ledger
    }

    /// Loads the files and, when `stamping`, says what they held: each file's canonical path,
    /// size and content hash, read before the parser reads them and hashed again, from the
    /// mapped bytes the parser read, after it. The stamps are nil when a file is not a regular
    /// file or changed while it was read (size, times, inode, or contents a write through a
    /// shared mapping changed, which changes no time): then no store image may claim to match it.
    static func load(paths: [String], stamping: Bool, progress: LoadProgress?) throws(LoadError) -> (ledger: Ledger, stamps: [LedgerFileStamp]?) {
        progress?.start()
        var mapped: [MappedFile] = []
        defer { mapped.forEach { $0.unmap() } }
        for path in paths { mapped.append(try MappedFile(path: path)) }
        let guardRail = ShrinkGuard(paths: paths)
        defer { guardRail.remove() }
        var stamps: [LedgerFileStamp]?
        if stamping, mapped.allSatisfy({ $0.identity != nil }) {
            stamps = []
            for (path, file) in zip(paths, mapped) {
                // Read through a small buffer: hashing does not make the file resident.
                guard let canonical = canonicalPath(path), let hash = contentHash(of: canonical) else { stamps = nil; break }
                stamps?.append(LedgerFileStamp(path: canonical, size: UInt64(file.bytes.count), hash: hash))
            }
        }
        let ledger = try load(buffers: zip(paths, mapped).map { ($0, $1.bytes, $1.isMapping) }, progress: progress)
        if stamps != nil, !mapped.allSatisfy({ $0.identity != nil && $0.identity == MappedFile.identity(of: $0.path) }) { stamps = nil }
        if let s = stamps, !zip(s, mapped).allSatisfy({ stamp, file in ContentHash.of(UnsafeRawBufferPointer(file.bytes), release: file.isMapping) == stamp.hash }) { stamps = nil }
        return (ledger, stamps)
    }

    /// The absolute path with every link resolved, or nil.
    public static func canonicalPath(_ path: String) -> String? {
        guard let p = realpath(path, nil) else { return nil }
        defer { free(p) }
        return String(cString: p)
    }

    /// Loads documents held in memory (`name` is used in messages).
    public static func load(documents: [(name: String, text: String)]) throws(LoadError) -> Ledger {
        var copies: [UnsafeMutableBufferPointer<UInt8>] = []
        defer { copies.forEach { $0.deallocate() } }
        for (_, text) in documents {
            let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: text.utf8.count)
            _ = copy.initialize(from: text.utf8)
            copies.append(copy)
        }
        return try load(buffers: zip(documents, copies).map { ($0.name, UnsafeBufferPointer($1), false) })
    }

    /// Loads documents given as bytes. Entry ids are checked for duplicates once, at the
    /// end (`IDColumn`); only when that check suspects one is everything read again, one
    /// entry at a time with every id checked as it is read, so that the error names the
    /// first duplicate and its place exactly as a single careful reading would.
    /// `beforeFinish` sees every file read and may fill in what no file gave (`LedgerInput`).
    static func load(buffers: [(name: String, bytes: UnsafeBufferPointer<UInt8>, mapped: Bool)], progress: LoadProgress? = nil,
                     beforeFinish: (inout LedgerBuilder) -> Void = { _ in }) throws(LoadError) -> Ledger {
        var builder = LedgerBuilder()
        builder.progress = progress
        for (name, bytes, mapped) in buffers { try builder.read(bytes, name: name, mapped: mapped) }
        beforeFinish(&builder)
        if let ledger = try builder.finish() { return ledger }
        var careful = LedgerBuilder(checkingIDs: true)
        for (name, bytes, mapped) in buffers { try careful.read(bytes, name: name, mapped: mapped) }
        beforeFinish(&careful)
        // Checked as read, ids cannot make `finish` give up.
        guard let ledger = try careful.finish() else { throw LoadError(file: buffers.first?.name ?? "ledger", message: "entry ids could not be checked") }
        return ledger
    }
}

/// A ledger file's bytes: a regular file mapped read-only into memory; anything else that
/// can be read (a pipe, `<(…)`, a FIFO) read whole into memory.
struct MappedFile {
    let bytes: UnsafeBufferPointer<UInt8>
    let path: String
    private let mappedLength: Int
    private let owned: Bool
    /// Device, inode, size and times of a regular file when it was opened; nil for a stream.
    let identity: FileIdentity?

    /// True when `bytes` are a file mapping (whose pages may be handed back).
    var isMapping: Bool { mappedLength > 0 }

    struct FileIdentity: Equatable {
        var device: UInt64, inode: UInt64, size: Int64
        var modified: Int, modifiedNanos: Int, changed: Int, changedNanos: Int

        init(_ s: stat) {
            device = UInt64(s.st_dev); inode = UInt64(s.st_ino); size = Int64(s.st_size)
            modified = Int(s.st_mtim.tv_sec); modifiedNanos = Int(s.st_mtim.tv_nsec)
            changed = Int(s.st_ctim.tv_sec); changedNanos = Int(s.st_ctim.tv_nsec)
        }
    }

    /// What the file at `path` is now (a regular file only).
    static func identity(of path: String) -> FileIdentity? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return FileIdentity(info)
    }

    /// `what` names the file in messages: "the ledger", "the rate file".
    init(path: String, what: String = "the ledger", expected: String = "a ledger JSON file") throws(LoadError) {
        self.path = path
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            let reason = errno == ENOENT ? "no such file" : String(cString: strerror(errno))
            throw LoadError(file: path, message: "cannot open \(what): \(reason)")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw LoadError(file: path, message: "cannot read \(what): \(String(cString: strerror(errno)))")
        }
        let kind = info.st_mode & S_IFMT
        if kind == S_IFDIR {
            throw LoadError(file: path, message: "is a directory, expected \(expected)")
        }
        guard kind == S_IFREG else {
            (bytes, owned, mappedLength, identity) = (try MappedFile.readAll(fd, path: path, what: what), true, 0, nil)
            return
        }
        identity = FileIdentity(info)
        let size = Int(info.st_size)
        owned = false
        if size == 0 {
            bytes = UnsafeBufferPointer(start: nil, count: 0)
            mappedLength = 0
            return
        }
        guard let p = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), p != MAP_FAILED else {
            throw LoadError(file: path, message: "cannot read \(what): \(String(cString: strerror(errno)))")
        }
        _ = madvise(p, size, MADV_SEQUENTIAL)
        bytes = UnsafeBufferPointer(start: p.assumingMemoryBound(to: UInt8.self), count: size)
        mappedLength = size
    }

    /// Reads a stream to its end.
    private static func readAll(_ fd: Int32, path: String, what: String) throws(LoadError) -> UnsafeBufferPointer<UInt8> {
        var buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 1)
        var count = 0
        while true {
            if count == buffer.count {
                let bigger = UnsafeMutableRawBufferPointer.allocate(byteCount: buffer.count * 2, alignment: 1)
                bigger.copyMemory(from: UnsafeRawBufferPointer(buffer))
                buffer.deallocate()
                buffer = bigger
            }
            let n = read(fd, buffer.baseAddress! + count, buffer.count - count)
            if n == 0 { break }
            if n < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                buffer.deallocate()
                throw LoadError(file: path, message: "cannot read \(what): \(reason)")
            }
            count += n
        }
        return UnsafeBufferPointer(start: buffer.baseAddress?.assumingMemoryBound(to: UInt8.self), count: count)
    }

    /// Unmaps the file, or frees the bytes read from a stream.
    func unmap() {
        if owned {
            UnsafeMutableRawPointer(mutating: bytes.baseAddress).map { $0.deallocate() }
        } else if mappedLength > 0, let base = bytes.baseAddress {
            munmap(UnsafeMutableRawPointer(mutating: base), mappedLength)
        }
    }
}

/// A mapped file that someone shortens while it is read makes its lost pages fault with
/// SIGBUS. While files load, that signal ends the program with a clear message and status 2
/// (nothing was loaded), instead of a crash; afterwards the previous handler and message are
/// back. A store image stays mapped while its store is used: `lasting()` keeps a handler for
/// it for the rest of the process.
struct ShrinkGuard {
    private var previous = sigaction()
    private var previousMessage: UnsafeMutableBufferPointer<UInt8>?
    private let own: UnsafeMutableBufferPointer<UInt8>

    /// The message, made before the signal can come: a handler may only write and exit.
    nonisolated(unsafe) private static var message: UnsafeMutableBufferPointer<UInt8>?
    nonisolated(unsafe) private static var lastingInstalled = false
    /// Loads on several threads at once (tests) each swap the message: one at a time.
    private static let messageLock = Mutex<Void>(())

    init(paths: [String]) {
        self.init(message: "error: \(paths.joined(separator: ", ")): a ledger file got shorter while it was being read; nothing was loaded\n")
    }

    init(message text: String) {
        let own = ShrinkGuard.bytes(text)
        self.own = own
        previousMessage = ShrinkGuard.messageLock.withLock { _ in
            defer { ShrinkGuard.message = own }
            return ShrinkGuard.message
        }
        previous = ShrinkGuard.install()
    }

    func remove() {
        var restore = previous
        sigaction(SIGBUS, &restore, nil)
        ShrinkGuard.messageLock.withLock { _ in
            // Another load may have put its own message in since: leave that one.
            if ShrinkGuard.message?.baseAddress == own.baseAddress { ShrinkGuard.message = previousMessage }
        }
        // The message is never freed: loads on two threads (tests) may each hold the other's as
        // the one to restore, and a hundred bytes a load is nothing.
    }

    /// From now on, a SIGBUS outside a load says a store image in use was cut short (only
    /// another program can do that: Abacus replaces images whole), instead of a crash.
    static func lasting() {
        guard !lastingInstalled else { return }
        lastingInstalled = true
        message = bytes("error: a store image in use got shorter (another program cut it); run again, or with --no-cache\n")
        _ = install()
    }

    private static func bytes(_ text: String) -> UnsafeMutableBufferPointer<UInt8> {
        let bytes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: text.utf8.count)
        _ = bytes.initialize(from: text.utf8)
        return bytes
    }

    /// Installs the handler; returns the one it replaced.
    private static func install() -> sigaction {
        var action = sigaction()
        var previous = sigaction()
        #if canImport(Glibc)
        action.__sigaction_handler.sa_handler = { _ in
            if let m = ShrinkGuard.message { _ = write(2, m.baseAddress, m.count) }
            _exit(2)
        }
        #endif
        sigemptyset(&action.sa_mask)
        sigaction(SIGBUS, &action, &previous)
        return previous
    }
}

/// A rule of the format broken at a place in the document; becomes a `LoadError`.
struct LedgerRuleError: Error {
    var offset: Int
    var path: String
    var message: String
}

/// Accumulates all files, then validates cross-references and builds the store.
struct LedgerBuilder {
    var files: [String] = []
    var defaultCurrency: Currency?
    var defaultCurrencyFile = ""
    /// What the load decided that a person should hear of (files that disagree on the default currency).
    var notes: [String] = []

    var books: [Book] = []
    var bookIDs: [String: Int] = [:]
    var bookNames: [String: Int] = [:]
    /// Where each book was defined (file, path), for duplicate messages.
    var bookPlaces: [String] = []

    // Entry columns in load order.
    var day: [Int32] = []
    var amount: [Int128] = []
    var amountScale: [UInt8] = []
    /// The smallest and largest of `amountScale` (empty range until an amount is read).
    var amountScales: ClosedRange<UInt8> = 0...0
    var hasAmounts = false
    var currency: [Currency] = []
    var bookRef: [UInt32] = []
    var category: [UInt32] = []
    var party: [UInt32] = []
    var payment: [UInt32] = []
    var remarks: [UInt32] = []
    var isTransfer: [Bool] = []
    var tagStart: [UInt32] = [0]
    var tagCodes: [UInt32] = []
    var bookedIndex: [Int32] = []
    var booked = BookedColumns()

    var ids = IDColumn()
    /// Set when ids are checked as they are read (see `LedgerLoader.load(buffers:)`); the
    /// code of an id is then its row.
    var idSet: ByteInterner?
    /// Whether a large entries array may be read by two threads (`EntrySplit`), from what size.
    var parallel: Bool
    var splitBytes = EntrySplit.minimumBytes
    var categories = ByteInterner()
    var parties = ByteInterner()
    var payments = ByteInterner()
    var tags = ByteInterner()
    var remarkTexts = ByteInterner(canonical: false)
    /// Book ids as entries name them, resolved in `finish`.
    var bookRefs = ByteInterner()
    /// For each book reference: the first entry that used it (global row) and where.
    var bookRefFirstUse: [(file: Int, index: Int, offset: Int)] = []
    /// Each file's bytes, alive until `finish` (for line and column in late errors).
    var fileBytes: [UnsafeBufferPointer<UInt8>] = []

    /// First global row of each file, for turning a row back into `entries[i]` of a file.
    var fileFirstRow: [Int] = []

    var snapshots: [RateSnapshot] = []
    var pairs: [RatePair] = []
    var customRates: [RatePair] = []
    var budgets: [Budget] = []
    var marketOrder = 0
    /// Where each budget was read (for a bookId naming no book).
    var budgetPlaces: [Place] = []
    /// Split entries by load row, resolved to rows in `finish`.
    var pendingSplits: [(row: Int, parts: [SplitPart])] = []
    var categoryLinks: [CategoryLink] = []
    /// The names of `categoryLinks` and the ids of `holdings`, to find a repeat at once.
    var categoryNames: Set<String> = []
    var holdingIDs: Set<String> = []
    var categoryPlaces: [Place] = []
    var assets: [AssetRecord] = []
    var liabilities: [LiabilityRecord] = []
    var holdings: [HoldingLot] = []
    var holdingPlaces: [Place] = []
    var prices: [PriceRecord] = []
    var pricePlaces: [Place] = []

    /// Where the parser's threads count the bytes they have read (shown on a terminal).
    var progress: LoadProgress?
    /// Bytes of the files read before the one being read.
    var bytesBefore = 0
    /// The file being read is a file mapping: pages behind the reader may be handed back.
    var releasable = false

    init(checkingIDs: Bool = false, parallel: Bool = onlineProcessors > 1) {
        idSet = checkingIDs ? ByteInterner(capacity: 1024) : nil
        self.parallel = parallel && !checkingIDs
    }

    mutating func read(_ bytes: UnsafeBufferPointer<UInt8>, name: String, mapped: Bool = false) throws(LoadError) {
        releasable = mapped && bytes.baseAddress != nil
        defer {
            bytesBefore += bytes.count
            progress?.main(bytesBefore)
        }
        files.append(name)
        fileBytes.append(bytes)
        fileFirstRow.append(day.count)
        // Entries take 150 to 250 bytes of JSON each: reserving for that many up front saves
        // copying (and faulting in) every column as it grows. Untouched capacity costs nothing.
        reserveCapacity(day.count + bytes.count / 150)
        var parser = FileParser(reader: JSONReader(bytes), fileIndex: files.count - 1)
        do {
            try parser.parseDocument(into: &self)
        } catch {
            throw LedgerBuilder.located(error, parser: parser, name: name)
        }
    }

    /// What a parser threw, as a `LoadError` with the file, line, column and JSON path.
    static func located(_ error: any Error, parser: FileParser, name: String) -> LoadError {
        switch error {
        case let e as JSONSyntaxError:
            let (line, column) = parser.reader.lineAndColumn(of: e.offset)
            return LoadError(file: name, line: line, column: column, path: parser.path.isEmpty ? nil : parser.path, message: e.message)
        case let e as LedgerRuleError:
            let (line, column) = parser.reader.lineAndColumn(of: e.offset)
            return LoadError(file: name, line: line, column: column, path: e.path.isEmpty ? nil : e.path, message: e.message)
        case let e as LoadError:
            return e
        default:
            return LoadError(file: name, message: "\(error)")
        }
    }

    mutating func reserveCapacity(_ n: Int) {
        guard n > day.capacity else { return }
        day.reserveCapacity(n); amount.reserveCapacity(n); amountScale.reserveCapacity(n)
        currency.reserveCapacity(n); bookRef.reserveCapacity(n); category.reserveCapacity(n)
        party.reserveCapacity(n); payment.reserveCapacity(n); remarks.reserveCapacity(n)
        isTransfer.reserveCapacity(n); tagStart.reserveCapacity(n + 1); tagCodes.reserveCapacity(n)
        bookedIndex.reserveCapacity(n); ids.reserveCapacity(n)
    }

    func place(ofRow row: Int) -> (file: String, index: Int) {
        var f = fileFirstRow.count - 1
        while f > 0 && fileFirstRow[f] > row { f -= 1 }
        return (files[f], row - fileFirstRow[f])
    }

    /// The ledger, once every file is read: book references resolved, amounts at one scale,
    /// rows in order of day, indexes built. Nil when ids were not checked as they were read
    /// and two of them may be the same (`LedgerLoader.load(buffers:)` then reads again).
    /// The columns are independent of each other, so they are built at once on the cores there are.
    mutating func finish() throws(LoadError) -> Ledger? {
        guard let defaultCurrency else {
            throw LoadError(file: files.first ?? "ledger", path: "defaultCurrency",
                            message: "missing \"defaultCurrency\": add the ISO 4217 code to convert into by default, e.g. \"defaultCurrency\": \"INR\"")
        }
        try checkNetWorthParts()
        // Resolve book references.
        var bookOfRefs = [UInt32](repeating: 0, count: bookRefs.count)
        for ref in 0..<bookRefs.count {
            let id = bookRefs.string(UInt32(ref))
            guard let b = bookIDs[id] else {
                let use = bookRefFirstUse[ref]
                let (line, column) = JSONReader(fileBytes[use.file]).lineAndColumn(of: use.offset)
                let known = books.map(\.id)
                var message = "no book has id \(quoted(id))"
                if let near = nearest(id, in: known) { message += "; did you mean \"\(near)\"?" }
                else if known.isEmpty { message += "; the ledger defines no books" }
                throw LoadError(file: files[use.file], line: line, column: column,
                                path: "entries[\(use.index)].bookId", message: message)
            }
            bookOfRefs[ref] = UInt32(b)
        }
        let n = day.count
        // One common scale for amounts (most files write every amount with the same decimals).
        let scale = Int(amountScales.upperBound)
        for r in 0..<n where amountScales.lowerBound != amountScales.upperBound && Int(amountScale[r]) != scale {
            let (v, o) = amount[r].multipliedReportingOverflow(by: pow10[scale - Int(amountScale[r])])
            guard !o, v.magnitude <= ExactDecimal.maxSignificand.magnitude else {
                let (file, index) = place(ofRow: r)
                throw LoadError(file: file, path: "entries[\(index)].amount",
                                message: "\(ExactDecimal(significand: amount[r], scale: Int(amountScale[r]))) cannot be held exactly beside amounts with \(scale) decimals (38 digits at most)")
            }
            amount[r] = v
        }

        // Rows in order of day. Most ledgers are written nearly in date order: when they are
        // exactly, the columns are used as they are; otherwise each is permuted by a stable sort.
        var inOrder = true
        for r in day.indices.dropFirst() where day[r] < day[r - 1] { inOrder = false; break }
        let order: [UInt32]? = inOrder ? nil : LedgerBuilder.stableOrder(byDay: day)
        let bookCurrency = books.map(\.currency)
        let bookOfRef = bookOfRefs
        let (day, amount, currency, bookRef, category, party, payment, remarks, isTransfer, bookedIndex, tagStart, tagCodes)
            = (day, amount, currency, bookRef, category, party, payment, remarks, isTransfer, bookedIndex, tagStart, tagCodes)
        let (ids, checkIDs) = (ids, idSet == nil)
        let dayOut = Slot<[Int32]>(), amountOut = Slot<[Int128]>(), currencyOut = Slot<[Currency]>(), bookOut = Slot<[UInt32]>()
        let categoryOut = Slot<[UInt32]>(), partyOut = Slot<[UInt32]>(), paymentOut = Slot<[UInt32]>(), remarksOut = Slot<[UInt32]>()
        let transferOut = Slot<[Bool]>(), bookedOut = Slot<[Int32]>(), tagsOut = Slot<(starts: [UInt32], codes: [UInt32])>()
        let mayRepeat = Slot<Bool>()
        runConcurrently([
            { mayRepeat.value = checkIDs && ids.mayHaveDuplicates() },
            { dayOut.value = permuted(day, order) },
            { amountOut.value = permuted(amount, order) },
            { categoryOut.value = permuted(category, order) },
            { partyOut.value = permuted(party, order) },
            { paymentOut.value = permuted(payment, order) },
            { remarksOut.value = permuted(remarks, order) },
            { transferOut.value = permuted(isTransfer, order) },
            { bookedOut.value = permuted(bookedIndex, order) },
            { bookOut.value = permuted(bookRef, order) { bookOfRef[Int($0)] } },
            {
                // An entry without a currency takes its book's.
                currencyOut.value = permuted(Array(0..<UInt32(n)), order) { r in
                    let c = currency[Int(r)]
                    return c != .none ? c : bookCurrency[Int(bookOfRef[Int(bookRef[Int(r)])])]
                }
            },
            {
                guard let order else { tagsOut.value = (tagStart, tagCodes); return }
                var starts = [UInt32](repeating: 0, count: n + 1)
                for (i, r) in order.enumerated() { starts[i + 1] = starts[i] + tagStart[Int(r) + 1] - tagStart[Int(r)] }
                let codes = [UInt32](unsafeUninitializedCapacity: tagCodes.count) { out, initialized in
                    tagCodes.withUnsafeBufferPointer { src in
                        for (i, r) in order.enumerated() {
                            let from = Int(tagStart[Int(r)]), count = Int(tagStart[Int(r) + 1]) - from
                            guard count > 0, let s = src.baseAddress, let d = out.baseAddress else { continue }
                            (d + Int(starts[i])).initialize(from: s + from, count: count)
                        }
                    }
                    initialized = tagCodes.count
                }
                tagsOut.value = (starts, codes)
            },
        ])
        if mayRepeat.value == true { return nil }
        let splits = try finishSplits(order: order, scale: scale)

        var store = EntryStore()
        store.setCount(n)
        store.amountScale = scale
        store.day = StoreColumn(dayOut.value ?? [])
        store.amount = StoreColumn(amountOut.value ?? [])
        store.currency = StoreColumn(currencyOut.value ?? [])
        store.book = StoreColumn(bookOut.value ?? [])
        store.category = StoreColumn(categoryOut.value ?? [])
        store.party = StoreColumn(partyOut.value ?? [])
        store.payment = StoreColumn(paymentOut.value ?? [])
        store.remarks = StoreColumn(remarksOut.value ?? [])
        store.isTransfer = StoreColumn(transferOut.value ?? [])
        store.bookedIndex = StoreColumn(bookedOut.value ?? [])
        store.entryID = StoreColumn(order ?? Array(0..<UInt32(n)))
        store.tagStart = StoreColumn(tagsOut.value?.starts ?? [0])
        store.tagCodes = StoreColumn(tagsOut.value?.codes ?? [])
        store.booked = booked
        store.booked.noteScales()
        store.categories = categories.allStrings()
        store.parties = [""] + parties.allStrings()
        store.payments = [""] + payments.allStrings()
        store.tags = tags.allStrings()
        store.remarkTexts = [""] + remarkTexts.allStrings()
        store.ids = ids
        // Uniqueness is settled: the hashes (8 bytes an entry) are not kept with the store.
        store.ids.dropHashes()
        // The posting lists, at once.
        let (storeCategory, storeBook, storeCurrency) = (store.category, store.book, store.currency)
        let (categoryCount, bookCount) = (store.categories.count, books.count)
        let byCategory = Slot<PostingIndex>(), byBook = Slot<PostingIndex>(), byCurrency = Slot<PostingIndex>()
        runConcurrently([
            { byCategory.value = PostingIndex(codes: storeCategory, codeCount: categoryCount) },
            { byBook.value = PostingIndex(codes: storeBook, codeCount: bookCount) },
            { byCurrency.value = PostingIndex(codes: storeCurrency.map { UInt32($0.packed) }, codeCount: 26 * 26 * 26 + 1) },
        ])
        store.byCategory = byCategory.value ?? PostingIndex()
        store.byBook = byBook.value ?? PostingIndex()
        store.byCurrency = byCurrency.value ?? PostingIndex()
        store.currencies = (0..<(store.byCurrency.starts.count - 1)).filter { store.byCurrency.starts[$0 + 1] > store.byCurrency.starts[$0] }
            .map { Currency(packed: UInt16($0)) }
        var ledger = Ledger(files: files, defaultCurrency: defaultCurrency, books: books, entries: store,
                            snapshots: snapshots, pairs: pairs, customRates: customRates, budgets: budgets, notes: notes)
        ledger.categoryLinks = categoryLinks
        ledger.splits = splits
        ledger.assets = assets
        ledger.liabilities = liabilities
        ledger.holdings = holdings
        ledger.prices = prices
        return ledger
    }

    /// Row numbers in order of day, ties in load order (counting sort when the span allows).
    static func stableOrder(byDay day: [Int32]) -> [UInt32] {
        guard let lo = day.min(), let hi = day.max() else { return [] }
        let span = Int(hi) - Int(lo) + 1
        if span <= max(1 << 20, day.count * 4) {
            var counts = [UInt32](repeating: 0, count: span + 1)
            for d in day { counts[Int(d - lo) + 1] += 1 }
            for i in 1..<counts.count { counts[i] += counts[i - 1] }
            var order = [UInt32](repeating: 0, count: day.count)
            for (row, d) in day.enumerated() {
                let k = Int(d - lo)
                order[Int(counts[k])] = UInt32(row)
                counts[k] += 1
            }
            return order
        }
        return (0..<UInt32(day.count)).sorted { (day[Int($0)], $0) < (day[Int($1)], $1) }
    }
}

