// The binder: a parsed query + the session → a `LogicalPlan`.
//
// It checks what the grammar cannot (too many keys, `order by` a key the result
// lacks), resolves the target currency, resolves relative dates against `today`,
// and resolves every name a condition writes against the ledger: a name matches
// exactly when the ledger holds it so, else ignoring letter case (`Rent` and
// `rent` may be two categories); a name the ledger does not hold is an error that
// offers the closest ones, so a typo never silently matches nothing. `~` is a
// case-insensitive "contains" and may match nothing; `(none)` unquoted stands for
// the entries without a value, while `"(none)"` quoted is a name like any other.
// Period clauses and top-level date conditions become one range of days.
// docs/language.md describes the language this implements.

import AbacusCore

public struct PlanContext: Sendable {
    public var ledger: Ledger
    public var today: Day
    public var defaultCurrency: Currency
    /// Off in tests that compare index and scan.
    public var useIndexes = true

    public init(ledger: Ledger, today: Day, defaultCurrency: Currency) {
        self.ledger = ledger
        self.today = today
        self.defaultCurrency = defaultCurrency
    }
}

public struct Binder {
    let ledger: Ledger
    let today: Day
    var store: EntryStore { ledger.entries }

    public init(ledger: Ledger, today: Day) {
        self.ledger = ledger
        self.today = today
    }

    /// The most keys a query may group by, besides the `currency` that `in native` adds.
    public static let maxGroupKeys = 4

    public static func bind(_ q: Query, in context: PlanContext) throws(QueryError) -> LogicalPlan {
        var plan = try Binder(ledger: context.ledger, today: context.today).bind(q, defaultCurrency: context.defaultCurrency)
        plan.readsSplits = context.ledger.isSplitView
        return plan
    }

    func bind(_ q: Query, defaultCurrency: Currency) throws(QueryError) -> LogicalPlan {
        if q.groupBy.count > Binder.maxGroupKeys { throw QueryError(.tooManyGroupKeys(q.groupBy.count), at: q.groupRange) }
        if q.aggregate == .list && !q.groupBy.isEmpty { throw QueryError(.listCannotGroup, at: q.groupRange) }
        if (q.withShare || q.withRunningTotal) && (q.aggregate != .sum && q.aggregate != .count || q.groupBy.isEmpty) {
            throw QueryError(.unsupported("`with share` and `with running total` go with a grouped sum or count (sum expenses by category with share)"), at: q.extrasRange)
        }
        try Binder.checkReportClauses(q)
        if q.aggregate != .list && !q.show.isEmpty {
            throw QueryError(.unsupported("`show` picks the columns of a listing: use it with list (list expenses show remarks, tags)"), at: q.showRange)
        }
        let target: Currency?
        switch q.currency {
        case .native?: target = nil
        case .code(let c)?: target = c
        case nil: target = defaultCurrency
        }
        var groupBy = q.groupBy
        let impliesCurrency = target == nil && q.aggregate != .list && !groupBy.contains(.currency) && q.per != .currency
        if q.per == .currency, target == nil, q.aggregate != .count {
            throw QueryError(.unsupported("in native, `per currency` would add different currencies in a row's Total: group `by currency`, or convert (in \(defaultCurrency.code))"), at: q.perRange)
        }
        if impliesCurrency { groupBy.append(.currency) }
        var order = try q.order.map { o throws(QueryError) in try Binder.checked(o, q, target: target) }
        // `top N` ranks: without `order by`, the largest values come first.
        if order == nil, q.top != nil { order = Order(key: .value, descending: true, range: 0..<0) }

        var days = try PeriodClause.days(q.periods, today: today)
        func narrow(_ r: DayRange) { days = (days ?? .all).intersection(r) }
        var conjuncts: [LogicalCondition] = []
        for part in q.condition.map(Binder.flattenAnd) ?? [] {
            // A top-level date comparison narrows the days instead of testing each entry.
            if case .comparison(let cmp) = part, cmp.field == .date, let r = try dateBounds(cmp) {
                narrow(r)
                continue
            }
            conjuncts.append(try bind(part))
        }
        let condition: LogicalCondition? = conjuncts.isEmpty ? nil : (conjuncts.count == 1 ? conjuncts[0] : .and(conjuncts))

        let valuation: Valuation
        switch q.valuation {
        case nil: valuation = .booked
        case .market?: valuation = .market
        case .latest?: valuation = .latest
        case .asOf(let d)?: valuation = .asOf(try d.resolve(today: today).last)
        }
        return LogicalPlan(aggregate: q.aggregate, subject: q.subject, target: target, groupBy: groupBy,
                           impliesCurrencyKey: impliesCurrency, days: days, condition: condition, valuation: valuation,
                           whatIf: q.whatIf.map { ($0.pair, $0.rate) }, order: order, top: q.top, show: q.show,
                           withShare: q.withShare, withRunningTotal: q.withRunningTotal, per: q.per)
    }

    /// What `per` and `vs` cannot go with (docs/language.md, Reports).
    static func checkReportClauses(_ q: Query) throws(QueryError) {
        if let per = q.per {
            if q.aggregate == .list {
                throw QueryError(.unsupported("`per` makes a crosstab of a sum, count, avg, min or max; `list` shows entries one by one"), at: q.perRange)
            }
            if q.versus != nil {
                throw QueryError(.unsupported("`per` and `vs` cannot go together: a crosstab has a column per \(per.rawValue), a comparison two value columns; run them as two statements"), at: q.versusRange)
            }
            if q.groupBy.contains(per) {
                throw QueryError(.unsupported("\(per.rawValue) is already a row key (`by`): a crosstab's column key must be another"), at: q.perRange)
            }
            if q.groupBy.count + 1 > maxGroupKeys {
                throw QueryError(.unsupported("\(q.groupBy.count + 1) keys with `per`: a crosstab takes at most \(maxGroupKeys), its `by` keys and its `per` key together"), at: q.perRange)
            }
            if q.withShare || q.withRunningTotal {
                throw QueryError(.unsupported("`with share` and `with running total` apply to a one-column result, not a crosstab: drop `per`, or drop them"), at: q.extrasRange)
            }
            if case .key(per)? = q.order?.key {
                throw QueryError(.unsupported("cannot order by \(per.rawValue): it makes the crosstab's columns; its rows order by amount (their Total) or by a `by` key"), at: q.order?.range)
            }
        }
        if q.versus != nil {
            if q.aggregate == .list {
                throw QueryError(.unsupported("`vs` compares values; `list` shows entries one by one: use sum, count, avg, min or max"), at: q.versusRange)
            }
            if q.withShare || q.withRunningTotal {
                throw QueryError(.unsupported("`with share` and `with running total` cannot go with `vs`: a comparison has two value columns"), at: q.extrasRange)
            }
            if q.aggregate != .count, q.order?.byEntryCount == true {
                throw QueryError(.unsupported("with `vs`, rows rank by A's value or a key: order by amount, or by a group key"), at: q.order?.range)
            }
        }
    }

    /// An `order by` the result can follow. `amount` is the value of a money aggregate and
    /// `count` the number of entries (for `count`, the value itself); a grouped result orders
    /// by its own keys, a listing by the columns it shows.
    static func checked(_ order: Order, _ q: Query, target: Currency?) throws(QueryError) -> Order {
        var order = order
        switch (q.aggregate, order.key) {
        case (.count, .value):
            if !order.byEntryCount { throw QueryError(.countHasNoAmount, at: order.range) }
            order.byEntryCount = false
        case (.list, .value):
            if order.byEntryCount { throw QueryError(.listHasNoCount, at: order.range) }
        case (.list, .key(let k)):
            let columns: [GroupKey] = [.book, .category, .party] + (target == nil ? [.currency] : [])
            if !columns.contains(k) { throw QueryError(.listCannotOrder(by: k.rawValue), at: order.range) }
        case (_, .key(let k)):
            if !q.groupBy.contains(k) && !(k == .currency && target == nil) {
                throw QueryError(.notAGroupKey(k.rawValue), at: order.range)
            }
        case (.list, .date), (_, .value):
            break
        case (_, .date):
            throw QueryError(.dateOrderNeedsList, at: order.range)
        }
        return order
    }

    static func flattenAnd(_ c: Condition) -> [Condition] {
        if case .and(let terms) = c { return terms.flatMap(flattenAnd) }
        return [c]
    }

    // MARK: Conditions

    func bind(_ c: Condition) throws(QueryError) -> LogicalCondition {
        switch c {
        case .and(let terms):
            var out: [LogicalCondition] = []
            for t in terms { out.append(try bind(t)) }
            return .and(out)
        case .or(let terms):
            var out: [LogicalCondition] = []
            for t in terms { out.append(try bind(t)) }
            return .or(out)
        case .not(let a): return .not(try bind(a))
        case .comparison(let cmp): return try bind(cmp)
        }
    }

    static func nameField(_ f: Field) -> NameField? { NameField(rawValue: f.rawValue) }

    func bind(_ cmp: Comparison) throws(QueryError) -> LogicalCondition {
        let negated = cmp.op == .notEqual || cmp.op == .notIn
        switch cmp.field {
        case .amount:
            var listed: [ExactDecimal] = []
            for v in cmp.values {
                guard case .number(let n) = v.literal else { throw QueryError(.expected(["a number"], found: "'\(text(v) ?? "")'", suggestion: nil), at: v.range) }
                listed.append(n)
            }
            switch cmp.op {
            case .isIn, .notIn:
                let any = LogicalCondition.amountIn(Array(Set(listed)).sorted())
                return negated ? .not(any) : any
            case .contains:
                throw QueryError(.containsNeedsText(field: "amount"), at: cmp.range)
            default:
                return .amount(cmp.op, listed[0])
            }
        case .date:
            if cmp.op == .contains { throw QueryError(.containsNeedsText(field: "date"), at: cmp.range) }
            if let r = try dateBounds(cmp) { return .days(r) }
            var ranges: [LogicalCondition] = []
            for v in cmp.values { ranges.append(.days(try dayRange(v))) }
            let any: LogicalCondition = ranges.count == 1 ? ranges[0] : .or(ranges)
            return negated ? .not(any) : any
        case .currency:
            switch cmp.op {
            case .contains:
                let needle = try name(cmp.values[0]).lowercased()
                return .currencies(Currency.all.filter { needle.isEmpty || $0.code.lowercased().contains(needle) || $0.name.lowercased().contains(needle) })
            case .less, .lessOrEqual, .greater, .greaterOrEqual:
                let v = try name(cmp.values[0]).uppercased()
                return .currencies(Currency.all.filter { Binder.holds(cmp.op, $0.code, v) })
            default:
                var codes: [Currency] = []
                for v in cmp.values {
                    let code = try name(v)
                    guard let c = Currency(caseInsensitiveCode: code) else {
                        // The ledger's own currencies are the likeliest meaning of a near miss.
                        let candidates = store.currencies.map(\.code) + Parser.currencyCandidates
                        throw QueryError(.unknownCurrency(code, suggestion: nearest(code, in: candidates)), at: v.range)
                    }
                    if !codes.contains(c) { codes.append(c) }
                }
                return negated ? .not(.currencies(codes)) : .currencies(codes)
            }
        case .category, .book, .party, .payment, .remarks, .tag:
            guard let field = Binder.nameField(cmp.field) else { return .always(false) }
            switch cmp.op {
            case .contains:
                return .contains(field, try name(cmp.values[0]))
            case .less, .lessOrEqual, .greater, .greaterOrEqual:
                return .ordered(field, cmp.op, try name(cmp.values[0]))
            default:
                var found: [String?] = []
                var seen = Set<String?>()
                let all = ledger.names(field)
                for v in cmp.values {
                    for n in try resolve(v, field, among: all) where seen.insert(n).inserted { found.append(n) }
                }
                // A category names its subtree (docs/language.md#the-category-tree): `!=` and
                // `not in` then leave out the whole subtree.
                if field == .category, !ledger.categoryLinks.isEmpty {
                    for case let n? in found {
                        for d in ledger.categoryAndDescendants(n).dropFirst() where seen.insert(d).inserted { found.append(d) }
                    }
                }
                return negated ? .not(.names(field, found)) : .names(field, found)
            }
        }
    }

    static func holds(_ op: ComparisonOperator, _ a: String, _ b: String) -> Bool {
        switch op {
        case .less: return a < b
        case .lessOrEqual: return a <= b
        case .greater: return a > b
        case .greaterOrEqual: return a >= b
        default: return a == b
        }
    }

    /// A literal as text, when it can be read as one.
    func text(_ v: LiteralValue) -> String? {
        switch v.literal {
        case .text(let s): return s
        case .number(let n): return n.description
        case .date(.literal(_, let t)): return t
        case .date, .missing: return nil
        }
    }

    /// A literal that must be a name.
    func name(_ v: LiteralValue) throws(QueryError) -> String {
        if let t = text(v) { return t }
        let what = v.literal == .missing ? "(none)" : "a date"
        throw QueryError(.expected(["a name"], found: what, suggestion: nil), at: v.range)
    }

    /// The ledger's spellings a value names: exactly as written, else in any letter case (a
    /// book also by its id); `(none)` the entries without a value. Unknown names are errors.
    /// `all` is `ledger.names(field)`, worked out once for every value of a comparison.
    func resolve(_ v: LiteralValue, _ field: NameField, among all: [String?]) throws(QueryError) -> [String?] {
        if v.literal == .missing {
            guard all.first == .some(nil) else {
                throw QueryError(.unknownName(field: field.rawValue, value: "(none)", suggestions: []), at: v.range)
            }
            return [nil]
        }
        let name = try self.name(v)
        var found: [String?] = all.filter { $0 == name }
        if field == .book, found.isEmpty { found = ledger.books.filter { $0.id == name }.map { Optional($0.name) } }
        if found.isEmpty {
            let lower = name.lowercased()
            found = all.filter { $0?.lowercased() == lower }
        }
        if found.isEmpty {
            // A remark is free text: one the ledger lacks matches nothing, as `~` may.
            if field == .remarks { return [name] }
            var error = QueryError(.unknownName(field: field.rawValue, value: name,
                                                suggestions: Spelling.suggestions(for: name, in: all.compactMap { $0 })), at: v.range)
            if name == "(none)", all.first == .some(nil) { error.advice = .unquotedNone(field: field.rawValue) }
            throw error
        }
        return found
    }

    // MARK: Dates

    func dayRange(_ v: LiteralValue) throws(QueryError) -> DayRange {
        guard case .date(let d) = v.literal else {
            throw QueryError(.expected(["a date"], found: "'\(text(v) ?? "(none)")'", suggestion: nil), at: v.range)
        }
        return try d.resolve(today: today, at: v.range)
    }

    /// The days a date comparison keeps, when they are one range (`=`, `<`, `<=`, `>`, `>=`, and `in` of one value).
    func dateBounds(_ cmp: Comparison) throws(QueryError) -> DayRange? {
        guard cmp.values.count == 1 else { return nil }
        let r = try dayRange(cmp.values[0])
        switch cmp.op {
        case .equal, .isIn: return r
        case .less: return DayRange(.distantPast, Day(number: r.first.number - 1))
        case .lessOrEqual: return DayRange(.distantPast, r.last)
        case .greater: return DayRange(Day(number: r.last.number + 1), .distantFuture)
        case .greaterOrEqual: return DayRange(r.first, .distantFuture)
        case .notEqual, .notIn, .contains: return nil
        }
    }
}
