// Index use is an attempt with a fallback to a scan, and both must give the same
// rows: many generated queries run with posting lists and with scans only, and
// their results must be identical.

import AbacusCore
@testable import AbacusQuery
import Testing

/// SplitMix64: a deterministic generator, so a failure can be replayed.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite struct IndexPropertyTests {
    /// A shared handle on the generator, so the closures below can draw from it.
    final class Dice {
        var g: SplitMix64
        init(seed: UInt64) { g = SplitMix64(state: seed) }
        func next() -> UInt64 { g.next() }
        func pick<T>(_ xs: [T]) -> T { xs[Int(g.next() % UInt64(xs.count))] }
    }

    static func randomQuery(_ dice: Dice, ledger: Ledger) -> String {
        let store = ledger.entries
        func pick<T>(_ xs: [T]) -> T { dice.pick(xs) }
        func quoted(_ s: String) -> String { "\"" + s + "\"" }
        let indexable: [() -> String] = [
            { "category = " + quoted(pick(store.categories)) },
            { "book = " + quoted(pick(ledger.books).name) },
            { "currency = " + pick(store.currencies).code },
            { "category in (" + quoted(pick(store.categories)) + ", " + quoted(pick(store.categories)) + ")" },
            { "book in (" + quoted(pick(ledger.books).name) + ", " + quoted(pick(ledger.books).name) + ")" },
        ]
        let others: [() -> String] = [
            { "amount > " + pick(["10", "500", "2500", "10000"]) },
            { "party ~ " + quoted(pick(["a", "e", "air", "uber", "zz"])) },
            { "date >= 2025-" + pick(["02", "06", "10", "12"]) },
            { "not category = " + quoted(pick(store.categories)) },
            { "tag = " + quoted(pick(store.tags)) },
            { "payment != " + quoted(pick(Array(store.payments.dropFirst()))) },
        ]
        var conjuncts = [pick(indexable)()]
        for _ in 0..<Int(dice.next() % 3) { conjuncts.append(dice.next() % 2 == 0 ? pick(indexable)() : pick(others)()) }
        if dice.next() % 4 == 0 { conjuncts.append("(" + pick(indexable)() + " or " + pick(others)() + ")") }
        conjuncts.shuffle(using: &dice.g)
        let aggregate = pick(["sum", "count", "avg", "min", "max", "list"])
        let subject = pick(["expenses", "income", "entries", "transfers"])
        let target = pick(["", " in INR", " in USD", " in native"])
        let by = aggregate == "list" ? "" : pick(["", " by category", " by book", " by month", " by tag", " by currency, quarter"])
        let period = pick(["", " since 2025-04", " during 2025-Q3", " before 2025-11-15"])
        let valuation = pick(["", "", " at market", " with rate SGD/INR = 60"])
        return "\(aggregate) \(subject)\(target)\(by) where \(conjuncts.joined(separator: " and "))\(period)\(valuation)"
    }

    /// Two ways of running `q` give the same rows, totals and warnings, or fail alike.
    static func expectSame(_ a: Result<ResultSet, any Error>, _ b: Result<ResultSet, any Error>, _ q: String) {
        switch (a, b) {
        case (.success(let x), .success(let y)):
            #expect(x.rows == y.rows, "\(q)")
            #expect(x.totals == y.totals, "\(q)")
            #expect(x.warnings == y.warnings, "\(q)")
        case (.failure(let x), .failure(let y)):
            #expect("\(x)" == "\(y)", "\(q)")
        default:
            Issue.record("one path failed and the other did not: \(q)")
        }
    }

    @Test func postingListsAndScansGiveTheSameResults() throws {
        let ledger = try DemoLedgerTests.ledger.get()
        let today = Day(year: 2025, month: 12, day: 31)!
        let dice = Dice(seed: 2025)
        var usedIndex = 0
        for _ in 0..<400 {
            let q = IndexPropertyTests.randomQuery(dice, ledger: ledger)
            let indexed = Session(ledger: ledger, today: today)
            let scanned = Session(ledger: ledger, today: today)
            scanned.useIndexes = false
            if try indexed.plan(q).index != nil { usedIndex += 1 }
            #expect(try scanned.plan(q).index == nil)
            IndexPropertyTests.expectSame(Result { try indexed.run(q) }, Result { try scanned.run(q) }, q)
        }
        // The property says something only if the index was really used.
        #expect(usedIndex > 150)
    }

    /// The dense kernel (flat buffers for one key or the product of several, one or two threads,
    /// every group of the product or only those met) and the general path
    /// (any keys, hashed groups) must agree on every statement both can run.
    @Test func theDenseKernelAgreesWithTheGeneralPath() throws {
        let ledger = try DemoLedgerTests.ledger.get()
        let today = Day(year: 2025, month: 12, day: 31)!
        let dice = Dice(seed: 7)
        for _ in 0..<300 {
            var q = IndexPropertyTests.randomQuery(dice, ledger: ledger)
            // One key, none, or several: the product of several keys is dense too (tags included).
            q = q.replacingOccurrences(of: " by currency, quarter", with: dice.pick([" by currency", " by quarter", " by party", "",
                " by currency, quarter", " by book, tag", " by tag, month", " by category, book, payment", " by day, currency",
                " by book, category, party, tag"]))
            let dense = Session(ledger: ledger, today: today)
            // Half the time on two threads, each with half the rows.
            if dice.next() % 2 == 0 { dense.parallelRows = 2 }
            // Half the time numbering only the groups met, as large products of keys do.
            if dice.next() % 2 == 0 { dense.compactAbove = 0 }
            let general = Session(ledger: ledger, today: today)
            general.useDenseKernel = false
            switch (Result { try dense.run(q) }, Result { try general.run(q) }) {
            case (.success(let x), .success(let y)):
                #expect(x.rows == y.rows, "\(q)")
                #expect(x.totals == y.totals, "\(q)")
                #expect(x.warnings == y.warnings, "\(q)")
                #expect(x.rateNotes == y.rateNotes, "\(q)")
            case (.failure(let x), .failure(let y)):
                #expect("\(x)" == "\(y)", "\(q)")
            default:
                Issue.record("one path failed and the other did not: \(q)")
            }
        }
    }

    /// `list … top N` ranks on two threads when the scan is large (each keeps its best N); the
    /// merged result must be what one thread finds, ties in date order included.
    @Test func topNOnTwoThreadsAgreesWithOne() throws {
        let ledger = try DemoLedgerTests.ledger.get()
        let today = Day(year: 2025, month: 12, day: 31)!
        let dice = Dice(seed: 11)
        for _ in 0..<120 {
            let q = "list " + dice.pick(["expenses", "income", "entries"]) + dice.pick(["", " in USD", " in native where currency = INR"])
                + dice.pick(["", " since 2025-06", " where category = Transport", " where party ~ a"])
                + dice.pick([" top 1", " top 7", " top 30", " order by amount top 5", " order by amount asc top 12"])
                + dice.pick(["", " with rate SGD/INR = 60"])
            let one = Session(ledger: ledger, today: today)
            let two = Session(ledger: ledger, today: today)
            two.parallelRows = 2
            switch (Result { try one.run(q) }, Result { try two.run(q) }) {
            case (.success(let x), .success(let y)):
                #expect(x.rows == y.rows, "\(q)")
                #expect(x.totals == y.totals, "\(q)")
                #expect(x.rateNotes == y.rateNotes, "\(q)")
            case (.failure(let x), .failure(let y)):
                #expect("\(x)" == "\(y)", "\(q)")
            default:
                Issue.record("one path failed and the other did not: \(q)")
            }
        }
    }
}
