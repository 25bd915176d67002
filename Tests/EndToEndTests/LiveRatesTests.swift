// Live rates against a real HTTP server on 127.0.0.1 (Tests/Fixtures/rates_server.py,
// started by each test on a port the OS picks): fetch, the cache, TTL reuse, --force,
// timeouts, bad and hostile responses, redirects, offline mode, settings refused by
// name, the cache file never replacing what is not a cache, and the atomic write
// surviving a failed write. Nothing leaves the machine.

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

    struct Seen: Decodable {
        /// Snapshots served (/latest and /other).
        var latest: Int
        var authorization: [String]
        var paths: [String]
    }

    /// What the server was asked so far.
    func seen() throws -> Seen {
        guard let url = URL(string: url("/seen")) else { throw CocoaError(.fileReadInvalidFileName) }
        return try JSONDecoder().decode(Seen.self, from: Data(contentsOf: url))
    }

    func count() throws -> Int { try seen().latest }

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

    static func cacheFile(_ env: [String: String]) -> String { (env["XDG_CACHE_HOME"] ?? "") + "/abacus/rates.json" }

    /// A folder of its own for files a test puts in the cache's place.
    static func scratchFolder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("abacus-live-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// `--no-cache`: these tests watch the rates cache's folder, which store images would share.
    func run(_ env: [String: String], _ statements: [String], _ flags: [String] = []) throws -> Run {
        try Binary.run(["Examples/demo.json", "--no-rc", "--no-cache", "--today", "2026-11-22"] + flags + statements.flatMap { ["-e", $0] }, environment: env)
    }

    @Test func fetchCachesAndAddsTheRatesToTheSession() throws {
        let server = try RatesServer()
        let env = try LiveRatesTests.environment(server, path: "/latest?from={base}")
        let r = try run(env, ["rates refresh", "rate USD/INR at latest"], ["--format", "csv"])
        #expect(r.status == 0)
        // In CSV, what a refresh did is a note on stderr; stdout holds only the answers.
        #expect(r.stderr.contains("fetched 3 USD rates of 2026-11-20 from 127.0.0.1"))
        #expect(r.stderr.contains("skipped 1 code outside ISO 4217 (FOK)"))
        // The fetched snapshot is the newest USD/INR source now: 84.2512.
        #expect(r.stdout.contains("USD/INR,84.2512,market snapshot 2026-11-20 (127.0.0.1),2026-11-20"))
        // Dated two days ago, so `at latest` calls it stale, and says it was fetched just now.
        #expect(r.stderr.contains("warning: the newest USD/INR rate is dated 2026-11-20, 2 days before today (fetched on "), "\(r.stderr)")
        let cache = try String(contentsOfFile: LiveRatesTests.cacheFile(env), encoding: .utf8)
        #expect(cache.hasPrefix("{\n  \"generator\": \"abacus rates cache\",\n  \"version\": 1,"))
        #expect(cache.contains("\"INR\": 84.2512"))
        #expect(try server.count() == 1)
        // A later run reads the cache: the rate is there without a request.
        let later = try run(env, ["rate USD/INR at latest"], ["--format", "csv"])
        #expect(later.stdout.contains("84.2512"))
        #expect(!later.stderr.contains("rates cache"), "the cache it wrote reads back without a word: \(later.stderr)")
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

    /// Network errors, timeouts and bad or hostile responses: a warning naming the reason, the
    /// statement still succeeds (status 0, the script goes on), nothing is cached, and the
    /// answer says which rates Abacus goes on with and how old they are.
    @Test(arguments: [
        ("/error", "HTTP 500"),
        ("/bad", "expected a key in double quotes, found the end of the file"),
        ("/negative", "the rate for INR must be positive, found -84"),
        ("/slow", "timed out after 1 s"),
        ("/dupbase", "\"base\" appears twice in the response"),
        ("/wrongbase", "the provider answered with EUR rates, but USD was asked for"),
        ("/future", "\"date\" is 2099-01-01, after"),
        ("/escape", "\"rates\" has a key that is not a currency code: \"\\e[31mRED\""),
        ("/nan", "the rate for INR is not a number"),
        ("/big", "the response is larger than 1 MB"),
    ])
    func failuresAreClearAndAbacusCarriesOn(path: String, reason: String) throws {
        let server = try RatesServer()
        let env = try LiveRatesTests.environment(server, path: path + "?from={base}", extra: ["ABACUS_RATES_TIMEOUT": "1"])
        let r = try run(env, ["rates refresh", "count entries"], ["--format", "csv"])
        #expect(r.status == 0, "\(path): \(r.stderr)")
        #expect(r.stderr.contains("warning: "), "\(path): \(r.stderr)")
        #expect(r.stderr.contains(reason), "\(path): \(r.stderr)")
        // Whatever the provider sends, no control character reaches the terminal.
        #expect(!r.stderr.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(path)")
        #expect(r.stderr.contains("no new rates; carrying on with the ledger's and cached rates (newest dated 2025-12-31, 326 days old"), "\(path): \(r.stderr)")
        #expect(r.stdout.contains("1200"), "\(path): the next statement still ran")
        #expect(!FileManager.default.fileExists(atPath: LiveRatesTests.cacheFile(env)), "\(path): nothing was cached")
    }

    /// Settings are whole numbers in a range; anything else (infinity, NaN, fractions, huge,
    /// negative, words) is refused by name — never a trap, and no request is made.
    @Test(arguments: [
        ("ABACUS_RATES_TIMEOUT", "inf"), ("ABACUS_RATES_TIMEOUT", "nan"), ("ABACUS_RATES_TIMEOUT", "1e300"),
        ("ABACUS_RATES_TIMEOUT", "9223372036854775807"), ("ABACUS_RATES_TIMEOUT", "-1"), ("ABACUS_RATES_TIMEOUT", "0"),
        ("ABACUS_RATES_TIMEOUT", "0.5"), ("ABACUS_RATES_TIMEOUT", "abc"),
        ("ABACUS_RATES_TTL", "inf"), ("ABACUS_RATES_TTL", "-5"), ("ABACUS_RATES_TTL", "abc"),
        ("ABACUS_RATES_TTL", "99999999999999999999"), ("ABACUS_RATES_TTL", "600000"),
    ])
    func settingsOutOfRangeAreRefusedByName(name: String, value: String) throws {
        let server = try RatesServer()
        let env = try LiveRatesTests.environment(server, path: "/latest?from={base}", extra: [name: value])
        let r = try run(env, ["rates refresh --force"])
        #expect(r.status == 1, "\(name)=\(value): \(r.stderr)")
        let range = name == "ABACUS_RATES_TTL" ? "whole number of minutes from 0 to 525600" : "whole number of seconds from 1 to 600"
        #expect(r.stderr.contains("error: \(name) is \"\(value)\": expected a \(range)"), "\(r.stderr)")
        #expect(try server.count() == 0)
    }

    @Test func aTTLSetInTheShellIsCheckedWhenUsed() throws {
        let server = try RatesServer()
        let env = try LiveRatesTests.environment(server, path: "/latest?from={base}", extra: ["ABACUS_RATES_TTL": "abc"])
        // `.set ttl` replaces a refused ABACUS_RATES_TTL…
        let fixed = try Binary.run(["Examples/demo.json", "--no-rc"], stdin: ".set ttl 5\nrates refresh\n", environment: env)
        #expect(fixed.status == 0, "\(fixed.stderr)")
        #expect(try server.count() == 1)
        // …and is itself held to the range.
        let huge = try Binary.run(["Examples/demo.json", "--no-rc"], stdin: ".set ttl 9999999\nrates refresh --force\n", environment: env)
        #expect(huge.status == 1)
        #expect(huge.stderr.contains(".set ttl is \"9999999\": expected a whole number of minutes from 0 to 525600"))
        #expect(try server.count() == 1)
    }

    @Test func refreshRatesFlagAndSetTTL() throws {
        let server = try RatesServer()
        let env = try LiveRatesTests.environment(server, path: "/latest?from={base}")
        let r = try run(env, ["count entries"], ["--refresh-rates", "--format", "csv"])
        #expect(r.status == 0)
        #expect(r.stderr.contains("fetched 3 USD rates"))
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
        #expect(try server.seen().paths.isEmpty)
    }

    // MARK: The key

    @Test func theKeyIsSentButNeverShown() throws {
        let server = try RatesServer()
        let env = try LiveRatesTests.environment(server, path: "/error?key={key}", extra: ["ABACUS_RATES_KEY": "s3cr3t-key"])
        let r = try run(env, ["rates refresh", "rates status"])
        #expect(r.status == 0)
        #expect(!r.stdout.contains("s3cr3t-key"))
        #expect(!r.stderr.contains("s3cr3t-key"))
        #expect(r.stderr.contains("key=…"))
        #expect(try server.seen().paths == ["/error?key=s3cr3t-key"])
    }

    @Test func theKeyIsPercentEncodedInTheURLAndSentAsABearerTokenOtherwise() throws {
        let server = try RatesServer()
        // A key cannot add query parameters of its own.
        let inURL = try LiveRatesTests.environment(server, path: "/latest?from={base}&k={key}", extra: ["ABACUS_RATES_KEY": "a&from=EUR#x"])
        #expect(try run(inURL, ["rates refresh"]).status == 0)
        #expect(try server.seen().paths == ["/latest?from=USD&k=a%26from%3DEUR%23x"])
        #expect(try server.seen().authorization.isEmpty)
        let inHeader = try LiveRatesTests.environment(server, path: "/latest?from={base}", extra: ["ABACUS_RATES_KEY": "header-key"])
        #expect(try run(inHeader, ["rates refresh"]).status == 0)
        #expect(try server.seen().authorization == ["Bearer header-key"])
    }

    @Test func aRedirectToAnotherHostIsNotFollowedSoTheKeyStaysWithTheProvider() throws {
        let provider = try RatesServer()
        let elsewhere = try RatesServer()
        let target = elsewhere.url("/latest").addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        let env = try LiveRatesTests.environment(provider, path: "/redirect?to=\(target)&from={base}", extra: ["ABACUS_RATES_KEY": "redirect-key"])
        let r = try run(env, ["rates refresh"])
        #expect(r.status == 0)
        #expect(r.stderr.contains("redirected to http://127.0.0.1:\(elsewhere.port), which is not the provider's own host and port; not followed"), "\(r.stderr)")
        #expect(try elsewhere.seen().paths.isEmpty)
        #expect(try elsewhere.seen().authorization.isEmpty)
        #expect(!r.stderr.contains("redirect-key") && !r.stdout.contains("redirect-key"))
        // A redirect within the provider's own origin is followed.
        let same = provider.url("/latest").addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        let local = try LiveRatesTests.environment(provider, path: "/redirect?to=\(same)&from={base}", extra: ["ABACUS_RATES_KEY": "redirect-key"])
        let followed = try run(local, ["rates refresh"])
        #expect(followed.stdout.contains("fetched 3 USD rates of 2026-11-20 from 127.0.0.1"), "\(followed.stderr)")
        #expect(try provider.seen().authorization == Array(repeating: "Bearer redirect-key", count: 3))
    }

    @Test func theKeyIsNeverSentOverPlainHTTPToAnotherMachine() throws {
        let server = try RatesServer()
        // 192.0.2.1 is TEST-NET-1 (RFC 5737): nothing is ever there, and nothing is sent anyway.
        let env = try LiveRatesTests.environment(server, path: "/unused", extra: ["ABACUS_RATES_URL": "http://192.0.2.1/latest?from={base}", "ABACUS_RATES_KEY": "plain-key"])
        let r = try run(env, ["rates refresh"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("the rates API key is sent only over https (or to this machine); 192.0.2.1 is plain http, so nothing was sent"))
        #expect(!r.stderr.contains("plain-key"))
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

    // MARK: Status and freshness

    @Test func statusShowsEachSourceAndItsAge() throws {
        let server = try RatesServer()
        let env = try LiveRatesTests.environment(server, path: "/latest?from={base}")
        let r = try run(env, ["rates refresh EUR", "rates status"], ["--format", "csv"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("ledger,Examples/demo.json,2025-12-31,2025-12-31T23:59:00Z"))
        #expect(r.stdout.contains("cache,EUR from 127.0.0.1,2026-11-20,"))
        #expect(r.stdout.contains("fetched 0 min ago"))
    }

    /// Writes a cache document as Abacus would, with one USD snapshot of 2026-11-10 fetched at `fetchedAt`.
    static func writeCache(_ env: [String: String], fetchedAt: String) throws {
        let path = cacheFile(env)
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try """
            {"generator": "abacus rates cache", "version": 1, "rates": [
              {"base": "USD", "date": "2026-11-10", "rates": {"INR": 77}, "source": "earlier", "fetchedAt": "\(fetchedAt)"}]}
            """.write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test func atLatestNamesTheFetchTimeOfACachedRate() throws {
        let server = try RatesServer()
        let env = try LiveRatesTests.environment(server, path: "/latest?from={base}")
        try LiveRatesTests.writeCache(env, fetchedAt: "2026-11-21T08:00:00Z")
        let r = try run(env, ["convert 1 USD to INR at latest"], ["--offline", "--format", "csv"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("1.00,77.00,77,market snapshot 2026-11-10 (earlier),2026-11-10"))
        #expect(r.stderr.contains("warning: the newest USD/INR rate is dated 2026-11-10, 12 days before today (fetched on 2026-11-21)"), "\(r.stderr)")
    }

    @Test func aCacheFetchedInTheFutureIsExpiredAndSaysSo() throws {
        let server = try RatesServer()
        let env = try LiveRatesTests.environment(server, path: "/latest?from={base}")
        try LiveRatesTests.writeCache(env, fetchedAt: "2099-01-01T00:00:00Z")
        let r = try run(env, ["rates status", "convert 1 USD to INR at latest"], ["--offline", "--format", "csv"])
        #expect(r.status == 0)
        #expect(r.stderr.contains("the USD rates of 2026-11-10 say they were fetched at 2099-01-01T00:00:00Z, in the future; treated as expired"))
        // No negative age, and `at latest` no longer names an impossible fetch time.
        #expect(r.stdout.contains("cache,USD from earlier,2026-11-10,,12 days"), "\(r.stdout)")
        #expect(!r.stdout.contains("fetched -") && !r.stdout.contains("min ago"))
        #expect(r.stderr.contains("warning: the newest USD/INR rate is dated 2026-11-10, 12 days before today\n"), "\(r.stderr)")
        // Expired, so a refresh asks the provider.
        let refresh = try run(env, ["rates refresh"])
        #expect(refresh.stdout.contains("fetched 3 USD rates"))
        #expect(try server.count() == 1)
    }

    // MARK: The cache file

    @Test func aCorruptCacheIsReportedAndIgnoredAndReplacedWhole() throws {
        let server = try RatesServer()
        let env = try LiveRatesTests.environment(server, path: "/latest?from={base}")
        let folder = (env["XDG_CACHE_HOME"] ?? "") + "/abacus"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // A cache Abacus wrote, cut short.
        try "{\"generator\": \"abacus rates cache\", \"version\": 1, \"rates\": [{\"base\": \"USD\"".write(toFile: folder + "/rates.json", atomically: true, encoding: .utf8)
        let r = try run(env, ["count entries"], ["--format", "csv"])
        #expect(r.status == 0)
        #expect(r.stderr.contains("warning: ignoring the rates cache"))
        // A refresh then replaces it whole, through a temporary file and a rename.
        _ = try run(env, ["rates refresh"])
        let cache = try String(contentsOfFile: folder + "/rates.json", encoding: .utf8)
        #expect(cache.hasPrefix("{\n  \"generator\": \"abacus rates cache\",\n  \"version\": 1,"))
        #expect(cache.hasSuffix("\n  ]\n}\n"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["rates.json"])
    }

    /// `--rates-cache` pointed at a ledger, a link, a folder or a named pipe: the fetched rates are
    /// used but not cached, the file is left exactly as it was, and nothing hangs.
    @Test func onlyACacheAbacusWroteIsEverReplaced() throws {
        let server = try RatesServer()
        let env = try LiveRatesTests.environment(server, path: "/latest?from={base}")
        let folder = try LiveRatesTests.scratchFolder()
        let ledger = folder + "/ledger.json"
        try FileManager.default.copyItem(atPath: Binary.root.appendingPathComponent("Examples/demo.json").path, toPath: ledger)
        let original = try Data(contentsOf: URL(fileURLWithPath: ledger))
        try FileManager.default.createSymbolicLink(atPath: folder + "/link.json", withDestinationPath: ledger)
        try FileManager.default.createDirectory(atPath: folder + "/folder.json", withIntermediateDirectories: false)
        #expect(mkfifo(folder + "/pipe.json", 0o600) == 0)
        for (name, what) in [("ledger.json", "not a rates cache written by Abacus"), ("link.json", "not a regular file but a symbolic link"),
                             ("folder.json", "not a regular file but a directory"), ("pipe.json", "not a regular file but a named pipe")] {
            let path = folder + "/" + name
            let r = try Binary.run([ledger, "--no-rc", "--rates-cache", path, "-e", "rates refresh --force", "-e", "rate USD/INR at latest"], environment: env)
            #expect(r.status == 0, "\(name): \(r.stderr)")
            #expect(r.stdout.contains("fetched 3 USD rates of 2026-11-20 from 127.0.0.1; not cached"), "\(name): \(r.stdout)")
            #expect(r.stdout.contains("84.2512"), "\(name): the fetched rates are still used")
            #expect(r.stderr.contains("warning: the fetched rates were not cached: \(path): \(what)"), "\(name): \(r.stderr)")
            #expect(r.stderr.contains("; left as it is (name another file with --rates-cache)"), "\(name): \(r.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: ledger)) == original)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder + "/link.json") == ledger)
        var pipe = stat()
        #expect(lstat(folder + "/pipe.json", &pipe) == 0 && (pipe.st_mode & S_IFMT) == S_IFIFO)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["folder.json", "ledger.json", "link.json", "pipe.json"])
        // Reading the ledger as a cache is refused too: its rates are not counted twice.
        let read = try Binary.run([ledger, "--no-rc", "--offline", "--format", "csv", "--rates-cache", ledger, "-e", "rates status"], environment: env)
        #expect(read.stderr.contains("warning: ignoring the rates cache: \(ledger): not a rates cache written by Abacus"))
        #expect(!read.stdout.contains("\ncache,"))
        // An empty file is an empty cache, written over.
        let empty = folder + "/empty.json"
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        let filled = try run(env, ["rates refresh"], ["--rates-cache", empty])
        #expect(filled.stderr == "", "\(filled.stderr)")
        #expect(try String(contentsOfFile: empty, encoding: .utf8).hasPrefix("{\n  \"generator\": \"abacus rates cache\""))
    }

    /// The atomic write: a write that fails half-way (the file-size limit stands in for a full
    /// disk) leaves the old cache whole and no temporary file; the next write replaces it whole.
    @Test func aFailedCacheWriteLeavesTheOldCacheWhole() throws {
        let server = try RatesServer()
        let env = try LiveRatesTests.environment(server, path: "/latest?from={base}")
        #expect(try run(env, ["rates refresh"]).status == 0)
        let path = LiveRatesTests.cacheFile(env)
        let old = try Data(contentsOf: URL(fileURLWithPath: path))
        // A snapshot of another day joins the cache, which must grow past the limit while being written.
        var other = env
        other["ABACUS_RATES_URL"] = server.url("/other?from={base}")
        let r = try LiveRatesTests.runWithFileSizeLimit(old.count + 40, ["Examples/demo.json", "--no-rc", "--no-cache", "--today", "2026-11-22", "-e", "rates refresh --force", "-e", "rate USD/INR at latest"], environment: other)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("fetched 3 USD rates of 2026-11-21 from 127.0.0.1; not cached"), "\(r.stdout)")
        #expect(r.stderr.contains("warning: the fetched rates were not cached: cannot write \(path).tmp-"), "\(r.stderr)")
        #expect(r.stderr.contains("File too large"), "\(r.stderr)")
        #expect(r.stdout.contains("85"), "the fetched rates are used for the session")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == old)
        #expect(try FileManager.default.contentsOfDirectory(atPath: (path as NSString).deletingLastPathComponent) == ["rates.json"])
        // Without the limit the same refresh replaces the cache with a complete new one holding both days.
        let done = try run(other, ["rates refresh --force"])
        #expect(done.stdout.contains("cached in \(path)"))
        let cache = try String(contentsOfFile: path, encoding: .utf8)
        #expect(cache.contains("\"date\": \"2026-11-20\"") && cache.contains("\"date\": \"2026-11-21\""))
        #expect(cache.hasSuffix("\n  ]\n}\n"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: (path as NSString).deletingLastPathComponent) == ["rates.json"])
    }

    /// Runs abacus with RLIMIT_FSIZE at `bytes` (SIGXFSZ ignored, so a write past it fails with
    /// EFBIG instead of killing the process), as a full disk would fail it.
    static func runWithFileSizeLimit(_ bytes: Int, _ arguments: [String], environment: [String: String]) throws -> Run {
        let script = "import os, resource, signal, sys\n"
            + "signal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
            + "resource.setrlimit(resource.RLIMIT_FSIZE, (int(sys.argv[1]), int(sys.argv[1])))\n"
            + "os.execv(sys.argv[2], sys.argv[2:])\n"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, String(bytes), Binary.path] + arguments
        process.currentDirectoryURL = Binary.root
        var env = ProcessInfo.processInfo.environment
        env["HOME"] = FileManager.default.temporaryDirectory.path
        env["XDG_CACHE_HOME"] = Binary.scratchCache()
        env["NO_COLOR"] = "1"
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self))
    }
}
