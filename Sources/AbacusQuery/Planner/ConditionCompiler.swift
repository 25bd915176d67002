// Compiling `where` conditions: names resolved against the ledger, each test on a
// dictionary-encoded column turned into a mask over that column's codes.
//
// `=`, `!=` and `in` name existing values: a name matches exactly when the ledger
// holds it so, else ignoring letter case (`Rent` and `rent` may be two categories);
// a name the ledger does not hold is an error that offers the closest ones (a typo
// must not silently match nothing). `~` is a case-insensitive "contains" and may
// match nothing. `amount` compares the amount as the result shows it (expenses
// positive, converted into the target currency); `date` compares days, a period standing for its days
// (`date < 2025-10` is before October, `date <= 2025-10` through its end).

import AbacusCore

struct ConditionCompiler {
    let ledger: Ledger
    let today: Day
    let subject: Subject

    init(ledger: Ledger, today: Day, subject: Subject) {
        self.ledger = ledger
        self.today = today
        self.subject = subject
    }

    var store: EntryStore { ledger.entries }

    func compile(_ c: Condition) throws(QueryError) -> Predicate {
        switch c {
        case .and(let terms):
            var out: [Predicate] = []
            for t in terms { out.append(try compile(t)) }
            return .and(out)
        case .or(let terms):
            var out: [Predicate] = []
            for t in terms { out.append(try compile(t)) }
            return .or(out)
        case .not(let a): return .not(try compile(a))
        case .comparison(let cmp): return try compile(cmp)
        }
    }

    /// The names a column's codes stand for, by code (`nil` = the "none" code).
    func names(_ field: Field) -> [String?] {
        switch field {
        case .category: return store.categories
        case .book: return ledger.books.map(\.name)
        case .party: return [nil] + store.parties.dropFirst().map { Optional($0) }
        case .payment: return [nil] + store.payments.dropFirst().map { Optional($0) }
        case .remarks: return [nil] + store.remarkTexts.dropFirst().map { Optional($0) }
        case .tag: return [nil] + store.tags.map { Optional($0) }
        default: return []
        }
    }

    func column(_ field: Field) -> CodeColumn? {
        switch field {
        case .category: return .category
        case .book: return .book
        case .party: return .party
        case .payment: return .payment
        case .currency: return .currency
        case .remarks: return .remarks
        default: return nil
        }
    }

    func compile(_ cmp: Comparison) throws(QueryError) -> Predicate {
        switch cmp.field {
        case .amount:
            guard case .number(let n) = cmp.values[0].literal else { return .always(false) }
            switch cmp.op {
            case .isIn, .notIn:
                let listed = cmp.values.compactMap { v -> ExactDecimal? in
                    if case .number(let x) = v.literal { return x }
                    return nil
                }
                let any = Predicate.amountIn(Array(Set(listed)).sorted())
                return cmp.op == .isIn ? any : .not(any)
            case .contains:
                throw QueryError(.containsNeedsText(field: "amount"), at: cmp.range)
            default:
                return .amount(cmp.op, n)
            }
        case .date:
            if cmp.op == .contains {
                throw QueryError(.containsNeedsText(field: "date"), at: cmp.range)
            }
            if let r = try dateBounds(cmp) { return .days(r) }
            let ranges = try cmp.values.map { v throws(QueryError) -> DayRange in try dayRange(v, cmp) }
            let any = Predicate.or(ranges.map { .days($0) })
            switch cmp.op {
            case .notEqual, .notIn: return .not(any)
            default: return any
            }
        case .currency:
            var mask = [Bool](repeating: false, count: 26 * 26 * 26 + 1)
            switch cmp.op {
            case .contains:
                let needle = try text(cmp.values[0]).lowercased()
                for c in Currency.all where c.code.lowercased().contains(needle) || c.name.lowercased().contains(needle) {
                    mask[Int(c.packed)] = true
                }
                return .code(.currency, mask)
            case .less, .lessOrEqual, .greater, .greaterOrEqual:
                let v = try text(cmp.values[0]).uppercased()
                for c in Currency.all where Self.holds(cmp.op, c.code, v) { mask[Int(c.packed)] = true }
                return .code(.currency, mask)
            default:
                for c in try codes(cmp) { mask[Int(c)] = true }
                return negated(cmp.op) ? .not(.code(.currency, mask)) : .code(.currency, mask)
            }
        case .category, .book, .party, .payment, .remarks, .tag:
            let names = self.names(cmp.field)
            var mask = [Bool](repeating: false, count: names.count)
            switch cmp.op {
            case .contains:
                let needle = try text(cmp.values[0]).lowercased()
                for (i, n) in names.enumerated() where n?.lowercased().contains(needle) == true { mask[i] = true }
            case .less, .lessOrEqual, .greater, .greaterOrEqual:
                let v = try text(cmp.values[0]).lowercased()
                for (i, n) in names.enumerated() { if let n, Self.holds(cmp.op, n.lowercased(), v) { mask[i] = true } }
            default:
                for c in try codes(cmp) { mask[Int(c)] = true }
            }
            let p: Predicate
            if cmp.field == .tag { p = .tags(mask) } else if let col = column(cmp.field) { p = .code(col, mask) } else { p = .always(false) }
            return negated(cmp.op) ? .not(p) : p
        }
    }

    func negated(_ op: ComparisonOperator) -> Bool { op == .notEqual || op == .notIn }

    static func holds(_ op: ComparisonOperator, _ a: String, _ b: String) -> Bool {
        switch op {
        case .less: return a < b
        case .lessOrEqual: return a <= b
        case .greater: return a > b
        case .greaterOrEqual: return a >= b
        default: return a == b
        }
    }

    func text(_ v: LiteralValue) throws(QueryError) -> String {
        switch v.literal {
        case .text(let s): return s
        case .number(let n): return n.description
        case .date(.literal(_, let t)): return t
        case .date: throw QueryError(.expected(["a name"], found: "a date", suggestion: nil), at: v.range)
        }
    }

    /// Codes named by `=`, `!=` or `in` (for tags: tag code + 1). Unknown names are errors.
    func codes(_ cmp: Comparison) throws(QueryError) -> [UInt32] {
        var out: [UInt32] = []
        for v in cmp.values {
            let name = try text(v)
            if cmp.field == .currency {
                guard let c = Currency(caseInsensitiveCode: name) else {
                    // The ledger's own currencies are the likeliest meaning of a near miss.
                    let candidates = store.currencies.map(\.code) + Parser.currencyCandidates
                    throw QueryError(.unknownCurrency(name, suggestion: nearest(name, in: candidates)), at: v.range)
                }
                out.append(UInt32(c.packed))
                continue
            }
            let names = self.names(cmp.field)
            let lower = name.lowercased()
            var found = names.indices.filter { names[$0] == name }.map { UInt32($0) }
            if cmp.field == .book {
                found += ledger.books.indices.filter { ledger.books[$0].id == name && ledger.books[$0].name != name }.map { UInt32($0) }
            }
            if found.isEmpty { found = names.indices.filter { names[$0]?.lowercased() == lower }.map { UInt32($0) } }
            // "(none)", as groups show it, names the entries without a value.
            if lower == Executor.none, names.first == .some(nil) { found.append(0) }
            if found.isEmpty && cmp.field != .remarks {
                throw QueryError(.unknownName(field: cmp.field.rawValue, value: name,
                                              suggestions: ConditionCompiler.suggestions(for: name, in: names.compactMap { $0 })), at: v.range)
            }
            out += found
        }
        return out
    }

    /// Up to three existing names close to `value`: by edit distance, or as a near prefix ("Fod" → "Food & Dining").
    /// A near miss keeps most of what was typed: within a third of its length, never all of it,
    /// and a prefix or a substring only from three characters on. A value far longer than every
    /// name is near none of them, and is not compared at all.
    static func suggestions(for value: String, in names: [String]) -> [String] {
        let longest = names.lazy.map(\.count).max() ?? 0
        var length = 0
        for _ in value {
            length += 1
            if length > 2 * longest + 2 { return [] }
        }
        guard length > 0 else { return [] }
        let v = value.lowercased()
        let allowed = max(1, length / 3)
        var scored: [(String, Int)] = []
        for n in Set(names) {
            let l = n.lowercased()
            let whole = editDistance(v, l, limit: allowed)
            let prefix = length >= 3 ? editDistance(v, String(l.prefix(length)), limit: allowed) : allowed + 1
            let contains = length >= 3 && (l.contains(v) || v.contains(l))
            // A whole-name near miss ranks before a near prefix, which ranks before a mere substring.
            if whole <= allowed && whole < length { scored.append((n, whole)) }
            else if prefix <= allowed { scored.append((n, prefix + 1)) }
            else if contains { scored.append((n, allowed + 2)) }
        }
        return scored.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.prefix(3).map(\.0)
    }

    // MARK: Dates

    func dayRange(_ v: LiteralValue, _ cmp: Comparison) throws(QueryError) -> DayRange {
        guard case .date(let d) = v.literal else {
            throw QueryError(.expected(["a date"], found: "'\((try? text(v)) ?? "")'", suggestion: nil), at: v.range)
        }
        return Planner.resolve(d, today: today)
    }

    /// The days a date comparison keeps, when they are one range (`=`, `<`, `<=`, `>`, `>=`, and `in` of one value).
    func dateBounds(_ cmp: Comparison) throws(QueryError) -> DayRange? {
        guard cmp.values.count == 1 else { return nil }
        let r = try dayRange(cmp.values[0], cmp)
        let minDay = Day(number: Int32.min), maxDay = Day(number: Int32.max)
        switch cmp.op {
        case .equal, .isIn: return r
        case .less: return DayRange(minDay, Day(number: r.first.number - 1))
        case .lessOrEqual: return DayRange(minDay, r.last)
        case .greater: return DayRange(Day(number: r.last.number + 1), maxDay)
        case .greaterOrEqual: return DayRange(r.first, maxDay)
        case .notEqual, .notIn, .contains: return nil
        }
    }

    // MARK: Text for explain

    func text(_ c: Condition) -> String {
        switch c {
        case .and(let terms): return terms.map(wrapped).joined(separator: " and ")
        case .or(let terms): return terms.map(wrapped).joined(separator: " or ")
        case .not(let a): return "not \(wrapped(a))"
        case .comparison(let cmp):
            let values = cmp.values.map { v -> String in
                switch v.literal {
                case .text(let s): return "\"\(s)\""
                case .number(let n): return n.description
                case .date(let d): return ConditionCompiler.describe(d)
                }
            }
            if cmp.op == .isIn || cmp.op == .notIn {
                return "\(cmp.field.rawValue) \(cmp.op.rawValue) (\(values.joined(separator: ", ")))"
            }
            return "\(cmp.field.rawValue) \(cmp.op.rawValue) \(values[0])"
        }
    }

    func wrapped(_ c: Condition) -> String {
        if case .comparison = c { return text(c) }
        return "(" + text(c) + ")"
    }

    static func describe(_ d: DateExpression) -> String {
        switch d {
        case .literal(_, let t): return t
        case .today: return "today"
        case .yesterday: return "yesterday"
        case .thisMonth: return "this month"
        case .lastMonth: return "last month"
        case .thisYear: return "this year"
        case .lastYear: return "last year"
        case .lastDays(let n): return "last \(n) days"
        }
    }
}
