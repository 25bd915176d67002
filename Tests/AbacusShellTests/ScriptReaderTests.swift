// How the shell reads scripts and dot commands, and where it says an error is.

@testable import AbacusShell
import AbacusCore
import AbacusQuery
import Testing

@Suite struct ScriptReaderTests {
    @Test func dotCommandsAreWholeLinesAndStatementsAreSplit() {
        let pieces = StatementReader.pieces(of: """
            .load my--ledger.json   # the ledger
            count entries; sum expenses -- two
              .run q#1.abq
            sum expenses where (category = Rent
              or category = Taxes)
            count entries; .format csv
            """)
        #expect(pieces.map(\.kind) == [.command, .statement, .statement, .command, .statement, .statement, .command])
        #expect(pieces[0].text == ".load my--ledger.json   # the ledger")
        #expect(pieces[3].text == ".run q#1.abq" && pieces[3].source.start == (3, 3))
        #expect(pieces[4].source.start == (4, 1))
        #expect(pieces[6].text == ".format csv")
    }

    @Test func aByteOrderMarkAndCRLFLineEndsAreNotText() {
        let pieces = StatementReader.pieces(of: "\u{FEFF}count entries\r\n.format csv\r\n")
        #expect(pieces.map(\.text) == ["count entries", ".format csv"])
        #expect(pieces[0].source.start == (1, 1))
    }

    @Test func theReaderWaitsForAStatementToClose() {
        var reader = StatementReader()
        #expect(reader.read(line: "sum expenses where (category = Rent").isEmpty)
        #expect(reader.isContinuing)
        // A line that begins with a dot inside an open statement is part of it.
        #expect(reader.read(line: "  .5 or category = Taxes").isEmpty)
        reader.abandon()
        #expect(!reader.isContinuing)
        #expect(reader.read(line: ".help").map(\.kind) == [.command])
    }

    /// (script, the statement's number, the word, its line and column).
    static let places: [(String, Int, String, Int, Int)] = [
        ("count entries\nsum expenses \\\n   by book \\\n   where categry = Rent\n", 1, "categry", 4, 10),
        ("sum expenses where (category = Rent  -- the rent\n  or category = Txes)\n", 0, "Txes", 2, 17),
        ("count entries;   count entries wher amount > 5\n", 1, "wher", 1, 32),
        ("count entries \\   \n  where party = \"Café\" and catgory = x\n", 0, "catgory", 2, 28),
        ("sum expenses # note\\\n  by bok\n", 1, "bok", 2, 6),
    ]

    @Test(arguments: places)
    func anOffsetInAStatementIsItsPlaceInTheFile(_ c: (String, Int, String, Int, Int)) throws {
        let (script, index, word, line, column) = c
        let pieces = StatementReader.pieces(of: script)
        let piece = try #require(pieces.count > index ? pieces[index] : nil, "\(pieces.map(\.text))")
        let offset = try #require(piece.text.utf8.firstRange(of: word.utf8)).lowerBound
        let place = piece.source.place(ofByte: piece.text.utf8.distance(from: piece.text.utf8.startIndex, to: offset), in: piece.text)
        #expect(place.line == line && place.column == column, "\(word): \(place)")
        // The line shown is the file's own line, and the offset points at the word in it.
        let fileLine = script.split(separator: "\n", omittingEmptySubsequences: false)[line - 1]
        #expect(place.text == String(fileLine))
        #expect(Array(place.text.utf8)[place.offset...].starts(with: Array(word.utf8)))
    }

    @Test func aScriptErrorIsDrawnUnderTheFilesLine() throws {
        let pieces = StatementReader.pieces(of: "sum expenses \\\n\twhere categry = Rent\n")
        let start = try #require(pieces[0].text.utf8.firstRange(of: "categry".utf8)).lowerBound
        let offset = pieces[0].text.utf8.distance(from: pieces[0].text.utf8.startIndex, to: start)
        let error = QueryError(.unsupported("test"), at: offset..<(offset + 7))
        let text = Shell.diagnostic(error, statement: pieces[0].text, at: pieces[0].source, in: "s.abq")
        // The tab shows as one column, so the caret stays under the word.
        #expect(text == "   where categry = Rent\n         ^~~~~~~\ns.abq:2:8: error: test")
    }
}

@Suite struct DotCommandTests {
    @Test(arguments: [
        (".load my--ledger.json", [".load", "my--ledger.json"]),
        (".run q#1.abq  # a comment", [".run", "q#1.abq"]),
        (".run \"my script.abq\" -- a comment", [".run", "my script.abq"]),
        (".run my\\ script.abq", [".run", "my script.abq"]),
        (".run 'it''s'", [".run", "its"]),
        (".set rates-url https://x.test/{base}?k={key}#f", [".set", "rates-url", "https://x.test/{base}?k={key}#f"]),
        (".SET\trates-key  K", [".set", "rates-key", "K"]),
        (".run \"a \\\"b\\\" c.abq\"", [".run", "a \"b\" c.abq"]),
    ])
    func wordsAsAShellReadsThem(_ line: String, _ words: [String]) throws {
        let c = try DotCommand.parse(line)
        #expect([c.name] + c.arguments == words)
    }

    @Test func aTildeIsTheHomeFolderOnlyWhereItStartsAPath() throws {
        let c = try DotCommand.parse(".run ~/x.abq")
        #expect(c.path(0, home: "/home/me") == "/home/me/x.abq")
        #expect(try DotCommand.parse(".run \"~/x.abq\"").path(0, home: "/home/me") == "~/x.abq")
        #expect(try DotCommand.parse(".run a~/x.abq").path(0, home: "/home/me") == "a~/x.abq")
    }

    @Test func anUnclosedQuoteIsAnError() {
        #expect(throws: DotCommand.ParseError.unterminatedQuote("\"")) { try DotCommand.parse(".run \"x.abq") }
    }

    @Test(arguments: [".set rates-key K", ".set  rates-key K", ".SET RATES-KEY K", ".set\trates-key K", ".set rates-key \"unclosed"])
    func aRatesKeyIsASecretHoweverItIsTyped(_ line: String) {
        #expect(DotCommand.holdsSecret(line))
    }

    @Test func otherSettingsAreNotSecrets() {
        #expect(!DotCommand.holdsSecret(".set rates-url https://x.test"))
        #expect(!DotCommand.holdsSecret(".help rates"))
    }
}

@Suite struct TableLayoutTests {
    // A listing: date, book, category, party, amount.
    static let natural = [10, 14, 21, 24, 12]
    static let numeric = [false, false, false, false, true]
    static let dates = [true, false, false, false, false]

    @Test func aWideEnoughWindowShowsEverything() {
        let l = TableLayout(natural: Self.natural, numeric: Self.numeric, dates: Self.dates, width: 200)
        #expect(l.columns == [0, 1, 2, 3, 4] && l.widths == Self.natural && l.hidden.isEmpty)
    }

    @Test(arguments: [100, 80, 60, 40, 30])
    func theTableFitsAndNeverCutsDatesOrMoney(_ width: Int) {
        let l = TableLayout(natural: Self.natural, numeric: Self.numeric, dates: Self.dates, width: width)
        if width >= 40 { #expect(TableLayout.total(l.widths) <= width) }
        #expect(l.columns.first == 0 && l.columns.last == 4)
        for (position, column) in l.columns.enumerated() {
            guard let i = column else { continue }
            if Self.numeric[i] || Self.dates[i] { #expect(l.widths[position] == Self.natural[i]) }
            else { #expect(l.widths[position] >= TableLayout.minimumCut) }
        }
        // The marker stands where columns were left out, once.
        #expect(l.columns.filter { $0 == nil }.count == (l.hidden.isEmpty ? 0 : 1))
    }

    /// `rate SGD/INR`: pair, rate, source, date. In 40 columns the source and then the date
    /// give way; the rate, the answer, stays though it is not the last column.
    @Test func theAnswerStaysWhenItIsNotTheLastColumn() {
        let l = TableLayout(natural: [7, 14, 45, 10], numeric: [false, true, false, false], dates: [false, false, false, true], width: 40)
        #expect(l.columns.contains(1) && l.columns.first == 0)
        #expect(TableLayout.total(l.widths) <= 40)
        #expect(l.hidden.contains(2))
    }

    @Test func theRightmostTextColumnGoesFirst() {
        let l = TableLayout(natural: Self.natural, numeric: Self.numeric, dates: Self.dates, width: 60)
        #expect(l.hidden == [3])
        #expect(l.columns == [0, 1, 2, nil, 4])
    }
}

@Suite struct VisibleTextTests {
    @Test(arguments: [
        ("plain Café ₹", "plain Café ₹"),
        ("\u{1B}[2Jgone", "\\e[2Jgone"),
        ("two\nlines\tand\r", "two\\nlines\\tand\\r"),
        ("\u{7}bell\u{85}next", "\\u{7}bell\\u{85}next"),
        ("del\u{7F}", "del\\u{7f}"),
        // A right-to-left override would reverse the rest of the row, amount included.
        ("evil\u{202E}321", "evil\\u{202e}321"),
        ("\u{FEFF}bom\u{2028}", "\\u{feff}bom\\u{2028}"),
    ])
    func controlCharactersBecomeVisibleEscapes(_ raw: String, _ shown: String) {
        #expect(ShownText.shown(raw) == shown)
        #expect(TextWidth.of(ShownText.shown(raw)) == ShownText.shown(raw).count)
    }
}
