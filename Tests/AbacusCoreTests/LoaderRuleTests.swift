// Refusal rules of the ledger loader (docs/ledger-format.md), and the few things it must accept.
//
// Every bad document below is the valid minimal ledger of `ledger(...)` with one
// thing changed; each case says which file, JSON path, line and message words the
// refusal must carry.

import Foundation
import Testing
@testable import AbacusCore

// MARK: - The minimal valid ledger

let book1 = #"{"id": "b1", "name": "Home", "currency": "INR"}"#
let entry1 = #"{"id": "e1", "bookId": "b1", "amount": -12.50, "date": "2025-10-04", "category": "Food"}"#
let entry2 = #"{"id": "e2", "bookId": "b1", "amount": 100, "currency": "SGD", "date": "2025-10-05", "category": "Salary"}"#

/// One book (line 5), two entries (lines 8 and 9), rates on line 11, custom rates on line 12.
func ledger(version: String = #""version": 1,"#,
            defaultCurrency: String = #""defaultCurrency": "INR","#,
            books: String = book1,
            e1: String = entry1,
            e2: String = entry2,
            rates: String = "",
            customRates: String = "") -> String {
    """
    {
      \(version)
      \(defaultCurrency)
      "books": [
        \(books)
      ],
      "entries": [
        \(e1),
        \(e2)
      ],
      "rates": [\(rates)],
      "customRates": [\(customRates)]
    }
    """
}

func entry1(replacing old: String, with new: String) -> String {
    precondition(entry1.contains(old))
    return entry1.replacingOccurrences(of: old, with: new)
}

func entry2(replacing old: String, with new: String) -> String {
    precondition(entry2.contains(old))
    return entry2.replacingOccurrences(of: old, with: new)
}

func book1(replacing old: String, with new: String) -> String {
    precondition(book1.contains(old))
    return book1.replacingOccurrences(of: old, with: new)
}

// MARK: - Refusals

struct NamedDocument: Sendable {
    var name: String
    var bytes: [UInt8]
}

struct BadCase: Sendable, CustomTestStringConvertible {
    var label: String
    var documents: [NamedDocument]
    /// Write the documents to files and use `load(paths:)` (for bytes a `String` cannot hold).
    var viaFiles = false
    var file: String
    var path: String?
    var line: Int?
    var message: [String]

    var testDescription: String { label }

    init(_ label: String, _ text: String, file: String = "bad.json", path: String?, line: Int?, _ message: String...) {
        self.label = label
        self.documents = [NamedDocument(name: "bad.json", bytes: Array(text.utf8))]
        self.file = file
        self.path = path
        self.line = line
        self.message = message
    }

    init(_ label: String, documents: [(String, String)], file: String, path: String?, line: Int?, _ message: String...) {
        self.label = label
        self.documents = documents.map { NamedDocument(name: $0.0, bytes: Array($0.1.utf8)) }
        self.file = file
        self.path = path
        self.line = line
        self.message = message
    }

    init(_ label: String, bytes: [UInt8], path: String?, line: Int?, _ message: String...) {
        self.label = label
        self.documents = [NamedDocument(name: "bad.json", bytes: bytes)]
        self.viaFiles = true
        self.file = "bad.json"
        self.path = path
        self.line = line
        self.message = message
    }
}

/// Cut in the middle of entries[1]'s category string.
let truncated: String = {
    let full = ledger()
    let cut = full.range(of: #""Salary""#)!.lowerBound
    return String(full[..<full.index(cut, offsetBy: 4)])
}()

let invalidUTF8: [UInt8] = {
    var bytes = Array(ledger(e1: entry1(replacing: "Food", with: "F@@d")).utf8)
    let at = bytes.firstIndex(of: UInt8(ascii: "@"))!
    bytes[at] = 0xC3      // a lead byte …
    bytes[at + 1] = 0x28  // … followed by a non-continuation byte
    return bytes
}()

let deepNesting = String(repeating: "[", count: 300_000)

let secondFile = """
{
  "version": 1,
  "defaultCurrency": "INR",
  "books": [{"id": "b2", "name": "Trip", "currency": "SGD"}],
  "entries": [
    {"id": "e9", "bookId": "b2", "amount": -3, "date": "2025-10-06", "category": "Taxi"},
    {"id": "e2", "bookId": "b2", "amount": -4, "date": "2025-10-07", "category": "Taxi"}
  ]
}
"""

let cases: [BadCase] = [
    // JSON syntax
    BadCase("not JSON at all", "hello, ledger", path: nil, line: 1, "expected a ledger object", "found 'h'"),
    // A word is null, true or false only when spelt so: `not json` is not null.
    BadCase("a word that starts like null", "not json", path: nil, line: 1, "expected a ledger object", "found 'n'"),
    BadCase("a word that starts like true", "tx", path: nil, line: 1, "expected a ledger object", "found 't'"),
    BadCase("null itself", "null", path: nil, line: 1, "expected a ledger object", "found null"),
    BadCase("empty file", "", path: nil, line: 1, "empty"),
    BadCase("truncated file", truncated, path: "entries[1].category", line: 9, "unterminated string"),
    // BUG: the path is that of the last top-level member ("customRates"), not nil.
    BadCase("truncated file, final brace missing", String(ledger().dropLast()), path: nil, line: 13, "end of the file"),
    // BUG: the path is that of the last top-level member ("customRates"), not nil.
    BadCase("trailing garbage", ledger() + "\n}", path: nil, line: 14, "unexpected '}' after the end of the JSON value"),
    BadCase("invalid UTF-8 in a string", bytes: invalidUTF8, path: "entries[0].category", line: 8, "UTF-8"),
    BadCase("raw control character in a string", ledger(e1: entry1(replacing: "Food", with: "Fo\tod")),
            path: "entries[0].category", line: 8, "control character 0x9"),
    // NUL, written as an escape, is no text any engine keeps (a database's text cannot hold it).
    BadCase("NUL in a party", ledger(e1: entry1(replacing: #""category": "Food""#, with: #""category": "Food", "party": "a\u0000b""#)),
            path: "entries[0].party", line: 8, "found \\u0000 (NUL) in a string"),
    BadCase("NUL in a book's name", ledger(books: book1(replacing: "Home", with: #"Ho\u0000me"#)),
            path: "books[0].name", line: 5, "found \\u0000 (NUL) in a string"),
    // Duplicate keys
    // BUG: an entry's duplicate key is reported at the path of the key before it
    // ("entries[0].category"), not at the repeated key.
    BadCase("duplicate key in an entry",
            ledger(e1: entry1(replacing: #""category": "Food""#, with: #""category": "Food", "amount": 3"#)),
            path: "entries[0].amount", line: 8, #"duplicate key "amount""#),
    // BUG: as above, reported at "entries[0].date".
    BadCase("duplicate key in an entry, not right after the first",
            ledger(e1: entry1(replacing: #""id": "e1","#, with: #""id": "e1", "category": "Rent","#)),
            path: "entries[0].category", line: 8, #"duplicate key "category""#),
    BadCase("duplicate key at top level",
            ledger(defaultCurrency: #""defaultCurrency": "INR", "version": 1,"#),
            path: "version", line: 3, #"duplicate key "version""#),
    BadCase("duplicate key in an unknown nested object",
            ledger(e1: entry1(replacing: #""category": "Food""#, with: #""category": "Food", "meta": {"k": {"a": 1, "a": 2}}"#)),
            path: "entries[0].meta", line: 8, #"duplicate key "a""#),
    // The file's keys in a message are shown as its values are: invisible characters written
    // out (a key's escape sequence cleared the screen), cut to 60 characters.
    BadCase("duplicate key holding an escape sequence and a newline",
            ledger(e1: entry1(replacing: #""category": "Food""#, with: #""category": "Food", "meta": {"\u001b[2J\n": 1, "\u001b[2J\n": 2}"#)),
            path: "entries[0].meta", line: 8, #"duplicate key "\e[2J\n" in an object"#),
    BadCase("duplicate key of 1,000 characters",
            ledger(e1: entry1(replacing: #""category": "Food""#, with: #""category": "Food", "meta": {"\#(String(repeating: "k", count: 1000))": 1, "\#(String(repeating: "k", count: 1000))": 2}"#)),
            path: "entries[0].meta", line: 8, "duplicate key \"\(String(repeating: "k", count: 60))…\" in an object"),
    BadCase("duplicate key in a book",
            ledger(books: book1(replacing: #""currency": "INR""#, with: #""currency": "INR", "name": "Away""#)),
            path: "books[0].name", line: 5, #"duplicate key "name""#),
    // A key written with an escape is the same key, and is found where it is written.
    BadCase("duplicate key with an escape in a book",
            ledger(books: book1(replacing: #""currency": "INR""#, with: #""currency": "INR", "n\u0061me": "Away""#)),
            path: "books[0].name", line: 5, #"duplicate key "name""#),
    BadCase("duplicate key with an escape in an entry",
            ledger(e1: entry1(replacing: #""category": "Food""#, with: #""category": "Food", "\u0061mount": 3"#)),
            path: "entries[0].amount", line: 8, #"duplicate key "amount""#),
    BadCase("duplicate key with an escape at top level",
            ledger(defaultCurrency: #""defaultCurrency": "INR", "v\u0065rsion": 1,"#),
            path: "version", line: 3, #"duplicate key "version""#),
    // A number too long to hold is quoted cut, as any text a message quotes.
    BadCase("a number of five thousand digits", ledger(e1: entry1(replacing: "-12.50", with: "1" + String(repeating: "0", count: 5000))),
            path: "entries[0].amount", line: 8, "1\(String(repeating: "0", count: 59))… cannot be held exactly"),
    // version and defaultCurrency
    BadCase("missing version", ledger(version: #""comment": "no version","#), path: nil, line: 1, #"missing "version""#),
    // BUG: reported at line 1 (just after the opening brace), not at the version on line 2.
    BadCase("version 2", ledger(version: #""version": 2,"#), path: "version", line: 2, "unsupported version 2", "expected 1"),
    BadCase("version as a string", ledger(version: #""version": "1","#), path: "version", line: 2, "expected 1", #"found a string "1""#),
    BadCase("missing defaultCurrency", ledger(defaultCurrency: #""comment": "none","#),
            path: "defaultCurrency", line: nil, #"missing "defaultCurrency""#),
    // Currency codes
    BadCase("unknown currency of an entry", ledger(e2: entry2(replacing: "SGD", with: "XYZ")),
            path: "entries[1].currency", line: 9, #"found "XYZ""#, "ISO 4217"),
    BadCase("unknown currency of a book", ledger(books: book1(replacing: "INR", with: "XYZ")),
            path: "books[0].currency", line: 5, #"found "XYZ""#, "ISO 4217"),
    BadCase("lowercase currency code", ledger(e2: entry2(replacing: "SGD", with: "inr")),
            path: "entries[1].currency", line: 9, #"found "inr""#, #"did you mean "INR"?"#),
    BadCase("unknown defaultCurrency", ledger(defaultCurrency: #""defaultCurrency": "XYZ","#),
            path: "defaultCurrency", line: 3, #"found "XYZ""#),
    // Ids and references
    BadCase("duplicate entry id", ledger(e2: entry2(replacing: #""e2""#, with: #""e1""#)),
            path: "entries[1].id", line: 9, #"duplicate entry id "e1""#, "bad.json: entries[0]"),
    BadCase("duplicate book id",
            ledger(books: book1 + ",\n    " + #"{"id": "b1", "name": "Trip", "currency": "SGD"}"#),
            path: "books[1].id", line: 6, #"duplicate book id "b1""#, "books[0]"),
    BadCase("duplicate book name",
            ledger(books: book1 + ",\n    " + #"{"id": "b2", "name": "Home", "currency": "SGD"}"#),
            path: "books[1].name", line: 6, #"duplicate book name "Home""#, "books[0]"),
    BadCase("entry naming a missing book, close to one", ledger(e2: entry2(replacing: #""b1""#, with: #""b2""#)),
            path: "entries[1].bookId", line: 9, #"no book has id "b2""#, #"did you mean "b1"?"#),
    BadCase("entry naming a missing book, far from any", ledger(e2: entry2(replacing: #""b1""#, with: #""groceries""#)),
            path: "entries[1].bookId", line: 9, #"no book has id "groceries""#),
    // Dates
    BadCase("impossible date", ledger(e1: entry1(replacing: "2025-10-04", with: "2025-02-30")),
            path: "entries[0].date", line: 8, #"found "2025-02-30""#, "YYYY-MM-DD"),
    BadCase("date in another format", ledger(e1: entry1(replacing: "2025-10-04", with: "10/04/2025")),
            path: "entries[0].date", line: 8, #"found "10/04/2025""#, "YYYY-MM-DD"),
    // Amounts
    BadCase("amount as a string", ledger(e1: entry1(replacing: "-12.50", with: #""12.50""#)),
            path: "entries[0].amount", line: 8, "expected a number", #"found a string "12.50""#),
    BadCase("tags as an object", ledger(e1: entry1(replacing: #""category": "Food""#, with: #""category": "Food", "tags": {"a": 1}"#)),
            path: "entries[0].tags", line: 8, "expected an array of strings", "found an object"),
    BadCase("isTransfer as a string", ledger(e1: entry1(replacing: #""category": "Food""#, with: #""category": "Food", "isTransfer": "yes""#)),
            path: "entries[0].isTransfer", line: 8, "expected true or false", #"found a string "yes""#),
    BadCase("amount as a long string", ledger(e1: entry1(replacing: "-12.50", with: "\"" + String(repeating: "9", count: 500) + "\"")),
            path: "entries[0].amount", line: 8, "expected a number", "found a string"),
    BadCase("category as a number", ledger(e1: entry1(replacing: #""category": "Food""#, with: #""category": 42"#)),
            path: "entries[0].category", line: 8, "expected a string", "found a number"),
    BadCase("amount too precise", ledger(e1: entry1(replacing: "-12.50", with: "1234567890123456789012345678901234567.890")),
            path: "entries[0].amount", line: 8, "1234567890123456789012345678901234567.890", "cannot be held exactly"),
    BadCase("amount with a huge exponent", ledger(e1: entry1(replacing: "-12.50", with: "1e400")),
            path: "entries[0].amount", line: 8, "1e400", "cannot be held exactly"),
    BadCase("NaN", ledger(e1: entry1(replacing: "-12.50", with: "NaN")),
            path: "entries[0].amount", line: 8, "expected a number"),
    BadCase("Infinity", ledger(e1: entry1(replacing: "-12.50", with: "Infinity")),
            path: "entries[0].amount", line: 8, "expected a number"),
    BadCase("-Infinity", ledger(e1: entry1(replacing: "-12.50", with: "-Infinity")),
            path: "entries[0].amount", line: 8, "invalid number"),
    // Rates must be positive
    BadCase("negative rate in a snapshot",
            ledger(rates: #"{"base": "USD", "date": "2025-10-01", "rates": {"INR": -83.12, "SGD": 1.34}}"#),
            path: "rates[0].rates.INR", line: 11, "must be positive", "-83.12"),
    BadCase("zero custom rate", ledger(customRates: #"{"from": "SGD", "to": "INR", "rate": 0}"#),
            path: "customRates[0].rate", line: 12, "must be positive", "found 0"),
    BadCase("negative lockedExchangeRate",
            ledger(books: book1(replacing: #""currency": "INR""#, with: #""currency": "INR", "lockedExchangeRate": -1, "targetCurrency": "USD""#)),
            path: "books[0].lockedExchangeRate", line: 5, "must be positive", "-1"),
    BadCase("zero conversionRate",
            ledger(e1: entry1(replacing: #""category": "Food""#, with: #""category": "Food", "normalizedCurrency": "USD", "conversionRate": 0"#)),
            path: "entries[0].conversionRate", line: 8, "must be positive", "found 0"),
    BadCase("negative historical rate",
            ledger(e1: entry1(replacing: #""category": "Food""#, with: #""category": "Food", "historicalRates": {"USD": -0.012}"#)),
            path: "entries[0].historicalRates.USD", line: 8, "must be positive"),
    // Rate shapes
    BadCase("rate pair from a currency to itself",
            ledger(rates: #"{"from": "SGD", "to": "SGD", "rate": 1, "date": "2025-10-01"}"#),
            path: "rates[0].to", line: 11, "SGD to itself"),
    BadCase("snapshot without date", ledger(rates: #"{"base": "USD", "rates": {"INR": 83.12}}"#),
            path: "rates[0]", line: 11, #"missing "date""#),
    BadCase("market pair without date", ledger(rates: #"{"from": "SGD", "to": "INR", "rate": 54.31}"#),
            path: "rates[0]", line: 11, #"missing "date""#),
    // Pre-converted fields
    BadCase("normalizedAmount without normalizedCurrency",
            ledger(e1: entry1(replacing: #""category": "Food""#, with: #""category": "Food", "normalizedAmount": -0.15"#)),
            path: "entries[0].normalizedAmount", line: 8, "without normalizedCurrency"),
    BadCase("normalizedAmount with the opposite sign of amount",
            ledger(e1: entry1(replacing: #""category": "Food""#, with: #""category": "Food", "normalizedAmount": 0.15, "normalizedCurrency": "USD""#)),
            path: "entries[0].normalizedAmount", line: 8, "0.15 has the opposite sign of amount -12.5", "negative for an expense"),
    BadCase("normalizedAmount 0 for an amount that is not",
            ledger(e1: entry1(replacing: #""category": "Food""#, with: #""category": "Food", "normalizedAmount": 0, "normalizedCurrency": "USD""#)),
            path: "entries[0].normalizedAmount", line: 8, "normalizedAmount is 0 where amount is -12.5", "keeps its sign"),
    BadCase("a snapshot quoting its own base at other than 1",
            ledger(rates: #"{"base": "USD", "date": "2025-10-01", "rates": {"INR": 83.12, "USD": 1.01}}"#),
            path: "rates[0].rates.USD", line: 11, "quotes its own base USD at 1.01"),
    BadCase("lockedExchangeRate without targetCurrency",
            ledger(books: book1(replacing: #""currency": "INR""#, with: #""currency": "INR", "lockedExchangeRate": 0.012"#)),
            path: "books[0].targetCurrency", line: 5, #"missing "targetCurrency""#),
    // Nesting
    BadCase("deeply nested arrays in an unknown field",
            ledger(e1: entry1(replacing: #""category": "Food""#, with: #""category": "Food", "junk": "# + deepNesting)),
            path: "entries[0].junk", line: 8, "nesting deeper than"),
    // Several files
    BadCase("entry ids colliding across files", documents: [("a.json", ledger()), ("b.json", secondFile)],
            file: "b.json", path: "entries[1].id", line: 7, #"duplicate entry id "e2""#, "a.json: entries[1]"),
    BadCase("book ids colliding across files",
            documents: [("a.json", ledger()), ("b.json", secondFile.replacingOccurrences(of: #""id": "b2""#, with: #""id": "b1""#))],
            file: "b.json", path: "books[0].id", line: 4, #"duplicate book id "b1""#, "a.json: books[0]"),
]

/// Loads the case's documents and returns the refusal (nil when it loaded).
func refusal(_ c: BadCase) throws -> (LoadError, directory: String)? {
    if c.viaFiles {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("abacus-loader-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var paths: [String] = []
        for d in c.documents {
            let url = dir.appendingPathComponent(d.name)
            try Data(d.bytes).write(to: url)
            paths.append(url.path)
        }
        do { _ = try LedgerLoader.load(paths: paths) } catch { return (error, dir.path + "/") }
        return nil
    }
    let docs = c.documents.map { (name: $0.name, text: String(decoding: $0.bytes, as: UTF8.self)) }
    do { _ = try LedgerLoader.load(documents: docs) } catch { return (error, "") }
    return nil
}

@Test(arguments: cases)
func loaderRefuses(_ c: BadCase) throws {
    guard let (error, directory) = try refusal(c) else {
        Issue.record("\(c.label): the document was accepted")
        return
    }
    #expect(error.file == directory + c.file)
    // An empty path means "no path" (as `description` treats it); the root object has none.
    let path = error.path.flatMap { $0.isEmpty ? nil : $0 }
    #expect(path == c.path)
    #expect(error.line == c.line)
    if c.line != nil { #expect(error.column != nil) }
    for m in c.message {
        #expect(error.message.contains(m), "message \"\(error.message)\" should contain \"\(m)\"")
    }
    #expect(error.description.hasPrefix(error.file))
}

@Test func aDirectoryIsRefused() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("abacus-loader-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let error = #expect(throws: LoadError.self) { try LedgerLoader.load(paths: [dir.path]) }
    #expect(error?.file == dir.path)
    #expect(error?.message.contains("is a directory") == true)
    #expect(error?.message.contains("expected a ledger JSON file") == true)
    #expect(error?.description.hasPrefix(dir.path) == true)
}

/// Rate APIs list the base itself at 1 (`"USD": 1`): a snapshot may do the same.
@Test func aSnapshotMayQuoteItsOwnBaseAtOne() throws {
    let ledger = try LedgerLoader.load(documents: [("base.json", """
        {"version": 1, "defaultCurrency": "INR", "books": [],
         "rates": [{"base": "USD", "date": "2025-10-01", "rates": {"USD": 1, "INR": 83.12}}]}
        """)])
    #expect(ledger.snapshots.first?.rates.keys.map(\.code) == ["INR"])
}

/// A ledger that is not a regular file (a FIFO here; `<(cat ledger.json)` is a pipe) is read
/// to its end, not taken for an empty file.
@Test func aLedgerFromAPipeIsReadWhole() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("abacus-loader-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let fifo = dir.appendingPathComponent("ledger.fifo").path
    #expect(mkfifo(fifo, 0o600) == 0)
    // Large enough to need several reads.
    let entries = (0..<3000).map { #"{"id": "e\#($0)", "bookId": "b", "amount": -1.5, "date": "2025-01-01", "category": "C"}"# }
    let text = #"{"version": 1, "defaultCurrency": "INR", "books": [{"id": "b", "name": "B", "currency": "INR"}], "entries": ["#
        + entries.joined(separator: ",") + "]}"
    let writer = Thread {
        let fd = open(fifo, O_WRONLY)
        var bytes = Array(text.utf8)
        _ = bytes.withUnsafeMutableBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }
    writer.start()
    let ledger = try LedgerLoader.load(paths: [fifo])
    #expect(ledger.entries.count == 3000)
}

@Test func aMissingFileIsRefused() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("abacus-loader-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let good = dir.appendingPathComponent("good.json")
    try ledger().write(to: good, atomically: true, encoding: .utf8)
    let missing = dir.appendingPathComponent("nope.json").path
    // All or nothing: a good file beside a missing one still refuses the load.
    let error = #expect(throws: LoadError.self) { try LedgerLoader.load(paths: [good.path, missing]) }
    #expect(error?.file == missing)
    #expect(error?.message.contains("no such file") == true)
}

// MARK: - Accepted documents

func load(_ text: String, name: String = "good.json") throws -> Ledger {
    try LedgerLoader.load(documents: [(name: name, text: text)])
}

func row(of id: String, in ledger: Ledger) -> Int? {
    (0..<ledger.entries.count).first { ledger.entries.id(at: $0) == id }
}

@Test func theMinimalLedgerLoads() throws {
    let l = try load(ledger())
    #expect(l.entries.count == 2)
    #expect(l.books.count == 1)
    #expect(l.defaultCurrency == Currency(code: "INR"))
}

@Test func aByteOrderMarkIsAccepted() throws {
    let l = try load("\u{FEFF}" + ledger())
    #expect(Array(("\u{FEFF}" + ledger()).utf8.prefix(3)) == [0xEF, 0xBB, 0xBF])
    #expect(l.entries.count == 2)
}

/// The mark is no column: an error on line 1 names the same column with it as without it.
@Test func aByteOrderMarkIsNoColumn() throws {
    let text = #"{"version": 1, "defaultCurrency": "XYZ"}"#
    for document in [text, "\u{FEFF}" + text] {
        let error = #expect(throws: LoadError.self) { try load(document) }
        #expect(error?.line == 1)
        #expect(error?.column == 35, "\(error?.description ?? "")")
    }
}

@Test func unknownFieldsAreIgnored() throws {
    let text = ledger(
        version: #""version": 1, "generator": {"name": "app", "build": [1, 2, {"x": null}], "beta": true},"#,
        books: book1(replacing: #""currency": "INR""#, with: #""currency": "INR", "color": "teal", "icon": null"#),
        e1: entry1(replacing: #""category": "Food""#, with: #""category": "Food", "location": {"lat": 1.35, "lng": 103.8}, "attachments": []"#),
        rates: #"{"base": "USD", "date": "2025-10-01", "rates": {"INR": 83.12, "SGD": 1.34}, "provider": {"id": 7}}"#,
        customRates: #"{"from": "SGD", "to": "INR", "rate": 55, "note": "what-if"}"#)
    let l = try load(text)
    #expect(l.entries.count == 2)
    #expect(l.snapshots.count == 1)
    #expect(l.customRates.count == 1)
    #expect(l.entries.categories.sorted() == ["Food", "Salary"])
}

@Test func aDateTimeCountsAsTheDateWrittenInIt() throws {
    let text = ledger(e1: entry1(replacing: "2025-10-04", with: "2025-10-04T19:30:00+08:00"),
                      e2: entry2(replacing: "2025-10-05", with: "2025-10-05T23:30:00-05:00"))
    let l = try load(text)
    let oct4 = Day(year: 2025, month: 10, day: 4)!.number
    let oct5 = Day(year: 2025, month: 10, day: 5)!.number
    #expect(l.entries.day.contains(oct4))
    // No time-zone shifting: 23:30 at -05:00 is still the 5th, not the 6th in UTC.
    #expect(l.entries.day.sorted() == [oct4, oct5])
}

@Test func anEntryWithoutCurrencyTakesItsBooks() throws {
    let books = book1 + ",\n    " + #"{"id": "b2", "name": "Tokyo", "currency": "JPY"}"#
    let text = ledger(books: books,
                      e2: #"{"id": "e2", "bookId": "b2", "amount": -1200, "currency": null, "date": "2025-10-05", "category": "Taxi"}"#)
    let l = try load(text)
    let r1 = try #require(row(of: "e1", in: l))
    let r2 = try #require(row(of: "e2", in: l))
    #expect(l.entries.currency[r1] == Currency(code: "INR"))
    #expect(l.entries.currency[r2] == Currency(code: "JPY"))
}

@Test func severalDocumentsLoadTogether() throws {
    let second = secondFile.replacingOccurrences(of: #""id": "e2""#, with: #""id": "e3""#)
    let l = try LedgerLoader.load(documents: [(name: "a.json", text: ledger()), (name: "b.json", text: second)])
    #expect(l.entries.count == 2 + 2)
    #expect(l.books.map(\.id).sorted() == ["b1", "b2"])
    #expect(l.files == ["a.json", "b.json"])
    // Entries may name a book of another file.
    let third = #"{"version": 1, "defaultCurrency": "INR", "entries": [{"id": "x1", "bookId": "b2", "amount": 1, "date": "2025-11-01", "category": "Misc"}]}"#
    let l3 = try LedgerLoader.load(documents: [(name: "a.json", text: ledger()), (name: "b.json", text: second), (name: "c.json", text: third)])
    #expect(l3.entries.count == 5)
}

@Test func entriesMayComeBeforeBooks() throws {
    let text = """
    {
      "entries": [
        \(entry1),
        \(entry2)
      ],
      "books": [\(book1)],
      "defaultCurrency": "INR",
      "version": 1
    }
    """
    let l = try load(text)
    #expect(l.entries.count == 2)
    #expect(l.entries.book.allSatisfy { $0 == 0 })
}

// MARK: - Exactness

@Test func amountsSumExactlyAtOneCommonScale() throws {
    let text = ledger(e1: entry1(replacing: "-12.50", with: "12345678901234567.89"),
                      e2: entry2(replacing: "100", with: "0.01") + ",\n    "
                          + #"{"id": "e3", "bookId": "b1", "amount": -0.005, "date": "2025-10-06", "category": "Fees"}"#)
    let l = try load(text)
    #expect(l.entries.count == 3)
    #expect(l.entries.amountScale == 3)
    let sum = l.entries.amount.reduce(Int128(0), +)
    #expect(sum == 12345678901234567895)  // 12345678901234567.895
    let r = try #require(row(of: "e1", in: l))
    #expect(l.entries.amount[r] == 12345678901234567890)
}

@Test func tenthsSumExactly() throws {
    let entries = (0..<1000).map { #"{"id": "t\#($0)", "bookId": "b1", "amount": 0.1, "date": "2025-10-04", "category": "Tea"}"# }
    let text = #"{"version": 1, "defaultCurrency": "INR", "books": [\#(book1)], "entries": [\#(entries.joined(separator: ","))]}"#
    let l = try load(text)
    #expect(l.entries.amountScale == 1)
    #expect(l.entries.amount.reduce(Int128(0), +) == 1000)  // 100.0
}

/// Two threads read a large entries array (`EntrySplit`): the second from a guessed entry
/// boundary. Whatever the guess — a real boundary, or one inside a string that only looks
/// like `}, {` — the ledger, and the first error, must be those of a single reading.
@Suite struct EntrySplitTests {
    /// Entries whose remarks are full of fake boundaries; `padding` shifts where the middle falls.
    static func ledger(padding: Int, error: Bool = false) -> String {
        var entries: [String] = []
        for i in 0..<400 {
            let trap = i % 3 == 0 ? #"x}, {\"id\": \"fake\"}, {y"# : "plain \(i)"
            let category = ["Food", "Rent", "Travel", "Fuel"][i % 4]
            let date = error && i == 300 ? "2025-02-30" : String(format: "2025-%02d-%02d", i % 12 + 1, i % 28 + 1)
            let tags = i % 5 == 0 ? #", "tags": ["a", "b"]"# : ""
            let booked = i % 7 == 0 ? #", "normalizedAmount": -12.5, "normalizedCurrency": "INR""# : ""
            entries.append(#"{"id": "e\#(i)", "bookId": "\#(i % 2 == 0 ? "h" : "t")", "amount": -\#(i).5, "date": "\#(date)", "category": "\#(category)", "party": "P\#(i % 9)", "remarks": "\#(trap)"\#(tags)\#(booked)}"#)
        }
        return #"""
        {"version": 1, "padding": "\#(String(repeating: "p", count: padding))", "defaultCurrency": "INR",
         "books": [{"id": "h", "name": "Home", "currency": "INR"}, {"id": "t", "name": "Trip", "currency": "SGD"}],
         "entries": [
        \#(entries.joined(separator: ",\n"))
         ]}
        """#
    }

    static func load(_ text: String, parallel: Bool) -> Result<Ledger, LoadError> {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBufferPointer { buffer in
            var builder = LedgerBuilder(parallel: parallel)
            builder.splitBytes = 1
            do throws(LoadError) {
                try builder.read(UnsafeBufferPointer(buffer), name: "split.json")
                guard let ledger = try builder.finish() else { return .failure(LoadError(file: "split.json", message: "ids may repeat")) }
                return .success(ledger)
            } catch {
                return .failure(error)
            }
        }
    }

    /// Everything a query can see, as text.
    static func dump(_ l: Ledger) -> [String] {
        let s = l.entries
        return (0..<s.count).map { (r: Int) -> String in
            let book: Int = Int(s.book[r]), category: Int = Int(s.category[r]), party: Int = Int(s.party[r]), remarks: Int = Int(s.remarks[r])
            let booked: Int = Int(s.bookedIndex[r])
            let tags: [String] = s.tags(at: r).map { (t: UInt32) -> String in s.tags[Int(t)] }
            let fields: [String] = [s.id(at: r), "\(s.day[r])", s.amount(at: r).description, s.currency[r].code, l.books[book].name,
                                    s.categories[category], s.parties[party], s.remarkTexts[remarks], tags.joined(separator: "+"),
                                    booked < 0 ? "-" : s.booked.normalizedAmount(booked)?.description ?? "?"]
            return fields.joined(separator: "|")
        }
    }

    @Test(arguments: [0, 1, 7, 19, 23, 40, 41, 97, 150, 301])
    func twoThreadsReadWhatOneReads(padding: Int) throws {
        let text = EntrySplitTests.ledger(padding: padding)
        let one = try EntrySplitTests.load(text, parallel: false).get()
        let two = try EntrySplitTests.load(text, parallel: true).get()
        #expect(EntrySplitTests.dump(two) == EntrySplitTests.dump(one))
        #expect(two.entries.categories == one.entries.categories)
        #expect(two.entries.byCategory.rows == one.entries.byCategory.rows)
    }

    @Test(arguments: [0, 23, 150])
    func twoThreadsMeetTheSameFirstError(padding: Int) {
        let text = EntrySplitTests.ledger(padding: padding, error: true)
        guard case .failure(let one) = EntrySplitTests.load(text, parallel: false),
              case .failure(let two) = EntrySplitTests.load(text, parallel: true) else {
            Issue.record("the bad date was accepted"); return
        }
        #expect(two.description == one.description)
        #expect(one.description.contains("entries[300].date"))
    }

    /// A duplicate id across the two halves is found and named as a single reading names it.
    @Test func aDuplicateAcrossTheHalvesIsNamed() throws {
        let text = EntrySplitTests.ledger(padding: 5).replacingOccurrences(of: #""id": "e390""#, with: #""id": "e10""#)
        var bytes = Array(text.utf8)
        let result = bytes.withUnsafeMutableBufferPointer { LedgerLoaderProbe.load(UnsafeBufferPointer($0)) }
        #expect(result.contains("entries[390].id: duplicate entry id \"e10\" (also split.json: entries[10])"), "\(result)")
    }
}

enum LedgerLoaderProbe {
    static func load(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        do throws(LoadError) {
            _ = try LedgerLoader.load(buffers: [("split.json", bytes, false)])
            return "loaded"
        } catch {
            return error.description
        }
    }
}

/// The duplicate check after loading: no false alarm on many distinct ids, and a repeat found
/// wherever it stands.
@Test(arguments: [0, 1, 4_999, 20_000, 39_999])
func aRepeatedIdIsSuspectedWhereverItIs(position: Int) {
    var ids = IDColumn()
    for i in 0..<40_000 {
        var text = Array("e-\(i)".utf8)
        text.withUnsafeMutableBufferPointer { ids.append(UnsafeBufferPointer($0)) }
    }
    #expect(!ids.mayHaveDuplicates())
    var repeated = Array("e-\(position)".utf8)
    repeated.withUnsafeMutableBufferPointer { ids.append(UnsafeBufferPointer($0)) }
    #expect(ids.mayHaveDuplicates())
}

/// Files that disagree on the default currency load together: the first file's default is
/// used, and the load says so (the shell prints it on stderr).
@Test func filesWithDifferentDefaultCurrenciesLoadWithTheFirstOnes() throws {
    let a = #"{"version": 1, "defaultCurrency": "INR", "books": [{"id": "h", "name": "H", "currency": "INR"}], "entries": []}"#
    let b = #"{"version": 1, "defaultCurrency": "SGD", "books": [{"id": "s", "name": "S", "currency": "SGD"}], "entries": []}"#
    let ledger = try LedgerLoader.load(documents: [("a.json", a), ("b.json", b)])
    #expect(ledger.defaultCurrency.code == "INR")
    #expect(ledger.notes == ["b.json has defaultCurrency SGD; INR, from a.json, the first file to give one, is used (`set currency SGD` to change it)"])
    // Agreeing files have nothing to say.
    #expect(try LedgerLoader.load(documents: [("a.json", a), ("c.json", a.replacingOccurrences(of: "\"h\"", with: "\"h2\"").replacingOccurrences(of: "\"H\"", with: "\"H2\""))]).notes.isEmpty)
}

/// A path holding the file's own key is shown as messages show text: escapes written out.
@Test func aPathHoldingAKeyIsShownEscaped() {
    do {
        _ = try LedgerLoader.load(documents: [("esc.json", #"{"version": 1, "defaultCurrency": "INR", "rates": [{"base": "USD", "date": "2025-10-01", "rates": {"\u001b[31mINR": 1}}]}"#)])
        Issue.record("loaded")
    } catch {
        #expect(error.description.contains(#"rates[0].rates.\e[31mINR: found "\e[31mINR""#), "\(error.description)")
        #expect(!error.description.unicodeScalars.contains("\u{1B}"))
    }
}
