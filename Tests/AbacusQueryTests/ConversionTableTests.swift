// docs/conversion.md, one conversion per case: what-if → booked → custom → market (with the date
// rule and chaining), the valuation modes, and rounding once, half-even, at the end.
// Every expected figure is worked out by hand in the comment beside its case (and
// re-checked with Python's decimal module at 60 digits), never copied from Abacus.

import AbacusCore
@testable import AbacusQuery
import Testing

/// Books:
///   Home (INR); Trip (SGD, locked 1 SGD = 55 INR); Sing (SGD, locked 1 SGD = 0.75 USD);
///   Nomad (SGD, no lock); US (USD, no lock); Europe (EUR, locked 1 EUR = 89 INR);
///   Japan (JPY); Gulf (KWD).
///
/// Market `rates`, in file order (R0 … R17):
///   R0  snapshot USD 2025-01-03 {INR 83, EUR 0.9, GBP 0.8, JPY 150, KWD 0.3, SGD 1.35, CAD 1.44}
///   R1  snapshot USD 2025-01-04 {INR 83.5, EUR 0.92}
///   R2  pair USD→INR 84      2025-01-04   (beats R1 on that day)
///   R3  pair GBP→INR 105     2025-02-10
///   R4  pair GBP→INR 106     2025-02-10   (later in the file: wins over R3)
///   R5  pair INR→SGD 0.016   2025-02-20   (so SGD/INR = 1 / 0.016 = 62.5)
///   R6  snapshot USD 2025-03-01 {INR 86, EUR 0.95, GBP 0.78, JPY 148, KWD 0.31, BHD 0.376, SGD 1.32, CHF 0.8, CAD 1.4}
///   R7  pair THB→USD 0.03    2025-01-15
///   R8  pair USD→THB 32      2025-04-01   (so THB/USD = 1/32 = 0.03125)
///   R9  pair THB→AUD 0.045   2025-01-15   (a chain via AUD exists, but USD comes first)
///   R10 pair AUD→INR 55      2025-01-15
///   R11 pair MYR→EUR 0.2     2025-02-01
///   R12 pair MYR→CAD 0.3     2025-02-01   (CAD comes before EUR alphabetically)
///   R13 snapshot USD 2025-06-30 {INR 85.5, EUR 0.88, JPY 144, KWD 0.305, SGD 1.28, GBP 0.75}
///   R14 snapshot USD 2025-07-01 {INR 87, EUR 0.86}
///   R15 snapshot EUR 2025-07-15 {INR 100, USD 1.2}
///   R16 snapshot EUR 2025-07-15 {INR 101, USD 1.25}  (later in the file: wins over R15)
///   R17 pair USD→INR 88.25   2025-09-30   (the newest USD/INR source)
/// THB, MYR and NOK appear in no snapshot; NOK in no source at all.
///
/// `customRates` (file order): CHF→INR 95 undated; INR→CHF 0.008 from 2025-05-01 (CHF/INR 125);
///   CHF→INR 98 from 2025-04-01; BHD→INR 222 from 2025-05-01.
///
/// Today is 2025-12-31.
let conversionTableLedger = """
{"version": 1, "defaultCurrency": "INR",
 "books": [
  {"id": "home", "name": "Home", "currency": "INR"},
  {"id": "trip", "name": "Trip", "currency": "SGD", "lockedExchangeRate": 55, "targetCurrency": "INR", "rateLockedAt": "2025-01-01"},
  {"id": "sing", "name": "Sing", "currency": "SGD", "lockedExchangeRate": 0.75, "targetCurrency": "USD", "rateLockedAt": "2025-01-01"},
  {"id": "nomad", "name": "Nomad", "currency": "SGD", "lockedExchangeRate": null},
  {"id": "us", "name": "US", "currency": "USD"},
  {"id": "eu", "name": "Europe", "currency": "EUR", "lockedExchangeRate": 89, "targetCurrency": "INR"},
  {"id": "jp", "name": "Japan", "currency": "JPY"},
  {"id": "gulf", "name": "Gulf", "currency": "KWD"}
 ],
 "entries": [
  {"id": "e01", "bookId": "trip", "amount": -10, "date": "2025-01-10", "category": "TripLocked"},
  {"id": "e02", "bookId": "trip", "amount": -20, "date": "2025-01-10", "category": "TripNormalized", "normalizedAmount": -1111.11, "normalizedCurrency": "INR", "conversionRate": 55},
  {"id": "e03", "bookId": "trip", "amount": -2.50, "date": "2025-01-11", "category": "TripConvRate", "normalizedCurrency": "INR", "conversionRate": 54.33},
  {"id": "e04", "bookId": "trip", "amount": -3.45, "date": "2025-01-12", "category": "TripConvRateUp", "normalizedCurrency": "INR", "conversionRate": 55.5},
  {"id": "e05", "bookId": "trip", "amount": -4, "date": "2025-01-12", "category": "TripNormUSD", "normalizedAmount": -2.96, "normalizedCurrency": "USD", "conversionRate": 0.74},
  {"id": "e06", "bookId": "trip", "amount": -5, "currency": "USD", "date": "2025-01-05", "category": "TripInUSD"},
  {"id": "e07", "bookId": "sing", "amount": -8, "date": "2025-01-10", "category": "SingLocked"},
  {"id": "e08", "bookId": "us", "amount": -10, "date": "2025-01-05", "category": "UsPairBeatsSnap"},
  {"id": "e09", "bookId": "us", "amount": 500, "date": "2025-01-05", "category": "Salary"},
  {"id": "e10", "bookId": "us", "amount": -1, "date": "2024-12-01", "category": "UsBeforeAll"},
  {"id": "e11", "bookId": "us", "amount": -7, "date": "2025-01-04", "category": "UsSameDay"},
  {"id": "e12", "bookId": "home", "amount": -1000, "date": "2025-01-20", "category": "HomeToUSD"},
  {"id": "e13", "bookId": "us", "amount": -3, "currency": "EUR", "date": "2025-01-06", "category": "EuroCross"},
  {"id": "e14", "bookId": "eu", "amount": -3, "date": "2025-01-06", "category": "EuroLocked"},
  {"id": "e15", "bookId": "eu", "amount": -2, "currency": "GBP", "date": "2025-02-15", "category": "EuroGBP"},
  {"id": "e16", "bookId": "us", "amount": -3, "currency": "GBP", "date": "2025-03-05", "category": "GbpNewerSnapshot"},
  {"id": "e17", "bookId": "jp", "amount": -1000, "date": "2025-01-20", "category": "JpyCross"},
  {"id": "e18", "bookId": "us", "amount": -0.03, "date": "2025-01-03", "category": "JpyTieDown"},
  {"id": "e19", "bookId": "us", "amount": -0.05, "date": "2025-01-03", "category": "JpyTieUp"},
  {"id": "e20", "bookId": "us", "amount": -0.03, "date": "2025-01-03", "category": "JpyTwice"},
  {"id": "e21", "bookId": "us", "amount": -0.03, "date": "2025-01-03", "category": "JpyTwice"},
  {"id": "e22", "bookId": "us", "amount": -7.77, "date": "2025-01-03", "category": "Kwd"},
  {"id": "e23", "bookId": "us", "amount": -1.15, "date": "2025-03-05", "category": "KwdTie"},
  {"id": "e24", "bookId": "gulf", "amount": -1.5, "date": "2025-03-05", "category": "KwdToInr"},
  {"id": "e26", "bookId": "us", "amount": -100, "currency": "MYR", "date": "2025-02-15", "category": "MyrChain"},
  {"id": "e27", "bookId": "us", "amount": -1000, "currency": "THB", "date": "2025-02-01", "category": "ThbChain"},
  {"id": "e28", "bookId": "us", "amount": -999, "currency": "THB", "date": "2025-04-10", "category": "ThbChainInverse"},
  {"id": "e29", "bookId": "us", "amount": -50, "currency": "CHF", "date": "2025-02-01", "category": "ChfUndated"},
  {"id": "e30", "bookId": "us", "amount": -50, "currency": "CHF", "date": "2025-04-01", "category": "ChfDated"},
  {"id": "e31", "bookId": "us", "amount": -50, "currency": "CHF", "date": "2025-05-15", "category": "ChfInverse"},
  {"id": "e32", "bookId": "us", "amount": -2, "currency": "BHD", "date": "2025-04-01", "category": "BhdBefore"},
  {"id": "e33", "bookId": "us", "amount": -2, "currency": "BHD", "date": "2025-05-02", "category": "BhdAfter"},
  {"id": "e34", "bookId": "us", "amount": -5, "currency": "NOK", "date": "2025-03-01", "category": "NokA"},
  {"id": "e35", "bookId": "us", "amount": -6, "currency": "NOK", "date": "2025-03-02", "category": "NokB"},
  {"id": "e36", "bookId": "nomad", "amount": -10, "date": "2025-02-25", "category": "NomadSgd"},
  {"id": "e38", "bookId": "trip", "amount": 30, "date": "2025-01-15", "category": "Refund"},
  {"id": "e40", "bookId": "us", "amount": -2, "currency": "EUR", "date": "2025-07-20", "category": "EuroJuly"},
  {"id": "e41", "bookId": "us", "amount": -10, "date": "2025-07-20", "category": "UsJuly"},
  {"id": "e42", "bookId": "home", "amount": -85.26, "date": "2025-08-20", "category": "TieToUSD"},
  {"id": "e43", "bookId": "home", "amount": -1.26, "date": "2025-08-20", "category": "TieToUSDSmall"}
 ],
 "rates": [
  {"base": "USD", "date": "2025-01-03", "rates": {"INR": 83, "EUR": 0.9, "GBP": 0.8, "JPY": 150, "KWD": 0.3, "SGD": 1.35, "CAD": 1.44}},
  {"base": "USD", "date": "2025-01-04", "rates": {"INR": 83.5, "EUR": 0.92}},
  {"from": "USD", "to": "INR", "rate": 84, "date": "2025-01-04", "source": "bank"},
  {"from": "GBP", "to": "INR", "rate": 105, "date": "2025-02-10"},
  {"from": "GBP", "to": "INR", "rate": 106, "date": "2025-02-10"},
  {"from": "INR", "to": "SGD", "rate": 0.016, "date": "2025-02-20"},
  {"base": "USD", "date": "2025-03-01", "rates": {"INR": 86, "EUR": 0.95, "GBP": 0.78, "JPY": 148, "KWD": 0.31, "BHD": 0.376, "SGD": 1.32, "CHF": 0.8, "CAD": 1.4}},
  {"from": "THB", "to": "USD", "rate": 0.03, "date": "2025-01-15"},
  {"from": "USD", "to": "THB", "rate": 32, "date": "2025-04-01"},
  {"from": "THB", "to": "AUD", "rate": 0.045, "date": "2025-01-15"},
  {"from": "AUD", "to": "INR", "rate": 55, "date": "2025-01-15"},
  {"from": "MYR", "to": "EUR", "rate": 0.2, "date": "2025-02-01"},
  {"from": "MYR", "to": "CAD", "rate": 0.3, "date": "2025-02-01"},
  {"base": "USD", "date": "2025-06-30", "rates": {"INR": 85.5, "EUR": 0.88, "JPY": 144, "KWD": 0.305, "SGD": 1.28, "GBP": 0.75}},
  {"base": "USD", "date": "2025-07-01", "rates": {"INR": 87, "EUR": 0.86}},
  {"base": "EUR", "date": "2025-07-15", "rates": {"INR": 100, "USD": 1.2}},
  {"base": "EUR", "date": "2025-07-15", "rates": {"INR": 101, "USD": 1.25}},
  {"from": "USD", "to": "INR", "rate": 88.25, "date": "2025-09-30"}
 ],
 "customRates": [
  {"from": "CHF", "to": "INR", "rate": 95},
  {"from": "INR", "to": "CHF", "rate": 0.008, "date": "2025-05-01"},
  {"from": "CHF", "to": "INR", "rate": 98, "date": "2025-04-01"},
  {"from": "BHD", "to": "INR", "rate": 222, "date": "2025-05-01"}
 ]
}
"""

struct ConversionCase: Sendable, CustomTestStringConvertible {
    enum Expected: Sendable {
        /// The converted value (a query's total, `convert`'s converted amount, `rate`'s rate).
        case value(String)
        /// A query failing with `.missingRates`: pair → number of entries.
        case missing([String: Int])
        /// `convert` / `rate` failing with `.noRate` for the pair.
        case noRate(String)
    }
    enum Warnings: Sendable {
        /// No warning at all.
        case none
        case exactly([String])
        /// Some warning contains this text.
        case containing(String)
    }

    let name: String
    let setup: [String]
    let query: String
    let expected: Expected
    let warnings: Warnings
    var testDescription: String { name }
}

private func q(_ name: String, _ query: String, _ value: String, setup: [String] = [],
               warnings: ConversionCase.Warnings = .none) -> ConversionCase {
    ConversionCase(name: name, setup: setup, query: query, expected: .value(value), warnings: warnings)
}

/// One entry (or a few) singled out by its unique category.
private func only(_ categories: String, _ target: String = "INR", _ subject: String = "expenses", _ tail: String = "") -> String {
    "sum \(subject) in \(target) where category " + (categories.contains(",") ? "in (\(categories))" : "= \(categories)")
        + (tail.isEmpty ? "" : " " + tail)
}

let conversionCases: [ConversionCase] = [
    // MARK: 1. What-if

    // e01 (Trip, 10 SGD, locked 55): the statement's rate comes first: 10 × 60 = 600.00.
    q("what-if direct beats the book's locked rate", only("TripLocked", "INR", "expenses", "with rate SGD/INR = 60"), "600.00"),
    // Inverse what-if INR/SGD 0.016 → SGD/INR = 1 / 0.016 = 62.5: 10 × 62.5 = 625.00.
    q("what-if inverse beats the book's locked rate", only("TripLocked", "INR", "expenses", "with rate INR/SGD = 0.016"), "625.00"),
    // e02 has normalizedAmount 1111.11, but the what-if wins: 20 × 60 = 1200.00.
    q("what-if beats normalizedAmount", only("TripNormalized", "INR", "expenses", "with rate SGD/INR = 60"), "1200.00"),
    // e03 has conversionRate 54.33, but: 2.50 × 60 = 150.00.
    q("what-if beats conversionRate", only("TripConvRate", "INR", "expenses", "with rate SGD/INR = 60"), "150.00"),
    // e29 (50 CHF, 2025-02-01) would take the undated custom 95; what-if: 50 × 90 = 4500.00.
    q("what-if beats a file custom rate", only("ChfUndated", "INR", "expenses", "with rate CHF/INR = 90"), "4500.00"),
    // e36 (Nomad, 10 SGD): session rate 56 set, what-if 60 wins: 10 × 60 = 600.00.
    q("what-if beats a session rate", only("NomadSgd", "INR", "expenses", "with rate SGD/INR = 60"), "600.00",
      setup: ["set rate SGD/INR = 56"]),
    // e08 (10 USD, 2025-01-05) would take the pair 84; what-if: 10 × 80 = 800.00.
    q("what-if beats market", only("UsPairBeatsSnap", "INR", "expenses", "with rate USD/INR = 80"), "800.00"),
    // A what-if for GBP/INR says nothing about SGD: e01 stays at its lock, 10 × 55 = 550.00.
    q("a what-if for another pair does not apply", only("TripLocked", "INR", "expenses", "with rate GBP/INR = 100"), "550.00",
      warnings: .exactly(["the what-if rate GBP/INR was not used: no entry in GBP is converted by this statement"])),
    // what-if also under `at market`: 10 × 60 = 600.00.
    q("what-if under at market", only("TripLocked", "INR", "expenses", "at market with rate SGD/INR = 60"), "600.00"),
    // NOK has no source; INR/NOK 0.125 → NOK/INR = 1 / 0.125 = 8: (5 + 6) × 8 = 88.00.
    q("an inverse what-if supplies a missing rate", only("NokA, NokB", "INR", "expenses", "with rate INR/NOK = 0.125"), "88.00"),

    // MARK: 2. Booked

    // e01: Trip's lock (SGD→INR, target INR): 10 × 55 = 550.00.
    q("book-locked rate", only("TripLocked"), "550.00"),
    // e38 is income: +30 SGD × 55 = 1650.00.
    q("book-locked rate on income", only("Refund", "INR", "income"), "1650.00"),
    // `entries` keeps the stored sign: -10 × 55 = -550.00.
    q("book-locked rate, stored sign", only("TripLocked", "INR", "entries"), "-550.00"),
    // Mixed signs: +30 × 55 − 10 × 55 = 1650 − 550 = 1100.00.
    q("income and expense together", only("Refund, TripLocked", "INR", "entries"), "1100.00"),
    // e02's normalizedAmount -1111.11 INR, not 20 × 55 = 1100: 1111.11.
    q("booked normalizedAmount", only("TripNormalized"), "1111.11"),
    q("booked normalizedAmount, stored sign", only("TripNormalized", "INR", "entries"), "-1111.11"),
    // e03: no normalizedAmount, conversionRate 54.33: 2.50 × 54.33 = 135.825 → half-even (2 even) 135.82.
    q("booked conversionRate, tie rounds down to even", only("TripConvRate"), "135.82"),
    // e04: 3.45 × 55.5 = 191.475 → half-even (7 odd) 191.48.
    q("booked conversionRate, tie rounds up to even", only("TripConvRateUp"), "191.48"),
    // e05's normalizedCurrency is USD, not INR: the book lock applies: 4 × 55 = 220.00.
    q("normalized in another currency falls to the lock", only("TripNormUSD"), "220.00"),
    // In USD, e05's normalizedAmount -2.96 USD is used: 2.96.
    q("normalizedAmount in its own currency", only("TripNormUSD", "USD"), "2.96"),
    // e06 is USD in the SGD Trip book: the lock is not for it. Market USD/INR on 2025-01-05:
    // the pair R2 of 2025-01-04, 84: 5 × 84 = 420.00.
    q("no lock for an entry in another currency than its book's", only("TripInUSD"), "420.00"),
    // e01 in USD: Trip's lock targets INR. Market SGD/USD on 2025-01-10: R0, 1 / 1.35:
    // 10 / 1.35 = 7.4074… → 7.41.
    q("no lock for another target", only("TripLocked", "USD"), "7.41"),
    // e07 (Sing, 8 SGD, lock 0.75 USD): 8 × 0.75 = 6.00.
    q("book-locked rate into USD", only("SingLocked", "USD"), "6.00"),
    // e07 in INR: no lock for INR. Market R0 cross: 8 × 83 / 1.35 = 491.8518… → 491.85.
    q("a USD lock does not apply in INR", only("SingLocked"), "491.85"),
    // e14 (Europe, 3 EUR, lock 89 INR): 3 × 89 = 267.00.
    q("Europe's locked rate", only("EuroLocked"), "267.00"),
    // Booked beats custom: session SGD/INR 56 is ignored for e01: 10 × 55 = 550.00.
    q("a session rate does not beat the booked lock", only("TripLocked"), "550.00", setup: ["set rate SGD/INR = 56"]),

    // MARK: 3. Custom

    // e36 (Nomad, no lock): session rate 56: 10 × 56 = 560.00.
    q("session rate", only("NomadSgd"), "560.00", setup: ["set rate SGD/INR = 56"]),
    // INR/SGD 0.02 → SGD/INR = 1 / 0.02 = 50: 10 × 50 = 500.00.
    q("session rate, inverse", only("NomadSgd"), "500.00", setup: ["set rate INR/SGD = 0.02"]),
    // Set then unset: back to market, R5 (2025-02-20, INR→SGD 0.016) inverted: 10 / 0.016 = 625.00.
    q("an unset session rate no longer applies", only("NomadSgd"), "625.00",
      setup: ["set rate SGD/INR = 56", "unset rate SGD/INR"]),
    // Session INR/CHF 0.0125 → CHF/INR 80 beats the file's undated 95: 50 × 80 = 4000.00.
    q("a session rate beats the file's custom rates", only("ChfUndated"), "4000.00", setup: ["set rate INR/CHF = 0.0125"]),
    // `at DATE` skips booked, not custom: e01 at the session's 56: 10 × 56 = 560.00.
    q("a session rate applies under at DATE", only("TripLocked", "INR", "expenses", "at 2025-06-30"), "560.00",
      setup: ["set rate SGD/INR = 56"]),
    // e29 (2025-02-01): the dated CHF rates start 2025-04-01 and 2025-05-01; the undated 95 applies
    // (not market: CHF/INR's only source, R6 of 2025-03-01, is later anyway): 50 × 95 = 4750.00.
    q("an undated file custom rate", only("ChfUndated"), "4750.00"),
    // e30 (2025-04-01): the dated 98 applies from its own date on, and is newer than the undated 95:
    // 50 × 98 = 4900.00.
    q("a dated file custom rate from its date on", only("ChfDated"), "4900.00"),
    // e31 (2025-05-15): newest applicable is INR→CHF 0.008 of 2025-05-01 (listed before the 04-01 one),
    // inverted: 1 / 0.008 = 125: 50 × 125 = 6250.00.
    q("the newest applicable file custom rate, inverse", only("ChfInverse"), "6250.00"),
    // `at market` skips only booked: custom 98 still applies to e30 (market R6 would be 86 / 0.8 = 107.5): 4900.00.
    q("custom applies under at market", only("ChfDated", "INR", "expenses", "at market"), "4900.00"),
    // e32 (2025-04-01): BHD→INR 222 applies only from 2025-05-01: market R6 cross:
    // 2 × 86 / 0.376 = 457.4468… → 457.45.
    q("a dated custom rate before its date: market", only("BhdBefore"), "457.45",
      // A market rate more than 7 days older than the entry: stale.
      warnings: .exactly(["1 entry converted at market rates more than 7 days old: BHD/INR (1, oldest 31 days)"])),
    // e33 (2025-05-02): custom 222: 2 × 222 = 444.00.
    q("a dated custom rate after its date", only("BhdAfter"), "444.00"),
    // convert is dated today (2025-12-31): the newest custom CHF rate, INR→CHF 0.008 → 125: 2 × 125 = 250.00.
    q("convert uses custom rates", "convert 2 CHF to INR", "250.00"),
    // Session rate for convert: 10 × 56 = 560.00.
    q("convert uses a session rate", "convert 10 SGD to INR", "560.00", setup: ["set rate SGD/INR = 56"]),

    // MARK: 4. Market: single sources

    // e11 (7 USD, 2025-01-04): on that day the pair R2 (84) beats the snapshot R1 (83.5): 7 × 84 = 588.00.
    q("a pair beats a snapshot on the same date", only("UsSameDay"), "588.00"),
    // e08 (10 USD, 2025-01-05): newest on or before is 2025-01-04, the pair: 10 × 84 = 840.00.
    q("the newest source on or before the entry", only("UsPairBeatsSnap"), "840.00"),
    // e12 (1000 INR, 2025-01-20) into USD: pair USD→INR 84 (R2) inverted: 1000 / 84 = 11.9047… → 11.90.
    q("a pair Y→X priced inversely", only("HomeToUSD", "USD"), "11.90",
      // A market rate more than 7 days older than the entry: stale.
      warnings: .exactly(["1 entry converted at market rates more than 7 days old: INR/USD (1, oldest 16 days)"])),
    // e11 into EUR, 2025-01-04: R1 quotes EUR against its base USD directly: 7 × 0.92 = 6.44.
    q("a snapshot quoting the pair directly (its base)", only("UsSameDay", "EUR"), "6.44"),
    // e14 (3 EUR, 2025-01-06) into USD: R1, 1 EUR = 1 / 0.92 USD: 3 / 0.92 = 3.2608… → 3.26
    // (the book's lock is for INR).
    q("a snapshot quoting the base, inversely", only("EuroLocked", "USD"), "3.26"),
    // e06 (5 USD, 2025-01-05) into SGD: R0 (R1 has no SGD): 5 × 1.35 = 6.75.
    q("the newest snapshot quoting both", only("TripInUSD", "SGD"), "6.75"),
    // e13 (3 EUR, 2025-01-06): R1 cross through its base: 3 × 83.5 / 0.92 = 272.2826… → 272.28.
    q("a cross rate through the snapshot's base", only("EuroCross"), "272.28"),
    // e17 (1000 JPY, 2025-01-20): R0 cross: 1000 × 83 / 150 = 553.333… → 553.33.
    q("a JPY cross rate", only("JpyCross"), "553.33",
      // A market rate more than 7 days older than the entry: stale.
      warnings: .exactly(["1 entry converted at market rates more than 7 days old: JPY/INR (1, oldest 17 days)"])),
    // e15 (2 GBP in the EUR book, 2025-02-15): R3 105 and R4 106 both 2025-02-10, R4 later in the file:
    // 2 × 106 = 212.00 (Europe's lock is EUR→INR, not for GBP).
    q("later in the file wins among equals (pairs)", only("EuroGBP"), "212.00"),
    // e16 (3 GBP, 2025-03-05): snapshot R6 (2025-03-01) is newer than the pairs of 2025-02-10:
    // 3 × 86 / 0.78 = 330.7692… → 330.77.
    q("a newer snapshot beats an older pair", only("GbpNewerSnapshot"), "330.77"),
    // e41 (10 USD, 2025-07-20): R15 and R16 (base EUR) both 2025-07-15; R16 later in the file,
    // USD/INR through its base = 101 / 1.25 = 80.8: 10 × 80.8 = 808.00 (R15 would give 833.33).
    q("later in the file wins among equals (snapshots), cross", only("UsJuly"), "808.00"),
    // e40 (2 EUR, 2025-07-20): R16 quotes INR against its base EUR: 2 × 101 = 202.00.
    q("a snapshot with another base, directly", only("EuroJuly"), "202.00"),
    // Everything on 2025-07-20 (e40 + e41): 202 + 808 = 1010.00.
    q("on a date", "sum expenses in INR on 2025-07-20", "1010.00"),
    // e10 (1 USD, 2024-12-01): every USD/INR source is later; the oldest, R0 (2025-01-03): 1 × 83 = 83.00.
    q("every source after the entry: the oldest, with a warning", only("UsBeforeAll"), "83.00",
      warnings: .exactly(["no market rate for USD/INR on or before 2024-12-01; used the oldest, dated 2025-01-03, for 1 entry"])),
    // e38 (income, 30 SGD, 2025-01-15) into USD: R0: 30 / 1.35 = 22.222… → 22.22.
    q("income at market into USD", only("Refund", "USD", "income"), "22.22",
      // A market rate more than 7 days older than the entry: stale.
      warnings: .exactly(["1 entry converted at market rates more than 7 days old: SGD/USD (1, oldest 12 days)"])),
    // e09 (income, 500 USD, 2025-01-05): pair 84: 500 × 84 = 42000.00.
    q("income at market", only("Salary", "INR", "income"), "42000.00"),

    // MARK: 4. Market: chains

    // e27 (1000 THB, 2025-02-01): no single THB/INR source. Via USD: THB→USD R7 0.03 (2025-01-15),
    // USD→INR 84 (R2, newest on or before 2025-02-01): 1000 × 0.03 × 84 = 2520.00
    // (via AUD it would be 1000 × 0.045 × 55 = 2475.00).
    q("a chain through USD first", only("ThbChain"), "2520.00",
      // A market rate more than 7 days older than the entry: stale.
      warnings: .exactly(["1 entry converted at market rates more than 7 days old: THB/INR via USD (1, oldest 28 days: THB/USD, USD/INR)"])),
    // e28 (999 THB, 2025-04-10): THB/USD = 1 / 32 (R8, 2025-04-01, inverted), USD/INR = 86 (R6):
    // 999 / 32 × 86 = 2684.8125 → 2684.81.
    q("a chain, each leg by the date rule, one leg inverted", only("ThbChainInverse"), "2684.81",
      // A market rate more than 7 days older than the entry: stale.
      warnings: .exactly(["1 entry converted at market rates more than 7 days old: THB/INR via USD (1, oldest 40 days: THB/USD, USD/INR)"])),
    // e26 (100 MYR, 2025-02-15): no USD route; candidates alphabetically: AUD, BHD no; CAD yes
    // (before EUR): MYR→CAD 0.3, CAD/INR R0 = 83 / 1.44: 100 × 0.3 × 83 / 1.44 = 1729.1666… → 1729.17
    // (via EUR: 100 × 0.2 × 83.5 / 0.92 = 1815.22).
    q("a chain through the first currency alphabetically", only("MyrChain"), "1729.17",
      // A market rate more than 7 days older than the entry: stale.
      warnings: .exactly(["1 entry converted at market rates more than 7 days old: MYR/INR via CAD (1, oldest 43 days: CAD/INR, MYR/CAD)"])),
    // rate THB/INR on 2025-02-01: 0.03 × 84 = 2.52.
    q("rate of a chain", "rate THB/INR at 2025-02-01", "2.52",
      // Both legs more than 7 days older than the day: stale, each named.
      warnings: .exactly(["the market rate for THB/INR on 2025-02-01 is more than 7 days old: leg THB/USD dated 2025-01-15, 17 days old, leg USD/INR dated 2025-01-04, 28 days old"])),
    // e27 at 2025-06-30: THB/USD 1/32 (R8), USD/INR 85.5 (R13): 1000 × 85.5 / 32 = 2671.875 → tie, 7 odd → 2671.88.
    q("a chain under at DATE, tie rounds to even", only("ThbChain", "INR", "expenses", "at 2025-06-30"), "2671.88",
      // A market rate more than 7 days older than the entry: stale.
      warnings: .exactly(["1 entry converted at market rates more than 7 days old: THB/INR via USD (1, oldest 90 days: THB/USD)"])),

    // MARK: Valuation

    // e08 at market: no booked value anyway; 10 × 84 = 840.00.
    q("at market", only("UsPairBeatsSnap", "INR", "expenses", "at market"), "840.00"),
    // e08 at latest: newest USD/INR is R17 (2025-09-30) 88.25: 10 × 88.25 = 882.50; stale by
    // 2025-09-30 → 2025-12-31 = 31 + 30 + 31 = 92 days.
    q("at latest", only("UsPairBeatsSnap", "INR", "expenses", "at latest"), "882.50", warnings: .containing("92 days")),
    // e08 at 2025-06-30: R13 of that very day (R14 is 07-01): 10 × 85.5 = 855.00.
    q("at DATE: a source on that date", only("UsPairBeatsSnap", "INR", "expenses", "at 2025-06-30"), "855.00"),
    // e08 at 2025-07-01: R14: 10 × 87 = 870.00.
    q("at DATE: the next day's source", only("UsPairBeatsSnap", "INR", "expenses", "at 2025-07-01"), "870.00"),
    // e08 at 2025-07-20: R16 (later than R15 on 07-15): 10 × 101 / 1.25 = 808.00.
    q("at DATE: later snapshot among equals", only("UsPairBeatsSnap", "INR", "expenses", "at 2025-07-20"), "808.00"),
    // e01 at market: lock skipped; R0 cross: 10 × 83 / 1.35 = 614.8148… → 614.81.
    q("at market skips the book lock", only("TripLocked", "INR", "expenses", "at market"), "614.81"),
    // e02 at market: normalizedAmount skipped; R0: 20 × 83 / 1.35 = 1229.6296… → 1229.63.
    q("at market skips normalizedAmount", only("TripNormalized", "INR", "expenses", "at market"), "1229.63"),
    // Stored sign: -1229.63.
    q("at market, stored sign", only("TripNormalized", "INR", "entries", "at market"), "-1229.63"),
    // e01 at latest: newest SGD/INR source R13 (2025-06-30): 10 × 85.5 / 1.28 = 667.96875 → 667.97;
    // 2025-06-30 → 2025-12-31 = 31 + 31 + 30 + 31 + 30 + 31 = 184 days.
    q("at latest skips the book lock", only("TripLocked", "INR", "expenses", "at latest"), "667.97", warnings: .containing("184 days")),
    // e01 at 2025-03-15: R6 (2025-03-01): 10 × 86 / 1.32 = 651.5151… → 651.52.
    q("at DATE skips the book lock", only("TripLocked", "INR", "expenses", "at 2025-03-15"), "651.52",
      // A market rate more than 7 days older than the entry: stale.
      warnings: .exactly(["1 entry converted at market rates more than 7 days old: SGD/INR (1, oldest 14 days)"])),
    // e13 at 2025-06-30: R13 cross: 3 × 85.5 / 0.88 = 291.4772… → 291.48.
    q("at DATE, a cross rate", only("EuroCross", "INR", "expenses", "at 2025-06-30"), "291.48"),
    // e13 at latest: newest EUR/INR is R16 (2025-07-15), 101 (base EUR): 3 × 101 = 303.00;
    // 2025-07-15 → 2025-12-31 = 16 + 31 + 30 + 31 + 30 + 31 = 169 days.
    q("at latest, newest snapshot", only("EuroCross", "INR", "expenses", "at latest"), "303.00", warnings: .containing("169 days")),
    // e14 (Europe, locked 89) at latest: lock skipped, same 3 × 101 = 303.00.
    q("at latest skips Europe's lock", only("EuroLocked", "INR", "expenses", "at latest"), "303.00", warnings: .containing("169 days")),

    // MARK: Rounding and minor units

    // e18 (0.03 USD, 2025-01-03) into JPY (0 decimals): R0: 0.03 × 150 = 4.5 → half-even 4.
    q("JPY tie rounds down to even", only("JpyTieDown", "JPY"), "4"),
    // e19: 0.05 × 150 = 7.5 → 8.
    q("JPY tie rounds up to even", only("JpyTieUp", "JPY"), "8"),
    // e20 + e21: 0.03 × 150 + 0.03 × 150 = 4.5 + 4.5 = 9 (rounding each first: 4 + 4 = 8).
    q("rounded once at the end", only("JpyTwice", "JPY"), "9"),
    // Stored sign: -4.5 → half-even -4.
    q("JPY negative tie down", only("JpyTieDown", "JPY", "entries"), "-4"),
    // -7.5 → -8.
    q("JPY negative tie up", only("JpyTieUp", "JPY", "entries"), "-8"),
    // e22 (7.77 USD, 2025-01-03) into KWD (3 decimals): R0 0.3: 7.77 × 0.3 = 2.331.
    q("KWD has three decimals", only("Kwd", "KWD"), "2.331"),
    // e23 (1.15 USD, 2025-03-05): R6 0.31: 1.15 × 0.31 = 0.3565 → tie, 6 even → 0.356.
    q("KWD tie", only("KwdTie", "KWD"), "0.356"),
    q("KWD negative tie", only("KwdTie", "KWD", "entries"), "-0.356"),
    // e24 (Gulf, 1.5 KWD, 2025-03-05) into INR: R6 cross: 1.5 × 86 / 0.31 = 416.1290… → 416.13.
    q("KWD into INR", only("KwdToInr"), "416.13"),
    // e09 (income 500 USD, 2025-01-05) into KWD: R0 (R1 has no KWD): 500 × 0.3 = 150.000.
    q("income into KWD", only("Salary", "KWD", "income"), "150.000"),
    // BHD/KWD on 2025-03-05: R6 cross 0.31 / 0.376 = 0.82446… → 0.824.
    q("BHD into KWD", "convert 1 BHD to KWD at 2025-03-05", "0.824"),
    // JPY/KWD on 2025-01-03: R0 cross 0.3 / 150 = 0.002: 1000 × 0.002 = 2.000.
    q("JPY into KWD", "convert 1000 JPY to KWD at 2025-01-03", "2.000"),
    // 0.01 × 150 = 1.5 → half-even 2.
    q("convert into JPY, tie", "convert 0.01 USD to JPY at 2025-01-03", "2"),

    // MARK: convert and rate

    // Today 2025-12-31: newest SGD/INR source is R13: 100 × 85.5 / 1.28 = 6679.6875 → 6679.69.
    q("convert at today's market", "convert 100 SGD to INR", "6679.69",
      warnings: .exactly(["the market rate for SGD/INR on 2025-12-31 is more than 7 days old: dated 2025-06-30, 184 days old"])),
    // R13: 100 × 85.5 = 8550.00.
    q("convert at DATE", "convert 100 USD to INR at 2025-06-30", "8550.00"),
    // R17: 100 × 88.25 = 8825.00.
    q("convert at latest", "convert 100 USD to INR at latest", "8825.00", warnings: .containing("92 days")),
    // 100 × 57.5 = 5750.00.
    q("convert with a what-if rate", "convert 100 SGD to INR with rate SGD/INR = 57.5", "5750.00"),
    // The pair R2 beats the snapshot R1 (83.5) on its day.
    q("rate: pair beats snapshot", "rate USD/INR at 2025-01-04", "84"),
    // The pair R5 as written.
    q("rate: a pair as written", "rate INR/SGD at 2025-02-25", "0.016"),
    // R5 inverted: 1 / 0.016 = 62.5.
    q("rate: a pair inverted", "rate SGD/INR at 2025-02-25", "62.5"),
    // R3 and R4 share 2025-02-10: R4, later in the file.
    q("rate: later in the file among equals", "rate GBP/INR at 2025-02-10", "106"),
    // R16 cross: 101 / 1.25 = 80.8.
    q("rate: snapshot cross through a EUR base", "rate USD/INR at 2025-07-20", "80.8"),
    // R16 direct: 101.
    q("rate: snapshot direct against its base", "rate EUR/INR at 2025-07-20", "101"),

    // MARK: Missing rates

    // NOK has no source of any kind: e34 and e35.
    ConversionCase(name: "missing rate names the pair and the count", setup: [], query: only("NokA, NokB"),
                   expected: .missing(["NOK/INR": 2]), warnings: .none),
    // In KWD: e26 (MYR) chains via CAD (MYR→CAD, then R0's CAD/KWD), e08 (USD) is direct; only e34 fails.
    // MARK: Exact rounding through quotient rates

    // e42: 85.26 INR at USD/INR 84 is 85.26 / 84 = 1.015 exactly: half-even (1 odd) → 1.02. 1/84 never
    // terminates, so a factor cut to any number of digits lands just below the tie.
    q("a tie through an inverse what-if rate", only("TieToUSD", "USD", "expenses", "with rate USD/INR = 84"), "1.02"),
    // e43: 1.26 / 84 = 0.015 exactly → half-even (1 odd) → 0.02.
    q("a small tie through an inverse rate", only("TieToUSDSmall", "USD", "expenses", "with rate USD/INR = 84"), "0.02"),
    // Both: 86.52 / 84 = 1.03 exactly.
    q("the sum of two ties, rounded once", only("TieToUSD, TieToUSDSmall", "USD", "expenses", "with rate USD/INR = 84"), "1.03"),
    // avg: 1.03 / 2 = 0.515 exactly → half-even (1 odd) → 0.52.
    q("an average on a tie", "avg expenses in USD where category in (TieToUSD, TieToUSDSmall) with rate USD/INR = 84", "0.52"),
    // e42 converts to exactly 1.015, which is not below 1.015: counted.
    q("a comparison with a converted amount is exact", only("TieToUSD", "USD", "expenses", "and amount >= 1.015 with rate USD/INR = 84"), "1.02"),
    // `amount in (…)` finds 1.015 exactly too (a list is searched, not compared one by one).
    q("amount in (…) with a converted amount", only("TieToUSD", "USD", "expenses", "and amount in (3, 1.015, 0.5) with rate USD/INR = 84"), "1.02"),
    // convert: 85.26 / 84 = 1.015 → 1.02.
    q("convert on a tie", "convert 85.26 INR to USD with rate USD/INR = 84", "1.02"),
    // A cross rate inside a snapshot: on 2025-08-20 the newest USD/INR source is the EUR snapshot of
    // 2025-07-15 (R16, later than R15): USD/INR = 101 / 1.25 = 80.8, and 1.26 / 80.8 = 0.015594… → 0.02;
    // 85.26 / 80.8 = 1.05519… → 1.06.
    q("a cross rate inside a snapshot, no tie", only("TieToUSD", "USD", "expenses", "at market"), "1.06",
      // A market rate more than 7 days older than the entry: stale.
      warnings: .exactly(["1 entry converted at market rates more than 7 days old: INR/USD (1, oldest 36 days)"])),

    ConversionCase(name: "missing rate among convertible entries", setup: [],
                   query: only("NokA, MyrChain, UsPairBeatsSnap", "KWD"),
                   expected: .missing(["NOK/KWD": 1]), warnings: .none),
    ConversionCase(name: "convert with no rate", setup: [], query: "convert 1 NOK to INR",
                   expected: .noRate("NOK/INR"), warnings: .none),
]

/// A rate written without trailing zeros (`62.50` → `62.5`, `84.0` → `84`).
private func trimmed(_ s: String?) -> String? {
    guard var s, s.contains(".") else { return s }
    while s.hasSuffix("0") { s.removeLast() }
    if s.hasSuffix(".") { s.removeLast() }
    return s
}

@Suite struct ConversionTableTests {
    func session() throws -> Session {
        let ledger = try LedgerLoader.load(documents: [("table.json", conversionTableLedger)])
        return Session(ledger: ledger, today: Day(year: 2025, month: 12, day: 31)!)
    }

    @Test(arguments: conversionCases)
    func conversion(_ c: ConversionCase) throws {
        let s = try session()
        for statement in c.setup { _ = try s.execute(statement) }
        switch c.expected {
        case .value(let expected):
            guard case .table(let r) = try s.execute(c.query) else {
                Issue.record("\(c.query): not a table"); return
            }
            let got: String?
            if c.query.hasPrefix("convert ") {
                got = plainText(r.rows.first?[1])            // [amount, converted, rate, source, date]
            } else if c.query.hasPrefix("rate ") {
                got = trimmed(plainText(r.rows.first?[1]))   // [pair, rate, source, date]
            } else {
                got = total(r)
            }
            #expect(got == expected, "\(c.query)")
            switch c.warnings {
            case .none: #expect(r.warnings.isEmpty, "\(c.query): \(r.warnings)")
            case .exactly(let w): #expect(r.warnings == w, "\(c.query)")
            case .containing(let text):
                #expect(r.warnings.contains { $0.contains(text) }, "\(c.query): \(r.warnings)")
            }
        case .missing(let pairs):
            let error = #expect(throws: QueryError.self, "\(c.query)") { try s.execute(c.query) }
            guard case .missingRates(let missing, _)? = error?.kind else {
                Issue.record("\(c.query): expected missing rates, got \(String(describing: error))"); return
            }
            #expect(Dictionary(uniqueKeysWithValues: missing.map { ($0.pair.description, $0.entries) }) == pairs)
            for pair in pairs.keys { #expect(error?.message.contains(pair) == true) }
        case .noRate(let pair):
            let error = #expect(throws: QueryError.self, "\(c.query)") { try s.execute(c.query) }
            guard case .noRate(let p)? = error?.kind else {
                Issue.record("\(c.query): expected no rate, got \(String(describing: error))"); return
            }
            #expect(p.description == pair)
        }
    }

    /// `at latest` is the newest rate as of today: replaying 2025-08-01 must not use the USD/INR pair
    /// of 2025-09-30 (R17). On 2025-08-01 the newest source is the EUR snapshot of 2025-07-15 (R16, the
    /// later of two): USD/INR = 101 / 1.25 = 80.8, dated 17 days before today.
    @Test func atLatestIsAsOfToday() throws {
        let ledger = try LedgerLoader.load(documents: [("table.json", conversionTableLedger)])
        let s = Session(ledger: ledger, today: Day(year: 2025, month: 8, day: 1)!)
        guard case .table(let r) = try s.execute("rate USD/INR at latest") else { Issue.record("not a table"); return }
        #expect(trimmed(plainText(r.rows.first?[1])) == "80.8")
        #expect(r.warnings == ["the newest USD/INR rate is dated 2025-07-15, 17 days before today"])
        // e41 (10 USD, 2025-07-20) at latest: 10 × 80.8 = 808.00.
        guard case .table(let q) = try s.execute(only("UsJuly", "INR", "expenses", "at latest")) else { Issue.record("not a table"); return }
        #expect(total(q) == "808.00")
    }

    @Test func theTableIsLargeAndNamesAreUnique() {
        #expect(conversionCases.count >= 60)
        #expect(Set(conversionCases.map(\.name)).count == conversionCases.count)
    }
}
