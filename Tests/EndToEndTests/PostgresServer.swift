// A throwaway PostgreSQL server for the database tests: initdb into a fresh folder,
// started on 127.0.0.1 at a free port, stopped and removed at the end of the test run.
// Run as root (as CI is), the server runs as the `postgres` user, since PostgreSQL
// refuses root. If it cannot start, the tests that need it fail: they are never skipped.
//
// The binaries are found in ABACUS_PG_BIN, else the newest /usr/lib/postgresql/*/bin,
// else through `pg_config --bindir`. `.ci/run` (through `make deps`) installs them.

import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

final class PostgresServer: @unchecked Sendable {
    let folder: String
    let port: Int
    let bin: String
    let user = "abacus"
    let password = "abacus-test-password"
    private var stopped = false
    private let lock = NSLock()

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The server shared by the tests of one run (started on first use).
    static let shared: Result<PostgresServer, Failure> = {
        do {
            let s = try PostgresServer()
            atexit { if case .success(let s) = PostgresServer.shared { s.stop() } }
            return .success(s)
        } catch let f as Failure {
            return .failure(f)
        } catch {
            return .failure(Failure(description: "\(error)"))
        }
    }()

    /// The shared server, or a test failure saying why there is none.
    static func get() throws -> PostgresServer { try shared.get() }

    /// A URL for a database of this server (created first, empty).
    func newDatabase(_ prefix: String = "t") throws -> String {
        let name = "\(prefix)_\(UUID().uuidString.prefix(8).lowercased())"
        try psql("CREATE DATABASE \(name)")
        return url(name)
    }

    func url(_ database: String, password: String? = nil) -> String {
        "postgres://\(user):\(password ?? self.password)@127.0.0.1:\(port)/\(database)"
    }

    init() throws {
        bin = try PostgresServer.findBinaries()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("abacus-pg-\(getpid())-\(UUID().uuidString.prefix(6))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        port = try PostgresServer.freePort()
        let pwfile = folder + "/pw"
        try password.write(toFile: pwfile, atomically: true, encoding: .utf8)
        if getuid() == 0 { try PostgresServer.run(["/bin/chown", "-R", "postgres", folder], asServerUser: false) }
        try PostgresServer.run([bin + "/initdb", "-D", folder + "/data", "-U", user, "--pwfile", pwfile, "--auth-host=scram-sha-256",
                                "--auth-local=trust", "-E", "UTF8", "--locale=C", "--no-sync"])
        try start()
    }

    func start() throws {
        try PostgresServer.run([bin + "/pg_ctl", "-D", folder + "/data", "-l", folder + "/log", "-w", "-t", "60", "-o",
                                "-p \(port) -k \(folder) -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off",
                                "start"], capture: false)
    }

    /// Stops the server at once (as a crash would), without removing it.
    func kill() throws {
        try PostgresServer.run([bin + "/pg_ctl", "-D", folder + "/data", "-m", "immediate", "-w", "stop"])
    }

    /// Stops the server and removes its folder.
    func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return }
        stopped = true
        _ = try? PostgresServer.run([bin + "/pg_ctl", "-D", folder + "/data", "-m", "immediate", "-w", "stop"])
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Runs SQL through psql on the server's own socket (test set-up only; Abacus never does this).
    @discardableResult
    func psql(_ sql: String, database: String = "postgres") throws -> String {
        try PostgresServer.run([bin + "/psql", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", folder, "-p", String(port), "-U", user, "-d", database, "-c", sql])
    }

    static func findBinaries() throws -> String {
        if let b = ProcessInfo.processInfo.environment["ABACUS_PG_BIN"], !b.isEmpty { return b }
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).compactMap(Int.init).sorted()
        if let v = versions.last, FileManager.default.isExecutableFile(atPath: "\(root)/\(v)/bin/initdb") { return "\(root)/\(v)/bin" }
        if let out = try? run(["/usr/bin/env", "pg_config", "--bindir"], asServerUser: false) {
            let dir = out.trimmingCharacters(in: .whitespacesAndNewlines)
            if FileManager.default.isExecutableFile(atPath: dir + "/initdb") { return dir }
        }
        throw Failure(description: "PostgreSQL's server binaries (initdb, pg_ctl) were not found: install the Debian package `postgresql` (make deps does) or set ABACUS_PG_BIN")
    }

    /// A TCP port nothing listens on now.
    static func freePort() throws -> Int {
        let s = try loopbackSocket()
        close(s.fd)
        return s.port
    }

    /// A TCP socket bound to a free port of 127.0.0.1, listening when asked (the kernel then
    /// completes connections that nobody answers); the caller closes it.
    static func loopbackSocket(listening: Bool = false) throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket() failed") }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = 0
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) } }
        guard bound == 0 else { close(fd); throw Failure(description: "bind() failed") }
        guard !listening || listen(fd, 4) == 0 else { close(fd); throw Failure(description: "listen() failed") }
        let named = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
        guard named == 0 else { close(fd); throw Failure(description: "getsockname() failed") }
        return (fd, Int(UInt16(bigEndian: addr.sin_port)))
    }

    /// Runs a command (as `postgres` when we are root) and returns its stdout; throws with its stderr.
    @discardableResult
    /// Runs `args` with stdin, stdout and stderr on /dev/null; its exit status.
    static func spawnAndWait(_ args: [String]) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd: Int32 in [0, 1, 2] { posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0) }
        var argv: [UnsafeMutablePointer<CChar>?] = args.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, args[0], &actions, nil, &argv, environ) == 0 else { return -1 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (status >> 8) & 0xff
    }

    /// `capture` false for a command that leaves a server running: it would hold the pipes open.
    @discardableResult
    static func run(_ command: [String], asServerUser: Bool = true, capture: Bool = true) throws -> String {
        let p = Process()
        var args = command
        if asServerUser && getuid() == 0 { args = ["/usr/sbin/runuser", "-u", "postgres", "--"] + args }
        p.executableURL = URL(fileURLWithPath: args[0])
        p.arguments = Array(args.dropFirst())
        p.currentDirectoryURL = URL(fileURLWithPath: "/tmp")
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        if !capture {
            // posix_spawn and waitpid: Foundation's waitUntilExit never returns for a command
            // whose child (the server) lives on.
            let status = spawnAndWait(args)
            guard status == 0 else {
                throw Failure(description: "\(command.joined(separator: " ")) failed (\(status))")
            }
            return ""
        }
        try p.run()
        let errBytes = Binary.Bytes()
        let drain = Thread { errBytes.value = Binary.readAll(err.fileHandleForReading.fileDescriptor) }
        drain.start()
        let o = Binary.readAll(out.fileHandleForReading.fileDescriptor)
        p.waitUntilExit()
        while !drain.isFinished { usleep(1000) }
        guard p.terminationStatus == 0 else {
            throw Failure(description: "\(command.joined(separator: " ")) failed (\(p.terminationStatus)): \(String(decoding: errBytes.value, as: UTF8.self))")
        }
        return String(decoding: o, as: UTF8.self)
    }
}
