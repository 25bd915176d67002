// Line editing and history through libedit's readline-compatible API.
//
// libedit wants C callbacks without captures, so the completer lives in a global
// the shell fills. Tab runs our own command: it asks the completer where the word
// at the cursor begins (inside an unclosed quote, or a path with its folders),
// sets libedit's word-break characters so that libedit's word is that one, then
// lets libedit complete it (common prefix, listing on a second Tab).
//
// History is kept in `$XDG_STATE_HOME/abacus/history` (or `ABACUS_HISTORY`) in
// libedit's format, but written here: each statement is appended as it is run,
// so two sessions at once keep each other's lines (libedit's `write_history`
// rewrites the whole file, and its `append_history` and `history_truncate_file`
// write a line too many and drop the file's header). The file is cut to the
// limit when a session starts. A file that is not libedit's, or that cannot be
// written, is reported once and left alone.
//
// Ctrl-C and Ctrl-D both make `readline` return NULL; a SIGINT flag tells them apart.

import AbacusCore
@preconcurrency import CEditLine
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Decides what Tab offers; set by the shell once a ledger is loaded.
nonisolated(unsafe) var completer: Completer?
/// Set by the shell: reads the JSON in place of a store image a completion found damaged
/// (`Shell.readJSONInstead`), true when it did (and `completer` is then made anew).
nonisolated(unsafe) var lateImageFallback: ((LateSections) -> Bool)?
nonisolated(unsafe) private var wordBreaks: UnsafeMutablePointer<CChar>? = strdup(Completer.plainBreaks)
nonisolated(unsafe) var interrupted: sig_atomic_t = 0
nonisolated(unsafe) private var readlineName: UnsafeMutablePointer<CChar>? = strdup("abacus")
nonisolated(unsafe) private var completionMatchesList: [String] = []
nonisolated(unsafe) private var currentPrompt = ""
/// Set when Tab asked "Display all N possibilities?" (the line is drawn anew below the question).
nonisolated(unsafe) private var askedAboutListing = false

public enum LineInput {
    case line(String)
    /// Ctrl-C: the line was abandoned.
    case interrupt
    /// Ctrl-D.
    case end
}

public final class LineEditor {
    /// Where history is saved; nil when it cannot be (no path, a foreign file, a write failed).
    public private(set) var historyPath: String?
    static let historyLimit = 2000
    static let historyCookie = "_HiStOrY_V2_"
    /// Problems with the history file, said once on stderr.
    private let report: (String) -> Void

    public init(historyPath: String?, report: @escaping (String) -> Void = { _ in }) {
        self.historyPath = historyPath
        self.report = report
        // Without a UTF-8 locale libedit drops every non-ASCII byte ("café" arrives as "caf").
        setlocale(LC_ALL, "")
        if String(cString: nl_langinfo(nl_item(CODESET))) != "UTF-8" { setlocale(LC_CTYPE, "C.UTF-8") }
        rl_readline_name = UnsafePointer(readlineName)
        rl_basic_word_break_characters = UnsafePointer(wordBreaks)
        rl_attempted_completion_function = { _, _, _ in
            rl_attempted_completion_over = 1
            guard let completion = LineEditor.completion() else { return nil }
            completionMatchesList = completion.candidates
            guard !completionMatchesList.isEmpty else { return nil }
            // A second Tab lists the candidates; many of them only if the person says so.
            if rl_completion_type == Int32(UInt8(ascii: "?")) && completionMatchesList.count > LineEditor.listingQuestionAbove {
                askedAboutListing = true
                guard LineEditor.confirmListing(completionMatchesList.count) else { return nil }
            }
            let word = LineEditor.wordText(completion)
            // A single folder is not finished: no space after `Examples/`.
            rl_completion_append_character = completionMatchesList.count == 1 && completionMatchesList[0].hasSuffix("/") ? 0 : 0x20
            return word.withCString { text in
                rl_completion_matches(text) { _, state in
                    let i = Int(state)
                    guard i < completionMatchesList.count else { return nil }
                    return strdup(completionMatchesList[i])
                }
            }
        }
        // libedit's own question reads the answer with getc: a Ctrl-C that comes just before that read
        // leaves it waiting in a cooked terminal. The question is asked here instead (confirmListing).
        rl_completion_query_items = Int32.max
        using_history()
        // Tab is ours (see the header); rl_initialize, run by using_history, has read ~/.editrc.
        _ = rl_add_defun("abacus-complete", { _, key in LineEditor.tab(key) }, 9)
        stifle_history(Int32(LineEditor.historyLimit))
        loadHistory()
        signal(SIGINT) { _ in interrupted = 1 }
    }

    public func read(prompt: String) -> LineInput {
        interrupted = 0
        currentPrompt = prompt
        guard let p = readline(prompt) else {
            if interrupted != 0 { interrupted = 0; return .interrupt }
            return .end
        }
        defer { free(p) }
        return .line(String(cString: p))
    }

    // MARK: Completion

    /// The line up to the cursor. libedit keeps the line in wide characters, and `rl_point`
    /// counts those (Unicode scalars here), not bytes.
    static func lineBeforeCursor() -> String? {
        guard let buffer = rl_line_buffer else { return nil }
        let scalars = String(cString: buffer).unicodeScalars
        var before = String.UnicodeScalarView()
        before.append(contentsOf: scalars.prefix(max(0, Int(rl_point))))
        return String(before)
    }

    /// The completion at the cursor, from the line libedit holds now.
    static func completion() -> Completer.Completion? {
        guard let first = completer, let before = lineBeforeCursor() else { return nil }
        let late = first.ledger.entries.lateSections, reads = late?.standInReads ?? 0
        let answer = first.complete(before)
        // The names came from a section of the store image that failed its check: the shell
        // reads the JSON instead, and the completion is made again from that.
        guard let late, late.standInReads != reads else { return answer }
        guard lateImageFallback?(late) == true, let fresh = completer else { return nil }
        return fresh.complete(before)
    }

    static func wordText(_ c: Completer.Completion) -> String {
        let before = Array((lineBeforeCursor() ?? "").utf8)
        return String(decoding: before[min(c.wordStart, before.count)...], as: UTF8.self)
    }

    /// What a libedit command asks of the display (histedit.h's CC_REFRESH, CC_REDISPLAY).
    static let ccRefresh: Int32 = 4
    static let ccRedisplay: Int32 = 8

    /// Tab: make libedit's word ours, complete it, and show the result.
    static func tab(_ key: Int32) -> Int32 {
        guard let c = completion() else { return 0 }
        askedAboutListing = false
        free(wordBreaks)
        wordBreaks = strdup(c.breakCharacters)
        rl_basic_word_break_characters = UnsafePointer(wordBreaks)
        let result = rl_complete(0, key)
        // Ctrl-C at "Display all N possibilities? (y or n)": abandon the line, like Ctrl-C anywhere.
        if interrupted != 0 {
            rl_done = 1
            return 0
        }
        // libedit redraws after its own commands only; this one must redraw the line itself.
        switch result {
        case LineEditor.ccRefresh:
            redrawFromPromptRow()
        case LineEditor.ccRedisplay:
            // The listing left the cursor at the start of a fresh line: draw prompt and line there.
            rl_forced_update_display()
        default:
            // After "no" to the question the cursor is on a fresh line too.
            if askedAboutListing { rl_forced_update_display() }
        }
        return 0
    }

    /// Above this many candidates, listing them asks first (as libedit would).
    static let listingQuestionAbove = 100

    /// "Display all N possibilities? (y or n)": true for `y`. The answer is read with a poll
    /// that also watches the Ctrl-C flag, so Ctrl-C abandons the line whenever it comes.
    static func confirmListing(_ count: Int) -> Bool {
        FileHandle.standardOutput.write(Data("\nDisplay all \(count) possibilities? (y or n) ".utf8))
        var answer: UInt8 = 0
        while interrupted == 0 {
            var p = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 100) > 0 else { continue }
            if Glibc.read(0, &answer, 1) == 1 { break }
            if errno != EINTR && errno != EAGAIN { break }
        }
        let yes = interrupted == 0 && answer == UInt8(ascii: "y")
        if !yes { FileHandle.standardOutput.write(Data("\n".utf8)) }
        return yes
    }

    /// Moves to the start of the row where the prompt begins and draws prompt and line anew.
    private static func redrawFromPromptRow() {
        guard let before = lineBeforeCursor() else { return }
        var size = winsize()
        let columns = ioctl(1, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 ? Int(size.ws_col) : 80
        // rl_point is where the word ended before the completion was inserted: where the cursor was.
        let row = (TextWidth.of(currentPrompt) + TextWidth.of(before)) / columns
        var move = "\r"
        if row > 0 { move = "\u{1B}[\(row)A\r" }
        FileHandle.standardOutput.write(Data(move.utf8))
        rl_forced_update_display()
    }

    // MARK: History

    /// Reads the history file into libedit, cutting it to the limit; reports a foreign or unreadable file once.
    private func loadHistory() {
        guard let path = historyPath else { return }
        let folder = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            giveUpHistory("cannot create \(folder)")
            return
        }
        guard FileManager.default.fileExists(atPath: path) else { return }
        guard let data = FileManager.default.contents(atPath: path) else {
            giveUpHistory("cannot read \(path)")
            return
        }
        if data.isEmpty { return }
        var lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.first == Substring(LineEditor.historyCookie) else {
            // Perhaps GNU readline's: overwriting it would lose someone's history.
            giveUpHistory("\(path) is not a libedit history file (it does not begin with \(LineEditor.historyCookie)); leaving it untouched")
            return
        }
        if lines.last?.isEmpty == true { lines.removeLast() }
        // Each statement once, where it was last used (a session folds its own history, and
        // appends each statement to the file: the repeats there go here), and no more than the limit.
        let entries = lines.dropFirst()
        var seen = Set<Substring>()
        let folded = entries.reversed().filter { seen.insert($0).inserted }.reversed().suffix(LineEditor.historyLimit)
        if folded.count != entries.count {
            let kept = [lines[0]] + folded
            let text = kept.joined(separator: "\n") + "\n"
            let temporary = path + ".\(getpid()).tmp"
            if FileManager.default.createFile(atPath: temporary, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]),
               rename(temporary, path) == 0 {
            } else {
                unlink(temporary)
            }
        }
        _ = read_history(path)
    }

    private func giveUpHistory(_ why: String) {
        report("warning: history is not saved: \(why)")
        historyPath = nil
    }

    /// Adds a statement to history and appends it to the file. A statement used again is kept
    /// once, where it was last used: in this session's history at once, in the file when it is
    /// next read (`loadHistory` folds it).
    public func remember(_ statement: String) {
        let trimmed = statement.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return }
        if history_length > 0, let last = history_get(history_base + history_length - 1), let line = last.pointee.line,
           String(cString: line) == trimmed { return }
        var i: Int32 = 0
        while i < history_length {
            if let e = history_get(history_base + i), let line = e.pointee.line, String(cString: line) == trimmed, let removed = remove_history(i) {
                _ = free_history_entry(removed)
                continue
            }
            i += 1
        }
        add_history(trimmed)
        guard let path = historyPath else { return }
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        guard fd >= 0 else {
            giveUpHistory("cannot write \(path): \(String(cString: strerror(errno)))")
            return
        }
        defer { close(fd) }
        var record = LineEditor.encoded(trimmed) + "\n"
        var status = stat()
        if fstat(fd, &status) == 0 && status.st_size == 0 { record = LineEditor.historyCookie + "\n" + record }
        let bytes = Array(record.utf8)
        // One write: lines of two sessions appending at once do not interleave.
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        if written != bytes.count { giveUpHistory("cannot write \(path): \(String(cString: strerror(errno)))") }
    }

    /// A history line in libedit's file format (strvis with VIS_WHITE): blanks, line breaks,
    /// control characters and backslashes as octal or `\\`, so one entry is one line.
    static func encoded(_ line: String) -> String {
        var out: [UInt8] = []
        for b in line.utf8 {
            if b == UInt8(ascii: "\\") {
                out += [b, b]
            } else if b <= 0x20 || b == 0x7F {
                let octal = String(b, radix: 8)
                out += Array(("\\" + String(repeating: "0", count: 3 - octal.count) + octal).utf8)
            } else {
                out.append(b)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Where history lives: `ABACUS_HISTORY`, else `$XDG_STATE_HOME/abacus/history`, else `~/.local/state/abacus/history`.
    public static func defaultHistoryPath(environment: [String: String]) -> String? {
        if let p = environment["ABACUS_HISTORY"], !p.isEmpty { return p }
        if let s = environment["XDG_STATE_HOME"], !s.isEmpty { return s + "/abacus/history" }
        if let h = environment["HOME"], !h.isEmpty { return h + "/.local/state/abacus/history" }
        return nil
    }
}
