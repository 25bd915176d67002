// Entry ids, in load order.
//
// Ids are written once and read only to show an entry or to check that no two
// entries share one. A hash table checked on every insert costs a cache miss per
// entry (a million ids make a table far larger than any cache); here each id's
// bytes go to an arena and a 64-bit hash of them to a column, both written
// sequentially, and uniqueness is checked once, after loading, by sorting the
// hashes (a radix sort: a few sequential passes). Equal hashes are only a
// suspicion: the caller confirms a duplicate by comparing the bytes.

public struct IDColumn: Sendable {
    /// All ids' bytes, back to back.
    private var arena: [UInt8] = []
    /// Start of id `i` in `arena`; id `i` ends where id `i + 1` starts.
    private var starts: [Int] = [0]
    /// FNV-1a hash of each id's bytes.
    private(set) var hashes: [UInt64] = []

    public init() {}

    public var count: Int { hashes.count }

    mutating func reserveCapacity(_ n: Int) {
        arena.reserveCapacity(n * 10)
        starts.reserveCapacity(n + 1)
        hashes.reserveCapacity(n)
    }

    @inline(__always)
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return h
    }

    @inline(__always)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        arena.append(contentsOf: bytes)
        starts.append(arena.count)
        hashes.append(IDColumn.hash(bytes))
    }

    mutating func append(contentsOf other: IDColumn) {
        let base = arena.count
        arena.append(contentsOf: other.arena)
        starts.append(contentsOf: other.starts.dropFirst().lazy.map { $0 + base })
        hashes.append(contentsOf: other.hashes)
    }

    public func string(_ i: UInt32) -> String {
        let a = starts[Int(i)], b = starts[Int(i) + 1]
        return arena.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[a..<b]), as: UTF8.self) }
    }

    /// True when two ids have the same hash (very likely the same bytes).
    func mayHaveDuplicates() -> Bool {
        let sorted = IDColumn.radixSorted(hashes)
        for i in sorted.indices.dropFirst() where sorted[i] == sorted[i - 1] { return true }
        return false
    }

    /// The values in ascending order: least significant digit first, 16 bits per pass.
    static func radixSorted(_ values: [UInt64]) -> [UInt64] {
        guard values.count > 1 else { return values }
        var a = values
        var b = [UInt64](repeating: 0, count: values.count)
        var counts = [Int](repeating: 0, count: 1 << 16)
        for pass in 0..<4 {
            let shift = UInt64(pass * 16)
            for i in counts.indices { counts[i] = 0 }
            for v in a { counts[Int((v >> shift) & 0xFFFF)] += 1 }
            var sum = 0
            for i in counts.indices { let c = counts[i]; counts[i] = sum; sum += c }
            for v in a {
                let d = Int((v >> shift) & 0xFFFF)
                b[counts[d]] = v
                counts[d] += 1
            }
            swap(&a, &b)
        }
        return a
    }
}
