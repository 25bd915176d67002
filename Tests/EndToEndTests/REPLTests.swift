// The REPL of the real `abacus` binary, driven through a pseudo-terminal: what a
// person at a keyboard gets from line editing, completion, Ctrl-C, Ctrl-D and history.
//
// libedit repaints only the cells that change, so the raw bytes never hold an edited
// line in one piece: the tests assert on what the program answers (tables, totals,
// diagnostics), never on the echo of what was typed. Every wait is bounded, and a
// child that outlives its test is killed.

import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

struct PTYError: Error, CustomStringConvertible {
    var description: String
}

/// One `abacus` process on the far side of a pseudo-terminal.
final class PTYSession {
    let pid: pid_t
    private let master: Int32
    /// Everything read from the terminal so far.
    private(set) var bytes: [UInt8] = []
    /// Where the next `expect` starts looking: just past the previous match.
    private var cursor = 0
    /// The wait status once the child has been reaped.
    private var reapedStatus: Int32?

    /// forkpty opens the terminal's descriptors without close-on-exec; forking two sessions at
    /// once from parallel tests would let one child inherit the other's terminal.
    private static let forkLock = NSLock()

    /// Starts `abacus Examples/demo.json` in the package root with HOME and XDG_STATE_HOME at `stateDirectory`,
    /// in a terminal `columns` wide; `environment` adds to the variables set here, or removes one (nil).
    init(stateDirectory: String, arguments: [String] = ["Examples/demo.json"], environment: [String: String?] = [:],
         columns: UInt16 = 132) throws {
        var env = ProcessInfo.processInfo.environment
        for key in ["ABACUS_HISTORY", "ABACUS_TODAY", "ABACUS_DEMO_LEDGER", "COLUMNS", "LINES", "LC_ALL", "LC_CTYPE"] {
            env.removeValue(forKey: key)
        }
        env["HOME"] = stateDirectory
        env["XDG_STATE_HOME"] = stateDirectory
        env["XDG_CACHE_HOME"] = stateDirectory
        env["LANG"] = "C.UTF-8"
        env["TERM"] = "xterm"
        env["NO_COLOR"] = "1"
        for (key, value) in environment { env[key] = value }

        // Everything the child touches is made before fork: after it, only chdir, execve and _exit.
        guard let path = strdup(Binary.path), let directory = strdup(Binary.root.path) else {
            throw PTYError(description: "out of memory")
        }
        let argv = PTYSession.cStrings([Binary.path] + arguments)
        let envp = PTYSession.cStrings(env.map { "\($0.key)=\($0.value)" })
        defer {
            free(path); free(directory)
            PTYSession.freeCStrings(argv); PTYSession.freeCStrings(envp)
        }

        // Test threads may block signals, and a child inherits the mask: give it a clean one,
        // or Ctrl-C's SIGINT would never arrive.
        var noSignals = sigset_t()
        sigemptyset(&noSignals)

        var fd: Int32 = -1
        var size = winsize(ws_row: 40, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        PTYSession.forkLock.lock()
        let child = forkpty(&fd, nil, nil, &size)
        if child == 0 {
            sigprocmask(SIG_SETMASK, &noSignals, nil)
            signal(SIGINT, SIG_DFL); signal(SIGQUIT, SIG_DFL); signal(SIGTSTP, SIG_DFL); signal(SIGPIPE, SIG_DFL)
            chdir(directory)
            execve(path, argv, envp)
            _exit(127)
        }
        if child > 0 { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        PTYSession.forkLock.unlock()
        guard child > 0 else { throw PTYError(description: "forkpty failed: errno \(errno)") }
        pid = child
        master = fd
    }

    deinit {
        if reapedStatus == nil {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        }
        close(master)
    }

    /// Everything read so far, as text.
    var output: String { String(decoding: bytes, as: UTF8.self) }

    /// How many bytes were read so far: a mark for `output(since:)`.
    var mark: Int { bytes.count }

    /// What was read after `mark`.
    func output(since mark: Int) -> String { String(decoding: bytes[min(mark, bytes.count)...], as: UTF8.self) }

    /// Resizes the terminal, as a person dragging the window's edge (the child gets SIGWINCH).
    func resize(columns: UInt16) {
        var size = winsize(ws_row: 40, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
    }

    /// Types `text` (its UTF-8 bytes, control characters and all).
    func send(_ text: String) {
        let data = Array(text.utf8)
        var offset = 0
        while offset < data.count {
            let n = data[offset...].withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return
            }
            offset += n
        }
    }

    /// Reads until `substring` appears after the previous match; false when the time is up or the terminal closed.
    func expect(_ substring: String, timeout: Duration = .seconds(5)) -> Bool {
        let needle = Array(substring.utf8)
        let deadline = ContinuousClock.now + timeout
        while true {
            if let end = find(needle) {
                cursor = end
                return true
            }
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return false }
            if !readSome(timeoutMilliseconds: Int32(min(left / .milliseconds(1), 60_000)) + 1) {
                // EOF: nothing more will come.
                if let end = find(needle) { cursor = end; return true }
                return false
            }
        }
    }

    /// Waits for `prompt` and then for libedit to take the terminal out of canonical mode.
    ///
    /// libedit prints the prompt before it switches the terminal to raw mode (on its first read). A control
    /// character sent in that window meets the cooked terminal: Ctrl-D becomes an end-of-file mark that
    /// libedit later reads as a NUL byte, and Ctrl-C's SIGINT lands outside `readline`. No person types that
    /// fast; a test does, so it waits for raw mode before typing.
    func expectPrompt(_ prompt: String, timeout: Duration = .seconds(5)) -> Bool {
        let deadline = ContinuousClock.now + timeout
        guard expect(prompt, timeout: timeout) else { return false }
        while true {
            var t = termios()
            // On Linux the master side reports the terminal's settings.
            if tcgetattr(master, &t) == 0 && t.c_lflag & tcflag_t(ICANON) == 0 { return true }
            if ContinuousClock.now >= deadline { return false }
            if !readSome(timeoutMilliseconds: 1) { return false }
        }
    }

    /// Waits for the child to exit, reading its output meanwhile; kills it when the time is up.
    /// Returns the exit status, or nil when it had to be killed or died of a signal.
    func waitForExit(timeout: Duration = .seconds(5)) -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while reapedStatus == nil {
            var status: Int32 = 0
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid { reapedStatus = status; break }
            if r == -1 && errno != EINTR { return nil }
            if ContinuousClock.now >= deadline {
                kill(pid, SIGKILL)
                while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
                reapedStatus = status
                return nil
            }
            if !readSome(timeoutMilliseconds: 20) { usleep(10_000) }
        }
        let status = reapedStatus!
        // WIFEXITED / WEXITSTATUS, which Swift does not import.
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : nil
    }

    /// True while the child has not exited.
    var isRunning: Bool {
        if reapedStatus != nil { return false }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { reapedStatus = status; return false }
        return kill(pid, 0) == 0
    }

    /// Reads what is available within the timeout; false at end of file (the child closed the terminal).
    private func readSome(timeoutMilliseconds: Int32) -> Bool {
        var p = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        let ready = poll(&p, 1, timeoutMilliseconds)
        if ready <= 0 { return true }
        var chunk = [UInt8](repeating: 0, count: 4096)
        let n = chunk.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
        if n > 0 { bytes += chunk[0..<n]; return true }
        if n < 0 && (errno == EINTR || errno == EAGAIN) { return true }
        return false  // 0, or EIO once the slave side is closed
    }

    private func find(_ needle: [UInt8]) -> Int? {
        guard !needle.isEmpty else { return cursor }
        guard bytes.count - cursor >= needle.count else { return nil }
        var i = cursor
        while i + needle.count <= bytes.count {
            if bytes[i] == needle[0] && bytes[i..<(i + needle.count)].elementsEqual(needle) { return i + needle.count }
            i += 1
        }
        return nil
    }

    private static func cStrings(_ strings: [String]) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> {
        let list = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: strings.count + 1)
        for (i, s) in strings.enumerated() { list[i] = strdup(s) }
        list[strings.count] = nil
        return list
    }

    private static func freeCStrings(_ list: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) {
        var i = 0
        while let s = list[i] { free(s); i += 1 }
        list.deallocate()
    }
}

/// A fresh HOME / XDG_STATE_HOME for one test, removed afterwards.
final class StateDirectory {
    let path: String
    init() throws {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("abacus-repl-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        path = url.path
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
}

@Suite struct REPLTests {
    static let prompt = "abacus> "
    static let continuation = "   ...> "

    /// A session at its first prompt.
    func started(_ state: StateDirectory) throws -> PTYSession {
        let s = try PTYSession(stateDirectory: state.path)
        try #require(s.expectPrompt(REPLTests.prompt), "no prompt; output: \(s.output.debugDescription)")
        return s
    }

    @Test func bannerNamesTheLedger() throws {
        let state = try StateDirectory()
        let s = try PTYSession(stateDirectory: state.path)
        #expect(s.expect("Abacus "), "output: \(s.output.debugDescription)")
        // The file's name and a grouped count: `demo.json: 1,200 entries in 6 books`.
        #expect(s.expect("demo.json: 1,200 entries in 6 books"), "output: \(s.output.debugDescription)")
        #expect(s.expectPrompt(REPLTests.prompt), "output: \(s.output.debugDescription)")
    }

    /// With no ledger named, one line says so and which ledger is open (README.md), not two.
    @Test func theDemoLedgerIsAnnouncedInOneLine() throws {
        let state = try StateDirectory()
        let s = try PTYSession(stateDirectory: state.path, arguments: [])
        #expect(s.expectPrompt(REPLTests.prompt), "output: \(s.output.debugDescription)")
        #expect(s.output.contains("no ledger named: the demo ledger (1,200 entries, 6 books, INR); `abacus LEDGER.json` opens yours."), "output: \(s.output.debugDescription)")
        #expect(!s.output.contains("No ledger named"), "output: \(s.output.debugDescription)")
    }

    @Test func aStatementPrintsItsResult() throws {
        let state = try StateDirectory()
        let s = try started(state)
        s.send("sum expenses in INR by book\r")
        #expect(s.expect("Singapore Trip"), "output: \(s.output.debugDescription)")
        #expect(s.expect("₹47,48,506.89"), "output: \(s.output.debugDescription)")
        #expect(s.expectPrompt(REPLTests.prompt), "no prompt after the result; output: \(s.output.debugDescription)")
    }

    @Test func tabCompletesAKeyword() throws {
        let state = try StateDirectory()
        let s = try started(state)
        s.send("count entries by paym")
        s.send("\t")
        s.send("\r")
        // Only `count entries by payment` gives this table; `by paym` would be an error.
        #expect(s.expect("│ payment "), "output: \(s.output.debugDescription)")
        #expect(s.expect("│ Credit Card "), "output: \(s.output.debugDescription)")
        #expect(s.expect("│  1200 │"), "output: \(s.output.debugDescription)")
    }

    @Test func tabCompletesWhatTheCandidatesShareWhateverTheirCase() throws {
        // `boo` matches book, books and the party BookMyShow (matching ignores case): all of them
        // begin with "book", so Tab should complete that much.
        let state = try StateDirectory()
        let s = try started(state)
        s.send("count entries by boo")
        s.send("\t")
        s.send("\r")
        try #require(s.expect("Singapore Trip"), "Tab did not complete `boo` to `book`; output: \(s.output.debugDescription)")
        #expect(s.expect("│  1200 │"), "output: \(s.output.debugDescription)")
    }

    @Test func tabCompletesACategoryName() throws {
        let state = try StateDirectory()
        let s = try started(state)
        s.send("count entries by category where category = Prof")
        s.send("\t")
        s.send("\r")
        // The whole two-word name, or no such row: `category = Prof` names no category.
        try #require(s.expect("│ Professional Services │"), "output: \(s.output.debugDescription)")
        #expect(s.expect("│     8 │"), "output: \(s.output.debugDescription)")
        #expect(s.expectPrompt(REPLTests.prompt), "output: \(s.output.debugDescription)")
    }

    @Test func ctrlCAbandonsTheContinuedStatement() throws {
        let state = try StateDirectory()
        let s = try started(state)
        s.send("count entries by (\r")
        try #require(s.expectPrompt(REPLTests.continuation), "an open parenthesis should continue; output: \(s.output.debugDescription)")
        s.send("\u{03}")
        // Ctrl-C discards typed-ahead input: wait for the fresh prompt before typing.
        try #require(s.expectPrompt(REPLTests.prompt), "no fresh prompt after Ctrl-C; output: \(s.output.debugDescription)")
        s.send("count entries\r")
        #expect(s.expect("│  1200 │"), "output: \(s.output.debugDescription)")
        #expect(s.expectPrompt(REPLTests.prompt), "output: \(s.output.debugDescription)")
        #expect(s.isRunning)
        s.send("\u{04}")
        #expect(s.waitForExit() == 0, "output: \(s.output.debugDescription)")
    }

    @Test func aTrailingBackslashContinuesTheStatement() throws {
        let state = try StateDirectory()
        let s = try started(state)
        s.send("count entries \\\r")
        try #require(s.expectPrompt(REPLTests.continuation), "output: \(s.output.debugDescription)")
        s.send("by book\r")
        #expect(s.expect("Singapore Trip"), "output: \(s.output.debugDescription)")
        #expect(s.expect("│  1200 │"), "output: \(s.output.debugDescription)")
    }

    @Test func ctrlDOnAnEmptyLineLeavesWithZero() throws {
        let state = try StateDirectory()
        let s = try started(state)
        s.send("\u{04}")
        #expect(s.waitForExit() == 0, "output: \(s.output.debugDescription)")
    }

    /// A statement used again is kept once, where it was last used: the next start drops the
    /// older repeats a file holds.
    @Test func historyKeepsEachStatementOnceWhereItWasLastUsed() throws {
        let state = try StateDirectory()
        let file = state.path + "/abacus/history"
        try FileManager.default.createDirectory(atPath: state.path + "/abacus", withIntermediateDirectories: true)
        try "_HiStOrY_V2_\ncount\\040entries\nbooks\ncount\\040entries\ncategories\ncount\\040entries\n".write(toFile: file, atomically: true, encoding: .utf8)
        let session = try started(state)
        session.send("\u{04}")
        #expect(session.waitForExit() == 0, "output: \(session.output.debugDescription)")
        let saved = String(decoding: try #require(FileManager.default.contents(atPath: file)), as: UTF8.self)
        #expect(saved == "_HiStOrY_V2_\nbooks\ncategories\ncount\\040entries\n")
    }

    /// Within a session too, a statement used again is kept once, where it was last used: after
    /// `count income`, `count entries by book`, `count income`, the third Up is the oldest left,
    /// `count entries by book` (it was the first `count income`).
    @Test func aSessionFoldsARepeatOfAnyEarlierStatement() throws {
        let state = try StateDirectory()
        let s = try started(state)
        for statement in ["count income", "count entries by book", "count income"] {
            s.send(statement + "\r")
            try #require(s.expectPrompt(REPLTests.prompt), "output: \(s.output.debugDescription)")
        }
        s.send("\u{1B}[A\u{1B}[A\u{1B}[A\r")
        #expect(s.expect("Singapore Trip"), "the third Up was not `count entries by book`; output: \(s.output.debugDescription)")
        #expect(s.expectPrompt(REPLTests.prompt), "output: \(s.output.debugDescription)")
        s.send("\u{04}")
        #expect(s.waitForExit() == 0, "output: \(s.output.debugDescription)")
    }

    /// Ctrl-D in the middle of a statement leaves without running it, and says so (it said nothing).
    @Test func ctrlDOnAContinuationLineSaysTheStatementWasNotRun() throws {
        let state = try StateDirectory()
        let s = try started(state)
        s.send("count entries \\\r")
        try #require(s.expectPrompt(REPLTests.continuation), "no continuation prompt; output: \(s.output.debugDescription)")
        s.send("\u{04}")
        // Read the note as it comes: once the child is reaped, what it wrote last may not have been read yet.
        #expect(s.expect("note: the unfinished statement was not run"), "output: \(s.output.debugDescription)")
        #expect(s.waitForExit() == 0, "output: \(s.output.debugDescription)")
        #expect(!s.output.contains("1200"), "the statement ran; output: \(s.output.debugDescription)")
    }

    @Test func historySurvivesARestart() throws {
        let state = try StateDirectory()
        do {
            let first = try started(state)
            first.send("count entries by book\r")
            try #require(first.expect("Singapore Trip"), "output: \(first.output.debugDescription)")
            try #require(first.expectPrompt(REPLTests.prompt), "output: \(first.output.debugDescription)")
            first.send("\u{04}")
            #expect(first.waitForExit() == 0, "output: \(first.output.debugDescription)")
        }
        let file = state.path + "/abacus/history"
        let saved = try #require(FileManager.default.contents(atPath: file), "no history file at \(file)")
        // libedit's format stores spaces as \040.
        #expect(String(decoding: saved, as: UTF8.self).contains("count\\040entries\\040by\\040book"))

        let second = try started(state)
        second.send("\u{1B}[A")
        second.send("\r")
        #expect(second.expect("Singapore Trip"), "Up did not recall `count entries by book`; output: \(second.output.debugDescription)")
        #expect(second.expectPrompt(REPLTests.prompt), "output: \(second.output.debugDescription)")
        second.send("\u{04}")
        #expect(second.waitForExit() == 0, "output: \(second.output.debugDescription)")
    }
}

/// What an audit of the shell found wanting, driven as a person would drive it.
@Suite struct REPLBehaviourTests {
    func started(_ state: StateDirectory, arguments: [String] = ["Examples/demo.json"], environment: [String: String?] = [:],
                 columns: UInt16 = 132) throws -> PTYSession {
        let s = try PTYSession(stateDirectory: state.path, arguments: arguments, environment: environment, columns: columns)
        try #require(s.expectPrompt(REPLTests.prompt), "no prompt; output: \(s.output.debugDescription)")
        return s
    }

    @Test func tabCompletesANameWhoseSharedPrefixEndsInASpace() throws {
        // "Café de Flore" and "Café Einstein": the first Tab gives `"Café `, and after `E` the space
        // must not cut the word, or no Tab could finish the name.
        let state = try StateDirectory()
        let s = try started(state)
        s.send("sum expenses where party = Caf")
        s.send("\t")
        s.send("E")
        s.send("\t")
        s.send("\r")
        // Only party = "Café Einstein" gives this total (the two Cafés together give more).
        #expect(s.expect("₹8,205.65"), "output: \(s.output.debugDescription)")
        #expect(s.expectPrompt(REPLTests.prompt))
    }

    @Test func tabCompletesAPathWithItsFolders() throws {
        let state = try StateDirectory()
        let folder = state.path + "/scripts and more"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "count entries by payment\n".write(toFile: folder + "/payments.abq", atomically: true, encoding: .utf8)
        let s = try started(state)
        // The folder holds one file: Tab completes `~/scri` to the folder (escaping its spaces), then the file.
        s.send(".run ~/scri")
        s.send("\t")
        s.send("\t")
        s.send("\r")
        #expect(s.expect("│ Credit Card "), "output: \(s.output.debugDescription)")
        #expect(s.expectPrompt(REPLTests.prompt))
    }

    @Test func ctrlCAtTheListingQuestionGivesAFreshLine() throws {
        let state = try StateDirectory()
        let s = try started(state)
        s.send(".load /usr/bin/")
        s.send("\t")
        s.send("\t")
        try #require(s.expect("possibilities? (y or n)"), "output: \(s.output.debugDescription)")
        s.send("\u{03}")
        try #require(s.expectPrompt(REPLTests.prompt), "no fresh prompt; output: \(s.output.debugDescription)")
        s.send("count entries\r")
        // Not `.load /usr/bin/count entries`: the abandoned line is gone.
        #expect(s.expect("│  1200 │"), "output: \(s.output.debugDescription)")
    }

    @Test func aMultiLineStatementWithACommentIsRecalledAsOneWorkingLine() throws {
        let state = try StateDirectory()
        do {
            let first = try started(state)
            first.send("sum expenses where (category = Rent  -- the rent\r")
            try #require(first.expectPrompt(REPLTests.continuation))
            first.send("or category = Taxes)\r")
            try #require(first.expect("₹7,95,950.00"), "output: \(first.output.debugDescription)")
            try #require(first.expectPrompt(REPLTests.prompt))
            first.send("\u{04}")
            #expect(first.waitForExit() == 0)
        }
        let saved = try String(contentsOfFile: state.path + "/abacus/history", encoding: .utf8)
        #expect(saved.contains("sum\\040expenses\\040where\\040(category\\040=\\040Rent\\040or\\040category\\040=\\040Taxes)\n"))
        let second = try started(state)
        second.send("\u{1B}[A")
        second.send("\r")
        #expect(second.expect("₹7,95,950.00"), "the recalled statement did not run; output: \(second.output.debugDescription)")
        #expect(second.expectPrompt(REPLTests.prompt))
    }

    @Test func aRatesKeyNeverReachesHistory() throws {
        let state = try StateDirectory()
        let s = try started(state, arguments: ["Examples/demo.json", "--offline"])
        for line in [".set  rates-key SECRET-ONE", ".SET rates-key SECRET-TWO", "  .set rates-KEY   SECRET-THREE"] {
            s.send(line + "\r")
            try #require(s.expectPrompt(REPLTests.prompt))
        }
        s.send("count entries\r")
        try #require(s.expect("│  1200 │"))
        try #require(s.expectPrompt(REPLTests.prompt))
        let saved = try String(contentsOfFile: state.path + "/abacus/history", encoding: .utf8)
        #expect(!saved.contains("SECRET") && !saved.lowercased().contains("rates-key"))
        #expect(saved.contains("count\\040entries"))
    }

    @Test func twoSessionsAtOnceKeepEachOthersHistory() throws {
        let state = try StateDirectory()
        let a = try started(state)
        let b = try started(state)
        for (s, statement) in [(a, "count entries by book"), (b, "count entries by category"), (a, "count entries by month")] {
            s.send(statement + "\r")
            try #require(s.expect("│  1200 │"), "output: \(s.output.debugDescription)")
            try #require(s.expectPrompt(REPLTests.prompt))
        }
        a.send("\u{04}")
        b.send("\u{04}")
        #expect(a.waitForExit() == 0 && b.waitForExit() == 0)
        let saved = try String(contentsOfFile: state.path + "/abacus/history", encoding: .utf8)
        #expect(saved == "_HiStOrY_V2_\ncount\\040entries\\040by\\040book\ncount\\040entries\\040by\\040category\ncount\\040entries\\040by\\040month\n")
    }

    @Test func ctrlCStopsAStatementWhileItsResultIsPrinted() throws {
        // 30,000 entries print as about 2 MB of table. The test reads up to the first row and then
        // stops reading, so the shell is surely still printing (blocked on a full terminal) when
        // Ctrl-C comes: it must stop there, not print the remaining rows and the total.
        let state = try StateDirectory()
        var json = #"{"version":1,"defaultCurrency":"INR","books":[{"id":"b1","name":"Home","currency":"INR","lockedExchangeRate":null,"targetCurrency":"INR","rateLockedAt":"2025-01-01"}],"entries":["#
        for i in 0..<30_000 {
            json += (i == 0 ? "" : ",") + #"{"id":"e\#(i)","bookId":"b1","amount":-\#(i % 5000 + 1).\#(10 + i % 90),"date":"2025-\#(String(format: "%02d", i % 12 + 1))-\#(String(format: "%02d", i % 28 + 1))","category":"C\#(i % 7)","party":"P\#(i % 50)"}"#
        }
        json += "]}\n"
        let ledger = state.path + "/big.json"
        try json.write(toFile: ledger, atomically: true, encoding: .utf8)
        let s = try started(state, arguments: [ledger])
        s.send("list entries\r")
        try #require(s.expect("│ 2025-", timeout: .seconds(60)), "no rows; output: \(s.output.suffix(2000).debugDescription)")
        s.send("\u{03}")
        try #require(s.expect("error: interrupted", timeout: .seconds(30)), "not stopped; output: \(s.output.suffix(2000).debugDescription)")
        #expect(s.expectPrompt(REPLTests.prompt))
        #expect(!s.output.contains("│ Total"))
        // The session goes on.
        s.send("count entries\r")
        #expect(s.expect("│ 30000 │"), "output: \(s.output.suffix(2000).debugDescription)")
    }

    @Test func scriptsOnATerminalPrintNoColourButTheShellDoes() throws {
        let state = try StateDirectory()
        let script = state.path + "/s.abq"
        try "count entries by book\nsum bogus\n".write(toFile: script, atomically: true, encoding: .utf8)
        // -f on a terminal: no colour, no prompt. NO_COLOR is unset here.
        let f = try PTYSession(stateDirectory: state.path, arguments: ["Examples/demo.json", "-f", script], environment: ["NO_COLOR": nil])
        #expect(f.waitForExit(timeout: .seconds(10)) == 1)
        #expect(f.output.contains("Singapore Trip") && f.output.contains("error:"))
        #expect(!f.output.contains("\u{1B}["), "colour in a script run: \(f.output.debugDescription)")
        #expect(!f.output.contains(REPLTests.prompt))
        // -e on a terminal is a person asking: bold header. An empty NO_COLOR is no request (no-color.org).
        let e = try PTYSession(stateDirectory: state.path, arguments: ["Examples/demo.json", "-e", "count entries"], environment: ["NO_COLOR": ""])
        #expect(e.waitForExit(timeout: .seconds(10)) == 0)
        #expect(e.output.contains("\u{1B}[1mcount\u{1B}[0m"), "output: \(e.output.debugDescription)")
        // A dumb terminal gets none.
        let dumb = try PTYSession(stateDirectory: state.path, arguments: ["Examples/demo.json", "-e", "count entries"], environment: ["NO_COLOR": nil, "TERM": "dumb"])
        #expect(dumb.waitForExit(timeout: .seconds(10)) == 0)
        #expect(dumb.output.contains("│ count │") && !dumb.output.contains("\u{1B}["))
    }

    @Test func tablesFitTheWindowAndFollowItsResizing() throws {
        let state = try StateDirectory()
        let s = try started(state, columns: 60)
        var mark = s.mark
        func tableLines() -> [String] {
            s.output(since: mark).split(separator: "\r\n").map(String.init).filter { $0.hasPrefix("│") || $0.hasPrefix("┌") }
        }
        func width(_ line: String) -> Int { line.unicodeScalars.count }
        s.send("list expenses where amount > 50000 order by amount desc top 4\r")
        try #require(s.expect("└"))
        try #require(s.expect("\n"))
        // Dates whole, money whole, every line within 60 columns.
        var lines = tableLines()
        #expect(!lines.isEmpty && lines.allSatisfy { width($0) <= 60 }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("│ 2025-01-08 ") && $0.contains("₹2,11,503.36") })
        try #require(s.expectPrompt(REPLTests.prompt))
        s.resize(columns: 40)
        mark = s.mark
        s.send("list expenses top 2\r")
        try #require(s.expect("└"))
        try #require(s.expect("stands for"))
        lines = tableLines()
        #expect(!lines.isEmpty && lines.allSatisfy { width($0) <= 40 }, "\(lines)")
        // The date column is as wide as its total row's label ("Total (top 2)").
        #expect(s.output.contains("│ 2025-01-08    │ … │ ₹2,11,503.36 │"))
    }
}
