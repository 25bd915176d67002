// Inputs the fuzzers found (Fuzz/regressions/) and the loader's fuzzing corpus: each must
// load whole or be refused whole with a message that names the file and the place.

@testable import AbacusCore
import Foundation
import Testing

@Suite struct FuzzRegressionTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz/regressions")

    static let corpus = folder.deletingLastPathComponent().appendingPathComponent("corpus/loader")

    /// The regressions and the corpus, as paths.
    static var loaderInputs: [String] {
        let regressions = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasPrefix("loader") }
        let seeds = (try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? []
        return (regressions.map { folder.appendingPathComponent($0).path } + seeds.map { corpus.appendingPathComponent($0).path }).sorted()
    }

    /// A good ledger that every input is loaded beside.
    static let good = #"{"version":1,"defaultCurrency":"INR","books":[{"id":"good-book","name":"Good","currency":"INR"}],"entries":[{"id":"good-1","bookId":"good-book","amount":-5,"date":"2025-01-01","category":"Food"}]}"#

    @Test func theInputsAreThere() {
        // A folder moved or emptied would make the test below check nothing.
        #expect(FuzzRegressionTests.loaderInputs.count >= 10)
    }

    @Test(arguments: FuzzRegressionTests.loaderInputs)
    func loaderInputLoadsWholeOrIsRefusedWholeWithItsPlace(_ path: String) throws {
        let text = String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
        do {
            let ledger = try LedgerLoader.load(documents: [("good.json", FuzzRegressionTests.good), (path, text)])
            // Loaded whole: the good ledger's entry is there, and every entry names a book that exists.
            #expect(ledger.entries.count >= 1)
            #expect(ledger.books.contains { $0.id == "good-book" })
            #expect(ledger.entries.book.allSatisfy { Int($0) < ledger.books.count })
        } catch {
            // Refused whole, naming this file (not the good one) and where in it.
            #expect(error.file == path)
            #expect(error.line != nil || !(error.path ?? "").isEmpty || error.message.contains("empty"), "\(error)")
            #expect(error.description.count < 600, "a message quotes at most a short piece of the file")
        }
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
