// Dates as a bank writes them, by a pattern such as dd/MM/yyyy.
//
// The pattern letters are those of Unicode's date patterns, the ones statements use:
// `yyyy` a four-digit year, `yy` a two-digit year (2000 to 2099), `MM` a two-digit
// month, `M` a month of one or two digits, `MMM` an English month abbreviation (Jan),
// `dd` and `d` the day the same way. Anything else in the pattern that is not a
// letter (`/`, `-`, `.`, a space) must appear as it is. A date must exist in the
// calendar: 31/02/2025 is refused, not moved to March.

import AbacusCore

struct DateFormat {
    enum Piece: Equatable {
        case year4, year2, month2, month, monthName, day2, day
        case literal(Character)
    }

    struct PatternError: Error {
        var message: String
    }

    let pattern: String
    let pieces: [Piece]

    init(_ pattern: String) throws(PatternError) {
        self.pattern = pattern
        var pieces: [Piece] = []
        let chars = Array(pattern)
        var i = 0
        while i < chars.count {
            let c = chars[i]
            var run = 1
            while i + run < chars.count && chars[i + run] == c { run += 1 }
            switch (c, run) {
            case ("y", 4): pieces.append(.year4)
            case ("y", 2): pieces.append(.year2)
            case ("M", 3): pieces.append(.monthName)
            case ("M", 2): pieces.append(.month2)
            case ("M", 1): pieces.append(.month)
            case ("d", 2): pieces.append(.day2)
            case ("d", 1): pieces.append(.day)
            case _ where c.isLetter:
                throw PatternError(message: "\"\(String(repeating: c, count: run))\" in \"\(pattern)\" is not a date pattern letter; use yyyy or yy, MM, M or MMM, dd or d (as in dd/MM/yyyy)")
            default:
                for _ in 0..<run { pieces.append(.literal(c)) }
            }
            i += run
        }
        let years = pieces.filter { $0 == .year4 || $0 == .year2 }.count
        let months = pieces.filter { $0 == .month2 || $0 == .month || $0 == .monthName }.count
        let days = pieces.filter { $0 == .day2 || $0 == .day }.count
        guard years == 1, months == 1, days == 1 else {
            throw PatternError(message: "\"\(pattern)\" must have one year (yyyy or yy), one month (MM, M or MMM) and one day (dd or d)")
        }
        self.pieces = pieces
    }

    static let monthNames = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// The day the text names, or nil when it does not follow the pattern or is not in the calendar.
    func day(_ text: String) -> Day? {
        let chars = Array(text.trimmingBlanks)
        var i = 0
        var year = 0, month = 0, day = 0
        func digits(_ least: Int, _ most: Int) -> Int? {
            var n = 0, count = 0
            while count < most, i < chars.count, let d = chars[i].wholeNumberValue, chars[i].isASCII {
                n = n * 10 + d
                count += 1
                i += 1
            }
            return count >= least ? n : nil
        }
        for piece in pieces {
            switch piece {
            case .year4: guard let n = digits(4, 4) else { return nil }; year = n
            case .year2: guard let n = digits(2, 2) else { return nil }; year = 2000 + n
            case .month2: guard let n = digits(2, 2) else { return nil }; month = n
            case .month: guard let n = digits(1, 2) else { return nil }; month = n
            case .day2: guard let n = digits(2, 2) else { return nil }; day = n
            case .day: guard let n = digits(1, 2) else { return nil }; day = n
            case .monthName:
                guard i + 3 <= chars.count, let m = DateFormat.monthNames.firstIndex(of: String(chars[i..<i + 3]).lowercased()) else { return nil }
                month = m + 1
                i += 3
            case .literal(let c):
                guard i < chars.count, chars[i] == c else { return nil }
                i += 1
            }
        }
        guard i == chars.count else { return nil }
        return Day(year: year, month: month, day: day)
    }
}

extension String {
    /// The text without blanks at either end.
    var trimmingBlanks: Substring {
        let s = self[...]
        guard let first = s.firstIndex(where: { !$0.isWhitespace }), let last = s.lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return s[first...last]
    }
}
