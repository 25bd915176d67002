// Reading the second half of a large entries array on another thread.
//
// JSON cannot be cut at an arbitrary byte: a guessed cut may fall inside a string.
// So the cut is a guess — the first `}` `,` `{` (blanks allowed between) after the
// middle of what is left — and the helper thread reads entries from there to the
// array's end into a builder of its own. The guess is trusted only when the main
// thread, reading from the start, finishes an entry exactly where the helper began
// (`FileParser.parseEntries`); then the helper's columns are appended to the main
// builder, their dictionary codes translated (`LedgerBuilder.merge`). A wrong guess,
// or an error met by the helper, costs only the helper's time: the main thread reads
// on alone and meets any error itself, with its exact place.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

final class EntrySplit: @unchecked Sendable {
    /// Offset of the `{` the helper starts at.
    let start: Int
    private let reader: JSONReader
    private let name: String
    private let cancelled = Atomic<Bool>(false)
    private let progress: LoadProgress?
    private let releasable: Bool
    private var thread: pthread_t?
    /// Written by the helper before it ends; read only after joining it.
    private var outcome: (builder: LedgerBuilder, end: Int)?

    /// Below this many bytes left, a second thread costs more than it saves.
    static let minimumBytes = 4 << 20

    private init(start: Int, reader: JSONReader, name: String, progress: LoadProgress?, releasable: Bool) {
        self.start = start
        self.progress = progress
        self.releasable = releasable
        self.reader = reader
        self.name = name
    }

    /// Starts a helper for the rest of the array `reader` is in (just past `[` or an
    /// element), or returns nil when what is left is small or no boundary is found.
    static func begin(_ reader: JSONReader, name: String, minimumBytes: Int = EntrySplit.minimumBytes,
                      progress: LoadProgress? = nil, releasable: Bool = false) -> EntrySplit? {
        let left = reader.count - reader.pos
        guard left >= minimumBytes, let cut = boundary(reader, from: reader.pos + left / 2) else { return nil }
        let split = EntrySplit(start: cut, reader: reader, name: name, progress: progress, releasable: releasable)
        guard split.spawn() else { return nil }
        return split
    }

    /// The offset of the `{` in the first `}` `,` `{` at or after `from`, looking a megabyte at most.
    static func boundary(_ r: JSONReader, from: Int) -> Int? {
        var i = from
        let end = min(r.count, from + (1 << 20))
        func blank(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 }
        while i < end {
            if r.base[i] == UInt8(ascii: "}") {
                var j = i + 1
                while j < end && blank(r.base[j]) { j += 1 }
                if j < end && r.base[j] == UInt8(ascii: ",") {
                    j += 1
                    while j < end && blank(r.base[j]) { j += 1 }
                    if j < end && r.base[j] == UInt8(ascii: "{") { return j }
                }
            }
            i += 1
        }
        return nil
    }

    private func spawn() -> Bool {
        // The reader recurses into nested values (512 levels at most): give it a main thread's stack.
        thread = startThread(stackBytes: 8 << 20) { [self] in outcome = read() }
        return thread != nil
    }

    /// The helper's work: entries from `start` to the end of the array.
    private func read() -> (builder: LedgerBuilder, end: Int)? {
        var builder = LedgerBuilder(parallel: false)
        builder.files = [name]
        builder.fileBytes = [UnsafeBufferPointer(start: reader.base, count: reader.count)]
        builder.fileFirstRow = [0]
        builder.reserveCapacity((reader.count - start) / 150)
        var parser = FileParser(reader: reader, fileIndex: 0)
        parser.reader.pos = start
        parser.section = "entries"
        parser.index = 0
        var first = true
        var release = ReadRelease(mapping: releasable ? reader.base : nil, from: start)
        do {
            while try parser.reader.nextElement(&first) {
                if parser.index & 0xFFF == 0 {
                    if cancelled.load(ordering: .relaxed) { return nil }
                    progress?.helper(parser.reader.pos - start)
                    release.upTo(parser.reader.pos)
                }
                parser.field = ""
                try parser.parseEntry(into: &builder)
                parser.index += 1
            }
        } catch {
            return nil
        }
        return (builder, parser.reader.pos)
    }

    /// Waits for the helper; its builder and the offset just past the array's `]`, or nil
    /// when it failed.
    func result() -> (builder: LedgerBuilder, end: Int)? {
        join()
        return outcome
    }

    /// Stops the helper (if it still runs) and waits for it.
    func abandon() {
        cancelled.store(true, ordering: .relaxed)
        join()
        outcome = nil
        progress?.helper(0)
    }

    private func join() {
        guard let t = thread else { return }
        thread = nil
        pthread_join(t, nil)
    }
}

extension LedgerBuilder {
    /// Appends the entries a helper read (`EntrySplit`) after this builder's own, turning its
    /// dictionary codes into this builder's. `firstIndex` is the helper's first entry's index
    /// in the file's entries array.
    mutating func merge(_ h: LedgerBuilder, fileIndex: Int, firstIndex: Int) {
        func translate(_ mine: inout ByteInterner, _ theirs: ByteInterner) -> [UInt32] {
            (0..<theirs.count).map { code in theirs.withBytes(UInt32(code)) { mine.intern($0).code } }
        }
        let categoryCode = translate(&categories, h.categories)
        let partyCode = translate(&parties, h.parties)
        let paymentCode = translate(&payments, h.payments)
        let tagCode = translate(&tags, h.tags)
        let remarkCode = translate(&remarkTexts, h.remarkTexts)
        var bookRefCodes = [UInt32](repeating: 0, count: h.bookRefs.count)
        for ref in 0..<h.bookRefs.count {
            let (code, isNew) = h.bookRefs.withBytes(UInt32(ref)) { bookRefs.intern($0) }
            bookRefCodes[ref] = code
            if isNew {
                let use = h.bookRefFirstUse[ref]
                bookRefFirstUse.append((fileIndex, firstIndex + use.index, use.offset))
            }
        }
        // Codes 0 of party, payment and remarks mean "none"; code c > 0 is dictionary entry c - 1.
        func optional(_ table: [UInt32]) -> @Sendable (UInt32) -> UInt32 { { $0 == 0 ? 0 : table[Int($0) - 1] + 1 } }
        let (translateParty, translatePayment, translateRemark) = (optional(partyCode), optional(paymentCode), optional(remarkCode))
        if h.hasAmounts {
            amountScales = hasAmounts ? min(amountScales.lowerBound, h.amountScales.lowerBound)...max(amountScales.upperBound, h.amountScales.upperBound) : h.amountScales
            hasAmounts = true
        }
        let bookRefCode = bookRefCodes
        pendingSplits.append(contentsOf: h.pendingSplits.map { ($0.row + day.count, $0.parts) })
        let tagBase = UInt32(tagCodes.count)
        let bookedBase = Int32(booked.count)
        // Each column is moved out (so it stays uniquely referenced and grows in place) and
        // extended by its own job.
        let (d, am, sc, cu, tr) = (Slot.moving(&day), Slot.moving(&amount), Slot.moving(&amountScale), Slot.moving(&currency), Slot.moving(&isTransfer))
        let (br, ca, pa, pm, re) = (Slot.moving(&bookRef), Slot.moving(&category), Slot.moving(&party), Slot.moving(&payment), Slot.moving(&remarks))
        let (ts, tc, bi) = (Slot.moving(&tagStart), Slot.moving(&tagCodes), Slot.moving(&bookedIndex))
        runConcurrently([
            { d.value?.append(contentsOf: h.day) },
            { am.value?.append(contentsOf: h.amount) },
            { sc.value?.append(contentsOf: h.amountScale) },
            { cu.value?.append(contentsOf: h.currency) },
            { tr.value?.append(contentsOf: h.isTransfer) },
            { br.value?.append(contentsOf: h.bookRef.lazy.map { bookRefCode[Int($0)] }) },
            { ca.value?.append(contentsOf: h.category.lazy.map { categoryCode[Int($0)] }) },
            { pa.value?.append(contentsOf: h.party.lazy.map(translateParty)) },
            { pm.value?.append(contentsOf: h.payment.lazy.map(translatePayment)) },
            { re.value?.append(contentsOf: h.remarks.lazy.map(translateRemark)) },
            { ts.value?.append(contentsOf: h.tagStart.dropFirst().lazy.map { $0 + tagBase }) },
            { tc.value?.append(contentsOf: h.tagCodes.lazy.map { tagCode[Int($0)] }) },
            { bi.value?.append(contentsOf: h.bookedIndex.lazy.map { $0 < 0 ? -1 : $0 + bookedBase }) },
        ])
        (day, amount, amountScale, currency, isTransfer) = (d.take(), am.take(), sc.take(), cu.take(), tr.take())
        (bookRef, category, party, payment, remarks) = (br.take(), ca.take(), pa.take(), pm.take(), re.take())
        (tagStart, tagCodes, bookedIndex) = (ts.take(), tc.take(), bi.take())
        booked.append(contentsOf: h.booked)
        ids.append(contentsOf: h.ids)
    }
}

// A builder crosses threads only whole (a helper's, handed back when it is done) or read
// by the jobs of `merge`; the file bytes it points at are never written.
extension LedgerBuilder: @unchecked Sendable {}
