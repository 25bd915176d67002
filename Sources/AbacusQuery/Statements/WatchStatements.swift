// `watch USD, SGD`, `unwatch SGD`, `watching`: the currencies a person follows,
// kept between sessions by the host; `rates` lists them first, marked.

import AbacusCore

/// The codes named, each once, in the order first named (`watch EUR, EUR`: one code).
private func distinct(_ currencies: [Currency]) -> [Currency] {
    currencies.reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
}

struct WatchStatement: StatementRunner {
    let currencies: [Currency]

    func run(in session: Session) throws(QueryError) -> Output {
        guard let host = session.host else { throw QueryError(.unsupported("the watch list is not available here"), at: nil) }
        let named = distinct(currencies)
        let added = try host.watch(named)
        let already = named.filter { !added.contains($0) }
        var parts: [String] = []
        if !added.isEmpty { parts.append("watching " + added.map(\.code).joined(separator: ", ")) }
        if !already.isEmpty { parts.append("already watched: " + already.map(\.code).joined(separator: ", ")) }
        return .message(parts.joined(separator: "; "))
    }
}

struct UnwatchStatement: StatementRunner {
    let currencies: [Currency]
    let range: Range<Int>

    func run(in session: Session) throws(QueryError) -> Output {
        guard let host = session.host else { throw QueryError(.unsupported("the watch list is not available here"), at: nil) }
        let named = distinct(currencies)
        let removed = try host.unwatch(named)
        let absent = named.filter { !removed.contains($0) }
        guard !removed.isEmpty else {
            throw QueryError(.unsupported("not watched: " + absent.map(\.code).joined(separator: ", ")), at: range)
        }
        // As `watch` says what was watched already: what was not watched is said, not passed over.
        return .message("no longer watching " + removed.map(\.code).joined(separator: ", ")
                        + (absent.isEmpty ? "" : "; not watched: " + absent.map(\.code).joined(separator: ", ")))
    }
}

struct WatchingStatement: StatementRunner {
    func run(in session: Session) throws(QueryError) -> Output {
        let watched = session.host?.watched ?? []
        return .table(ResultSet(columns: [Column("currency", .key(.currency)), Column("name", .text)],
                                rows: watched.map { [.currency($0), .text($0.name)] }))
    }
}
