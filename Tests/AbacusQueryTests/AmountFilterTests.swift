// `where amount …` converts each row and compares it with the number in 256-bit integers where
// that settles the comparison, and with the exact value where it does not
// (Sources/AbacusQuery/Executor/RowFilter.swift).

import AbacusCore
@testable import AbacusQuery
import Testing

struct AmountFilterTests {
    /// Thresholds on and beside rows' exact converted values, at quotient rates whose factors are
    /// inexact (cut to 34 digits) and at rates that are exact: every comparison counts the rows
    /// the exact values count, in both kernels, with one thread and with two.
    @Test(arguments: ["INR", "USD", "KWD", "JPY"])
    func amountConditionsCountWhatTheExactValuesCount(target: String) throws {
        let ledger = try LedgerLoader.load(documents: [("rates.json", LargeGroupingTests.manyRates(seed: 11))])
        let store = ledger.entries
        let converter = LargeGroupingTests.converter(ledger, into: try #require(Currency(code: target)), .market)
        // Each row's exact value in the target, with its stored sign (`entries`), worked out with
        // fractions: the rate's own, not the factor the scans multiply by.
        let exact: [Fraction] = (0..<store.count).map { row in
            let a = store.amount[row], id = converter.id(row)
            return id >= 0 ? converter.exactValue(amount: a, id: id) : Fraction(ExactDecimal(significand: a, scale: store.amountScale))
        }
        #expect(converter.factorIsExact.contains(false) && converter.factorIsExact.contains(true), "\(target): both kinds of factor")
        let today = Day(year: 2025, month: 12, day: 31)!
        let sessions = [Session(ledger: ledger, today: today), Session(ledger: ledger, today: today), Session(ledger: ledger, today: today)]
        sessions[1].parallelRows = 2
        sessions[2].useDenseKernel = false
        let dice = IndexPropertyTests.Dice(seed: 3)
        var decidedExactly = 0
        for _ in 0..<10 {
            let row = Int(dice.next() % UInt64(store.count))
            // 2 decimals: most rows far from it; 30 and 40: within a quotient factor's error of the row itself.
            for digits in [2, 30, 40] {
                guard let x = exact[row].rounded(toScale: min(digits, ExactDecimal.maxScale - 1)) else { continue }
                let f = Fraction(x)
                if exact[row] != f { decidedExactly += 1 }
                for (op, holds) in [("<", { (v: Fraction) in v < f }), ("<=", { !(f < $0) }), ("=", { $0 == f }),
                                    ("!=", { $0 != f }), (">=", { !($0 < f) }), (">", { f < $0 })] {
                    let want = exact.filter(holds).count
                    for session in sessions {
                        let r = try session.run("count entries in \(target) where amount \(op) \(x)")
                        guard case .count(let n)? = r.rows.first?.first else { Issue.record("no count"); continue }
                        #expect(n == want, "\(target): amount \(op) \(x) (row \(row), \(digits) decimals)")
                    }
                }
            }
        }
        #expect(decidedExactly > 0, "some threshold lies beside a row's exact value")
        // `amount in (…)`: a binary search over the listed values, each step decided as above.
        // Lists of rows' values at 28 decimals (equal to a row's exact value when it has no
        // more decimals) and at 20 (beside them, for a cut quotient).
        var listedRows = 0
        for _ in 0..<6 {
            let rows = (0..<5).map { _ in Int(dice.next() % UInt64(store.count)) }
            var listed = Set<String>()
            for row in rows {
                guard let x = exact[row].rounded(toScale: 28) else { continue }
                listed.insert(x.description)
                if let beside = exact[row].rounded(toScale: 20) { listed.insert(beside.description) }
            }
            try #require(!listed.isEmpty)
            let xs = listed.compactMap(ExactDecimal.init).map(Fraction.init)
            let want = exact.filter { v in xs.contains { $0 == v } }.count
            if want > 0 { listedRows += 1 }
            let q = "count entries in \(target) where amount in (\(listed.sorted().joined(separator: ", ")))"
            for session in sessions {
                let r = try session.run(q)
                guard case .count(let n)? = r.rows.first?.first else { Issue.record("no count"); continue }
                #expect(n == want, "\(q)")
            }
        }
        #expect(listedRows > 0, "\(target): some listed value is a row's exact value")
        // A list longer than the values made at every scale (`RowFilter.valuesMadeAtEveryScale`):
        // the rows' values sort after 1,100 smaller ones and are compared exactly.
        let fillers = (1...1100).map { "-\(1_000_000_000_000 + $0).5" }
        // Rows whose exact values have at most 28 decimals: each is in the list.
        let rowsListed = Array(exact.compactMap { v in v.rounded(toScale: 28).flatMap { Fraction($0) == v ? $0 : nil } }.prefix(8))
        let xs = rowsListed.map(Fraction.init)
        let want = exact.filter { v in xs.contains { $0 == v } }.count
        #expect(want >= rowsListed.count && !rowsListed.isEmpty, "\(target): rows with exact values to list")
        let q = "count entries in \(target) where amount in (\((fillers + rowsListed.map(\.description)).joined(separator: ", ")))"
        for session in sessions {
            guard case .count(let n)? = try session.run(q).rows.first?.first else { Issue.record("no count"); continue }
            #expect(n == want, "\(target): a list of \(fillers.count + rowsListed.count) values")
        }
    }
}
