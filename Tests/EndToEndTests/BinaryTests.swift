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
        // Store images go to a folder of this run's own (removed after it), never the real
        // ~/.cache, and every run starts cold unless the test names a cache folder.
        let scratch = environment["XDG_CACHE_HOME"] == nil ? scratchCache() : nil
        defer { if let scratch { try? FileManager.default.removeItem(atPath: scratch) } }
        if let scratch { env["XDG_CACHE_HOME"] = scratch }
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        // Plain read(2) and write(2), retried on EINTR (Foundation's FileHandle traps on it), and
        // stderr drained on a thread of its own so that a full pipe cannot stall the child.
        let errBytes = Binary.Bytes()
        let drain = Thread { errBytes.value = Binary.readAll(err.fileHandleForReading.fileDescriptor) }
        drain.start()
        if let stdin { Binary.writeAll(input.fileHandleForWriting.fileDescriptor, Array(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        let o = Binary.readAll(out.fileHandleForReading.fileDescriptor)
        process.waitUntilExit()
        while !drain.isFinished { usleep(1000) }
        return Run(status: process.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
                   stderr: String(decoding: errBytes.value, as: UTF8.self))
    }

    final class Bytes: @unchecked Sendable { var value: [UInt8] = [] }

    static func readAll(_ fd: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return bytes }
            bytes += buffer[0..<n]
        }
    }

    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress.map { $0 + written }, bytes.count - written) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }
            written += n
        }
    }

    /// A new, empty folder name under the temporary folder (created by whoever writes to it).
    static func scratchCache() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("abacus-cache-\(UUID().uuidString)").path
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
        // A file that cannot load changes nothing, and the script stops there with status 2 (as
        // a ledger refused at start-up), its error at the script's line.
        let failed = try Binary.run(["Examples/demo.json"], stdin: ".load /nonexistent.json\ncount entries\n")
        #expect(failed.status == 2)
        #expect(failed.stderr.contains("<stdin>:1:1: error: /nonexistent.json: cannot open the ledger: no such file"))
        #expect(failed.stdout.isEmpty)
        let broken = try Binary.temporaryFile("broken.json", #"{"version": 1, "defaultCurrency": "INR", "books": [}"#)
        let script = try Binary.temporaryFile("load.abq", "count entries\n.load \(broken)\ncount entries\n")
        let refused = try Binary.run(["Examples/demo.json", "-f", script])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("load.abq:2:1: error: \(broken):1:"))
        // Going on past it, the session keeps its ledger, and the status stays 2.
        let kept = try Binary.run(["Examples/demo.json", "--keep-going", "-f", script])
        #expect(kept.status == 2)
        #expect(kept.stdout.components(separatedBy: "│  1200 │").count == 3)
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

    /// Markdown tables one after another are apart by a blank line, or a renderer reads the
    /// second as rows of the first; the first has none before it.
    @Test func markdownTablesAreSeparatedByABlankLine() throws {
        let r = try Binary.run(["Examples/demo.json", "--format", "markdown", "-e", "count entries by book top 2", "-e", "count entries by currency top 2"])
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("| book | count |\n"))
        #expect(r.stdout.contains("| **Total (top 2)** | 706 |\n\n| currency | count |\n"), "\(r.stdout)")
    }

    @Test func keepGoingRunsPastAFailure() throws {
        let r = try Binary.run(["Examples/demo.json", "--keep-going", "-e", "sum bogus", "-e", "count entries"])
        #expect(r.status == 1)
        #expect(r.stdout.contains("1200"))
        // A `.load` that fails goes on too, as in a script (the session keeps its ledger); the
        // status is the worst met (2: a ledger that could not be read).
        let load = try Binary.run(["Examples/demo.json", "--keep-going", "--format", "csv", "-e", ".load /nonexistent.json", "-e", "count entries", "-e", "sum bogus"])
        #expect(load.status == 2)
        #expect(load.stdout == "count\r\n1200\r\n")
        #expect(load.stderr.contains("error: /nonexistent.json: cannot open the ledger: no such file"))
        // Without it the first failure ends the run.
        #expect(try Binary.run(["Examples/demo.json", "-e", ".load /nonexistent.json", "-e", "count entries"]).stdout == "")
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
        for option in ["-e, --execute", "-f, --file", "--format", "--today", "--locale", "--no-color", "--keep-going", "--no-cache"] {
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

    /// `.quit` in ~/.abacusrc ends the file (the lines after it do not run), not the session.
    @Test func quitInAbacusrcEndsTheFileNotTheSession() throws {
        let home = try Binary.temporaryFile("rc-quit/.abacusrc", "set currency USD\n.quit\nset currency EUR\n")
        let dir = (home as NSString).deletingLastPathComponent
        let r = try Binary.run(["Examples/demo.json", "--format", "csv", "-e", "sum expenses", "-e", "books"], environment: ["HOME": dir])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("amount\r\n56442.56\r\n"), "\(r.stdout)")
    }

    /// `.help` of a dot command's or statement's name points to the topic that has it; a
    /// definition named like a topic does not hide the topic; `.format` says what it was given.
    @Test func helpAndFormatSayWhereToLook() throws {
        let r = try Binary.run(["Examples/demo.json", "--keep-going"],
                               stdin: ".help load\n.help undefine\ndefine query as count entries\n.help query\ndefine monthly(m) as count entries during $m\n.help monthy\n.format json; count entries\n")
        #expect(r.stderr.contains("<stdin>:1:1: error: no help on 'load'; topics: query, where,"))
        #expect(r.stderr.contains("hint: .help commands describes .load and the other dot commands"))
        #expect(r.stderr.contains("hint: .help statements describes undefine and the other statements"))
        #expect(r.stdout.contains("query is also a defined statement: define query() as count entries"))
        #expect(r.stdout.contains("AGG [SUBJECT] [in CUR|native]"), "the query topic is shown: \(r.stdout.prefix(300))")
        #expect(r.stderr.contains("hint: did you mean .help monthly?"))
        #expect(r.stderr.contains("error: .format takes one format (table, csv, json, markdown or chart), found 'json; count entries'; a dot command takes its whole line, so `;` does not end it"))
    }

    /// A currency converted into itself has the columns and currency of any conversion (it had
    /// no `date` column and no currency in JSON); `.help` in JSON is a message object, in CSV on
    /// stderr; in markdown an echoed statement after a table is a paragraph of its own.
    @Test func everyAnswerKeepsItsFormatsShape() throws {
        let same = try Binary.run(["Examples/demo.json", "--format", "json", "-e", "convert 100 INR to INR"])
        #expect(same.stdout == #"{"columns":["amount","converted","rate","source","date"],"rows":[{"amount":"100.00","converted":"100.00","rate":"1","source":"same currency","date":null}],"currency":"INR","warnings":[]}"# + "\n")
        let help = try Binary.run(["Examples/demo.json", "--format", "json", "-e", ".help units"])
        #expect(help.stdout.hasPrefix(#"{"message":"#) && help.stdout.split(separator: "\n").count == 1)
        let csv = try Binary.run(["Examples/demo.json", "--format", "csv", "-e", ".help units"])
        #expect(csv.stdout.isEmpty && !csv.stderr.isEmpty)
        let md = try Binary.run(["Examples/demo.json", "--format", "markdown", "--echo", "-e", "count entries by book top 1", "-e", "count entries"])
        #expect(md.stdout.contains("| **Total (top 1)** | 521 |\n\ncount entries\n\n| count |"), "\(md.stdout)")
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

/// Scripts, dot commands, the rc file and output modes, as the README describes them.
@Suite struct ShellScriptTests {
    /// A ledger whose names carry what a terminal must never receive raw.
    static let hostileLedger = #"""
    {"version":1,"defaultCurrency":"INR",
     "books":[{"id":"b1","name":"Home","currency":"INR","lockedExchangeRate":null,"targetCurrency":"INR","rateLockedAt":"2025-01-01"}],
     "entries":[
      {"id":"1","bookId":"b1","amount":-100,"date":"2025-10-01","category":"Food","party":"\u001b[2J\u001b[HCLEARED"},
      {"id":"2","bookId":"b1","amount":-200,"date":"2025-10-02","category":"Food","party":"Multi\nLine"},
      {"id":"3","bookId":"b1","amount":-300,"date":"2025-10-03","category":"Food","party":"\u0007bell, \"quoted\""}
     ]}
    """#

    @Test func errorsInsideContinuedStatementsNameTheirOwnLineAndColumn() throws {
        // Each error is reported where its word stands in the file, under that line of the file.
        let script = try Binary.temporaryFile("places.abq", """
            count entries
            sum expenses \\
               by book \\
               where categry = Rent
            sum expenses where (category = Rent  -- the rent
              or category = Txes)
            count entries;   count entries wher amount > 5
            """)
        let r = try Binary.run(["Examples/demo.json", "--keep-going", "-f", script])
        #expect(r.status == 1)
        #expect(r.stderr.contains("     where categry = Rent\n           ^~~~~~~\n\(script):4:10: error: expected a field"))
        #expect(r.stderr.contains("    or category = Txes)\n                  ^~~~\n\(script):6:17: error: no category is named \"Txes\""))
        #expect(r.stderr.contains("\(script):7:32: error: expected a clause"))
    }

    @Test func aByteOrderMarkDoesNotStartTheScript() throws {
        let r = try Binary.run(["Examples/demo.json", "--format", "csv"], stdin: "\u{FEFF}count entries\n")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "count\r\n1200\r\n")
    }

    @Test func commandLineFormatWinsOverTheRCFileAndRCMessagesStayOffStdout() throws {
        let rc = try Binary.temporaryFile("rc-format/.abacusrc", ".format csv\nset rate SGD/INR = 55\n")
        let home = (rc as NSString).deletingLastPathComponent
        let json = try Binary.run(["Examples/demo.json", "--format", "json", "--echo", "-e", "count entries"], environment: ["HOME": home])
        #expect(json.status == 0)
        // The rc file's format lost, its message went to stderr, and its statements were not echoed.
        #expect(json.stdout == "{\"statement\":\"count entries\"}\n{\"columns\":[\"count\"],\"rows\":[{\"count\":1200}],\"currency\":null,\"warnings\":[]}\n")
        #expect(json.stderr.contains("custom rate for this session: 1 SGD = 55 INR"))
        // Without --format, the rc file's setting holds.
        let csv = try Binary.run(["Examples/demo.json", "-e", "count entries"], environment: ["HOME": home])
        #expect(csv.stdout == "count\r\n1200\r\n")
    }

    @Test func echoInJSONKeepsEveryLineOneObject() throws {
        let r = try Binary.run(["Examples/demo.json", "--echo", "--format", "json", "-e", "count entries by book; sum expenses"])
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count == 4)
        for line in lines {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) is [String: Any], "not JSON: \(line)")
        }
        #expect(lines.first == #"{"statement":"count entries by book"}"#)
    }

    @Test(arguments: [".set  rates-key SECRET-K", ".SET rates-key SECRET-K", ".set\trates-key SECRET-K", " .set rates-KEY\t SECRET-K"])
    func aRatesKeyIsNeverEchoed(_ line: String) throws {
        let r = try Binary.run(["Examples/demo.json", "--echo", "--offline"], stdin: line + "\n")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stdout.contains("SECRET") && !r.stderr.contains("SECRET"))
        #expect(r.stdout == ".set rates-key …\n")
    }

    @Test func dotCommandArgumentsAreWordsNotStatements() throws {
        // `--` and `#` inside a path are part of it; quotes and backslashes keep spaces; ~ is HOME.
        let ledger = try Binary.temporaryFile("dots/my--ledger.json", try String(contentsOfFile: Binary.root.appendingPathComponent("Examples/demo.json").path, encoding: .utf8))
        let folder = (ledger as NSString).deletingLastPathComponent
        _ = try Binary.temporaryFile("dots/q#1.abq", "count entries by book\n")
        _ = try Binary.temporaryFile("dots/with space/s.abq", "count entries by payment\n")
        let script = """
            .load \(folder)/my--ledger.json  # replaces the demo
            .run \(folder)/q#1.abq
            .run "\(folder)/with space/s.abq"
            .run \(folder)/with\\ space/s.abq
            .run ~/q#1.abq
            """
        let r = try Binary.run(["--format", "csv"], stdin: script, environment: ["HOME": folder])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("loaded \(folder)/my--ledger.json: now 1,200 entries in 6 books from 1 file"))
        #expect(r.stdout.components(separatedBy: "Singapore Trip,").count == 3)
        #expect(r.stdout.components(separatedBy: "Credit Card,").count == 3)
    }

    @Test func loadMessagesCountInTheSingular() throws {
        let one = try Binary.temporaryFile("one.json", """
            {"version":1,"defaultCurrency":"INR","books":[{"id":"b1","name":"Home","currency":"INR","lockedExchangeRate":null,"targetCurrency":"INR","rateLockedAt":"2025-01-01"}],
             "entries":[{"id":"1","bookId":"b1","amount":-100,"date":"2025-10-01","category":"Food"}]}
            """)
        let r = try Binary.run(["-e", ".load \(one)"])
        #expect(r.stderr.contains("now 1 entry in 1 book from 1 file"), "\(r.stderr)")
    }

    @Test func formatAndTimerAloneShowTheirSetting() throws {
        let r = try Binary.run(["Examples/demo.json", "-e", ".format", "-e", ".format csv", "-e", ".format", "-e", ".timer"])
        #expect(r.status == 0)
        // Once the output is CSV, stdout holds only answers: the settings are told on stderr.
        #expect(r.stdout == "table\n")
        #expect(r.stderr == "csv\noff\n")
    }

    @Test func anUnknownLocaleIsRefused() throws {
        let r = try Binary.run(["--locale", "xx_YY", "-e", "sum expenses"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("--locale 'xx_YY' is not a locale"))
        #expect(r.stdout.isEmpty)
        let known = try Binary.run(["Examples/demo.json", "--locale", "de-DE", "--format", "markdown", "-e", "sum expenses"])
        #expect(known.status == 0)
        #expect(known.stdout.contains("4.748.506,89"))
        // A locale named without its script is the one its script implies (zh_CN: zh_Hans_CN; sr_RS: sr_Cyrl_RS).
        for (id, amount) in [("zh_CN", "4,748,506.89"), ("sr_RS", "4.748.506,89")] {
            let r = try Binary.run(["Examples/demo.json", "--locale", id, "--format", "markdown", "-e", "sum expenses"])
            #expect(r.status == 0, "\(id): \(r.stderr)")
            #expect(r.stdout.contains(amount), "\(id): \(r.stdout)")
        }
    }

    @Test func controlCharactersShowInTablesButCSVKeepsTheText() throws {
        let ledger = try Binary.temporaryFile("hostile.json", ShellScriptTests.hostileLedger)
        for format in ["table", "markdown", "chart"] {
            let r = try Binary.run([ledger, "--format", format, "-e", "sum expenses by party"])
            #expect(r.status == 0)
            #expect(!r.stdout.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{7}" }, "\(format) let a control character through")
            #expect(r.stdout.contains(#"\e[2J\e[HCLEARED"#) && r.stdout.contains(#"Multi\nLine"#) && r.stdout.contains(#"\u{7}bell"#), "\(format): \(r.stdout)")
        }
        // Every table line is as wide as the others: the escapes take the columns they show.
        let table = try Binary.run([ledger, "-e", "sum expenses by party"]).stdout
        #expect(Set(table.split(separator: "\n").map { $0.unicodeScalars.count }).count == 1)
        // CSV is data: the real text, quoted where RFC 4180 says.
        let csv = try Binary.run([ledger, "--format", "csv", "-e", "sum expenses by party"])
        #expect(csv.stdout.contains("\"Multi\nLine\",200.00\r\n"))
        #expect(csv.stdout.contains("\u{1B}[2J\u{1B}[HCLEARED,100.00\r\n"))
        #expect(csv.stdout.contains("\"\u{7}bell, \"\"quoted\"\"\",300.00\r\n"))
    }

    @Test func csvEndsEveryRecordWithCRLF() throws {
        let r = try Binary.run(["Examples/demo.json", "--format", "csv", "-e", "count entries by book", "-e", "count entries"])
        #expect(r.stdout.hasSuffix("count\r\n1200\r\n"))
        #expect(!r.stdout.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
    }

    @Test func aChartNeverComparesDifferentCurrenciesOnOneScale() throws {
        let r = try Binary.run(["Examples/demo.json", "--format", "chart", "-e", "sum expenses in native by book"])
        let lines = r.stdout.split(separator: "\n").map(String.init)
        // Each currency's largest amount gets the full bar: JPY's ¥459,166 is not a third of the rupees.
        func bar(_ label: String) -> Int { lines.first { $0.hasPrefix(label) }.map { $0.filter { $0 == "█" }.count } ?? -1 }
        let longest = lines.map { $0.filter { $0 == "█" }.count }.max() ?? 0
        #expect(longest > 20)
        #expect(bar("Tokyo Trip / JPY") == longest && bar("Home / INR") == longest && bar("Singapore Trip / SGD") == longest)
        #expect(lines.last == "Each currency has its own scale: `in CUR` converts them to compare.")
        // Small amounts in full: SGD 145.00 is not rounded to $140.
        #expect(lines.contains { $0.hasPrefix("Home / SGD") && $0.contains("$145.00") })
    }

    @Test func aChartOfAListingLabelsEntriesByDateAndParty() throws {
        let r = try Binary.run(["Examples/demo.json", "--format", "chart", "-e", "list expenses in native during 2025-10-05"])
        #expect(r.stdout.hasPrefix("2025-10-05  Ramesh Iyer (landlord)"), "\(r.stdout)")
    }

    @Test func helpNamesTheDefaultHistoryFile() throws {
        let r = try Binary.run(["--help"], environment: ["COLUMNS": "200"])
        #expect(r.stdout.contains("~/.local/state/abacus/history"))
    }

    @Test func helpSaysWhereStoreImagesGoAndHowToSkipThem() throws {
        let r = try Binary.run(["--help"], environment: ["COLUMNS": "200"])
        #expect(r.stdout.contains("$XDG_CACHE_HOME/abacus/ (default ~/.cache/abacus/)"))
        #expect(r.stdout.contains("8 most recently used"))
        #expect(r.stdout.contains("--no-cache skips them."))
    }
}

/// A group without a value and a value really named "(none)" are told apart: `(none)`
/// unquoted means the first, `"(none)"` quoted the second; JSON writes null and CSV an
/// empty field for the first and keeps the name for the second.
@Suite struct MissingValueTests {
    static let ledger = """
    {"version": 1, "defaultCurrency": "INR", "books": [{"id": "b", "name": "B", "currency": "INR"}],
     "entries": [{"id": "1", "bookId": "b", "amount": -1, "date": "2025-01-01", "category": "C", "party": "(none)"},
                 {"id": "2", "bookId": "b", "amount": -2, "date": "2025-01-02", "category": "C"},
                 {"id": "3", "bookId": "b", "amount": -4, "date": "2025-01-03", "category": "C"}]}
    """

    @Test func aPartyNamedNoneIsNotAMissingParty() throws {
        let path = try Binary.temporaryFile("none.json", MissingValueTests.ledger)
        let named = try Binary.run([path, "--format", "csv", "-e", "count entries where party = \"(none)\""])
        #expect(named.stdout == "count\r\n1\r\n")
        let missing = try Binary.run([path, "--format", "csv", "-e", "count entries where party = (none)"])
        #expect(missing.stdout == "count\r\n2\r\n")
        let json = try Binary.run([path, "--format", "json", "-e", "sum expenses by party"])
        #expect(json.stdout == #"{"columns":["party","amount"],"rows":[{"party":"(none)","amount":"1.00"},{"party":null,"amount":"6.00"}],"currency":"INR","warnings":[]}"# + "\n")
        let csv = try Binary.run([path, "--format", "csv", "-e", "list expenses"])
        #expect(csv.stdout.contains("2025-01-01,B,C,(none),1.00\r\n2025-01-02,B,C,,2.00\r\n"))
    }
}

/// CSV and markdown output holds only answers: notes and plans go to stderr.
@Suite struct ProseOnStderrTests {
    @Test(arguments: ["csv", "markdown"])
    func notesAndPlansGoToStderr(_ format: String) throws {
        let r = try Binary.run(["Examples/demo.json", "--format", format, "-e", "set rate SGD/INR = 60", "-e", "set currency USD",
                                "-e", "unset rate SGD/INR", "-e", "explain count entries", "-e", "count entries"])
        #expect(r.status == 0)
        #expect(r.stdout == (format == "csv" ? "count\r\n1200\r\n" : "| count |\n| ---: |\n| 1200 |\n"))
        #expect(r.stderr.contains("custom rate for this session") && r.stderr.contains("access path:"))
    }
}

/// `-f` reads what a shell hands it: a pipe as /dev/stdin, a FIFO; and says why it cannot read
/// a script. `.load` of a file already loaded reads it again; `.reload` reads them all again.
@Suite struct ScriptSourceTests {
    @Test func aScriptFromAPipeOrAFIFO() throws {
        let r = try Binary.run(["Examples/demo.json", "--format", "csv", "-f", "/dev/stdin"], stdin: "count entries\n")
        #expect(r.status == 0 && r.stdout == "count\r\n1200\r\n", "\(r.stderr)")
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("abacus-fifo-\(UUID().uuidString)").path
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { try? FileManager.default.removeItem(atPath: fifo) }
        let writer = Thread { try? "count entries where currency = JPY\n".write(toFile: fifo, atomically: false, encoding: .utf8) }
        writer.start()
        let f = try Binary.run(["Examples/demo.json", "--format", "csv", "-f", fifo])
        #expect(f.status == 0 && f.stdout == "count\r\n111\r\n", "\(f.stderr)")
    }

    @Test func whyAScriptCannotBeRead() throws {
        let missing = try Binary.run(["Examples/demo.json", "-f", "/nonexistent/script.abq"])
        #expect(missing.status == 2 && missing.stderr.contains("cannot read script /nonexistent/script.abq: No such file or directory"))
        let folder = try Binary.run(["Examples/demo.json", "-f", FileManager.default.temporaryDirectory.path])
        #expect(folder.status == 2 && folder.stderr.contains("it is a folder"))
    }

    @Test func loadingAFileAgainReplacesIt() throws {
        let ledger = #"{"version":1,"defaultCurrency":"INR","books":[{"id":"b","name":"B","currency":"INR"}],"entries":[{"id":"1","bookId":"b","amount":-1,"date":"2025-01-01","category":"C"}]}"#
        let path = try Binary.temporaryFile("reload.json", ledger)
        // The file changes between the loads: the second reads the edit instead of refusing duplicate ids.
        let script = ".load \(path)\ncount entries\n.load \(path)\ncount entries\n.reload\ncount entries\n"
        let r = try Binary.run(["Examples/demo.json", "--format", "csv"], stdin: script)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "count\r\n1201\r\ncount\r\n1201\r\ncount\r\n1201\r\n")
        #expect(r.stderr.contains("reloaded \(path): now 1,201 entries") && r.stderr.contains("reloaded 2 files"))
    }
}

/// The watch list through the binary: kept between runs in the state folder, shown first and
/// marked by `rates`; a bad line is a warning and skipped, never a failure, and the next
/// change keeps the good codes.
@Suite struct WatchListBinaryTests {
    @Test func watchedCurrenciesLastBetweenRunsAndADamagedFileIsOnlyAWarning() throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("abacus-watch-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: state) }
        let env = ["XDG_STATE_HOME": state]
        let first = try Binary.run(["Examples/demo.json", "--today", "2025-12-31", "-e", "watch SGD, JPY"], environment: env)
        #expect(first.status == 0 && first.stdout.contains("watching SGD, JPY"))
        let second = try Binary.run(["Examples/demo.json", "--today", "2025-12-31", "--format", "csv", "-e", "rates watched"], environment: env)
        let lines = second.stdout.split(separator: "\r\n").map(String.init)
        #expect(lines.first == "watched,currency,name,rate (1 INR),source,date")
        #expect(lines.dropFirst().map { $0.split(separator: ",").prefix(2).joined(separator: ",") } == ["★,SGD", "★,JPY"])
        try "USD\nEUR\nusd\nnot a currency\n".write(toFile: state + "/abacus/watch", atomically: true, encoding: .utf8)
        let damaged = try Binary.run(["Examples/demo.json", "--today", "2025-12-31", "--format", "csv", "-e", "count entries", "-e", "watch GBP"], environment: env)
        #expect(damaged.status == 0 && damaged.stdout.hasPrefix("count\r\n1200\r\n"), "\(damaged.stderr)")
        #expect(damaged.stderr.contains("warning: skipping line 4 of the watch list \(state)/abacus/watch: found \"not a currency\""))
        let rewritten = try String(contentsOfFile: state + "/abacus/watch", encoding: .utf8)
        #expect(rewritten.split(separator: "\n").filter { !$0.hasPrefix("#") } == ["USD", "EUR", "GBP"])
        // A code named twice is one; one not watched is said, as one watched already is.
        let mixed = try Binary.run(["Examples/demo.json", "-e", "watch GBP, JPY, JPY", "-e", "unwatch CHF, USD, USD"], environment: env)
        #expect(mixed.status == 0)
        #expect(mixed.stdout == "watching JPY; already watched: GBP\nno longer watching USD; not watched: CHF\n", "\(mixed.stderr)")
        let none = try Binary.run(["Examples/demo.json", "-e", "unwatch CHF"], environment: env)
        #expect(none.status == 1 && none.stderr.contains("error: not watched: CHF"))
    }
}
