// Loading the ledgers named on the command line, whatever each one is.
//
// A file that starts with SQLite's header is the expense tracker app's database
// (whatever its name ends with); anything else is a JSON ledger file. Databases are
// read into ledger documents (`AppDatabaseReader`) and loaded with the JSON files in
// one go by the JSON loader, so ids stay unique across all of them and loading stays
// all or nothing. The app keeps no default currency: when no JSON file names one, it
// is chosen from the databases' books. Messages about a database name its rows
// (`expenses.db: entries row 4127 (id "e-99").currency`), not places in the document.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AbacusCore

public enum LedgerSources {
    /// Loads and validates the ledgers, all or nothing.
    public static func load(paths: [String], assuming assumptions: LoadAssumptions = LoadAssumptions()) throws(LoadError) -> Ledger {
        var inputs: [LedgerInput] = []
        var databases: [AppDatabaseDocument] = []
        for path in paths {
            if isSQLiteDatabase(path: path) {
                let document = try AppDatabaseReader.read(path: path)
                databases.append(document)
                inputs.append(.document(name: path, bytes: document.bytes))
            } else {
                inputs.append(.file(path: path))
            }
        }
        var assumptions = assumptions
        if assumptions.defaultCurrency == nil { assumptions.defaultCurrency = AppDatabaseReader.defaultCurrency(of: databases) }
        do {
            return try LedgerLoader.load(inputs, assuming: assumptions)
        } catch {
            if let database = databases.first, error.path == "defaultCurrency", assumptions.defaultCurrency == nil {
                // No JSON file names one, and no book of the databases gives one (none yet, in a new database).
                throw LoadError(file: database.name, message: "no default currency: the database has no book whose targetCurrency or currency "
                                + "could give one; load a JSON ledger naming it beside the database, e.g. {\"version\": 1, \"defaultCurrency\": \"INR\"}")
            }
            throw databases.isEmpty ? error : reworded(error, databases)
        }
    }

    /// Whether the file starts with SQLite's header. A file that cannot be read is not
    /// one; the JSON loader then says why it cannot be read. Only a regular file is opened
    /// to look: a pipe (`<(…)`, a FIFO) is not a database, and opening it here would take
    /// (and, closed, throw away) what its writer sends, or wait for a writer.
    public static func isSQLiteDatabase(path: String) -> Bool {
        var named = stat()
        guard stat(path, &named) == 0, named.st_mode & S_IFMT == S_IFREG else { return false }
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return false }
        let magic = SQLiteValue.headerMagic
        var head = [UInt8](repeating: 0, count: magic.count)
        let n = head.withUnsafeMutableBytes { read(fd, $0.baseAddress, magic.count) }
        return n == magic.count && head == magic
    }

    /// A loader message with the databases' document places (`entries[12]`) given as rows.
    static func reworded(_ error: LoadError, _ databases: [AppDatabaseDocument]) -> LoadError {
        var error = error
        if let database = databases.first(where: { $0.name == error.file }) {
            // Line and column are of the document made in memory: of no use to anyone.
            error.line = nil
            error.column = nil
            if let path = error.path, let place = database.place(ofPath: path) { error.path = place }
        }
        // Another place named in the message (`also expenses.db: entries[3]`).
        for database in databases {
            let prefix = database.name + ": "
            var text = error.message[...]
            var result = ""
            while let at = text.firstRange(of: prefix) {
                result += text[..<at.upperBound]
                text = text[at.upperBound...]
                let end = text.firstIndex(where: { $0 == " " || $0 == ")" || $0 == ";" || $0 == "," }) ?? text.endIndex
                if let place = database.place(ofPath: String(text[..<end])) {
                    result += place
                    text = text[end...]
                }
            }
            error.message = result + text
        }
        return error
    }
}
