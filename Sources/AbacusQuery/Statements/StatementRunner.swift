// How a statement runs: each kind of statement is a `StatementRunner` in a file
// of its own beside this one, and this is the one place that maps the syntax tree
// to them. A new statement is a new file here and a new line below.

import AbacusCore

protocol StatementRunner {
    func run(in session: Session) throws(QueryError) -> Output
}

extension Statement {
    var runner: any StatementRunner {
        switch self {
        case .query(let q) where q.per != nil: return CrosstabStatement(query: q)
        case .query(let q) where q.versus != nil: return ComparisonStatement(query: q)
        case .query(let q): return QueryStatement(query: q)
        case .explain(let q): return ExplainStatement(query: q)
        case .report(let r): return r.runner
        case .explainReport(let r): return ExplainReportStatement(report: r)
        case .convert(let c): return ConvertStatement(conversion: c)
        case .rate(let r): return RateStatement(lookup: r)
        case .rates(let listing): return RatesStatement(listing: listing)
        case .setRate(let pair, let rate): return SetRateStatement(pair: pair, rate: rate)
        case .unsetRate(let pair, let range): return UnsetRateStatement(pair: pair, range: range)
        case .setCurrency(let c): return SetCurrencyStatement(currency: c)
        case .ratesRefresh(let base, let force): return RatesRefreshStatement(base: base, force: force)
        case .ratesStatus: return RatesStatusStatement()
        case .books: return BooksStatement()
        case .categories: return CategoriesStatement()
        case .convertUnits(let request): return ConvertUnitsStatement(request: request)
        case .setMaxRateAge(let days): return SetMaxRateAgeStatement(days: days)
        case .watch(let list): return WatchStatement(currencies: list)
        case .unwatch(let list, let range): return UnwatchStatement(currencies: list, range: range)
        case .watching: return WatchingStatement()
        case .ratesImport(let path, let range): return RatesImportStatement(path: path, range: range)
        case .define(let d): return DefineStatement(definition: d)
        case .call(let c): return CallStatement(call: c)
        case .defines: return DefinesStatement()
        case .undefine(let name, let range): return UndefineStatement(name: name, range: range)
        }
    }
}

extension Statement {
    /// Whether the statement reads the entries in memory, whatever engine the session has:
    /// a query that tests remarks. A query, each plan a crosstab or a comparison runs, and
    /// each sum a report (balance, budget, net worth) asks, finds out when the database leaves
    /// it to memory (`ReportEngine`); `books` and `categories` count in the database
    /// (docs/postgres.md).
    var readsResidentEntries: Bool {
        switch self {
        // A remark is free text that resolves against the remarks there are (in any letter
        // case), which only the resident entries know.
        case .query(let q), .explain(let q): return q.tests(.remarks)
        default: return false
        }
    }
}

extension Query {
    /// Whether the query's condition tests a field.
    func tests(_ field: Field) -> Bool {
        func tests(_ c: Condition) -> Bool {
            switch c {
            case .comparison(let cmp): return cmp.field == field
            case .and(let cs), .or(let cs): return cs.contains(where: tests)
            case .not(let c): return tests(c)
            }
        }
        return condition.map(tests) ?? false
    }
}
