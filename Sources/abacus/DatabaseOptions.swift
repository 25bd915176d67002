// `--db URL` and `--import FILE…`: a ledger kept in PostgreSQL (docs/postgres.md).

import AbacusCore
import AbacusPostgres
import AbacusQuery
import AbacusShell
import Foundation

/// The database as the shell sees it: its ledger, and the engine that runs queries there.
final class DatabaseLedger: ExternalLedger, @unchecked Sendable {
    let db: Database
    init(db: Database) { self.db = db }

    var name: String { db.url.shown }

    /// The small tables, and one entry for each name the entries use: the entries themselves
    /// are read when a statement first needs them in memory (`attach`).
    func loadLedger() throws(LoadError) -> Ledger {
        try read(entries: false)
    }

    func read(entries: Bool) throws(LoadError) -> Ledger {
        do {
            return try LedgerTables.load(db, entries: entries).get()
        } catch let e as LoadError {
            throw e
        } catch {
            throw LoadError(file: db.url.shown, message: "\(error)")
        }
    }

    func attach(to session: Session) {
        session.engine = SQLEngine(db: db)
        session.entrySource = { [self, weak session] () throws(QueryError) -> Ledger in
            let n = session?.ledger.entryCount ?? 0
            DatabaseCommand.note("reading \(n == 1 ? "1 entry" : "\(n) entries") from the database to run this statement in memory")
            do throws(LoadError) { return try read(entries: true) } catch { throw QueryError(.database(error.description), at: nil) }
        }
    }
}

enum DatabaseCommand {
    /// Connects (and imports, when asked); nil when no database was named. Exits 2 on failure.
    static func open(url: String?, imports: [String], ledgers: [String], environment env: [String: String]) -> DatabaseLedger? {
        let text = url ?? env["ABACUS_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
        guard let text else {
            if !imports.isEmpty { fail("--import needs a database: give --db postgres://USER@HOST:PORT/DB or set ABACUS_DATABASE_URL") }
            return nil
        }
        if !ledgers.isEmpty {
            fail("give either ledger files or a database (--db, ABACUS_DATABASE_URL), not both; to put files into the database use --import")
        }
        let where_: DatabaseURL
        do { where_ = try DatabaseURL.parse(text, environment: env) } catch { fail(error.description) }
        let db: Database
        do { db = try Database.connect(where_) } catch { fail(error.description) }
        if !imports.isEmpty {
            do {
                let summary = try LedgerTables.importFiles(imports, into: db)
                summary.notes.forEach { note("note: " + $0) }
                note("imported \(summary.files.count == 1 ? "1 file" : "\(summary.files.count) files") into \(db.url.shown): "
                     + "now \(summary.entries == 1 ? "1 entry" : "\(summary.entries) entries") in \(summary.books == 1 ? "1 book" : "\(summary.books) books")")
            } catch {
                fail(error.description)
            }
        }
        return DatabaseLedger(db: db)
    }

    static func note(_ text: String) { FileHandle.standardError.write(Data((text + "\n").utf8)) }

    static func fail(_ text: String) -> Never {
        note("error: " + text)
        exit(2)
    }
}
