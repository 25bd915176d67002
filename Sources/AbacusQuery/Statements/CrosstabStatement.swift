// `sum expenses by category per month`: a crosstab (Result/Crosstab.swift), and its
// `explain`, which shows the logical plan, the plans that run and the access path.

import AbacusCore

struct CrosstabStatement: StatementRunner {
    let query: Query

    func run(in session: Session) throws(QueryError) -> Output {
        let plan = try Binder.bind(query, in: session.context)
        var result = try Crosstab(plan: plan, session: session).run()
        result.warnings += QueryStatement.notes(query)
        return .table(result)
    }

    /// `explain`: the logical plan, the runs that make the crosstab, the cells' access path.
    static func explain(_ query: Query, in session: Session) throws(QueryError) -> Output {
        let plan = try Binder.bind(query, in: session.context)
        let crosstab = Crosstab(plan: plan, session: session)
        let cells = session.lowered(crosstab.cellsPlan)
        let text = plan.description + "\nruns:\n" + crosstab.runs.map { "  " + $0 }.joined(separator: "\n")
            + "\naccess path:\n" + cells.accessPath
        return try ExplainStatement.explained(cells, text: text, in: session)
    }
}
