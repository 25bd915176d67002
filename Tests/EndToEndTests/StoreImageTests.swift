// Store images through the real binary: a warm start answers exactly as a cold one
// (every golden statement), an edit that keeps the size and the modification time
// is seen, a damaged image or an unwritable cache folder falls back to the JSON with
// a note and the right answer, and `--no-cache` writes nothing.

@testable import AbacusCore
import Foundation
import Testing

enum ImageRun {
    /// A cache folder of its own for one test (created by the binary).
    static func cache() -> String { Binary.scratchCache() }

    static func images(_ cache: String) -> [String] {
        let folder = cache + "/abacus"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasPrefix("store-") && $0.hasSuffix(".img") }.map { folder + "/" + $0 }
    }

    static func run(_ cache: String, _ args: [String]) throws -> Run {
        try Binary.run(["--no-rc", "--today", "2025-12-31"] + args, environment: ["XDG_CACHE_HOME": cache])
    }

    /// A copy of the demo ledger in a folder of its own.
    static func ledgerCopy() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("abacus-image-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent("ledger.json").path
        try FileManager.default.copyItem(atPath: Binary.root.appendingPathComponent("Examples/demo.json").path, toPath: path)
        return path
    }

    /// The first digit of the first expense amount (`"amount": -1234.56`) changed in place, and
    /// the modification time put back: the size and the time are as they were.
    static func editOneDigitKeepingSizeAndTime(_ ledger: String) throws {
        try editKeepingSizeAndTime(ledger, after: "\"amount\": -") { $0 == UInt8(ascii: "9") ? UInt8(ascii: "8") : $0 + 1 }
    }

    /// The byte just after the first `key` of the ledger changed by `change`, and the
    /// modification time put back: the size and the time are as they were.
    static func editKeepingSizeAndTime(_ ledger: String, after key: String, _ change: (UInt8) -> UInt8) throws {
        let attributes = try FileManager.default.attributesOfItem(atPath: ledger)
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: ledger)))
        let key = Array(key.utf8)
        let at = try #require((0..<(bytes.count - key.count)).first(where: { Array(bytes[$0..<($0 + key.count)]) == key }),
                              "no \(String(decoding: key, as: UTF8.self)) in the demo ledger")
        bytes[at + key.count] = change(bytes[at + key.count])
        try Data(bytes).write(to: URL(fileURLWithPath: ledger))
        try FileManager.default.setAttributes([.modificationDate: attributes[.modificationDate] as Any], ofItemAtPath: ledger)
        #expect((try FileManager.default.attributesOfItem(atPath: ledger))[.size] as? Int == attributes[.size] as? Int)
    }

    static let question = ["--format", "csv", "-e", "sum expenses in INR by category", "-e", "count entries by book"]
}

@Suite struct StoreImageEndToEndTests {
    static var goldenFiles: [String] {
        let folder = Binary.root.appendingPathComponent("Tests/Golden").path
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".test") }.sorted()
    }

    /// Every statement of a golden file, in order, as one script (blocks: a header line
    /// `query`/`error`/`plan`, then the statement).
    static func statements(_ file: String) throws -> [String] {
        let text = try String(contentsOfFile: Binary.root.appendingPathComponent("Tests/Golden/" + file).path, encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        var out: [String] = []
        for (i, line) in lines.enumerated() where i + 1 < lines.count {
            if let kind = line.split(separator: " ").first, ["query", "error", "plan"].contains(String(kind)) { out.append(lines[i + 1]) }
        }
        return out
    }

    @Test(arguments: goldenFiles)
    func aWarmStartAnswersEveryGoldenStatementAsAColdOne(_ file: String) throws {
        let cache = ImageRun.cache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let statements = try StoreImageEndToEndTests.statements(file)
        #expect(!statements.isEmpty)
        let args = ["Examples/demo.json", "--keep-going"] + statements.flatMap { ["-e", $0] }
        let cold = try ImageRun.run(cache, args)
        #expect(ImageRun.images(cache).count == 1, "the cold start saves an image")
        let warm = try ImageRun.run(cache, args)
        let reference = try ImageRun.run(cache, ["--no-cache"] + args)
        #expect(warm.stdout == cold.stdout)
        #expect(warm.stderr == cold.stderr)
        #expect(warm.status == cold.status)
        #expect(reference.stdout == cold.stdout && reference.stderr == cold.stderr)
        #expect(!warm.stderr.contains("store image"))
    }

    /// The image keeps the rate column of the ledger's own currency and rates. Rates from a
    /// file, `set rate`, another today or a maximum rate age: a warm start answers exactly as a
    /// cold one (the saved column is not used where it would differ).
    @Test func aWarmStartWithOtherRatesOrSettingsAnswersAsAColdOne() throws {
        let cache = ImageRun.cache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        // Market rates into INR for every currency of the demo ledger on every day of 2025: later
        // than the ledger's own on the same day, so entries at market rates convert differently.
        var csv = "date,base,currency,rate\n"
        var day = Day(year: 2025, month: 1, day: 1)
        for _ in 0..<365 {
            guard let d = day else { break }
            for (k, c) in ["USD", "EUR", "GBP", "JPY", "SGD"].enumerated() { csv += "\(d),\(c),INR,\(40 + k).5\n" }
            day = Day(number: d.number + 1)
        }
        let rates = try Binary.temporaryFile("image-rates-\(UUID().uuidString).csv", csv)
        defer { try? FileManager.default.removeItem(atPath: rates) }
        let question = ["-e", "sum expenses in INR by book", "-e", "sum entries in INR by month"]
        let first = try ImageRun.run(cache, ["Examples/demo.json", "--format", "csv"] + question)
        #expect(ImageRun.images(cache).count == 1)
        let variants: [(extra: [String], changes: Bool)] = [
            (["--rates", rates] + question, true),
            (["-e", "set rate USD/INR = 50"] + question, true),
            (["--max-rate-age", "3"] + question, false),
            (["--keep-going", "-e", "set currency USD", "-e", "sum expenses by book"] + question, true),
        ]
        for (extra, changes) in variants {
            let args = ["Examples/demo.json", "--format", "csv"] + extra
            let warm = try ImageRun.run(cache, args)
            let cold = try ImageRun.run(cache, ["--no-cache"] + args)
            #expect(warm.stdout == cold.stdout && warm.stderr == cold.stderr && warm.status == cold.status, "\(extra)")
            if changes { #expect(warm.stdout != first.stdout, "\(extra) should change the answers") }
        }
        // Another today (booked rates do not depend on it): the same answers, warm or cold.
        let args = ["--no-rc", "--today", "2025-03-01", "Examples/demo.json", "--format", "csv"] + question
        let warm = try Binary.run(args, environment: ["XDG_CACHE_HOME": cache])
        let cold = try Binary.run(["--no-cache"] + args, environment: ["XDG_CACHE_HOME": cache])
        #expect(warm.stdout == cold.stdout && warm.stderr == cold.stderr && warm.stdout == first.stdout)
    }

    /// One digit changed in place, the size and the modification time put back: the
    /// contents hash tells, and the answer is the new one.
    @Test func anEditOfOneDigitKeepingSizeAndTimeIsSeen() throws {
        let cache = ImageRun.cache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let ledger = try ImageRun.ledgerCopy()
        defer { try? FileManager.default.removeItem(atPath: (ledger as NSString).deletingLastPathComponent) }
        let before = try ImageRun.run(cache, [ledger] + ImageRun.question)
        #expect(before.status == 0)
        #expect(ImageRun.images(cache).count == 1)
        try ImageRun.editOneDigitKeepingSizeAndTime(ledger)
        let after = try ImageRun.run(cache, [ledger] + ImageRun.question)
        let truth = try ImageRun.run(cache, ["--no-cache", ledger] + ImageRun.question)
        #expect(after.status == 0)
        #expect(after.stdout == truth.stdout)
        #expect(after.stdout != before.stdout)
        #expect(after.stderr == "note: \(ledger) changed since its store image was saved; reading the JSON\n", "\(after.stderr)")
        // The image was saved anew: the next start uses it silently.
        let again = try ImageRun.run(cache, [ledger] + ImageRun.question)
        #expect(again.stdout == truth.stdout && again.stderr == "")
    }

    /// An image that another program rewrites in place while a session reads it (here the image
    /// of the ledger before an edit, written over the one in use) is given up after the statement
    /// that may have read it: the note, and the answer read from the JSON, never the old image's.
    @Test func anImageRewrittenInPlaceDuringASessionIsGivenUp() throws {
        let state = try StateDirectory()
        let ledger = try ImageRun.ledgerCopy()
        defer { try? FileManager.default.removeItem(atPath: (ledger as NSString).deletingLastPathComponent) }
        _ = try ImageRun.run(state.path, [ledger, "-e", "count entries"])
        let image = try #require(ImageRun.images(state.path).first)
        let old = try Data(contentsOf: URL(fileURLWithPath: image))
        try ImageRun.editOneDigitKeepingSizeAndTime(ledger)
        let truth = try ImageRun.run(state.path, ["--no-cache", ledger, "--format", "csv", "-e", "sum expenses in INR"])
        _ = try ImageRun.run(state.path, [ledger, "-e", "count entries"])
        let s = try PTYSession(stateDirectory: state.path, arguments: ["--no-rc", "--today", "2025-12-31", "--format", "csv", ledger])
        try #require(s.expectPrompt(REPLTests.prompt), "output: \(s.output.debugDescription)")
        // The old image over the new one, the same file (as `cp` writes it).
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: image))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: old)
        try handle.close()
        s.send("sum expenses in INR\r")
        #expect(s.expect("rewritten while in use"), "output: \(s.output.debugDescription)")
        #expect(s.expectPrompt(REPLTests.prompt), "output: \(s.output.debugDescription)")
        let answer = truth.stdout.split(separator: "\r\n").last.map(String.init) ?? "?"
        #expect(s.output.contains(answer), "expected \(answer); output: \(s.output.debugDescription)")
        s.send("\u{04}")
        #expect(s.waitForExit() == 0)
    }

    /// A ledger file broken since its image was saved (a month of 91, size and time kept) is
    /// refused as a cold start refuses it: exit status 2, its error once, no answer, whether the
    /// script asks something, only runs a dot command, or runs nothing at all (docs/ledger-format.md#errors).
    @Test func aLedgerBrokenSinceItsImageWasSavedIsExitStatus2() throws {
        let cache = ImageRun.cache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let ledger = try ImageRun.ledgerCopy()
        defer { try? FileManager.default.removeItem(atPath: (ledger as NSString).deletingLastPathComponent) }
        #expect(try ImageRun.run(cache, [ledger, "-e", "count entries"]).status == 0)
        #expect(ImageRun.images(cache).count == 1)
        try ImageRun.editKeepingSizeAndTime(ledger, after: "\"date\": \"2025-") { _ in UInt8(ascii: "9") }
        let cold = try ImageRun.run(cache, ["--no-cache", ledger, "-e", "count entries"])
        #expect(cold.status == 2)
        let error = try #require(cold.stderr.split(separator: "\n").first { $0.hasPrefix("error: ") }, "\(cold.stderr)")
        #expect(error.contains(ledger) && error.contains("date"), "\(error)")
        for args in [["-e", "count entries"], ["-f", "/dev/null"], ["-e", ".format csv"], ["--keep-going", "-e", "count entries", "-e", "sum entries"], []] {
            let warm = try Binary.run(["--no-rc", ledger] + args, stdin: "", environment: ["XDG_CACHE_HOME": cache])
            #expect(warm.status == 2, "\(args): \(warm.stderr)")
            #expect(warm.stdout == "", "\(args)")
            #expect(warm.stderr.split(separator: "\n").filter { $0.hasPrefix("error: ") } == [error], "\(args): \(warm.stderr)")
        }
    }

    /// The loader's note about two files' default currencies is said on a warm start as on a
    /// cold one, and after an edit of that very field (size and time kept) only the new note is.
    @Test func aWarmStartSaysTheLoadersNotesAndNeverAStaleOne() throws {
        let cache = ImageRun.cache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let ledger = try ImageRun.ledgerCopy()
        let folder = (ledger as NSString).deletingLastPathComponent
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let second = folder + "/second.json"
        let file = #"{"version": 1, "defaultCurrency": "USD", "books": [{"id": "b-x", "name": "X", "currency": "USD"}], "entries": []}"#
        try file.write(toFile: second, atomically: true, encoding: .utf8)
        let args = [ledger, second, "--format", "csv", "-e", "count entries"]
        let note = "note: \(second) has defaultCurrency USD; INR, from \(ledger), the first file to give one, is used (`set currency USD` to change it)\n"
        let cold = try ImageRun.run(cache, args)
        #expect(cold.status == 0 && cold.stderr == note, "\(cold.stderr)")
        let warm = try ImageRun.run(cache, args)
        #expect(warm.stdout == cold.stdout && warm.stderr == note, "\(warm.stderr)")
        let time = try FileManager.default.attributesOfItem(atPath: second)[.modificationDate] as Any
        try file.replacingOccurrences(of: "USD", with: "EUR").write(toFile: second, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.modificationDate: time], ofItemAtPath: second)
        let edited = try ImageRun.run(cache, args)
        #expect(edited.stderr == "note: \(second) changed since its store image was saved; reading the JSON\n"
            + note.replacingOccurrences(of: "USD", with: "EUR"), "\(edited.stderr)")
    }

    enum Damage: String, CaseIterable, CustomStringConvertible {
        case truncated, flippedByte, flippedHeaderByte, otherFormat, notAnImage, empty
        var description: String { rawValue }

        func apply(_ path: String) throws {
            var b = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            switch self {
            case .truncated: b = Array(b.prefix(b.count / 2))
            case .flippedByte:
                // In the amounts, which every answer reads (a section only some answers read is
                // checked when first read: LateSectionTests).
                let dir = try b.withUnsafeBytes { raw throws(ImageProblem) in try StoreImage.directory(raw) }
                let amounts = dir.sections[StoreImage.S.amount.rawValue]
                b[amounts.offset + amounts.length * 2 / 3] ^= 0x01
            case .flippedHeaderByte: b[70] ^= 0x40
            case .otherFormat: b[8] = b[8] &+ 1
            case .notAnImage: b = Array("{\"version\": 1}".utf8)
            case .empty: b = []
            }
            try Data(b).write(to: URL(fileURLWithPath: path))
        }
    }

    @Test(arguments: Damage.allCases)
    func aDamagedImageFallsBackToTheJSONWithANote(_ damage: Damage) throws {
        let cache = ImageRun.cache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let ledger = try ImageRun.ledgerCopy()
        defer { try? FileManager.default.removeItem(atPath: (ledger as NSString).deletingLastPathComponent) }
        let cold = try ImageRun.run(cache, [ledger] + ImageRun.question)
        let images = ImageRun.images(cache)
        #expect(images.count == 1)
        guard let image = images.first else { return }
        try damage.apply(image)
        let r = try ImageRun.run(cache, [ledger] + ImageRun.question)
        #expect(r.status == 0)
        #expect(r.stdout == cold.stdout)
        #expect(r.stderr.hasPrefix("note: ignoring the store image \(image): "), "\(r.stderr)")
        #expect(r.stderr.hasSuffix("; reading the JSON\n") && r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        if damage == .otherFormat { #expect(r.stderr.contains("image format")) }
        // Saved anew and used silently.
        let again = try ImageRun.run(cache, [ledger] + ImageRun.question)
        #expect(again.stdout == cold.stdout && again.stderr == "")
    }

    /// A cache folder that cannot be made (its parent is a file: even root cannot write
    /// there) is a one-line note; the answer is the same.
    @Test func anUnwritableCacheFolderIsANoteNotAnError() throws {
        let blocker = try Binary.temporaryFile("image-blocker-\(UUID().uuidString)", "not a folder")
        let r = try ImageRun.run(blocker, ["Examples/demo.json"] + ImageRun.question)
        let truth = try ImageRun.run(ImageRun.cache(), ["--no-cache", "Examples/demo.json"] + ImageRun.question)
        try? FileManager.default.removeItem(atPath: blocker)
        #expect(r.status == 0)
        #expect(r.stdout == truth.stdout)
        #expect(r.stderr.hasPrefix("note: cannot save a store image in \(blocker)/abacus"), "\(r.stderr)")
        #expect(r.stderr.hasSuffix("the next start reads the JSON again\n") && r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
    }

    @Test func noCacheNeitherWritesNorReadsAnImage() throws {
        let cache = ImageRun.cache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let ledger = try ImageRun.ledgerCopy()
        defer { try? FileManager.default.removeItem(atPath: (ledger as NSString).deletingLastPathComponent) }
        let r = try ImageRun.run(cache, ["--no-cache", ledger] + ImageRun.question)
        #expect(r.status == 0 && r.stderr == "")
        #expect(!FileManager.default.fileExists(atPath: cache), "--no-cache created \(cache)")
        // An image that would be noticed as damaged is not even opened.
        _ = try ImageRun.run(cache, [ledger] + ImageRun.question)
        guard let image = ImageRun.images(cache).first else { Issue.record("no image saved"); return }
        try Damage.flippedByte.apply(image)
        let skipped = try ImageRun.run(cache, ["--no-cache", ledger] + ImageRun.question)
        #expect(skipped.stderr == "" && skipped.stdout == r.stdout)
    }

    /// Progress is for a person at a terminal: a script's stderr never gets it.
    @Test func aScriptGetsNoProgressLine() throws {
        let r = try ImageRun.run(ImageRun.cache(), ["--no-cache", "Examples/demo.json", "-e", "count entries"])
        #expect(!r.stderr.contains("loading") && !r.stderr.contains("%"))
    }
}
