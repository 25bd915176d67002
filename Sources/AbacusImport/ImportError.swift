// Why an import stopped: the file, and where in it (a line, or a key of the rules).
//
// Errors are data until they are shown: `description` is the one wording, in the form
// the ledger loader uses (`statement.csv:14: column 1 (date): found "31/02/25", expected
// …`), so that every message of Abacus about a file reads the same way.

import AbacusCore

public struct ImportError: Error, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    /// The rules' key (`date.format`) or the row's field (`column 3 (amount)`).
    public var key: String?
    public var message: String
    /// A message already worded elsewhere (the loader's, about a ledger compared against).
    var whole: String?

    init(whole: String) {
        self.init(file: "", message: whole)
        self.whole = whole
    }

    init(file: String, line: Int? = nil, key: String? = nil, message: String) {
        self.file = file
        self.line = line
        self.key = key
        self.message = message
    }

    public var description: String {
        if let whole { return whole }
        var s = file
        if let line { s += ":\(line)" }
        s += ": "
        // A key is the rules file's own text: shown as messages show text, cut when very long.
        if let key, !key.isEmpty { s += ShownText.shown(key, limit: ShownText.pathLimit) + ": " }
        return s + message
    }
}
