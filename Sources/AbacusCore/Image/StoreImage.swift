// The binary image of a loaded ledger: every column, dictionary and posting list
// of the `EntryStore`, and the books, rates and budgets, laid out so that the next
// start reads each column where it lies in the mapped file (a `StoreColumn` over the
// mapping) instead of parsing JSON.
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
// else. So every read is bounds-checked against the mapping, and before any section
// is read its hash is checked and, in the same pass over each block, every value the
// query engine relies on (codes within their dictionaries, rows within the store,
// days in order, valid currencies and decimals): the sections every answer may read
// when the image is opened, the rest (entry ids, parties, payment modes, remarks,
// tags, posting lists) when first read (LateSections.swift). A failure at open is an
// `ImageProblem`, and the caller reads the JSON instead; a late one makes the session
// read the JSON and run the statement again. A section appended to the layout gets
// its own case in `check` (the switch over `S` is exhaustive).

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
    /// Raised whenever the layout below changes, or what its codes mean (6: canonically
    /// equivalent names share a code, `ByteInterner`).
    static let formatVersion: UInt32 = 6
    static let byteOrderMark: UInt32 = 0x0102_0304
    static let headerBytes = 64
    static let alignment = 64

    // MARK: Sections

    /// A section's bytes, borrowed from the array that holds them while the image is written.
    struct Section {
        var bytes: UnsafeRawBufferPointer
    }

    /// The store's arrays in section order. `body` sees their bytes only while they are alive.
    static func withSections<R>(_ s: EntryStore, dictionaries: [[UInt8]], rateIDs: StoreColumn<Int32>, _ body: ([UnsafeRawBufferPointer]) -> R) -> R {
        let ids = s.ids.parts
        let b = s.booked
        let holders: [any RawBytesHolder] = [
            s.day, s.amount, s.currency, s.book, s.category, s.party, s.payment, s.remarks, s.isTransfer, s.entryID,
            s.tagStart, s.tagCodes, s.bookedIndex,
            b.normalizedAmount, b.normalizedScale, b.normalizedCurrency, b.conversionRate, b.conversionRateScale,
            ids.arena, ids.starts,
            s.byCategory.starts, s.byCategory.rows, s.byBook.starts, s.byBook.rows, s.byCurrency.starts, s.byCurrency.rows,
            rateIDs,
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
        /// The default currency's rate column (SavedRateColumn.swift).
        case rateIDs
        case categories, parties, payments, tags, remarkTexts

        static let dictionaries: Set<S> = [.categories, .parties, .payments, .tags, .remarkTexts]
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
        let rateColumn = SavedRateColumn.building(ledger)
        return withSections(s, dictionaries: dictionaries, rateIDs: rateColumn.ids) { sections in
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
                encodeSmall(ledger, rateColumn: rateColumn, into: &w)
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

    /// What each section's values are checked against: the sizes of the dictionaries (read from
    /// each dictionary section's start, and confirmed when the dictionary itself is read), the
    /// rows, books, booked rows, entry ids and the rate ids a row may hold.
    struct Limits: Sendable {
        var rows = 0, books = 0, booked = 0, idCount = 0
        var categories = 0, parties = 0, payments = 0, tags = 0, remarks = 0
        var lowestRate: Int32 = 0, rateLimit: Int32 = 0
    }

    /// The sections checked when first read (LateSections.swift); all others are checked at open.
    static let late = Set(LateSections.Group.allCases.flatMap(\.sections))

    /// The ledger in the image `memory` holds, whose directory was read as `dir` and whose key
    /// the caller has checked. The store's columns are read where they lie in `memory` (which
    /// they keep alive), not copied: before any of it is used, each section's hash is checked
    /// and every value the query engine relies on (codes within their dictionaries, rows within
    /// the store, days in order, valid currencies and decimals), in one pass over each section.
    /// The sections most answers never read (`late`) are checked so when first read; the rest
    /// here. `contents` is the hashing of the ledger files, which the store's `LateSections`
    /// keep for the shell to wait for; `imagePath` names the file in the note when a late check fails.
    static func ledger(_ memory: ImageMemory, _ dir: Directory, files: [String], imagePath: String = "",
                       contents: ContentCheck? = nil) throws(ImageProblem) -> Ledger {
        let image = memory.bytes
        guard let base = image.baseAddress else { throw ImageProblem("empty") }
        var r = dir.reader
        var small = try decodeSmall(&r)
        guard r.atEnd else { throw ImageProblem("its directory has bytes after its end") }
        small.ledger.files = files
        let sections = dir.sections
        let start = SendableRaw(base)
        func bytes(_ s: S) -> UnsafeRawBufferPointer {
            UnsafeRawBufferPointer(start: start.pointer + sections[s.rawValue].offset, count: sections[s.rawValue].length)
        }
        // The columns' codes are checked against the sizes of their dictionaries, which each
        // dictionary's section starts with; the dictionaries themselves are read (and those
        // sizes confirmed) among the other jobs.
        func size(_ s: S) throws(ImageProblem) -> Int {
            let b = bytes(s)
            guard b.count >= 8 else { throw ImageProblem("its dictionary \(s) is cut short: damaged") }
            return Int(truncatingIfNeeded: UInt64(littleEndian: b.loadUnaligned(as: UInt64.self)))
        }
        var st = EntryStore()
        let n = small.count
        var limits = Limits()
        limits.rows = n
        limits.books = small.ledger.books.count
        limits.booked = sections[S.normalizedCurrency.rawValue].length / MemoryLayout<Currency>.stride
        limits.idCount = sections[S.idStarts.rawValue].length / MemoryLayout<Int>.stride - 1
        (limits.categories, limits.parties, limits.payments, limits.tags, limits.remarks) =
            (try size(.categories), try size(.parties), try size(.payments), try size(.tags), try size(.remarkTexts))
        guard small.recipes.count < 1 << 30 else { throw ImageProblem("its rate column is inconsistent: damaged") }
        let rateCounts = SavedRateColumn(target: small.rateTarget, ids: [], recipes: small.recipes).counts
        limits.lowestRate = Int32(RateColumn.missingBase) - Int32(rateCounts.missing) + 1
        limits.rateLimit = Int32(rateCounts.rates)

        // The sections checked now: hash and values, side by side, with the other jobs, largest first.
        let now = S.allCases.filter { !late.contains($0) }.sorted { sections[$0.rawValue].length > sections[$1.rawValue].length }
        let problems = UnsafeMutableBufferPointer<ImageProblem?>.allocate(capacity: S.allCases.count)
        problems.initialize(repeating: nil)
        defer { _ = problems.deinitialize(); problems.deallocate() }
        let out = SendablePointer(problems.baseAddress!)
        let read = S.allCases.map { _ in Slot<[String]>() }
        let fixed = limits
        DispatchQueue.concurrentPerform(iterations: now.count) { job in
            let s = now[job]
            let b = UnsafeRawBufferPointer(start: start.pointer + sections[s.rawValue].offset, count: sections[s.rawValue].length)
            out.pointer[s.rawValue] = check(s, b, hash: sections[s.rawValue].hash, fixed, dictionary: read[s.rawValue])
        }
        if let problem = problems.first(where: { $0 != nil }) ?? nil { throw problem }
        st.categories = read[S.categories.rawValue].take()
        guard st.categories.count == limits.categories else { throw ImageProblem("its dictionaries are inconsistent: damaged") }

        // Every section holds what it should: the columns, where they lie.
        st.setCount(n)
        st.amountScale = small.amountScale
        st.day = column(.day, memory, sections)
        st.amount = column(.amount, memory, sections)
        st.currency = column(.currency, memory, sections)
        st.book = column(.book, memory, sections)
        st.category = column(.category, memory, sections)
        // Each byte is 0 or 1 (checked above): a `Bool`'s representation.
        st.isTransfer = column(.isTransfer, memory, sections)
        st.bookedIndex = column(.bookedIndex, memory, sections)
        st.booked.normalizedAmount = column(.normalizedAmount, memory, sections).array
        st.booked.normalizedScale = column(.normalizedScale, memory, sections).array
        st.booked.normalizedCurrency = column(.normalizedCurrency, memory, sections).array
        st.booked.conversionRate = column(.conversionRate, memory, sections).array
        st.booked.conversionRateScale = column(.conversionRateScale, memory, sections).array
        st.booked.normalizedScales = small.normalizedScales
        st.booked.conversionRateScales = small.conversionRateScales
        st.currencies = small.currencies
        try validate(st)
        let rateIDs: StoreColumn<Int32> = column(.rateIDs, memory, sections)
        guard rateIDs.count == n else { throw ImageProblem("its rate column is inconsistent: damaged") }
        // The rest, when first read.
        // The image's head (its directory: what it was made from, and each section's place and
        // hash), kept to tell later whether the mapping still shows this image.
        let head = Array(image.prefix(StoreImage.headBytes))
        st.lateSections = LateSections(imagePath: imagePath, rows: n, categories: limits.categories, books: limits.books, contents: contents,
                                       stillThisImage: {
            guard let now = memory.bytes.baseAddress, memory.bytes.count >= head.count else { return false }
            return head.withUnsafeBytes { kept in kept.baseAddress.map { memcmp(now, $0, head.count) == 0 } ?? true }
        }) { group in
            lateGroup(group, memory, sections, fixed)
        }
        st.lateFields = .all
        small.ledger.entries = st
        // Last: setting anything else of the ledger drops it.
        small.ledger.savedRateColumn = SavedRateColumn(target: small.rateTarget, ids: rateIDs, recipes: small.recipes)
        return small.ledger
    }

    /// How much of an image's start `LateSections` compares after each statement: the directory
    /// of any image Abacus writes, and more (a rewrite in place changes it).
    static let headBytes = 64 * 1024

    /// Section `s` of `memory` as a column, where it lies.
    static func column<T>(_ s: S, _ memory: ImageMemory, _ sections: [(offset: Int, length: Int, hash: UInt64)], _: T.Type = T.self) -> StoreColumn<T> {
        let count = sections[s.rawValue].length / MemoryLayout<T>.stride
        let p = memory.bytes.baseAddress.unsafelyUnwrapped + sections[s.rawValue].offset
        return StoreColumn(p.bindMemory(to: T.self, capacity: count), count: count, owner: memory)
    }

    /// Checks section `s` (its hash, and its values against `limits`); a dictionary's strings go to `dictionary`.
    static func check(_ s: S, _ b: UnsafeRawBufferPointer, hash: UInt64, _ limits: Limits, dictionary: Slot<[String]>) -> ImageProblem? {
        let maxAmount = ExactDecimal.maxSignificand.magnitude
        switch s {
        case .day:
            var last = Int32.min
            return verify(s, b, hash: hash, as: Int32.self) { ascending($0, &last) && $0.allSatisfy(StoreImage.days.contains) }
        case .amount, .normalizedAmount, .conversionRate:
            return verify(s, b, hash: hash, as: Int128.self) { $0.allSatisfy { $0.magnitude <= maxAmount } }
        case .currency, .normalizedCurrency:
            // Each value noted, then each distinct one looked up once (a lookup per row cost more).
            let seen = UnsafeMutableBufferPointer<Bool>.allocate(capacity: 1 << 16)
            seen.initialize(repeating: false)
            defer { seen.deallocate() }
            return verify(s, b, hash: hash, as: Currency.self) { block in
                for c in block { seen[Int(c.packed)] = true }
                return true
            } ?? (seen.indices.allSatisfy { !seen[$0] || Currency(packed: UInt16($0)).isISO } ? nil : ImageProblem("its \(s) column is inconsistent: damaged"))
        case .book: return verify(s, b, hash: hash, as: UInt32.self) { below($0, limits.books) }
        case .category: return verify(s, b, hash: hash, as: UInt32.self) { below($0, limits.categories) }
        case .party: return verify(s, b, hash: hash, as: UInt32.self) { below($0, limits.parties) }
        case .payment: return verify(s, b, hash: hash, as: UInt32.self) { below($0, limits.payments) }
        case .remarks: return verify(s, b, hash: hash, as: UInt32.self) { below($0, limits.remarks) }
        case .entryID: return verify(s, b, hash: hash, as: UInt32.self) { below($0, limits.idCount) }
        case .tagCodes: return verify(s, b, hash: hash, as: UInt32.self) { below($0, limits.tags) }
        case .categoryRows, .bookRows, .currencyRows: return verify(s, b, hash: hash, as: UInt32.self) { below($0, limits.rows) }
        case .tagStart, .categoryStarts, .bookStarts, .currencyStarts:
            var last = UInt32.min
            return verify(s, b, hash: hash, as: UInt32.self) { ascending($0, &last) }
        case .idStarts:
            var last = Int.min
            return verify(s, b, hash: hash, as: Int.self) { ascending($0, &last) }
        case .isTransfer: return verify(s, b, hash: hash, as: UInt8.self) { below($0, 2) }
        case .idArena: return verify(s, b, hash: hash, as: UInt8.self) { _ in true }
        case .rateIDs: return verify(s, b, hash: hash, as: Int32.self) { within($0, limits.lowestRate, limits.rateLimit) }
        case .bookedIndex: return verify(s, b, hash: hash, as: Int32.self) { $0.allSatisfy { $0 >= -1 && Int($0) < limits.booked } }
        case .normalizedScale, .conversionRateScale:
            let scales = -1...Int8(ExactDecimal.maxScale)
            return verify(s, b, hash: hash, as: Int8.self) { $0.allSatisfy(scales.contains) }
        case .categories, .parties, .payments, .tags, .remarkTexts:
            do throws(ImageProblem) {
                dictionary.value = try StoreImage.dictionary(b, hash: hash, s)
                return nil
            } catch {
                return error
            }
        }
    }

    /// A group of late sections checked (each section, then what the engine relies on across
    /// them): a store holding that group's fields, where they lie in `memory`.
    static func lateGroup(_ group: LateSections.Group, _ memory: ImageMemory, _ sections: [(offset: Int, length: Int, hash: UInt64)],
                          _ limits: Limits) -> Result<EntryStore, ImageProblem> {
        let list = group.sections
        let problems = list.map { _ in Slot<ImageProblem>() }
        let read = list.map { _ in Slot<[String]>() }
        let base = SendableRaw(memory.bytes.baseAddress.unsafelyUnwrapped)
        DispatchQueue.concurrentPerform(iterations: list.count) { i in
            let (offset, length, hash) = sections[list[i].rawValue]
            problems[i].value = check(list[i], UnsafeRawBufferPointer(start: base.pointer + offset, count: length), hash: hash, limits, dictionary: read[i])
        }
        if let problem = problems.lazy.compactMap(\.value).first { return .failure(problem) }
        func words(_ s: S) -> [String] { list.firstIndex(of: s).flatMap { read[$0].value } ?? [] }
        func codes(_ s: S) -> StoreColumn<UInt32> { column(s, memory, sections) }
        let n = limits.rows
        var st = EntryStore()
        func named(_ names: [String], _ size: Int, _ codes: StoreColumn<UInt32>) -> Bool {
            names.count == size && !names.isEmpty && codes.count == n
        }
        func postings(_ starts: S, _ rows: S, codes: Int) -> PostingIndex? {
            let index = PostingIndex(starts: column(starts, memory, sections), rows: column(rows, memory, sections))
            let fits = index.starts.count == codes + 1 && index.starts.first == 0 && Int(index.starts.last ?? 1) == n && index.rows.count == n
            return fits ? index : nil
        }
        let fits: Bool
        switch group {
        case .ids:
            let starts: StoreColumn<Int> = column(.idStarts, memory, sections), arena: StoreColumn<UInt8> = column(.idArena, memory, sections)
            st.entryID = codes(.entryID)
            st.ids = IDColumn(arena: arena, starts: starts)
            fits = starts.first == 0 && starts.last == arena.count && st.entryID.count == n
        case .parties:
            (st.party, st.parties) = (codes(.party), words(.parties))
            fits = named(st.parties, limits.parties, st.party)
        case .payments:
            (st.payment, st.payments) = (codes(.payment), words(.payments))
            fits = named(st.payments, limits.payments, st.payment)
        case .remarks:
            (st.remarks, st.remarkTexts) = (codes(.remarks), words(.remarkTexts))
            fits = named(st.remarkTexts, limits.remarks, st.remarks)
        case .tags:
            (st.tagStart, st.tagCodes, st.tags) = (codes(.tagStart), codes(.tagCodes), words(.tags))
            fits = st.tags.count == limits.tags && st.tagStart.count == n + 1 && st.tagStart.first == 0
                && Int(st.tagStart.last ?? 1) == st.tagCodes.count
        case .categoryPostings:
            fits = postings(.categoryStarts, .categoryRows, codes: limits.categories).map { st.byCategory = $0 } != nil
        case .bookPostings:
            fits = postings(.bookStarts, .bookRows, codes: limits.books).map { st.byBook = $0 } != nil
        case .currencyPostings:
            fits = postings(.currencyStarts, .currencyRows, codes: 26 * 26 * 26 + 1).map { st.byCurrency = $0 } != nil
        }
        return fits ? .success(st) : .failure(ImageProblem("its \(group) are inconsistent: damaged"))
    }

    /// Checks section `s` against its hash and its values against `check`, block by block,
    /// each block checked while it is in cache. `check` sees the blocks in order.
    static func verify<T>(_ s: S, _ b: UnsafeRawBufferPointer, hash: UInt64, as: T.Type,
                          _ check: (UnsafeBufferPointer<T>) -> Bool) -> ImageProblem? {
        let stride = MemoryLayout<T>.stride
        guard b.count % stride == 0 else { return ImageProblem("its section \(s) is not a whole number of elements: damaged") }
        // A large section's pages mapped in one call, not by a fault every few pages.
        if b.count >= 1 << 20 { Pages.advise(b.baseAddress, b.count, 22 /* MADV_POPULATE_READ */, wholePagesOnly: false) }
        var fits = true
        let got = SectionHash.of(b) { block in
            if fits { fits = check(UnsafeBufferPointer(start: block.baseAddress?.assumingMemoryBound(to: T.self), count: block.count / stride)) }
        }
        guard got == hash else { return ImageProblem("its section \(s) does not match its checksum: damaged") }
        guard fits else { return ImageProblem("its \(s) column is inconsistent: damaged") }
        return nil
    }

    @inline(__always)
    static func below<T: BinaryInteger>(_ b: UnsafeBufferPointer<T>, _ limit: Int) -> Bool {
        var worst: T = 0
        for x in b { worst = max(worst, x) }
        return b.isEmpty || Int(worst) < limit
    }

    /// Whether every element of `b` lies in `lo..<hi`.
    @inline(__always)
    static func within(_ b: UnsafeBufferPointer<Int32>, _ lo: Int32, _ hi: Int32) -> Bool {
        var least = Int32.max, most = Int32.min
        for x in b { least = min(least, x); most = max(most, x) }
        return b.isEmpty || (least >= lo && most < hi)
    }

    /// Whether `b` is ascending and starts at or after `last`; `last` becomes its last element.
    @inline(__always)
    static func ascending<T: FixedWidthInteger>(_ b: UnsafeBufferPointer<T>, _ last: inout T) -> Bool {
        guard let first = b.first, first >= last else { return b.isEmpty }
        var ok = true
        for i in 1..<b.count { ok = ok && b[i] >= b[i - 1] }
        last = b[b.count - 1]
        return ok
    }

    /// A dictionary section (count, then each string's length and bytes), once its hash is checked.
    static func dictionary(_ b: UnsafeRawBufferPointer, hash: UInt64, _ s: S) throws(ImageProblem) -> [String] {
        guard SectionHash.of(b) == hash else { throw ImageProblem("its dictionary \(s) does not match its checksum: damaged") }
        var r = ByteReader(b)
        let n = try r.count(max: b.count)
        var out: [String] = []
        out.reserveCapacity(n)
        for _ in 0..<n { out.append(try r.string()) }
        guard r.atEnd else { throw ImageProblem("its dictionary \(s) has bytes after its end") }
        return out
    }

    /// What the query engine relies on across the columns checked at open (the values of each
    /// column were checked with its hash; the late groups are checked in `lateGroup`).
    static func validate(_ s: EntryStore) throws(ImageProblem) {
        let n = s.count
        let b = s.booked
        let m = b.normalizedCurrency.count
        let checks: [(String, Bool)] = [
            ("column lengths", [s.day.count, s.amount.count, s.currency.count, s.book.count, s.category.count, s.isTransfer.count,
                                s.bookedIndex.count].allSatisfy { $0 == n }
                && (0...ExactDecimal.maxScale).contains(s.amountScale)),
            ("currencies", s.currencies.allSatisfy { $0.isISO } && zip(s.currencies, s.currencies.dropFirst()).allSatisfy { $0.packed < $1.packed }),
            ("booked columns", b.normalizedAmount.count == m && b.normalizedScale.count == m && b.conversionRate.count == m
                && b.conversionRateScale.count == m && (b.normalizedScales + b.conversionRateScales).allSatisfy { (0...ExactDecimal.maxScale).contains($0) }),
        ]
        if let failed = checks.first(where: { !$0.1 }) { throw ImageProblem("its \(failed.0) are inconsistent: damaged") }
    }

    /// The days a ledger date can name (years 1 to 9999).
    static let days: ClosedRange<Int32> = (Day(year: 1, month: 1, day: 1)?.number ?? 0)...(Day(year: 9999, month: 12, day: 31)?.number ?? 0)
}

/// The memory an image is read from, kept alive by the columns read in place from it: a
/// mapping of the image file, or (in tests) a copy of its bytes.
final class ImageMemory: ColumnOwner, @unchecked Sendable {
    let bytes: UnsafeRawBufferPointer
    private let mapped: Bool

    /// The file `fd` of `size` bytes, mapped read-only. While it is mapped, a file cut short by
    /// another program would make its lost pages fault: `ShrinkGuard.lasting` turns that into a
    /// clear message (Abacus itself replaces images whole, never in place).
    init?(mapping fd: Int32, size: Int) {
        guard let p = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), p != MAP_FAILED else { return nil }
        bytes = UnsafeRawBufferPointer(start: p, count: size)
        mapped = true
        ShrinkGuard.lasting()
    }

    /// A copy of `b`, aligned as a mapping is.
    init(copying b: UnsafeRawBufferPointer) {
        let p = UnsafeMutableRawPointer.allocate(byteCount: max(1, b.count), alignment: StoreImage.alignment)
        if let from = b.baseAddress { p.copyMemory(from: from, byteCount: b.count) }
        bytes = UnsafeRawBufferPointer(start: p, count: b.count)
        mapped = false
    }

    deinit {
        guard let p = bytes.baseAddress else { return }
        if mapped { munmap(UnsafeMutableRawPointer(mutating: p), bytes.count) } else { UnsafeMutableRawPointer(mutating: p).deallocate() }
    }
}
/// The hash of a section: XXH64 of each 256 KB block, then XXH64 of the blocks' hashes.
/// Blocks small enough to stay in cache let a section be hashed and its values checked in one pass.
enum SectionHash {
    static let blockBytes = 256 << 10

    /// The hash of `b`; `visit` sees each block, in order, once it is hashed.
    static func of(_ b: UnsafeRawBufferPointer, visit: (UnsafeRawBufferPointer) -> Void = { _ in }) -> UInt64 {
        var hashes: [UInt64] = []
        hashes.reserveCapacity(b.count / blockBytes + 1)
        var at = 0
        while at < b.count {
            let n = min(blockBytes, b.count - at)
            let block = UnsafeRawBufferPointer(rebasing: b[at..<(at + n)])
            hashes.append(ContentHash.xxh64(block, seed: UInt64(hashes.count)))
            visit(block)
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

extension StoreColumn: RawBytesHolder {
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R { withUnsafeBytes(body) }
}

struct SendableSections: @unchecked Sendable {
    let sections: [UnsafeRawBufferPointer]
    init(_ s: [UnsafeRawBufferPointer]) { sections = s }
}
