// Entry ids, in load order.
//
// Ids are written once and read only to show an entry or to check that no two
// entries share one. A hash table checked on every insert costs a cache miss per
// entry (a million ids make a table far larger than any cache); here each id's
// bytes go to an arena and a 64-bit hash of them to a column, both written
// sequentially, and uniqueness is checked once, after loading, bucket by bucket
// (hashes spread by their top bits, each bucket small enough to check in cache).
// Equal hashes are only a suspicion: the caller confirms a duplicate by comparing
// the bytes.

public struct IDColumn: Sendable {
    /// All ids' bytes, back to back.
    private var arena: [UInt8] = []
    /// Start of id `i` in `arena`; id `i` ends where id `i + 1` starts.
    private var starts: [Int] = [0]
    /// FNV-1a hash of each id's bytes.
    private(set) var hashes: [UInt64] = []
    /// The arena and starts as a store image holds them, read in place (nil for ids loaded
    /// from JSON). The hashes are needed only while loading.
    private var image: (arena: StoreColumn<UInt8>, starts: StoreColumn<Int>)?

    public init() {}

    public var count: Int { (image?.starts.count ?? starts.count) - 1 }

    init(arena: StoreColumn<UInt8>, starts: StoreColumn<Int>) {
        image = (arena, starts)
    }

    /// The arena and the starts, for a store image.
    var parts: (arena: StoreColumn<UInt8>, starts: StoreColumn<Int>) { image ?? (StoreColumn(arena), StoreColumn(starts)) }

    /// Ids read from an image made appendable (never in practice: images are whole ledgers).
    private mutating func own() {
        guard let image else { return }
        arena = image.arena.array
        starts = image.starts.array
        hashes = arena.withUnsafeBufferPointer { a in
            (0..<(starts.count - 1)).map { IDColumn.hash(UnsafeBufferPointer(rebasing: a[starts[$0]..<starts[$0 + 1]])) }
        }
        self.image = nil
    }

    /// Frees the hashes once uniqueness is checked (8 bytes an entry).
    mutating func dropHashes() { hashes = [] }

    mutating func reserveCapacity(_ n: Int) {
        arena.reserveCapacity(n * 10)
        starts.reserveCapacity(n + 1)
        hashes.reserveCapacity(n)
    }

    /// FNV-1a of the bytes; past ASCII, the hash of the text, so that canonically equivalent
    /// ids (`"Caf\u00e9"`, `"Cafe\u0301"`) are suspected too and the careful reading, which
    /// keys ids by their text (`ByteInterner`), refuses them as one id.
    @inline(__always)
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        var high: UInt8 = 0
        for b in bytes {
            h = (h ^ UInt64(b)) &* 0x100_0000_01b3
            high |= b
        }
        guard high >= 0x80 else { return h }
        var hasher = Hasher()
        hasher.combine(String(decoding: bytes, as: UTF8.self))
        return UInt64(bitPattern: Int64(hasher.finalize()))
    }

    @inline(__always)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        own()
        arena.append(contentsOf: bytes)
        starts.append(arena.count)
        hashes.append(IDColumn.hash(bytes))
    }

    mutating func append(contentsOf other: IDColumn) {
        own()
        var other = other
        other.own()
        let base = arena.count
        arena.append(contentsOf: other.arena)
        starts.append(contentsOf: other.starts.dropFirst().lazy.map { $0 + base })
        hashes.append(contentsOf: other.hashes)
    }

    public func string(_ i: UInt32) -> String {
        if let image {
            let a = image.starts[Int(i)], b = image.starts[Int(i) + 1]
            return image.arena.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[a..<b]), as: UTF8.self) }
        }
        let a = starts[Int(i)], b = starts[Int(i) + 1]
        return arena.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[a..<b]), as: UTF8.self) }
    }

    /// True when two ids have the same hash (very likely the same bytes). The hashes are
    /// spread into 2048 buckets by their top bits in one pass; each bucket (a few hundred
    /// hashes, in cache) is then checked with a small open-addressing set.
    func mayHaveDuplicates() -> Bool {
        let n = hashes.count
        guard n > 1 else { return false }
        let bits = 11
        var starts = [Int](repeating: 0, count: (1 << bits) + 1)
        for h in hashes { starts[Int(h >> UInt64(64 - bits)) + 1] += 1 }
        for i in 1..<starts.count { starts[i] += starts[i - 1] }
        var spread = [UInt64](repeating: 0, count: n)
        var next = starts
        for h in hashes {
            let b = Int(h >> UInt64(64 - bits))
            spread[next[b]] = h
            next[b] += 1
        }
        var table: [UInt64] = []
        var used: [Bool] = []
        for b in 0..<(1 << bits) {
            let lo = starts[b], hi = starts[b + 1]
            guard hi - lo > 1 else { continue }
            var size = 16
            while size < 2 * (hi - lo) { size <<= 1 }
            if table.count < size { table = [UInt64](repeating: 0, count: size); used = [Bool](repeating: false, count: size) }
            for i in 0..<size { used[i] = false }
            let mask = size - 1
            for k in lo..<hi {
                let h = spread[k]
                var i = Int(truncatingIfNeeded: h) & mask
                while used[i] {
                    if table[i] == h { return true }
                    i = (i + 1) & mask
                }
                used[i] = true
                table[i] = h
            }
        }
        return false
    }
}
