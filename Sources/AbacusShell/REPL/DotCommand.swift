// A dot command's words (`.load`, `.run`, `.set`, …), read the way a shell reads them.
//
// Dot commands are not statements: they name files and URLs, where `#`, `--` and `;`
// are ordinary characters. Words are separated by blanks; "double" and 'single'
// quotes keep blanks in a word (`.run "my script.abq"`), a backslash keeps the next
// character (`.run my\ script.abq`, as path completion writes it); `#` or `--` at
// the start of a word begins a comment. A word that starts with an unquoted `~/` is
// a path in the home folder.

struct DotCommand: Equatable {
    /// `.help`, `.load`, …, in lower case.
    var name: String
    /// The command as typed (`.LOAD`), for messages.
    var typedName: String
    var arguments: [String]
    /// Arguments that began with an unquoted `~` (alone or before `/`): paths in the home folder.
    var homeRelative: Set<Int> = []

    enum ParseError: Error, Equatable {
        case unterminatedQuote(Character)
    }

    /// `.set rates-key KEY`: the line holds a secret and is never echoed or remembered.
    var holdsSecret: Bool { name == ".set" && arguments.first?.lowercased() == "rates-key" }

    /// True when `text` must never be shown or remembered: a `.set rates-key` however it is
    /// spaced or cased; a line that cannot be read as a command counts when it names the key.
    static func holdsSecret(_ text: String) -> Bool {
        if let c = try? parse(text) { return c.holdsSecret }
        return text.lowercased().contains("rates-key")
    }

    /// How a secret line is shown by --echo.
    static let secretShown = ".set rates-key …"

    /// The path that argument `i` names: `~` is the home folder.
    func path(_ i: Int, home: String?) -> String {
        let word = arguments[i]
        guard homeRelative.contains(i), let home, !home.isEmpty else { return word }
        return home + word.dropFirst()
    }

    static func parse(_ text: String) throws(ParseError) -> DotCommand {
        var words: [String] = []
        var tilde: Set<Int> = []
        var word = ""
        var inWord = false
        var quote: Character?
        var chars = Substring(text).makeIterator()
        var atWordStart = true
        func endWord() {
            if inWord { words.append(word) }
            word = ""; inWord = false; atWordStart = true
        }
        while let c = chars.next() {
            if let q = quote {
                if c == q { quote = nil; continue }
                if q == "\"" && c == "\\" {
                    // Inside double quotes a backslash keeps only `"` and `\`.
                    if let n = chars.next() {
                        if n != "\"" && n != "\\" { word.append(c) }
                        word.append(n)
                    } else { word.append(c) }
                    continue
                }
                word.append(c)
                continue
            }
            switch c {
            case " ", "\t", "\r", "\n":
                endWord()
                continue
            case "#" where atWordStart:
                endWord()
                return DotCommand(words, tilde)
            case "-" where atWordStart:
                var lookahead = chars
                if lookahead.next() == "-" {
                    endWord()
                    return DotCommand(words, tilde)
                }
                word.append(c)
            case "\"", "'":
                quote = c
            case "\\":
                word.append(chars.next() ?? c)
            case "~" where atWordStart:
                var lookahead = chars
                let next = lookahead.next()
                if next == nil || next == "/" || next == " " || next == "\t" { tilde.insert(words.count) }
                word.append(c)
            default:
                word.append(c)
            }
            inWord = true
            atWordStart = false
        }
        if let q = quote { throw .unterminatedQuote(q) }
        endWord()
        return DotCommand(words, tilde)
    }

    /// `tilde` holds indices into `words`, whose first is the command.
    private init(_ words: [String], _ tilde: Set<Int>) {
        typedName = words.first ?? ""
        name = typedName.lowercased()
        arguments = Array(words.dropFirst())
        homeRelative = Set(tilde.filter { $0 > 0 }.map { $0 - 1 })
    }
}
