// The watch list kept between sessions: what one load adds the next load sees, in
// order; a line that is not a code is a warning and skipped, the good codes kept
// through the next change; a file that is no list at all is one warning and an
// empty list, and the next change replaces it; nothing half-written is ever left
// beside it.

import AbacusCore
@testable import AbacusShell
import Foundation
import Testing

private func codes(_ list: WatchList) -> [String] { list.currencies.map(\.code) }
private func c(_ code: String) -> Currency { Currency(code: code)! }

/// A fresh state folder for one test.
private func stateFolder() throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("abacus-watch-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir.path
}

@Suite struct WatchListTests {
    @Test func keptAcrossTwoLoads() throws {
        let state = try stateFolder()
        let path = try #require(WatchList.defaultPath(environment: ["XDG_STATE_HOME": state, "HOME": "/nonexistent"]))
        #expect(path == state + "/abacus/watch")
        var warnings: [String] = []
        var first = WatchList.load(path: path, report: { warnings.append($0) })
        #expect(codes(first) == [])
        #expect(try first.add([c("USD"), c("SGD"), c("USD")]) == [c("USD"), c("SGD")])
        #expect(try first.add([c("EUR"), c("SGD")]) == [c("EUR")])
        #expect(try first.remove([c("SGD"), c("JPY")]) == [c("SGD")])

        var second = WatchList.load(path: path, report: { warnings.append($0) })
        #expect(codes(second) == ["USD", "EUR"])
        #expect(second.contains(c("EUR")) && !second.contains(c("SGD")))
        try second.remove([c("USD"), c("EUR")])
        #expect(codes(WatchList.load(path: path, report: { warnings.append($0) })) == [])
        #expect(warnings == [])
        // Only the list itself is in the folder: no temporary file was left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: state + "/abacus") == ["watch"])
    }

    @Test func theFileIsOneCodeALine() throws {
        let path = try stateFolder() + "/watch"
        var list = WatchList(path: path)
        try list.add([c("INR"), c("JPY")])
        #expect(try String(contentsOfFile: path, encoding: .utf8) == WatchList.header + "\nINR\nJPY\n")
    }

    @Test func aLineThatIsNotACodeIsSkippedAndTheGoodOnesKept() throws {
        let path = try stateFolder() + "/watch"
        try "USD\nSGD\nnot a code\nEUR\n".write(toFile: path, atomically: true, encoding: .utf8)
        var warnings: [String] = []
        var list = WatchList.load(path: path, report: { warnings.append($0) })
        #expect(codes(list) == ["USD", "SGD", "EUR"])
        #expect(warnings == ["warning: skipping line 3 of the watch list \(path): found \"not a code\", expected an ISO 4217 currency code (one a line); the next change rewrites the list without it"])
        // The next change keeps every good code and drops the bad line.
        try list.add([c("GBP")])
        #expect(try String(contentsOfFile: path, encoding: .utf8) == WatchList.header + "\nUSD\nSGD\nEUR\nGBP\n")
        #expect(codes(WatchList.load(path: path, report: { warnings.append($0) })) == ["USD", "SGD", "EUR", "GBP"])
        #expect(warnings.count == 1)
    }

    @Test func aCodeInAnotherCaseIsThatCodeOnce() throws {
        let path = try stateFolder() + "/watch"
        try "USD\nEUR\nusd\n\nEur\ngbp\n".write(toFile: path, atomically: true, encoding: .utf8)
        var list = WatchList.load(path: path, report: { Issue.record("unexpected warning: \($0)") })
        #expect(codes(list) == ["USD", "EUR", "GBP"])
        try list.add([c("JPY")])
        #expect(try String(contentsOfFile: path, encoding: .utf8) == WatchList.header + "\nUSD\nEUR\nGBP\nJPY\n")
    }

    @Test func manyBadLinesAreWarnedAboutFiveByName() throws {
        let path = try stateFolder() + "/watch"
        try (["CHF"] + (1...7).map { "bad \($0)" }).joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        var warnings: [String] = []
        #expect(codes(WatchList.load(path: path, report: { warnings.append($0) })) == ["CHF"])
        #expect(warnings.count == 6)
        #expect(warnings[0].hasPrefix("warning: skipping line 2 of the watch list \(path): found \"bad 1\""))
        #expect(warnings[4].hasPrefix("warning: skipping line 6 of the watch list \(path): found \"bad 5\""))
        #expect(warnings[5] == "warning: skipping 2 more lines of the watch list \(path) that are not a currency code")
    }

    @Test func aFolderOrBinaryInItsPlaceIsNotFatal() throws {
        let state = try stateFolder()
        try FileManager.default.createDirectory(atPath: state + "/watch", withIntermediateDirectories: true)
        var warnings: [String] = []
        #expect(codes(WatchList.load(path: state + "/watch", report: { warnings.append($0) })) == [])
        let binary = state + "/binary"
        try Data([0x55, 0x53, 0x44, 0xFF, 0xFE, 0x0A]).write(to: URL(fileURLWithPath: binary))
        #expect(codes(WatchList.load(path: binary, report: { warnings.append($0) })) == [])
        #expect(warnings.count == 2)
        // A folder cannot be replaced by the list: the warning says to move it, not that it will be rewritten.
        #expect(warnings[0].hasSuffix("it is a folder; move it away to keep a watch list"))
        #expect(warnings[1].contains("not UTF-8 text"))
    }

    @Test func commentsAndBlankLinesAreAllowed() throws {
        let path = try stateFolder() + "/watch"
        try "# mine\n\n  GBP  # pounds\nCHF\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(codes(WatchList.load(path: path, report: { Issue.record("unexpected warning: \($0)") })) == ["GBP", "CHF"])
    }
}
