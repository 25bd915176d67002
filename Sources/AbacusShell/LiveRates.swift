// Live exchange rates: `rates refresh`, the rates cache and `rates status`.
//
// A refresh asks the provider (`ABACUS_RATES_URL`, `{base}` and `{key}` filled in;
// Frankfurter by default) for the latest snapshot, over HTTPS with URLSession and a
// 10-second timeout (`ABACUS_RATES_TIMEOUT`), unless the cache already holds one
// for that base fetched within the time to live (`ABACUS_RATES_TTL` minutes, or
// `.set ttl`; 30 by default) — `--force` fetches anyway, `--offline` never touches
// the network. Settings are whole numbers in a stated range; anything else is
// refused by name, never guessed at. The snapshot is validated, written to the
// cache atomically (`$XDG_CACHE_HOME/abacus/rates.json` or `--rates-cache`), and
// added to the session's market rates; the ledger file is never touched.
//
// A fetch that fails (network, timeout, HTTP error, a bad or oversized response)
// is a warning, not a failed statement: Abacus carries on with the ledger's and
// the cache's rates and says how old the newest of them are, so a script that
// starts with `rates refresh` still runs offline.
//
// The API key is sent but never printed, logged or stored: URLs in messages show
// `{key}` as `…`, and any text that might echo it is redacted. It goes only to the
// provider's own origin — a redirect to another host, port or scheme is not
// followed — and never over plain http except to this machine.

import AbacusCore
import AbacusQuery
import CCurlOnDemand
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

final class LiveRates: LiveRateSource {
    static let defaultURL = "https://api.frankfurter.app/latest?from={base}"
    static let ttlRange = 0...525_600
    static let timeoutRange = 1...600
    /// A fetch time this far ahead of the clock is clock skew, not the future.
    static let skewSeconds = 300.0

    let cachePath: String?
    var urlTemplate: String
    var key: String?
    /// `.set ttl` replaces it, and with it whatever ABACUS_RATES_TTL said.
    var ttlMinutes: Int { didSet { refusedTTL = nil } }
    let offline: Bool
    let timeoutSeconds: Int
    /// Why ABACUS_RATES_TTL / ABACUS_RATES_TIMEOUT was refused: every refresh says so until it is fixed.
    private var refusedTTL: String?
    private let refusedTimeout: String?
    /// Where warnings go (the shell's stderr, given with `loadCache`).
    private var warn: ((String) -> Void)?
    /// Snapshots read from or written to the cache, newest last.
    private(set) var cached: [RateSnapshot] = []
    /// Market sources at or after this order came from the cache or a refresh, not the ledger.
    private(set) var firstLiveOrder = Int.max

    init(environment: [String: String], cachePath: String?, offline: Bool) {
        self.cachePath = cachePath ?? LiveRates.defaultCachePath(environment)
        self.urlTemplate = environment["ABACUS_RATES_URL"].flatMap { $0.isEmpty ? nil : $0 } ?? LiveRates.defaultURL
        self.key = environment["ABACUS_RATES_KEY"].flatMap { $0.isEmpty ? nil : $0 }
        let ttl = LiveRates.wholeNumber(environment, "ABACUS_RATES_TTL", in: LiveRates.ttlRange, unit: "minutes", default: 30)
        self.ttlMinutes = ttl.value
        self.refusedTTL = ttl.refused
        let timeout = LiveRates.wholeNumber(environment, "ABACUS_RATES_TIMEOUT", in: LiveRates.timeoutRange, unit: "seconds", default: 10)
        self.timeoutSeconds = timeout.value
        self.refusedTimeout = timeout.refused
        self.offline = offline
    }

    static func defaultCachePath(_ environment: [String: String]) -> String? {
        if let c = environment["XDG_CACHE_HOME"], !c.isEmpty { return c + "/abacus/rates.json" }
        if let h = environment["HOME"], !h.isEmpty { return h + "/.cache/abacus/rates.json" }
        return nil
    }

    /// An integer setting from the environment. Parsed as an integer, never through a
    /// floating-point value (`inf`, `nan`, `1e300` are simply not integers); out of range
    /// or not a number, the default stays and the reason is kept.
    static func wholeNumber(_ environment: [String: String], _ name: String, in range: ClosedRange<Int>, unit: String,
                            default value: Int) -> (value: Int, refused: String?) {
        guard let text = environment[name], !text.isEmpty else { return (value, nil) }
        guard let n = Int(text), range.contains(n) else {
            return (value, Problem.badSetting(name: name, value: text, range: range, unit: unit).message)
        }
        return (n, nil)
    }

    // MARK: The cache

    /// Reads the cache; a missing cache is empty, a corrupt one (or a file that is not a
    /// cache) is reported and ignored. A snapshot fetched "in the future" counts as expired.
    func loadCache(report: @escaping (String) -> Void) -> [RateSnapshot] {
        warn = report
        cached = []
        guard let cachePath, !cachePath.isEmpty, FileManager.default.fileExists(atPath: cachePath) else { return [] }
        var snapshots: [RateSnapshot]
        do {
            snapshots = try RateCache.read(path: cachePath)
        } catch {
            report("warning: ignoring the rates cache: " + RateCache.printable(error.description))
            return []
        }
        let now = Date()
        for i in snapshots.indices {
            let s = snapshots[i]
            guard let text = s.fetchedAt else { continue }
            guard let fetched = LiveRates.parseTime(text) else {
                report("warning: ignoring the rates cache: " + Problem.badFetchTime(cachePath, s, text).message)
                return []
            }
            if case .future = LiveRates.age(of: fetched, now: now) {
                report("warning: " + Problem.fetchedInTheFuture(cachePath, s, text).message)
                snapshots[i].fetchedAt = nil
            }
        }
        cached = snapshots
        return cached
    }

    /// Adds the cached snapshots to a freshly loaded ledger, after its own sources.
    func attach(to ledger: inout Ledger) {
        firstLiveOrder = ledger.nextMarketOrder
        ledger.addMarketSnapshots(cached)
    }

    func newestCached(base: Currency) -> RateSnapshot? {
        cached.filter { $0.base == base }.max { ($0.fetchedAt ?? "", $0.day) < ($1.fetchedAt ?? "", $1.day) }
    }

    // MARK: Refresh

    /// The provider URL for a base. With the key (percent-encoded, so that it cannot add
    /// query parameters) for the request only; with `…` for anything shown.
    func url(base: Currency, withKey: Bool) -> String {
        let filled = withKey ? LiveRates.percentEncoded(key ?? "") : "…"
        return urlTemplate.replacingOccurrences(of: "{base}", with: base.code).replacingOccurrences(of: "{key}", with: filled)
    }

    /// Everything but RFC 3986's unreserved characters percent-encoded.
    static func percentEncoded(_ s: String) -> String {
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return s.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    /// `text` with every occurrence of the key (as typed or percent-encoded) shown as `…`, made printable.
    func redacted(_ text: String) -> String {
        var t = text
        if let key, !key.isEmpty {
            t = t.replacingOccurrences(of: key, with: "…")
            t = t.replacingOccurrences(of: LiveRates.percentEncoded(key), with: "…")
        }
        return RateCache.printable(t, limit: 400)
    }

    func refresh(base requested: Currency?, force: Bool, market: MarketRates) throws(LiveRateError) -> LiveRefresh {
        let base = requested ?? Currency(code: "USD") ?? market.currency
        if offline {
            return LiveRefresh(snapshots: [], message: "offline: no request made; market rates come from the ledger and the cache" + newestNote(market))
        }
        if let refused = refusedTimeout ?? refusedTTL { throw LiveRateError(refused) }
        guard LiveRates.ttlRange.contains(ttlMinutes) else {
            throw LiveRateError(Problem.badSetting(name: ".set ttl", value: String(ttlMinutes), range: LiveRates.ttlRange, unit: "minutes").message)
        }
        let now = Date()
        if !force, let fresh = newestCached(base: base), let fetched = fresh.fetchedAt.flatMap(LiveRates.parseTime),
           case .minutes(let minutes) = LiveRates.age(of: fetched, now: now), minutes < ttlMinutes {
            return LiveRefresh(snapshots: [], message: "rates for \(base) fetched \(minutes) min ago (within the \(ttlMinutes)-minute TTL), rates of \(fresh.day); `rates refresh --force` fetches anyway")
        }
        let shown = redacted(url(base: base, withKey: false))
        guard let url = URL(string: url(base: base, withKey: true)), let scheme = url.scheme?.lowercased(),
              scheme == "https" || scheme == "http", let host = url.host, !host.isEmpty else {
            throw LiveRateError(Problem.unusableURL(shown).message)
        }
        if let key {
            // A key with a line break would write headers of its own.
            guard !key.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                throw LiveRateError(Problem.keyWithControlCharacters.message)
            }
            guard scheme == "https" || LiveRates.isLoopback(host) else {
                throw LiveRateError(Problem.keyOverPlainHTTP(host: redacted(host)).message)
            }
        }
        let source = redacted(host)
        let body: [UInt8]
        switch fetch(url) {
        case .failure(let reason): return carryOn(Problem.fetchFailed(url: shown, reason: redacted(reason.description)), market)
        case .success(let data): body = data
        }
        let parsed: RateCache.ProviderSnapshot
        do {
            let latest = max(market.today, LiveRates.utcDay(now)).advanced(by: 1)
            parsed = try RateCache.parseResponse(body, expecting: .init(base: base, latestDay: latest), source: source, fetchedAt: LiveRates.timestamp(now))
        } catch {
            let place = error.line.flatMap { l in error.column.map { "line \(l), column \($0): " } } ?? ""
            return carryOn(Problem.badResponse(url: shown, reason: redacted(place + error.message)), market)
        }
        cached.removeAll { $0.base == parsed.snapshot.base && $0.day == parsed.snapshot.day }
        cached.append(parsed.snapshot)
        var notes: [String] = []
        if let cachePath {
            do {
                try RateCache.writeAtomically(RateCache.document(cached), to: cachePath)
                notes.append("cached in \(cachePath)")
            } catch {
                notes.append(warning(Problem.notCached(error.description), briefly: "not cached"))
            }
        }
        if firstLiveOrder == Int.max { firstLiveOrder = market.ledger.nextMarketOrder }
        if !parsed.skipped.isEmpty {
            let n = parsed.skipped.count
            notes.append("skipped \(n) \(n == 1 ? "code" : "codes") outside ISO 4217 (\(parsed.skipped.prefix(5).joined(separator: ", "))\(n > 5 ? ", …" : ""))")
        }
        let snap = parsed.snapshot
        return LiveRefresh(snapshots: [snap], message: "fetched \(snap.rates.count) \(snap.base) rates of \(snap.day) from \(source)" + (notes.isEmpty ? "" : "; " + notes.joined(separator: "; ")))
    }

    /// A failed fetch: the reason as a warning, and as the statement's answer what Abacus uses instead.
    func carryOn(_ problem: Problem, _ market: MarketRates) -> LiveRefresh {
        LiveRefresh(snapshots: [], message: warning(problem, briefly: "no new rates") + "; carrying on with the ledger's and cached rates" + newestNote(market))
    }

    /// Sends the problem to stderr and returns `brief`; without a place for warnings, returns the problem itself.
    func warning(_ problem: Problem, briefly brief: String) -> String {
        guard let warn else { return problem.message }
        warn("warning: " + problem.message)
        return brief
    }

    /// " (newest dated 2025-12-31, 326 days old)", with the fetch time when the newest was fetched.
    func newestNote(_ market: MarketRates) -> String {
        let ledger = market.ledger
        let days = ledger.snapshots.map(\.day) + ledger.pairs.compactMap(\.day)
        guard let newest = days.max() else { return "; there are none" }
        let old = Int(market.today.number) - Int(newest.number)
        var note = " (newest dated \(newest), " + (old < 0 ? "after today" : old == 0 ? "today's" : old == 1 ? "1 day old" : "\(old) days old")
        let fetched = ledger.snapshots.filter { $0.day == newest }.compactMap { $0.fetchedAt.flatMap(LiveRates.parseTime) }.max()
        if let fetched { note += ", " + LiveRates.describe(LiveRates.age(of: fetched, now: Date())) }
        return note + ")"
    }

    static func isLoopback(_ host: String) -> Bool {
        let h = host.lowercased()
        return h == "localhost" || h.hasPrefix("127.") || h == "::1" || h == "[::1]"
    }

    // MARK: Fetching

    enum Fetch { case success([UInt8]), failure(FetchFailure) }

    enum FetchFailure: CustomStringConvertible {
        case timedOut(seconds: Int)
        case http(Int)
        case tooLarge
        case redirectedElsewhere(String)
        case transport(String)

        var description: String {
            switch self {
            case .timedOut(let s): return "timed out after \(s) s"
            case .http(let code): return "HTTP \(code)"
            case .tooLarge: return "the response is larger than \(RateCache.responseLimit >> 20) MB"
            case .redirectedElsewhere(let target): return "redirected to \(target), which is not the provider's own host and port; not followed, so neither the request nor the key went there"
            case .transport(let reason): return reason
            }
        }
    }

    /// One GET through a delegate, which is what lets Abacus refuse redirects to other
    /// origins (a completion-handler task follows every redirect, headers and all) and
    /// stop reading a response past the size limit.
    final class Download: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        // Touched on the session's serial delegate queue, read after `finished` is signalled.
        let origin: URL
        let timeoutSeconds: Int
        var body: [UInt8] = []
        var outcome: Fetch?
        let finished = DispatchSemaphore(value: 0)

        init(origin: URL, timeoutSeconds: Int) {
            self.origin = origin
            self.timeoutSeconds = timeoutSeconds
        }

        static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
            func port(_ u: URL) -> Int? { u.port ?? (u.scheme?.lowercased() == "https" ? 443 : u.scheme?.lowercased() == "http" ? 80 : nil) }
            return a.scheme?.lowercased() == b.scheme?.lowercased() && a.host?.lowercased() == b.host?.lowercased() && port(a) == port(b)
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
            if let target = request.url, Download.sameOrigin(origin, target) {
                completionHandler(request)
                return
            }
            let target = request.url.map { u in (u.scheme ?? "?") + "://" + (u.host ?? "?") + (u.port.map { ":\($0)" } ?? "") } ?? "an unusable URL"
            outcome = .failure(.redirectedElsewhere(target))
            completionHandler(nil)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
            if response.expectedContentLength > Int64(RateCache.responseLimit) {
                outcome = .failure(.tooLarge)
                completionHandler(.cancel)
                return
            }
            if outcome == nil, let http = response as? HTTPURLResponse, !(200..<300).contains(http.statusCode) {
                outcome = .failure(.http(http.statusCode))
            }
            completionHandler(.allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            body += data
            if body.count > RateCache.responseLimit, outcome == nil {
                outcome = .failure(.tooLarge)
                dataTask.cancel()
            }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
            if outcome == nil {
                if let error {
                    outcome = .failure((error as NSError).code == NSURLErrorTimedOut ? .timedOut(seconds: timeoutSeconds) : .transport(error.localizedDescription))
                } else {
                    outcome = .success(body)
                }
            }
            finished.signal()
        }
    }

    func fetch(_ url: URL) -> Fetch {
        // URLSession runs on libcurl, loaded only now (Sources/CCurlOnDemand).
        var reason: UnsafePointer<CChar>?
        guard abacus_curl_load(&reason) != 0 else {
            return .failure(.transport("libcurl.so.4 could not be loaded (\(reason.map { String(cString: $0) } ?? "no reason given")); install libcurl4"))
        }
        var request = URLRequest(url: url, timeoutInterval: TimeInterval(timeoutSeconds))
        if let key, !urlTemplate.contains("{key}") { request.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization") }
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = TimeInterval(timeoutSeconds)
        configuration.timeoutIntervalForResource = TimeInterval(timeoutSeconds)
        configuration.urlCache = nil
        configuration.httpShouldSetCookies = false
        let download = Download(origin: url, timeoutSeconds: timeoutSeconds)
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let urlSession = URLSession(configuration: configuration, delegate: download, delegateQueue: queue)
        // The session holds its delegate until invalidated.
        defer { urlSession.invalidateAndCancel() }
        urlSession.dataTask(with: request).resume()
        if download.finished.wait(timeout: .now() + .seconds(timeoutSeconds + 2)) == .timedOut {
            return .failure(.timedOut(seconds: timeoutSeconds))
        }
        return download.outcome ?? .failure(.transport("no answer"))
    }

    // MARK: Status

    func status(market: MarketRates) -> LiveRatesStatus {
        let now = Date()
        var sources: [LiveRatesStatus.Source] = []
        let ledger = market.ledger
        // Rate files (`--rates`, `.rates`) name themselves as the source of their rates.
        let fileNames = ledger.rateFiles.map(RateFile.sourceName)
        func rateFile(_ source: String?) -> String? {
            guard let source else { return nil }
            return fileNames.first { source == $0 || source.hasPrefix($0 + ": ") }
        }
        let ledgerSnapshots = ledger.snapshots.filter { $0.order < firstLiveOrder && rateFile($0.source) == nil }
        let liveSnapshots = ledger.snapshots.filter { $0.order >= firstLiveOrder }
        let ledgerDays = ledgerSnapshots.map(\.day) + ledger.pairs.filter { rateFile($0.source) == nil }.compactMap(\.day)
        if let newest = ledgerDays.max() {
            let fetched = ledgerSnapshots.filter { $0.day == newest }.compactMap(\.fetchedAt).max()
            sources.append(.init(kind: "ledger", from: ledger.files.joined(separator: ", "), newest: newest, fetched: fetched.map { RateCache.printable($0) },
                                 age: age(newestDay: newest, fetched: fetched, today: market.today, now: now)))
        }
        for name in fileNames {
            let days = ledger.snapshots.filter { $0.order < firstLiveOrder && rateFile($0.source) == name }.map(\.day)
                + ledger.pairs.filter { rateFile($0.source) == name }.compactMap(\.day)
            guard let newest = days.max() else { continue }
            sources.append(.init(kind: "file", from: RateCache.printable(name), newest: newest, fetched: nil,
                                 age: age(newestDay: newest, fetched: nil, today: market.today, now: now)))
        }
        for base in Set(liveSnapshots.map(\.base)).sorted() {
            let mine = liveSnapshots.filter { $0.base == base }
            guard let newest = mine.map(\.day).max() else { continue }
            let fetched = mine.compactMap(\.fetchedAt).max()
            sources.append(.init(kind: "cache", from: "\(base) from \(RateCache.printable(mine.last?.source ?? "provider"))", newest: newest,
                                 fetched: fetched, age: age(newestDay: newest, fetched: fetched, today: market.today, now: now)))
        }
        let ttl = refusedTTL == nil ? "TTL \(ttlMinutes) min" : "TTL refused (ABACUS_RATES_TTL), \(ttlMinutes) min meanwhile"
        let settings = (offline ? "offline" : "provider \(LiveRates.host(of: redacted(url(base: Currency(code: "USD") ?? market.currency, withKey: false))))")
            + ", " + ttl + (cachePath.map { ", cache \($0)" } ?? "")
        return LiveRatesStatus(sources: sources, settings: settings)
    }

    func age(newestDay: Day, fetched: String?, today: Day, now: Date) -> String {
        if let fetched, let t = LiveRates.parseTime(fetched) { return LiveRates.describe(LiveRates.age(of: t, now: now)) }
        let days = Int(today.number) - Int(newestDay.number)
        return days < 0 ? "dated after today" : "\(days) \(days == 1 ? "day" : "days")"
    }

    // MARK: Time

    enum Age { case minutes(Int), future }

    /// Whole minutes since `t`; a time more than a few minutes ahead of the clock is `future`.
    static func age(of t: Date, now: Date) -> Age {
        let seconds = now.timeIntervalSince(t)
        // Dates come from ISO 8601 text (years 0000–9999), so this is always finite and small;
        // checked anyway, because converting a Double that is not traps.
        guard seconds.isFinite, abs(seconds) < 1e12 else { return .future }
        if seconds < -skewSeconds { return .future }
        return .minutes(max(0, Int((seconds / 60).rounded(.down))))
    }

    static func describe(_ age: Age) -> String {
        switch age {
        case .future: return "fetched in the future (clock skew?)"
        case .minutes(let m) where m < 120: return "fetched \(m) min ago"
        case .minutes(let m) where m < 48 * 60: return "fetched \(m / 60) h ago"
        case .minutes(let m): return "fetched \(m / 1440) days ago"
        }
    }

    /// The calendar day of `d` in UTC.
    static func utcDay(_ d: Date) -> Day {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let c = calendar.dateComponents([.year, .month, .day], from: d)
        return Day(year: c.year ?? 1970, month: c.month ?? 1, day: c.day ?? 1) ?? Day(number: 0)
    }

    static func host(of url: String) -> String {
        URL(string: url)?.host ?? url
    }

    static func timestamp(_ d: Date) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        return f.string(from: d)
    }

    static func parseTime(_ s: String) -> Date? {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        return f.date(from: s)
    }

    // MARK: Messages

    /// Every live-rates problem, worded in one place.
    enum Problem {
        case badSetting(name: String, value: String, range: ClosedRange<Int>, unit: String)
        case unusableURL(String)
        case keyWithControlCharacters
        case keyOverPlainHTTP(host: String)
        case fetchFailed(url: String, reason: String)
        case badResponse(url: String, reason: String)
        case notCached(String)
        case badFetchTime(String, RateSnapshot, String)
        case fetchedInTheFuture(String, RateSnapshot, String)

        var message: String {
            switch self {
            case .badSetting(let name, let value, let range, let unit):
                return "\(name) is \"\(RateCache.printable(value, limit: 40))\": expected a whole number of \(unit) from \(range.lowerBound) to \(range.upperBound)"
            case .unusableURL(let url):
                return "the rates provider URL is not a usable http(s) URL: \(url)"
            case .keyWithControlCharacters:
                return "the rates API key contains control characters; it was not sent"
            case .keyOverPlainHTTP(let host):
                return "the rates API key is sent only over https (or to this machine); \(host) is plain http, so nothing was sent"
            case .fetchFailed(let url, let reason):
                return "could not fetch rates from \(url): \(reason)"
            case .badResponse(let url, let reason):
                return "the rates provider sent an unusable response from \(url): \(reason)"
            case .notCached(let reason):
                return "the fetched rates were not cached: \(reason)"
            case .badFetchTime(let path, let s, let text):
                return "\(path): the \(s.base) rates of \(s.day) have fetchedAt \"\(RateCache.printable(text, limit: 40))\", not an ISO 8601 date-time"
            case .fetchedInTheFuture(let path, let s, let text):
                return "the rates cache \(path): the \(s.base) rates of \(s.day) say they were fetched at \(RateCache.printable(text, limit: 40)), in the future; treated as expired"
            }
        }
    }
}
