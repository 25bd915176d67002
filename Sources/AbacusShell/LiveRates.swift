// Live exchange rates: `rates refresh`, the rates cache and `rates status`.
//
// A refresh asks the provider (`ABACUS_RATES_URL`, `{base}` and `{key}` filled in;
// Frankfurter by default) for the latest snapshot, over HTTPS with URLSession and a
// 10-second timeout, unless the cache already holds one for that base fetched
// within the time to live (`ABACUS_RATES_TTL` minutes, or `.set ttl`; 30 by
// default) — `--force` fetches anyway, `--offline` never touches the network. The
// snapshot is validated, written to the cache atomically
// (`$XDG_CACHE_HOME/abacus/rates.json` or `--rates-cache`), and added to the
// session's market rates; the ledger file is never touched. Any failure is a clear
// message and Abacus carries on with the ledger's and the cache's rates. The API
// key is sent but never printed, logged or stored.

import AbacusCore
import AbacusQuery
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

final class LiveRates: LiveRatesService {
    static let defaultURL = "https://api.frankfurter.app/latest?from={base}"

    let cachePath: String?
    var urlTemplate: String
    var key: String?
    var ttlMinutes: Int
    let offline: Bool
    let timeout: TimeInterval
    /// Snapshots read from or written to the cache, newest last.
    private(set) var cached: [RateSnapshot] = []
    /// Market sources at or after this order came from the cache or a refresh, not the ledger.
    private(set) var firstLiveOrder = Int.max

    init(environment: [String: String], cachePath: String?, offline: Bool) {
        self.cachePath = cachePath ?? LiveRates.defaultCachePath(environment)
        self.urlTemplate = environment["ABACUS_RATES_URL"].flatMap { $0.isEmpty ? nil : $0 } ?? LiveRates.defaultURL
        self.key = environment["ABACUS_RATES_KEY"].flatMap { $0.isEmpty ? nil : $0 }
        self.ttlMinutes = environment["ABACUS_RATES_TTL"].flatMap { Int($0) }.map { max(0, $0) } ?? 30
        self.offline = offline
        self.timeout = environment["ABACUS_RATES_TIMEOUT"].flatMap { Double($0) } ?? 10
    }

    static func defaultCachePath(_ environment: [String: String]) -> String? {
        if let c = environment["XDG_CACHE_HOME"], !c.isEmpty { return c + "/abacus/rates.json" }
        if let h = environment["HOME"], !h.isEmpty { return h + "/.cache/abacus/rates.json" }
        return nil
    }

    /// Reads the cache; a missing cache is empty, a corrupt one is reported and ignored.
    func loadCache(report: (String) -> Void) -> [RateSnapshot] {
        guard let cachePath, FileManager.default.fileExists(atPath: cachePath) else { return [] }
        do {
            cached = try RateCache.read(path: cachePath)
        } catch {
            report("warning: ignoring the rates cache: \(error.description)")
            cached = []
        }
        return cached
    }

    /// The provider URL for a base, with the key filled in (for the request only).
    func url(base: Currency, withKey: Bool) -> String {
        urlTemplate.replacingOccurrences(of: "{base}", with: base.code)
            .replacingOccurrences(of: "{key}", with: withKey ? (key ?? "") : "…")
    }

    func refresh(base requested: Currency?, force: Bool, session: Session) throws(QueryError) -> String {
        let base = requested ?? Currency(code: "USD") ?? session.currency
        let now = Date()
        if offline {
            return "offline: no request made; market rates come from the ledger and the cache" + newestNote(session)
        }
        if !force, let fresh = newestCached(base: base), let fetched = fresh.fetchedAt.flatMap(LiveRates.parseTime) {
            let minutes = Int(now.timeIntervalSince(fetched) / 60)
            if minutes < ttlMinutes {
                return "rates for \(base) fetched \(minutes) min ago (within the \(ttlMinutes)-minute TTL), rates of \(fresh.day); `rates refresh --force` fetches anyway"
            }
        }
        let shown = url(base: base, withKey: false)
        guard let url = URL(string: url(base: base, withKey: true)), url.scheme == "https" || url.scheme == "http" else {
            throw QueryError(.unsupported("the rates provider URL is not a usable http(s) URL: \(shown)"), at: nil)
        }
        let body: [UInt8]
        switch fetch(url) {
        case .failure(let reason):
            throw QueryError(.unsupported("could not fetch rates from \(shown): \(reason); carrying on with the ledger's and cached rates" + newestNote(session)), at: nil)
        case .success(let data):
            body = data
        }
        let fetchedAt = LiveRates.timestamp(now)
        let parsed: RateCache.ProviderSnapshot
        do {
            parsed = try RateCache.parseResponse(body, source: LiveRates.host(of: shown), fetchedAt: fetchedAt)
        } catch {
            throw QueryError(.unsupported("the rates provider sent an unusable response (\(error.message)); carrying on with the ledger's and cached rates" + newestNote(session)), at: nil)
        }
        cached.removeAll { $0.base == parsed.snapshot.base && $0.day == parsed.snapshot.day }
        cached.append(parsed.snapshot)
        var notes: [String] = []
        if let cachePath {
            do {
                try RateCache.writeAtomically(RateCache.document(cached), to: cachePath)
                notes.append("cached in \(cachePath)")
            } catch {
                notes.append("not cached: \(error.description)")
            }
        }
        if firstLiveOrder == Int.max { firstLiveOrder = session.ledger.nextMarketOrder }
        session.addMarketSnapshots([parsed.snapshot])
        if !parsed.skipped.isEmpty {
            let n = parsed.skipped.count
            notes.append("skipped \(n) \(n == 1 ? "code" : "codes") outside ISO 4217 (\(parsed.skipped.prefix(5).joined(separator: ", "))\(n > 5 ? ", …" : ""))")
        }
        let snap = parsed.snapshot
        return "fetched \(snap.rates.count) \(snap.base) rates of \(snap.day) from \(LiveRates.host(of: shown))" + (notes.isEmpty ? "" : "; " + notes.joined(separator: "; "))
    }

    /// Adds the cached snapshots to a freshly loaded ledger, after its own sources.
    func attach(to ledger: inout Ledger) {
        firstLiveOrder = ledger.nextMarketOrder
        ledger.addMarketSnapshots(cached)
    }

    func newestCached(base: Currency) -> RateSnapshot? {
        cached.filter { $0.base == base }.max { ($0.fetchedAt ?? "", $0.day) < ($1.fetchedAt ?? "", $1.day) }
    }

    /// ", newest dated 2025-12-31 (326 days old)".
    func newestNote(_ session: Session) -> String {
        let days = session.ledger.snapshots.map(\.day) + session.ledger.pairs.compactMap(\.day)
        guard let newest = days.max() else { return "; there are none" }
        return " (newest dated \(newest), \(session.today.number - newest.number) days old)"
    }

    enum Fetch { case success([UInt8]), failure(String) }

    func fetch(_ url: URL) -> Fetch {
        var request = URLRequest(url: url, timeoutInterval: timeout)
        if let key, !urlTemplate.contains("{key}") { request.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization") }
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        final class Box: @unchecked Sendable { var result = Fetch.failure("no answer") }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        let urlSession = URLSession(configuration: configuration)
        let seconds = Int(timeout)
        urlSession.dataTask(with: request) { data, response, error in
            if let error {
                box.result = .failure((error as NSError).code == NSURLErrorTimedOut ? "timed out after \(seconds) s" : error.localizedDescription)
            } else if let http = response as? HTTPURLResponse, !(200..<300).contains(http.statusCode) {
                box.result = .failure("HTTP \(http.statusCode)")
            } else {
                box.result = .success(Array(data ?? Data()))
            }
            done.signal()
        }.resume()
        if done.wait(timeout: .now() + timeout + 2) == .timedOut { return .failure("timed out after \(Int(timeout)) s") }
        urlSession.finishTasksAndInvalidate()
        return box.result
    }

    func status(session: Session) -> ResultSet {
        let now = Date()
        var rows: [[Cell]] = []
        let ledgerSnapshots = session.ledger.snapshots.filter { $0.order < firstLiveOrder }
        let liveSnapshots = session.ledger.snapshots.filter { $0.order >= firstLiveOrder }
        let ledgerDays = ledgerSnapshots.map(\.day) + session.ledger.pairs.compactMap(\.day)
        if let newest = ledgerDays.max() {
            let fetched = ledgerSnapshots.filter { $0.day == newest }.compactMap(\.fetchedAt).max()
            rows.append([.text("ledger"), .text(session.ledger.files.joined(separator: ", ")), .text(newest.description),
                         fetched.map(Cell.text) ?? .empty, .text(age(newestDay: newest, fetched: fetched, today: session.today, now: now))])
        }
        for base in Set(liveSnapshots.map(\.base)).sorted() {
            let mine = liveSnapshots.filter { $0.base == base }
            guard let newest = mine.map(\.day).max() else { continue }
            let fetched = mine.compactMap(\.fetchedAt).max()
            rows.append([.text("cache"), .text("\(base) from \(mine.last?.source ?? "provider")"), .text(newest.description),
                         fetched.map(Cell.text) ?? .empty, .text(age(newestDay: newest, fetched: fetched, today: session.today, now: now))])
        }
        let footer = (offline ? "offline" : "provider \(LiveRates.host(of: url(base: Currency(code: "USD") ?? session.currency, withKey: false)))")
            + ", TTL \(ttlMinutes) min" + (cachePath.map { ", cache \($0)" } ?? "")
        return ResultSet(columns: ["source", "from", "newest rate", "fetched", "age"], rows: rows, footer: footer)
    }

    func age(newestDay: Day, fetched: String?, today: Day, now: Date) -> String {
        if let fetched, let t = LiveRates.parseTime(fetched) {
            let minutes = Int(now.timeIntervalSince(t) / 60)
            if minutes < 120 { return "fetched \(minutes) min ago" }
            if minutes < 48 * 60 { return "fetched \(minutes / 60) h ago" }
            return "fetched \(minutes / 1440) days ago"
        }
        return "\(today.number - newestDay.number) days"
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
}
