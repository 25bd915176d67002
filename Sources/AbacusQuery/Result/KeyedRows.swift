// The rows of a grouped result held as columns: each key's distinct values once, each row's
// index into them, and the cells after the keys (the value, then a share or a running total)
// row by row. A grouping of thousands of groups names each party or month hundreds of times:
// kept once, a renderer writes each name's text once (docs/architecture.md#typed-results), and
// no array of cells is made, moved and freed for every row. Whoever asks `ResultSet.rows` of
// such a result gets the same rows as arrays of cells, made once.

import Synchronization

public struct KeyedRows: Sendable {
    /// Per key: its distinct values (a value no row names may be `.empty`).
    public let dictionaries: [[Cell]]
    /// Row r's value of key k is `dictionaries[k][Int(index[r * keyCount + k])]`.
    public let index: [UInt32]
    /// Row r's cells after its keys: `tail[r * width ..< (r + 1) * width]`.
    public let tail: [Cell]
    /// Cells after the keys in each row.
    public let width: Int
    public let count: Int
    /// The rows as arrays of cells, made at most once (`cells`).
    private let made = Made()

    public var keyCount: Int { dictionaries.count }

    /// `index` and `tail` must hold the same rows; each index must lie within its dictionary.
    public init(dictionaries: [[Cell]], index: [UInt32], tail: [Cell], width: Int) {
        let count = width > 0 ? tail.count / width : (dictionaries.isEmpty ? 0 : index.count / dictionaries.count)
        precondition(index.count == count * dictionaries.count && tail.count == count * width, "keyed rows of one length")
        for (k, d) in dictionaries.enumerated() {
            precondition(stride(from: k, to: index.count, by: dictionaries.count).allSatisfy { Int(index[$0]) < d.count }, "a key index within its dictionary")
        }
        (self.dictionaries, self.index, self.tail, self.width, self.count) = (dictionaries, index, tail, width, count)
    }

    /// Row r's value of key k.
    @inline(__always)
    public func key(_ r: Int, _ k: Int) -> Cell { dictionaries[k][Int(index[r &* dictionaries.count &+ k])] }

    /// Row r as an array of cells: its keys, then its tail.
    public func row(_ r: Int) -> [Cell] {
        var cells: [Cell] = []
        cells.reserveCapacity(keyCount + width)
        for k in 0..<keyCount { cells.append(key(r, k)) }
        cells.append(contentsOf: tail[r * width ..< (r + 1) * width])
        return cells
    }

    /// Every row as an array of cells (made on the first call, kept for the next).
    public var cells: [[Cell]] {
        made.rows.withLock { rows in
            if let rows { return rows }
            let all = (0..<count).map(row)
            rows = all
            return all
        }
    }

    private final class Made: Sendable {
        let rows = Mutex<[[Cell]]?>(nil)
    }
}
