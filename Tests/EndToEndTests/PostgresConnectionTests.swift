// Every way reaching the database can fail gives one line a person can act on: what
// happened, the URL without its password, and what to do (docs/postgres.md, Failures);
// status 2 when Abacus starts, 1 for the one statement in the shell. No driver text.

import AbacusPostgres
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite(.serialized) struct PostgresConnectionTests {
    /// Runs Abacus on `url` and returns its run, after checking it failed at start with one
    /// line on stderr naming the URL without its password.
    static func failsAtStart(_ url: String, shown: String) throws -> Run {
        let r = try Binary.run(["--db", url, "-e", "count entries"])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.hasPrefix("error: cannot connect to \(shown): "), "\(r.stderr)")
        #expect(r.stderr.filter { $0 == "\n" }.count == 1, "one line: \(r.stderr)")
        for driverWord in ["NIO", "PSQLError", "SingleConnectionFailure", "Connection errors", "errno"] {
            #expect(!r.stderr.contains(driverWord), "\(r.stderr)")
        }
        return r
    }

    @Test func aRefusedConnectionSaysNoServerListensThere() throws {
        let port = try PostgresServer.freePort()
        let r = try Self.failsAtStart("postgres://abacus:secret@127.0.0.1:\(port)/x", shown: "postgres://abacus@127.0.0.1:\(port)/x")
        #expect(r.stderr.contains("the connection was refused: no server listens at 127.0.0.1:\(port); start PostgreSQL there"), "\(r.stderr)")
        #expect(!r.stderr.contains("secret"))
    }

    @Test func anUnknownHostSaysSo() throws {
        let r = try Self.failsAtStart("postgres://abacus@no-such-host.invalid:5432/x?connect_timeout=5",
                                      shown: "postgres://abacus@no-such-host.invalid:5432/x")
        #expect(r.stderr.contains("the host name \"no-such-host.invalid\" is unknown"), "\(r.stderr)")
        #expect(r.stderr.contains("check the host in the URL (or PGHOST)"))
    }

    @Test func aServerThatNeverAnswersTimesOut() throws {
        // A socket that listens (the kernel completes the handshake) but never speaks.
        let (fd, port) = try PostgresServer.loopbackSocket(listening: true)
        defer { close(fd) }
        let started = Date()
        let r = try Self.failsAtStart("postgres://abacus@127.0.0.1:\(port)/x?connect_timeout=1", shown: "postgres://abacus@127.0.0.1:\(port)/x")
        #expect(Date().timeIntervalSince(started) < 15)
        #expect(r.stderr.contains("127.0.0.1:\(port) did not answer within 1 second; check that the server is running"), "\(r.stderr)")
        #expect(r.stderr.contains("connect_timeout in the URL or PGCONNECT_TIMEOUT"))
    }

    @Test func aWrongPasswordSaysWhatToCheck() throws {
        let server = try PostgresServer.get()
        let r = try Self.failsAtStart(server.url("postgres", password: "wrong"), shown: "postgres://abacus@127.0.0.1:\(server.port)/postgres")
        #expect(r.stderr.contains("password authentication failed for user \"abacus\"; check the user and password (in the URL, or PGUSER and PGPASSWORD)"),
                "\(r.stderr)")
        #expect(!r.stderr.contains("wrong"))
    }

    @Test func aMissingDatabaseSaysHowToMakeIt() throws {
        let server = try PostgresServer.get()
        let r = try Self.failsAtStart(server.url("no_such_ledger"), shown: "postgres://abacus@127.0.0.1:\(server.port)/no_such_ledger")
        #expect(r.stderr.contains("database \"no_such_ledger\" does not exist; create it (createdb, or CREATE DATABASE) and load a ledger with --import"),
                "\(r.stderr)")
    }

    @Test func aServerShutDownMidStatementFailsThatStatementInOneLine() throws {
        // A server of its own, stopped the polite way (its backends end with SQLSTATE 57P01)
        // while the shell runs a statement.
        let server = try PostgresServer()
        defer { server.stop() }
        let url = server.url("postgres")
        let db = try Database.connect(try DatabaseURL.parse(url, environment: [:]))
        let stopper = Thread { usleep(700_000); _ = try? PostgresServer.run([server.bin + "/pg_ctl", "-D", server.folder + "/data", "-m", "fast", "-w", "stop"]) }
        stopper.start()
        var failure: DatabaseError?
        do { try db.query("SELECT pg_sleep(60)") } catch { failure = error }
        let shown = "postgres://abacus@127.0.0.1:\(server.port)/postgres"
        #expect(failure?.description == "the server closed the connection (it stopped or restarted) at \(shown); start Abacus again once the server is back",
                "\(String(describing: failure))")
        var again: DatabaseError?
        do { try db.query("SELECT 1") } catch { again = error }
        #expect(again?.description == "the connection to \(shown) was lost earlier; start Abacus again")
    }
}
