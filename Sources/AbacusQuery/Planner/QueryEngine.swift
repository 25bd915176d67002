// Another engine that runs queries from the same logical plan: a database server
// (docs/postgres.md, docs/architecture.md). The in-memory store is the engine of every
// session; one with a `QueryEngine` asks it first, and runs in memory what it leaves.

import AbacusCore

public protocol QueryEngine: AnyObject, Sendable {
    /// The query's result, or nil when this engine leaves the plan to the in-memory store.
    func run(_ plan: LogicalPlan, in session: Session) throws(QueryError) -> ResultSet?
    /// What `explain` adds for the plan: the SQL that runs it, or nil.
    func explain(_ plan: LogicalPlan, in session: Session) -> String?
    /// The results of a sum as of each of `days` (the plan's days ending there instead), each
    /// what `run` would give for that day: a book's balance at the end of every period at
    /// once. Nil when this engine leaves them to `run`, one day at a time.
    func run(_ plan: LogicalPlan, endingOn days: [Day], in session: Session) throws(QueryError) -> [Result<ResultSet, QueryError>]?
}

extension QueryEngine {
    public func run(_ plan: LogicalPlan, endingOn days: [Day], in session: Session) throws(QueryError) -> [Result<ResultSet, QueryError>]? { nil }
}
