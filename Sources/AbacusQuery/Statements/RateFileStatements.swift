// `rates import FILE` adds a rate file's market rates to the session, as
// `--rates FILE` does (the host keeps the file's rates across `.load`); `set max
// rate age N days` makes market rates older than that an error, as a missing rate
// is, and `unset max rate age` lifts it.

import AbacusCore

struct RatesImportStatement: StatementRunner {
    let path: String
    let range: Range<Int>

    func run(in session: Session) throws(QueryError) -> Output {
        guard let host = session.host else { throw QueryError(.unsupported("rate files are not available here"), at: nil) }
        do throws(QueryError) {
            return .message(try host.importRates(path))
        } catch {
            var located = error
            if located.range == nil { located.range = range }
            throw located
        }
    }
}

struct SetMaxRateAgeStatement: StatementRunner {
    let days: Int?

    func run(in session: Session) throws(QueryError) -> Output {
        session.maxRateAge = days
        guard let days else { return .message("market rates of any age convert (those over 7 days old still warn)") }
        return .message("market rates more than \(days) \(days == 1 ? "day" : "days") older than the date they convert for are now an error")
    }
}
