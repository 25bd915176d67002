// The SQL lowering of the logical plan (docs/postgres.md).

import AbacusCore
import AbacusQuery

public final class SQLEngine: QueryEngine, @unchecked Sendable {
    let db: Database
    public init(db: Database) { self.db = db }

    public func run(_ plan: LogicalPlan, in session: Session) throws(QueryError) -> ResultSet? {
        nil
    }

    public func explain(_ plan: LogicalPlan, in session: Session) -> String? {
        nil
    }
}
