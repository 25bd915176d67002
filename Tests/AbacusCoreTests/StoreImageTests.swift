// The store image: the hash it is checked with, a round trip of every column,
// damage anywhere in the file detected (never trusted, never a crash), and the
// cache's choice between an image and the JSON.

@testable import AbacusCore
import Foundation
import Testing

enum ImageFixture {
    static let demo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples/demo.json").path

    static func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("abacus-image-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The image of the demo ledger, as bytes.
    static func demoImage() throws -> (ledger: Ledger, bytes: [UInt8]) {
        let ledger = try LedgerLoader.load(paths: [demo])
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/demo.img"
        let fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0o600)
        #expect(fd >= 0)
        let stamp = LedgerFileStamp(path: demo, size: 1, hash: 2)
        #expect(StoreImage.write(ledger, stamps: [stamp], version: "test", to: fd))
        close(fd)
        return (ledger, Array(try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    /// The ledger read back from image bytes, or the problem found: at open, or (`everything`)
    /// in any of the sections checked when first read.
    static func read(_ bytes: [UInt8], everything: Bool = true) -> Result<Ledger, ImageProblem> {
        bytes.withUnsafeBytes { raw in
            do throws(ImageProblem) {
                let dir = try StoreImage.directory(raw)
                let ledger = try StoreImage.ledger(ImageMemory(copying: raw), dir, files: ["demo.json"])
                if everything, let problem = ledger.entries.lateSections?.checkAll() { return .failure(problem) }
                return .success(ledger)
            } catch {
                return .failure(error)
            }
        }
    }

    /// Where section `s` lies in image bytes.
    static func section(_ s: StoreImage.S, of bytes: [UInt8]) throws -> Range<Int> {
        let dir = try bytes.withUnsafeBytes { raw throws(ImageProblem) in try StoreImage.directory(raw) }
        let (offset, length, _) = dir.sections[s.rawValue]
        return offset..<(offset + length)
    }
}

@Suite struct ContentHashTests {
    @Test func xxh64MatchesItsReferenceValues() {
        func h(_ s: String) -> UInt64 { Array(s.utf8).withUnsafeBytes { ContentHash.xxh64($0) } }
        #expect(h("") == 0xEF46_DB37_51D8_E999)
        #expect(h("a") == 0xD24E_C4F1_A98C_6E5B)
        #expect(h("abc") == 0x44BC_2CF5_AD77_0999)
    }

    /// Hashing a file through a small buffer gives what hashing its bytes at once gives,
    /// at every boundary: empty, a tail, whole stripes, several pieces.
    @Test(arguments: [0, 1, 31, 32, 33, 1 << 20, (1 << 20) + 5, ContentHash.pieceBytes, ContentHash.pieceBytes + 7, 2 * ContentHash.pieceBytes + 100])
    func hashingAFileEqualsHashingItsBytes(size: Int) throws {
        var bytes = [UInt8](repeating: 0, count: size)
        var x: UInt64 = 0x9E37_79B9_7F4A_7C15
        for i in bytes.indices { x = x &* 6_364_136_223_846_793_005 &+ 1; bytes[i] = UInt8(truncatingIfNeeded: x >> 56) }
        let dir = try ImageFixture.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/bytes"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        let direct = bytes.withUnsafeBytes { ContentHash.of($0) }
        #expect(ContentHash.ofFile(fd, size: size) == direct)
        #expect(LedgerLoader.contentHash(of: path) == direct)
        if size > 0 {
            bytes[size / 2] ^= 1
            #expect(bytes.withUnsafeBytes { ContentHash.of($0) } != direct)
        }
    }
}

@Suite struct StoreImageTests {
    @Test func everyColumnComesBackAsItWas() throws {
        let (ledger, bytes) = try ImageFixture.demoImage()
        let back = try ImageFixture.read(bytes).get()
        let a = ledger.entries, b = back.entries
        #expect(a.count == b.count && a.count > 0)
        #expect(a.day == b.day && a.amount == b.amount && a.amountScale == b.amountScale && a.currency == b.currency)
        #expect(a.book == b.book && a.category == b.category && a.party == b.party && a.payment == b.payment)
        #expect(a.remarks == b.remarks && a.isTransfer == b.isTransfer && a.entryID == b.entryID)
        #expect(a.tagStart == b.tagStart && a.tagCodes == b.tagCodes && a.bookedIndex == b.bookedIndex)
        #expect(a.booked.normalizedAmount == b.booked.normalizedAmount && a.booked.normalizedScale == b.booked.normalizedScale)
        #expect(a.booked.normalizedCurrency == b.booked.normalizedCurrency && a.booked.conversionRate == b.booked.conversionRate)
        #expect(a.booked.conversionRateScale == b.booked.conversionRateScale)
        #expect(a.booked.normalizedScales == b.booked.normalizedScales && a.booked.conversionRateScales == b.booked.conversionRateScales)
        #expect(a.categories == b.categories && a.parties == b.parties && a.payments == b.payments)
        #expect(a.tags == b.tags && a.remarkTexts == b.remarkTexts && a.currencies == b.currencies)
        #expect((0..<a.count).allSatisfy { a.id(at: $0) == b.id(at: $0) })
        for (x, y) in [(a.byCategory, b.byCategory), (a.byBook, b.byBook), (a.byCurrency, b.byCurrency)] {
            #expect(x.starts == y.starts && x.rows == y.rows)
        }
        #expect(ledger.defaultCurrency == back.defaultCurrency)
        #expect(ledger.books.map { "\($0)" } == back.books.map { "\($0)" })
        #expect(ledger.snapshots.map { "\($0.base)\($0.day)\($0.rates.sorted { $0.key < $1.key }.map { "\($0)" })\($0.order)" }
                == back.snapshots.map { "\($0.base)\($0.day)\($0.rates.sorted { $0.key < $1.key }.map { "\($0)" })\($0.order)" })
        #expect(ledger.pairs.map { "\($0)" } == back.pairs.map { "\($0)" })
        #expect(ledger.customRates.map { "\($0)" } == back.customRates.map { "\($0)" })
        #expect(ledger.budgets.map { "\($0)" } == back.budgets.map { "\($0)" })
        #expect(back.files == ["demo.json"])
    }

    /// One flipped bit anywhere — header, directory, a section, the padding between them — is
    /// found; nothing is ever read from a damaged image.
    @Test func aFlippedBitAnywhereIsFound() throws {
        let (_, bytes) = try ImageFixture.demoImage()
        var positions = Array(stride(from: 0, to: bytes.count, by: 61))
        positions += [bytes.count - 1, 8, 16, 24, 32, 63, 64]
        for i in positions {
            var damaged = bytes
            damaged[i] ^= 0x10
            guard case .failure = ImageFixture.read(damaged) else {
                Issue.record("a flipped bit at byte \(i) of \(bytes.count) was not found")
                return
            }
        }
    }

    /// An image whose checksums all match (written so) but whose values break what the query
    /// engine relies on is refused: the columns are read in place, so each value is checked.
    @Test(arguments: ["category code", "day order", "posting row", "currency", "amount", "tag code", "booked index"])
    func valuesOutOfRangeAreRefusedEvenWhenTheChecksumsMatch(_ damage: String) throws {
        var ledger = try LedgerLoader.load(paths: [ImageFixture.demo])
        var s = ledger.entries
        let last = s.count - 1
        func changed<T>(_ c: StoreColumn<T>, at i: Int, to v: T) -> StoreColumn<T> {
            var a = c.array
            a[i] = v
            return StoreColumn(a)
        }
        switch damage {
        case "category code": s.category = changed(s.category, at: last, to: UInt32(s.categories.count))
        case "day order": s.day = changed(s.day, at: last, to: s.day[0] - 1)
        case "posting row": s.byBook.rows = changed(s.byBook.rows, at: 0, to: UInt32(s.count))
        case "currency": s.currency = changed(s.currency, at: last, to: Currency(packed: 1))
        case "amount": s.amount = changed(s.amount, at: last, to: ExactDecimal.maxSignificand + 1)
        case "tag code": s.tagCodes = changed(s.tagCodes, at: 0, to: UInt32(s.tags.count))
        default: s.bookedIndex = changed(s.bookedIndex, at: last, to: Int32(s.booked.count))
        }
        ledger.entries = s
        let dir = try ImageFixture.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fd = open(dir + "/bad.img", O_RDWR | O_CREAT | O_TRUNC, 0o600)
        #expect(StoreImage.write(ledger, stamps: [LedgerFileStamp(path: ImageFixture.demo, size: 1, hash: 2)], version: "test", to: fd))
        close(fd)
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/bad.img")))
        switch ImageFixture.read(bytes) {
        case .success: Issue.record("an image with a bad \(damage) was used")
        case .failure(let problem): #expect(problem.description.contains("inconsistent"), "\(problem)")
        }
    }

    /// What reading one field of each group of late sections gives (something of each field).
    static func touch(_ group: LateSections.Group, _ s: EntryStore) -> String {
        switch group {
        case .ids: return "\(s.entryID.count) \(s.ids.count) \(s.id(at: s.count - 1))"
        case .parties: return "\(s.party.last ?? 0) \(s.parties)"
        case .payments: return "\(s.payment.last ?? 0) \(s.payments)"
        case .remarks: return "\(s.remarks.last ?? 0) \(s.remarkTexts.count)"
        case .tags: return "\(s.tags(at: s.count - 1)) \(s.tags)"
        case .categoryPostings: return "\(s.byCategory.rows(for: Int(s.category[0])).count)"
        case .bookPostings: return "\(s.byBook.rows(for: Int(s.book[0])).count)"
        case .currencyPostings: return "\(s.byCurrency.rows(for: Int(s.currency[0].packed)).count)"
        }
    }

    /// The sections most answers never read are checked when first read: damage there is not
    /// seen at open, nor by reading other fields; the first read of a field of its group finds
    /// it, and from then on the damaged fields are never read (stand-ins are, and counted).
    @Test(arguments: LateSections.Group.allCases.flatMap { g in g.sections.map { (g, $0) } })
    func aLateSectionIsCheckedWhenAFieldOfItsGroupIsFirstRead(_ group: LateSections.Group, _ section: StoreImage.S) throws {
        let (ledger, bytes) = try ImageFixture.demoImage()
        var damaged = bytes
        let range = try ImageFixture.section(section, of: bytes)
        damaged[range.lowerBound + range.count / 2] ^= 0x04
        let back = try ImageFixture.read(damaged, everything: false).get().entries
        let late = try #require(back.lateSections)
        #expect(back.day == ledger.entries.day && back.category == ledger.entries.category)
        for other in LateSections.Group.allCases where other != group {
            #expect(StoreImageTests.touch(other, back) == StoreImageTests.touch(other, ledger.entries))
        }
        #expect(late.problem == nil && late.standInReads == 0)
        let read = StoreImageTests.touch(group, back)
        #expect(late.standInReads > 0)
        #expect(read != StoreImageTests.touch(group, ledger.entries), "\(section): the damaged group was read")
        #expect(late.problem?.description.contains("damaged") == true, "\(String(describing: late.problem))")
        // The groups read before stay as they were.
        for other in LateSections.Group.allCases where other != group {
            #expect(StoreImageTests.touch(other, back) == StoreImageTests.touch(other, ledger.entries))
        }
    }

    /// An undamaged image's late groups read from several threads at once: each checked once,
    /// every thread reading the same fields as the JSON's.
    @Test func lateGroupsReadFromManyThreadsAtOnceAreTheJSONs() throws {
        let (ledger, bytes) = try ImageFixture.demoImage()
        let back = try ImageFixture.read(bytes, everything: false).get().entries
        let expected = LateSections.Group.allCases.map { StoreImageTests.touch($0, ledger.entries) }
        let results = (0..<8).map { _ in Slot<[String]>() }
        DispatchQueue.concurrentPerform(iterations: 8) { i in
            results[i].value = LateSections.Group.allCases.map { StoreImageTests.touch($0, back) }
        }
        #expect(results.allSatisfy { $0.value == expected })
        #expect(back.lateSections?.problem == nil && back.lateSections?.standInReads == 0)
    }

    /// A store from an image reads its columns where they lie in the image, not from copies.
    @Test func aStoreFromAnImageReadsItsColumnsInPlace() throws {
        let (ledger, bytes) = try ImageFixture.demoImage()
        let back = try ImageFixture.read(bytes).get().entries
        for owner in [back.day.owner, back.amount.owner, back.category.owner, back.tagCodes.owner, back.byCategory.rows.owner, back.ids.parts.arena.owner] {
            #expect(owner is ImageMemory)
        }
        #expect(ledger.entries.day.owner is ArrayOwner<Int32>)
    }

    @Test func anImageCutShortAtAnyLengthIsRefused() throws {
        let (_, bytes) = try ImageFixture.demoImage()
        for length in Array(stride(from: 0, to: bytes.count, by: 997)) + [bytes.count - 1] {
            guard case .failure = ImageFixture.read(Array(bytes.prefix(length))) else {
                Issue.record("an image cut to \(length) bytes was used")
                return
            }
        }
    }

    /// Random bytes behind a valid magic and format, and directories whose offsets point anywhere:
    /// refused, never a crash or a read out of bounds.
    @Test func hostileImagesAreRefusedWithoutCrashing() throws {
        let (_, bytes) = try ImageFixture.demoImage()
        var x: UInt64 = 42
        func next() -> UInt64 { x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407; return x >> 11 }
        for _ in 0..<200 {
            var hostile = bytes
            for _ in 0..<(1 + Int(next() % 8)) { hostile[Int(next() % UInt64(hostile.count))] = UInt8(truncatingIfNeeded: next()) }
            if case .success = ImageFixture.read(hostile) { Issue.record("a damaged image was used") }
        }
        var random = [UInt8](repeating: 0, count: 4096)
        for i in random.indices { random[i] = UInt8(truncatingIfNeeded: next()) }
        random.replaceSubrange(0..<12, with: Array("ABACUSIM".utf8) + [1, 0, 0, 0])
        if case .success = ImageFixture.read(random) { Issue.record("random bytes were used as an image") }
    }
}

@Suite struct StoreCacheTests {
    static func ledgerCopy() throws -> String {
        let path = try ImageFixture.folder() + "/ledger.json"
        try FileManager.default.copyItem(atPath: ImageFixture.demo, toPath: path)
        return path
    }

    @Test func theSecondLoadComesFromTheImageAndAnotherVersionsImageIsNotUsed() throws {
        let ledgerPath = try StoreCacheTests.ledgerCopy()
        let cache = StoreCache(folder: try ImageFixture.folder() + "/abacus", version: "0.0.1-test")
        var notes: [String] = []
        let cold = try cache.load(paths: [ledgerPath]) { notes.append($0) }
        let image = cache.imagePath(for: [LedgerLoader.canonicalPath(ledgerPath) ?? ""])
        #expect(FileManager.default.fileExists(atPath: image))
        let warm = try cache.load(paths: [ledgerPath]) { notes.append($0) }
        #expect(notes == [])
        #expect(warm.entries.amount == cold.entries.amount && warm.entries.day == cold.entries.day)
        // The same files, read by another version of Abacus: the JSON, with a note, and a new image.
        let other = StoreCache(folder: cache.folder, version: "0.0.2-test")
        let again = try other.load(paths: [ledgerPath]) { notes.append($0) }
        #expect(notes.count == 1 && notes[0].contains("written by Abacus 0.0.1-test, this is 0.0.2-test"), "\(notes)")
        #expect(again.entries.amount == cold.entries.amount)
        notes = []
        _ = try other.load(paths: [ledgerPath]) { notes.append($0) }
        #expect(notes == [])
    }

    /// Beyond the limit, the least recently used images go; the one just saved stays.
    @Test func theFolderKeepsOnlyTheMostRecentlyUsedImages() throws {
        var cache = StoreCache(folder: try ImageFixture.folder() + "/abacus", version: "test")
        cache.maxImages = 2
        var paths: [String] = []
        for _ in 0..<3 {
            let p = try StoreCacheTests.ledgerCopy()
            paths.append(p)
            _ = try cache.load(paths: [p]) { _ in }
            // Distinct modification times, a second apart.
            sleep(1)
        }
        let images = try FileManager.default.contentsOfDirectory(atPath: cache.folder).filter { $0.hasSuffix(".img") }
        #expect(images.count == 2)
        let newest = cache.imagePath(for: [LedgerLoader.canonicalPath(paths[2]) ?? ""])
        let oldest = cache.imagePath(for: [LedgerLoader.canonicalPath(paths[0]) ?? ""])
        #expect(FileManager.default.fileExists(atPath: newest))
        #expect(!FileManager.default.fileExists(atPath: oldest))
    }
}

@Suite struct LoadProgressTests {
    final class Lines: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [String] = []
        func add(_ s: String) { lock.lock(); items.append(s); lock.unlock() }
        var all: [String] { lock.lock(); defer { lock.unlock() }; return items }
    }

    /// The percentage of bytes read, redrawn on one line, and the line cleared at the end.
    @Test func progressShowsThePercentageReadAndClearsItsLine() throws {
        let lines = Lines()
        let progress = LoadProgress(totalBytes: 1000, label: "loading big.json", delay: 0) { lines.add($0) }
        progress.start()
        progress.main(300)
        progress.helper(120)
        var waited = 0
        while !lines.all.contains("\rloading big.json: 42%") && waited < 500 {
            usleep(10_000)
            waited += 1
        }
        progress.finish()
        #expect(lines.all.contains("\rloading big.json: 42%"), "\(lines.all)")
        #expect(lines.all.last == "\r\u{1B}[K")
    }

    /// A note written during a load (a store image not used) goes on a line of its own.
    @Test func aNoteClearsTheProgressLineFirst() {
        let lines = Lines()
        let progress = LoadProgress(totalBytes: 1000, label: "loading big.json", delay: 0) { lines.add($0) }
        progress.start()
        progress.main(500)
        var waited = 0
        while !lines.all.contains("\rloading big.json: 50%") && waited < 500 {
            usleep(10_000)
            waited += 1
        }
        progress.interject { lines.add("note\n") }
        progress.finish()
        let all = lines.all
        guard let note = all.firstIndex(of: "note\n") else { Issue.record("no note in \(all)"); return }
        #expect(note > 0 && all[note - 1] == "\r\u{1B}[K", "\(all)")
    }

    /// A load that ends within its second draws nothing at all.
    @Test func aQuickLoadShowsNothing() {
        let lines = Lines()
        let progress = LoadProgress(totalBytes: 1000, label: "loading small.json") { lines.add($0) }
        progress.start()
        progress.main(1000)
        progress.finish()
        #expect(lines.all.isEmpty)
    }
}

/// The default currency's rate column kept in the image: used only where it provably equals
/// the column that would be built, and then equal to it.
@Suite struct SavedRateColumnTests {
    /// Everything of a column that a query reads, as text.
    static func shown(_ c: RateColumn) -> [String] {
        ["\(c.target) \(c.valuation) \(String(describing: c.asOf)) \(c.missingPairs)", c.ids.array.description] + c.rates.map { "\($0)" }
    }

    static func built(_ l: Ledger, _ target: Currency, _ valuation: Valuation = .booked) -> RateColumn {
        RateColumn(ledger: l, resolver: RateResolver(ledger: l), target: target, valuation: valuation, today: Day(year: 2025, month: 12, day: 31))
    }

    @Test func theSavedColumnIsTheOneThatWouldBeBuilt() throws {
        let (ledger, bytes) = try ImageFixture.demoImage()
        let back = try ImageFixture.read(bytes).get()
        let saved = try #require(back.savedRateColumn)
        #expect(saved.target == ledger.defaultCurrency && saved.ids.count == ledger.entries.count)
        #expect(saved.ids.owner is ImageMemory, "the ids are read in place")
        // The demo ledger needs locked, custom and market rates into its currency, and misses none.
        #expect(saved.recipes.contains { $0.kind == .locked } && saved.recipes.contains { $0.kind == .resolve })
        let cache = RateColumnCache(ledger: back, resolver: RateResolver(ledger: back))
        let fromImage = try #require(cache.saved(ledger.defaultCurrency, .booked, today: Day(year: 2025, month: 12, day: 31)))
        let fresh = SavedRateColumnTests.built(ledger, ledger.defaultCurrency)
        #expect(SavedRateColumnTests.shown(fromImage) == SavedRateColumnTests.shown(fresh))
        #expect(fromImage.rates.count > 10)
        // The cache hands it out, for any today (a booked column does not depend on it).
        let other = cache.column(ledger.defaultCurrency, .booked, today: Day(year: 2020, month: 1, day: 1))
        #expect(other.ids.owner is ImageMemory)
    }

    /// Any change to what the column depends on drops it; other targets, valuations, age
    /// policies and session rates never take it.
    @Test(arguments: ["market snapshot", "market pair", "custom rate", "entries", "book", "default currency", "splits"])
    func aChangeToWhatTheColumnDependsOnDropsIt(_ change: String) throws {
        var back = try ImageFixture.read(try ImageFixture.demoImage().bytes).get()
        #expect(back.savedRateColumn != nil)
        let usd = try #require(Currency(code: "USD"))
        switch change {
        case "market snapshot":
            back.addMarketSnapshots([RateSnapshot(base: usd, day: Day(year: 2025, month: 3, day: 3) ?? Day(number: 0), rates: [back.defaultCurrency: ExactDecimal(significand: 90, scale: 0)],
                                                  source: "test", fetchedAt: nil, order: 0)])
        case "market pair": back.pairs.append(RatePair(from: usd, to: back.defaultCurrency, rate: ExactDecimal(significand: 91, scale: 0), day: nil, source: nil, order: 0))
        case "custom rate": back.customRates.append(RatePair(from: usd, to: back.defaultCurrency, rate: ExactDecimal(significand: 92, scale: 0), day: nil, source: nil, order: 0))
        case "entries": back.entries = EntryStore()
        case "book": back.books[0].lockedExchangeRate = ExactDecimal(significand: 93, scale: 0)
        case "default currency": back.defaultCurrency = usd
        default: back.splits = SplitTable()
        }
        #expect(back.savedRateColumn == nil, "\(change) kept the saved column")
    }

    @Test func onlyTheSameTargetValuationAgePolicyAndRatesTakeIt() throws {
        let back = try ImageFixture.read(try ImageFixture.demoImage().bytes).get()
        let inr = back.defaultCurrency, usd = try #require(Currency(code: "USD"))
        let today = Day(year: 2025, month: 12, day: 31)
        let plain = RateColumnCache(ledger: back, resolver: RateResolver(ledger: back))
        #expect(plain.saved(inr, .booked, today: today) != nil)
        #expect(plain.saved(usd, .booked, today: today) == nil)
        #expect(plain.saved(inr, .market, today: today) == nil)
        #expect(plain.saved(inr, .latest, today: today) == nil)
        var session = SessionRates()
        session.set(CurrencyPair(usd, inr), ExactDecimal(significand: 100, scale: 0))
        #expect(RateColumnCache(ledger: back, resolver: RateResolver(ledger: back, session: session)).saved(inr, .booked, today: today) == nil)
        let aged = RateColumnCache(ledger: back, resolver: RateResolver(ledger: back))
        aged.agePolicy = RateAgePolicy(maxAgeDays: 3)
        #expect(aged.saved(inr, .booked, today: today) == nil)
        // A resolver over another ledger (here: the same one with a rate added) never takes it.
        var more = back
        more.customRates.append(RatePair(from: usd, to: inr, rate: ExactDecimal(significand: 92, scale: 0), day: nil, source: nil, order: 0))
        #expect(RateColumnCache(ledger: back, resolver: RateResolver(ledger: more)).saved(inr, .booked, today: today) == nil)
        // And a column built under session rates differs from the saved one: what the checks guard against.
        let withSession = RateColumn(ledger: back, resolver: RateResolver(ledger: back, session: session), target: inr, valuation: .booked, today: today)
        #expect(SavedRateColumnTests.shown(withSession) != SavedRateColumnTests.shown(SavedRateColumnTests.built(back, inr)))
    }

    /// Recipes that do not make exactly what they record, in order, are refused.
    @Test func aReplayThatDoesNotMakeTheRecordedRatesIsRefused() throws {
        var back = try ImageFixture.read(try ImageFixture.demoImage().bytes).get()
        let saved = try #require(back.savedRateColumn)
        let today = Day(year: 2025, month: 12, day: 31)
        var cases: [[RateRecipe]] = []
        var doubled = saved.recipes
        doubled.insert(doubled[0], at: 1)
        cases.append(doubled)
        var flipped = saved.recipes
        if let i = flipped.firstIndex(where: { $0.kind == .resolve }) { flipped[i].madeMissing.toggle() }
        cases.append(flipped)
        var noBook = saved.recipes
        if let i = noBook.firstIndex(where: { $0.kind == .locked }) { noBook[i].value = back.books.count }
        cases.append(noBook)
        for recipes in cases {
            back.savedRateColumn = SavedRateColumn(target: saved.target, ids: saved.ids, recipes: recipes)
            #expect(RateColumnCache(ledger: back, resolver: RateResolver(ledger: back)).saved(saved.target, .booked, today: today) == nil)
        }
    }
}
