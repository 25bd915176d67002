// Another engine that runs queries from the same logical plan: a database server
// (docs/postgres.md, docs/architecture.md). The in-memory store is the engine of every
// session; one with a `QueryEngine` asks it first, and runs in memory what it leaves.

import AbacusCore

public protocol QueryEngine: AnyObject, Sendable {
    /// The query's result, or nil when this engine leaves the plan to the in-memory store.
    func run(_ plan: LogicalPlan, in session: Session) throws(QueryError) -> ResultSet?
    /// What `explain` adds for the plan: the SQL that runs it, or nil.
    func explain(_ plan: LogicalPlan, in session: Session) -> String?
}
