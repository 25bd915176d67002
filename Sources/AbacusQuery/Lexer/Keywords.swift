// The language's vocabulary, in one table.
//
// Every keyword appears once, with the roles it plays and the other spellings it
// accepts (`categories` for `category`, `expense` for `expenses`). The parser's
// lists, Tab completion, `.help` and the rule for which names need quotes are all
// read from this table, so a word added to the language is added here and
// nowhere else. Keywords are matched in any letter case.

import AbacusCore

public enum KeywordRole: Sendable, Hashable, CaseIterable {
    /// A word that starts a statement.
    case statement
    /// `sum`, `count`, …: the aggregate of a query.
    case aggregate
    case subject
    /// A word that starts a clause of a query.
    case clause
    case groupKey
    /// A field a condition tests.
    case field
    /// `since`, `until`, …: a period clause.
    case period
    /// Words a date expression starts with (`today`, `this month`).
    case dateWord
    /// Units after `this`/`last` and `last N` (`month`, `days`).
    case periodUnits
    /// `at market`, `at latest`.
    case valuation
    /// Words that join or negate conditions.
    case logic
    /// Ranking direction after `order by KEY`.
    case direction
    /// Anything else the grammar names (`native`, `to`, `refresh`, …).
    case other
}

public struct Keyword: Sendable {
    public let word: String
    public let roles: Set<KeywordRole>
    public let aliases: [String]
}

public enum Keywords {
    static func k(_ word: String, _ roles: KeywordRole..., aliases: [String] = []) -> Keyword {
        Keyword(word: word, roles: Set(roles), aliases: aliases)
    }

    /// The table. Order matters: each role's words are listed (and completed) in this order.
    public static let table: [Keyword] = [
        k("sum", .statement, .aggregate), k("count", .statement, .aggregate), k("avg", .statement, .aggregate),
        k("min", .statement, .aggregate), k("max", .statement, .aggregate), k("list", .statement, .aggregate),
        k("explain", .statement), k("convert", .statement), k("rate", .statement, .other), k("rates", .statement, .other),
        k("set", .statement), k("unset", .statement), k("books", .statement), k("categories", .statement),
        k("watch", .statement), k("unwatch", .statement), k("watching", .statement),
        k("define", .statement), k("defines", .statement), k("undefine", .statement),
        k("budget", .statement), k("balance", .statement), k("networth", .statement), k("holdings", .statement),

        k("expenses", .subject, aliases: ["expense"]), k("income", .subject),
        k("transfers", .subject, aliases: ["transfer"]), k("entries", .subject, aliases: ["entry"]),

        k("in", .clause), k("by", .clause), k("where", .clause), k("since", .clause, .period), k("until", .clause, .period),
        k("before", .clause, .period), k("on", .clause, .period), k("during", .clause, .period), k("at", .clause),
        k("with", .clause), k("order", .clause), k("top", .clause), k("show", .clause), k("per", .clause),
        k("vs", .clause, aliases: ["versus"]),

        k("amount", .field), k("category", .field, .groupKey, aliases: ["categories"]), k("book", .field, .groupKey, aliases: ["books"]),
        k("party", .field, .groupKey, aliases: ["parties"]), k("payment", .field, .groupKey, aliases: ["paymentmode", "payments"]),
        k("currency", .field, .groupKey, aliases: ["currencies"]), k("tag", .field, .groupKey, aliases: ["tags"]),
        k("remarks", .field, aliases: ["remark"]), k("date", .field),
        k("day", .groupKey, .periodUnits, aliases: ["days"]), k("week", .groupKey, .periodUnits, aliases: ["weeks"]),
        k("month", .groupKey, .periodUnits, aliases: ["months"]), k("quarter", .groupKey, .periodUnits, aliases: ["quarters"]),
        k("year", .groupKey, .periodUnits, aliases: ["years"]), k("top category", .groupKey),

        k("today", .dateWord), k("yesterday", .dateWord), k("this", .dateWord), k("last", .dateWord),
        k("market", .valuation), k("latest", .valuation),
        k("and", .logic), k("or", .logic), k("not", .logic),
        k("asc", .direction, aliases: ["ascending"]), k("desc", .direction, aliases: ["descending"]),
        k("native", .other), k("to", .other, aliases: ["into"]), k("refresh", .other), k("status", .other),
        k("import", .other), k("watched", .other), k("max", .other), k("age", .other),
        k("share", .other), k("running", .other), k("total", .other),
        k("previous", .other), k("period", .other), k("same", .other), k("booked", .other), k("as", .other),
    ]

    /// The canonical words of a role, in table order.
    public static func words(_ role: KeywordRole) -> [String] {
        table.filter { $0.roles.contains(role) }.map(\.word)
    }

    /// The canonical word of a role that `word` (lowercased) spells, alias or not.
    public static func canonical(_ word: String, as role: KeywordRole) -> String? {
        byRole[role]?[word]
    }

    private static let byRole: [KeywordRole: [String: String]] = {
        var out: [KeywordRole: [String: String]] = [:]
        for kw in table {
            for role in kw.roles {
                for spelling in [kw.word] + kw.aliases { out[role, default: [:]][spelling] = kw.word }
            }
        }
        return out
    }()

    /// Every keyword and alias: a name spelled as one of these must be quoted to be read as a name.
    public static let all: Set<String> = Set(table.flatMap { [$0.word] + $0.aliases })

    /// Words that end a bare name in a condition (outside `in (…)`): clauses and logic.
    public static let valueStops: Set<String> = Set(words(.clause) + words(.logic))

    public static func subject(_ w: String) -> Subject? { canonical(w, as: .subject).flatMap(Subject.init(rawValue:)) }
    public static func groupKey(_ w: String) -> GroupKey? { canonical(w, as: .groupKey).flatMap(GroupKey.init(rawValue:)) }
    public static func field(_ w: String) -> Field? { canonical(w, as: .field).flatMap(Field.init(rawValue:)) }
    public static func aggregate(_ w: String) -> Aggregate? { canonical(w, as: .aggregate).flatMap(Aggregate.init(rawValue:)) }
    public static func periodUnit(_ w: String) -> PeriodUnit? { canonical(w, as: .periodUnits).flatMap(PeriodUnit.init(rawValue:)) }

    /// Words people use for a period that are not its key (`by date` → `day`).
    public static let periodSynonyms = ["date": "day", "daily": "day", "weekly": "week", "monthly": "month", "quarterly": "quarter",
                                        "yearly": "year", "annual": "year", "annually": "year"]

    /// SQL habits after `order by` (`order by sum`, `order by total`) that mean the amount.
    public static let amountSynonyms: Set<String> = ["sum", "total", "value", "avg", "min", "max"]

    /// Other spellings of the columns `show` adds to a listing.
    public static let listColumnAliases = ["remark": "remarks", "tag": "tags", "paymentmode": "payment", "payments": "payment"]

    /// Shell commands as other shells spell them, without the dot.
    public static let dotless = ["quit": ".quit", "exit": ".quit", "help": ".help"]
}
