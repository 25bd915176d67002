// `sum`, `count`, `avg`, `min`, `max`, `list`: a query, planned and run; and
// `explain QUERY`, which shows the plan and where the rates came from.

import AbacusCore

struct QueryStatement: StatementRunner {
    let query: Query

    func run(in session: Session) throws(QueryError) -> Output {
        let engine = ReportEngine(query, in: session)
        var result = try engine.result(of: try engine.bind(query))
        result.warnings += QueryStatement.notes(query)
        return .table(result)
    }

    /// `in native` converts nothing: a valuation or what-if rate beside it changes nothing, and says so.
    static func notes(_ q: Query) -> [String] {
        guard q.currency == .native else { return [] }
        var clauses: [String] = []
        switch q.valuation {
        case .market?: clauses.append("`at market`")
        case .latest?: clauses.append("`at latest`")
        case .asOf(let d)?: clauses.append("`at \(d.description)`")
        case nil: break
        }
        if !q.whatIf.isEmpty { clauses.append("`with rate …`") }
        guard !clauses.isEmpty else { return [] }
        return ["in native converts nothing, so " + clauses.joined(separator: " and ") + " changes nothing here"]
    }
}

struct ExplainStatement: StatementRunner {
    let query: Query

    func run(in session: Session) throws(QueryError) -> Output {
        if query.per != nil { return try CrosstabStatement.explain(query, in: session) }
        if query.versus != nil { return try ComparisonStatement.explain(query, in: session) }
        let engine = ReportEngine(query, in: session)
        let plan = try engine.lowered(try engine.bind(query))
        return try ExplainStatement.explained(plan, text: plan.description, engine: engine)
    }

    /// `explain`'s output for a plan: `text`, then the rates the plan uses (run to find them,
    /// where the statement runs: in the database when it takes the plan).
    static func explained(_ plan: Plan, text: String, engine: ReportEngine) throws(QueryError) -> Output {
        do throws(QueryError) {
            let result = try engine.result(of: plan.logical)
            return .explain(plan: text, rates: result.rateNotes, warnings: result.warnings)
        } catch {
            // The plan of a statement that cannot run is what one most wants to see.
            if case .ratesTooOld = error.kind {
                return .explain(plan: text, rates: [], warnings: [error.message])
            }
            guard case .missingRates(let missing, let target) = error.kind else { throw error }
            let lines = missing.map { "\($0.entries) \($0.entries == 1 ? "entry needs" : "entries need") \($0.pair), which no rate supplies" }
            return .explain(plan: text, rates: lines,
                            warnings: ["this statement cannot run until those rates into \(target.code) are supplied (`set rate PAIR = …` or `with rate PAIR = …`)"])
        }
    }
}
