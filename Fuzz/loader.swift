// libFuzzer target: the JSON ledger loader (SPEC §2).
//
// The input bytes are handed to the loader as they are — not through a String,
// so invalid UTF-8, NUL bytes and byte-order marks reach the JSON reader exactly as
// they would from a mapped file (`LedgerLoader.load(paths:)`). The public
// in-memory API, `LedgerLoader.load(documents:)`, takes a String, which would
// repair invalid UTF-8 before the reader sees it; so this target drives the same
// internal builder the file path uses (`@testable import`, AbacusCore is built
// with -enable-testing).
//
// The input may hold several files separated by a line `#FILE#` (ids must stay
// unique across files; entries may name books of another file).
//
// A ledger that loads must be usable: a few statements that touch every column,
// index and rate table run against it. Their QueryErrors (no rate, …) are fine;
// a trap is a bug (the loader let through something the engine cannot hold).

@testable import AbacusCore
import AbacusQuery

private let separator: [UInt8] = Array("\n#FILE#\n".utf8)

private func documents(_ bytes: UnsafeBufferPointer<UInt8>) -> [UnsafeBufferPointer<UInt8>] {
    var parts: [UnsafeBufferPointer<UInt8>] = []
    var start = 0, i = 0
    let n = bytes.count, m = separator.count
    while i + m <= n {
        if bytes[i] == separator[0] && Array(bytes[i..<i + m]) == separator {
            parts.append(UnsafeBufferPointer(rebasing: bytes[start..<i]))
            i += m
            start = i
        } else {
            i += 1
        }
    }
    parts.append(UnsafeBufferPointer(rebasing: bytes[start..<n]))
    return parts
}

private let statements = [
    "books", "categories",
    "count entries by book, currency",
    "sum entries in native by book, currency",
    "sum expenses by month",
    "list entries order by amount desc top 5",
    "rates",
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = UnsafeBufferPointer(start: size == 0 ? nil : data, count: size)
    let ledger: Ledger
    do {
        ledger = try LedgerLoader.load(buffers: documents(input).enumerated().map { ("fuzz\($0).json", $1, false) })
    } catch {
        _ = error.description   // the message itself must be buildable
        return 0
    }
    let session = Session(ledger: ledger, today: Day(year: 2025, month: 12, day: 31)!)
    for s in statements {
        if let out = try? session.execute(s) { touch(out) }
    }
    return 0
}
