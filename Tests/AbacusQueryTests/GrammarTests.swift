// Grammar/ is the authority on the language: its rules must be the ones the
// parser quotes, and every example in Grammar/README.md and README.md must parse.

import AbacusCore
@testable import AbacusQuery
import Foundation
import Testing

enum Repository {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// Lines of the form `abacus> STATEMENT` in a markdown file.
    static func examples(in path: String) throws -> [String] {
        try text(path).split(separator: "\n").compactMap { line in
            let t = line.trimmingCharacters(in: .whitespaces)
            return t.hasPrefix("abacus> ") ? String(t.dropFirst("abacus> ".count)) : nil
        }
    }
}

@Suite struct GrammarTests {
    static func normalize(_ s: String) -> String {
        s.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
    }

    /// Rules of the grammar file: lines `name -> …` whose name is lowercase.
    static func grammarRules() throws -> Set<String> {
        Set(try Repository.text("Grammar/abacus.grammar").split(separator: "\n").compactMap { line in
            let t = String(line)
            guard !t.hasPrefix("#"), t.contains(" -> "), let first = t.first, first.isLowercase else { return nil }
            return normalize(t)
        })
    }

    /// Rules quoted in the parser's doc comments (a rule may wrap onto `///   | …` lines).
    static func parserRules() throws -> Set<String> {
        var rules: [String] = []
        let files = ["Parser.swift", "Parser+Reports.swift"].map { "Sources/AbacusQuery/Parser/" + $0 }
        for line in try files.map(Repository.text).joined(separator: "\n").split(separator: "\n") {
            let t = line.trimmingCharacters(in: .whitespaces)
            guard t.hasPrefix("///") else { continue }
            let body = t.dropFirst(3).trimmingCharacters(in: .whitespaces)
            if body.contains(" -> "), let first = body.first, first.isLowercase {
                rules.append(body)
            } else if body.hasPrefix("|"), !rules.isEmpty {
                rules[rules.count - 1] += " " + body
            }
        }
        return Set(rules.map(normalize))
    }

    @Test func theParserImplementsExactlyTheGrammarsRules() throws {
        let grammar = try GrammarTests.grammarRules()
        let parser = try GrammarTests.parserRules()
        #expect(grammar.count >= 10)
        #expect(grammar.subtracting(parser).isEmpty, "rules in Grammar/ that no parse function quotes")
        #expect(parser.subtracting(grammar).isEmpty, "rules quoted by the parser that Grammar/ lacks")
    }

    @Test func everyGrammarExampleParses() throws {
        let examples = try Repository.examples(in: "Grammar/README.md")
        #expect(examples.count >= 10)
        for e in examples {
            #expect(throws: Never.self, "\(e)") { try Parser.parse(e) }
        }
    }

    /// The tours run as written, in order, on the demo ledger.
    @Test(arguments: ["README.md", "Grammar/README.md"])
    func everyExampleRunsOnTheDemoLedger(_ file: String) throws {
        let session = Session(ledger: try DemoLedgerTests.ledger.get(), today: Day(year: 2025, month: 12, day: 31)!)
        let examples = try Repository.examples(in: file)
        #expect(examples.count >= 10)
        for e in examples {
            // Live rates need the shell's service (and a network): those examples must parse, and
            // LiveRatesTests runs them against a local server.
            if e.hasPrefix("rates refresh") || e.hasPrefix("rates status") {
                #expect(throws: Never.self, "\(e)") { try Parser.parse(String(e.prefix { $0 != "#" })) }
                continue
            }
            #expect(throws: Never.self, "\(e)") { try session.execute(e) }
        }
    }
}
