// Saved statements: `define NAME(P, …) as STATEMENT`, calls `NAME(ARG, …)`, `defines`
// and `undefine NAME`. They last for the session (a user keeps them in ~/.abacusrc or
// a script).
//
// An argument is one token, and it replaces its `$P` as that token: the statement's
// tokens are spliced, each argument standing alone between spaces, and the result is
// checked to read back as the same tokens, so a quote in an argument can never join or
// split tokens. A word that starts a clause or joins conditions (`where`, `by`, `and`)
// stands quoted, a value, so a keyword in an argument cannot change the statement's shape
// either; other words of the language (`today`, `month`, `native`) stand as they are. An error inside an
// expansion shows the call and the expanded statement with the caret
// (docs/language.md, Saved queries).

import AbacusCore

struct DefineStatement: StatementRunner {
    let definition: Definition

    func run(in session: Session) throws(QueryError) -> Output {
        let key = definition.name.lowercased()
        let again = session.definitions[key] != nil
        session.definitions[key] = definition
        return .message((again ? "redefined " : "defined ") + definition.signature)
    }
}

struct CallStatement: StatementRunner {
    let call: Call

    /// Calls within calls stop here, so a definition that calls itself fails instead of looping.
    static let maxDepth = 16

    func run(in session: Session) throws(QueryError) -> Output {
        guard let definition = session.definitions[call.name.lowercased()] else {
            // Not a definition: as for any other word where a statement should start.
            let word = call.name.lowercased()
            let candidates = Keywords.words(.statement) + session.definitions.values.map(\.name)
            throw QueryError(.expected([Parser.aStatement],
                                       found: "'\(ShownText.quoted(call.name))'", suggestion: Keywords.dotless[word] ?? nearest(word, in: candidates)),
                             at: call.nameRange)
        }
        guard call.arguments.count == definition.parameters.count else {
            let n = definition.parameters.count
            throw QueryError(.unsupported("\(definition.name) takes \(n) \(n == 1 ? "argument" : "arguments") (\(definition.signature)), not \(call.arguments.count)"),
                             at: call.nameRange.lowerBound..<(call.argumentRanges.last?.upperBound ?? call.nameRange.upperBound) + (call.arguments.isEmpty ? 0 : 1))
        }
        guard session.expansionDepth < CallStatement.maxDepth else {
            throw QueryError(.unsupported("calls nest deeper than \(CallStatement.maxDepth) levels (does \(definition.name) call itself?)"), at: call.nameRange)
        }
        let text = (call.explained ? "explain " : "") + (try CallStatement.expand(definition, call.arguments))
        session.expansionDepth += 1
        defer { session.expansionDepth -= 1 }
        do throws(QueryError) {
            return try session.execute(text)
        } catch {
            var e = error
            let shown = call.name + "(" + call.arguments.joined(separator: ", ") + ")"
            e.expansion = QueryError.Expansion(call: shown, text: e.expansion?.text ?? text)
            if e.expansion?.text != text { e.expansion?.call = shown + " → " + (error.expansion?.call ?? "") }
            throw e
        }
    }

    /// The definition's statement with each `$P` replaced by its argument, as one token.
    static func expand(_ d: Definition, _ arguments: [String]) throws(QueryError) -> String {
        let body = Lexer(d.body)
        let tokens = try body.tokenize()
        let bytes = Array(d.body.utf8)
        var out: [UInt8] = []
        var at = 0
        var expected: [TokenKind] = []
        for t in tokens where t.kind != .end {
            guard t.kind == .parameter else { expected.append(t.kind); continue }
            let name = body.text(t).dropFirst().lowercased()
            guard let i = d.parameters.firstIndex(of: name) else { continue }
            out += bytes[at..<t.range.lowerBound]
            // A space keeps the argument apart from a neighbour it touches (`=$c`).
            func touches(_ i: Int) -> Bool { i >= 0 && i < bytes.count && ![0x20, 0x09, 0x0A].contains(bytes[i]) }
            if touches(t.range.lowerBound - 1) { out.append(0x20) }
            var argument = arguments[i]
            var kind = try Lexer(argument).tokenize().first?.kind ?? .end
            // A word that starts a clause or joins conditions (`where`, `by`, `or`) stays a
            // value: it stands quoted, a name, and cannot open a clause of its own.
            if kind == .word, Keywords.valueStops.contains(argument.lowercased()) {
                argument = "\"" + argument + "\""
                kind = .string
            }
            out += Array(argument.utf8)
            if touches(t.range.upperBound) { out.append(0x20) }
            at = t.range.upperBound
            expected.append(kind)
        }
        out += bytes[at...]
        let text = String(decoding: out, as: UTF8.self)
        let read = try Lexer(text).tokenize().map(\.kind).filter { $0 != .end }
        guard read == expected else {
            throw QueryError(.unsupported("an argument of \(d.name) does not stand as one token in its statement: put text with spaces in quotes"), at: nil,
                             advice: .oneTokenArgument)
        }
        return text
    }
}

struct DefinesStatement: StatementRunner {
    func run(in session: Session) throws(QueryError) -> Output {
        let rows = session.definitions.values.sorted { $0.name.lowercased() < $1.name.lowercased() }.map { d in
            [Cell.text(d.name), .text(d.parameters.map { "$" + $0 }.joined(separator: ", ")), .text(d.body)]
        }
        guard !rows.isEmpty else {
            return .message("no definitions yet: define NAME(P, …) as STATEMENT, with $P where an argument goes")
        }
        return .table(ResultSet(columns: [Column("name", .text), Column("parameters", .text), Column("statement", .text)], rows: rows))
    }
}

struct UndefineStatement: StatementRunner {
    let name: String
    let range: Range<Int>

    func run(in session: Session) throws(QueryError) -> Output {
        guard let d = session.definitions.removeValue(forKey: name.lowercased()) else {
            let names = session.definitions.values.map(\.name)
            throw QueryError(.unknownName(field: "definition", value: name, suggestions: Spelling.suggestions(for: name, in: names)), at: range)
        }
        return .message("undefined \(d.name)")
    }
}

extension Definition {
    /// `monthly($month, $cur)`.
    public var signature: String { name + "(" + parameters.map { "$" + $0 }.joined(separator: ", ") + ")" }
}
