// Bank statements read by their rules: each rule with a small statement of its own,
// the CSV form's corners, the rules' refusals, stable ids and the comparison with
// ledgers already kept.

import AbacusCore
@testable import AbacusImport
import Foundation
import Testing

/// Rules with the given lines after `book` and `currency`.
func rules(_ lines: String, currency: String = "currency = \"INR\"") throws -> ImportRules {
    try ImportRules.parse("book = \"b-home\"\n\(currency)\n" + lines, name: "rules.toml")
}

func entries(_ csv: String, _ rules: ImportRules) throws -> [ImportedEntry] {
    try StatementImporter.read(Array(csv.utf8), name: "statement.csv", rules: rules)
}

func importFailure(_ csv: String, _ rules: ImportRules) -> String? {
    do {
        _ = try entries(csv, rules)
        return nil
    } catch {
        return "\(error)"
    }
}

func rulesFailure(_ lines: String) -> String? {
    do {
        _ = try rules(lines)
        return nil
    } catch {
        return "\(error)"
    }
}

/// What a test reads back of an entry: date, amount, category, party.
func summary(_ e: ImportedEntry) -> String {
    "\(e.day) \(e.amount.normalized) \(e.category) \(e.party ?? "-")"
}

/// A file of the test's own, in a folder of this run.
func scratchFile(_ name: String, _ text: String = "") throws -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("abacus-import-tests-\(getpid())/\(name)")
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try text.write(to: url, atomically: true, encoding: .utf8)
    return url.path
}

struct CSVFormTests {
    @Test func quotedFieldsHoldCommasQuotesAndLineBreaks() throws {
        let records = try CSVReader.records(Array("a,\"1,204.75\",\"say \"\"hi\"\"\"\r\n\"two\nlines\",x,\n".utf8), skip: 0)
        #expect(records.map(\.fields) == [["a", "1,204.75", "say \"hi\""], ["two\nlines", "x", ""]])
        #expect(records.map(\.line) == [1, 2])
    }

    @Test func anUnclosedQuoteIsNamedAtTheLineItOpens() {
        #expect(throws: CSVSyntaxError.self) { try CSVReader.records(Array("a,b\nc,\"open\nmore\n".utf8), skip: 0) }
        do {
            _ = try CSVReader.records(Array("a,b\nc,\"open\nmore\n".utf8), skip: 0)
        } catch {
            #expect(error.line == 2)
        }
    }

    /// A lone CR ends a line as LF and CRLF do (spreadsheets on older Macs save so): each
    /// row is a row, and the lines errors name count them.
    @Test func aLoneCarriageReturnEndsALine() throws {
        let records = try CSVReader.records(Array("date,amount\r2025-01-05,-1\r\"two\rlines\",-2\r\n2025-01-07,-3".utf8), skip: 1)
        #expect(records.map(\.fields) == [["2025-01-05", "-1"], ["two\rlines", "-2"], ["2025-01-07", "-3"]])
        #expect(records.map(\.line) == [2, 3, 5])
    }

    /// A field that is not UTF-8 (a statement saved as Latin-1) stops the import at its line,
    /// rather than reaching the ledger with U+FFFD in place of its letters.
    @Test func aFieldThatIsNotUTF8IsRefused() {
        let bytes = Array("a,b\n2025-01-05,Caf".utf8) + [0xE9] + Array("\n".utf8)
        #expect(throws: CSVSyntaxError.self) { try CSVReader.records(bytes, skip: 0) }
        do { _ = try CSVReader.records(bytes, skip: 0) } catch {
            #expect(error.line == 2)
            #expect(error.message.hasPrefix("field 2 is not UTF-8 text"))
        }
        // Nor may a field hold NUL, which no ledger's text holds.
        do { _ = try CSVReader.records(Array("a,b\nc,d\u{0}e\n".utf8), skip: 0); Issue.record("a NUL was read") } catch {
            #expect(error.line == 2)
            #expect(error.message.hasPrefix("field 2 holds a NUL byte"))
        }
    }

    @Test func skippedLinesNeedNotBeCSV() throws {
        let records = try CSVReader.records(Array("Statement \"for\nDate,Amount\n01/11/25,5\n".utf8), skip: 2)
        #expect(records.map(\.fields) == [["01/11/25", "5"]])
        #expect(records.first?.line == 3)
    }
}

struct StatementRuleTests {
    /// A category pattern that backtracks for long on a row stops the import with a message
    /// naming the line and the pattern (it hung): here after a second without progress, on a
    /// party that keeps the pattern busy for a few seconds more.
    @Test func aPatternThatRunsTooLongStopsTheImportWithAMessage() throws {
        let r = try rules("date = { column = 1, format = \"dd/MM/yyyy\" }\namount = { column = 3 }\nparty = 2\n[[categories]]\npattern = '^(\\w+\\s?)*$'\ncategory = \"Shopping\"")
        let csv = "01/11/2025,AMAZON PAY,-1\n02/11/2025," + String(repeating: "a", count: 17) + "!,-12.50\n"
        do {
            _ = try StatementImporter.read(Array(csv.utf8), name: "statement.csv", rules: r, patternLimit: 1)
            Issue.record("the import finished")
        } catch {
            #expect(error.description.hasPrefix("statement.csv:2: categories[0].pattern: \"^(\\w+\\s?)*$\" has run for 1 second on this row's party or remarks without an answer"))
        }
        // A quick pattern is matched as ever.
        #expect(try entries("01/11/2025,AMAZON PAY,-1\n", r).map(\.category) == ["Shopping"])
    }

    @Test func twoDigitYearsDayFirst() throws {
        let r = try rules("date = { column = 1, format = \"dd/MM/yy\" }\namount = { column = 2 }")
        #expect(try entries("01/11/25,-5\n29/02/24,-1\n", r).map(\.day.description) == ["2025-11-01", "2024-02-29"])
        #expect(importFailure("29/02/25,-1\n", r) == "statement.csv:1: column 1 (date): found \"29/02/25\", expected a date written dd/MM/yy that exists in the calendar")
    }

    @Test(arguments: [
        ("yyyy-MM-dd", "2025-11-03"), ("MM/dd/yyyy", "11/03/2025"), ("dd-MM-yy", "03-11-25"),
        ("dd/MM/yyyy", "03/11/2025"), ("d MMM yyyy", "3 Nov 2025"), ("dd.MM.yyyy", "03.11.2025"),
    ])
    func dateFormats(format: String, text: String) throws {
        let r = try rules("date = { column = 1, format = \"\(format)\" }\namount = { column = 2 }")
        #expect(try entries("\(text),1\n", r).first?.day.description == "2025-11-03")
    }

    @Test func decimalCommaWithDotsForThousands() throws {
        let r = try rules("date = { column = 1, format = \"dd.MM.yyyy\" }\namount = { column = 2 }\ndecimal = \",\"")
        #expect(try entries("03.11.2025,\"-1.204,75\"\n04.11.2025,\"12,5\"\n", r).map { $0.amount.normalized.description } == ["-1204.75", "12.5"])
        // With a decimal comma, 1,204.75 is not an amount: the point would be a grouping after the decimals.
        #expect(importFailure("03.11.2025,\"1,204.75\"\n", r)?.hasPrefix("statement.csv:1: column 2 (amount): found \"1,204.75\", expected an amount such as 1.204,75") == true)
    }

    @Test func debitAndCreditColumnsGiveTheSign() throws {
        let r = try rules("date = { column = 1, format = \"yyyy-MM-dd\" }\namount = { debit = 2, credit = 3 }")
        let rows = try entries("2025-11-01,\"1,204.75\",\n2025-11-02,,\"2,45,000.00\"\n2025-11-03,0.00,10\n", r)
        #expect(rows.map { $0.amount.normalized.description } == ["-1204.75", "245000", "10"])
        #expect(importFailure("2025-11-01,,\n", r) == "statement.csv:1: columns 2 and 3 (debit, credit): both are empty or 0, expected an amount in one of them")
        #expect(importFailure("2025-11-01,1,2\n", r) == "statement.csv:1: columns 2 and 3 (debit, credit): both hold an amount, expected one of them only")
        // A debit written with a minus is still money out; a credit with one contradicts its column.
        #expect(try entries("2025-11-01,-10,\n", r).map { $0.amount.normalized.description } == ["-10"])
        #expect(importFailure("2025-11-01,,-10\n", r) == "statement.csv:1: column 3 (credit): found \"-10\", expected an amount received, without a minus sign (money out belongs in the debit column 2)")
    }

    @Test func aQuotedAmountWithThousandsSeparators() throws {
        let r = try rules("date = { column = 1, format = \"yyyy-MM-dd\" }\namount = { column = 2 }")
        #expect(try entries("2025-11-01,\"-1,204.75\"\n2025-11-02,\"(1,000.10)\"\n2025-11-03,99.90-\n", r).map { $0.amount.normalized.description }
                == ["-1204.75", "-1000.1", "-99.9"])
        // A comma that cannot be grouping is the other decimal separator: refused, not read as 15.
        #expect(importFailure("2025-11-01,\"1,5\"\n", r) == "statement.csv:1: column 2 (amount): found \"1,5\", expected an amount such as 1,204.75 (decimal = \".\" in the rules)")
        #expect(try entries("2025-11-01,\"12,34,567.5\"\n2025-11-02,1 000 000\n", r).map { $0.amount.normalized.description } == ["1234567.5", "1000000"])
        // Parentheses are the sign: one inside them as well says two things, and is refused.
        for text in ["(-10)", "(+10)", "(10-)"] {
            #expect(importFailure("2025-11-01,\(text)\n", r)?.hasPrefix("statement.csv:1: column 2 (amount): found \"\(text)\", expected an amount") == true, "\(text)")
        }
    }

    /// An amount of more digits than Abacus holds exactly is refused as the ledger loader
    /// refuses one (docs/ledger-format.md#numbers), not called "not an amount".
    @Test func anAmountTooLongToHoldExactlyIsSaidToBe() throws {
        let r = try rules("date = { column = 1, format = \"yyyy-MM-dd\" }\namount = { column = 2 }")
        #expect(importFailure("2025-11-01,1234567890123456789012345678901234567890.00\n", r)
                == "statement.csv:1: column 2 (amount): \"1234567890123456789012345678901234567890.00\" cannot be held exactly (at most 38 significant digits and 38 decimals); it is refused rather than rounded")
        #expect(importFailure("2025-11-01,\"(1,234,567,890,123,456,789,012,345,678,901,234,567,890)\"\n", r)?
                    .hasSuffix("cannot be held exactly (at most 38 significant digits and 38 decimals); it is refused rather than rounded") == true)
        // 38 digits are held.
        #expect(try entries("2025-11-01,-12345678901234567890123456789012345678\n", r).first?.amount.description == "-12345678901234567890123456789012345678")
        // But not beside an amount with decimals: a ledger holds its amounts at one scale.
        #expect(importFailure("2025-11-01,0.001\n2025-11-02,12345678901234567890123456789012345678\n", r)
                == "statement.csv:2: column 2 (amount): 12345678901234567890123456789012345678 cannot be held exactly beside the amount of line 1, 0.001, with 3 decimals (38 digits at most in a ledger)")
        // A long amount is quoted cut, not whole.
        let long = "1" + String(repeating: "0", count: 5000)
        #expect(importFailure("2025-11-01,\(long)\n", r) == "statement.csv:1: column 2 (amount): \"\(long.prefix(60))…\" cannot be held exactly (at most 38 significant digits and 38 decimals); it is refused rather than rounded")
    }

    @Test func aHeaderToSkipAndTheLinesErrorsName() throws {
        let r = try rules("skip = 1\ndate = { column = 1, format = \"yyyy-MM-dd\" }\namount = { column = 2 }")
        #expect(try entries("Date,Amount\n2025-11-01,5\n", r).count == 1)
        // Without the skip, the header is a row that cannot be read.
        let noSkip = try rules("date = { column = 1, format = \"yyyy-MM-dd\" }\namount = { column = 2 }")
        #expect(importFailure("Date,Amount\n2025-11-01,5\n", noSkip) == "statement.csv:1: column 1 (date): found \"Date\", expected a date written yyyy-MM-dd that exists in the calendar")
        #expect(importFailure("2025-11-01,5\n\n2025-11-02\n", r) == "statement.csv:3: column 2 (amount): the row has only 1 field")
    }

    @Test func categoriesFirstMatchOnPartyOrRemarksElseTheDefault() throws {
        let r = try rules("""
            date = { column = 1, format = "yyyy-MM-dd" }
            amount = { column = 2 }
            party = 3
            remarks = 4
            [[categories]]
            pattern = "(?i)swiggy|zomato"
            category = "Food & Dining"
            [[categories]]
            pattern = "dinner"
            category = "Never: the first match wins"
            [[categories]]
            pattern = "(?i)uber"
            category = "Transport"
            """)
        let rows = try entries("2025-11-01,-1,SWIGGY,dinner\n2025-11-02,-2,Cab,uber to airport\n2025-11-03,-3,Amazon,\n", r)
        #expect(rows.map(summary) == ["2025-11-01 -1 Food & Dining SWIGGY", "2025-11-02 -2 Transport Cab", "2025-11-03 -3 Uncategorized Amazon"])
        let named = try rules("date = { column = 1, format = \"yyyy-MM-dd\" }\namount = { column = 2 }\ndefault_category = \"To sort\"")
        #expect(try entries("2025-11-01,-1\n", named).first?.category == "To sort")
    }

    @Test func currencyFromAColumn() throws {
        let r = try rules("date = { column = 1, format = \"yyyy-MM-dd\" }\namount = { column = 2 }", currency: "currency = { column = 3 }")
        #expect(try entries("2025-11-01,-1,SGD\n", r).first?.currency.code == "SGD")
        #expect(importFailure("2025-11-01,-1,sgd\n", r) == "statement.csv:1: column 3 (currency): found \"sgd\", expected an ISO 4217 currency code such as \"INR\" or \"USD\"; did you mean \"SGD\"?")
    }

    @Test(arguments: [
        ("dates = { column = 1, format = \"yyyy-MM-dd\" }", "rules.toml: dates: unknown key; expected one of"),
        ("date = { column = 1, format = \"dd/mm/yyyy\" }\namount = { column = 2 }", "rules.toml: date.format: \"mm\" in \"dd/mm/yyyy\" is not a date pattern letter"),
        ("date = { column = 0, format = \"yyyy-MM-dd\" }\namount = { column = 2 }", "rules.toml: date.column: found 0, expected a column number counted from 1"),
        ("date = { column = 1, format = \"yyyy-MM-dd\" }\namount = { column = 2, debit = 3 }", "rules.toml: amount: expected either { column = N } (signed) or { debit = N, credit = M }"),
        ("date = { column = 1, format = \"yyyy-MM-dd\" }\namount = { column = 2 }\ndecimal = \";\"", "rules.toml: decimal: found \";\", expected"),
        ("date = { column = 1, format = \"yyyy-MM-dd\" }\namount = { debit = 3, credit = 3 }", "rules.toml: amount: debit and credit are both column 3: name the two columns"),
        ("date = { column = 1, format = \"yyyy-MM-dd\" }\namount = { column = 2 }\n[[categories]]\npattern = \"(\"\ncategory = \"X\"", "rules.toml: categories[0].pattern: \"(\" is not a valid regular expression"),
        ("date = { column = 1, format = \"yyyy-MM-dd\" }\namount = { column = 2 }\n[[categories]]\npattern = \"x\"\ncategroy = \"X\"", "rules.toml: categories[0].categroy: unknown key; expected one of pattern, category (did you mean \"category\"?)"),
        ("date = { column = 1, format = \"yyyy-MM-dd\" \namount = 1", "rules.toml:3: not valid TOML: Error while parsing inline table"),
    ])
    func badRulesNameTheKey(lines: String, message: String) {
        let failure = rulesFailure(lines)
        #expect(failure?.hasPrefix(message) == true, "\(failure ?? "accepted")")
    }

    @Test func anUnknownCurrencyInTheRules() {
        #expect(throws: ImportError.self) { try rules("", currency: "currency = \"RS\"") }
        let failure: String? = {
            do { _ = try rules("", currency: "currency = \"usd\""); return nil } catch { return "\(error)" }
        }()
        #expect(failure == "rules.toml: currency: found \"usd\", expected an ISO 4217 currency code such as \"INR\" or \"USD\"; did you mean \"USD\"?")
    }
}

struct StableIDTests {
    static let rulesText = """
        book = "b-home"
        currency = "INR"
        skip = 1
        date = { column = 1, format = "dd/MM/yy" }
        amount = { debit = 3, credit = 4 }
        party = 2
        """
    static let statement = """
        Date,Narration,Debit,Credit
        01/11/25,SWIGGY,"1,204.75",
        02/11/25,ACME PAYROLL,,"2,45,000.00"
        05/11/25,BLUE TOKAI,240.00,
        05/11/25,BLUE TOKAI,240.00,

        """

    func ids(_ output: [UInt8]) throws -> [String] {
        let text = String(decoding: output, as: UTF8.self)
        return text.split(separator: "\"id\":\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
    }

    @Test func theSameRowGivesTheSameIDOnEveryRunAndIdenticalRowsAreCounted() throws {
        let rulesPath = try scratchFile("ids.toml", StableIDTests.rulesText)
        let csv = try scratchFile("ids.csv", StableIDTests.statement)
        let first = try ids(StatementImporter.run(statement: csv, rules: rulesPath, against: []).output)
        #expect(first.count == 4)
        #expect(Set(first).count == 4)
        #expect(first[3] == first[2] + "-2")
        // Another file, other rows around, other formatting: the same row, the same id.
        let moved = try scratchFile("ids-moved.csv", "Date,Narration,Debit,Credit\n30/10/25,OTHER,1,\n02/11/25,ACME PAYROLL,0,245000\n")
        let second = try ids(StatementImporter.run(statement: moved, rules: rulesPath, against: []).output)
        #expect(second.last == first[1])
        #expect(try ids(StatementImporter.run(statement: csv, rules: rulesPath, against: []).output) == first)
    }

    @Test func reImportingAgainstTheFirstOutputSkipsEveryRow() throws {
        let rulesPath = try scratchFile("again.toml", StableIDTests.rulesText)
        let csv = try scratchFile("again.csv", StableIDTests.statement)
        let first = try StatementImporter.run(statement: csv, rules: rulesPath, against: [])
        #expect(first.imported == 4 && first.skipped == 0)
        let output = try scratchFile("again.json")
        try StatementImporter.write(first.output, to: output)
        let again = try StatementImporter.run(statement: csv, rules: rulesPath, against: [output])
        #expect(again.imported == 0 && again.skipped == 4)
        // One of two identical rows already kept: the other one is new.
        let one = try scratchFile("one-coffee.json", """
            {"version": 1, "defaultCurrency": "INR", "books": [{"id": "b-home", "name": "Home", "currency": "INR"}],
             "entries": [{"id": "m1", "bookId": "b-home", "amount": -240, "date": "2025-11-05", "category": "Food", "party": " blue tokai "}]}
            """)
        let partly = try StatementImporter.run(statement: csv, rules: rulesPath, against: [one])
        #expect(partly.imported == 3 && partly.skipped == 1)
        // The row kept is the second coffee: it keeps the id it has in a run that skips nothing.
        let all = try ids(first.output)
        #expect(try ids(partly.output) == [all[0], all[1], all[3]])
    }

    @Test func theOutputLoadsBesideTheLedgerThatDefinesItsBookAndNotAlone() throws {
        let rulesPath = try scratchFile("beside.toml", StableIDTests.rulesText)
        let csv = try scratchFile("beside.csv", StableIDTests.statement)
        let output = try scratchFile("beside.json")
        try StatementImporter.write(try StatementImporter.run(statement: csv, rules: rulesPath, against: []).output, to: output)
        let main = try scratchFile("main.json", """
            {"version": 1, "defaultCurrency": "INR", "books": [{"id": "b-home", "name": "Home", "currency": "INR"}]}
            """)
        let ledger = try LedgerLoader.load(paths: [main, output])
        #expect(ledger.entries.count == 4)
        #expect((0..<4).map { ledger.entries.amount(at: $0).normalized.description } == ["-1204.75", "245000", "-240", "-240"])
        let other = try scratchFile("other.json", """
            {"version": 1, "defaultCurrency": "INR", "books": [{"id": "b-office", "name": "Office", "currency": "INR"}]}
            """)
        #expect {
            try LedgerLoader.load(paths: [other, output])
        } throws: { error in
            (error as? LoadError)?.message.hasPrefix("no book has id \"b-home\"") == true
        }
    }
}
