// The real `abacus` binary, run as a user runs it: exit statuses, stdout and
// stderr, the example scripts against their recorded output.
//
// Expected outputs are recorded from a run checked by hand. To re-record after a
// deliberate change, run `ABACUS_RECORD=1 swift test --filter EndToEnd`: the
// files are rewritten and the tests fail, so a recording is never a pass.

import Foundation
import Testing

struct Run {
    var status: Int32
    var stdout: String
    var stderr: String
}

enum Binary {
    /// The package root (two levels above this file's folder).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `abacus` sits beside the test bundle in the build folder.
    static var path: String {
        let dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [dir, dir.deletingLastPathComponent()] {
            let p = candidate.appendingPathComponent("abacus").path
            if FileManager.default.isExecutableFile(atPath: p) { return p }
        }
        return root.appendingPathComponent(".build/debug/abacus").path
    }

    static func run(_ arguments: [String], stdin: String? = nil, environment: [String: String] = [:]) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.currentDirectoryURL = root
        var env = ProcessInfo.processInfo.environment
        env["HOME"] = FileManager.default.temporaryDirectory.path
        env["NO_COLOR"] = "1"
        env.removeValue(forKey: "ABACUS_TODAY")
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self))
    }

    static func temporaryFile(_ name: String, _ contents: String) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("abacus-tests-\(ProcessInfo.processInfo.processIdentifier)")
        let url = dir.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try contents.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }
}

/// Compares with a recorded file, or records it when ABACUS_RECORD is set.
func expectMatchesRecording(_ actual: String, _ relativePath: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let url = Binary.root.appendingPathComponent(relativePath)
    if ProcessInfo.processInfo.environment["ABACUS_RECORD"] != nil {
        try actual.write(to: url, atomically: true, encoding: .utf8)
        Issue.record("recorded \(relativePath); check it by hand, then run again without ABACUS_RECORD", sourceLocation: sourceLocation)
        return
    }
    let expected = try String(contentsOf: url, encoding: .utf8)
    #expect(actual == expected, "output differs from \(relativePath)", sourceLocation: sourceLocation)
}

@Suite struct ExampleScriptTests {
    @Test func monthlyScriptMatchesItsRecordedOutput() throws {
        let r = try Binary.run(["Examples/demo.json", "-f", "Examples/monthly.abq"])
        #expect(r.status == 0)
        #expect(r.stderr == "")
        try expectMatchesRecording(r.stdout, "Examples/monthly.expected")
    }

    @Test func tripsScriptMatchesItsRecordedOutput() throws {
        let r = try Binary.run(["Examples/demo.json", "--today", "2025-12-31", "-f", "Examples/trips.abq"])
        #expect(r.status == 0)
        #expect(r.stderr == "")
        try expectMatchesRecording(r.stdout, "Examples/trips.expected")
    }

    @Test func dotRunRunsAScript() throws {
        let r = try Binary.run(["Examples/demo.json", "-e", ".run Examples/monthly.abq"])
        #expect(r.status == 0)
        try expectMatchesRecording(r.stdout, "Examples/monthly.expected")
    }

    @Test func dotLoadAddsAFileOrReplacesTheDemo() throws {
        let extra = try Binary.temporaryFile("extra.json", """
            {"version": 1, "defaultCurrency": "INR",
             "books": [{"id": "x", "name": "Extra", "currency": "INR"}],
             "entries": [{"id": "x1", "bookId": "x", "amount": -5, "date": "2025-03-01", "category": "Tea"}]}
            """)
        // Beside a named ledger the file is added; in place of the demo it replaces it.
        let added = try Binary.run(["Examples/demo.json"], stdin: ".load \(extra)\ncount entries\n")
        #expect(added.status == 0)
        #expect(added.stdout.contains("│  1201 │"))
        let replaced = try Binary.run([], stdin: ".load \(extra)\ncount entries\n")
        #expect(replaced.stdout.contains("│     1 │"))
        // In place of the demo, the new ledger's default currency applies (it is USD here).
        let usd = try Binary.temporaryFile("usd.json", """
            {"version": 1, "defaultCurrency": "USD",
             "books": [{"id": "u", "name": "U", "currency": "USD"}],
             "entries": [{"id": "u1", "bookId": "u", "amount": -10, "date": "2025-03-01", "category": "Tea"}]}
            """)
        let switched = try Binary.run(["--no-rc", "--format", "json"], stdin: ".load \(usd)\nsum expenses\n")
        #expect(switched.stdout.contains("\"currency\":\"USD\""))
        #expect(switched.stdout.contains("\"amount\":\"10.00\""))
        // A file that cannot load changes nothing, and the script stops there with status 1.
        let failed = try Binary.run(["Examples/demo.json"], stdin: ".load /nonexistent.json\ncount entries\n")
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("/nonexistent.json: cannot open the ledger: no such file"))
    }

    @Test func pipedStdinIsReadAsAScript() throws {
        let script = try String(contentsOf: Binary.root.appendingPathComponent("Examples/monthly.abq"), encoding: .utf8)
        let r = try Binary.run(["Examples/demo.json"], stdin: script)
        #expect(r.status == 0)
        try expectMatchesRecording(r.stdout, "Examples/monthly.expected")
    }
}

@Suite struct CommandLineTests {
    @Test func noLedgerLoadsTheDemoAndSaysSo() throws {
        let r = try Binary.run(["-e", "count entries"])
        #expect(r.status == 0)
        #expect(r.stderr.hasPrefix("No ledger named: loaded the demo ledger (1,200 entries, 6 books)"))
        #expect(r.stdout.contains("│  1200 │"))
    }

    @Test func jsonOutputIsOneObjectPerStatement() throws {
        let r = try Binary.run(["Examples/demo.json", "--format", "json", "-e", "sum expenses in native by book during 2025-10", "-e", "count entries by book"])
        #expect(r.status == 0)
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        let first = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(first["columns"] as? [String] == ["book", "currency", "amount"])
        #expect(first["currency"] is NSNull)
        #expect((first["warnings"] as? [Any])?.isEmpty == true)
        // Money is a plain decimal string at the minor unit; no total row in JSON.
        let rows = try #require(first["rows"] as? [[String: Any]])
        #expect(rows.count == 6)
        #expect(rows[0]["book"] as? String == "Home")
        #expect(rows[0]["amount"] as? String == "176457.96")
        let second = try #require(try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])
        let counts = try #require(second["rows"] as? [[String: Any]])
        // Counts are JSON integers.
        #expect(counts.first?["count"] as? Int == 142)
        #expect(lines[0].contains("\"amount\":\"176457.96\""))
    }

    @Test func convertedJSONNamesItsCurrency() throws {
        let r = try Binary.run(["Examples/demo.json", "--format", "json", "-e", "sum expenses in INR"])
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("{\"columns\":[\"amount\"],\"rows\":[{\"amount\":\""))
        #expect(r.stdout.contains("\"currency\":\"INR\""))
    }

    @Test func aParseErrorPointsAtTheTokenAndExitsWithOne() throws {
        let r = try Binary.run(["Examples/demo.json", "-e", "sum expenses by catgory"])
        #expect(r.status == 1)
        #expect(r.stdout == "")
        #expect(r.stderr == """
              sum expenses by catgory
                              ^~~~~~~
            error: expected a group key (category, book, party, payment, currency, tag, day, week, month, quarter, year), found 'catgory'
            hint: did you mean `category`?

            """)
    }

    @Test func aScriptErrorNamesFileLineAndColumnAndStops() throws {
        let script = try Binary.temporaryFile("bad.abq", "count entries\n\n  sum expenses in XYZ\ncount entries by book\n")
        let r = try Binary.run(["Examples/demo.json", "-f", script])
        #expect(r.status == 1)
        // The place of the word itself, under the file's own line.
        #expect(r.stderr.contains("    sum expenses in XYZ\n" + String(repeating: " ", count: 20) + "^~~\n\(script):3:19: error: unknown currency 'XYZ'"))
        // The first statement ran, the third did not.
        #expect(r.stdout.contains("1200"))
        #expect(!r.stdout.contains("book"))
    }

    @Test func keepGoingRunsPastAFailure() throws {
        let r = try Binary.run(["Examples/demo.json", "--keep-going", "-e", "sum bogus", "-e", "count entries"])
        #expect(r.status == 1)
        #expect(r.stdout.contains("1200"))
    }

    @Test func aMissingRateFailsWithOneAndNamesThePair() throws {
        let ledger = try Binary.temporaryFile("norate.json", """
            {"version": 1, "defaultCurrency": "INR",
             "books": [{"id": "g", "name": "London", "currency": "GBP"}],
             "entries": [{"id": "1", "bookId": "g", "amount": -12.5, "date": "2025-03-01", "category": "Tea"},
                         {"id": "2", "bookId": "g", "amount": -7.5, "date": "2025-03-02", "category": "Tea"}]}
            """)
        let r = try Binary.run([ledger, "-e", "sum expenses in INR"])
        #expect(r.status == 1)
        #expect(r.stdout == "")
        #expect(r.stderr == """
            error: no exchange rate to convert 2 entries into INR:
              GBP/INR: 2 entries
            supply one with `set rate GBP/INR = …` for this session, or `with rate GBP/INR = …` in the query

            """)
    }

    @Test func aBadLedgerExitsWithTwoNamingFileLineAndPath() throws {
        let ledger = try Binary.temporaryFile("bad.json", """
            {"version": 1, "defaultCurrency": "INR",
             "books": [{"id": "h", "name": "Home", "currency": "INR"}],
             "entries": [
              {"id": "1", "bookId": "h", "amount": -1, "date": "2025-03-01", "category": "Tea"},
              {"id": "2", "bookId": "h", "amount": -1, "currency": "XYZ", "date": "2025-03-01", "category": "Tea"}
             ]}
            """)
        let r = try Binary.run([ledger, "-e", "count entries"])
        #expect(r.status == 2)
        #expect(r.stdout == "")
        #expect(r.stderr == "error: \(ledger):5:56: entries[1].currency: found \"XYZ\", expected an ISO 4217 currency code such as \"INR\" or \"USD\"\n")
    }

    @Test func aMissingLedgerFileExitsWithTwo() throws {
        let r = try Binary.run(["/nonexistent/ledger.json", "-e", "count entries"])
        #expect(r.status == 2)
        #expect(r.stderr == "error: /nonexistent/ledger.json: cannot open the ledger: no such file\n")
    }

    @Test func aBadOptionExitsWithTwo() throws {
        let r = try Binary.run(["--format", "yaml", "-e", "count entries"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("--format must be table, csv, json, markdown or chart"))
    }

    @Test func helpDescribesTheOptions() throws {
        let r = try Binary.run(["--help"])
        #expect(r.status == 0)
        for option in ["-e, --execute", "-f, --file", "--format", "--today", "--locale", "--no-color", "--keep-going"] {
            #expect(r.stdout.contains(option), "--help lacks \(option)")
        }
    }

    @Test func abacusrcRunsFirstUnlessNoRC() throws {
        let home = try Binary.temporaryFile("home/.abacusrc", "set currency USD\n")
        let dir = (home as NSString).deletingLastPathComponent
        let withRC = try Binary.run(["Examples/demo.json", "--format", "csv", "-e", "sum expenses"], environment: ["HOME": dir])
        #expect(withRC.stdout.contains("56442.56"))   // converted into USD, as the rc file said
        let without = try Binary.run(["Examples/demo.json", "--no-rc", "--format", "csv", "-e", "sum expenses"], environment: ["HOME": dir])
        #expect(without.stdout.contains("4748506.89"))
    }

    @Test func echoPrintsEachStatementBeforeItsResult() throws {
        let r = try Binary.run(["Examples/demo.json", "--echo", "--format", "csv"], stdin: "count entries\ncount expenses # spending\n")
        #expect(r.stdout == "count entries\ncount\r\n1200\r\ncount expenses\ncount\r\n1143\r\n")
    }

    @Test func pipedRunsPrintNoPromptsAndNoColour() throws {
        let r = try Binary.run(["Examples/demo.json"], stdin: "sum expenses by book\nsum bogus\n", environment: ["NO_COLOR": ""])
        #expect(!r.stdout.contains("abacus>"))
        #expect(!r.stdout.contains("\u{1B}["))
        #expect(!r.stderr.contains("\u{1B}["))
        #expect(r.stderr.contains("error:"))
    }

    @Test func csvOutputRoundTripsThroughACSVParser() throws {
        let r = try Binary.run(["Examples/demo.json", "--format", "csv", "-e", "list expenses where party ~ \",\" or party ~ \"'\""])
        #expect(r.status == 0)
        // A small RFC 4180 reader: quoted fields, doubled quotes, CRLF records.
        var records: [[String]] = [[]]
        var field = "", quoted = false, i = r.stdout.startIndex
        let text = r.stdout
        while i < text.endIndex {
            let c = text[i]
            if quoted {
                if c == "\"" {
                    let next = text.index(after: i)
                    if next < text.endIndex && text[next] == "\"" { field.append("\""); i = next } else { quoted = false }
                } else { field.append(c) }
            } else if c == "\"" { quoted = true }
            else if c == "," { records[records.count - 1].append(field); field = "" }
            else if c == "\r\n" || c == "\n" { records[records.count - 1].append(field); field = ""; records.append([]) }
            else { field.append(c) }
            i = text.index(after: i)
        }
        if records.last?.isEmpty == true { records.removeLast() }
        #expect(records.first == ["date", "book", "category", "party", "amount"])
        #expect(records.count > 2)
        #expect(records.allSatisfy { $0.count == 5 })
        #expect(records.contains { $0[3] == "The Hoxton, Holborn" })
    }

    @Test func todayFixesRelativeDates() throws {
        // The demo's 2025-10 holds 170 entries (count entries by month).
        let a = try Binary.run(["Examples/demo.json", "--today", "2025-10-20", "-e", "count entries during this month"])
        let b = try Binary.run(["Examples/demo.json", "-e", "count entries during this month"], environment: ["ABACUS_TODAY": "2025-10-20"])
        #expect(a.status == 0 && b.status == 0)
        #expect(a.stdout.contains("│   170 │"))
        #expect(a.stdout == b.stdout)
    }
}
