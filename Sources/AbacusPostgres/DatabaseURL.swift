// Where the database is: a `postgres://USER:PASSWORD@HOST:PORT/DB?…` URL, filled in from
// the libpq environment variables (PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE,
// PGCONNECT_TIMEOUT, PGSSLMODE) where the URL leaves a part out, as libpq does
// (docs/postgres.md).

import Foundation

public struct DatabaseURL: Sendable, Equatable {
    public var host: String
    public var port: Int
    public var user: String
    public var password: String?
    public var database: String
    /// Seconds to wait for the server to accept a connection.
    public var connectTimeout: Int
    /// Seconds a statement may run before it is given up (and cancelled on the server).
    public var statementTimeout: Int

    /// The URL as messages show it: never the password.
    public var shown: String { "postgres://\(user)@\(host):\(port)/\(database)" }

    public struct Problem: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// Reads `text` (empty: everything from the environment), as libpq would.
    public static func parse(_ text: String, environment env: [String: String]) throws(Problem) -> DatabaseURL {
        func envValue(_ k: String) -> String? { env[k].flatMap { $0.isEmpty ? nil : $0 } }
        var host = envValue("PGHOST"), port = envValue("PGPORT"), user = envValue("PGUSER")
        var password = envValue("PGPASSWORD"), database = envValue("PGDATABASE")
        var connectTimeout = envValue("PGCONNECT_TIMEOUT"), statementTimeout = envValue("ABACUS_DATABASE_TIMEOUT")
        var sslmode = envValue("PGSSLMODE")
        if !text.isEmpty {
            guard text.hasPrefix("postgres://") || text.hasPrefix("postgresql://"),
                  let url = URLComponents(string: text) else {
                throw Problem(description: "--db must be a URL postgres://USER@HOST:PORT/DATABASE, not '\(text)'")
            }
            if let h = url.host, !h.isEmpty { host = h }
            if let p = url.port { port = String(p) }
            if let u = url.user, !u.isEmpty { user = u }
            if let p = url.password { password = p }
            let path = url.path.hasPrefix("/") ? String(url.path.dropFirst()) : url.path
            if !path.isEmpty { database = path }
            for item in url.queryItems ?? [] {
                switch item.name {
                case "connect_timeout": connectTimeout = item.value
                case "sslmode": sslmode = item.value
                case "statement_timeout": statementTimeout = item.value
                case "user": user = item.value
                case "password": password = item.value
                case "host": host = item.value
                case "port": port = item.value
                case "dbname": database = item.value
                case "application_name": break
                default: throw Problem(description: "--db: unknown URL parameter '\(item.name)' (known: connect_timeout, sslmode, statement_timeout, user, password, host, port, dbname)")
                }
            }
        }
        if let sslmode, !["disable", "allow", "prefer"].contains(sslmode) {
            throw Problem(description: "sslmode=\(sslmode) is not supported: Abacus connects without TLS (use sslmode=disable, or a local tunnel)")
        }
        let userName = user ?? envValue("USER") ?? "postgres"
        guard let portNumber = Int(port ?? "5432"), (1...65535).contains(portNumber) else {
            throw Problem(description: "the database port must be a number from 1 to 65535, not '\(port ?? "")'")
        }
        guard let connect = Int(connectTimeout ?? "10"), connect >= 0 else {
            throw Problem(description: "connect_timeout (PGCONNECT_TIMEOUT) must be a number of seconds, not '\(connectTimeout ?? "")'")
        }
        guard let statement = Int(statementTimeout ?? "300"), statement > 0 else {
            throw Problem(description: "statement_timeout (ABACUS_DATABASE_TIMEOUT) must be a number of seconds above 0, not '\(statementTimeout ?? "")'")
        }
        return DatabaseURL(host: (host ?? "localhost").removingPercentEncoding ?? "localhost", port: portNumber, user: userName,
                           password: password?.removingPercentEncoding ?? password, database: database ?? userName,
                           connectTimeout: connect == 0 ? 10 : connect, statementTimeout: statement)
    }
}
