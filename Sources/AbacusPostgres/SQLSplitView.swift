// The split view in SQL (docs/ledger-format.md#splits, docs/postgres.md): a statement that
// groups or tests by category reads a split entry as one row per part, with the part's
// amount and category and the entry's other fields, as `Ledger.splitView()` makes it in
// memory. A part of an entry with a `normalizedAmount` converts at its share of it,
// `part × |normalizedAmount| ÷ |amount|`: the product is the row's value and `|amount|` its
// denominator, so that no row is divided (an entry of amount 0 keeps its normalizedAmount
// for each part, as in memory). Statements that group by category or top category, or test
// one, lower: a count and an average's divisor count each entry once per group
// (`SQLLowering.entriesCount`), as the in-memory engine does; one that also tests amounts
// stays in memory (the in-memory engine counts the parts' rates as the test reaches them).

import AbacusQuery

enum SQLSplitView {
    /// Whether a plan that reads the parts of split entries lowers.
    static func lowers(_ plan: LogicalPlan) -> Bool {
        plan.condition?.testsAmount != true
    }

    /// The rows, named `e` as the entries are: each entry without splits, and each part of one with them
    /// (`entry_amount`: its entry's amount, whose sign makes a part an expense or an income).
    static let rows = """
        (SELECT id, book_id, day, currency, category, party, payment, remarks, tags, is_transfer, amount,
                normalized_amount, normalized_currency, conversion_rate, CAST(NULL AS numeric) AS share_den,
                amount AS entry_amount
           FROM abacus_entries WHERE splits IS NULL
         UNION ALL
         SELECT s.id, s.book_id, s.day, s.currency, p.part->>'category', s.party, s.payment, s.remarks, s.tags, s.is_transfer,
                CAST(p.part->>'amount' AS numeric),
                CASE WHEN s.amount <> 0 THEN CAST(p.part->>'amount' AS numeric) * abs(s.normalized_amount) ELSE s.normalized_amount END,
                s.normalized_currency, s.conversion_rate,
                CASE WHEN s.amount <> 0 AND s.normalized_amount IS NOT NULL THEN abs(s.amount) END,
                s.amount
           FROM abacus_entries s CROSS JOIN LATERAL json_array_elements(s.splits) AS p(part)
           WHERE s.splits IS NOT NULL) e
        """

    /// The booked rule's denominator in the split view: a part's share, else 1.
    static let shareDenominator = "coalesce(e.share_den, 1)"
}

extension SQLLowering {
    /// What the statement reads: the entries, or the split view.
    var rows: String { plan.readsSplits ? SQLSplitView.rows : "abacus_entries e" }
}
