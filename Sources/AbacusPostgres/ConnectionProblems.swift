// Why Abacus could not reach its database, in one line a person can act on: what happened,
// the URL (never its password) and what to do (docs/postgres.md, Failures). The driver's
// errors (SwiftNIO's socket and name lookup errors, the server's SQLSTATE) are read here,
// so that no driver text reaches a message.

import NIOCore
import NIOPosix
import PostgresNIO
#if canImport(Glibc)
import Glibc
#endif

extension Database {
    /// A failed connection attempt to `url`, in words.
    static func connectionProblem(_ error: any Error, url: DatabaseURL, waited seconds: Int) -> DatabaseError {
        let at = "cannot connect to \(url.shown): "
        let place = "\(url.host):\(url.port)"
        if let e = error as? DatabaseError {
            if e.description == timedOut { return DatabaseError(at + noAnswer(place, seconds)) }
            return DatabaseError(at + e.description, sqlState: e.sqlState)
        }
        if let e = error as? PSQLError {
            if let info = e.serverInfo, let message = info[.message] {
                let state = info[.sqlState]
                return DatabaseError(at + message + (serverAdvice[state ?? ""].map { "; " + $0 } ?? ""), sqlState: state)
            }
            if e.code == .connectionError, let underlying = e.underlying {
                return DatabaseError(at + socketProblem(underlying, place: place, host: url.host, seconds: url.connectTimeout))
            }
            if e.code == .serverClosedConnection || e.code == .uncleanShutdown {
                return DatabaseError(at + "the server at \(place) closed the connection while it was being opened; check that it is a PostgreSQL server and that it is not shutting down")
            }
        }
        return DatabaseError(at + describe(error).description)
    }

    /// What to do after the server refused the connection with this SQLSTATE.
    static let serverAdvice: [String: String] = [
        "28P01": "check the user and password (in the URL, or PGUSER and PGPASSWORD)",
        "28000": "check the user (in the URL or PGUSER), or ask the database's administrator for access",
        "3D000": "create it (createdb, or CREATE DATABASE) and load a ledger with --import, or name another database in the URL (or PGDATABASE)",
        "53300": "the server has no connection left; try again later, or raise its max_connections",
        "57P03": "the server is starting or shutting down; try again in a moment",
    ]

    static func noAnswer(_ place: String, _ seconds: Int) -> String {
        "\(place) did not answer within \(seconds == 1 ? "1 second" : "\(seconds) seconds"); check that the server is running and that the network lets you reach it (connect_timeout in the URL or PGCONNECT_TIMEOUT sets the wait)"
    }

    /// A socket or name lookup error while connecting.
    static func socketProblem(_ error: any Error, place: String, host: String, seconds: Int) -> String {
        if let e = error as? NIOConnectionError {
            if e.dnsAError != nil || e.dnsAAAAError != nil, e.connectionErrors.isEmpty {
                return "the host name \"\(host)\" is unknown (its name lookup failed); check the host in the URL (or PGHOST)"
            }
            if let first = e.connectionErrors.first?.error { return socketProblem(first, place: place, host: host, seconds: seconds) }
            return "the host name \"\(host)\" gave no address to connect to; check the host in the URL (or PGHOST)"
        }
        if let e = error as? ChannelError, case .connectTimeout = e { return noAnswer(place, seconds) }
        if let e = error as? IOError {
            switch e.errnoCode {
            case ECONNREFUSED:
                return "the connection was refused: no server listens at \(place); start PostgreSQL there, or check the host and port in the URL (or PGHOST and PGPORT)"
            case ETIMEDOUT:
                return noAnswer(place, seconds)
            case ENETUNREACH, EHOSTUNREACH:
                return "\(place) cannot be reached from this machine (\(String(cString: strerror(e.errnoCode)).lowercased())); check the host in the URL and the network"
            default:
                return "\(String(cString: strerror(e.errnoCode)).lowercased()) at \(place); check the host and port in the URL, and that the server runs there"
            }
        }
        if error is SocketAddressError {
            return "the host name \"\(host)\" is unknown (its name lookup failed); check the host in the URL (or PGHOST)"
        }
        return "\(error)"
    }
}
