// `.help` and its topics. Every example here runs on the demo ledger (a test runs them).

enum Help {
    static let topics = ["query", "where", "dates", "reports", "rates", "units", "budget", "networth", "statements", "format", "commands", "database"]

    static func text(topic: String) -> String? {
        switch topic.lowercased() {
        case "": return overview
        case "query", "queries", "sum", "count": return query
        case "where", "conditions", "filter": return conditions
        case "dates", "date", "periods", "period": return dates
        case "reports", "report", "per", "vs", "crosstab", "compare", "define", "defines", "share": return reports
        case "rates", "rate", "convert", "currency", "currencies", "watch": return rates
        case "units", "unit": return units
        case "budget", "budgets", "alerts", "tree", "splits": return budget
        case "networth", "net worth", "balance", "balances", "holdings", "assets", "liabilities": return networth
        case "statements", "statement": return statements
        case "format", "formats", "output": return format
        case "commands", "command", "dot": return commands
        case "database", "db", "postgres", "postgresql", "import": return database
        default: return nil
        }
    }

    static let overview = """
    Abacus answers questions about a multi-currency ledger. One statement per line;
    `;` separates statements, `\\` at the end of a line continues it (so does an open
    parenthesis or quote), and `#` or `--` starts a comment.

      sum expenses in INR by category since 2025-10
      count entries by book
      convert 100 SGD to INR

    Topics: .help query | where | dates | reports | rates | units | budget | networth | statements | format | commands | database
    """

    static let database = """
    A ledger kept in PostgreSQL (started from the command line, not from here):

      abacus --db postgres://USER@HOST:5432/DB --import ledger.json   load it (all or nothing)
      abacus --db postgres://USER@HOST:5432/DB                        open the shell on it
      abacus --db postgres://USER@HOST:5432/DB -e 'count entries by book'

    ABACUS_DATABASE_URL works as --db; PGPASSWORD, PGHOST, PGPORT, PGUSER, PGDATABASE
    and PGCONNECT_TIMEOUT fill in what the URL leaves out; ABACUS_DATABASE_TIMEOUT (300)
    limits one statement's seconds. --import checks the files as a ledger file is checked;
    a refused file leaves the database as it was.

    Every statement gives the answer it gives on the JSON file. Counts, sums, avg, min,
    max and list, native or converted, by any key (top category too), where amount …,
    where party ~ … (any name in any letter case), per … and vs … too, run in the
    database (explain shows the SQL), and so do the sums balance, budget and networth
    ask; holdings needs no entries. The others (remarks ~ …, some tests of amounts)
    read the entries into memory, once, the first time one needs them (it says so).
    A server that cannot be reached, a wrong password or a missing database is one line
    saying what to do (status 2); a statement whose server went away fails alone
    (status 1): start Abacus again to reconnect.
    """

    static let query = """
    AGG [SUBJECT] [in CUR|native] [by KEY, ...] [per KEY] [where COND] [PERIOD ...]
        [at market|latest|DATE] [with rate A/B = N, ...] [with share] [with running total]
        [order by amount|count|date|KEY [asc|desc]] [top N] [vs ALTERNATIVE]   (per, vs: .help reports)

      AGG      sum count avg min max list
      SUBJECT  expenses (shown positive) income transfers entries (the default)
      KEY      category book party payment currency tag day week month quarter year, top category

    Examples:
      sum expenses in INR by category since 2025-10
      avg expenses by book during 2025
      max expenses in USD by month
      sum expenses by category order by amount desc top 5
      sum expenses by party order by count desc top 5
      list expenses where amount > 5000 order by amount desc top 10
      list expenses order by party top 10
      sum expenses in native by book

    top N without order by keeps the N largest; the total row then says "Total (top N)".
    list … show remarks, tags, payment, currency, id: more columns in the table (JSON has them all).
    order by count ranks by the number of entries, whatever the aggregate.
    with share adds each row's percentage of all rows; with running total, the sum so far
    (grouped sum or count: sum expenses by category with share with running total).
    """

    static let conditions = """
    where FIELD OP VALUE, combined with and, or, not and parentheses.
      FIELD  amount category book party payment currency tag remarks date
      OP     = != < <= > >= ~ (contains, any case) in (...) not in (...)
    Names match as written, or in any letter case when none does; quote a name that
    holds a keyword ("Top Up", 'Cash in Hand': double or single quotes). (none),
    unquoted, stands for no value (party = (none)); "(none)" quoted is a name.

    Examples:
      sum expenses where category = "Food & Dining"
      count entries where party ~ "uber" or remarks ~ "taxi"
      sum expenses by book where not (category in (Rent, Taxes))
      list expenses where amount >= 10000 and date >= 2025-10
      count entries where party = (none) by payment
    """

    static let dates = """
    PERIOD: since D (inclusive) | until D (through the end of D) | before D | on D | during D
    D: 2025 | 2025-10 | 2025-10-05 | 2025-Q4 | 2025-W41 | today | yesterday
       this week|month|quarter|year | last week|month|quarter|year
       last N days|weeks|months|quarters|years (the current one included)
    `today` is the system date, or --today / ABACUS_TODAY.

    Examples:
      sum expenses by month during 2025-Q4
      count entries since 2025-04 until 2025-06
      sum expenses by week during 2025-10
      sum expenses by month during last 2 quarters
    """

    static let reports = """
    Crosstab: per KEY makes one column per value of KEY (every period of the range,
    empty ones included, for day|week|month|quarter|year), one row per `by` group;
    tables add Total and (per a period, for sum and count) Average columns and a
    total row; JSON and CSV hold the cells only. order by amount and top N rank rows
    by their Total.
    Comparison: vs ALTERNATIVE runs the statement again with one thing changed:
      vs previous period | vs same period last year | vs 2025-09   (another period)
      vs booked | vs at market | vs at latest | vs at 2025-12-31   (another valuation)
      vs with rate SGD/INR = 60                                     (other what-if rates)
    and shows both values, change (A − B) and change % ((A − B) / |B|, one decimal).
    with share: each row's percentage of all rows; with running total: the sum so far.
    define NAME(P, …) as STATEMENT saves a statement where $P stands for an argument;
    NAME(ARG, …) runs it (each argument one number, date, code, word or "quoted
    string"); defines lists them, undefine NAME drops one, .help NAME shows one.
    Keep definitions in ~/.abacusrc to have them in every session.

    Examples:
      sum expenses by category per month during 2025-Q4
      count entries by book per quarter during 2025
      sum expenses by book per month during 2025-Q4 order by amount desc top 3
      sum expenses by category during 2025-11 vs previous period top 5
      sum expenses by book during 2025-Q4 vs same period last year
      sum expenses by book at market vs booked
      sum expenses in INR by book vs with rate SGD/INR = 60
      sum expenses by category during 2025 with share with running total
      define monthly(m) as sum expenses by category during $m top 5
      monthly(2025-10)
      defines
    """

    static let rates = """
    Converting an entry uses the first that applies:
      1. what-if: with rate SGD/INR = 55 (in the statement)
      2. booked (default valuation): normalizedAmount / conversionRate / the book's locked rate
      3. custom: set rate in this session, else the ledger's customRates
      4. market: the newest snapshot or pair on or before the entry's date
    Valuation: at market (skip booked) | at latest | at 2025-12-31.
    A missing rate is an error that names the pair. A market rate more than 7 days
    older than the date it converts for is stale: the statement warns (pairs,
    entries, oldest age); `set max rate age N days` (or --max-rate-age N) makes it
    an error, each leg of a chain held to it; `unset max rate age` lifts it.

    Rate files: --rates FILE, `.rates FILE` or `rates import FILE` add market rates
    from the ECB's history CSV, a date,base,currency,rate CSV or a JSON array of
    snapshots and pairs (all or nothing; the file's name is the rates' source).
    Watch list: `watch USD, SGD`, `unwatch SGD`, `watching`; `rates` lists watched
    currencies first, marked ★, and `rates watched` only them (kept between sessions).

    Examples:
      convert 100 SGD to INR
      rate EUR/INR
      rates in USD
      rates SGD/INR since 2025-10
      sum expenses in INR by book at market
      sum expenses in INR by book with rate SGD/INR = 60
      explain sum expenses in INR by book
    """

    static let budget = """
    budget [PERIOD] [in CUR]: each budget's month (this month by default): limit (with what
    carries over), spent (the month's expenses in the category and everything below it,
    in the budget's book if it names one, in the budget's currency), remaining, used %,
    and the highest alert reached (50/80/100% unless the budget says). Tables mark
    alerts (colour, or `!`; `!!` when used up); --format chart draws use against 100%.

    The category tree: a category in a condition or budget includes its subtree;
    `by top category` groups by the root. Split entries: by category (and in category
    conditions) each part counts in its own category; other keys take the entry once.

    Examples:
      budget
      budget 2025-10 in USD
      budget since 2025-10
      sum expenses by top category
      sum expenses where category = Essentials by category
      explain budget
    """

    static let networth = """
    balance [by book] [in CUR] [at DATE]: each account (a book with an openingBalance):
      opening balance + its entries up to DATE (today), in its currency; in CUR converted.
    networth [in CUR] [at DATE]: assets (accounts, assets, holdings), liabilities (loans,
      negative accounts), net worth, core (without assets outside core), tangible,
      volatile (volatile assets and holdings). Records with one id are a history: the
      newest on or before DATE counts. Everything converts at DATE.
    networth by month|quarter|year [PERIOD] [in CUR]: the history, each period's last day.
    holdings [in CUR] [at DATE]: per symbol, quantity, cost, newest price, value, gain.

    Examples:
      balance
      balance in USD at 2025-06-30
      networth
      networth in USD at 2025-06-30
      networth by quarter
      holdings in INR
      explain networth
    """

    static let units = """
    convert N UNIT to UNIT: length (mm cm m km in ft yd mi), mass (mg g kg oz lb st),
    temperature (C F K), with the exact definitions 1 in = 0.0254 m, 1 lb =
    0.45359237 kg, K = C + 273.15. The answer is exact when it ends within 10
    decimals, else 10 significant digits, however large. Units of different kinds,
    or a unit and a currency, do not convert.

    Examples:
      convert 5 kg to lb
      convert 72 F to C
      convert 3 mi to km
    """

    static let statements = """
      sum|count|avg|min|max|list …   a query (.help query)
      explain QUERY                  what it means, the access path, where the rates came from
      convert 100 SGD to INR [at …] [with rate …]
      rate SGD/INR [at …]            the rate used and its source
      rates [in CUR] [where currency ~ "dollar"] [at DATE]
      rates SGD/INR [since D]        the history of one pair
      rates refresh [BASE] [--force] fetch live rates (cached; see ABACUS_RATES_URL)
      rates status                   each source of market rates and its age
      set rate SGD/INR = 55 | unset rate SGD/INR | set currency INR
      set max rate age 30 days | unset max rate age
      rates import FILE              market rates from a file (.help rates)
      watch USD, SGD | unwatch SGD | watching | rates watched
      convert 5 kg to lb             units of length, mass, temperature (.help units)
      books | categories
      budget [PERIOD] [in CUR]       budgets this month (.help budget)
      balance | networth | holdings  accounts, net worth, investments (.help networth)
      define NAME(P, …) as STATEMENT | NAME(ARG, …) | defines | undefine NAME   (.help reports)
    """

    static let format = """
    Output formats (.format NAME, or --format NAME; .format alone names the current one):
      table     boxes, money in each currency's home locale, a total row; a table too
                wide for the window cuts text columns, then leaves some out (shown as …)
      csv       RFC 4180 (CRLF line ends), plain decimal money, the ledger's text as is
      json      one object per statement per line: {"columns", "rows", "currency", "warnings"}
      markdown  a table for documents
      chart     a bar chart of a grouped result, compact money (₹12L, $1.2M); each
                currency of an `in native` result has its own scale; a rate history
                (rates SGD/INR since 2025-10) as columns over time, extremes labelled
    Colour only on a terminal, in the shell and for -e; never for scripts, with
    NO_COLOR or --no-color. Invisible characters in ledger text show as \\n, \\e, \\u{202e}.
    A group without a value is (none) in tables and charts, null in JSON, empty in CSV.

    Examples: each after `.format chart`, `.format csv` or `.format markdown`
      sum expenses in INR by book
      count entries by payment
      sum entries in INR by month during 2025
      list expenses where amount > 50000 order by amount desc top 5
    """

    static let commands = """
      .help [TOPIC]     this help
      .load FILE        add a ledger file to those loaded (it replaces the demo; a file
                        already loaded is read again, picking up an edit)
      .reload           read every loaded ledger file again
      .rates FILE       add a rate file's market rates (as rates import FILE)
      .run SCRIPT       run a script of statements
      .format [NAME]    table | csv | json | markdown | chart (alone: the current one)
      .timer [on|off]   print each statement's time (alone: the current setting)
      .set ttl MINUTES  reuse fetched rates younger than this
      .set rates-url URL / .set rates-key KEY   the live-rates provider (e.g. in ~/.abacusrc)
      .quit             leave (or Ctrl-D)
    A dot command is one line. A path with spaces is quoted (.run "my script.abq")
    or escaped (.run my\\ script.abq); ~/ is the home folder; # and -- start a
    comment only at the start of a word, so .load my--ledger.json loads that file.
    """
}
