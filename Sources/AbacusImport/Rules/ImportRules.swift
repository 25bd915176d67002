// The rules of a statement import, read from TOML (README.md, "Bringing in data").
//
// The file names the book every entry goes to, the currency, and which column (counted
// from 1) holds each field. TOMLKit parses the TOML; this file checks it against the
// keys the import knows, so a misspelt key or a value of the wrong kind is an error
// that names the key (`date.format`), never a rule silently ignored.

import AbacusCore
import TOMLKit

struct ImportRules {
    enum CurrencyRule {
        case fixed(Currency)
        case column(Int)
    }

    enum AmountRule {
        /// One column, signed: negative for money out.
        case signed(column: Int)
        /// Money out in one column and money in in another, both written without sign.
        case split(debit: Int, credit: Int)
    }

    struct CategoryRule {
        var pattern: String
        var regex: Regex<AnyRegexOutput>
        var category: String
    }

    var book: String
    var currency: CurrencyRule
    var skip = 0
    var dateColumn: Int
    var dateFormat: DateFormat
    var amount: AmountRule
    var decimalComma = false
    var party: Int?
    var remarks: Int?
    var category: Int?
    var paymentMode: Int?
    var categories: [CategoryRule] = []
    var defaultCategory = "Uncategorized"

    static let topKeys = ["book", "currency", "skip", "date", "amount", "decimal", "party", "remarks", "category",
                          "paymentMode", "categories", "default_category"]

    /// Reads and checks the rules; `name` is the file's name in messages.
    static func parse(_ text: String, name: String) throws(ImportError) -> ImportRules {
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw ImportError(file: name, line: error.source.begin.line, message: "not valid TOML: \(error.description)")
        } catch {
            throw ImportError(file: name, message: "not valid TOML: \(error)")
        }
        var reader = RulesReader(file: name)
        return try reader.rules(table)
    }
}

/// Walks the TOML tables, naming each key it reads so an error can say which.
private struct RulesReader {
    let file: String

    func fail(_ key: String, _ message: String) -> ImportError {
        ImportError(file: file, key: key, message: message)
    }

    /// Refuses keys the table should not have, suggesting the nearest known one.
    func checkKeys(_ table: TOMLTable, allowed: [String], in prefix: String) throws(ImportError) {
        for key in table.keys where !allowed.contains(key) {
            var message = "unknown key; expected one of \(allowed.joined(separator: ", "))"
            if let near = nearest(key, in: allowed) { message += " (did you mean \"\(near)\"?)" }
            throw fail(prefix + key, message)
        }
    }

    func column(_ value: TOMLValueConvertible, _ key: String) throws(ImportError) -> Int {
        guard let n = value.int else { throw fail(key, "found \(shown(value)), expected a column number (counted from 1)") }
        guard n >= 1 else { throw fail(key, "found \(n), expected a column number counted from 1") }
        return n
    }

    func string(_ value: TOMLValueConvertible, _ key: String, _ expected: String) throws(ImportError) -> String {
        guard let s = value.string else { throw fail(key, "found \(shown(value)), expected \(expected)") }
        return s
    }

    func shown(_ value: TOMLValueConvertible) -> String {
        switch value.type {
        case .string: "\"" + ShownText.shown(value.string ?? "") + "\""
        case .int: "\(value.int ?? 0)"
        case .table: "a table"
        case .array: "an array"
        case .bool: "\(value.bool ?? false)"
        default: "a \(value.type)"
        }
    }

    mutating func rules(_ t: TOMLTable) throws(ImportError) -> ImportRules {
        try checkKeys(t, allowed: ImportRules.topKeys, in: "")
        guard let bookValue = t["book"] else { throw fail("book", "missing: the id of the book every entry goes to, e.g. book = \"book-home\"") }
        let book = try string(bookValue, "book", "the id of a book, in quotes")
        guard !book.isEmpty else { throw fail("book", "is empty, expected the id of a book") }

        guard let currencyValue = t["currency"] else { throw fail("currency", "missing: an ISO 4217 code (currency = \"INR\") or a column (currency = { column = 4 })") }
        let currency: ImportRules.CurrencyRule
        if let table = currencyValue.table {
            try checkKeys(table, allowed: ["column"], in: "currency.")
            guard let c = table["column"] else { throw fail("currency.column", "missing: the column holding each row's currency code") }
            currency = .column(try column(c, "currency.column"))
        } else {
            let code = try string(currencyValue, "currency", "an ISO 4217 code such as \"INR\", or { column = N }")
            guard let c = Currency(code: code) else {
                var message = "found \"\(ShownText.shown(code))\", expected an ISO 4217 currency code such as \"INR\" or \"USD\""
                if let c = Currency(caseInsensitiveCode: code) { message += "; did you mean \"\(c.code)\"?" }
                throw fail("currency", message)
            }
            currency = .fixed(c)
        }

        guard let dateValue = t["date"], let dateTable = dateValue.table else {
            throw fail("date", "missing or not a table: expected date = { column = 1, format = \"dd/MM/yyyy\" }")
        }
        try checkKeys(dateTable, allowed: ["column", "format"], in: "date.")
        guard let dc = dateTable["column"] else { throw fail("date.column", "missing: the column holding the date") }
        let dateColumn = try column(dc, "date.column")
        guard let df = dateTable["format"] else { throw fail("date.format", "missing: how dates are written, e.g. \"dd/MM/yyyy\"") }
        let formatText = try string(df, "date.format", "a date pattern such as \"dd/MM/yyyy\"")
        let dateFormat: DateFormat
        do { dateFormat = try DateFormat(formatText) } catch { throw fail("date.format", error.message) }

        guard let amountValue = t["amount"], let amountTable = amountValue.table else {
            throw fail("amount", "missing or not a table: expected amount = { column = 3 } (signed) or amount = { debit = 5, credit = 6 }")
        }
        try checkKeys(amountTable, allowed: ["column", "debit", "credit"], in: "amount.")
        let amount: ImportRules.AmountRule
        switch (amountTable["column"], amountTable["debit"], amountTable["credit"]) {
        case (let c?, nil, nil): amount = .signed(column: try column(c, "amount.column"))
        case (nil, let d?, let c?):
            let (debit, credit) = (try column(d, "amount.debit"), try column(c, "amount.credit"))
            guard debit != credit else { throw fail("amount", "debit and credit are both column \(debit): name the two columns, e.g. { debit = 5, credit = 6 }") }
            amount = .split(debit: debit, credit: credit)
        case (nil, _?, nil): throw fail("amount.credit", "missing: with a debit column, name the credit column too")
        case (nil, nil, _?): throw fail("amount.debit", "missing: with a credit column, name the debit column too")
        default: throw fail("amount", "expected either { column = N } (signed) or { debit = N, credit = M }, not both")
        }

        var rules = ImportRules(book: book, currency: currency, dateColumn: dateColumn, dateFormat: dateFormat, amount: amount)
        if let s = t["skip"] {
            guard let n = s.int, n >= 0 else { throw fail("skip", "found \(shown(s)), expected how many lines come before the first row (0 or more)") }
            rules.skip = n
        }
        if let d = t["decimal"] {
            switch try string(d, "decimal", "\".\" or \",\"") {
            case ".": rules.decimalComma = false
            case ",": rules.decimalComma = true
            default: throw fail("decimal", "found \(shown(d)), expected \".\" (1,234.56) or \",\" (1.234,56)")
            }
        }
        if let v = t["party"] { rules.party = try column(v, "party") }
        if let v = t["remarks"] { rules.remarks = try column(v, "remarks") }
        if let v = t["category"] { rules.category = try column(v, "category") }
        if let v = t["paymentMode"] { rules.paymentMode = try column(v, "paymentMode") }
        if let v = t["default_category"] {
            rules.defaultCategory = try string(v, "default_category", "the category of rows no pattern matches")
        }
        if let v = t["categories"] {
            guard let list = v.array else { throw fail("categories", "expected [[categories]] tables, each with pattern and category") }
            for (i, item) in list.enumerated() {
                let key = "categories[\(i)]"
                guard let entry = item.table else { throw fail(key, "expected a table with pattern and category") }
                try checkKeys(entry, allowed: ["pattern", "category"], in: key + ".")
                guard let p = entry["pattern"] else { throw fail(key + ".pattern", "missing: a regular expression matched on the party or remarks") }
                guard let c = entry["category"] else { throw fail(key + ".category", "missing: the category rows matching the pattern get") }
                let pattern = try string(p, key + ".pattern", "a regular expression in quotes")
                let regex: Regex<AnyRegexOutput>
                do { regex = try Regex(pattern) } catch {
                    throw fail(key + ".pattern", "\"\(ShownText.shown(pattern))\" is not a valid regular expression: \(error)")
                }
                rules.categories.append(.init(pattern: pattern, regex: regex, category: try string(c, key + ".category", "a category name in quotes")))
            }
        }
        return rules
    }
}
