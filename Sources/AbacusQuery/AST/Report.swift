// The syntax of the statements that report on budgets, accounts, net worth and
// holdings (docs/language.md#budgets-and-net-worth): what each asked for, before any
// name or date is resolved.

import AbacusCore

public enum Report: Sendable {
    /// `budget [PERIOD] [in CUR]`
    case budget(BudgetRequest)
    /// `balance [by book] [in CUR] [at DATE]`
    case balance(BalanceRequest)
    /// `networth [in CUR] [at DATE]`, `networth by month|quarter|year [PERIOD] [in CUR]`
    case networth(NetWorthRequest)
    /// `holdings [in CUR] [at DATE]`
    case holdings(HoldingsRequest)
}

public struct BudgetRequest: Sendable {
    /// The months asked for: a date expression (`2025-10`, `last 3 months`) or period
    /// clauses (`since 2025-09`); none: this month.
    public var periods: [PeriodClause] = []
    public var currency: Currency?
}

public struct BalanceRequest: Sendable {
    public var byBook = false
    public var currency: Currency?
    public var at: DateExpression?
}

public struct NetWorthRequest: Sendable {
    /// `by month|quarter|year`: the history, one row per period.
    public var by: PeriodUnit?
    public var periods: [PeriodClause] = []
    public var currency: Currency?
    public var at: DateExpression?
}

public struct HoldingsRequest: Sendable {
    public var currency: Currency?
    public var at: DateExpression?
}
