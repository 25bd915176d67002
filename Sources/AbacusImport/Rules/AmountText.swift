// Amounts as a bank writes them: 1,204.75, 1.204,75, -12.50, (12.50), 12.50-.
//
// The rules say which character is the decimal separator; the other one, and spaces
// and apostrophes, are taken as digit grouping between digits, in groups of three
// (123,456.00) or, before the last three, of two (Indian 1,23,456.00). A sign may lead or trail, and parentheses
// mean a negative amount, as accountants write it (with no sign inside them). Anything else (a second decimal
// separator, a letter, a currency symbol) makes the text not an amount: a guess would
// put a wrong number in the ledger. The value is an exact decimal; binary floating
// point never sees it, and an amount of more digits than one holds is refused as the
// ledger refuses it (docs/ledger-format.md#numbers), never rounded.

import AbacusCore

enum AmountText {
    enum Reading {
        case empty
        case amount(ExactDecimal)
        case notAnAmount
        /// An amount, but of more digits than an exact decimal holds.
        case notExact
    }

    static func read(_ text: String, decimalComma: Bool) -> Reading {
        var s = Array(text.trimmingBlanks)
        if s.isEmpty { return .empty }
        let parenthesized = s.first == "(" && s.last == ")"
        if parenthesized { s = Array(s.dropFirst().dropLast()) }
        var negative = parenthesized
        if let sign = s.first == "-" || s.first == "+" ? s.removeFirst() : s.last == "-" || s.last == "+" ? s.removeLast() : nil {
            // A sign inside parentheses, (-12.50), says two things at once: no guess.
            if parenthesized { return .notAnAmount }
            negative = sign == "-"
        }
        let point: Character = decimalComma ? "," : "."
        let grouping: Set<Character> = decimalComma ? [".", " ", "'", "\u{A0}", "\u{202F}"] : [",", " ", "'", "\u{A0}", "\u{202F}"]
        var whole = "", fraction = ""
        var seenPoint = false
        /// Digits in each group of the whole part, between grouping separators.
        var groups = [0]
        for (i, c) in s.enumerated() {
            if c.isASCII, c.isNumber {
                if seenPoint { fraction.append(c) } else { whole.append(c); groups[groups.count - 1] += 1 }
            } else if c == point, !seenPoint {
                seenPoint = true
            } else if grouping.contains(c), !seenPoint, i > 0, i + 1 < s.count, s[i - 1].isNumber, s[i + 1].isNumber {
                groups.append(0)
            } else {
                return .notAnAmount
            }
        }
        // Groups of three (123,456.00) or Indian twos before the last three (2,45,000.00);
        // anything else is the other decimal separator misread (1,5 is not fifteen).
        if groups.count > 1 {
            let last = groups[groups.count - 1], middle = groups.dropFirst().dropLast()
            guard last == 3, groups[0] <= 3, middle.allSatisfy({ $0 == 2 || $0 == 3 }) else { return .notAnAmount }
        }
        guard !whole.isEmpty || !fraction.isEmpty, !(seenPoint && fraction.isEmpty && whole.isEmpty) else { return .notAnAmount }
        // The exact-decimal parser reads JSON's number form: no leading zeros, a digit before the point.
        let digits = whole.drop(while: { $0 == "0" })
        var plain = (negative ? "-" : "") + (digits.isEmpty ? "0" : String(digits))
        if !fraction.isEmpty { plain += "." + fraction }
        switch plain.withUTF8({ ExactDecimal.parse($0) }) {
        case .success(let value): return .amount(value)
        case .failure(.notExact): return .notExact
        case .failure(.notANumber): return .notAnAmount
        }
    }
}
