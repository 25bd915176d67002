// Live rates against a real HTTP server on 127.0.0.1 (Tests/Fixtures/rates_server.py,
// started by each test on a port the OS picks): fetch, the cache, TTL reuse, --force,
// timeouts, bad responses, offline mode. Nothing leaves the machine.

import Foundation
import Testing

/// The fixture server, stopped when the test lets go of it.
final class RatesServer {
    let process = Process()
    let input = Pipe()
    let port: Int

    init() throws {
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Binary.root.appendingPathComponent("Tests/Fixtures/rates_server.py").path]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) { line += byte }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else { throw CocoaError(.fileReadCorruptFile) }
        self.port = port
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// How many /latest requests the server answered.
    func count() throws -> Int {
        let data = try Data(contentsOf: URL(string: url("/count"))!)
        return (try JSONSerialization.jsonObject(with: data) as? [String: Int])?["latest"] ?? -1
    }

    deinit {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}

@Suite(.serialized) struct LiveRatesTests {
    /// A fresh cache folder per test.
    static func environment(_ server: RatesServer, path: String, extra: [String: String] = [:]) throws -> [String: String] {
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("abacus-cache-\(UUID().uuidString)").path
        return ["ABACUS_RATES_URL": server.url(path), "XDG_CACHE_HOME": cache].merging(extra) { $1 }
    }

    func run(_ env: [String: String], _ statements: [String], _ flags: [String] = []) throws -> Run {
        try Binary.run(["Examples/demo.json", "--no-rc", "--today", "2026-11-22"] + flags + statements.flatMap { ["-e", $0] }, environment: env)
    }

    @Test func fetchCachesAndAddsTheRatesToTheSession() throws {
        let server = try RatesServer()
        let env = try LiveRatesTests.environment(server, path: "/latest?from={base}")
        let r = try run(env, ["rates refresh", "rate USD/INR at latest"], ["--format", "csv"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("fetched 3 USD rates of 2026-11-20 from 127.0.0.1"))
        #expect(r.stdout.contains("skipped 1 code outside ISO 4217 (FOK)"))
        // The fetched snapshot is the newest USD/INR source now: 84.2512.
        #expect(r.stdout.contains("USD/INR,84.2512,market snapshot 2026-11-20 (127.0.0.1),2026-11-20"))
        // Fetched today: `at latest` does not call it stale although it is dated two days ago.
        #expect(!r.stderr.contains("before today"))
        let cache = try String(contentsOfFile: (env["XDG_CACHE_HOME"] ?? "") + "/abacus/rates.json", encoding: .utf8)
        #expect(cache.contains("\"INR\": 84.2512"))
        #expect(try server.count() == 1)
        // A later run reads the cache: the rate is there without a request.
        let later = try run(env, ["rate USD/INR at latest"], ["--format", "csv"])
        #expect(later.stdout.contains("84.2512"))
        #expect(try server.count() == 1)
    }

    @Test func aRefreshWithinTheTTLReusesTheCacheAndForceFetchesAnyway() throws {
        let server = try RatesServer()
        let env = try LiveRatesTests.environment(server, path: "/latest?from={base}")
        let r = try run(env, ["rates refresh", "rates refresh", "rates refresh --force"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("within the 30-minute TTL"))
        #expect(try server.count() == 2)
        // A TTL of 0 minutes means every refresh asks.
        _ = try run(env.merging(["ABACUS_RATES_TTL": "0"]) { $1 }, ["rates refresh"])
        #expect(try server.count() == 3)
    }

    @Test func failuresAreClearAndAbacusCarriesOn() throws {
        let server = try RatesServer()
        for (path, message) in [("/error", "HTTP 500"), ("/bad", "unusable response"), ("/negative", "must be positive"),
                                ("/slow", "timed out after 1 s")] {
            let env = try LiveRatesTests.environment(server, path: path, extra: ["ABACUS_RATES_TIMEOUT": "1"])
            let r = try run(env, ["rates refresh", "count entries"], ["--keep-going", "--format", "csv"])
            #expect(r.status == 1, "\(path)")
            #expect(r.stderr.contains(message), "\(path): \(r.stderr)")
            #expect(r.stderr.contains("carrying on with the ledger's and cached rates (newest dated 2025-12-31"), "\(path)")
            #expect(r.stdout.contains("1200"), "\(path): the next statement still ran")
        }
    }

    @Test func refreshRatesFlagAndSetTTL() throws {
        let server = try RatesServer()
        let env = try LiveRatesTests.environment(server, path: "/latest?from={base}")
        let r = try run(env, ["count entries"], ["--refresh-rates", "--format", "csv"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("fetched 3 USD rates"))
        #expect(try server.count() == 1)
        // `.set ttl 0`: the next refresh asks again even though the cache is fresh.
        let again = try Binary.run(["Examples/demo.json", "--no-rc"], stdin: ".set ttl 0\nrates refresh\n", environment: env)
        #expect(again.status == 0)
        #expect(try server.count() == 2)
    }

    @Test func offlineNeverTouchesTheNetwork() throws {
        let server = try RatesServer()
        let env = try LiveRatesTests.environment(server, path: "/latest?from={base}")
        let r = try run(env, ["rates refresh --force"], ["--offline"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("offline: no request made"))
        #expect(try server.count() == 0)
    }

    @Test func aCorruptCacheIsReportedAndIgnored() throws {
        let server = try RatesServer()
        let env = try LiveRatesTests.environment(server, path: "/latest?from={base}")
        let folder = (env["XDG_CACHE_HOME"] ?? "") + "/abacus"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "{\"version\": 1, \"rates\": [{\"base\": \"USD\"".write(toFile: folder + "/rates.json", atomically: true, encoding: .utf8)
        let r = try run(env, ["count entries"], ["--format", "csv"])
        #expect(r.status == 0)
        #expect(r.stderr.contains("warning: ignoring the rates cache"))
        // A refresh then replaces it whole, through a temporary file and a rename.
        _ = try run(env, ["rates refresh"])
        let cache = try String(contentsOfFile: folder + "/rates.json", encoding: .utf8)
        #expect(cache.hasPrefix("{\n  \"version\": 1,"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["rates.json"])
    }

    @Test func theKeyIsSentButNeverShown() throws {
        let server = try RatesServer()
        let env = try LiveRatesTests.environment(server, path: "/error?key={key}", extra: ["ABACUS_RATES_KEY": "s3cr3t-key"])
        let r = try run(env, ["rates refresh", "rates status"], ["--keep-going"])
        #expect(!r.stdout.contains("s3cr3t-key"))
        #expect(!r.stderr.contains("s3cr3t-key"))
        #expect(r.stderr.contains("key=…"))
    }

    @Test func providerSettingsFromTheRCFile() throws {
        let server = try RatesServer()
        var env = try LiveRatesTests.environment(server, path: "/unused")
        env["ABACUS_RATES_URL"] = nil
        let rc = try Binary.temporaryFile("rchome/.abacusrc", ".set rates-url \(server.url("/latest?from={base}&k={key}"))\n.set rates-key rc-secret\n")
        env["HOME"] = (rc as NSString).deletingLastPathComponent
        let r = try Binary.run(["Examples/demo.json", "--today", "2026-11-22", "-e", "rates refresh"], environment: env)
        #expect(r.status == 0)
        #expect(r.stdout.contains("fetched 3 USD rates"))
        #expect(!r.stdout.contains("rc-secret") && !r.stderr.contains("rc-secret"))
        #expect(try server.count() == 1)
    }

    @Test func statusShowsEachSourceAndItsAge() throws {
        let server = try RatesServer()
        let env = try LiveRatesTests.environment(server, path: "/latest?from={base}")
        let r = try run(env, ["rates refresh EUR", "rates status"], ["--format", "csv"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("ledger,Examples/demo.json,2025-12-31,2025-12-31T23:59:00Z"))
        #expect(r.stdout.contains("cache,EUR from 127.0.0.1,2026-11-20,"))
        #expect(r.stdout.contains("fetched 0 min ago"))
    }
}
