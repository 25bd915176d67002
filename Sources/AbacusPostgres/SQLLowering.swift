// The logical plan lowered to SQL (docs/postgres.md): a second lowering of the plan the
// binder makes, beside the in-memory planner's (docs/architecture.md).
//
// What lowers: the subject, the day range and the condition into one WHERE clause; the
// group keys into GROUP BY expressions (a tag key joins the entry's tags, an entry without
// one in the group of none; a period key is the period's first day; `top category` each
// category's root, as a CASE); the aggregate into
// `count(*)`, an exact `sum(amount)` on `numeric`, or `min`/`max` (converted:
// SQLConversion.swift); a test of amounts into a comparison of the amount (converted: times
// the rate's numerator, against the number times its denominator). The SQL is plain: no
// extension, no function or aggregate of Abacus's own, so that it runs on
// PostgreSQL-compatible distributed engines. Text compared in any letter case is resolved in
// Swift against the ledger's names. Anything that does not lower (a remark compared so, a
// test of amounts the in-memory engine would count otherwise) makes
// `lowers` false, and the in-memory engine runs the statement.

import AbacusCore
import AbacusQuery

struct SQLLowering {
    let plan: LogicalPlan
    let ledger: Ledger

    /// A SQL string literal (standard_conforming_strings is on: only the quote doubles). Text
    /// with invisible characters (`ShownText.isInvisible`: an escape, a newline, a bidi override)
    /// is an escape string with those written as `\uXXXX`, so that `explain`, which shows the
    /// SQL, never sends them to the terminal (docs/language.md#invisible-characters).
    static func literal(_ s: String) -> String {
        guard ShownText.isEscaped(s) else { return "'" + s.replacingOccurrences(of: "'", with: "''") + "'" }
        var out = "E'"
        for u in s.unicodeScalars {
            switch u {
            case "\\": out += "\\\\"
            case "'": out += "''"
            default:
                // Every invisible character is in the Basic Multilingual Plane: four hex digits.
                guard ShownText.isInvisible(u) else { out.unicodeScalars.append(u); continue }
                let hex = String(u.value, radix: 16, uppercase: true)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
        }
        return out + "'"
    }
    static func literal(_ d: Day) -> String { "DATE '\(d.description)'" }

    /// How a test of amounts is written: the amount as the result shows it (an expense
    /// positive) and, converted, times its rate's denominator; a number it is compared with is
    /// multiplied by that denominator, so that no row is divided. Nil: converted amounts that
    /// no rate calendar gives (SQLConversion.swift sets them).
    struct AmountTerms {
        var value: String
        var denominator: String?

        func scaled(_ x: ExactDecimal) -> String {
            denominator.map { "\(SQLConversion.number(x)) * \($0)" } ?? SQLConversion.number(x)
        }
    }

    var convertedAmounts: AmountTerms? = nil
    /// When set, what every test of amounts is written as (`TRUE`: the condition as it would
    /// be without the test's answer).
    var amountsAs: String? = nil

    /// The amount terms of this plan: in native currencies the amount itself.
    var amountTerms: AmountTerms? {
        if let convertedAmounts { return convertedAmounts }
        guard plan.target == nil else { return nil }
        return AmountTerms(value: plan.subject == .expenses ? "-e.amount" : "e.amount", denominator: nil)
    }

    /// The WHERE clause: subject, days and condition (nil if one of them does not lower).
    var whereClause: String? { clause(plan.condition.map { condition($0) }) }

    /// The WHERE clause of the entries that reach the condition's test of amounts, as the
    /// in-memory engine evaluates it (left to right, stopping where the answer is known):
    /// the entries whose converted amounts it counts for the rates' errors and warnings.
    var reachClause: String? { clause(plan.condition.map { reaching($0) }) }

    /// The entries whose rates a statement with a test of amounts may need: those that reach
    /// the test, and those that pass the condition without reaching it (their answer does not
    /// depend on the amount).
    var candidatesClause: String? {
        var open = self
        open.amountsAs = "TRUE"
        guard let c = plan.condition, let reach = reaching(c), let rest = open.condition(c) else { return nil }
        return clause(reach == rest ? reach : "(" + reach + " OR " + rest + ")")
    }

    /// Subject and days, and the condition as given (`.some(nil)`: it does not lower).
    private func clause(_ written: String??) -> String? {
        var terms: [String] = []
        // A part of a split entry is an expense or an income by its entry's amount (`SQLSplitView`).
        let sign = plan.readsSplits ? "e.entry_amount" : "e.amount"
        switch plan.subject {
        case .expenses: terms.append("\(sign) < 0 AND NOT e.is_transfer")
        case .income: terms.append("\(sign) > 0 AND NOT e.is_transfer")
        case .transfers: terms.append("e.is_transfer")
        case .entries: break
        }
        if let days = plan.days, let d = SQLLowering.days(days) { terms.append(d) }
        if let written {
            guard let t = written else { return nil }
            terms.append(t)
        }
        return terms.isEmpty ? "TRUE" : terms.joined(separator: "\n  AND ")
    }

    static func days(_ r: DayRange) -> String? {
        if r.isEmpty { return "FALSE" }
        var t: [String] = []
        if r.first != .distantPast { t.append("e.day >= " + literal(r.first)) }
        if r.last != .distantFuture { t.append("e.day <= " + literal(r.last)) }
        return t.isEmpty ? nil : t.joined(separator: " AND ")
    }

    func column(_ f: NameField) -> String {
        switch f {
        case .category: "e.category"
        case .book: "e.book_id"
        case .party: "e.party"
        case .payment: "e.payment"
        case .remarks: "e.remarks"
        case .tag: "e.tags"
        }
    }

    /// A condition as a SQL expression that is never NULL (nil: it does not lower exactly).
    func condition(_ c: LogicalCondition) -> String? {
        switch c {
        case .always(let b):
            return b ? "TRUE" : "FALSE"
        case .names(let f, let names):
            var terms: [String] = []
            let given = names.compactMap { $0 }
            let values: [String] = f == .book ? ledger.books.filter { given.contains($0.name) }.map(\.id) : given
            if f == .tag {
                if !values.isEmpty { terms.append("e.tags && ARRAY[\(values.map(SQLLowering.literal).joined(separator: ", "))]::text[]") }
                if names.contains(where: { $0 == nil }) { terms.append("cardinality(e.tags) = 0") }
            } else {
                if !values.isEmpty {
                    // Never NULL, and still a plain test an index serves.
                    let test = "\(column(f)) IN (\(values.map(SQLLowering.literal).joined(separator: ", ")))"
                    terms.append(f == .category || f == .book ? test : "(\(column(f)) IS NOT NULL AND \(test))")
                }
                if names.contains(where: { $0 == nil }) { terms.append("\(column(f)) IS NULL") }
            }
            return terms.isEmpty ? "FALSE" : "(" + terms.joined(separator: " OR ") + ")"
        case .currencies(let cs):
            return cs.isEmpty ? "FALSE" : "e.currency IN (\(cs.map { SQLLowering.literal($0.code) }.joined(separator: ", ")))"
        case .days(let r):
            return SQLLowering.days(r).map { "(" + $0 + ")" } ?? "TRUE"
        case .and(let cs):
            var parts: [String] = []
            for x in cs { guard let p = condition(x) else { return nil }; parts.append(p) }
            return "(" + parts.joined(separator: " AND ") + ")"
        case .or(let cs):
            var parts: [String] = []
            for x in cs { guard let p = condition(x) else { return nil }; parts.append(p) }
            return "(" + parts.joined(separator: " OR ") + ")"
        case .not(let x):
            return condition(x).map { "NOT (" + $0 + ")" }
        case .amount(let op, let x):
            if let amountsAs { return amountsAs }
            guard let a = amountTerms else { return nil }
            let sql: String
            switch op {
            case .equal, .isIn: sql = "="
            case .notEqual, .notIn: sql = "<>"
            case .less: sql = "<"
            case .lessOrEqual: sql = "<="
            case .greater: sql = ">"
            case .greaterOrEqual: sql = ">="
            case .contains: return "FALSE"
            }
            return "(\(a.value) \(sql) \(a.scaled(x)))"
        case .amountIn(let xs):
            if let amountsAs { return amountsAs }
            guard let a = amountTerms else { return nil }
            return xs.isEmpty ? "FALSE" : "(\(a.value) IN (\(xs.map(a.scaled).joined(separator: ", "))))"
        case .contains(let f, _), .ordered(let f, _, _):
            // Letter case is folded by Swift's rules, which a server's collation need not share:
            // the test is resolved against the names the ledger uses (read at start), and the
            // names that pass are sent. A remark is free text those names lack: the in-memory
            // engine runs it. On split entries' parts, a category is one the parts' view has.
            let names = f == .category && plan.readsSplits ? ledger.splitView() : ledger
            guard f != .remarks, let names = c.resolvedNames(in: names) else { return nil }
            return condition(names)
        }
    }

    /// The entries that reach the one test of amounts inside `c`: the tests before it in an
    /// `and` hold, those before it in an `or` fail (nil: `c` holds none, or a test before it
    /// does not lower).
    func reaching(_ c: LogicalCondition) -> String? {
        switch c {
        case .amount, .amountIn:
            return "TRUE"
        case .and(let cs), .or(let cs):
            var before: [String] = []
            for x in cs {
                if x.testsAmount {
                    guard let r = reaching(x) else { return nil }
                    return "(" + (before + [r]).joined(separator: " AND ") + ")"
                }
                guard let t = condition(x) else { return nil }
                if case .and = c { before.append(t) } else { before.append("NOT (" + t + ")") }
            }
            return nil
        case .not(let x):
            return reaching(x)
        case .always, .names, .currencies, .days, .contains, .ordered:
            return nil
        }
    }

    /// How many tests of amounts a condition holds.
    static func amountTests(_ c: LogicalCondition) -> Int {
        switch c {
        case .amount, .amountIn: return 1
        case .and(let cs), .or(let cs): return cs.reduce(0) { $0 + amountTests($1) }
        case .not(let x): return amountTests(x)
        case .always, .names, .currencies, .days, .contains, .ordered: return 0
        }
    }

    /// Whether a test of amounts lowers exactly: in native currencies, any; converted, one
    /// test (the in-memory engine counts an entry's rate once per test it reaches), and no
    /// test that the in-memory planner may serve from a posting list after it (the entries
    /// it skips would not reach the test there; Planner/Planner.swift).
    var amountTestLowers: Bool {
        // In native currencies nothing is converted, so nothing is counted.
        if plan.target == nil { return true }
        guard let c = plan.condition, SQLLowering.amountTests(c) == 1 else { return false }
        let conjuncts = c.conjuncts
        guard let at = conjuncts.firstIndex(where: \.testsAmount) else { return false }
        return !conjuncts[(at + 1)...].contains { x in
            switch x {
            case .names(.category, _), .names(.book, _), .currencies: return true
            default: return false
            }
        }
    }

    /// Whether amounts are compared converted (a rate calendar is needed even for `count`).
    var convertsAmounts: Bool { plan.target != nil && plan.condition?.testsAmount == true }

    /// A group key as a SQL expression giving text. `top category` is each category's group
    /// as the in-memory engine finds it (`Ledger.topCategoryGroups`, from the category tree
    /// and the names read at start), sent as a CASE.
    func key(_ k: GroupKey) -> String {
        switch k {
        case .topCategory:
            let groups = ledger.topCategoryGroups.sorted { $0.key < $1.key }
            guard !groups.isEmpty else { return "e.category" }
            return "CASE e.category" + groups.map { " WHEN \(SQLLowering.literal($0.key)) THEN \(SQLLowering.literal($0.value))" }.joined() + " ELSE e.category END"
        case .category: return "e.category"
        case .book: return "e.book_id"
        case .party: return "e.party"
        case .payment: return "e.payment"
        case .currency: return "e.currency"
        case .tag: return "t.tag"
        case .day: return "e.day::text"
        case .week, .month, .quarter, .year: return "CAST(date_trunc('\(k.rawValue)', e.day) AS date)::text"
        }
    }

    /// The statement over groups `keys` (each entry once when `keys` is empty), selecting the
    /// keys, the count, and the aggregate of the amounts as the result shows them.
    func groups(_ keys: [GroupKey]) -> String? {
        guard let w = whereClause else { return nil }
        let exprs = keys.map(key)
        let from = "\nFROM " + rows + (keys.contains(.tag) ? "\n  LEFT JOIN LATERAL unnest(e.tags) AS t(tag) ON TRUE" : "") + "\nWHERE " + w
        if (plan.aggregate == .min || plan.aggregate == .max) && plan.readsSplits {
            // The least and greatest entry: the parts of one entry in a group added up first,
            // as the in-memory engine picks them (`Accumulators.pick(_:_:entry:)`); the
            // count is of the parts, as there, and of the entries (a row each here) for `order by count`.
            let (names, entries) = SQLLowering.perEntry(exprs, columns: ["count(*) AS n", "sum(e.amount) AS amount"], groupBy: [], from: from, as: "e")
            let count = plan.ranksByEntryCount ? "count(*)" : "sum(e.n)"
            var sql = "SELECT " + (names.map { "e.\($0)" } + [count + "::text", "(\(aggregate))::text"]).joined(separator: ", ") + entries
            if !keys.isEmpty { sql += "\nGROUP BY " + names.map { "e.\($0)" }.joined(separator: ", ") }
            return sql
        }
        var sql = "SELECT " + (exprs + ["\(entriesCount)::text", "(\(aggregate))::text"]).joined(separator: ", ") + from
        if !keys.isEmpty { sql += "\nGROUP BY " + exprs.joined(separator: ", ") }
        return sql
    }

    /// A split view's rows as entries, for `min` and `max` (docs/postgres.md): a subquery that
    /// adds up the parts of each entry in each group (`exprs`, the group keys, selected as `k0`,
    /// `k1`, …, and `groupBy`), selecting `columns` of `from`, named `alias`. Returns the keys'
    /// names and the `FROM (…) alias` text.
    static func perEntry(_ exprs: [String], columns: [String], groupBy: [String], from: String, as alias: String) -> (names: [String], from: String) {
        let names = exprs.indices.map { "k\($0)" }
        var sql = "\nFROM (SELECT " + (zip(exprs, names).map { "\($0) AS \($1)" } + columns).joined(separator: ", ")
        sql += from.replacingOccurrences(of: "\n", with: "\n  ")
        sql += "\n  GROUP BY " + (exprs + groupBy + ["e.id"]).joined(separator: ", ") + ") " + alias
        return (names, sql)
    }

    /// How a group's entries are counted: each row, or on split entries' parts, for a count,
    /// an average or `order by count`, each entry once per group however many of its parts are
    /// there, as the in-memory engine counts them (`Executor.countEntries`). The parts of one
    /// entry share its rate, so each denominator's distinct entries add up to the group's.
    var entriesCount: String {
        plan.readsSplits && (plan.aggregate == .count || plan.aggregate == .avg || plan.ranksByEntryCount) ? "count(DISTINCT e.id)" : "count(*)"
    }

    /// The aggregate over the amounts as the result shows them (an expense as a positive
    /// amount): the exact sum (for `count` and `avg` too: an average is the sum over the
    /// count, divided in Swift), or the least or greatest amount.
    var aggregate: String {
        let expenses = plan.subject == .expenses
        switch plan.aggregate {
        case .count, .sum, .avg, .list: return expenses ? "-coalesce(sum(e.amount), 0)" : "coalesce(sum(e.amount), 0)"
        case .min: return expenses ? "-max(e.amount)" : "min(e.amount)"
        case .max: return expenses ? "-min(e.amount)" : "max(e.amount)"
        }
    }

    /// Whether the entries this plan reads can be selected in SQL: a condition that lowers
    /// (a test of amounts the in-memory engine counts alike) and no split entries' parts
    /// (those are the in-memory engine's).
    var selectsRows: Bool { rowsLower(splitParts: false) }

    /// The checks of `selectsRows`, with split entries' parts allowed when `splitParts`.
    private func rowsLower(splitParts: Bool) -> Bool {
        if plan.condition?.testsAmount == true && !amountTestLowers { return false }
        return !plan.readsSplits || splitParts
    }

    /// Whether this plan lowers: a count, a sum, an average, a least or a greatest amount, in
    /// native currencies or converted (SQLConversion.swift), over a condition that lowers
    /// (on split entries' parts as SQLSplitView.swift reads them).
    var lowers: Bool {
        guard rowsLower(splitParts: SQLSplitView.lowers(plan)) else { return false }
        switch plan.aggregate {
        case .count, .sum, .avg, .min, .max: return true
        case .list: return false
        }
    }
}
