// The binary image of a loaded ledger: every column, dictionary and posting list
// of the `EntryStore`, and the books, rates and budgets, laid out so that the next
// start copies them back with one block copy per column instead of parsing JSON.
//
// Layout (little-endian, host widths; a big-endian host fails the byte-order check):
//
//     0   magic "ABACUSIM"            8 bytes
//     8   format version              UInt32
//     12  byte-order mark 0x01020304  UInt32
//     16  total length of the file    UInt64
//     24  directory length            UInt64
//     32  XXH64 of the directory      UInt64
//     64  directory: the Abacus version, each ledger file (canonical path, size,
//         content hash), each section (offset, length, hash), then the small
//         things (books, rates, budgets, scalars) field by field
//     …   sections, each at a multiple of 64: one column or dictionary each
//
// The image is untrusted input, like a ledger: a file in a cache folder can be cut
// short by a full disk, damaged, left by another version, or written by someone
// else. So every read is bounds-checked against the mapping, every section's hash
// is checked as it is copied, and the decoded store is checked for what the query
// engine relies on (codes within their dictionaries, rows within the store, days in
// order, valid currencies and decimals) before it is used. Any failure is an
// `ImageProblem`, and the caller reads the JSON instead.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch

/// A ledger file as an image records it.
public struct LedgerFileStamp: Sendable, Equatable {
    /// The canonical path (`realpath`).
    public var path: String
    public var size: UInt64
    /// `ContentHash.of` the file's bytes.
    public var hash: UInt64

    public init(path: String, size: UInt64, hash: UInt64) {
        self.path = path
        self.size = size
        self.hash = hash
    }
}

/// Why an image was not used.
public struct ImageProblem: Error, Sendable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}

enum StoreImage {
    static let magic: [UInt8] = Array("ABACUSIM".utf8)
    /// Entry id offsets are written as they lie in memory (`Int`): images exist on 64-bit hosts only.
    static let supported = MemoryLayout<Int>.size == 8
    /// Raised whenever the layout below changes.
    static let formatVersion: UInt32 = 2
    static let byteOrderMark: UInt32 = 0x0102_0304
    static let headerBytes = 64
    static let alignment = 64

    // MARK: Sections

    /// A section's bytes, borrowed from the array that holds them while the image is written.
    struct Section {
        var bytes: UnsafeRawBufferPointer
    }

    /// The store's arrays in section order. `body` sees their bytes only while they are alive.
    static func withSections<R>(_ s: EntryStore, dictionaries: [[UInt8]], _ body: ([UnsafeRawBufferPointer]) -> R) -> R {
        let ids = s.ids.parts
        let b = s.booked
        let holders: [any RawBytesHolder] = [
            s.day, s.amount, s.currency, s.book, s.category, s.party, s.payment, s.remarks, s.isTransfer, s.entryID,
            s.tagStart, s.tagCodes, s.bookedIndex,
            b.normalizedAmount, b.normalizedScale, b.normalizedCurrency, b.conversionRate, b.conversionRateScale,
            ids.arena, ids.starts,
            s.byCategory.starts, s.byCategory.rows, s.byBook.starts, s.byBook.rows, s.byCurrency.starts, s.byCurrency.rows,
        ] + dictionaries.map { $0 as any RawBytesHolder }
        var all: [UnsafeRawBufferPointer] = []
        // Nested, so that every buffer stays valid until `body` returns.
        func nest(_ i: Int) -> R {
            guard i < holders.count else { return body(all) }
            return holders[i].withBytes { bytes in
                all.append(bytes)
                return nest(i + 1)
            }
        }
        return nest(0)
    }

    enum S: Int, CaseIterable {
        case day, amount, currency, book, category, party, payment, remarks, isTransfer, entryID
        case tagStart, tagCodes, bookedIndex
        case normalizedAmount, normalizedScale, normalizedCurrency, conversionRate, conversionRateScale
        case idArena, idStarts
        case categoryStarts, categoryRows, bookStarts, bookRows, currencyStarts, currencyRows
        case categories, parties, payments, tags, remarkTexts
    }

    /// A dictionary as one section: count, then each string's length and bytes.
    static func dictionaryBytes(_ strings: [String]) -> [UInt8] {
        var w = ByteWriter()
        w.u64(UInt64(strings.count))
        for s in strings { w.string(s) }
        return w.bytes
    }

    // MARK: Writing

    /// Writes the image of `ledger` to `fd` (a new, empty file).
    static func write(_ ledger: Ledger, stamps: [LedgerFileStamp], version: String, to fd: Int32) -> Bool {
        guard supported else { return false }
        let s = ledger.entries
        let dictionaries = [s.categories, s.parties, s.payments, s.tags, s.remarkTexts].map(dictionaryBytes)
        return withSections(s, dictionaries: dictionaries) { sections in
            // Hash the sections side by side.
            let hashes = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: sections.count)
            defer { hashes.deallocate() }
            let out = SendablePointer(hashes.baseAddress!)
            let boxed = SendableSections(sections)
            DispatchQueue.concurrentPerform(iterations: sections.count) { i in
                out.pointer[i] = SectionHash.of(boxed.sections[i])
            }
            // Offsets: the directory's length is known once it is written with placeholder
            // offsets of fixed width, so write it twice.
            func directory(_ offsets: [UInt64]) -> [UInt8] {
                var w = ByteWriter()
                w.string(version)
                w.u64(UInt64(stamps.count))
                for f in stamps { w.string(f.path); w.u64(f.size); w.u64(f.hash) }
                w.u64(UInt64(sections.count))
                for (i, b) in sections.enumerated() { w.u64(offsets[i]); w.u64(UInt64(b.count)); w.u64(hashes[i]) }
                encodeSmall(ledger, into: &w)
                return w.bytes
            }
            let draft = directory([UInt64](repeating: 0, count: sections.count))
            var offsets: [UInt64] = []
            var at = align(headerBytes + draft.count)
            for b in sections {
                offsets.append(UInt64(at))
                at = align(at + b.count)
            }
            let total = at
            let dir = directory(offsets)
            var header = ByteWriter()
            header.raw(magic)
            header.u32(formatVersion)
            header.u32(byteOrderMark)
            header.u64(UInt64(total))
            header.u64(UInt64(dir.count))
            let dirHash = dir.withUnsafeBytes { ContentHash.xxh64($0, seed: UInt64(formatVersion)) }
            header.u64(dirHash)
            header.raw([UInt8](repeating: 0, count: headerBytes - header.bytes.count))
            var written = 0
            func put(_ b: UnsafeRawBufferPointer) -> Bool {
                var done = 0
                while done < b.count {
                    guard let p = b.baseAddress else { return false }
                    let n = Glibc.write(fd, p + done, b.count - done)
                    if n < 0 && errno == EINTR { continue }
                    if n <= 0 { return false }
                    done += n
                }
                written += b.count
                return true
            }
            func pad() -> Bool {
                let gap = align(written) - written
                guard gap > 0 else { return true }
                return [UInt8](repeating: 0, count: gap).withUnsafeBytes { put($0) }
            }
            guard header.bytes.withUnsafeBytes({ put($0) }), dir.withUnsafeBytes({ put($0) }), pad() else { return false }
            for b in sections {
                guard put(b), pad() else { return false }
            }
            return written == total
        }
    }

    static func align(_ n: Int) -> Int { (n + alignment - 1) / alignment * alignment }

    // MARK: Reading

    /// What an image says it was made from, read without touching its sections.
    struct Directory {
        var version: String
        var stamps: [LedgerFileStamp]
        var sections: [(offset: Int, length: Int, hash: UInt64)]
        /// Where the small things start in the directory.
        var reader: ByteReader
    }

    /// Checks the header and the directory's hash, and reads the directory.
    static func directory(_ image: UnsafeRawBufferPointer) throws(ImageProblem) -> Directory {
        guard supported else { throw ImageProblem("store images need a 64-bit host") }
        guard image.count >= headerBytes, let base = image.baseAddress else { throw ImageProblem("shorter than its header") }
        guard Array(UnsafeRawBufferPointer(start: base, count: 8)) == magic else { throw ImageProblem("not an Abacus store image") }
        let version = base.loadUnaligned(fromByteOffset: 8, as: UInt32.self)
        guard version == formatVersion else { throw ImageProblem("image format \(version), this Abacus writes format \(formatVersion)") }
        guard base.loadUnaligned(fromByteOffset: 12, as: UInt32.self) == byteOrderMark else { throw ImageProblem("written on a machine of another byte order") }
        let total = base.loadUnaligned(fromByteOffset: 16, as: UInt64.self)
        guard total == UInt64(image.count) else { throw ImageProblem("\(image.count) bytes long, its header says \(total): cut short or damaged") }
        let dirLength = base.loadUnaligned(fromByteOffset: 24, as: UInt64.self)
        guard dirLength <= UInt64(image.count - headerBytes) else { throw ImageProblem("its directory runs past its end") }
        let dir = UnsafeRawBufferPointer(start: base + headerBytes, count: Int(dirLength))
        guard ContentHash.xxh64(dir, seed: UInt64(formatVersion)) == base.loadUnaligned(fromByteOffset: 32, as: UInt64.self) else {
            throw ImageProblem("its directory does not match its checksum: damaged")
        }
        // Bytes no hash covers must be zero: then a flip anywhere in the file is seen.
        guard UnsafeRawBufferPointer(start: base + 40, count: headerBytes - 40).allSatisfy({ $0 == 0 }) else {
            throw ImageProblem("its header is damaged")
        }
        var r = ByteReader(dir)
        let abacus = try r.string()
        let fileCount = try r.count(max: 1 << 16)
        var stamps: [LedgerFileStamp] = []
        for _ in 0..<fileCount { stamps.append(LedgerFileStamp(path: try r.string(), size: try r.u64(), hash: try r.u64())) }
        let sectionCount = try r.count(max: 1 << 10)
        guard sectionCount == S.allCases.count else { throw ImageProblem("\(sectionCount) sections, expected \(S.allCases.count)") }
        var sections: [(offset: Int, length: Int, hash: UInt64)] = []
        for _ in 0..<sectionCount {
            let offset = try r.u64(), length = try r.u64(), hash = try r.u64()
            guard offset % UInt64(alignment) == 0, offset >= UInt64(headerBytes) + dirLength,
                  offset <= UInt64(image.count), length <= UInt64(image.count) - offset else {
                throw ImageProblem("a section lies outside the image")
            }
            sections.append((Int(offset), Int(length), hash))
        }
        // Sections lie in order, each gap (and the tail) all zeros.
        var end = headerBytes + Int(dirLength)
        for (offset, length, _) in sections + [(image.count, 0, 0)] {
            guard offset >= end, UnsafeRawBufferPointer(start: base + end, count: offset - end).allSatisfy({ $0 == 0 }) else {
                throw ImageProblem("the space between its sections is damaged")
            }
            end = offset + length
        }
        return Directory(version: abacus, stamps: stamps, sections: sections, reader: r)
    }

    /// The ledger in `image`, whose directory was read as `dir` and whose key the caller has
    /// checked. Every section's hash is checked as it is copied, and the store is validated.
    /// With `fd`, the image file `image` maps, sections are read from the file (see `SectionCopies`).
    static func ledger(_ image: UnsafeRawBufferPointer, _ dir: Directory, files: [String], fd: Int32? = nil) throws(ImageProblem) -> Ledger {
        guard let base = image.baseAddress else { throw ImageProblem("empty") }
        var r = dir.reader
        var small = try decodeSmall(&r)
        guard r.atEnd else { throw ImageProblem("its directory has bytes after its end") }
        small.ledger.files = files
        // Copy and check every section side by side.
        let n = S.allCases.count
        let copies = SectionCopies(count: n, fd: fd, base: base)
        let start = SendableRaw(base)
        let sections = dir.sections
        // Largest first, so that two cores finish together.
        let order = (0..<n).sorted { sections[$0].length > sections[$1].length }
        DispatchQueue.concurrentPerform(iterations: n) { k in
            let i = order[k]
            let bytes = UnsafeRawBufferPointer(start: start.pointer + sections[i].offset, count: sections[i].length)
            let hash = sections[i].hash
            switch S(rawValue: i) {
            case .day, .bookedIndex: copies.copy(i, bytes, hash: hash, as: Int32.self)
            case .amount, .normalizedAmount, .conversionRate: copies.copy(i, bytes, hash: hash, as: Int128.self)
            case .currency, .normalizedCurrency: copies.copy(i, bytes, hash: hash, as: Currency.self)
            case .categories, .parties, .payments, .tags, .remarkTexts: copies.strings(i, bytes, hash: hash)
            case .isTransfer, .idArena: copies.copy(i, bytes, hash: hash, as: UInt8.self)
            case .normalizedScale, .conversionRateScale: copies.copy(i, bytes, hash: hash, as: Int8.self)
            case .idStarts: copies.copy(i, bytes, hash: hash, as: Int.self)
            default: copies.copy(i, bytes, hash: hash, as: UInt32.self)
            }
        }
        if let problem = copies.problem { throw problem }
        var s = EntryStore()
        s.setCount(small.count)
        s.amountScale = small.amountScale
        s.day = try copies.array(S.day.rawValue)
        s.amount = try copies.array(S.amount.rawValue)
        s.currency = try copies.array(S.currency.rawValue)
        s.book = try copies.array(S.book.rawValue)
        s.category = try copies.array(S.category.rawValue)
        s.party = try copies.array(S.party.rawValue)
        s.payment = try copies.array(S.payment.rawValue)
        s.remarks = try copies.array(S.remarks.rawValue)
        s.isTransfer = try copies.bools(S.isTransfer.rawValue)
        s.entryID = try copies.array(S.entryID.rawValue)
        s.tagStart = try copies.array(S.tagStart.rawValue)
        s.tagCodes = try copies.array(S.tagCodes.rawValue)
        s.bookedIndex = try copies.array(S.bookedIndex.rawValue)
        s.booked.normalizedAmount = try copies.array(S.normalizedAmount.rawValue)
        s.booked.normalizedScale = try copies.array(S.normalizedScale.rawValue)
        s.booked.normalizedCurrency = try copies.array(S.normalizedCurrency.rawValue)
        s.booked.conversionRate = try copies.array(S.conversionRate.rawValue)
        s.booked.conversionRateScale = try copies.array(S.conversionRateScale.rawValue)
        s.booked.normalizedScales = small.normalizedScales
        s.booked.conversionRateScales = small.conversionRateScales
        // Written as Int64, read as Int: the same eight bytes on the 64-bit hosts Abacus runs on.
        let idStarts: [Int] = try copies.array(S.idStarts.rawValue)
        let idArena: [UInt8] = try copies.array(S.idArena.rawValue)
        guard idStarts.first == 0 && idStarts.last == idArena.count && isAscending(idStarts) else {
            throw ImageProblem("its entry ids are inconsistent: damaged")
        }
        s.ids = IDColumn(arena: idArena, starts: idStarts)
        s.byCategory = try copies.postings(S.categoryStarts.rawValue, S.categoryRows.rawValue)
        s.byBook = try copies.postings(S.bookStarts.rawValue, S.bookRows.rawValue)
        s.byCurrency = try copies.postings(S.currencyStarts.rawValue, S.currencyRows.rawValue)
        s.categories = try copies.array(S.categories.rawValue)
        s.parties = try copies.array(S.parties.rawValue)
        s.payments = try copies.array(S.payments.rawValue)
        s.tags = try copies.array(S.tags.rawValue)
        s.remarkTexts = try copies.array(S.remarkTexts.rawValue)
        s.currencies = small.currencies
        try validate(s, books: small.ledger.books.count)
        small.ledger.entries = s
        return small.ledger
    }

    static func isAscending<T: Comparable>(_ a: [T]) -> Bool {
        a.withUnsafeBufferPointer { b in
            guard b.count > 1 else { return true }
            for i in 1..<b.count where b[i] < b[i - 1] { return false }
            return true
        }
    }

    static func allBelow(_ a: [UInt32], _ limit: Int) -> Bool {
        a.withUnsafeBufferPointer { b in
            var worst: UInt32 = 0
            for x in b { worst = max(worst, x) }
            return b.isEmpty || Int(worst) < limit
        }
    }

    /// What the query engine relies on, checked before the store is used (the checks side by side).
    static func validate(_ s: EntryStore, books: Int) throws(ImageProblem) {
        let n = s.count
        let b = s.booked
        let m = b.normalizedCurrency.count
        let scales = -1...Int8(ExactDecimal.maxScale)
        let fits: @Sendable (Int128) -> Bool = { $0.magnitude <= ExactDecimal.maxSignificand.magnitude }
        @Sendable func postings(_ index: PostingIndex, _ codes: Int) -> Bool {
            index.starts.count == codes + 1 && index.starts.first == 0 && Int(index.starts.last ?? 1) == n
                && index.rows.count == n && isAscending(index.starts) && allBelow(index.rows, n)
        }
        let checks: [(String, @Sendable () -> Bool)] = [
            ("column lengths", {
                [s.day.count, s.amount.count, s.currency.count, s.book.count, s.category.count, s.party.count, s.payment.count,
                 s.remarks.count, s.isTransfer.count, s.entryID.count, s.bookedIndex.count].allSatisfy { $0 == n }
                    && (0...ExactDecimal.maxScale).contains(s.amountScale)
            }),
            ("tag lists", {
                s.tagStart.count == n + 1 && s.tagStart.first == 0 && Int(s.tagStart.last ?? 1) == s.tagCodes.count
                    && isAscending(s.tagStart) && allBelow(s.tagCodes, s.tags.count)
            }),
            ("days", { isAscending(s.day) && (s.day.first.map { StoreImage.days.contains($0) } ?? true) && (s.day.last.map { StoreImage.days.contains($0) } ?? true) }),
            ("book and category codes", { allBelow(s.book, books) && allBelow(s.category, s.categories.count) }),
            ("party, payment and remark codes", {
                !s.parties.isEmpty && allBelow(s.party, s.parties.count) && !s.payments.isEmpty && allBelow(s.payment, s.payments.count)
                    && !s.remarkTexts.isEmpty && allBelow(s.remarks, s.remarkTexts.count)
            }),
            ("entry id codes", { allBelow(s.entryID, s.ids.count) }),
            ("currencies", { s.currency.allSatisfy { $0.isISO } && s.currencies.allSatisfy { $0.isISO } && isAscending(s.currencies.map(\.packed)) }),
            ("amounts", { s.amount.allSatisfy(fits) }),
            ("booked columns", {
                b.normalizedAmount.count == m && b.normalizedScale.count == m && b.conversionRate.count == m && b.conversionRateScale.count == m
                    && s.bookedIndex.allSatisfy { $0 >= -1 && Int($0) < m } && b.normalizedCurrency.allSatisfy { $0.isISO }
                    && b.normalizedScale.allSatisfy { scales.contains($0) } && b.conversionRateScale.allSatisfy { scales.contains($0) }
                    && b.normalizedAmount.allSatisfy(fits) && b.conversionRate.allSatisfy(fits)
                    && (b.normalizedScales + b.conversionRateScales).allSatisfy { (0...ExactDecimal.maxScale).contains($0) }
            }),
            ("category and book posting lists", { postings(s.byCategory, s.categories.count) && postings(s.byBook, books) }),
            ("currency posting lists", { postings(s.byCurrency, 26 * 26 * 26 + 1) }),
        ]
        let passed = UnsafeMutableBufferPointer<Bool>.allocate(capacity: checks.count)
        defer { passed.deallocate() }
        passed.initialize(repeating: false)
        let out = SendablePointer(passed.baseAddress!)
        DispatchQueue.concurrentPerform(iterations: checks.count) { out.pointer[$0] = checks[$0].1() }
        if let failed = checks.indices.first(where: { !passed[$0] }) {
            throw ImageProblem("its \(checks[failed].0) are inconsistent: damaged")
        }
    }

    /// The days a ledger date can name (years 1 to 9999).
    static let days: ClosedRange<Int32> = (Day(year: 1, month: 1, day: 1)?.number ?? 0)...(Day(year: 9999, month: 12, day: 31)?.number ?? 0)
}

/// The sections of an image, each copied (and its hash checked) by its own job into an
/// array of its element type; read once every job is done.
final class SectionCopies: @unchecked Sendable {
    /// One element per section, each written by one job only.
    private let slots: UnsafeMutableBufferPointer<Any?>
    private let problems: UnsafeMutableBufferPointer<ImageProblem?>
    /// The image file, when sections are read from it (`pread`) rather than copied from a
    /// mapping of it at `base`: the kernel copies from its cache, no page of the file is mapped.
    private let fd: Int32?
    private let base: UnsafeRawPointer?

    init(count: Int, fd: Int32? = nil, base: UnsafeRawPointer? = nil) {
        self.fd = fd
        self.base = base
        slots = .allocate(capacity: count)
        slots.initialize(repeating: nil)
        problems = .allocate(capacity: count)
        problems.initialize(repeating: nil)
    }

    deinit {
        _ = slots.deinitialize()
        slots.deallocate()
        _ = problems.deinitialize()
        problems.deallocate()
    }

    /// Copies section `i` into a `[T]`, hashing it block by block as it lands.
    func copy<T>(_ i: Int, _ b: UnsafeRawBufferPointer, hash: UInt64, as: T.Type) {
        let stride = MemoryLayout<T>.stride
        guard b.count % stride == 0 else { problems[i] = ImageProblem("section \(i) is not a whole number of elements"); return }
        let n = b.count / stride
        var got: UInt64?
        let a = [T](unsafeUninitializedCapacity: n) { out, initialized in
            let to = UnsafeMutableRawPointer(out.baseAddress)
            // A large column's pages made in one call, not by a fault every 4 KB.
            if b.count >= 1 << 20 { Pages.advise(to, b.count, 23 /* MADV_POPULATE_WRITE */, wholePagesOnly: true) }
            if let fd, let base, let from = b.baseAddress {
                got = SectionHash.read(fd, at: from - base, count: b.count, to: to)
            } else {
                got = SectionHash.copy(b, to: to)
            }
            initialized = n
        }
        guard let got, got == hash else { problems[i] = ImageProblem("its section \(StoreImage.S(rawValue: i).map { "\($0)" } ?? "\(i)") does not match its checksum: damaged"); return }
        slots[i] = a
    }

    /// The first problem met, by section.
    var problem: ImageProblem? { problems.first { $0 != nil } ?? nil }

    func array<T>(_ i: Int) throws(ImageProblem) -> [T] {
        guard let a = slots[i] as? [T] else { throw ImageProblem("section \(i) is missing") }
        return a
    }

    /// A column of `Bool`, each byte checked to be 0 or 1 before it is taken as one.
    func bools(_ i: Int) throws(ImageProblem) -> [Bool] {
        let raw: [UInt8] = try array(i)
        guard raw.allSatisfy({ $0 <= 1 }) else { throw ImageProblem("a transfer flag is neither true nor false: damaged") }
        return [Bool](unsafeUninitializedCapacity: raw.count) { out, initialized in
            raw.withUnsafeBytes { from in
                if let to = out.baseAddress, let f = from.baseAddress { UnsafeMutableRawPointer(to).copyMemory(from: f, byteCount: raw.count) }
            }
            initialized = raw.count
        }
    }

    func postings(_ starts: Int, _ rows: Int) throws(ImageProblem) -> PostingIndex {
        var p = PostingIndex()
        p.starts = try array(starts)
        p.rows = try array(rows)
        return p
    }

    /// Decodes a dictionary section (count, then each string's length and bytes) once its hash is checked.
    func strings(_ i: Int, _ b: UnsafeRawBufferPointer, hash: UInt64) {
        guard SectionHash.of(b) == hash else { problems[i] = ImageProblem("its dictionary \(i) does not match its checksum: damaged"); return }
        var r = ByteReader(b)
        do throws(ImageProblem) {
            let n = try r.count(max: b.count)
            var out: [String] = []
            out.reserveCapacity(n)
            for _ in 0..<n { out.append(try r.string()) }
            guard r.atEnd else { throw ImageProblem("its dictionary \(i) has bytes after its end") }
            slots[i] = out
        } catch {
            problems[i] = error
        }
    }
}

/// The hash of a section: XXH64 of each 256 KB block, then XXH64 of the blocks' hashes.
/// Blocks small enough to stay in cache let a section be copied and checked in one pass.
enum SectionHash {
    static let blockBytes = 256 << 10

    static func of(_ b: UnsafeRawBufferPointer) -> UInt64 {
        var hashes: [UInt64] = []
        var at = 0
        while at < b.count {
            let n = min(blockBytes, b.count - at)
            hashes.append(ContentHash.xxh64(UnsafeRawBufferPointer(rebasing: b[at..<(at + n)]), seed: UInt64(hashes.count)))
            at += n
        }
        return hashes.withUnsafeBytes { ContentHash.xxh64($0, seed: UInt64(b.count)) }
    }

    /// Reads `count` bytes at `offset` of the file into `to` block by block, hashing each block
    /// where it landed; returns what `of` gives for those bytes, or nil when the file is short.
    static func read(_ fd: Int32, at offset: Int, count: Int, to: UnsafeMutableRawPointer?) -> UInt64? {
        var hashes: [UInt64] = []
        hashes.reserveCapacity(count / blockBytes + 1)
        var at = 0
        while at < count {
            let n = min(blockBytes, count - at)
            guard let to else { return nil }
            var got = 0
            while got < n {
                let r = pread(fd, to + at + got, n - got, off_t(offset + at + got))
                if r < 0 && errno == EINTR { continue }
                if r <= 0 { return nil }
                got += r
            }
            hashes.append(ContentHash.xxh64(UnsafeRawBufferPointer(start: to + at, count: n), seed: UInt64(hashes.count)))
            at += n
        }
        return hashes.withUnsafeBytes { ContentHash.xxh64($0, seed: UInt64(count)) }
    }

    /// Copies `b` to `to` block by block, hashing each block where it landed; returns `of(b)`.
    static func copy(_ b: UnsafeRawBufferPointer, to: UnsafeMutableRawPointer?) -> UInt64 {
        var hashes: [UInt64] = []
        hashes.reserveCapacity(b.count / blockBytes + 1)
        var at = 0
        while at < b.count {
            let n = min(blockBytes, b.count - at)
            guard let to, let from = b.baseAddress else { break }
            (to + at).copyMemory(from: from + at, byteCount: n)
            hashes.append(ContentHash.xxh64(UnsafeRawBufferPointer(start: to + at, count: n), seed: UInt64(hashes.count)))
            at += n
        }
        return hashes.withUnsafeBytes { ContentHash.xxh64($0, seed: UInt64(b.count)) }
    }
}

/// Advice to the kernel over the pages of a range.
enum Pages {
    /// `madvise` over the pages wholly inside the range, or (`wholePagesOnly` false) every page it touches.
    static func advise(_ start: UnsafeRawPointer?, _ count: Int, _ advice: Int32, wholePagesOnly: Bool) {
        guard let start, count > 0 else { return }
        let page = UInt(ReadRelease.page)
        let from = UInt(bitPattern: start), end = from + UInt(count)
        let lo = wholePagesOnly ? (from + page - 1) / page * page : from / page * page
        let hi = wholePagesOnly ? end / page * page : (end + page - 1) / page * page
        if hi > lo, let p = UnsafeMutableRawPointer(bitPattern: lo) { _ = madvise(p, Int(hi - lo), advice) }
    }
}

/// An array whose elements can be written out as they lie in memory.
protocol RawBytesHolder {
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R
}

// Only arrays of plain values (integers, `Currency`, `Bool`) are written this way.
extension Array: RawBytesHolder {
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R { withUnsafeBytes(body) }
}

struct SendableSections: @unchecked Sendable {
    let sections: [UnsafeRawBufferPointer]
    init(_ s: [UnsafeRawBufferPointer]) { sections = s }
}
