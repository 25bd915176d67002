// Periods: a day, an ISO week, a month, a quarter or a year, and ranges of days.
//
// One type answers every question the language asks of a period: which period a
// day falls in (grouping `by month`), which days a period holds (`during 2025-Q4`),
// how it is written (`2025-10`, `2025-W41`), which period a text names, and which
// period comes before or after it. A period is its unit and one integer, so it
// orders chronologically as integers do and hashes as cheaply.

/// An inclusive range of days. An open end is `Day.distantPast` or `Day.distantFuture`.
public struct DayRange: Sendable, Hashable {
    public var first: Day
    public var last: Day
    public init(_ first: Day, _ last: Day) { self.first = first; self.last = last }

    /// Every day there is.
    public static let all = DayRange(.distantPast, .distantFuture)

    public var isEmpty: Bool { first > last }
    public var dayCount: Int { isEmpty ? 0 : Int(last.number) - Int(first.number) + 1 }

    public func contains(_ d: Day) -> Bool { d >= first && d <= last }

    /// The days in both ranges (empty when they do not meet).
    public func intersection(_ other: DayRange) -> DayRange {
        DayRange(max(first, other.first), min(last, other.last))
    }

    /// `2025-10-01..2025-10-31`; an open end is left blank (`2025-10-01..`, `..2025-03-31`).
    public var description: String {
        (first == .distantPast ? "" : first.description) + ".." + (last == .distantFuture ? "" : last.description)
    }
}

extension Day {
    /// The first and last dates there are (`Day(year:month:day:)` holds years 1 to 9999).
    public static let calendarStart = Day(year: 1, month: 1, day: 1) ?? .distantPast
    public static let calendarEnd = Day(year: 9999, month: 12, day: 31) ?? .distantFuture
    /// Before every date a ledger can hold: the open start of a range.
    public static let distantPast = Day(number: Int32.min)
    /// After every date a ledger can hold: the open end of a range.
    public static let distantFuture = Day(number: Int32.max)
}

public enum PeriodUnit: String, Sendable, CaseIterable, Hashable {
    case day, week, month, quarter, year
}

/// One period of a unit: `code` counts days since 1970-01-01, ISO weeks as year × 100 + week,
/// months as year × 12 + month − 1, quarters as year × 4 + quarter − 1, or years.
public struct Period: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let unit: PeriodUnit
    public let code: Int32

    public init(unit: PeriodUnit, code: Int32) {
        self.unit = unit
        self.code = code
    }

    /// The period of `unit` that holds `day`.
    public init(_ unit: PeriodUnit, containing day: Day) {
        self.unit = unit
        code = Period.code(unit, day)
    }

    @inline(__always)
    public static func code(_ unit: PeriodUnit, _ day: Day) -> Int32 {
        switch unit {
        case .day: return day.number
        case .week: let w = day.isoWeek; return Int32(w.year * 100 + w.week)
        case .month: let (y, m, _) = day.civil; return Int32(y * 12 + m - 1)
        case .quarter: let (y, m, _) = day.civil; return Int32(y * 4 + (m - 1) / 3)
        case .year: return Int32(day.civil.year)
        }
    }

    public static func < (a: Period, b: Period) -> Bool { a.code < b.code }

    /// Its first and last day.
    public var days: DayRange {
        switch unit {
        case .day:
            return DayRange(Day(number: code), Day(number: code))
        case .week:
            let year = Int(code / 100), week = Int(code % 100)
            // ISO week 1 holds January 4th.
            guard let jan4 = Day(year: year, month: 1, day: 4) else { return DayRange(.distantFuture, .distantPast) }
            let monday = Day(number: jan4.number - Int32(jan4.isoWeekday - 1) + Int32((week - 1) * 7))
            return DayRange(monday, Day(number: monday.number + 6))
        case .month:
            let year = Int(code / 12), month = Int(code % 12) + 1
            return Period.months(year, month, count: 1)
        case .quarter:
            return Period.months(Int(code / 4), Int(code % 4) * 3 + 1, count: 3)
        case .year:
            return Period.months(Int(code), 1, count: 12)
        }
    }

    static func months(_ year: Int, _ month: Int, count: Int) -> DayRange {
        let lastMonth = month + count - 1
        guard let first = Day(year: year, month: month, day: 1),
              let last = Day(year: year, month: lastMonth, day: Day.daysIn(year: year, month: lastMonth)) else {
            return DayRange(.distantFuture, .distantPast)
        }
        return DayRange(first, last)
    }

    /// The period `n` periods later (earlier for a negative `n`).
    public func advanced(by n: Int) -> Period {
        switch unit {
        case .day, .month, .quarter, .year: return Period(unit: unit, code: code + Int32(n))
        case .week: return Period(.week, containing: Day(number: days.first.number + Int32(7 * n)))
        }
    }

    /// How it is written: `2025-10-05`, `2025-W41`, `2025-10`, `2025-Q4`, `2025`.
    public var description: String {
        var bytes: [UInt8] = []
        appendLabel(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `description`'s bytes (ASCII) appended, with no string made: a JSON answer by day writes
    /// hundreds of them.
    public func appendLabel(to bytes: inout [UInt8]) {
        /// `v` in decimal, zero-padded to `width` digits (more when it has more).
        func digits(_ v: Int, _ width: Int) {
            if v < 0 { bytes.append(UInt8(ascii: "-")) }
            let start = bytes.count
            var n = v.magnitude
            repeat { bytes.append(UInt8(ascii: "0") + UInt8(n % 10)); n /= 10 } while n > 0
            while bytes.count - start < width { bytes.append(UInt8(ascii: "0")) }
            bytes[start...].reverse()
        }
        switch unit {
        case .day:
            let (y, m, d) = Day(number: code).civil
            digits(y, 4); bytes.append(UInt8(ascii: "-")); digits(m, 2); bytes.append(UInt8(ascii: "-")); digits(d, 2)
        case .week: digits(Int(code / 100), 4); bytes.append(contentsOf: "-W".utf8); digits(Int(code % 100), 2)
        case .month: digits(Int(code / 12), 4); bytes.append(UInt8(ascii: "-")); digits(Int(code % 12) + 1, 2)
        case .quarter: digits(Int(code / 4), 4); bytes.append(contentsOf: "-Q".utf8); digits(Int(code % 4) + 1, 1)
        case .year: digits(Int(code), 4)
        }
    }

    /// The period a text names: `2025`, `2025-10`, `2025-10-05`, `2025-Q4`, `2025-W41`; nil for
    /// anything else, a day that does not exist, or a week 53 in a year of 52 weeks.
    public static func parse(_ text: String) -> Period? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, first.count == 4, first.allSatisfy(\.isASCIIDigit), let year = Int(first), year >= 1 else { return nil }
        switch parts.count {
        case 1:
            return Period(unit: .year, code: Int32(year))
        case 2:
            let p = parts[1]
            if p.count == 2, p.allSatisfy(\.isASCIIDigit), let m = Int(p) {
                guard (1...12).contains(m) else { return nil }
                return Period(unit: .month, code: Int32(year * 12 + m - 1))
            }
            if p.count == 2, p.first == "Q" || p.first == "q", let q = Int(p.dropFirst()), (1...4).contains(q) {
                return Period(unit: .quarter, code: Int32(year * 4 + q - 1))
            }
            if p.count == 3, p.first == "W" || p.first == "w", p.dropFirst().allSatisfy(\.isASCIIDigit), let w = Int(p.dropFirst()), (1...53).contains(w) {
                let week = Period(unit: .week, code: Int32(year * 100 + w))
                // Week 53 exists only in a year whose week 53 holds a Thursday of that year.
                guard week.days.first.isoWeek == (year, w) else { return nil }
                return week
            }
            return nil
        case 3:
            guard parts[1].count == 2, parts[2].count == 2, let m = Int(parts[1]), let d = Int(parts[2]),
                  let day = Day(year: year, month: m, day: d) else { return nil }
            return Period(unit: .day, code: day.number)
        default:
            return nil
        }
    }

    /// The year of `YYYY-W53` when that year has only 52 ISO weeks (nil for anything else).
    public static func weekPastYearEnd(_ text: String) -> Int? {
        let parts = text.split(separator: "-")
        guard parts.count == 2, parts[0].count == 4, let year = Int(parts[0]), year >= 1,
              parts[1].lowercased() == "w53", parse(text) == nil else { return nil }
        return year
    }

    /// Every period of `unit` from the one holding `range.first` to the one holding `range.last`.
    public static func covering(_ range: DayRange, unit: PeriodUnit) -> [Period] {
        guard !range.isEmpty else { return [] }
        var out: [Period] = []
        var p = Period(unit, containing: range.first)
        let end = Period(unit, containing: range.last)
        while p <= end {
            out.append(p)
            p = p.advanced(by: 1)
        }
        return out
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
