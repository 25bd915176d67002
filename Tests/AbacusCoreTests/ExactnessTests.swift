// Exact decimals: parsing JSON number text, arithmetic, half-even rounding, and
// sums no binary floating point could give.

@testable import AbacusCore
import BigInt
import Foundation
import Testing

@Suite struct ExactDecimalTests {
    @Test(arguments: [
        ("0", "0"), ("-0", "0"), ("12.50", "12.5"), ("-1249.5", "-1249.5"), ("1e3", "1000"),
        ("1.5E-2", "0.015"), ("12345678901234567.89", "12345678901234567.89"),
        ("0.10000", "0.1"), ("2.5e+1", "25"), ("100e-2", "1.00"),
    ])
    /// Trailing zeros of a fraction are dropped on reading (they carry no value); an exponent keeps its scale.
    func parsesJSONNumberText(text: String, expected: String) throws {
        let d = try #require(ExactDecimal(text))
        #expect(d.description == expected)
    }

    /// The text is written 19 digits at a time: held to BigInt's digits at the word boundaries
    /// (10^19 ± 1, 10^38 - 1, Int128's extremes), with scales that put the point inside, at and
    /// before the digits.
    @Test func decimalTextAtWordBoundaries() {
        let p19 = Int128(10_000_000_000_000_000_000)
        let values: [Int128] = [0, 1, 9, 10, 99, 100, p19 - 1, p19, p19 + 1, p19 * p19 - 1, p19 * 10 - 1,
                                Int128(UInt64.max), Int128(UInt64.max) + 1, Int128.max, Int128.min + 1, 1_000_000_000_000_000_000]
        for v in values + values.map({ -$0 }) {
            for scale in [0, 1, 2, 3, 18, 19, 20, 38] {
                let d = ExactDecimal(significand: v, scale: scale)
                var digits = String(BigInt(v).magnitude)
                if scale > 0 {
                    if digits.count <= scale { digits = String(repeating: "0", count: scale - digits.count + 1) + digits }
                    digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -scale))
                }
                let expected = v < 0 ? "-" + digits : digits
                #expect(d.description == expected, "\(v) at scale \(scale)")
                var bytes: [UInt8] = Array("x".utf8)
                d.appendDescription(to: &bytes)
                #expect(bytes == Array(("x" + expected).utf8))
            }
        }
    }

    @Test(arguments: ["", "-", "01", "1.", ".5", "+1", "1e", "0x10", "NaN", "Infinity", "1..2", "1e+"])
    func refusesWhatIsNotAJSONNumber(text: String) {
        #expect(ExactDecimal(text) == nil)
    }

    @Test func refusesWhatItCannotHoldExactly() {
        // 39 significant digits, a scale beyond 38, an exponent past 10^38.
        var t = "123456789012345678901234567890123456789"
        #expect(t.withUTF8 { ExactDecimal.parse($0) } == .failure(.notExact))
        t = "1e-39"
        #expect(t.withUTF8 { ExactDecimal.parse($0) } == .failure(.notExact))
        t = "1e400"
        #expect(t.withUTF8 { ExactDecimal.parse($0) } == .failure(.notExact))
        // Trailing zeros of a fraction are not significant: this one is held.
        t = "1.000000000000000000000000000000000000000000000"
        #expect(t.withUTF8 { ExactDecimal.parse($0) } == .success(.one))
        // Nor are the zeros of a whole part that an exponent takes back: 10^50 × 10^-50 is 1,
        // 10^40 × 10^-5 is 10^35; but 10^50 itself, or 10^40 + 1, is more than 38 digits hold.
        t = "1" + String(repeating: "0", count: 50) + "e-50"
        #expect(t.withUTF8 { ExactDecimal.parse($0) } == .success(.one))
        t = "1" + String(repeating: "0", count: 40) + "e-5"
        #expect(t.withUTF8 { ExactDecimal.parse($0) } == .success(ExactDecimal(significand: Int128(pow10[35]), scale: 0)))
        for t in ["1" + String(repeating: "0", count: 50), "1" + String(repeating: "0", count: 39) + "1e-5", "1" + String(repeating: "0", count: 45) + ".5e-10"] {
            var t = t
            #expect(t.withUTF8 { ExactDecimal.parse($0) } == .failure(.notExact), "\(t)")
        }
    }

    @Test(arguments: [
        ("2.345", 2, "2.34"), ("2.355", 2, "2.36"), ("-2.345", 2, "-2.34"), ("-2.355", 2, "-2.36"),
        ("0.5", 0, "0"), ("1.5", 0, "2"), ("2.5", 0, "2"), ("2.5000001", 0, "3"), ("-0.004", 2, "0.00"),
    ])
    func roundsHalfEven(value: String, scale: Int, expected: String) throws {
        let d = try #require(ExactDecimal(value))
        #expect(d.rounded(toScale: scale).description == expected)
    }

    @Test func addsAndMultipliesExactly() throws {
        let a = try #require(ExactDecimal("12345678901234567.89"))
        let b = try #require(ExactDecimal("0.011"))
        #expect(try a.adding(b).description == "12345678901234567.901")
        // 19 digits × 2 digits: exact, 20 digits, no Double could.
        #expect(try a.multiplied(by: b).description == "135802467913580.24679")
        #expect(ExactDecimal("1.10")! == ExactDecimal("1.1")!)
        #expect(ExactDecimal("-3")! < ExactDecimal("0.001")!)
    }

    @Test func overflowIsAnErrorNeverARounding() throws {
        let big = try #require(ExactDecimal("99999999999999999999999999999999999999"))
        #expect(throws: ExactDecimal.Overflow.self) { try big.adding(.one) }
        #expect(throws: ExactDecimal.Overflow.self) { try big.multiplied(by: ExactDecimal("1.1")!) }
    }
}

@Suite struct WideIntegerTests {
    /// Large negative values must survive the trip from BigInt back to 128 bits: the generic
    /// `Int128(exactly:)` turned -2^64 - 1 into -1, a silent wrong answer.
    @Test(arguments: ["-18446744073709551617", "-18446744073709551616", "-170141183460469231731687303715884105728",
                      "170141183460469231731687303715884105727", "-1", "0", "18446744073709551616"])
    func bigIntegersComeBackExactly(_ text: String) throws {
        let big = try #require(BigInt(text))
        #expect(big.exactInt128.map { String($0) } == text)
    }

    /// The 256-bit product (a fast path for amounts that fit 64 bits) equals BigInt's.
    @Test func productsAreExact() {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next() -> UInt64 { state ^= state << 13; state ^= state >> 7; state ^= state << 17; return state }
        // Powers of two whose products end in 128 zero bits: negated, the carry crosses into the high half.
        let edges: [Int128] = [0, 1, -1, Int128(Int64.max), Int128(Int64.min), Int128(Int64.max) + 1, Int128(Int64.min) - 1,
                               Int128.max, Int128.min, Int128.min + 1, ExactDecimal.maxSignificand, -ExactDecimal.maxSignificand,
                               Int128(1) << 62, -(Int128(1) << 62), Int128(1) << 65, -(Int128(1) << 66), Int128(1) << 126, -(Int128(1) << 126)]
        var values = edges
        for _ in 0..<300 {
            let bits = Int(next() % 127) + 1
            let magnitude = (Int128(truncatingIfNeeded: UInt128(next()) << 64 | UInt128(next()))) & ((Int128(1) << bits) - 1)
            values.append(next() & 1 == 0 ? magnitude : -magnitude)
        }
        for (k, a) in values.enumerated() {
            for b in values[(k * 7 % values.count)...].prefix(12) + edges {
                #expect(Int256(a, times: b).big == BigInt(a) * BigInt(b), "\(a) × \(b)")
            }
        }
    }

    /// A 256-bit sum equals BigInt's, and an overflow past 2^255 either way is reported (the
    /// carry between the halves is added without a branch): sums of both signs, carries and
    /// borrows across the halves, and both ends of the range.
    @Test func sumsAreExactAndOverflowIsReported() {
        let values = WideIntegerTests.valuesToRound() + [Int256(high: 0, low: .max), Int256(high: -1, low: 0), Int256(high: -1, low: .max), Int256(high: 0, low: 1 << 127)]
        let top = BigInt(1) << 255
        for (k, a) in values.enumerated() {
            for b in values[(k * 5 % values.count)...].prefix(16) + values.prefix(12) {
                var sum = a
                let overflowed = sum.add(b)
                let exact = a.big + b.big
                #expect(overflowed == (exact >= top || exact < -top), "\(a.big) + \(b.big)")
                if !overflowed { #expect(sum.big == exact, "\(a.big) + \(b.big)") }
            }
        }
    }

    /// Values to round: ties and near-ties at every digit count, random magnitudes of every
    /// width, and both ends of the 256-bit range, each with both signs.
    static func valuesToRound() -> [Int256] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 { state ^= state << 13; state ^= state >> 7; state ^= state << 17; return state }
        let maxValue = Int256(high: .max, low: .max), minValue = Int256(high: .min, low: 0)
        var values: [Int256] = [.zero, Int256(1), Int256(5), Int256(15), Int256(25), Int256(-5), Int256(-15), maxValue, minValue,
                                Int256(high: .max, low: .max - 4), Int256(high: .min, low: 1), Int256(high: .max >> 1, low: 0)]
        for d in 1...38 {
            let half = 5 * pow10[d - 1]
            for base in [Int128(0), 1, 2, 7, 10, 123_456_789] {
                for delta: Int128 in [-1, 0, 1] {
                    let v = Int256(base) .timesPowerOfTen(d).map { var x = $0; _ = x.add(Int256(half + delta)); return x } ?? .zero
                    values += [v, v.negated ?? .zero]
                }
            }
        }
        for _ in 0..<400 {
            let v = Int256(high: Int128(truncatingIfNeeded: UInt128(next()) << 64 | UInt128(next())), low: UInt128(next()) << 64 | UInt128(next()))
            let shift = Int(next() % 255)
            // Every width, not only full ones.
            let narrowed = Int256(high: shift >= 128 ? 0 : v.high >> Int128(shift), low: shift >= 128 ? v.low >> UInt128(shift - 128) : v.low)
            values += [narrowed, narrowed.negated ?? .zero]
        }
        return values
    }

    /// Half-even rounding on four 64-bit limbs gives what BigInt division gives, at every
    /// number of dropped digits, for ties, both signs and the ends of the range.
    @Test func roundingIn256BitsEqualsBigIntRounding() {
        for v in WideIntegerTests.valuesToRound() {
            for digits in [1, 2, 5, 18, 19, 20, 34, 37, 38, 39, 57, 76, 77] {
                let expected = WideDecimal.divideHalfEven(v.big, BigInt(10).power(digits))
                #expect(v.roundedHalfEven(droppingDigits: digits).big == expected, "\(v.big) dropping \(digits)")
            }
        }
    }

    /// A bounded value rounds the same in its 256-bit form and in its BigInt form, with and
    /// without an error, up to and across the point where the 256-bit form overflows (where it
    /// hands over to BigInt).
    @Test func the256BitFormAndTheBigIntFormRoundAlike() {
        let values = WideIntegerTests.valuesToRound()
        let errors: [Int256] = [.zero, Int256(1), Int256(4), Int256(5), Int256(50), Int256(high: 0, low: UInt128(pow10[30])), Int256(high: .max >> 1, low: 0),
                                Int256(high: .max, low: .max)]
        for (k, v) in values.enumerated() {
            let e = errors[k % errors.count]
            for (scale, target) in [(2, 2), (3, 2), (30, 2), (36, 0), (40, 3), (70, 2)] {
                let small = BoundedValue(approximate: v, scale: scale, error: e)
                let wide = BoundedValue(approximate: WideDecimal(v.big, scale: scale), error: WideDecimal(e.big, scale: scale + 1))
                #expect(small.roundedIfCertain(toScale: target) == wide.roundedIfCertain(toScale: target), "\(v.big) ± \(e.big) at \(scale) → \(target)")
                #expect(small.isExact == wide.isExact)
                #expect(small.approximate == wide.approximate && small.error == wide.error)
            }
        }
    }

    /// Deciding a rounding with one division (the approximation split at the rounding digit,
    /// its error compared with the distance to the nearest boundary) gives what rounding the
    /// approximation and both ends of its error gives: for errors that just reach, just miss
    /// and pass a half-way point, a tie, the neighbouring multiples, both signs and near zero.
    /// An average's division of a 256-bit sum by its count truncates toward zero, as BigInt's
    /// division does, on both signs, and says whether anything was left over.
    @Test func dividingBy64BitsTruncatesTowardZero() {
        for v in WideIntegerTests.valuesToRound() {
            for n: UInt64 in [1, 2, 3, 7, 10, 1_000_003, UInt64(Int64.max), UInt64.max] {
                let (q, inexact) = v.dividedTruncating(by: n)
                let big = v.big, d = BigInt(n)
                #expect(q.big == big / d, "\(big) ÷ \(n)")
                #expect(inexact == (big % d != 0), "\(big) ÷ \(n)")
            }
        }
    }

    @Test func oneDivisionDecidesAsRoundingBothEndsDoes() {
        for (scale, target) in [(3, 2), (8, 2), (21, 2), (36, 2), (36, 0), (39, 2), (40, 3)] {
            let drop = scale - target
            let unit = Int256(high: 0, low: 1).timesPowerOfTen(drop) ?? .zero, half = unit.roundedHalfEven(droppingDigits: 1).big * 5
            for base: Int128 in [0, 1, 2, 3, 999, 123_456_789_012] {
                for offset in [half - 3, half - 1, half, half + 1, half + 2, BigInt(0), BigInt(1), unit.big - 1] {
                    // The distance from 10 × the value to the half-way point above its multiple, in error units.
                    let distance = abs(offset * 10 - half * 10)
                    for error in [BigInt(0), BigInt(1), distance - 1, distance, distance + 1, distance + 10, unit.big * 10 - 1, unit.big * 10] where error >= 0 {
                        for sign in [BigInt(1), BigInt(-1)] {
                            let v = sign * (BigInt(base) * unit.big + offset)
                            guard let approximate = Int256(exactly: v), let e = Int256(exactly: error) else { continue }
                            let small = BoundedValue(approximate: approximate, scale: scale, error: e)
                            let wide = BoundedValue(approximate: WideDecimal(v, scale: scale), error: WideDecimal(error, scale: scale + 1))
                            #expect(small.roundedIfCertain(toScale: target) == wide.roundedIfCertain(toScale: target), "\(v) ± \(error) at \(scale) → \(target)")
                        }
                    }
                }
            }
        }
    }

    @Test func tooLargeIsNil() throws {
        #expect(try #require(BigInt("170141183460469231731687303715884105728")).exactInt128 == nil)
        #expect(try #require(BigInt("-170141183460469231731687303715884105729")).exactInt128 == nil)
    }

    /// A ledger entry of -10^18 sums to -10^18, not a wrapped value.
    @Test func aHugeNegativeAmountSumsExactly() throws {
        let ledger = try LedgerLoader.load(documents: [("huge.json", """
            {"version": 1, "defaultCurrency": "INR", "books": [{"id": "b", "name": "B", "currency": "INR"}],
             "entries": [{"id": "e", "bookId": "b", "amount": -1e18, "date": "2025-01-01", "category": "C"},
                         {"id": "f", "bookId": "b", "amount": -184467440737095516.17, "date": "2025-01-01", "category": "C"}]}
            """)])
        let w = WideDecimal(BigInt(ledger.entries.amount[0]) + BigInt(ledger.entries.amount[1]), scale: ledger.entries.amountScale)
        #expect(w.rounded(toScale: 2)?.description == "-1184467440737095516.17")
    }
}

@Suite struct RateArithmeticTests {
    @Test func inverseAndCrossRatesStayFractionsUntilAnAmountIsConverted() throws {
        // 1 USD = 83.5 INR and 0.92 EUR: EUR→INR = 83.5 / 0.92.
        let r = Rate(numerator: ExactDecimal("83.5")!, denominator: ExactDecimal("0.92")!)
        // 92 EUR × 83.5 / 0.92 = 8350: the factor keeps 34 significant digits, so the product is 8350 to the cent.
        let f = try #require(r.factor)
        let v = WideDecimal(9200 * BigInt(f.significand), scale: 2 + f.scale)
        #expect(v.rounded(toScale: 2)?.description == "8350.00")
        #expect(r.converted(9200, scale: 2).rounded(toScale: 2)?.description == "8350.00")
        // As a decimal the quotient carries 28 significant digits: 90.76086956521739130434782609.
        #expect(r.decimalValue(significantDigits: 28)?.description == "90.76086956521739130434782609")
        #expect(Rate(ExactDecimal("84")!).inverse.decimalValue(significantDigits: 28)?.description == "0.0119047619047619047619047619")
    }

    /// The 256-bit quotient (the fast path) agrees with the wide division on rates of every size,
    /// and says exact only when the factor is the rate exactly.
    @Test(arguments: 0..<8)
    func theFastQuotientAgreesWithTheWideOne(seed: Int) throws {
        var state = UInt64(seed + 1) &* 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 { state ^= state << 13; state ^= state >> 7; state ^= state << 17; return state }
        func decimal() -> ExactDecimal {
            let digits = Int(next() % 20) + 1
            var text = String(next() % 9 + 1)
            for _ in 1..<digits { text += String(next() % 10) }
            let point = Int(next() % UInt64(digits + 6))
            if point > 0 {
                while text.count <= point { text = "0" + text }
                text.insert(".", at: text.index(text.endIndex, offsetBy: -point))
            }
            return ExactDecimal(text)!
        }
        var fast = 0
        for _ in 0..<500 {
            let r = Rate(numerator: decimal(), denominator: decimal())
            guard let (f, exact) = r.quotient256() else { continue }
            fast += 1
            #expect(f == r.decimalValue(significantDigits: Rate.quotientDigits), "\(r.numerator) / \(r.denominator)")
            #expect(exact == (Fraction(f) == r.fraction), "\(r.numerator) / \(r.denominator)")
        }
        #expect(fast > 300)   // the rest are rates beyond 10^±20, for the wide path
        // 1/80 terminates: 0.0125, exactly; 1/84 does not.
        #expect(Rate(ExactDecimal("80")!).inverse.quotient256().map { "\($0.factor) \($0.isExact)" } == "0.0125 true")
        #expect(Rate(ExactDecimal("84")!).inverse.quotient256()?.isExact == false)
    }
}

@Suite struct DayTests {
    @Test(arguments: ["2025-02-30", "2025-13-01", "2025-00-10", "10/04/2025", "2025-1-5", "2025-10-04T25:00", "2025-10-04Tjunk"])
    func refusesImpossibleOrMalformedDates(text: String) {
        #expect(Day.parse(text) == nil)
    }

    @Test func aDateTimeCountsAsTheDateWrittenInIt() {
        #expect(Day.parse("2025-10-04T23:30:00-07:00") == Day(year: 2025, month: 10, day: 4))
        #expect(Day.parse("2025-10-03T14:05:27.000Z") == Day(year: 2025, month: 10, day: 3))
        #expect(Day.parse("2024-02-29")?.description == "2024-02-29")
    }

    /// Every period's label, written byte by byte, is the zero-padded form `Period.parse`
    /// reads back: each day of years 1, 999, 2024 and 9999 (its month, quarter, year and ISO week too).
    @Test func periodLabelsAreZeroPaddedAndReadBack() {
        for year in [1, 999, 2024, 9999] {
            guard let first = Day(year: year, month: 1, day: 1), let last = Day(year: year, month: 12, day: 31) else {
                Issue.record("no year \(year)")
                continue
            }
            for n in first.number...last.number {
                let day = Day(number: n)
                let (y, m, d) = day.civil
                let (wy, w) = day.isoWeek
                let expected: [(PeriodUnit, String)] = [
                    (.day, String(format: "%04d-%02d-%02d", y, m, d)), (.week, String(format: "%04d-W%02d", wy, w)),
                    (.month, String(format: "%04d-%02d", y, m)), (.quarter, String(format: "%04d-Q%d", y, (m - 1) / 3 + 1)),
                    (.year, String(format: "%04d", y)),
                ]
                for (unit, text) in expected {
                    let period = Period(unit, containing: day)
                    #expect(period.description == text)
                    #expect(Period.parse(text) == period, "\(text)")
                }
                #expect(day.description == expected[0].1)
            }
        }
    }

    @Test func isoWeeks() {
        // 2025-10-06 is the Monday of ISO week 41; 2024-12-30 belongs to 2025-W01.
        #expect(Day(year: 2025, month: 10, day: 6)!.isoWeek == (2025, 41))
        #expect(Day(year: 2024, month: 12, day: 30)!.isoWeek == (2025, 1))
    }
}

@Suite struct CurrencyTableTests {
    @Test func minorUnitsAreISO4217s() {
        #expect(Currency(code: "JPY")?.minorUnits == 0)
        #expect(Currency(code: "KWD")?.minorUnits == 3)
        #expect(Currency(code: "INR")?.minorUnits == 2)
        #expect(Currency(code: "XYZ") == nil)
        #expect(Currency(code: "inr") == nil)
        #expect(Currency(caseInsensitiveCode: "inr")?.code == "INR")
    }
}

@Suite struct ExactSumTests {
    /// A ledger of `n` entries, each of `amount`, in one INR book.
    static func uniformLedger(entries n: Int, amount: String) -> String {
        var text = "{\"version\":1,\"defaultCurrency\":\"INR\",\"books\":[{\"id\":\"b\",\"name\":\"B\",\"currency\":\"INR\"}],\"entries\":[\n"
        text.reserveCapacity(n * 80)
        for i in 0..<n {
            text += "{\"id\":\"\(i)\",\"bookId\":\"b\",\"amount\":\(amount),\"date\":\"2025-01-01\",\"category\":\"c\"}"
            text += i + 1 < n ? ",\n" : "\n"
        }
        return text + "]}"
    }

    @Test func aMillionTimesZeroPointOneIsExactly100000() throws {
        // In binary floating point this sum is 100000.00000133288; exactly it is 100000.
        let ledger = try LedgerLoader.load(documents: [("million.json", ExactSumTests.uniformLedger(entries: 1_000_000, amount: "0.1"))])
        #expect(ledger.entries.count == 1_000_000)
        var sum = WideSum()
        for a in ledger.entries.amount { sum.add(a) }
        let total = WideDecimal(sum.value, scale: ledger.entries.amountScale)
        #expect(total.rounded(toScale: 2)?.description == "100000.00")
        #expect(total.rounded(toScale: ledger.entries.amountScale)?.description == "100000.0")
    }
}

@Suite struct JSONStringScanTests {
    /// The eight-bytes-at-a-time scan must stop at a quote, backslash, control byte or non-ASCII
    /// byte wherever it stands; a miss would read past the string or accept a raw control character.
    @Test(arguments: 0..<20)
    func everySpecialByteIsSeenAtEveryOffset(offset: Int) throws {
        let prefix = String(repeating: "a", count: offset)
        for (inside, expectError) in [("\u{01}", true), ("\u{1F}", true), ("é", false), ("\\n", false), ("\\\"", false)] {
            let doc = "{\"version\":1,\"defaultCurrency\":\"INR\",\"x\":\"\(prefix)\(inside)bcdefghijklmnop\"}"
            let result = Result { try LedgerLoader.load(documents: [("s.json", doc)]) }
            switch result {
            case .success: #expect(!expectError, "offset \(offset): \(inside.debugDescription) accepted")
            case .failure(let e): #expect(expectError, "offset \(offset): \(e)")
            }
        }
    }
}

extension Int256 {
    /// `b` as a 256-bit integer, when it fits.
    init?(exactly b: BigInt) {
        let m = BigInt(1) << 128
        var lowPart = b % m
        if lowPart < 0 { lowPart += m }
        guard let h = Int128(exactly: (b - lowPart) / m), let l = UInt128(exactly: lowPart) else { return nil }
        self.init(high: h, low: l)
    }
}
