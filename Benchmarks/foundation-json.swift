// The measurement behind Abacus's own JSON reader: how Foundation's parsers do on a
// generated ledger. Not part of the package; build and run it by hand:
//
//   swift build -c release --product abacus-generate
//   .build/release/abacus-generate -n 1000000 -o /tmp/gen-1m.json
//   swiftc -O Benchmarks/foundation-json.swift -o /tmp/foundation-json
//   /usr/bin/time -f "%e s %M KB" /tmp/foundation-json decoder /tmp/gen-1m.json
//   /usr/bin/time -f "%e s %M KB" /tmp/foundation-json serialization /tmp/gen-1m.json
//   /usr/bin/time -f "%e s %M KB" .build/release/abacus /tmp/gen-1m.json -e "count entries"
//
// (JSONDecoder here decodes only eight entry fields; Abacus reads and validates all of them.)

import Foundation
struct Entry: Decodable { let id: String; let bookId: String; let amount: Decimal; let date: String; let category: String; let party: String?; let currency: String?; let tags: [String]? }
struct Ledger: Decodable { let entries: [Entry] }
let data = try Data(contentsOf: URL(fileURLWithPath: CommandLine.arguments[2]))
let t0 = Date()
if CommandLine.arguments[1] == "decoder" {
    let l = try JSONDecoder().decode(Ledger.self, from: data)
    print(l.entries.count)
} else {
    let o = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    print((o?["entries"] as? [Any])?.count ?? 0)
}
print(Date().timeIntervalSince(t0))
