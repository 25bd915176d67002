// Lowering a logical condition onto the in-memory store: each test of a
// dictionary-encoded column becomes a mask over that column's codes, so each row
// costs one table lookup; amounts and days stay comparisons.

import AbacusCore

/// A compiled condition over one row of the store.
public indirect enum Predicate: Sendable {
    case always(Bool)
    /// The row's code in `column` is set in `mask`.
    case code(CodeColumn, [Bool])
    /// One of the row's tags is set in `mask` (index = tag code + 1; 0 is "no tags").
    case tags([Bool])
    case amount(ComparisonOperator, ExactDecimal)
    /// The amount is one of these (sorted, distinct): `amount in (…)`, found by binary search
    /// however long the list.
    case amountIn([ExactDecimal])
    case days(DayRange)
    case and([Predicate])
    case or([Predicate])
    case not(Predicate)

    /// Whether it compares amounts (which are converted first).
    var testsAmount: Bool {
        switch self {
        case .amount, .amountIn: return true
        case .and(let ps), .or(let ps): return ps.contains { $0.testsAmount }
        case .not(let q): return q.testsAmount
        default: return false
        }
    }
}

public enum CodeColumn: String, Sendable {
    case category, book, party, payment, currency, remarks
}

struct PredicateLowering {
    let ledger: Ledger
    var store: EntryStore { ledger.entries }

    func lower(_ c: LogicalCondition) -> Predicate {
        switch c {
        case .always(let b): return .always(b)
        case .and(let cs): return .and(cs.map(lower))
        case .or(let cs): return .or(cs.map(lower))
        case .not(let a): return .not(lower(a))
        case .amount(let op, let x): return .amount(op, x)
        case .amountIn(let xs): return .amountIn(xs)
        case .days(let r): return .days(r)
        case .currencies(let cs):
            var mask = [Bool](repeating: false, count: 26 * 26 * 26 + 1)
            for c in cs { mask[Int(c.packed)] = true }
            return .code(.currency, mask)
        case .names(let field, let names):
            let wanted = Set(names)
            return predicate(field, mask(field) { wanted.contains($0) })
        case .contains(let field, _), .ordered(let field, _, _):
            let passes = c.textTest
            return predicate(field, mask(field) { passes($0) })
        }
    }

    func predicate(_ field: NameField, _ mask: [Bool]) -> Predicate {
        switch field {
        case .tag: return .tags(mask)
        case .category: return .code(.category, mask)
        case .book: return .code(.book, mask)
        case .party: return .code(.party, mask)
        case .payment: return .code(.payment, mask)
        case .remarks: return .code(.remarks, mask)
        }
    }

    /// A mask over the codes of a field's column: which codes' names pass `test` (nil: no value).
    func mask(_ field: NameField, _ test: (String?) -> Bool) -> [Bool] {
        ledger.names(field).map(test)
    }

    /// The codes of a column whose values a condition names, for its posting lists.
    /// (`predicate` is the condition lowered.)
    static func postingCodes(_ c: LogicalCondition, _ predicate: Predicate) -> (IndexAccess.Column, [UInt32])? {
        switch c {
        case .names(.category, _), .names(.book, _), .currencies:
            guard case .code(let column, let mask) = predicate, let access = IndexAccess.Column(rawValue: column.rawValue) else { return nil }
            return (access, mask.indices.filter { mask[$0] }.map { UInt32($0) })
        default:
            return nil
        }
    }
}

extension LogicalCondition {
    /// Whether a value passes a test of text in any letter case (`~`, `<`, `>`, `<=`, `>=`),
    /// folded by Swift's `lowercased()`: every text contains the empty text, and an entry
    /// without a value (nil) passes none. Any other condition passes nothing.
    var textTest: (String?) -> Bool {
        switch self {
        case .contains(_, let text):
            let needle = text.lowercased()
            // ASCII text (nearly all names and remarks) is searched byte by byte, folding A–Z as
            // `lowercased()` does; other text through `lowercased()` and `contains`. Foundation's
            // search, which the other text needs (canonical equivalence), took 30 ms for the
            // remarks of a million entries.
            let bytes = Array(needle.utf8)
            let asciiNeedle = bytes.allSatisfy { $0 < 0x80 }
            return { name in
                guard let name else { return false }
                if bytes.isEmpty { return true }
                if asciiNeedle, let found = LogicalCondition.asciiContains(name, folded: bytes) { return found }
                return name.lowercased().contains(needle)
            }
        case .ordered(_, let op, let text):
            let v = text.lowercased()
            return { name in name.map { Binder.holds(op, $0.lowercased(), v) } ?? false }
        default:
            return { _ in false }
        }
    }

    /// Whether ASCII `text` contains `needle` (lower-case ASCII bytes) in any letter case; nil
    /// when `text` is not ASCII.
    static func asciiContains(_ text: String, folded needle: [UInt8]) -> Bool? {
        var text = text
        return text.withUTF8 { t -> Bool? in
            for b in t where b >= 0x80 { return nil }
            guard t.count >= needle.count else { return false }
            for i in 0...(t.count - needle.count) {
                var j = 0
                // A–Z folded to a–z: what `lowercased()` does to ASCII.
                while j < needle.count, (t[i + j] >= 0x41 && t[i + j] <= 0x5A ? t[i + j] | 0x20 : t[i + j]) == needle[j] { j += 1 }
                if j == needle.count { return true }
            }
            return false
        }
    }

    /// A test of text in any letter case resolved against the names a ledger's field has:
    /// the names that pass it, as the in-memory engine's mask over the field's codes finds
    /// them (docs/postgres.md). Nil for any other condition.
    public func resolvedNames(in ledger: Ledger) -> LogicalCondition? {
        switch self {
        case .contains(let field, _), .ordered(let field, _, _):
            let passes = textTest
            return .names(field, ledger.names(field).filter { passes($0) })
        default:
            return nil
        }
    }
}

extension Ledger {
    /// The names a field's codes stand for, by code (nil: the code of entries without a value;
    /// for tags, code 0 is "no tags" and tag t is code t + 1, as masks over tags count them).
    func names(_ field: NameField) -> [String?] {
        let store = entries
        switch field {
        case .category: return store.categories
        case .book: return books.map(\.name)
        case .party: return [nil] + store.parties.dropFirst().map { Optional($0) }
        case .payment: return [nil] + store.payments.dropFirst().map { Optional($0) }
        case .remarks: return [nil] + store.remarkTexts.dropFirst().map { Optional($0) }
        case .tag: return [nil] + store.tags.map { Optional($0) }
        }
    }
}

extension EntryStore {
    /// The column of dictionary codes behind a coded column; nil for currency (kept as `Currency`).
    func codes(_ column: CodeColumn) -> StoreColumn<UInt32>? {
        switch column {
        case .category: return category
        case .book: return book
        case .party: return party
        case .payment: return payment
        case .remarks: return remarks
        case .currency: return nil
        }
    }

    /// One row's code in a coded column (a currency's packed code).
    @inline(__always)
    func code(_ column: CodeColumn, _ row: Int) -> UInt32 {
        switch column {
        case .category: return category[row]
        case .book: return book[row]
        case .party: return party[row]
        case .payment: return payment[row]
        case .remarks: return remarks[row]
        case .currency: return UInt32(currency[row].packed)
        }
    }
}
