// `watch USD, SGD`, `unwatch SGD`, `watching`: the currencies a person follows,
// kept between sessions by the host; `rates` lists them first, marked.

import AbacusCore

struct WatchStatement: StatementRunner {
    let currencies: [Currency]

    func run(in session: Session) throws(QueryError) -> Output {
        guard let host = session.host else { throw QueryError(.unsupported("the watch list is not available here"), at: nil) }
        let added = try host.watch(currencies)
        let already = currencies.filter { !added.contains($0) }
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
        let removed = try host.unwatch(currencies)
        guard !removed.isEmpty else {
            throw QueryError(.unsupported("not watched: " + currencies.map(\.code).joined(separator: ", ")), at: range)
        }
        return .message("no longer watching " + removed.map(\.code).joined(separator: ", "))
    }
}

struct WatchingStatement: StatementRunner {
    func run(in session: Session) throws(QueryError) -> Output {
        let watched = session.host?.watched ?? []
        return .table(ResultSet(columns: [Column("currency", .key(.currency)), Column("name", .text)],
                                rows: watched.map { [.currency($0), .text($0.name)] }))
    }
}
