// abacus: the command line, parsed with swift-argument-parser, handed to the shell.

import AbacusCore
import AbacusShell
import ArgumentParser
import Foundation

/// The shell lives until the process exits: its store (a mapped image, columns of millions of
/// rows) goes with the process, which is quicker than freeing it piece by piece first.
nonisolated(unsafe) var shellUntilExit: Shell?

struct Abacus: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "abacus",
        abstract: "Ask exact questions about money kept in several currencies.",
        // One line per paragraph (`\` joins the source lines): swift-argument-parser wraps
        // each line to the terminal's width, and a line broken by hand breaks twice.
        discussion: """
        Loads one or more ledger files (JSON, version 1) and answers statements such as:
          sum expenses in INR by category since 2025-10
          budget                      (budgets this month, with their alerts)
          networth in USD             (accounts, assets, holdings and loans)
          balance | holdings | networth by month
          sum expenses by category per month during 2025   (a crosstab)
          sum expenses by book during 2025-11 vs previous period
          define spent(m) as sum expenses during $m   (then: spent(2025-10))

        With no -e or -f and a terminal on stdin and stdout, opens the interactive shell; \
        piped stdin is read as a script. With no ledger named, the bundled demo ledger is used.

        ~/.abacusrc runs first (unless --no-rc); options given here win over it. \
        History is kept in ~/.local/state/abacus/history, or $XDG_STATE_HOME/abacus/history, \
        or the file ABACUS_HISTORY names.

        Colour only on a terminal, in the shell and for -e; never for scripts (-f, piped stdin), \
        with --no-color, with NO_COLOR set or with TERM=dumb. --echo prints each statement \
        before its result; with --format json as a line {"statement": "…"}, so that every line \
        stays one JSON object.

        Live rates: `rates refresh` fetches from ABACUS_RATES_URL ({base} and {key} in it; \
        the key from ABACUS_RATES_KEY), reusing cached rates younger than ABACUS_RATES_TTL \
        minutes (30) and giving up after ABACUS_RATES_TIMEOUT seconds (10).

        Rate files: --rates FILE adds market rates after the ledgers (the ECB's history CSV as \
        published, a CSV of date,base,currency,rate, or a JSON array of snapshots and pairs); a bad \
        file is refused whole with its line and column. A statement warns when it converts at a \
        market rate more than 7 days older than the date converted for; --max-rate-age N refuses \
        rates more than N days old instead.

        Ledgers may also be the expense tracker app's SQLite database (recognised by its header, \
        whatever its name): its books and entries are checked by the same rules as a JSON ledger. \
        It holds no rates or default currency: load rates with --rates FILE or a JSON ledger beside it; the default \
        currency is the targetCurrency most of its books name. \
        `abacus import-csv STATEMENT.csv --rules RULES.toml` turns a bank statement into a ledger \
        file of entries (see `abacus import-csv --help`).

        Store images: after reading a ledger's JSON, Abacus saves a binary image of the loaded \
        store in $XDG_CACHE_HOME/abacus/ (default ~/.cache/abacus/), and the next start with the \
        same files reads it instead of parsing. It is used only when every file's contents still \
        hash the same and it was written by this version; otherwise the JSON is read, with a \
        note on stderr. The 8 most recently used images are kept (4 GiB at most); --no-cache \
        skips them.

        PostgreSQL: --db postgres://USER@HOST:PORT/DB (or ABACUS_DATABASE_URL) runs every statement \
        against the ledger kept in that database, with the same answers as in memory; counts, sums, avg, \
        min, max and list, native or converted, their crosstabs and comparisons, run in the database on exact numeric (explain shows the SQL); the entries \
        are read into memory, once, when a statement first needs them there. PGPASSWORD, PGHOST, PGPORT, \
        PGUSER, PGDATABASE and PGCONNECT_TIMEOUT fill in what the URL leaves out; \
        ABACUS_DATABASE_TIMEOUT (300) limits a statement's seconds. --import LEDGER.json … loads JSON \
        ledgers into it (creating the tables the first time), checked as a file is, all or nothing. \
        An unreachable server, a refused password or a database without an Abacus ledger exits 2.

        Exit status: 0 success, 1 a statement failed, 2 the ledger or the command line is unusable.
        """,
        version: abacusVersion
    )

    @Argument(help: ArgumentHelp("Ledger files to load (JSON, version 1, or the app's SQLite database).", valueName: "LEDGER.json"))
    var ledgers: [String] = []

    @Option(name: [.customShort("e"), .customLong("execute")], help: ArgumentHelp("Run one statement (repeatable).", valueName: "STATEMENT"))
    var statements: [String] = []

    @Option(name: [.customShort("f"), .customLong("file")], help: ArgumentHelp("Run a script of statements (repeatable).", valueName: "SCRIPT"))
    var scripts: [String] = []

    @Option(help: "Output format: table (the default), csv, json, markdown or chart.")
    var format: String?

    @Option(help: ArgumentHelp("The date that today, this month, … mean (default: ABACUS_TODAY or the system date).", valueName: "YYYY-MM-DD"))
    var today: String?

    @Option(help: ArgumentHelp("Show every amount in this locale instead of each currency's home locale.", valueName: "ID"))
    var locale: String?

    @Flag(help: "Never colour the output.")
    var noColor = false

    @Flag(help: "Keep running a script after a statement fails.")
    var keepGoing = false

    @Flag(help: "Print each statement before its result (JSON: {\"statement\": …}).")
    var echo = false

    @Flag(help: "Do not run ~/.abacusrc at start-up.")
    var noRc = false

    @Flag(help: "Fetch the latest exchange rates (or reuse fresh cached ones) before anything else.")
    var refreshRates = false

    @Flag(help: "Never touch the network; use the ledger's and the cache's rates.")
    var offline = false

    @Option(help: ArgumentHelp("Where fetched rates are cached (default: $XDG_CACHE_HOME/abacus/rates.json).", valueName: "FILE"))
    var ratesCache: String?

    @Option(name: .customLong("rates"),
            help: ArgumentHelp("Add market rates from a file (repeatable): the ECB's history CSV, a CSV of date,base,currency,rate, or a JSON array of snapshots and pairs.", valueName: "FILE"))
    var rateFiles: [String] = []

    @Option(help: ArgumentHelp("Refuse market rates more than N days older than the date they convert for (rates over 7 days old always warn).", valueName: "N"))
    var maxRateAge: Int?

    @Flag(help: "Neither use nor save a store image in $XDG_CACHE_HOME/abacus/ (always read the JSON).")
    var noCache = false

    @Option(help: ArgumentHelp("Use the ledger kept in this PostgreSQL database (default: ABACUS_DATABASE_URL; PGPASSWORD and the other libpq variables fill in what the URL leaves out).", valueName: "postgres://USER@HOST:PORT/DB"))
    var db: String?

    @Option(name: .customLong("import"), parsing: .upToNextOption,
            help: ArgumentHelp("With --db: load these JSON ledgers into the database, all or nothing, in one transaction (alone, it imports and exits).", valueName: "LEDGER.json"))
    var imports: [String] = []

    func validate() throws {
        if let format, OutputFormat(rawValue: format) == nil {
            throw ValidationError("--format must be table, csv, json, markdown or chart, not '\(format)'")
        }
        if let locale, Abacus.knownLocale(locale) == nil {
            throw ValidationError("--locale '\(locale)' is not a locale this system knows: give one such as en_IN, en_US, de_DE or ja_JP")
        }
        if let maxRateAge, maxRateAge < 0 || maxRateAge > RateAgePolicy.mostDays {
            throw ValidationError("--max-rate-age must be a whole number of days from 0 to \(RateAgePolicy.mostDays), not \(maxRateAge)")
        }
        if let today, Day.parse(today) == nil || today.utf8.count != 10 {
            throw ValidationError("--today must be a date YYYY-MM-DD, not '\(today)'")
        }
    }

    mutating func run() throws {
        var options = ShellOptions()
        options.ledgers = ledgers
        options.actions = Abacus.orderedActions(statements: statements, scripts: scripts, arguments: CommandLine.arguments)
        options.format = format.flatMap(OutputFormat.init(rawValue:))
        let env = ProcessInfo.processInfo.environment
        // ABACUS_TODAY set to nothing is as good as unset.
        if let text = today ?? env["ABACUS_TODAY"].flatMap({ $0.isEmpty ? nil : $0 }) {
            guard let day = Day.parse(text) else {
                throw ValidationError("ABACUS_TODAY must be a date YYYY-MM-DD, not '\(text)'")
            }
            options.today = day
        }
        options.locale = locale.flatMap(Abacus.knownLocale)
        // no-color.org: NO_COLOR set to a non-empty value turns colour off; a dumb terminal has none.
        options.color = !noColor && (env["NO_COLOR"] ?? "").isEmpty && env["TERM"] != "dumb"
        options.keepGoing = keepGoing
        options.echo = echo
        options.noRC = noRc
        options.refreshRates = refreshRates
        options.offline = offline
        options.ratesCache = ratesCache
        options.rateFiles = rateFiles
        options.maxRateAge = maxRateAge
        options.storeCache = !noCache
        if let database = DatabaseCommand.open(url: db, imports: imports, ledgers: ledgers, environment: env) {
            // An import alone is a load command: it does not open the shell or read stdin.
            if !imports.isEmpty && options.actions.isEmpty { throw ExitCode(0) }
            options.external = database
        }
        let shell = Shell(options: options)
        shellUntilExit = shell
        throw ExitCode(shell.run().rawValue)
    }

    /// The identifier of a locale Foundation has data for (`en_IN`, `de-CH`), as it lists it;
    /// a locale named without its script (`zh_CN`, `sr_RS`) is found under the script it
    /// implies (`zh_Hans_CN`). Nil for anything else, which would silently format money in the
    /// root locale (`₹ 4748506.89`).
    static func knownLocale(_ id: String) -> String? {
        let available = Locale.availableIdentifiers
        for wanted in [id, Locale.Language(identifier: id).maximalIdentifier] {
            let w = wanted.replacingOccurrences(of: "-", with: "_").lowercased()
            if let found = available.first(where: { $0.lowercased() == w }) { return found }
        }
        return nil
    }

    /// -e and -f run in the order they were given on the command line.
    static func orderedActions(statements: [String], scripts: [String], arguments: [String]) -> [ShellOptions.Action] {
        var e = statements.makeIterator(), f = scripts.makeIterator()
        var actions: [ShellOptions.Action] = []
        for arg in arguments.dropFirst() {
            if arg == "--" { break }
            if arg == "-e" || arg.hasPrefix("--execute") || (arg.hasPrefix("-e") && !arg.hasPrefix("--")) {
                if let s = e.next() { actions.append(.statement(s)) }
            } else if arg == "-f" || arg.hasPrefix("--file") || (arg.hasPrefix("-f") && !arg.hasPrefix("--")) {
                if let s = f.next() { actions.append(.script(s)) }
            }
        }
        while let s = e.next() { actions.append(.statement(s)) }
        while let s = f.next() { actions.append(.script(s)) }
        return actions
    }
}

// Exit status 2 for an unusable command line (README, Using it), where swift-argument-parser
// would use 64; help and --version still exit 0. Its message says `error:` as every other does.
func runCommand<Command: ParsableCommand>(_ type: Command.Type, _ arguments: [String]?) -> Never {
    do {
        var command = try type.parseAsRoot(arguments)
        try command.run()
        type.exit()
    } catch let code as ExitCode {
        type.exit(withError: code)
    } catch {
        if type.exitCode(for: error) == .success { type.exit(withError: error) }
        var message = type.fullMessage(for: error)
        if message.hasPrefix("Error: ") { message = "error: " + message.dropFirst(7) }
        FileHandle.standardError.write(Data((message + "\n").utf8))
        type.exit(withError: ExitCode(2))
    }
}

// The root command takes ledger files as its arguments, so swift-argument-parser would
// read `import-csv` as one: the subcommand is picked here, by its name in first place,
// after any `--no-rc` (scripts give it to every call; the import reads no rc file).
let noRCs = CommandLine.arguments.dropFirst().prefix { $0 == "--no-rc" }.count
if CommandLine.arguments.dropFirst(1 + noRCs).first == ImportCSV.word {
    runCommand(ImportCSV.self, Array(CommandLine.arguments.dropFirst(2 + noRCs)))
}
runCommand(Abacus.self, nil)
