// libFuzzer target: the lexer and parser (SPEC §4).
//
// The bytes are read as a script (`String(decoding:as: UTF8.self)`, as the shell
// does with a script file or stdin: invalid UTF-8 becomes U+FFFD). The whole text is
// parsed as one statement, then split into statements (comments, `;`, `\`
// continuations, open parentheses and quotes) and each is parsed on its own.
// QueryErrors are expected (each is rendered with its caret, as the shell does); a trap, a stack overflow or a hang is a bug.

import AbacusQuery

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    do { _ = try Parser.parse(text) } catch { _ = Diagnostic.render(error, statement: text) }
    _ = StatementSplitter.needsContinuation(text)
    _ = StatementSplitter.joinedLines(text)
    for statement in StatementSplitter.split(text) {
        do { _ = try Parser.parse(statement.text) } catch { _ = Diagnostic.render(error, statement: statement.text) }
    }
    return 0
}
