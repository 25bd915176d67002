// Rate files through the real binary: `--rates` (a bad file is exit status 2 with its
// place), `.rates` in a session (all or nothing), the staleness warning and
// `--max-rate-age`, and the example script that uses the ECB sample.

import Foundation
import Testing

@Suite struct RateFileEndToEndTests {
    @Test func ecbScriptMatchesItsRecordedOutput() throws {
        let r = try Binary.run(["Examples/demo.json", "--rates", "Examples/ecb-sample.csv", "-f", "Examples/ecb.abq"])
        #expect(r.status == 0)
        #expect(r.stderr == "")
        try expectMatchesRecording(r.stdout, "Examples/ecb.expected")
    }

    @Test func aBadRateFileExitsWithTwoNamingFileLineAndColumn() throws {
        let file = try Binary.temporaryFile("bad-ecb.csv", "Date,USD,JPY,\n2025-07-04,1.0917,154.71,\n2025-07-03,1.09x,154.79,\n")
        let r = try Binary.run(["Examples/demo.json", "--rates", file, "-e", "count entries"])
        #expect(r.status == 2)
        #expect(r.stdout == "")
        #expect(r.stderr == "error: \(file):3:12: found \"1.09x\", expected the value of 1 EUR in USD (a decimal number such as 1.0876, or N/A)\n")
    }

    @Test func ratesIsRepeatableAndALaterFileWinsOnItsDate() throws {
        let a = try Binary.temporaryFile("a.csv", "date,base,currency,rate\n2025-07-04,CHF,INR,98\n")
        let b = try Binary.temporaryFile("b.csv", "date,base,currency,rate\n2025-07-04,CHF,INR,99\n")
        let r = try Binary.run(["Examples/demo.json", "--rates", a, "--rates", b, "--format", "csv", "-e", "rate CHF/INR at 2025-07-04"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("CHF/INR,99,market snapshot 2025-07-04 (b.csv)"), "\(r.stdout)")
    }

    @Test func dotRatesAddsAFileAllOrNothing() throws {
        // The first row is good; the second is not: nothing of the file may be used.
        let bad = try Binary.temporaryFile("half.csv", "date,base,currency,rate\n2025-07-04,CHF,INR,98\n2025-07-05,CHF,INR,-1\n")
        let failed = try Binary.run(["Examples/demo.json", "--keep-going"], stdin: ".rates \(bad)\nrate CHF/INR at 2025-07-04\n")
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("error: \(bad):3:20: found -1, expected how many INR 1 CHF is worth: rates must be positive"))
        #expect(failed.stderr.contains("no exchange rate for CHF/INR"))
        let added = try Binary.run(["Examples/demo.json"], stdin: ".rates Examples/ecb-sample.csv\nrate CHF/INR at 2025-07-04\n")
        #expect(added.status == 0)
        #expect(added.stderr == "added rates from ecb-sample.csv: 34 rates on 5 days (2025-06-30..2025-07-04), ECB history CSV; left out withdrawn CYP\n")
        #expect(added.stdout.contains("market snapshot 2025-07-04 (ecb-sample.csv) via EUR"))
        // A ledger loaded afterwards keeps the rate files beside it.
        let extra = try Binary.temporaryFile("extra-rates.json", """
            {"version": 1, "defaultCurrency": "INR", "books": [{"id": "x", "name": "Extra", "currency": "INR"}],
             "entries": [{"id": "x1", "bookId": "x", "amount": -5, "date": "2025-03-01", "category": "Tea"}]}
            """)
        let reloaded = try Binary.run(["Examples/demo.json"], stdin: ".rates Examples/ecb-sample.csv\n.load \(extra)\nrate CHF/INR at 2025-07-04\n")
        #expect(reloaded.status == 0)
        #expect(reloaded.stdout.contains("market snapshot 2025-07-04 (ecb-sample.csv) via EUR"))
    }

    @Test func staleRatesWarnAndAMaximumAgeRefusesThem() throws {
        // CHF is quoted only by the sample, last on 2025-07-04: at 2025-07-31 that is 27 days old.
        let statement = "sum expenses in CHF where book = \"Europe Tour\" at 2025-07-31"
        let warned = try Binary.run(["Examples/demo.json", "--rates", "Examples/ecb-sample.csv", "-e", statement])
        #expect(warned.status == 0)
        #expect(warned.stderr == "warning: 140 entries converted at market rates more than 7 days old: EUR/CHF (117, oldest 27 days), GBP/CHF (19, oldest 27 days), INR/CHF (4, oldest 27 days)\n")
        let refused = try Binary.run(["Examples/demo.json", "--rates", "Examples/ecb-sample.csv", "--max-rate-age", "20", "-e", statement])
        #expect(refused.status == 1)
        #expect(refused.stdout == "")
        #expect(refused.stderr.hasPrefix("error: market rates older than the maximum rate age of 20 days would convert 140 entries into CHF:\n  EUR/CHF: 117 entries, 27 days old\n"))
        // Within the limit: the answer, and the warning still.
        let allowed = try Binary.run(["Examples/demo.json", "--rates", "Examples/ecb-sample.csv", "--max-rate-age", "30", "-e", statement])
        #expect(allowed.status == 0)
        #expect(allowed.stdout == warned.stdout)
        // The same bounds as `set max rate age N days`.
        let far = try Binary.run(["Examples/demo.json", "--max-rate-age=100001", "-e", "count entries"])
        #expect(far.status == 2)
        #expect(far.stderr.contains("--max-rate-age must be a whole number of days from 0 to 100000, not 100001"), "\(far.stderr)")
    }

    @Test func ratesStatusNamesEachRateFile() throws {
        let r = try Binary.run(["Examples/demo.json", "--offline", "--today", "2025-07-10", "--rates", "Examples/ecb-sample.csv",
                                "--format", "csv", "-e", "rates status"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("ledger,Examples/demo.json,2025-12-31,"))
        #expect(r.stdout.contains("file,ecb-sample.csv,2025-07-04,,6 days"), "\(r.stdout)")
    }

    @Test func helpNamesTheNewOptions() throws {
        let r = try Binary.run(["--help"])
        #expect(r.stdout.contains("--rates <FILE>"))
        #expect(r.stdout.contains("--max-rate-age <N>"))
    }
}
