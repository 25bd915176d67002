// A fast, non-cryptographic 64-bit hash of bytes: XXH64 (Yann Collet's xxHash,
// 64-bit variant, bit for bit), used to tell whether a ledger file still has the
// contents a saved store image was built from, and whether the image itself is
// intact.
//
// XXH64 runs four independent lanes of multiply-rotate-multiply over 32-byte
// stripes, so it is limited by memory bandwidth, not arithmetic. A large input is
// cut into fixed pieces (`pieceBytes`) hashed on as many cores as there are, and
// the pieces' hashes are hashed in turn: the result depends only on the bytes,
// never on the number of cores.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch

public enum ContentHash {
    static let p1: UInt64 = 0x9E37_79B1_85EB_CA87
    static let p2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    static let p3: UInt64 = 0x1656_67B1_9E37_79F9
    static let p4: UInt64 = 0x85EB_CA77_C2B2_AE63
    static let p5: UInt64 = 0x27D4_EB2F_1656_67C5

    @inline(__always)
    static func round(_ acc: UInt64, _ input: UInt64) -> UInt64 {
        let a = acc &+ input &* p2
        return ((a << 31) | (a >> 33)) &* p1
    }

    @inline(__always)
    static func merge(_ acc: UInt64, _ lane: UInt64) -> UInt64 {
        (acc ^ round(0, lane)) &* p1 &+ p4
    }

    @inline(__always)
    static func rotl(_ x: UInt64, _ r: UInt64) -> UInt64 { (x << r) | (x >> (64 - r)) }

    /// XXH64 of `bytes` with `seed`.
    public static func xxh64(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
        var state = Stream(seed: seed)
        let whole = bytes.count / 32 * 32
        state.stripes(UnsafeRawBufferPointer(rebasing: bytes[0..<whole]))
        return state.finish(tail: UnsafeRawBufferPointer(rebasing: bytes[whole...]))
    }

    /// XXH64 fed in blocks whose lengths are multiples of 32, then a tail of fewer than 32 bytes.
    struct Stream {
        var v1: UInt64, v2: UInt64, v3: UInt64, v4: UInt64
        let seed: UInt64
        var total = 0

        init(seed: UInt64) {
            self.seed = seed
            v1 = seed &+ p1 &+ p2; v2 = seed &+ p2; v3 = seed; v4 = seed &- p1
        }

        /// `bytes.count` must be a multiple of 32.
        mutating func stripes(_ bytes: UnsafeRawBufferPointer) {
            guard let base = bytes.baseAddress else { return }
            var (a, b, c, d) = (v1, v2, v3, v4)
            var i = 0
            let n = bytes.count
            while i + 32 <= n {
                a = round(a, UInt64(littleEndian: base.loadUnaligned(fromByteOffset: i, as: UInt64.self)))
                b = round(b, UInt64(littleEndian: base.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self)))
                c = round(c, UInt64(littleEndian: base.loadUnaligned(fromByteOffset: i + 16, as: UInt64.self)))
                d = round(d, UInt64(littleEndian: base.loadUnaligned(fromByteOffset: i + 24, as: UInt64.self)))
                i += 32
            }
            (v1, v2, v3, v4) = (a, b, c, d)
            total += i
        }

        func finish(tail: UnsafeRawBufferPointer) -> UInt64 {
            var h: UInt64
            if total >= 32 {
                h = rotl(v1, 1) &+ rotl(v2, 7) &+ rotl(v3, 12) &+ rotl(v4, 18)
                h = merge(h, v1); h = merge(h, v2); h = merge(h, v3); h = merge(h, v4)
            } else {
                h = seed &+ p5
            }
            return ContentHash.finish(h &+ UInt64(total + tail.count), base: tail.baseAddress, from: 0, to: tail.count, total: 0)
        }
    }

    /// The tail (fewer than 32 bytes) and the final avalanche.
    @inline(__always)
    private static func finish(_ start: UInt64, base: UnsafeRawPointer?, from: Int, to n: Int, total: Int) -> UInt64 {
        var h = start
        var i = from
        if let base {
            while i + 8 <= n {
                h ^= round(0, UInt64(littleEndian: base.loadUnaligned(fromByteOffset: i, as: UInt64.self)))
                h = rotl(h, 27) &* p1 &+ p4
                i += 8
            }
            if i + 4 <= n {
                h ^= UInt64(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: i, as: UInt32.self))) &* p1
                h = rotl(h, 23) &* p2 &+ p3
                i += 4
            }
            while i < n {
                h ^= UInt64(base.load(fromByteOffset: i, as: UInt8.self)) &* p5
                h = rotl(h, 11) &* p1
                i += 1
            }
        }
        h ^= h >> 33; h = h &* p2
        h ^= h >> 29; h = h &* p3
        h ^= h >> 32
        return h
    }

    /// Inputs are cut into pieces of this size, hashed side by side (small enough that the
    /// cores finish their last pieces close together).
    public static let pieceBytes = 8 << 20

    /// The hash of a possibly large input: XXH64 of each `pieceBytes` piece, on every core,
    /// then XXH64 of the pieces' hashes (with the length as seed). Inputs of one piece or less
    /// hash as XXH64 of their bytes, seeded with their length.
    /// With `release`, the bytes are a file mapping whose pages are handed back (MADV_DONTNEED)
    /// as each piece is hashed: hashing a large file does not make it resident.
    public static func of(_ bytes: UnsafeRawBufferPointer, release: Bool = false) -> UInt64 {
        of(bytes, release: release, populate: false)
    }

    /// With `populate`, each piece of a file mapping is mapped in one call before it is hashed.
    static func of(_ bytes: UnsafeRawBufferPointer, release: Bool, populate: Bool) -> UInt64 {
        let n = bytes.count
        let pieces = (n + pieceBytes - 1) / pieceBytes
        guard pieces > 1, let base = bytes.baseAddress else { return xxh64(bytes, seed: UInt64(n)) }
        let hashes = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: pieces)
        defer { hashes.deallocate() }
        let out = SendablePointer(hashes.baseAddress!)
        let start = SendableRaw(base)
        DispatchQueue.concurrentPerform(iterations: pieces) { k in
            let lo = k * pieceBytes, hi = min(n, lo + pieceBytes)
            if populate { _ = madvise(UnsafeMutableRawPointer(mutating: start.pointer + lo), hi - lo, 22 /* MADV_POPULATE_READ */) }
            out.pointer[k] = xxh64(UnsafeRawBufferPointer(start: start.pointer + lo, count: hi - lo), seed: UInt64(k))
            if release { _ = madvise(UnsafeMutableRawPointer(mutating: start.pointer + lo), hi - lo, MADV_DONTNEED) }
        }
        return xxh64(UnsafeRawBufferPointer(hashes), seed: UInt64(n))
    }
}

extension ContentHash {
    /// `of` the contents of the open regular file `fd` of `size` bytes, read with `pread` through
    /// a small buffer per core: nothing is mapped, so nothing stays resident. Nil on a read error
    /// or when the file is shorter than `size`.
    public static func ofFile(_ fd: Int32, size: Int) -> UInt64? {
        let hashing = FileHashing(fd: fd, size: size)
        DispatchQueue.concurrentPerform(iterations: hashing.pieces) { hashing.hash(piece: $0) }
        return hashing.value
    }
}

/// `ContentHash.ofFile` as separate jobs, one per piece, that may run among other work:
/// `hash(piece:)` for each of `pieces` (on any threads, each once), then `value`.
final class FileHashing: @unchecked Sendable {
    let fd: Int32
    let size: Int
    let pieces: Int
    private let hashes: UnsafeMutableBufferPointer<UInt64>
    private let failed: UnsafeMutableBufferPointer<Bool>
    private let done: UnsafeMutableBufferPointer<Bool>

    init(fd: Int32, size: Int) {
        self.fd = fd
        self.size = size
        pieces = max(1, (size + ContentHash.pieceBytes - 1) / ContentHash.pieceBytes)
        hashes = .allocate(capacity: pieces)
        hashes.initialize(repeating: 0)
        failed = .allocate(capacity: pieces)
        failed.initialize(repeating: false)
        done = .allocate(capacity: pieces)
        done.initialize(repeating: false)
    }

    deinit {
        hashes.deallocate()
        failed.deallocate()
        done.deallocate()
    }

    func hash(piece k: Int) {
        defer { done[k] = true }
        let lo = k * ContentHash.pieceBytes, hi = min(size, lo + ContentHash.pieceBytes)
        // Small enough to stay in the core's cache between the copy and the hash.
        let chunk = 256 << 10
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 64)
        defer { buffer.deallocate() }
        var state = ContentHash.Stream(seed: pieces > 1 ? UInt64(k) : UInt64(size))
        var at = lo
        while at < hi {
            let want = min(chunk, hi - at)
            var got = 0
            while got < want {
                let n = pread(fd, buffer.baseAddress! + got, want - got, off_t(at + got))
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { failed[k] = true; return }
                got += n
            }
            let whole = want / 32 * 32
            state.stripes(UnsafeRawBufferPointer(rebasing: buffer[0..<whole]))
            at += want
            if whole < want {
                // Only the last chunk of a piece has a tail (chunks are multiples of 32).
                hashes[k] = state.finish(tail: UnsafeRawBufferPointer(rebasing: buffer[whole..<want]))
                return
            }
        }
        hashes[k] = state.finish(tail: UnsafeRawBufferPointer(start: nil, count: 0))
    }

    /// The hash, once every piece is hashed; nil when a read failed.
    var value: UInt64? {
        guard !failed.contains(true), !done.contains(false) else { return nil }
        return pieces > 1 ? ContentHash.xxh64(UnsafeRawBufferPointer(hashes), seed: UInt64(size)) : hashes[0]
    }
}

/// A pointer handed to jobs that each write their own element.
struct SendablePointer<T>: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<T>
    init(_ p: UnsafeMutablePointer<T>) { pointer = p }
}

/// Read-only bytes handed to jobs.
struct SendableRaw: @unchecked Sendable {
    let pointer: UnsafeRawPointer
    init(_ p: UnsafeRawPointer) { pointer = p }
}
