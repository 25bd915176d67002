// A ledger kept somewhere other than ledger files: a database server (`--db`). The shell
// loads its small parts through `loadLedger` (the same `Ledger` a file gives, so statements
// on books and rates run as they always do), and `attach` lets it run queries its own way
// (docs/postgres.md).

import AbacusCore
import AbacusQuery

public protocol ExternalLedger: AnyObject, Sendable {
    /// What messages call it (a URL without its password).
    var name: String { get }
    func loadLedger() throws(LoadError) -> Ledger
    /// Gives the session the engine that runs queries there.
    func attach(to session: Session)
}
