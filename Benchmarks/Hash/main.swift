// abacus-hash: the content hash Abacus checks a ledger file against its store image
// with (`ContentHash.ofFile`), and how long it takes, so that the benchmark can set
// it beside the time to parse the same file.
//
//     abacus-hash [--read] [--runs 5] FILE...
//
// Prints one line per file: the hash in hex, the median seconds of the runs, the
// throughput (GB/s), the path. The file is read as a warm start reads it
// (`LedgerLoader.contentHash(of:)`: `pread` through a 256 KB buffer per core); with
// --read, the same through a descriptor opened once (`ContentHash.ofFile`).

import AbacusCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

func fail(_ message: String) -> Never {
    let text = message + "\n"
    _ = text.withCString { write(2, $0, strlen($0)) }
    exit(2)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var runs = 5
var mapped = true
if arguments.first == "--read" {
    mapped = false
    arguments.removeFirst()
}
if arguments.count >= 2, arguments[0] == "--runs", let n = Int(arguments[1]), n > 0 {
    runs = n
    arguments.removeFirst(2)
}
guard !arguments.isEmpty else {
    fail("usage: abacus-hash [--read] [--runs N] FILE...")
}
for path in arguments {
    let fd = open(path, O_RDONLY)
    var info = stat()
    guard fd >= 0, fstat(fd, &info) == 0 else {
        fail("abacus-hash: cannot read \(path)")
    }
    var times: [Double] = []
    var hash: UInt64?
    for _ in 0..<runs {
        var a = timespec(), b = timespec()
        clock_gettime(CLOCK_MONOTONIC, &a)
        hash = mapped ? LedgerLoader.contentHash(of: path) : ContentHash.ofFile(fd, size: Int(info.st_size))
        clock_gettime(CLOCK_MONOTONIC, &b)
        times.append(Double(b.tv_sec - a.tv_sec) + Double(b.tv_nsec - a.tv_nsec) / 1e9)
    }
    close(fd)
    let median = times.sorted()[times.count / 2]
    let hex = hash.map { String($0, radix: 16) } ?? "unreadable"
    print("\(hex) \(median) \(Double(info.st_size) / median / 1e9) \(path)")
}
