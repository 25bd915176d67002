// `sum expenses by category per month`: a crosstab (Result/Crosstab.swift), and its
// `explain`, which shows the logical plan, the plans that run and the access path.

import AbacusCore

struct CrosstabStatement: StatementRunner {
    let query: Query

    func run(in session: Session) throws(QueryError) -> Output {
        var result = try CrosstabStatement.crosstab(query, in: session).run()
        result.warnings += QueryStatement.notes(query)
        return .table(result)
    }

    static func crosstab(_ query: Query, in session: Session) throws(QueryError) -> Crosstab {
        let engine = ReportEngine(query, in: session)
        let plan = try engine.bind(query)
        guard let per = plan.per else { throw QueryError(.unsupported("not a crosstab"), at: nil) }
        return Crosstab(plan: plan, per: per, engine: engine)
    }

    /// `explain`: the logical plan, the runs that make the crosstab, the cells' access path.
    static func explain(_ query: Query, in session: Session) throws(QueryError) -> Output {
        let crosstab = try crosstab(query, in: session)
        let cells = try crosstab.engine.lowered(crosstab.cellsPlan)
        let text = crosstab.plan.description + "\nruns:\n" + crosstab.runs.map { "  " + $0 }.joined(separator: "\n")
            + "\naccess path:\n" + cells.accessPath
        return try ExplainStatement.explained(cells, text: text, engine: crosstab.engine)
    }
}
