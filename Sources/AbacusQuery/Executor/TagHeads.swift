// The first tags of each row as one code, for a dense scan grouped by tag
// (docs/architecture.md#the-pipeline, the executor).
//
// An entry with two tags counts in both tags' groups. A scan that adds each row to
// its first tag's group and then loops over the rest branches, at random, on how
// many tags the row has. Grouped instead by the row's first two tags as one code
// (a pair of tags, one tag, or none), every row of up to two tags is added once,
// with no branch; after the scan, each pair's group is added to the groups of its
// two tags (exact: integer sums, added in another order). Only a row's third and
// later tags are still added one by one, after the other rows of a short block: the rows
// that have them, and those tags, are kept in order beside the codes (`laterRows`), so that
// the loop over every row never branches on them.

import AbacusCore

struct TagHeads: Sendable {
    /// How many of a row's first tags its code stands for (1 or 2); the row's tags after those are its later tags.
    let width: Int
    /// Each row's code: 0 for a row without tags (none at all in a `layout`).
    let code: [UInt16]
    /// The tag groups each code stands for, as the tag key numbers them (0: no tags, a tag's
    /// code + 1): `groups[2 × c]`, and `groups[2 × c + 1]` (-1: none).
    let groups: [Int32]
    /// The rows with later tags, in order, and their later tags' groups (as the tag key numbers
    /// them: the tag's code + 1), side by side: row `laterRows[i]`'s are
    /// `laterGroups[laterStart[i]..<laterStart[i + 1]]`. A scan reads these, not the tag
    /// columns, whose places for rows far apart would each be a miss in the cache.
    let laterRows: [Int32]
    let laterStart: [Int32]
    let laterGroups: [UInt32]

    /// How many codes there are.
    var count: Int { groups.count / 2 }

    /// Most codes of a width of two, and most tags a pair table is laid out for.
    static let mostPairs = 4096
    static let mostTags = 1024

    /// The groups of a tag key, laid out as `Grouper` lays them out (heads of width 1), with no
    /// codes for the rows: what a key's groups are after a scan (a scan reads `of`'s).
    init(layoutOf tags: Int) {
        (width, code, groups) = (1, [], TagHeads.firstTagGroups(tags))
        (laterRows, laterStart, laterGroups) = ([], [0], [])
    }

    /// Width 1's groups of each code: code c is tag group c alone.
    private static func firstTagGroups(_ tags: Int) -> [Int32] { (0...tags).flatMap { [Int32($0), -1] } }

    /// Width 1: each row's first tag. Width 2: each row's first two tags, as an unordered pair;
    /// nil when the store has more tags, or its rows more pairs, than a scan would lay out (or
    /// than two bytes number).
    init?(_ store: EntryStore, width: Int) {
        let tags = store.tags.count
        precondition(width == 1 || width == 2, "a tag head is one or two tags")
        // A pair's code by its two tag groups (a < b; b = 0 for one tag) in a table: side × side.
        let side = tags + 1
        guard width == 2 ? tags < TagHeads.mostTags : side <= Int(UInt16.max) else { return nil }
        var number = [UInt16](repeating: 0, count: width == 2 ? side * side : 0)
        var groups: [Int32] = width == 2 ? [0, -1] : TagHeads.firstTagGroups(tags)
        let made = store.tagStart.withUnsafeBufferPointer { start in
            store.tagCodes.withUnsafeBufferPointer { codes in
                [UInt16](unsafeUninitializedCapacity: Swift.max(0, start.count - 1)) { code, made in
                    made = code.count
                    // No branch on how many tags a row has (none, one, two or more at random): each
                    // row reads two places of `codes` (a neighbour's, or 0, where it has fewer).
                    let last = codes.count - 1
                    for r in 0..<code.count {
                        let t = Int(start[r]), n = Int(start[r + 1]) &- t
                        let one = last >= 0 ? codes[Swift.min(t, last)] &+ 1 : 0
                        let a = n > 0 ? Int(one) : 0
                        guard width == 2 else { code[r] = UInt16(truncatingIfNeeded: a); continue }
                        let two = last >= 0 ? codes[Swift.min(t &+ 1, last)] &+ 1 : 0
                        let b = n > 1 ? Int(two) : 0
                        let place = b == 0 ? a &* side : Swift.min(a, b) &* side &+ Swift.max(a, b)
                        var c = number[place]
                        if c == 0 && place != 0 {
                            // Too many pairs: no heads of width 2 (`made` says so).
                            guard groups.count / 2 < TagHeads.mostPairs else { made = 0; return }
                            c = UInt16(groups.count / 2)
                            number[place] = c
                            groups += [Int32(place / side), b == 0 ? -1 : Int32(place % side)]
                        }
                        code[r] = c
                    }
                }
            }
        }
        guard made.count == Swift.max(0, store.tagStart.count - 1) else { return nil }
        // A store's rows and tags are fewer than 2^31.
        var (rows, start, later): ([Int32], [Int32], [UInt32]) = ([], [0], [])
        for r in made.indices where Int(store.tagStart[r + 1]) - Int(store.tagStart[r]) > width {
            rows.append(Int32(truncatingIfNeeded: r))
            for t in (Int(store.tagStart[r]) + width)..<Int(store.tagStart[r + 1]) { later.append(store.tagCodes[t] &+ 1) }
            start.append(Int32(truncatingIfNeeded: later.count))
        }
        (self.width, self.code, self.groups) = (width, made, groups)
        (laterRows, laterStart, laterGroups) = (rows, start, later)
    }

    /// The codes of each width for a store, worked out once for it and kept (`RateColumnCache.derived`).
    static func of(_ store: EntryStore, width: Int, kept: RateColumnCache) -> TagHeads? {
        kept.derived("tag heads of width \(width)") { TagHeads(store, width: width) }
    }
}
