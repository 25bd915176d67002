// Golden tests in the style of sqllogictest: Tests/Golden/*.test hold statements
// and the output they must give, run in order through one shell per file on the
// demo ledger with today fixed at 2025-12-31.
//
//     # a comment
//     query                 (or `query json`, `query csv`, `query markdown`)
//     sum expenses by book
//     ----
//     …expected stdout…
//
//     error
//     sum expenses by catgory
//     ----
//     …expected stderr…
//
//     plan
//     sum expenses where category = Rent
//     ----
//     …the plan text…
//
// A block ends at a blank line. `query` expects success (warnings, which go to
// stderr, are appended after a line `-- warnings`); `error` expects failure.
// To re-record after a deliberate change: `ABACUS_RECORD=1 swift test --filter Golden`,
// then read the diff: recording rewrites the files and fails, so it is never a pass.

import AbacusCore
import AbacusQuery
@testable import AbacusShell
import Foundation
import Testing

struct GoldenCase: CustomStringConvertible, Sendable {
    var kind: String
    var format: String?
    var statement: String
    var expected: String
    var line: Int
    var description: String { "line \(line): \(statement)" }
}

enum Golden {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    static let folder = root.appendingPathComponent("Golden")
    static let demo = root.deletingLastPathComponent().appendingPathComponent("Examples/demo.json").path

    static var files: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".test") }.sorted()
    }

    /// Parses a golden file into its cases and the comment/blank lines kept for re-recording.
    static func parse(_ text: String) -> [GoldenCase] {
        var cases: [GoldenCase] = []
        let lines = text.components(separatedBy: "\n")
        var i = 0
        while i < lines.count {
            let header = lines[i].split(separator: " ").map(String.init)
            guard let kind = header.first, ["query", "error", "plan"].contains(kind), i + 1 < lines.count else { i += 1; continue }
            let start = i + 1
            let statement = lines[i + 1]
            var j = i + 2
            var expected: [String] = []
            if j < lines.count && lines[j] == "----" {
                j += 1
                while j < lines.count && !lines[j].isEmpty { expected.append(lines[j]); j += 1 }
            }
            cases.append(GoldenCase(kind: kind, format: header.count > 1 ? header[1] : nil, statement: statement,
                                    expected: expected.joined(separator: "\n"), line: start))
            i = j
        }
        return cases
    }

    final class Capture: @unchecked Sendable {
        var out: [String] = []
        var err: [String] = []
    }

    /// Runs every case of a file in order through one shell; returns the actual outputs.
    static func run(_ cases: [GoldenCase]) throws -> [(GoldenCase, ok: Bool, actual: String)] {
        let ledger = try LedgerLoader.load(paths: [demo])
        let shell = Shell(options: ShellOptions(), environment: [:])
        shell.session = Session(ledger: ledger, today: Day(year: 2025, month: 12, day: 31)!)
        let capture = Capture()
        shell.writeOut = { capture.out.append($0) }
        shell.writeErr = { capture.err.append($0) }
        var results: [(GoldenCase, ok: Bool, actual: String)] = []
        for c in cases {
            capture.out = []
            capture.err = []
            // Each case is its own output: a markdown table starts one (no blank line before it).
            shell.wroteMarkdownTable = false
            shell.renderer.format = c.format.flatMap(OutputFormat.init(rawValue:)) ?? .table
            if c.kind == "plan" {
                do {
                    results.append((c, true, try shell.session.plan(c.statement).description))
                } catch {
                    results.append((c, false, Diagnostic.render(error, statement: c.statement)))
                }
                continue
            }
            let ok = shell.execute(c.statement, location: nil)
            // The shell writes whole lines with their line ends (CSV records end in CRLF); a
            // golden block is the text without the last line's end.
            func text(_ pieces: [String]) -> String {
                var t = pieces.joined()
                if t.hasSuffix("\r\n") || t.hasSuffix("\n") { t.removeLast() }
                return t
            }
            var actual = ok ? text(capture.out) : text(capture.err)
            if ok && !capture.err.isEmpty { actual += "\n-- warnings\n" + text(capture.err) }
            results.append((c, ok, actual))
        }
        return results
    }

    /// The file with every expected block replaced by the actual output.
    static func record(_ text: String, _ results: [(GoldenCase, ok: Bool, actual: String)]) -> String {
        var lines = text.components(separatedBy: "\n")
        for r in results.reversed() {
            let at = r.0.line   // index of the statement line
            var end = at + 1
            if end < lines.count && lines[end] == "----" {
                end += 1
                while end < lines.count && !lines[end].isEmpty { end += 1 }
            }
            lines.replaceSubrange((at + 1)..<end, with: ["----"] + r.actual.components(separatedBy: "\n"))
        }
        return lines.joined(separator: "\n")
    }
}

@Suite struct GoldenTests {
    @Test(arguments: Golden.files)
    func goldenFile(_ name: String) throws {
        let url = Golden.folder.appendingPathComponent(name)
        let text = try String(contentsOf: url, encoding: .utf8)
        let cases = Golden.parse(text)
        #expect(!cases.isEmpty)
        let results = try Golden.run(cases)
        if ProcessInfo.processInfo.environment["ABACUS_RECORD"] != nil {
            try Golden.record(text, results).write(to: url, atomically: true, encoding: .utf8)
            Issue.record("recorded \(name): read the diff, then run again without ABACUS_RECORD")
            return
        }
        for (c, ok, actual) in results {
            if c.kind == "error" {
                #expect(!ok, "\(name):\(c.line + 1): expected an error from: \(c.statement)")
            } else {
                #expect(ok, "\(name):\(c.line + 1): failed: \(c.statement)\n\(actual)")
            }
            #expect(actual == c.expected, "\(name):\(c.line + 1): \(c.statement)")
        }
    }

    @Test func thereAreAtLeast150Cases() {
        let count = Golden.files.reduce(0) { n, f in
            n + Golden.parse((try? String(contentsOf: Golden.folder.appendingPathComponent(f), encoding: .utf8)) ?? "").count
        }
        #expect(count >= 150)
    }
}
