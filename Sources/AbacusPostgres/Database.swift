// One connection to the PostgreSQL server, used from Abacus's synchronous shell.
//
// Every call blocks the calling thread until the server answers, fails, or the deadline
// passes; a call past its deadline closes the connection (the server then cancels the
// statement) and fails, so a server that stops answering never hangs Abacus. Errors come
// back as `DatabaseError`, one sentence for a person (docs/postgres.md).

import Dispatch
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import PostgresNIO

public struct DatabaseError: Error, Sendable, CustomStringConvertible {
    public var description: String
    /// The server's SQLSTATE, when the server refused the statement.
    public var sqlState: String?
    public init(_ description: String, sqlState: String? = nil) {
        self.description = description
        self.sqlState = sqlState
    }
}

/// A text cell of a result row (every query casts what it selects to text).
public typealias TextRow = [String?]

public final class Database: @unchecked Sendable {
    public let url: DatabaseURL
    let connection: PostgresConnection
    /// Set once a call failed in a way that leaves the connection unusable.
    public private(set) var isBroken = false {
        didSet { if isBroken { close() } }
    }

    init(url: DatabaseURL, connection: PostgresConnection) {
        self.url = url
        self.connection = connection
    }

    deinit { close() }

    /// Connects, within the URL's connect timeout.
    public static func connect(_ url: DatabaseURL) throws(DatabaseError) -> Database {
        var config = PostgresConnection.Configuration(host: url.host, port: url.port, username: url.user,
                                                      password: url.password, database: url.database, tls: .disable)
        config.options.connectTimeout = .seconds(Int64(url.connectTimeout))
        config.options.additionalStartupParameters = [("application_name", "abacus")]
        var logger = Logger(label: "abacus.postgres")
        logger.logLevel = .critical
        let future = PostgresConnection.connect(on: MultiThreadedEventLoopGroup.singleton.any(), configuration: config, id: 1, logger: logger)
        let connection: PostgresConnection
        let seconds = url.connectTimeout + 5
        do throws(DatabaseError) {
            connection = try wait(future, seconds: seconds, onTimeout: {}, describing: { connectionProblem($0, url: url, waited: seconds) })
        } catch {
            // The wait's own deadline (the driver's connect timeout did not fire).
            throw error.description == timedOut ? connectionProblem(error, url: url, waited: seconds) : error
        }
        let db = Database(url: url, connection: connection)
        // The SQL Abacus writes quotes text literals by doubling quotes only.
        do { try db.query("SET standard_conforming_strings = on") } catch {
            throw DatabaseError("cannot use \(url.shown): " + error.description, sqlState: error.sqlState)
        }
        return db
    }

    /// Runs `sql` with text parameters; returns its rows, every column as text.
    @discardableResult
    public func query(_ sql: String, _ parameters: [String?] = [], seconds: Int? = nil) throws(DatabaseError) -> [TextRow] {
        guard !isBroken else { throw DatabaseError("the connection to \(url.shown) was lost earlier; start Abacus again") }
        guard !connection.isClosed else {
            isBroken = true
            throw DatabaseError(closedByServer)
        }
        var binds = PostgresBindings(capacity: parameters.count)
        for p in parameters {
            if let p { binds.append(p) } else { binds.appendNull() }
        }
        let query = PostgresQuery(unsafeSQL: sql, binds: binds)
        let rows = NIOLockedValueBox<[TextRow]>([])
        let request = connection.query(query, logger: Database.quiet).flatMapThrowing { result -> Void in
            try result.forEach { row in
                var cells: TextRow = []
                cells.reserveCapacity(row.count)
                for cell in row { cells.append(try cell.decode(String?.self)) }
                rows.withLockedValue { $0.append(cells) }
            }
        }
        let limit = seconds ?? url.statementTimeout
        do throws(DatabaseError) {
            // A connection that closes while the statement runs fails it (a driver may never answer).
            let promise = request.eventLoop.makePromise(of: Void.self)
            request.cascade(to: promise)
            connection.closeFuture.whenComplete { _ in promise.fail(DatabaseError(Database.serverClosed)) }
            try Database.wait(promise.futureResult, seconds: limit, onTimeout: { [connection] in let _: EventLoopFuture<Void> = connection.close() })
        } catch {
            if error.sqlState == nil || Database.endsConnection(error.sqlState) { isBroken = true }
            if error.description == Database.serverClosed || Database.endsConnection(error.sqlState) {
                throw DatabaseError(closedByServer)
            }
            if error.description == Database.timedOut {
                throw DatabaseError("the database at \(url.shown) did not answer within \(limit) seconds; the statement was given up (ABACUS_DATABASE_TIMEOUT sets the limit)")
            }
            throw error
        }
        return rows.withLockedValue { $0 }
    }

    /// Runs `body` in a transaction: committed if it returns, rolled back if it throws.
    public func transaction<T>(_ body: () throws(DatabaseError) -> T) throws(DatabaseError) -> T {
        try query("BEGIN")
        do throws(DatabaseError) {
            let value = try body()
            try query("COMMIT")
            return value
        } catch {
            if !isBroken { _ = try? query("ROLLBACK") }
            throw error
        }
    }

    /// Closes the connection (waiting a moment for the server to hear of it).
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        let closing: EventLoopFuture<Void> = connection.close()
        _ = try? Database.wait(closing, seconds: 2, onTimeout: {})
    }
    private var isClosed = false

    static let quiet: Logger = {
        var l = Logger(label: "abacus.postgres")
        l.logLevel = .critical
        return l
    }()

    /// The connection's end, said with the URL and what to do.
    var closedByServer: String { "\(Database.serverClosed) at \(url.shown); start Abacus again once the server is back" }

    /// Whether a server's SQLSTATE says it ended the session (an administrator's or a crash's shutdown).
    static func endsConnection(_ state: String?) -> Bool { state == "57P01" || state == "57P02" }

    static let timedOut = "timed out"
    static let serverClosed = "the server closed the connection (it stopped or restarted)"

    /// Blocks until `future` completes or `seconds` pass (then `onTimeout` runs and it fails).
    static func wait<T: Sendable>(_ future: EventLoopFuture<T>, seconds: Int, onTimeout: @escaping @Sendable () -> Void,
                                  describing: (any Error) -> DatabaseError = { describe($0) }) throws(DatabaseError) -> T {
        let semaphore = DispatchSemaphore(value: 0)
        let box = NIOLockedValueBox<Result<T, any Error>?>(Optional<Result<T, any Error>>.none)
        future.whenComplete { result in
            box.withLockedValue { $0 = result }
            semaphore.signal()
        }
        if semaphore.wait(timeout: .now() + .seconds(seconds)) == .timedOut {
            onTimeout()
            throw DatabaseError(timedOut)
        }
        switch box.withLockedValue({ $0 }) {
        case .success(let v)?: return v
        case .failure(let e)?: throw describing(e)
        case nil: throw DatabaseError(timedOut)
        }
    }

    /// A driver error in words.
    static func describe(_ error: any Error) -> DatabaseError {
        if let e = error as? DatabaseError { return e }
        guard let e = error as? PSQLError else {
            return DatabaseError("\(error)")
        }
        if let info = e.serverInfo, let message = info[.message] {
            var text = message
            if let detail = info[.detail] { text += " (" + detail + ")" }
            if let hint = info[.hint] { text += "; " + hint }
            return DatabaseError(text, sqlState: info[.sqlState])
        }
        switch e.code {
        case .serverClosedConnection, .uncleanShutdown:
            return DatabaseError(serverClosed)
        case .clientClosedConnection:
            return DatabaseError(timedOut)
        case .connectionError:
            if let u = e.underlying { return DatabaseError("\(u)") }
            return DatabaseError("the connection failed")
        case .authMechanismRequiresPassword:
            return DatabaseError("the server asks for a password (give it in the URL or PGPASSWORD)")
        case .unsupportedAuthMechanism:
            return DatabaseError("the server asks for an authentication method Abacus does not support")
        case .sslUnsupported:
            return DatabaseError("the server does not support TLS")
        default:
            if let u = e.underlying { return DatabaseError("\(e.code): \(u)") }
            return DatabaseError("\(e.code)")
        }
    }
}
