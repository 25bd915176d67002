// Line editing and history through libedit's readline-compatible API.
//
// libedit wants C callbacks without captures, so the completion candidates live
// in a global the shell fills; history is read at start and written after each
// statement, to `$XDG_STATE_HOME/abacus/history` (or `ABACUS_HISTORY`).
// Ctrl-C and Ctrl-D both make `readline` return NULL; a SIGINT flag tells them apart.

@preconcurrency import CEditLine
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Decides what Tab offers; set by the shell once a ledger is loaded.
nonisolated(unsafe) var completer: Completer?
nonisolated(unsafe) private var wordBreaks: UnsafeMutablePointer<CChar>? = strdup(" \t\n,()=<>~!/;")
nonisolated(unsafe) var interrupted: sig_atomic_t = 0
nonisolated(unsafe) private var readlineName: UnsafeMutablePointer<CChar>? = strdup("abacus")
nonisolated(unsafe) private var completionMatchesList: [String] = []

public enum LineInput {
    case line(String)
    /// Ctrl-C: the line was abandoned.
    case interrupt
    /// Ctrl-D.
    case end
}

public final class LineEditor {
    public let historyPath: String?
    private static let historyLimit = 2000

    public init(historyPath: String?) {
        self.historyPath = historyPath
        // Without a UTF-8 locale libedit drops every non-ASCII byte ("café" arrives as "caf").
        setlocale(LC_ALL, "")
        if String(cString: nl_langinfo(nl_item(CODESET))) != "UTF-8" { setlocale(LC_CTYPE, "C.UTF-8") }
        rl_readline_name = UnsafePointer(readlineName)
        rl_basic_word_break_characters = UnsafePointer(wordBreaks)
        rl_attempted_completion_function = { text, start, _ in
            let prefix = text.map { String(cString: $0) } ?? ""
            let line = rl_line_buffer.map { String(cString: $0) } ?? ""
            switch completer?.complete(line: line, start: Int(start)) ?? .words([]) {
            case .files:
                rl_attempted_completion_over = 0   // libedit completes the file name
                return nil
            case .words(let words):
                rl_attempted_completion_over = 1
                completionMatchesList = Completer.filter(words, prefix: prefix)
            }
            guard !completionMatchesList.isEmpty else { return nil }
            return rl_completion_matches(text) { _, state in
                let i = Int(state)
                guard i < completionMatchesList.count else { return nil }
                return strdup(completionMatchesList[i])
            }
        }
        using_history()
        stifle_history(Int32(LineEditor.historyLimit))
        if let historyPath {
            try? FileManager.default.createDirectory(atPath: (historyPath as NSString).deletingLastPathComponent,
                                                     withIntermediateDirectories: true)
            _ = read_history(historyPath)
        }
        signal(SIGINT) { _ in interrupted = 1 }
    }

    public func read(prompt: String) -> LineInput {
        interrupted = 0
        guard let p = readline(prompt) else {
            if interrupted != 0 { interrupted = 0; return .interrupt }
            return .end
        }
        defer { free(p) }
        return .line(String(cString: p))
    }

    /// Adds a statement to history, folding a repeat of the previous one.
    public func remember(_ statement: String) {
        let trimmed = statement.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return }
        if history_length > 0, let last = history_get(history_base + history_length - 1), let line = last.pointee.line,
           String(cString: line) == trimmed { return }
        add_history(trimmed)
        if let historyPath { _ = write_history(historyPath) }
    }

    /// Where history lives: `ABACUS_HISTORY`, else `$XDG_STATE_HOME/abacus/history`, else `~/.local/state/abacus/history`.
    public static func defaultHistoryPath(environment: [String: String]) -> String? {
        if let p = environment["ABACUS_HISTORY"], !p.isEmpty { return p }
        if let s = environment["XDG_STATE_HOME"], !s.isEmpty { return s + "/abacus/history" }
        if let h = environment["HOME"], !h.isEmpty { return h + "/.local/state/abacus/history" }
        return nil
    }
}
