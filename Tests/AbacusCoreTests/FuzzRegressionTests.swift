// Inputs the fuzzers found (Fuzz/regressions/): each must load or be refused, never trap.

@testable import AbacusCore
import Foundation
import Testing

@Suite struct FuzzRegressionTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz/regressions")

    static var loaderInputs: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasPrefix("loader") }.sorted()
    }

    @Test(arguments: FuzzRegressionTests.loaderInputs)
    func loaderInputNeitherTrapsNorHalfLoads(_ name: String) throws {
        let result = Result { try LedgerLoader.load(paths: [FuzzRegressionTests.folder.appendingPathComponent(name).path]) }
        if case .failure(let e) = result { #expect(e is LoadError) }
    }

    @Test func escapedStringsReadAfterAnotherEscapedString() throws {
        // The string read second must not come back from the scratch buffer of the first
        // (found by the loader fuzzer: an escaped id after an escaped description trapped).
        let ledger = try LedgerLoader.load(documents: [("e.json", #"""
            {"version":1,"defaultCurrency":"INR","books":[{"description":"\n\n\n\n","id":"b\u0031","name":"H\u00e9","currency":"INR"}],
             "entries":[{"id":"e","bookId":"b1","amount":1,"date":"2025-01-01","category":"\u0043at"}]}
            """#)])
        #expect(ledger.books.map(\.id) == ["b1"])
        #expect(ledger.books.map(\.name) == ["Hé"])
        #expect(ledger.entries.categories == ["Cat"])
    }
}
