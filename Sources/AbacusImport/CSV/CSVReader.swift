// Records of a CSV file (RFC 4180), each with the line it starts on.
//
// Fields are separated by commas and records by line breaks (LF, CRLF, or a lone CR as
// older spreadsheets on the Mac write them). A field in
// double quotes may hold commas, line breaks and doubled quotes (`"1,204.75"`,
// `"say ""hi"""`); outside quotes a field is taken as it is. The line a record starts
// on is what an error about that row names, so it counts the line breaks inside quoted
// fields too. A quote left open at the end of the file is an error at the line where
// the field began; so is a field that is not UTF-8 (a statement saved as Latin-1), which
// would otherwise reach the ledger altered.

import AbacusCore

struct CSVRecord {
    /// The line the record starts on, from 1.
    var line: Int
    var fields: [String]

    /// Whether every field is empty or blank (a blank line, or a line of commas).
    var isBlank: Bool { fields.allSatisfy { $0.allSatisfy(\.isWhitespace) } }
}

struct CSVSyntaxError: Error {
    var line: Int
    var message: String
}

enum CSVReader {
    /// The records after the first `skip` lines. A UTF-8 byte-order mark at the start is dropped.
    static func records(_ bytes: [UInt8], skip: Int) throws(CSVSyntaxError) -> [CSVRecord] {
        var i = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
        let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ",")
        func lineBreak(_ j: Int) -> Int { LineBreak.length(in: bytes, at: j) }
        var line = 1
        // Lines before the first row are skipped as lines, not parsed: a bank's preamble
        // ("Statement for account …") need not be valid CSV.
        while line <= skip && i < bytes.count {
            let n = lineBreak(i)
            if n > 0 { line += 1 }
            i += max(n, 1)
        }
        var records: [CSVRecord] = []
        var fields: [String] = []
        var field: [UInt8] = []
        var recordLine = line
        func endField() throws(CSVSyntaxError) {
            // NUL is no text a ledger may hold (docs/ledger-format.md): the output would not load.
            if field.contains(0) {
                throw CSVSyntaxError(line: recordLine, message: "field \(fields.count + 1) holds a NUL byte: expected text (the file may not be a CSV statement)")
            }
            guard let text = String(validating: field, as: UTF8.self) else {
                throw CSVSyntaxError(line: recordLine, message: "field \(fields.count + 1) is not UTF-8 text: expected the statement saved as UTF-8 (it may be Latin-1 or Windows-1252)")
            }
            fields.append(text)
            field.removeAll(keepingCapacity: true)
        }
        func endRecord() throws(CSVSyntaxError) { try endField(); records.append(CSVRecord(line: recordLine, fields: fields)); fields.removeAll() }
        var atFieldStart = true
        while i < bytes.count {
            let b = bytes[i]
            if atFieldStart && b == quote {
                // A quoted field, to its closing quote.
                let startLine = line
                i += 1
                var closed = false
                while i < bytes.count {
                    let c = bytes[i]
                    if c == quote {
                        if i + 1 < bytes.count && bytes[i + 1] == quote { field.append(quote); i += 2; continue }
                        closed = true
                        i += 1
                        break
                    }
                    // A line break inside the field is kept as written, and counted.
                    let n = lineBreak(i)
                    if n > 0 { line += 1 }
                    field.append(contentsOf: bytes[i..<(i + max(n, 1))])
                    i += max(n, 1)
                }
                guard closed else {
                    throw CSVSyntaxError(line: startLine, message: "a quoted field is never closed: expected a closing \" before the end of the file")
                }
                // After the closing quote: the end of the field or of the record.
                if i < bytes.count, bytes[i] != comma, lineBreak(i) == 0 {
                    throw CSVSyntaxError(line: line, message: "text after a closing quote: expected a comma or the end of the line (a quote inside a quoted field is written \"\")")
                }
                atFieldStart = false
                continue
            }
            atFieldStart = false
            if b == comma {
                try endField()
                atFieldStart = true
                i += 1
            } else if case let n = lineBreak(i), n > 0 {
                try endRecord()
                line += 1
                recordLine = line
                atFieldStart = true
                i += n
            } else {
                field.append(b)
                i += 1
            }
        }
        // A last line without a line break.
        if !atFieldStart || !field.isEmpty || !fields.isEmpty { try endRecord() }
        return records
    }
}
