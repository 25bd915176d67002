// The values several keys take together, numbered once for the store, for a dense scan
// by those keys and a period (docs/architecture.md#the-pipeline, the executor).
//
// `book, month, category, currency` has 12 × 33 × 11 = 4,356 groups a month, of which
// about 450 ever occur: laid out by the product, a month's groups are far more than a
// core's cache holds, and only a tenth of them are used. Numbered once, the (book,
// category, currency) of a row is one code, and the grouping is scanned as one code and
// a month, as `party, month` is: a month's groups side by side, every group laid out.

import AbacusCore

struct KeyCombos: Sendable {
    /// Each row's combination, numbered from 0 in the order of the keys' product groups.
    let code: StoreColumn<UInt32>
    /// The product group (1 + Σ index × stride, as `Executor.productGroups` works it out) of each combination.
    let products: [Int32]

    var count: Int { products.count }

    /// Most combinations numbered.
    static let most = 1 << 16

    /// The combinations of `parts` (with `strides`, their product having `cells` groups) that
    /// the store's rows hold; nil past `most`.
    init?(_ parts: [Executor.DenseKey], _ strides: [Int], cells: Int, store: EntryStore) {
        let rows = store.count, threads = rows >= Executor.parallelRows ? 2 : 1
        // The groups of the keys' product that the rows meet, numbered in product order (from 1).
        let met = Executor.CompactGroups(parts, strides, count: cells, rows: .range(0..<rows), store: store, threads: threads)
        guard met.products.count <= KeyCombos.most else { return nil }
        code = StoreColumn(met.ofRow.map { UInt32(met.number[Int($0)] - 1) })
        products = met.products
    }

    /// The combinations of the keys other than the period of `keys`, worked out once for the
    /// store and kept (`RateColumnCache.derived`).
    static func of(_ keys: [GroupKey], _ parts: [Executor.DenseKey], _ strides: [Int], cells: Int, store: EntryStore, kept: RateColumnCache) -> KeyCombos? {
        kept.derived("key combinations of \(keys.map(\.rawValue).joined(separator: ", "))") { KeyCombos(parts, strides, cells: cells, store: store) }
    }
}
