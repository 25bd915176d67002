// The shell: what runs statements for a person or a script.
//
// It loads the ledger (or the bundled demo), runs ~/.abacusrc, then `-e` statements
// and `-f` scripts in the order given, or the REPL when stdin and stdout are
// terminals, or stdin as a script. Results go to stdout, diagnostics to stderr.
// Dot commands (`.help`, `.format`, `.load`, …) are handled here; everything else
// goes to the query engine. Exit status: 0 success, 1 a statement failed, 2 the
// ledger or the command line is unusable.
//
// Settings made on the command line win over ~/.abacusrc, and what the rc file's
// statements print never reaches the standard output of a script, `-e` or pipe
// (it goes to stderr there), so machine output stays clean.

import AbacusCore
import AbacusQuery
import AbacusSources
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
    /// nil when not given: table, unless ~/.abacusrc sets another.
    public var format: OutputFormat?
    public var today: Day?
    public var locale: String?
    public var color = true
    public var keepGoing = false
    /// Print each statement before its result (as `{"statement": …}` in JSON).
    public var echo = false
    /// Skip `~/.abacusrc`.
    public var noRC = false
    /// Never touch the network (`rates refresh` says so and changes nothing).
    public var offline = false
    /// `--refresh-rates`: run `rates refresh` before anything else.
    public var refreshRates = false
    /// `--rates-cache FILE`, instead of `$XDG_CACHE_HOME/abacus/rates.json`.
    public var ratesCache: String?
    /// `--rates FILE` (repeatable): rate files added after the ledgers, in this order.
    public var rateFiles: [String] = []
    /// `--max-rate-age N`: market rates older than N days fail a statement; nil, no limit.
    public var maxRateAge: Int?
    /// Use and save store images in `$XDG_CACHE_HOME/abacus/` (off with `--no-cache`).
    public var storeCache = true
    /// A ledger kept outside files (`--db`): loaded instead of `ledgers` and the demo.
    public var external: (any ExternalLedger)?

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
    /// The ledger files as loaded, before rate files and cached rates join them.
    var fileLedger: Ledger?
    /// Rate files added (`--rates`, `.rates`), in order.
    var rateFiles: [RateFileContents] = []
    /// Whether a markdown table was written already (the next starts after a blank line).
    var wroteMarkdownTable = false
    /// The watched currencies, kept in the state folder.
    var watchList = WatchList(path: nil) {
        didSet { completer?.watched = watchList.currencies.map(\.code) }
    }
    var stdoutIsTerminal = false
    var stderrIsTerminal = false
    /// Colour is allowed at all: not for scripts (`-f`, piped stdin), NO_COLOR or --no-color.
    var colorAllowed = false
    /// While ~/.abacusrc runs for a script, `-e` or pipe: what it prints goes to stderr.
    var outputToStderr = false
    var liveRates: LiveRates?
    let environment: [String: String]
    /// Where results go: text with its line ends (stdout unless a test captures it).
    public var writeOut: (String) -> Void = { FileHandle.standardOutput.write(Data($0.utf8)) } { didSet { writesStandardOutput = false } }
    /// `writeOut` is stdout's own: a big answer's bytes may go there as they are (`Renderer.write`).
    private var writesStandardOutput = true
    /// Where diagnostics go: text with its line ends.
    public var writeErr: (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }

    public init(options: ShellOptions, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.options = options
        self.environment = environment
        self.renderer = Renderer(format: options.format ?? .table, money: MoneyFormat(locale: options.locale))
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

    /// The ledger files changed since the store image the session started from and could not be
    /// read again (already reported): the ledger is unusable, as it would have been at start, and
    /// a script ends with exit status 2 (the REPL tries them again at its next statement).
    var unusableLedger = false
    /// The last `.load` or `.reload` was refused (the session kept its ledger).
    var loadRefused = false

    public func run() -> ExitStatus {
        let interactive = options.actions.isEmpty && isatty(0) == 1 && isatty(1) == 1
        var paths = options.ledgers
        if paths.isEmpty && options.external == nil {
            guard let demo = Shell.demoLedgerPath(environment: environment) else {
                tell("error: no ledger named, and the demo ledger was not found (set ABACUS_DEMO_LEDGER or name a LEDGER.json)")
                return .unusable
            }
            paths = [demo]
        }
        var files: Ledger
        do {
            if let external = options.external {
                files = try external.loadLedger()
            } else {
                // The demo's line below shows what it holds: that waits for its hashing.
                files = try loadLedger(paths, confirmingLater: !options.ledgers.isEmpty)
                // The loader's notes are made from the image too: they wait for its hashing.
                if !files.notes.isEmpty, let change = files.entries.lateSections?.filesChangedNote() {
                    tell(change)
                    files = try loadLedger(paths, usingTheImage: false)
                }
            }
            files.notes.forEach { tell("note: " + $0) }
            loadedPaths = options.ledgers
            for path in options.rateFiles { rateFiles.append(try RateFile.load(path: path)) }
        } catch {
            tell("error: " + error.description)
            return .unusable
        }
        fileLedger = files
        // Rates fetched earlier join the ledger's market rates (a corrupt cache is reported and ignored).
        let live = LiveRates(environment: environment, cachePath: options.ratesCache, offline: options.offline)
        liveRates = live
        _ = live.loadCache(report: { [weak self] in self?.tell($0) })
        let ledger = composed(files)
        // The REPL says so in its one line of welcome (`banner`).
        if options.ledgers.isEmpty && options.external == nil && !interactive {
            tell("No ledger named: loaded the demo ledger (\(Shell.counted(ledger.entries.count, "entry", "entries")), "
                 + "\(Shell.counted(ledger.books.count, "book", "books"))). Run `abacus LEDGER.json` for your own.")
        }
        let today = options.today ?? Shell.systemToday()
        session = Session(ledger: ledger, today: today)
        session.maxRateAge = options.maxRateAge
        options.external?.attach(to: session)
        stdoutIsTerminal = isatty(1) == 1
        stderrIsTerminal = isatty(2) == 1
        // Colour only where a person watches answers being made: the REPL and -e statements on a
        // terminal. A script (-f, piped stdin) never gets colour, even on a terminal (README, Using it).
        let readsScripts = options.actions.contains { if case .script = $0 { return true } else { return false } }
            || (options.actions.isEmpty && !interactive)
        colorAllowed = options.color && !readsScripts
        renderer.color = colorAllowed && stdoutIsTerminal
        renderer.width = stdoutIsTerminal ? Shell.terminalWidth() : nil
        session.isCancelled = { interrupted != 0 }
        session.liveRates = live
        watchList = WatchList.load(path: WatchList.defaultPath(environment: environment), report: { [weak self] in self?.tell($0) })
        session.host = self
        runStartupFile(interactive: interactive)
        // The command line wins over ~/.abacusrc.
        if let format = options.format { renderer.format = format }
        if options.refreshRates { execute("rates refresh", location: "--refresh-rates") }
        if unusableLedger { return .unusable }

        if interactive { return repl() }
        // A script that ran no statement has not waited for the ledger files to be checked
        // against the store image: it does before it ends, and a broken file is exit status 2.
        func finished(_ status: ExitStatus) -> ExitStatus {
            confirmFiles()
            return unusableLedger ? .unusable : status
        }
        var status = ExitStatus.success
        if options.actions.isEmpty {
            let input = FileHandle.standardInput.readDataToEndOfFile()
            return finished(runScript(String(decoding: input, as: UTF8.self), name: "<stdin>"))
        }
        for action in options.actions {
            let s: ExitStatus
            switch action {
            case .statement(let text): s = runScript(text, name: nil)
            case .script(let path):
                let text: String
                switch Shell.readScript(path) {
                case .success(let t): text = t
                case .failure(let reason):
                    tell("error: cannot read script \(path): \(reason.message)")
                    return .unusable
                }
                s = runScript(text, name: path)
            }
            if s != .success {
                if s.rawValue > status.rawValue { status = s }
                // With --keep-going, a failed `.load` in -e goes on as in a script (the session
                // keeps its ledger); a ledger found unusable stops everything.
                if !options.keepGoing || unusableLedger { return finished(status) }
            }
            if quitRequested { break }
        }
        return finished(status)
    }

    /// The session's ledger: the ledger files, then the rate files in the order they were added,
    /// then the cached live rates. On one date a later source wins among equals, so a rate file
    /// beats the ledger's own rates, and one added later beats one added before.
    func composed(_ files: Ledger) -> Ledger {
        var ledger = files
        for f in rateFiles { ledger.addRates(f) }
        liveRates?.attach(to: &ledger)
        return ledger
    }

    /// Loads `paths` in place of the ledger files the session holds, all or nothing; rate files,
    /// fetched rates and the session's own settings stay.
    func reload(_ paths: [String], what: String, location: String? = nil) -> Bool {
        replaceFiles(what: what, from: " from \(Shell.counted(paths.count, "file", "files"))", location: location) { () throws(LoadError) -> Ledger in
            let files = try loadLedger(paths)
            loadedPaths = paths
            return files
        }
    }

    /// `.reload` on a database: its ledger read again (another session's import is picked up).
    func reloadExternal(location: String? = nil) -> Bool {
        guard let external = options.external else { return false }
        return replaceFiles(what: "reloaded \(external.name)", from: "", location: location) { () throws(LoadError) -> Ledger in try external.loadLedger() }
    }

    /// The session's ledger replaced by what `load` reads (all or nothing), and a line saying so.
    /// Refused, the error names `location` (a script's line) and a script ends with status 2
    /// (`loadRefused`), as a ledger refused at start-up does.
    func replaceFiles(what: String, from: String, location: String? = nil, _ load: () throws(LoadError) -> Ledger) -> Bool {
        do {
            let files = try load()
            files.notes.forEach { tell("note: " + $0) }
            fileLedger = files
            unusableLedger = false
            let ledger = composed(files)
            session.replaceLedger(ledger)
            refreshCompletion()
            tell("\(what): now \(Shell.counted(ledger.entryCount, "entry", "entries")) in "
                 + "\(Shell.counted(ledger.books.count, "book", "books"))" + from)
            return true
        } catch {
            report((location.map { $0 + ": " } ?? "") + "error: " + error.description)
            loadRefused = true
            return false
        }
    }

    /// Whether two paths name one file (the same device and inode), or are the same text.
    static func sameFile(_ a: String, _ b: String) -> Bool {
        var x = stat(), y = stat()
        guard stat(a, &x) == 0, stat(b, &y) == 0 else { return a == b }
        return x.st_dev == y.st_dev && x.st_ino == y.st_ino
    }

    /// Why a script cannot be read, in words.
    struct ScriptProblem: Error {
        var message: String
    }

    /// A script's text: a regular file, a pipe, `<(…)`, `/dev/stdin` or a FIFO, read to its end.
    static func readScript(_ path: String) -> Result<String, ScriptProblem> {
        var info = stat()
        guard stat(path, &info) == 0 else { return .failure(ScriptProblem(message: String(cString: strerror(errno)))) }
        if info.st_mode & S_IFMT == S_IFDIR { return .failure(ScriptProblem(message: "it is a folder")) }
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return .failure(ScriptProblem(message: String(cString: strerror(errno)))) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(ScriptProblem(message: String(cString: strerror(errno))))
            }
            if n == 0 { break }
            bytes += buffer[0..<n]
        }
        return .success(String(decoding: bytes, as: UTF8.self))
    }

    /// `.rates FILE`: the file's rates join the session, all or nothing (a bad file changes nothing).
    func addRateFile(_ path: String) throws(LoadError) -> RateFileContents {
        let contents = try RateFile.load(path: path)
        rateFiles.append(contents)
        if let fileLedger { session.replaceLedger(composed(fileLedger)) }
        return contents
    }

    /// The ledger files, through the store image cache unless `--no-cache`. A load that takes
    /// over a second shows its progress when stderr is a terminal.
    /// A set of files that holds the app's SQLite database is read as it is, every time.
    /// `usingTheImage` false reads the JSON even when an image was saved (one found damaged).
    /// `confirmingLater`: a ledger from an image may come back while the files are still being
    /// hashed (`checkingLateSections` and `confirmFiles` wait for that before anything is shown).
    func loadLedger(_ paths: [String], usingTheImage: Bool = true, confirmingLater: Bool = false) throws(LoadError) -> Ledger {
        if paths.contains(where: { LedgerSources.isSQLiteDatabase(path: $0) }) { return try LedgerSources.load(paths: paths) }
        var progress: LoadProgress?
        if isatty(2) == 1 {
            var total = 0
            for p in paths {
                var info = stat()
                if stat(p, &info) == 0 { total += Int(info.st_size) }
            }
            let label = paths.count == 1 ? "loading \(ShownText.shown(paths[0], limit: 60))" : "loading \(paths.count) ledger files"
            progress = LoadProgress(totalBytes: total, label: label) { text in
                _ = text.withCString { Glibc.write(2, $0, strlen($0)) }
            }
        }
        defer { progress?.finish() }
        if options.storeCache, let folder = StoreCache.defaultFolder(environment) {
            let cache = StoreCache(folder: folder, version: abacusVersion)
            return try cache.load(paths: paths, usingTheImage: usingTheImage, confirmingLater: confirmingLater, progress: progress) { note in
                if let progress { progress.interject { tell(note) } } else { tell(note) }
            }
        }
        return try LedgerLoader.load(paths: paths, progress: progress)
    }

    /// `~/.abacusrc`: statements and dot commands run before anything else (skipped with --no-rc).
    /// An error there is reported with its place and start-up goes on. It is not echoed, and for a
    /// script, `-e` or pipe what it prints goes to stderr: stdout carries only the answers asked for.
    /// `.quit` there ends the file, as it ends a script: the session goes on.
    func runStartupFile(interactive: Bool) {
        guard !options.noRC, let home = environment["HOME"], !home.isEmpty else { return }
        let path = home + "/.abacusrc"
        guard let data = FileManager.default.contents(atPath: path) else { return }
        outputToStderr = !interactive
        defer { outputToStderr = false }
        for piece in StatementReader.pieces(of: String(decoding: data, as: UTF8.self)) {
            run(piece, script: path, echo: false)
            if quitRequested {
                quitRequested = false
                break
            }
        }
    }

    static func terminalWidth() -> Int? {
        var size = winsize()
        if ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return nil
    }

    /// A line of results (stdout, or stderr while the rc file runs for a script).
    func say(_ text: String) {
        // Markdown: a line after a table is a paragraph of its own (glued to the table, a
        // renderer reads it as another row), and so is the table after it.
        if renderer.format == .markdown && !outputToStderr {
            if wroteMarkdownTable { writeOut("\n") }
            wroteMarkdownTable = true
        }
        outputToStderr ? writeErr(text + "\n") : writeOut(text + "\n")
    }

    /// A message or a dot command's answer (`.help`, `.format`): CSV and markdown output holds
    /// only answers, so it goes to stderr there; JSON has it as a `{"message": …}` object.
    func announce(_ text: String) {
        if renderer.format.holdsOnlyTables { tell(text) } else { say(renderer.render(message: text)) }
    }

    /// A line on stderr.
    func tell(_ text: String) {
        writeErr(text + "\n")
    }

    /// Diagnostics to stderr, with "error:"/"warning:"/"hint:" coloured on a terminal. Their text
    /// can quote a ledger file, so control characters other than line breaks are made visible.
    func report(_ text: String) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { ShownText.shown(String($0)) }
        var t = lines.joined(separator: "\n")
        if colorAllowed && stderrIsTerminal {
            for (word, style) in [("error:", ANSI.red + ANSI.bold), ("warning:", ANSI.yellow), ("hint:", ANSI.cyan)] {
                t = t.replacingOccurrences(of: word, with: style + word + ANSI.reset)
            }
        }
        tell(t)
    }

    /// Runs every statement of a script; stops at the first failure unless --keep-going.
    /// `name` is the script's file (errors then say `FILE:LINE:COL`), nil for `-e`.
    func runScript(_ text: String, name: String?) -> ExitStatus {
        var status = ExitStatus.success
        for piece in StatementReader.pieces(of: text) {
            loadRefused = false
            if !run(piece, script: name) {
                if unusableLedger { return .unusable }
                // A ledger file `.load` refused is status 2, as at start-up; the worst status stays.
                if loadRefused { status = .unusable } else if status == .success { status = .statementFailed }
                if !options.keepGoing { return status }
            }
            if quitRequested { break }
        }
        return status
    }

    /// Runs one piece of a script or of what was typed; false when it failed (already reported).
    @discardableResult
    func run(_ piece: ScriptPiece, script name: String?, echo: Bool = true) -> Bool {
        if echo && options.echo { self.echo(piece) }
        switch piece.kind {
        case .command:
            let start = piece.source.start
            return dotCommand(piece.text, location: name.map { "\($0):\(start.line):\(start.column)" })
        case .statement:
            return statement(piece.text) { error in
                guard let name else { return Diagnostic.render(error, statement: piece.text) }
                return Shell.diagnostic(error, statement: piece.text, at: piece.source, in: name)
            }
        }
    }

    /// --echo: the statement before its result; in JSON as an object of its own, so that every
    /// line stays one JSON object. A rates key is never shown.
    func echo(_ piece: ScriptPiece) {
        let text = piece.kind == .command && DotCommand.holdsSecret(piece.text) ? DotCommand.secretShown : piece.text
        say(renderer.format == .json ? "{\"statement\":" + JSONText.quote(text) + "}" : text)
    }

    /// An error in a script, at its own line and column of the file, drawn under the file's line.
    static func diagnostic(_ error: QueryError, statement: String, at span: SourceSpan, in name: String) -> String {
        guard let range = error.range, error.expansion == nil else {
            let start = span.start
            return Diagnostic.render(error, statement: statement, location: "\(name):\(start.line):\(start.column)")
        }
        let place = span.place(ofByte: range.lowerBound, in: statement)
        let end = span.place(ofByte: range.upperBound, in: statement)
        var local = error
        local.range = place.offset..<(end.line == place.line ? max(end.offset, place.offset) : place.text.utf8.count)
        // A tab is one byte and one column here, so the caret stays under the word.
        let line = place.text.replacingOccurrences(of: "\t", with: " ")
        return Diagnostic.render(local, statement: line, location: "\(name):\(place.line):\(place.column)")
    }

    /// Runs one statement or dot command given as text (the golden tests, --refresh-rates).
    @discardableResult
    func execute(_ text: String, location: String?) -> Bool {
        if text.hasPrefix(".") { return dotCommand(text, location: location) }
        return statement(text) { Diagnostic.render($0, statement: text, location: location) }
    }

    /// Stdout, when it is a pipe, holds up to 1 MB (Linux's limit for a user; 64 KB by
    /// default), so that a big answer is handed over in a few writes instead of waiting for the
    /// reader every 64 KB. Asked once, at the first big answer, and only to grow (a pipe its
    /// reader made bigger stays so); if the system says no, the pipe stays as it was. Elsewhere
    /// (a file, a terminal) nothing changes.
    static let roomyStandardOutputPipe: Void = {
        #if os(Linux)
        var st = stat()
        // F_GETPIPE_SZ (1032) and F_SETPIPE_SZ (1031) are not in Swift's Glibc module.
        if fstat(1, &st) == 0, st.st_mode & S_IFMT == S_IFIFO, fcntl(1, 1032) < 1 << 20 { _ = fcntl(1, 1031, Int32(1 << 20)) }
        #endif
    }()

    /// Runs a query-language statement and prints its result; false when it failed or was stopped.
    func statement(_ text: String, diagnose: (QueryError) -> String) -> Bool {
        let started = DispatchTime.now()
        interrupted = 0
        let stopped = QueryError(.cancelled, at: nil)
        do throws(QueryError) {
            // A query may run while the ledger files are still being hashed (its answer is shown
            // only once they are found to match the image); any other statement waits for that.
            let speculative = switch try? Parser.parse(text) { case .query?, .explain?: true; default: false }
            let output = try checkingLateSections(speculative: speculative) { () throws(QueryError) in try session.execute(text) }
            // Tab completes the names `define` added (and forgets those `undefine` dropped).
            if completer != nil { completer?.defined = session.definitions.values.map(\.name) }
            // Ctrl-C after the engine's last look: the answer is not wanted any more.
            if interrupted != 0 { throw stopped }
            switch output {
            case .table(let result):
                if renderer.format != .json { result.warnings.forEach { report("warning: " + $0) } }
                let sink: (String) -> Void = outputToStderr ? writeErr : writeOut
                let bytes: ((UnsafeRawBufferPointer) -> Void)? = outputToStderr || !writesStandardOutput ? nil : { raw in
                    guard let base = raw.baseAddress, raw.count > 0 else { return }
                    _ = Shell.roomyStandardOutputPipe
                    FileHandle.standardOutput.write(Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: raw.count, deallocator: .none))
                }
                // Markdown tables one after another are told apart by a blank line: without it a
                // renderer reads the second as more rows of the first.
                if renderer.format == .markdown {
                    if wroteMarkdownTable { sink("\n") }
                    wroteMarkdownTable = true
                }
                guard renderer.write(result, to: sink, bytes: bytes, isCancelled: { interrupted != 0 }) else { throw stopped }
            case .message(let m):
                announce(m)
            case .explain(let plan, let rates, let warnings):
                if renderer.format != .json { warnings.forEach { report("warning: " + $0) } }
                let text = renderer.render(plan: plan, rates: rates, warnings: warnings)
                if renderer.format.holdsOnlyTables { tell(text) } else { say(text) }
            }
        } catch {
            // Ctrl-C at a terminal left `^C` where the cursor was: the message starts a line of its own.
            if interrupted != 0 && stderrIsTerminal { tell("") }
            // An unusable ledger is reported once, where it was found.
            if !unusableLedger { report(diagnose(error)) }
            return false
        }
        if timer {
            let ms = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1_000_000
            tell(String(format: "Run Time: %.3f ms", ms))
        }
        return true
    }

    /// Runs `body` on a ledger from a store image only once it is known to be the ledger files'
    /// (their contents hashed: `LateSections.filesChangedNote`), or, `speculative`, while they are
    /// still being hashed, keeping what it made until they are found to match. When they do not,
    /// or when `body` read a stand-in for a section that failed the check made when it was first
    /// read, the image is given up with a note, the ledger files are read from the JSON, and
    /// `body` runs again on that: nothing made from a stale or damaged image is ever shown.
    func checkingLateSections<T>(speculative: Bool = false, _ body: () throws(QueryError) -> T) throws(QueryError) -> T {
        if !speculative { confirmFiles() }
        if unusableLedger { throw QueryError(.cancelled, at: nil) }
        guard let late = session.ledger.entries.lateSections else { return try body() }
        let before = late.standInReads
        let first: Result<T, QueryError>
        do throws(QueryError) { first = .success(try body()) } catch { first = .failure(error) }
        let note = late.filesChangedNote() ?? late.imageChangedNote()
            ?? (late.standInReads != before ? late.problem.map { StoreCache.ignoring(late.imagePath, $0) } : nil)
        guard let note else { return try first.get() }
        guard readJSONInstead(note: note) else { throw QueryError(.cancelled, at: nil) }
        return try body()
    }

    /// Waits until the ledger files of a session started from a store image are known to hold
    /// what the image was made from; when they do not, reads them from the JSON (with a note).
    func confirmFiles() {
        guard !unusableLedger, let late = session?.ledger.entries.lateSections, let note = late.filesChangedNote() else { return }
        _ = readJSONInstead(note: note)
    }

    /// The ledger files read from the JSON in place of an image that is stale or failed a late
    /// check, after `note`; false (reported) when they cannot be read: the ledger is then unusable.
    func readJSONInstead(note: String) -> Bool {
        if !note.isEmpty { tell(note) }
        guard let paths = fileLedger?.files, !paths.isEmpty else { return false }
        do {
            let files = try loadLedger(paths, usingTheImage: false)
            files.notes.forEach { tell("note: " + $0) }
            fileLedger = files
            session.replaceLedger(composed(files))
            if completer != nil { refreshCompletion() }
            return true
        } catch {
            report("error: " + error.description)
            unusableLedger = true
            return false
        }
    }

    static let dotCommands = [".help", ".load", ".reload", ".rates", ".run", ".format", ".timer", ".set", ".quit"]

    func dotCommand(_ text: String, location: String?) -> Bool {
        confirmFiles()
        let prefix = location.map { $0 + ": " } ?? ""
        func failure(_ message: String) -> Bool {
            report(prefix + "error: " + message)
            return false
        }
        func usage(_ u: String) -> Bool { failure("usage: " + u) }
        let command: DotCommand
        do throws(DotCommand.ParseError) {
            command = try DotCommand.parse(text)
        } catch {
            guard case .unterminatedQuote(let q) = error else { return false }
            return failure("unterminated \(q == "\"" ? "double" : "single") quote in \(text.prefix { $0 != " " && $0 != "\t" })")
        }
        let args = command.arguments
        let home = environment["HOME"]
        switch command.name {
        case ".quit", ".exit", ".q":
            guard args.isEmpty else { return usage(".quit (or Ctrl-D)") }
            quitRequested = true
        case ".help":
            let topic = args.joined(separator: " ")
            // `.help NAME` of a defined statement shows its definition (after the topic of that
            // name, when there is one: a definition does not hide it).
            let definition = session.definitions[topic.lowercased()].map { d in "define \(d.signature.replacingOccurrences(of: "$", with: "")) as \(d.body)" }
            guard let help = Help.text(topic: topic) else {
                if let definition { announce(definition); break }
                let defined = session.definitions.keys.sorted()
                var message = prefix + "error: no help on '\(ShownText.quoted(topic))'; topics: " + (Help.topics + defined).joined(separator: ", ")
                let word = topic.lowercased().drop { $0 == "." }
                if Shell.dotCommands.contains("." + word) {
                    message += "\nhint: .help commands describes .\(word) and the other dot commands"
                } else if Keywords.words(.statement).contains(String(word)) {
                    message += "\nhint: .help statements describes \(word) and the other statements"
                } else if let near = nearest(topic, in: Help.topics + defined) {
                    message += "\nhint: did you mean .help \(near)?"
                }
                report(message)
                return false
            }
            announce(help + (definition.map { "\n\n\(topic.lowercased()) is also a defined statement: \($0)" } ?? ""))
        case ".format", ".mode":
            // `.format json; count entries`: a dot command takes its whole line, which the message says.
            let glued = args.first?.contains(";") == true ? "; a dot command takes its whole line, so `;` does not end it" : ""
            guard args.count <= 1 else {
                return failure(".format takes one format (table, csv, json, markdown or chart), found '\(ShownText.quoted(args.joined(separator: " ")))'\(glued)")
            }
            guard let name = args.first else { announce(renderer.format.rawValue); break }
            guard let f = OutputFormat(rawValue: name.lowercased()) else {
                return failure("unknown format '\(ShownText.quoted(name))'\(glued): expected table, csv, json, markdown or chart")
            }
            renderer.format = f
        case ".timer":
            guard args.count <= 1 else { return usage(".timer on|off") }
            guard let setting = args.first?.lowercased() else { announce(timer ? "on" : "off"); break }
            guard ["on", "off"].contains(setting) else { return usage(".timer on|off") }
            timer = setting == "on"
        case ".set":
            // Settings of live rates, usable in ~/.abacusrc: ttl, rates-url, rates-key. Silent, like
            // sqlite3's settings, so an rc file adds nothing to a script's output.
            let all = ".set ttl MINUTES | .set rates-url URL | .set rates-key KEY"
            guard args.count == 2 else { return usage(all) }
            switch args[0].lowercased() {
            case "ttl":
                guard let minutes = Int(args[1]), minutes >= 0 else { return usage(".set ttl MINUTES") }
                liveRates?.ttlMinutes = minutes
            case "rates-url":
                liveRates?.urlTemplate = args[1]
            case "rates-key":
                liveRates?.key = args[1]
            default:
                return usage(all)
            }
        case ".load":
            guard args.count == 1 else { return usage(".load LEDGER.json (quote a path with spaces)") }
            if let external = options.external {
                return failure("the ledger is in the database \(external.name): .load reads ledger files; put them in the database with `abacus --db URL --import FILE`")
            }
            let file = command.path(0, home: home)
            // The file joins those already loaded (ids must stay unique across them), or replaces
            // the demo; a file already loaded is read again in its place (an edit is picked up).
            // All or nothing: on any error the session keeps what it had.
            let again = loadedPaths.contains { Shell.sameFile($0, file) }
            return reload(again ? loadedPaths : loadedPaths + [file], what: again ? "reloaded \(file)" : "loaded \(file)", location: location)
        case ".reload":
            guard args.isEmpty else { return usage(".reload (reads every loaded ledger file again)") }
            if options.external != nil { return reloadExternal(location: location) }
            guard !loadedPaths.isEmpty else { return failure("no ledger file is loaded (the demo is): .load FILE first") }
            return reload(loadedPaths, what: "reloaded " + Shell.counted(loadedPaths.count, "file", "files"), location: location)
        case ".rates":
            guard args.count == 1 else { return usage(".rates FILE (an ECB history CSV, a date,base,currency,rate CSV or a JSON array of rates)") }
            do {
                let added = try addRateFile(command.path(0, home: home))
                refreshCompletion()
                tell("added rates from " + added.summary)
            } catch {
                return failure(error.description)
            }
        case ".run", ".read":
            guard args.count == 1 else { return usage(".run SCRIPT (quote a path with spaces)") }
            let file = command.path(0, home: home)
            guard runDepth < 16 else { return failure(".run nests deeper than 16 scripts") }
            let text: String
            switch Shell.readScript(file) {
            case .success(let t): text = t
            case .failure(let reason): return failure("cannot read script \(file): \(reason.message)")
            }
            runDepth += 1
            defer { runDepth -= 1 }
            return runScript(text, name: file) == .success
        default:
            var message = prefix + "error: unknown command \(command.typedName)"
            if let near = nearest(command.name, in: Shell.dotCommands) { message += "\nhint: did you mean \(near)?" }
            else { message += "\nhint: .help lists the commands" }
            report(message)
            return false
        }
        return true
    }

    /// `1 entry`, `1,200 entries`.
    static func counted(_ n: Int, _ one: String, _ many: String) -> String {
        n.formatted(.number.locale(Locale(identifier: "en_US"))) + " " + (n == 1 ? one : many)
    }

    // MARK: REPL

    func repl() -> ExitStatus {
        lateImageFallback = { [weak self] late in
            self?.readJSONInstead(note: late.problem.map { StoreCache.ignoring(late.imagePath, $0) } ?? "") ?? false
        }
        confirmFiles()
        if unusableLedger { return .unusable }
        let editor = LineEditor(historyPath: LineEditor.defaultHistoryPath(environment: environment), report: { [weak self] in self?.tell($0) })
        refreshCompletion()
        say(banner())
        var reader = StatementReader()
        while !quitRequested {
            switch editor.read(prompt: reader.isContinuing ? "   ...> " : "abacus> ") {
            case .end:
                say("")
                // Ctrl-D in the middle of a statement leaves without running it, and says so.
                if reader.isContinuing { tell("note: the unfinished statement was not run") }
                return .success
            case .interrupt:
                // Abandon the line (and any continued statement); the next prompt starts on a fresh line.
                say("")
                reader.abandon()
            case .line(let line):
                let pieces = reader.read(line: line)
                guard !pieces.isEmpty else { continue }
                // What was typed, as one line that means the same when recalled; a key never.
                if !pieces.contains(where: { $0.kind == .command && DotCommand.holdsSecret($0.text) }) {
                    editor.remember(pieces.map { $0.kind == .command ? $0.text : StatementSplitter.joinedLines($0.text) }.joined(separator: "; "))
                }
                // The window may have changed size since the last statement.
                renderer.width = Shell.terminalWidth()
                for piece in pieces where !quitRequested {
                    run(piece, script: nil)
                    // Ledger files that could not be read again in place of the store image are
                    // tried again by the next statement (the user may be fixing them); until they
                    // can be read, every statement fails with their error.
                    unusableLedger = false
                }
            }
        }
        return .success
    }

    /// `Abacus 0.1.0 — demo.json: 1,200 entries in 6 books, default currency INR. …` (the
    /// database's URL, without its password, in place of the files under `--db`).
    func banner() -> String {
        let l = session.ledger
        if options.external == nil && loadedPaths.isEmpty {
            // No ledger named: the one line says so, and how to open one's own.
            return "Abacus \(abacusVersion) — no ledger named: the demo ledger (\(Shell.counted(l.entryCount, "entry", "entries")), "
                + "\(Shell.counted(l.books.count, "book", "books")), \(l.defaultCurrency)); `abacus LEDGER.json` opens yours. .help for help, Ctrl-D to leave."
        }
        let names = options.external?.name ?? loadedPaths.map { ($0 as NSString).lastPathComponent }.joined(separator: ", ")
        return "Abacus \(abacusVersion) — \(names): \(Shell.counted(l.entryCount, "entry", "entries")) in "
            + "\(Shell.counted(l.books.count, "book", "books")), default currency \(l.defaultCurrency). "
            + "Type .help for help, Ctrl-D to leave."
    }

    /// Tab completes from the ledger now loaded.
    func refreshCompletion() {
        completer = Completer(ledger: session.ledger)
        completer?.defined = session.definitions.values.map(\.name)
        completer?.watched = watchList.currencies.map(\.code)
    }

    /// Today in the local time zone (`TZ`, else the system's), from the C library: Foundation's
    /// calendar costs every start about a millisecond to set up.
    static func systemToday() -> Day {
        var now = time(nil)
        var local = tm()
        guard localtime_r(&now, &local) != nil else { return Day(number: 0) }
        return Day(year: Int(local.tm_year) + 1900, month: Int(local.tm_mon) + 1, day: Int(local.tm_mday)) ?? Day(number: 0)
    }
}

public let abacusVersion = "0.1.0"

extension Shell: SessionHost {
    public var watched: [Currency] { watchList.currencies }

    public func watch(_ currencies: [Currency]) throws(QueryError) -> [Currency] {
        try savingWatchList { list throws(AtomicFile.Failure) in try list.add(currencies) }
    }

    public func unwatch(_ currencies: [Currency]) throws(QueryError) -> [Currency] {
        try savingWatchList { list throws(AtomicFile.Failure) in try list.remove(currencies) }
    }

    /// A change of the watch list, which saves it; a failed save is the statement's error.
    private func savingWatchList(_ change: (inout WatchList) throws(AtomicFile.Failure) -> [Currency]) throws(QueryError) -> [Currency] {
        do throws(AtomicFile.Failure) {
            return try change(&watchList)
        } catch {
            throw QueryError(.unsupported("the watch list was not saved: \(error.description)"), at: nil)
        }
    }

    /// `rates import FILE`: as `.rates FILE`, all or nothing.
    public func importRates(_ path: String) throws(QueryError) -> String {
        let expanded = path.hasPrefix("~/") ? (environment["HOME"] ?? "~") + path.dropFirst() : path
        do throws(LoadError) {
            return try addRateFile(expanded).summary
        } catch {
            throw QueryError(.unsupported(error.description), at: nil)
        }
    }
}
