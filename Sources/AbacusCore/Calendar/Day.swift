// Calendar days as integers: days since 1970-01-01 in the proleptic Gregorian calendar.
//
// Ledger dates carry no time zone: a date-time counts as the calendar date written
// in it. So a day is a plain integer, which makes the date column four bytes per
// entry and a date range a binary search. Conversions follow Howard Hinnant's
// civil-from-days algorithms.

public struct Day: Hashable, Comparable, Sendable, CustomStringConvertible, Strideable {
    public var number: Int32

    @inlinable
    public init(number: Int32) { self.number = number }

    /// The day for a valid calendar date; nil when the date does not exist.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
              (1...Day.daysIn(year: year, month: month)).contains(day) else { return nil }
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        number = Int32(era * 146097 + doe - 719468)
    }

    public var civil: (year: Int, month: Int, day: Int) {
        let z = Int(number) + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    public static func isLeap(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    public static func daysIn(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// ISO 8601 weekday, Monday = 1 ... Sunday = 7.
    public var isoWeekday: Int {
        // 1970-01-01 was a Thursday (4).
        let w = (Int(number) % 7 + 7 + 3) % 7
        return w + 1
    }

    /// ISO 8601 week-numbering year and week (`2025-W41`).
    public var isoWeek: (year: Int, week: Int) {
        let thursday = Day(number: number - Int32(isoWeekday) + 4)
        let year = thursday.civil.year
        guard let jan1 = Day(year: year, month: 1, day: 1) else { return (year, 1) }
        return (year, Int(thursday.number - jan1.number) / 7 + 1)
    }

    public var description: String { Period(unit: .day, code: number).description }

    public static func < (a: Day, b: Day) -> Bool { a.number < b.number }
    /// Compared directly: Strideable's default `==` measures the distance, which overflows
    /// between the open ends of a range.
    public static func == (a: Day, b: Day) -> Bool { a.number == b.number }

    public func distance(to other: Day) -> Int32 { other.number - number }
    public func advanced(by n: Int32) -> Day { Day(number: number + n) }

    /// Parses `YYYY-MM-DD`, or an ISO 8601 date-time (`2025-10-04T19:30:00+08:00`,
    /// `…Z`, fractional seconds) whose calendar date is taken as written.
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Day? {
        let n = bytes.count
        guard n >= 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              let y = digits(bytes, 0, 4), let m = digits(bytes, 5, 2), let d = digits(bytes, 8, 2),
              let day = Day(year: y, month: m, day: d) else { return nil }
        if n == 10 { return day }
        guard bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: " "), validTime(bytes, from: 11) else { return nil }
        return day
    }

    public static func parse(_ text: String) -> Day? {
        var text = text
        return text.withUTF8 { parse($0) }
    }

    /// `HH:MM[:SS[.fff…]][Z|±HH:MM|±HHMM]` from `i` to the end.
    static func validTime(_ b: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
        var i = start
        let n = b.count
        guard i + 5 <= n, let h = digits(b, i, 2), h < 24, b[i + 2] == UInt8(ascii: ":"),
              let mi = digits(b, i + 3, 2), mi < 60 else { return false }
        i += 5
        if i < n && b[i] == UInt8(ascii: ":") {
            guard i + 3 <= n, let s = digits(b, i + 1, 2), s <= 60 else { return false }
            i += 3
            if i < n && (b[i] == UInt8(ascii: ".") || b[i] == UInt8(ascii: ",")) {
                i += 1
                let fractionStart = i
                while i < n && ExactDecimal.isDigit(b[i]) { i += 1 }
                guard i > fractionStart else { return false }
            }
        }
        if i == n { return true }
        if b[i] == UInt8(ascii: "Z") { return i + 1 == n }
        guard b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") else { return false }
        i += 1
        guard i + 2 <= n, let oh = digits(b, i, 2), oh <= 23 else { return false }
        i += 2
        if i == n { return true }
        if b[i] == UInt8(ascii: ":") { i += 1 }
        guard i + 2 == n, let om = digits(b, i, 2), om < 60 else { return false }
        return true
    }

    @inline(__always)
    static func digits(_ b: UnsafeBufferPointer<UInt8>, _ at: Int, _ count: Int) -> Int? {
        guard at + count <= b.count else { return nil }
        var v = 0
        for k in at..<(at + count) {
            let d = b[k] &- 48
            guard d < 10 else { return nil }
            v = v * 10 + Int(d)
        }
        return v
    }
}
