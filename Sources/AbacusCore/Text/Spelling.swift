// Near misses: the one suggester behind every "did you mean".
//
// `nearest` offers the single closest word of a fixed vocabulary (a keyword, a
// currency code, a dot command, a help topic); `Spelling.suggestions` offers up
// to three of the ledger's own names for a name typed in a condition, where a
// near prefix (`Fod` → `Food & Dining`) or a part of the name also counts. Both
// rest on one bounded edit distance, so no input, however long, makes them slow.

public enum Spelling {
    /// Up to three existing names close to `value`: by edit distance, or as a near prefix ("Fod" → "Food & Dining").
    /// A near miss keeps most of what was typed: within a third of its length, never all of it,
    /// and a prefix or a substring only from three characters on. A value far longer than every
    /// name is near none of them, and is not compared at all.
    public static func suggestions(for value: String, in names: [String]) -> [String] {
        let longest = names.lazy.map(\.count).max() ?? 0
        var length = 0
        for _ in value {
            length += 1
            if length > 2 * longest + 2 { return [] }
        }
        guard length > 0 else { return [] }
        let v = value.lowercased()
        let allowed = max(1, length / 3)
        var scored: [(String, Int)] = []
        for n in Set(names) {
            let l = n.lowercased()
            let whole = editDistance(v, l, limit: allowed)
            let prefix = length >= 3 ? editDistance(v, String(l.prefix(length)), limit: allowed) : allowed + 1
            let contains = length >= 3 && (l.contains(v) || v.contains(l))
            // A whole-name near miss ranks before a near prefix, which ranks before a mere substring.
            if whole <= allowed && whole < length { scored.append((n, whole)) }
            else if prefix <= allowed { scored.append((n, prefix + 1)) }
            else if contains { scored.append((n, allowed + 2)) }
        }
        return scored.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.prefix(3).map(\.0)
    }
}

/// The closest candidate by edit distance, when it is close enough to be a likely typo:
/// within a third of the shorter length (at least one edit). Among equally close
/// candidates the first listed wins, so callers list the likelier ones first. A word
/// far longer than every candidate is refused before any comparison: a 50 MB dangling
/// id costs one partial count, not a distance table.
public func nearest(_ word: String, in candidates: [String]) -> String? {
    let longest = candidates.lazy.map(\.count).max() ?? 0
    // Past this length no candidate is within its allowance (the length difference alone exceeds it).
    let cap = longest + max(1, longest / 3)
    var length = 0
    for _ in word {
        length += 1
        if length > cap { return nil }
    }
    let w = word.lowercased()
    var best: (String, Int)?
    for c in candidates {
        let allowed = max(1, min(length, c.count) / 3)
        let d = editDistance(w, c.lowercased(), limit: allowed)
        guard d <= allowed else { continue }
        if let b = best, b.1 <= d { continue }
        best = (c, d)
    }
    return best?.0
}

/// Edit distance over characters, counting a swap of two neighbours as one edit
/// (optimal string alignment), so `wrok` is one edit from `work`.
///
/// With a `limit`, a distance above it comes back as `limit + 1`, found in time
/// proportional to the shorter string times the limit: the strings are read only as
/// far as their lengths can differ by the limit, and only a band of the table around
/// its diagonal (two rows and the one before, for swaps) is computed.
public func editDistance(_ a: String, _ b: String, limit: Int = Int.max) -> Int {
    var x: [Character] = [], y: [Character] = []
    var ia = a.makeIterator(), ib = b.makeIterator()
    var aDone = false, bDone = false
    while !(aDone && bDone) {
        if !aDone { if let c = ia.next() { x.append(c) } else { aDone = true } }
        if !bDone { if let c = ib.next() { y.append(c) } else { bDone = true } }
        if (aDone && y.count - x.count > limit) || (bDone && x.count - y.count > limit) { return limit + 1 }
    }
    if x.isEmpty { return y.count }
    if y.isEmpty { return x.count }
    let n = x.count, m = y.count
    // No distance exceeds the longer length, so a wider limit changes nothing (and `over` cannot overflow).
    let limit = min(max(0, limit), max(n, m))
    let over = limit + 1
    var before = [Int](repeating: over, count: m + 1)          // row i - 2
    var previous = (0...m).map { min($0, over) }               // row i - 1
    var row = [Int](repeating: over, count: m + 1)
    for i in 1...n {
        let lo = max(1, i - limit), hi = min(m, i + limit)
        row[0] = min(i, over)
        row[lo - 1] = lo == 1 ? row[0] : over
        var best = row[lo - 1]
        for j in lo...hi {
            let cost = x[i - 1] == y[j - 1] ? 0 : 1
            var d = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost)
            if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] { d = min(d, before[j - 2] + 1) }
            row[j] = min(d, over)
            best = min(best, row[j])
        }
        if hi < m { row[hi + 1] = over }
        if best > limit { return over }
        (before, previous, row) = (previous, row, before)
    }
    return previous[m]
}
