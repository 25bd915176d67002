// `sum`, `count`, `avg`, `min`, `max`, `list`: a query, planned and run; and
// `explain QUERY`, which shows the plan and where the rates came from.

import AbacusCore

struct QueryStatement: StatementRunner {
    let query: Query

    func run(in session: Session) throws(QueryError) -> Output {
        if let engine = session.engine, var result = try engine.run(try Binder.bind(query, in: session.context), in: session) {
            result.warnings += QueryStatement.notes(query)
            return .table(result)
        }
        var result = try session.executor.run(try Planner.plan(query, in: session.context))
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
        var plan = try Planner.plan(query, in: session.context)
        if let engine = session.engine, let sql = engine.explain(try Binder.bind(query, in: session.context), in: session) {
            plan.sql = sql
        }
        do throws(QueryError) {
            let result = try session.executor.run(plan)
            return .explain(plan: plan.description, rates: result.rateNotes, warnings: result.warnings)
        } catch {
            // The plan of a statement that cannot run is what one most wants to see.
            if case .ratesTooOld = error.kind {
                return .explain(plan: plan.description, rates: [], warnings: [error.message])
            }
            guard case .missingRates(let missing, let target) = error.kind else { throw error }
            let lines = missing.map { "\($0.entries) \($0.entries == 1 ? "entry needs" : "entries need") \($0.pair), which no rate supplies" }
            return .explain(plan: plan.description, rates: lines,
                            warnings: ["this statement cannot run until those rates into \(target.code) are supplied (`set rate PAIR = …` or `with rate PAIR = …`)"])
        }
    }
}
