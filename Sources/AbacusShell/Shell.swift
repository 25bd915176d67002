// The shell: what runs statements for a person or a script.
//
// It loads the ledger (or the bundled demo), then runs `-e` statements and `-f`
// scripts in the order given, or the REPL when stdin and stdout are terminals,
// or stdin as a script. Results go to stdout, diagnostics to stderr. Dot commands
// (`.help`, `.format`, `.timer`, `.quit`) are handled here; everything else goes
// to the query engine. Exit status: 0 success, 1 a statement failed, 2 the ledger
// or the command line is unusable.

import AbacusCore
import AbacusQuery
import Foundation
#if canImport(Glibc)
import Glibc
#endif

public struct ShellOptions: Sendable {
    public enum Action: Sendable, Equatable {
        case statement(String)
        case script(String)
    }
    public var ledgers: [String] = []
    public var actions: [Action] = []
    public var format: OutputFormat = .table
    public var today: Day?
    public var locale: String?
    public var color = true
    public var keepGoing = false
    /// Print each statement before its result.
    public var echo = false
    /// Skip `~/.abacusrc`.
    public var noRC = false
    /// Never touch the network (`rates refresh` says so and changes nothing).
    public var offline = false
    /// `--refresh-rates`: run `rates refresh` before anything else.
    public var refreshRates = false
    /// `--rates-cache FILE`, instead of `$XDG_CACHE_HOME/abacus/rates.json`.
    public var ratesCache: String?

    public init() {}
}

public enum ExitStatus: Int32, Sendable {
    case success = 0
    case statementFailed = 1
    case unusable = 2
}

public final class Shell {
    let options: ShellOptions
    var session: Session!
    var renderer: Renderer
    var timer = false
    var quitRequested = false
    var runDepth = 0
    /// Ledger files the session holds (empty while it holds the demo).
    var loadedPaths: [String] = []
    var stdoutIsTerminal = false
    var stderrIsTerminal = false
    var liveRates: LiveRates?
    let environment: [String: String]
    public var writeOut: (String) -> Void = { FileHandle.standardOutput.write(Data(($0 + "\n").utf8)) }
    public var writeErr: (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }

    public init(options: ShellOptions, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.options = options
        self.environment = environment
        self.renderer = Renderer(format: options.format, money: MoneyFormat(locale: options.locale))
    }

    /// The bundled demo ledger: `ABACUS_DEMO_LEDGER`, else `share/abacus/demo.json` beside the
    /// installed binary, else `Examples/demo.json` of the checkout the binary was built in.
    public static func demoLedgerPath(environment: [String: String]) -> String? {
        if let p = environment["ABACUS_DEMO_LEDGER"], !p.isEmpty { return p }
        // /proc/self/exe names the binary even when it was found through PATH.
        let selfExe = FileManager.default.fileExists(atPath: "/proc/self/exe") ? "/proc/self/exe" : CommandLine.arguments[0]
        let exe = URL(fileURLWithPath: selfExe).resolvingSymlinksInPath()
        var dir = exe.deletingLastPathComponent()
        let installed = dir.deletingLastPathComponent().appendingPathComponent("share/abacus/demo.json").path
        if FileManager.default.fileExists(atPath: installed) { return installed }
        for _ in 0..<6 {
            let candidate = dir.appendingPathComponent("Examples/demo.json").path
            if FileManager.default.fileExists(atPath: candidate) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return nil
    }

    public func run() -> ExitStatus {
        let interactive = options.actions.isEmpty && isatty(0) == 1 && isatty(1) == 1
        var paths = options.ledgers
        if paths.isEmpty {
            guard let demo = Shell.demoLedgerPath(environment: environment) else {
                writeErr("error: no ledger named, and the demo ledger was not found (set ABACUS_DEMO_LEDGER or name a LEDGER.json)")
                return .unusable
            }
            paths = [demo]
        }
        var ledger: Ledger
        do {
            ledger = try LedgerLoader.load(paths: paths)
            loadedPaths = options.ledgers
        } catch {
            writeErr("error: " + error.description)
            return .unusable
        }
        // Rates fetched earlier join the ledger's market rates (a corrupt cache is reported and ignored).
        let live = LiveRates(environment: environment, cachePath: options.ratesCache, offline: options.offline)
        liveRates = live
        _ = live.loadCache(report: writeErr)
        live.attach(to: &ledger)
        if options.ledgers.isEmpty {
            writeErr("No ledger named: loaded the demo ledger (\(ledger.entries.count) entries, \(ledger.books.count) books). Run `abacus LEDGER.json` for your own.")
        }
        let today = options.today ?? Shell.systemToday()
        session = Session(ledger: ledger, today: today)
        // Colour and terminal width only where a person is looking.
        stdoutIsTerminal = isatty(1) == 1
        stderrIsTerminal = isatty(2) == 1
        renderer.color = options.color && stdoutIsTerminal
        renderer.width = stdoutIsTerminal ? Shell.terminalWidth() : nil
        session.isCancelled = { interrupted != 0 }
        session.liveRates = live
        runStartupFile()
        if options.refreshRates { execute("rates refresh", location: "--refresh-rates") }

        if interactive { return repl() }
        var status = ExitStatus.success
        if options.actions.isEmpty {
            let input = FileHandle.standardInput.readDataToEndOfFile()
            return runScript(String(decoding: input, as: UTF8.self), name: "<stdin>")
        }
        for action in options.actions {
            let s: ExitStatus
            switch action {
            case .statement(let text): s = runScript(text, name: nil)
            case .script(let path):
                guard let data = FileManager.default.contents(atPath: path) else {
                    writeErr("error: cannot read script \(path)")
                    return .unusable
                }
                s = runScript(String(decoding: data, as: UTF8.self), name: path)
            }
            if s != .success {
                status = s
                if !options.keepGoing { return status }
            }
            if quitRequested { break }
        }
        return status
    }

    /// `~/.abacusrc`: statements and dot commands run before anything else (skipped with --no-rc).
    /// An error there is reported with its place and start-up goes on.
    func runStartupFile() {
        guard !options.noRC, let home = environment["HOME"], !home.isEmpty else { return }
        let path = home + "/.abacusrc"
        guard let data = FileManager.default.contents(atPath: path) else { return }
        for statement in StatementSplitter.split(String(decoding: data, as: UTF8.self)) {
            execute(statement.text, location: "\(path):\(statement.line):\(statement.column)")
        }
    }

    static func terminalWidth() -> Int? {
        var size = winsize()
        if ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return nil
    }

    /// Diagnostics to stderr, with "error:"/"warning:"/"hint:" coloured on a terminal.
    func report(_ text: String) {
        guard options.color && stderrIsTerminal else { writeErr(text); return }
        var t = text
        for (word, style) in [("error:", ANSI.red + ANSI.bold), ("warning:", ANSI.yellow), ("hint:", ANSI.cyan)] {
            t = t.replacingOccurrences(of: word, with: style + word + ANSI.reset)
        }
        writeErr(t)
    }

    /// Runs every statement of a script; stops at the first failure unless --keep-going.
    func runScript(_ text: String, name: String?) -> ExitStatus {
        var status = ExitStatus.success
        for statement in StatementSplitter.split(text) {
            let location = name.map { "\($0):\(statement.line):\(statement.column)" }
            if !execute(statement.text, location: location) {
                status = .statementFailed
                if !options.keepGoing { return status }
            }
            if quitRequested { break }
        }
        return status
    }

    /// Runs one statement or dot command; false when it failed (the error is already printed).
    @discardableResult
    func execute(_ text: String, location: String?) -> Bool {
        if options.echo { writeOut(text.lowercased().hasPrefix(".set rates-key") ? ".set rates-key …" : text) }
        if text.hasPrefix(".") { return dotCommand(text, location: location) }
        let started = DispatchTime.now()
        interrupted = 0
        do {
            switch try session.execute(text) {
            case .table(let result):
                if renderer.format != .json { result.warnings.forEach { report("warning: " + $0) } }
                writeOut(renderer.render(result))
            case .message(let m):
                writeOut(renderer.render(message: m))
            case .explain(let plan, let rates, let warnings):
                if renderer.format != .json { warnings.forEach { report("warning: " + $0) } }
                writeOut(renderer.render(plan: plan, rates: rates, warnings: warnings))
            }
        } catch {
            report(Diagnostic.render(error, statement: text, location: location))
            return false
        }
        if timer {
            let ms = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1_000_000
            writeErr(String(format: "Run Time: %.3f ms", ms))
        }
        return true
    }

    static let dotCommands = [".help", ".load", ".run", ".format", ".timer", ".set", ".quit"]

    func dotCommand(_ text: String, location: String?) -> Bool {
        let parts = text.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true).map(String.init)
        let command = parts[0].lowercased()
        let argument = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
        let prefix = location.map { $0 + ": " } ?? ""
        func usage(_ u: String) -> Bool {
            writeErr(prefix + "error: usage: " + u)
            return false
        }
        switch command {
        case ".quit", ".exit", ".q":
            quitRequested = true
        case ".help":
            guard let help = Help.text(topic: argument) else {
                var message = prefix + "error: no help on '\(argument)'; topics: " + Help.topics.joined(separator: ", ")
                if let near = nearest(argument, in: Help.topics) { message += "\nhint: did you mean .help \(near)?" }
                writeErr(message)
                return false
            }
            writeOut(help)
        case ".format", ".mode":
            guard let f = OutputFormat(rawValue: argument.lowercased()) else { return usage(".format table|csv|json|markdown|chart") }
            renderer.format = f
        case ".timer":
            guard ["on", "off"].contains(argument.lowercased()) else { return usage(".timer on|off") }
            timer = argument.lowercased() == "on"
        case ".set":
            // Settings of live rates, usable in ~/.abacusrc: ttl, rates-url, rates-key. Silent, like
            // sqlite3's settings, so an rc file adds nothing to a script's output.
            let words = argument.split(separator: " ", maxSplits: 1).map(String.init)
            guard words.count == 2 else { return usage(".set ttl MINUTES | .set rates-url URL | .set rates-key KEY") }
            switch words[0].lowercased() {
            case "ttl":
                guard let minutes = Int(words[1]), minutes >= 0 else { return usage(".set ttl MINUTES") }
                liveRates?.ttlMinutes = minutes
            case "rates-url":
                liveRates?.urlTemplate = words[1]
            case "rates-key":
                liveRates?.key = words[1]
            default:
                return usage(".set ttl MINUTES | .set rates-url URL | .set rates-key KEY")
            }
        case ".load":
            guard !argument.isEmpty else { return usage(".load LEDGER.json") }
            // The file joins those already loaded (ids must stay unique across them), or replaces
            // the demo. All or nothing: on any error the session keeps what it had.
            do {
                let paths = loadedPaths + [argument]
                var ledger = try LedgerLoader.load(paths: paths)
                liveRates?.attach(to: &ledger)
                session.replaceLedger(ledger)
                loadedPaths = paths
                refreshCompletion()
                writeErr("loaded \(argument): now \(ledger.entries.count) entries in \(ledger.books.count) books from \(paths.count) \(paths.count == 1 ? "file" : "files")")
            } catch {
                writeErr(prefix + "error: " + error.description)
                return false
            }
        case ".run", ".read":
            guard !argument.isEmpty else { return usage(".run SCRIPT") }
            guard runDepth < 16 else {
                writeErr(prefix + "error: .run nests deeper than 16 scripts")
                return false
            }
            guard let data = FileManager.default.contents(atPath: argument) else {
                writeErr(prefix + "error: cannot read script \(argument)")
                return false
            }
            runDepth += 1
            defer { runDepth -= 1 }
            return runScript(String(decoding: data, as: UTF8.self), name: argument) == .success
        default:
            var message = prefix + "error: unknown command \(parts[0])"
            if let near = nearest(command, in: Shell.dotCommands) { message += "\nhint: did you mean \(near)?" }
            else { message += "\nhint: .help lists the commands" }
            writeErr(message)
            return false
        }
        return true
    }

    // MARK: REPL

    func repl() -> ExitStatus {
        let editor = LineEditor(historyPath: LineEditor.defaultHistoryPath(environment: environment))
        refreshCompletion()
        let l = session.ledger
        writeOut("Abacus \(abacusVersion) — \(l.entries.count) entries in \(l.books.count) books, default currency \(l.defaultCurrency). Type .help for help, Ctrl-D to leave.")
        var pending = ""
        while !quitRequested {
            switch editor.read(prompt: pending.isEmpty ? "abacus> " : "   ...> ") {
            case .end:
                writeOut("")
                return .success
            case .interrupt:
                // Abandon the line (and any continued statement); the next prompt starts on a fresh line.
                writeOut("")
                pending = ""
                continue
            case .line(let line):
                pending += pending.isEmpty ? line : "\n" + line
                if StatementSplitter.needsContinuation(pending) { continue }
                let text = pending
                pending = ""
                // A statement typed over several lines is remembered as one line; a key never is.
                if !text.lowercased().contains(".set rates-key") { editor.remember(StatementSplitter.joinedLines(text)) }
                for statement in StatementSplitter.split(text) where !quitRequested {
                    execute(statement.text, location: nil)
                }
            }
        }
        return .success
    }

    /// Tab completes from the ledger now loaded.
    func refreshCompletion() {
        completer = Completer(ledger: session.ledger)
    }

    static func systemToday() -> Day {
        let c = Calendar.current.dateComponents([.year, .month, .day], from: Date())
        return Day(year: c.year ?? 1970, month: c.month ?? 1, day: c.day ?? 1) ?? Day(number: 0)
    }
}

public let abacusVersion = "0.1.0"
