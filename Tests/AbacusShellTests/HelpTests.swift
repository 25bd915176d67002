// `.help` teaches by example: every example it shows must run on the demo ledger.

import AbacusCore
import AbacusQuery
@testable import AbacusShell
import Testing

@Suite struct HelpTests {
    /// Lines under an "Examples:" heading.
    static func examples(_ text: String) -> [String] {
        var out: [String] = []
        var inExamples = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("Examples:") { inExamples = true; continue }
            if inExamples, line.hasPrefix("  ") { out.append(line.trimmingCharacters(in: .whitespaces)); continue }
            inExamples = false
        }
        return out
    }

    @Test(arguments: Help.topics)
    func everyExampleOfATopicRuns(_ topic: String) throws {
        let text = try #require(Help.text(topic: topic))
        let ledger = try LedgerLoader.load(paths: [Golden.demo])
        let session = Session(ledger: ledger, today: Day(year: 2025, month: 12, day: 31)!)
        for e in HelpTests.examples(text) {
            #expect(throws: Never.self, "\(topic): \(e)") { try session.execute(e) }
        }
    }

    @Test func topicsWithExamplesHaveSome() {
        for topic in ["query", "where", "dates", "rates", "format"] {
            #expect(HelpTests.examples(Help.text(topic: topic) ?? "").count >= 3, "\(topic)")
        }
        #expect(Help.text(topic: "") != nil)
        #expect(Help.text(topic: "nonsense") == nil)
    }
}
