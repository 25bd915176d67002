// `abacus import-csv`: its arguments, handed to the statement importer.

import AbacusImport
import ArgumentParser
import Foundation

struct ImportCSV: ParsableCommand {
    /// The word after `abacus` that picks this command.
    static let word = "import-csv"

    static let configuration = CommandConfiguration(
        // Parsed as a command of its own (main.swift), so its usage line names both words.
        commandName: "abacus \(word)",
        abstract: "Turn a bank statement (CSV) into a ledger file of entries.",
        // One line per paragraph: swift-argument-parser wraps each line itself.
        discussion: """
        The rules (TOML) name the book every entry goes to, the currency, and the columns, counted from 1:
          book = "book-home"
          currency = "INR"                       # or { column = 4 }
          skip = 1                               # lines before the first row
          date = { column = 1, format = "dd/MM/yyyy" }
          amount = { column = 3 }                # signed; or { debit = 5, credit = 6 }
          decimal = "."                          # "," for 1.234,56
          party = 2                              # also remarks, category, paymentMode
          default_category = "Uncategorized"     # for rows no pattern matches
          [[categories]]                         # first match on party or remarks wins
          pattern = "(?i)swiggy|zomato"
          category = "Food & Dining"

        The output holds only entries: load it beside the ledger that defines the book, \
        e.g. abacus ledger.json statement.json. The same row gives the same entry id on every run. \
        With --against, a row that repeats an entry of those ledgers (same book, date, amount and party) \
        is skipped, and the count goes to stderr. A row that cannot be read stops the import with \
        FILE:LINE and nothing is written.

        Exit status: 0 success, 2 the statement, the rules or a ledger is unusable.
        """
    )

    @Argument(help: ArgumentHelp("The bank statement.", valueName: "FILE.csv"))
    var statement: String

    @Option(help: ArgumentHelp("How to read the statement (TOML).", valueName: "RULES.toml"))
    var rules: String

    @Option(help: ArgumentHelp("Skip rows already in this ledger (repeatable).", valueName: "LEDGER"))
    var against: [String] = []

    @Option(help: ArgumentHelp("Write the ledger file here (default: stdout).", valueName: "FILE"))
    var out: String?

    /// Taken for scripts that give it to every call (README.md, "Bringing in data").
    @Flag(help: "Accepted, here or before import-csv, and changes nothing: the import never reads ~/.abacusrc.")
    var noRc = false

    mutating func run() throws {
        do {
            if let out { try StatementImporter.checkOutput(out, statement: statement, rules: rules, against: against) }
            let summary = try StatementImporter.run(statement: statement, rules: rules, against: against)
            if let out {
                try StatementImporter.write(summary.output, to: out)
            } else {
                FileHandle.standardOutput.write(Data(summary.output))
            }
            var report = "\(statement): \(summary.imported) entr\(summary.imported == 1 ? "y" : "ies") written to \(out ?? "stdout")"
            if !against.isEmpty {
                report += "; \(summary.skipped) row\(summary.skipped == 1 ? "" : "s") skipped, already in \(against.joined(separator: ", "))"
            }
            FileHandle.standardError.write(Data((report + "\n").utf8))
        } catch {
            FileHandle.standardError.write(Data(("error: \(error)\n").utf8))
            throw ExitCode(2)
        }
    }
}
