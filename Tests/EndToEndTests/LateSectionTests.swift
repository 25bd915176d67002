// The sections of a store image checked when first read (entry ids, parties, payment
// modes, remarks, tags, posting lists), through the real binary: a damaged one is never
// needed by a statement that does not read it, and a statement that reads it — an
// answer, a did-you-mean suggestion, Tab completion in the REPL — answers as a cold
// start does, after the note an image refused at start gives.

@testable import AbacusCore
import Foundation
import Testing

enum LateImage {
    /// One byte flipped in the middle of each of `sections` of the image at `path`.
    static func damage(_ path: String, _ sections: [StoreImage.S]) throws {
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let dir = try bytes.withUnsafeBytes { raw throws(ImageProblem) in try StoreImage.directory(raw) }
        for s in sections {
            let (offset, length, _) = dir.sections[s.rawValue]
            #expect(length > 0, "section \(s) is empty in the demo ledger's image")
            bytes[offset + length / 2] ^= 0x01
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// A cache holding the demo ledger's image, and that image's path.
    static func cacheWithImage() throws -> (cache: String, image: String) {
        let cache = ImageRun.cache()
        _ = try ImageRun.run(cache, ["Examples/demo.json", "-e", "count entries"])
        let images = ImageRun.images(cache)
        try #require(images.count == 1)
        return (cache, images[0])
    }
}

@Suite struct LateSectionTests {
    /// Statements that read none of the late sections of the demo ledger's image (the demo has
    /// split entries: statements by or about category read every section, through the split view).
    static let untouched = ["--format", "csv", "-e", "sum expenses in INR by book", "-e", "count entries by month",
                            "-e", "sum entries in USD by currency", "-e", "avg expenses in INR by book, quarter"]

    @Test func aSectionNeverReadIsNeverNeeded() throws {
        let (cache, image) = try LateImage.cacheWithImage()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let cold = try ImageRun.run(cache, ["--no-cache", "Examples/demo.json"] + LateSectionTests.untouched)
        try LateImage.damage(image, Array(StoreImage.late))
        let warm = try ImageRun.run(cache, ["Examples/demo.json"] + LateSectionTests.untouched)
        #expect(cold.status == 0 && warm.status == 0)
        #expect(warm.stdout == cold.stdout)
        #expect(warm.stderr == "", "\(warm.stderr)")
    }

    /// Each late section damaged, and a statement that reads it: the answer of a cold start,
    /// after one note; the image is saved anew, and the next start uses it silently.
    @Test(arguments: [
        (StoreImage.S.idArena, "list expenses where book = Home top 3 show id"),
        (.idStarts, "list expenses where book = Home top 3 show id"),
        (.entryID, "list expenses where book = Home top 3 show id"),
        (.party, "sum expenses in INR by party"),
        (.parties, "count entries where party = Amazon"),
        (.payment, "count entries by payment"),
        (.payments, "count entries by payment"),
        (.remarks, "list expenses where book = Home top 5 show remarks"),
        (.remarkTexts, "list expenses where book = Home top 5 show remarks"),
        (.tagStart, "count entries by tag"),
        (.tagCodes, "sum expenses in INR by tag"),
        (.tags, "count entries where tag = kyoto"),
        (.categoryStarts, "categories"),
        (.categoryRows, "categories"),
        (.bookStarts, "books"),
        (.bookRows, "count entries where book = Home"),
        (.currencyStarts, "count entries where currency = USD"),
        (.currencyRows, "sum entries where currency = JPY"),
    ])
    func aDamagedSectionIsSeenByTheStatementThatReadsIt(_ section: StoreImage.S, _ statement: String) throws {
        let (cache, image) = try LateImage.cacheWithImage()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let args = ["Examples/demo.json", "--format", "csv", "-e", "sum expenses in INR by book", "-e", statement, "-e", "count entries by month"]
        let cold = try ImageRun.run(cache, ["--no-cache"] + args)
        try LateImage.damage(image, [section])
        let warm = try ImageRun.run(cache, args)
        #expect(cold.status == 0 && warm.status == 0, "\(warm.stderr)")
        #expect(warm.stdout == cold.stdout)
        #expect(warm.stderr.hasPrefix("note: ignoring the store image \(image): its "), "\(warm.stderr)")
        #expect(warm.stderr.hasSuffix("; reading the JSON\n") && warm.stderr.split(separator: "\n").count == 1, "\(warm.stderr)")
        let again = try ImageRun.run(cache, args)
        #expect(again.stdout == cold.stdout && again.stderr == "")
    }

    /// A query may run on the image while the ledger file is still being hashed; its answer is
    /// shown only once the file is found to match, and any other statement waits. After an edit
    /// that keeps the size and the time, statements of every kind answer as from the JSON, each
    /// once, after one note.
    @Test func statementsOfEveryKindAfterAnEditAnswerAsFromTheJSON() throws {
        let cache = ImageRun.cache()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let ledger = try ImageRun.ledgerCopy()
        defer { try? FileManager.default.removeItem(atPath: (ledger as NSString).deletingLastPathComponent) }
        let statements = ["sum expenses in INR by book", "define spent as sum expenses in INR by quarter", "spent", "set currency USD",
                          "count entries where amount > 100", "list expenses where book = Home top 3 show id, remarks"]
        for (i, first) in [statements, Array(statements.dropFirst())].enumerated() {
            let args = [ledger, "--format", "csv"] + first.flatMap { ["-e", $0] }
            _ = try ImageRun.run(cache, args)
            #expect(ImageRun.images(cache).count == 1)
            try ImageRun.editOneDigitKeepingSizeAndTime(ledger)
            let after = try ImageRun.run(cache, args)
            let truth = try ImageRun.run(cache, ["--no-cache"] + args)
            #expect(after.status == 0 && after.stdout == truth.stdout, "round \(i)")
            #expect(after.stderr == "note: \(ledger) changed since its store image was saved; reading the JSON\n" + truth.stderr, "\(after.stderr)")
        }
    }

    /// A did-you-mean suggestion comes from the names of a late section: with that section
    /// damaged, the same suggestion as a cold start's, after the note.
    @Test func aSuggestionFromADamagedSectionIsTheColdStartsOne() throws {
        let (cache, image) = try LateImage.cacheWithImage()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let args = ["Examples/demo.json", "--keep-going", "-e", "sum expenses where payment = Cach", "-e", "count entries where tag = kyto"]
        let cold = try ImageRun.run(cache, ["--no-cache"] + args)
        #expect(cold.stderr.contains("did you mean") || cold.stderr.contains("Did you mean"), "\(cold.stderr)")
        try LateImage.damage(image, [.payments, .tags])
        let warm = try ImageRun.run(cache, args)
        #expect(warm.status == cold.status && warm.stdout == cold.stdout)
        #expect(warm.stderr == "note: ignoring the store image \(image): its dictionary payments does not match its checksum: damaged; "
                + "reading the JSON\n" + cold.stderr, "\(warm.stderr)")
    }

    /// Tab completion offers the names of a late section: with it damaged, the REPL completes
    /// as it would from the JSON (and says why it read the JSON).
    @Test func tabCompletionFromADamagedSectionCompletesFromTheJSON() throws {
        let state = try StateDirectory()
        _ = try Binary.run(["--no-rc", "Examples/demo.json", "-e", "count entries"], environment: ["XDG_CACHE_HOME": state.path])
        let images = ImageRun.images(state.path)
        try #require(images.count == 1)
        try LateImage.damage(images[0], [.parties])
        let s = try PTYSession(stateDirectory: state.path)
        try #require(s.expectPrompt(REPLTests.prompt), "no prompt; output: \(s.output.debugDescription)")
        s.send("sum expenses in INR where party = Caf")
        s.send("\t")
        s.send("E")
        s.send("\t")
        s.send("\r")
        // Only party = "Café Einstein" gives this total.
        #expect(s.expect("₹8,205.65"), "output: \(s.output.debugDescription)")
        #expect(s.output.contains("ignoring the store image"), "output: \(s.output.debugDescription)")
        #expect(s.expectPrompt(REPLTests.prompt))
        s.send("\u{04}")
        #expect(s.waitForExit() == 0)
    }
}
