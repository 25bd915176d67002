// Rate files: the ECB's history CSV with its quirks, the long CSV, JSON arrays of
// snapshots and pairs, and the refusals, each with the line and column it must name.
//
// The ECB fixture is written the bank's way: `Date` then currency codes, newest row
// first, a comma after the last field of every line (header included), `N/A` for a
// currency not fixed that day (and for the withdrawn ones), CRLF nowhere.

import Foundation
import Testing
@testable import AbacusCore

let ecbSample = """
Date,USD,JPY,CYP,GBP,INR,SGD,
2025-10-03,1.1717,172.79,N/A,0.87235,104.0305,1.5107,
2025-10-02,1.1702,172.46,N/A,0.87010,N/A,1.5088,
2025-10-01,1.1741,173.76,N/A,0.87210,104.3090,,

"""

func day(_ s: String) -> Day { Day.parse(s)! }
func dec(_ s: String) -> ExactDecimal { ExactDecimal(s)! }
func cur(_ s: String) -> Currency { Currency(code: s)! }

@Suite struct RateFileTests {
    @Test func ecbHistoryAsPublished() throws {
        let f = try RateFile.parse(text: ecbSample, path: "/data/eurofxref-hist.csv")
        #expect(f.format == .ecbHistory)
        #expect(f.source == "eurofxref-hist.csv")
        #expect(f.skippedCurrencies == ["CYP"])
        #expect(f.snapshots.count == 3)
        // Newest first in the file, kept in the file's order.
        #expect(f.snapshots.map(\.day) == [day("2025-10-03"), day("2025-10-02"), day("2025-10-01")])
        let newest = f.snapshots[0]
        #expect(newest.base == cur("EUR"))
        #expect(newest.rates[cur("GBP")] == dec("0.87235"))
        #expect(newest.rates[cur("INR")] == dec("104.0305"))
        #expect(newest.source == "eurofxref-hist.csv")
        // N/A and an empty field: no rate that day, not a zero.
        #expect(f.snapshots[1].rates[cur("INR")] == nil)
        #expect(f.snapshots[2].rates[cur("SGD")] == nil)
        #expect(f.snapshots[2].rates.count == 4)
        #expect(f.rateCount == 5 + 4 + 4)
        #expect(f.days == day("2025-10-01")...day("2025-10-03"))
    }

    @Test func ecbRowsOldestFirstAndCRLF() throws {
        let text = "Date,USD,JPY\r\n2025-10-01,1.1741,173.76\r\n2025-10-02,1.1702,172.46\r\n"
        let f = try RateFile.parse(text: text, path: "ecb.csv")
        #expect(f.snapshots.map(\.day) == [day("2025-10-01"), day("2025-10-02")])
        #expect(f.snapshots[1].rates[cur("JPY")] == dec("172.46"))
    }

    @Test func ecbRatesConvertThroughTheEuro() throws {
        var ledger = try LedgerLoader.load(documents: [(name: "l.json", text: #"{"version": 1, "defaultCurrency": "INR"}"#)])
        ledger.addRates(try RateFile.parse(text: ecbSample, path: "ecb.csv"))
        let resolver = RateResolver(ledger: ledger)
        // 1 USD = 104.0305 / 1.1717 INR on 2025-10-03, a cross rate inside the ECB's snapshot.
        let q = try #require(resolver.market(CurrencyPair(cur("USD"), cur("INR")), on: day("2025-10-03")))
        #expect(q.rate.fraction == Fraction(dec("104.0305")).dividedBy(Fraction(dec("1.1717"))))
        #expect(resolver.describe(.market(q)) == "market snapshot 2025-10-03 (ecb.csv) via EUR")
        // On 2025-10-02 the ECB fixed no INR: the newest earlier rate (2025-10-01) serves.
        let back = try #require(resolver.market(CurrencyPair(cur("EUR"), cur("INR")), on: day("2025-10-02")))
        #expect(back.legs.first?.day == day("2025-10-01"))
        #expect(ledger.rateFiles == ["ecb.csv"])
    }

    @Test func longForm() throws {
        let text = """
        date,base,currency,rate
        2025-10-01,USD,INR,88.79
        2025-10-01,USD,SGD,1.2901
        2025-10-02,SGD,INR,68.80
        """
        let f = try RateFile.parse(text: text, path: "bank.csv")
        #expect(f.format == .longCSV)
        // Grouped by date and base: one USD snapshot of two rates, one SGD snapshot.
        #expect(f.snapshots.count == 2)
        #expect(f.snapshots[0].base == cur("USD"))
        #expect(f.snapshots[0].rates == [cur("INR"): dec("88.79"), cur("SGD"): dec("1.2901")])
        #expect(f.snapshots[1].rates == [cur("INR"): dec("68.80")])
        #expect(f.snapshots[1].source == "bank.csv")
    }

    @Test func longFormQuotedTrailingCommaAndCaseOfHeader() throws {
        let text = "Date,Base,Currency,Rate,\n\"2025-10-01\",\"USD\",\"INR\",\"88.79\",\n"
        let f = try RateFile.parse(text: text, path: "export.csv")
        #expect(f.snapshots.first?.rates[cur("INR")] == dec("88.79"))
    }

    @Test func jsonArrayOfSnapshotsAndPairs() throws {
        let text = """
        [
          {"base": "USD", "date": "2025-10-01", "rates": {"INR": 88.79, "SGD": 1.2901}, "source": "api"},
          {"from": "SGD", "to": "INR", "rate": 68.8, "date": "2025-10-02"}
        ]
        """
        let f = try RateFile.parse(text: text, path: "rates.json")
        #expect(f.format == .json)
        #expect(f.snapshots.count == 1)
        #expect(f.pairs.count == 1)
        #expect(f.snapshots[0].source == "rates.json: api")
        #expect(f.pairs[0].source == "rates.json")
        var ledger = try LedgerLoader.load(documents: [(name: "l.json", text: #"{"version": 1, "defaultCurrency": "INR"}"#)])
        ledger.addRates(f)
        // The snapshot, then the pair: the file's order, after the ledger's own sources.
        #expect(ledger.snapshots[0].order == 0)
        #expect(ledger.pairs[0].order == 1)
    }

    /// One snapshot a day for each base (README.md, "Rate files"): other bases that day, or the
    /// same base on other days, are no repeat.
    @Test func jsonSnapshotsOfOtherBasesOrDaysAreNoRepeat() throws {
        let text = """
        [
          {"base": "USD", "date": "2025-10-01", "rates": {"INR": 88.79}},
          {"base": "SGD", "date": "2025-10-01", "rates": {"INR": 68.8}},
          {"base": "USD", "date": "2025-10-02", "rates": {"INR": 88.9}},
          {"from": "USD", "to": "INR", "rate": 88.8, "date": "2025-10-01"}
        ]
        """
        let f = try RateFile.parse(text: text, path: "rates.json")
        #expect(f.snapshots.map(\.base) == [cur("USD"), cur("SGD"), cur("USD")])
        #expect(f.pairs.count == 1)
    }

    @Test func aFileAddedLaterWinsOnItsDate() throws {
        var ledger = try LedgerLoader.load(documents: [(name: "l.json", text: #"{"version": 1, "defaultCurrency": "INR"}"#)])
        ledger.addRates(try RateFile.parse(text: "date,base,currency,rate\n2025-10-01,USD,INR,88\n", path: "a.csv"))
        ledger.addRates(try RateFile.parse(text: "date,base,currency,rate\n2025-10-01,USD,INR,89\n", path: "b.csv"))
        let q = try #require(RateResolver(ledger: ledger).market(CurrencyPair(cur("USD"), cur("INR")), on: day("2025-10-01")))
        #expect(q.rate == Rate(dec("89")))
    }

    /// A bad file: where the refusal must point and words its message must hold.
    struct Refusal: CustomTestStringConvertible, Sendable {
        var name: String
        var text: String
        var line: Int?
        var column: Int?
        var words: String
        var testDescription: String { name }
    }

    static let refusals: [Refusal] = [
        Refusal(name: "ECB value not a number", text: "Date,USD,JPY,\n2025-10-02,1.17,172.46,\n2025-10-01,1,17,5,\n",
                line: 3, column: 17, words: "found 5 fields, expected 3"),
        Refusal(name: "ECB value with a letter", text: "Date,USD,JPY,\n2025-10-02,1.17,172.46,\n2025-10-01,1.1x,173,\n",
                line: 3, column: 12, words: "found \"1.1x\", expected the value of 1 EUR in USD"),
        Refusal(name: "ECB zero rate", text: "Date,USD,\n2025-10-01,0,\n", line: 2, column: 12, words: "rates must be positive"),
        Refusal(name: "ECB date that does not exist", text: "Date,USD,\n2025-02-30,1.1,\n", line: 2, column: 1, words: "expected a date YYYY-MM-DD"),
        Refusal(name: "ECB the same day twice", text: "Date,USD,\n2025-10-01,1.1,\n2025-10-01,1.2,\n",
                line: 3, column: 1, words: "first on line 2"),
        Refusal(name: "ECB unknown currency", text: "Date,USD,XYZ,\n2025-10-01,1.1,2,\n", line: 1, column: 10, words: "found \"XYZ\", expected an ISO 4217"),
        Refusal(name: "ECB lower-case code", text: "Date,usd,\n", line: 1, column: 6, words: "did you mean \"USD\"?"),
        Refusal(name: "ECB text after the trailing comma", text: "Date,USD,\n2025-10-01,1.1,9\n", line: 2, column: 16, words: "after the last column"),
        Refusal(name: "ECB unknown currency after a byte-order mark", text: "\u{FEFF}Date,USD,XYZ,\n2025-10-01,1.1,2,\n",
                line: 1, column: 10, words: "found \"XYZ\", expected an ISO 4217"),
        Refusal(name: "inexact number", text: "Date,USD,\n2025-10-01,1.123456789012345678901234567890123456789,\n",
                line: 2, column: 12, words: "cannot be held exactly"),
        Refusal(name: "long form bad code", text: "date,base,currency,rate\n2025-10-01,USD,INR,88\n2025-10-01,USD,ABC,1\n",
                line: 3, column: 16, words: "found \"ABC\""),
        Refusal(name: "long form N/A is not a rate", text: "date,base,currency,rate\n2025-10-01,USD,INR,N/A\n",
                line: 2, column: 20, words: "expected how many INR 1 USD is worth"),
        Refusal(name: "long form repeated rate", text: "date,base,currency,rate\n2025-10-01,USD,INR,88\n2025-10-01,USD,INR,89\n",
                line: 3, column: 1, words: "first on line 2"),
        Refusal(name: "unknown header", text: "when,from,to,value\n", line: 1, column: 1, words: "expected the ECB's `Date,USD,JPY,…` or `date,base,currency,rate`"),
        Refusal(name: "long form without its rate column", text: "date,base,currency\n2025-10-01,USD,INR\n", line: 1, column: 1,
                words: "found the header \"date,base,currency\" without \"rate\", expected the long form's date,base,currency,rate"),
        Refusal(name: "unclosed quote", text: "date,base,currency,rate\n\"2025-10-01,USD,INR,88\n", line: 2, column: 1, words: "never closed"),
        Refusal(name: "JSON pair without a date", text: "[\n  {\"from\": \"SGD\", \"to\": \"INR\", \"rate\": 68.8}\n]",
                line: 2, column: 3, words: "missing \"date\""),
        Refusal(name: "JSON negative rate", text: "[{\"base\": \"USD\", \"date\": \"2025-10-01\", \"rates\": {\"INR\": -1}}]",
                line: 1, column: 57, words: "must be positive"),
        Refusal(name: "JSON the same base twice on a day",
                text: "[\n  {\"base\": \"USD\", \"date\": \"2025-10-01\", \"rates\": {\"INR\": 88.79}},\n  {\"date\": \"2025-10-01\", \"base\": \"USD\", \"rates\": {\"SGD\": 1.29}}\n]",
                line: 3, column: 3, words: "found USD on 2025-10-01 again (first on line 2), expected one snapshot a day for each base"),
        Refusal(name: "JSON negative rate after a byte-order mark", text: "\u{FEFF}[{\"base\": \"USD\", \"date\": \"2025-10-01\", \"rates\": {\"INR\": -1}}]",
                line: 1, column: 57, words: "must be positive"),
        Refusal(name: "JSON object, not an array", text: "{\"version\": 1}", line: 1, column: 1, words: "expected a JSON array"),
        Refusal(name: "empty file", text: "\n", line: nil, column: nil, words: "the file is empty"),
        Refusal(name: "header only", text: "Date,USD,\n", line: 2, column: 1, words: "holds no rates"),
        // Rows whose every rate is missing: refused at the first row, saying so (it said "line 3:1,
        // expected a row a day under the header", past the end of the file).
        Refusal(name: "ECB rows all N/A", text: "Date,USD,JPY,\n2025-10-04,N/A,N/A,\n2025-10-03,,,\n", line: 2, column: 1,
                words: "every rate of its 2 rows are N/A or empty, expected at least one rate"),
        // Lines that end in a lone CR (an old Mac program's) are counted as lines.
        Refusal(name: "ECB value with a letter, lines ending in CR", text: "Date,USD,JPY,\r2025-07-04,1,2,\r2025-07-03,x,2,\r",
                line: 3, column: 12, words: "found \"x\""),
        Refusal(name: "ECB the same day twice, lines ending in CR", text: "Date,USD,\r2025-10-01,1.1,\r2025-10-01,1.2,\r",
                line: 3, column: 1, words: "first on line 2"),
        Refusal(name: "long number quoted cut", text: "Date,USD,\n2025-10-01,1\(String(repeating: "0", count: 3000)),\n",
                line: 2, column: 12, words: "1\(String(repeating: "0", count: 59))… cannot be held exactly"),
    ]

    @Test(arguments: refusals)
    func refused(_ r: Refusal) {
        do {
            let f = try RateFile.parse(text: r.text, path: "rates/bad.csv")
            Issue.record("accepted \(f.rateCount) rates")
        } catch {
            #expect(error.file == "rates/bad.csv")
            #expect(error.line == r.line)
            #expect(error.column == r.column)
            #expect(error.message.contains(r.words), "\(error.description)")
        }
    }

    /// Every prefix of each layout, and each byte of it replaced by a troublesome one, is either
    /// read or refused with a place inside the text: never a crash, never a place past the end.
    @Test func damagedFilesAreRefusedNeverCrash() throws {
        let long = "date,base,currency,rate\n\"2025-10-01\",USD,INR,88.79\n2025-10-02,SGD,INR,68.80\n"
        let json = #"[{"base": "USD", "date": "2025-10-01", "rates": {"INR": 88.79}}, {"from": "SGD", "to": "INR", "rate": 68.8, "date": "2025-10-02"}]"#
        for text in [ecbSample, long, json] {
            let bytes = Array(text.utf8)
            var variants: [[UInt8]] = (0...bytes.count).map { Array(bytes[..<$0]) }
            for i in bytes.indices {
                for b in [UInt8(ascii: ","), UInt8(ascii: "\""), 0x0A, 0x0D, UInt8(ascii: "-"), 0x00, 0xFF] {
                    var v = bytes
                    v[i] = b
                    variants.append(v)
                }
            }
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count
            for v in variants {
                do {
                    let f = try v.withUnsafeBufferPointer { (b) throws(LoadError) in try RateFile.parse(b, path: "x.csv") }
                    #expect(f.rateCount > 0)
                } catch {
                    #expect(error.file == "x.csv")
                    if let line = error.line { #expect(line >= 1 && line <= lines + 1, "\(error)") }
                }
            }
        }
    }

    @Test func missingFileIsALoadError() {
        #expect(throws: LoadError.self) { try RateFile.load(path: "/nonexistent/rates.csv") }
    }
}

extension Fraction {
    func dividedBy(_ o: Fraction) -> Fraction { Fraction(numerator * o.denominator, denominator * o.numerator) }
}
