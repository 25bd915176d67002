// The logical plan: what a query means, independent of how any store runs it.
//
// The binder (`Binder.swift`) makes it from the syntax tree: names resolved to the
// ledger's own spellings, periods and date conditions resolved to days, the group
// keys the result really has (`in native` adds `currency`), the valuation and the
// what-if rates. It holds no row numbers, dictionary codes or masks: the in-memory
// store lowers it into a physical `Plan` (`Planner.swift`), and another engine can
// lower the same plan its own way. `explain` prints it (docs/architecture.md).

import AbacusCore

public struct LogicalPlan: Sendable {
    public var aggregate: Aggregate
    public var subject: Subject
    /// The currency values convert into; nil `in native` (every value in its own currency).
    public var target: Currency?
    /// The keys the result is grouped by, as it will be: `in native` appends `currency`
    /// when the query did not name it.
    public var groupBy: [GroupKey]
    /// Whether `currency` was added to `groupBy` by `in native`.
    public var impliesCurrencyKey: Bool
    /// The days the period clauses and top-level date conditions leave (nil: every day).
    public var days: DayRange?
    /// The condition on each entry, over fields and literal values (nil: none).
    public var condition: LogicalCondition?
    public var valuation: Valuation
    /// What-if rates, in the order the statement gives them.
    public var whatIf: [(pair: CurrencyPair, rate: ExactDecimal)]
    public var order: Order?
    public var top: Int?
    /// `list … show …`: the listing's optional columns tables show.
    public var show: [ListColumn] = []
    /// `with share`, `with running total`.
    public var withShare = false
    public var withRunningTotal = false
    /// `per KEY`: the crosstab's column key (the rows are `groupBy`).
    public var per: GroupKey?
    /// Read from the split view: category groups and tests the parts of split entries.
    public var readsSplits = false
    /// An ungrouped sum whose exact value, before its rounding, the result keeps
    /// (`ResultSet.exactSum`): a report converts it further (an account's balance).
    public var keepsExactSum = false

    /// Groups rank by how many entries they hold, not by their value (`sum … order by count`).
    public var ranksByEntryCount: Bool { order?.byEntryCount == true }

    /// Whether the plan converts amounts: a money aggregate into a currency, or a condition on
    /// amounts (which compares converted values).
    public var converts: Bool {
        target != nil && (aggregate != .count || (condition?.testsAmount ?? false))
    }

    /// The what-if rates by pair.
    public var whatIfRates: [CurrencyPair: ExactDecimal] {
        var out: [CurrencyPair: ExactDecimal] = [:]
        for w in whatIf { out[w.pair] = w.rate }
        return out
    }

    /// The plan as indented text: what the query means.
    public var description: String {
        var lines: [String] = []
        let target = aggregate == .count ? "" : (self.target.map { " in \($0.code)" } ?? " in native")
        lines.append("\(aggregate.rawValue) \(subject.rawValue)\(target)")
        if let days, days != .all { lines.append("  DAYS " + days.description) }
        if let condition { lines.append("  WHERE " + condition.description) }
        if !groupBy.isEmpty {
            lines.append("  GROUP BY " + groupBy.map(\.rawValue).joined(separator: ", ") + (impliesCurrencyKey ? " (currency: in native)" : ""))
        }
        if let per { lines.append("  PER \(per.rawValue) (crosstab columns)") }
        if aggregate != .count || converts {
            if let t = self.target {
                var line = "  CONVERT into \(t.code)" + (aggregate == .count ? " for the amount filter" : "") + ", \(valuation) valuation"
                if !whatIf.isEmpty { line += ", with " + whatIf.map { "\($0.pair) = \($0.rate)" }.joined(separator: ", ") }
                lines.append(line)
            } else {
                lines.append("  NO CONVERSION (native currencies)")
            }
        }
        if let order { lines.append("  ORDER BY \(order.describe)") }
        if let top { lines.append("  TOP \(top)") }
        if !show.isEmpty { lines.append("  SHOW " + show.map(\.rawValue).joined(separator: ", ")) }
        if readsSplits { lines.append("  SPLITS: category reads the parts of split entries" + (aggregate == .count ? "; each entry counts once per group" : "")) }
        if withShare { lines.append("  WITH SHARE") }
        if withRunningTotal { lines.append("  WITH RUNNING TOTAL") }
        return lines.joined(separator: "\n")
    }
}

/// A fact an entry must satisfy, with every literal resolved: names as the ledger spells
/// them, currencies as codes, dates as day ranges. Nothing here refers to a store.
public indirect enum LogicalCondition: Sendable, Equatable, CustomStringConvertible {
    case always(Bool)
    /// The entry's value of a named field is one of these (nil: the entry has none). Book
    /// names stand for their books; for `tag`, one of the entry's tags (nil: it has none).
    case names(NameField, [String?])
    case currencies([Currency])
    /// The entry's value contains the text, in any letter case (an entry without one never does).
    case contains(NameField, String)
    /// The entry's value, lowercased, compares so with the text, lowercased.
    case ordered(NameField, ComparisonOperator, String)
    /// The amount as the result shows it (expenses positive, converted into the target).
    case amount(ComparisonOperator, ExactDecimal)
    /// The amount is one of these (sorted, distinct).
    case amountIn([ExactDecimal])
    case days(DayRange)
    case and([LogicalCondition])
    case or([LogicalCondition])
    case not(LogicalCondition)

    /// Whether it compares amounts (which are converted first).
    public var testsAmount: Bool {
        switch self {
        case .amount, .amountIn: return true
        case .and(let cs), .or(let cs): return cs.contains { $0.testsAmount }
        case .not(let c): return c.testsAmount
        default: return false
        }
    }

    /// Its conjuncts: the terms of a top-level `and`, or itself.
    public var conjuncts: [LogicalCondition] {
        if case .and(let terms) = self { return terms.flatMap(\.conjuncts) }
        return [self]
    }

    public var description: String {
        // Names as a statement writes them, their invisible characters written out (docs/language.md#explain).
        func quoted(_ s: String?) -> String { s.map { ShownText.literal($0) } ?? "(none)" }
        func wrapped(_ c: LogicalCondition) -> String {
            switch c {
            case .and, .or: return "(" + c.description + ")"
            default: return c.description
            }
        }
        switch self {
        case .always(let b): return b ? "true" : "false"
        case .names(let f, let names):
            return names.count == 1 ? "\(f.rawValue) = \(quoted(names[0]))" : "\(f.rawValue) in (\(names.map(quoted).joined(separator: ", ")))"
        case .currencies(let cs):
            return cs.count == 1 ? "currency = \"\(cs[0].code)\"" : "currency in (\(cs.map { "\"\($0.code)\"" }.joined(separator: ", ")))"
        case .contains(let f, let text): return "\(f.rawValue) ~ \(quoted(text))"
        case .ordered(let f, let op, let text): return "\(f.rawValue) \(op.rawValue) \(quoted(text))"
        case .amount(let op, let x): return "amount \(op.rawValue) \(x)"
        case .amountIn(let xs): return "amount in (\(xs.map(\.description).joined(separator: ", ")))"
        case .days(let r): return r.first == r.last ? "date = \(r.first)" : "date in \(r.description)"
        case .and(let cs): return cs.map(wrapped).joined(separator: " and ")
        case .or(let cs): return cs.map(wrapped).joined(separator: " or ")
        case .not(let c): return "not " + wrapped(c)
        }
    }
}

/// Fields whose values are names (text), as conditions test them.
public enum NameField: String, Sendable, Equatable {
    case category, book, party, payment, tag, remarks
}

extension Order {
    var describe: String {
        let k: String
        switch key {
        case .value: k = byEntryCount ? "count" : "value"
        case .date: k = "date"
        case .key(let g): k = g.rawValue
        }
        return k + (descending ? " desc" : " asc")
    }
}
