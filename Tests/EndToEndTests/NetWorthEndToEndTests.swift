// Budgets, balances, net worth and holdings through the real binary: a warm start (from
// the store image) answers them as a cold one does, and a ledger that breaks one of their
// rules is refused whole with status 2 and the JSON path.

import Foundation
import Testing

@Suite struct NetWorthEndToEndTests {
    static let statements = ["budget since 2025-10", "balance in USD", "networth", "networth by month in USD", "holdings in INR",
                             "sum expenses by category", "sum expenses by top category", "count expenses where category = Essentials by book",
                             "explain budget", "explain sum expenses where category = Lifestyle"]

    @Test func aWarmStartAnswersTheNewStatementsAsAColdOne() throws {
        let cache = ImageRun.cache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let args = ["Examples/demo.json", "--format", "json"] + NetWorthEndToEndTests.statements.flatMap { ["-e", $0] }
        let cold = try ImageRun.run(cache, args)
        #expect(cold.status == 0, "\(cold.stderr)")
        #expect(ImageRun.images(cache).count == 1)
        let warm = try ImageRun.run(cache, args)
        #expect(warm.stdout == cold.stdout)
        #expect(warm.stderr == cold.stderr)
        // The answers are the ledger's: the accounts and the split parts came back from the image.
        #expect(warm.stdout.contains("\"book\":\"Home\""))
        #expect(warm.stdout.contains("\"top category\":\"Essentials\""))
        #expect(warm.stdout.contains("\"symbol\":\"VWRA\""))
    }

    @Test func aBrokenRuleRefusesTheWholeLedgerWithStatusTwo() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("abacus-networth-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("bad.json").path
        try """
        {"version": 1, "defaultCurrency": "INR", "books": [{"id": "b", "name": "B", "currency": "INR", "openingBalance": 100}],
         "entries": [{"id": "1", "bookId": "b", "amount": -10, "date": "2025-01-01", "category": "Food",
                      "splits": [{"amount": -4, "category": "Food"}, {"amount": -5, "category": "Tea"}]}]}
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let r = try Binary.run([path, "-e", "balance"])
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty, "nothing answered: nothing was loaded")
        #expect(r.stderr.contains("\(path):3:"))
        #expect(r.stderr.contains("entries[0].splits: the splits add up to -9, not to the entry's amount -10"))
    }
}
