// How far a load has got, and giving back the pages of the JSON already read.
//
// The parser's threads count the bytes they have read into two atomics (the main
// reader, and the helper that reads the second half of a large entries array); a
// timer shows the percentage on stderr once a load has run for a second, and
// clears its line when the load ends. Only the shell decides whether to show it
// (a terminal on stderr); counting costs two relaxed stores per 4,096 entries.
//
// A mapped ledger file stays in the page cache after it is read, but its pages
// count against the process for as long as they are mapped. `releaseRead` hands
// back, every few megabytes, the pages behind the reader (MADV_DONTNEED on a
// private, never-written file mapping: read again, they come back from the file,
// as a late error message's line and column may need).

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Synchronization

public final class LoadProgress: @unchecked Sendable {
    private let total: Int
    private let mainBytes = Atomic<Int>(0)
    private let helperBytes = Atomic<Int>(0)
    private let queue = DispatchQueue(label: "abacus.load-progress")
    private var timer: DispatchSourceTimer?
    private var shown = false
    private let label: String
    private let write: @Sendable (String) -> Void

    /// `write` receives text without a line end (it redraws one line). Nothing is drawn
    /// until `start`, and then only once `delay` seconds have passed.
    public init(totalBytes: Int, label: String, delay: Double = 1, write: @escaping @Sendable (String) -> Void) {
        total = max(1, totalBytes)
        self.label = label
        self.delay = delay
        self.write = write
    }

    private let delay: Double

    /// Starts the clock (the loader calls it when it starts reading JSON; a second call does nothing).
    public func start() {
        queue.sync {
            guard timer == nil, !finished else { return }
            let t = DispatchSource.makeTimerSource(queue: queue)
            t.schedule(deadline: .now() + delay, repeating: 0.2)
            t.setEventHandler { [weak self] in self?.tick() }
            timer = t
            t.resume()
        }
    }

    private var finished = false

    /// Runs `say` (which writes a line to stderr) with the progress line cleared first;
    /// the next tick draws it again below.
    public func interject(_ say: () -> Void) {
        queue.sync {
            if shown { write("\r\u{1B}[K") }
            shown = false
            say()
        }
    }

    /// Bytes read by the main reader, counting the files before the one it reads.
    func main(_ bytes: Int) { mainBytes.store(bytes, ordering: .relaxed) }
    /// Bytes read by the helper of a split entries array.
    func helper(_ bytes: Int) { helperBytes.store(bytes, ordering: .relaxed) }

    private func tick() {
        let done = mainBytes.load(ordering: .relaxed) + helperBytes.load(ordering: .relaxed)
        let percent = min(99, done * 100 / total)
        shown = true
        write("\r\(label): \(percent)%")
    }

    /// Stops the timer and clears the line when it was drawn.
    public func finish() {
        queue.sync {
            finished = true
            timer?.cancel()
            timer = nil
            if shown { write("\r\u{1B}[K") }
            shown = false
        }
    }

    deinit { timer?.cancel() }
}

/// The pages of a mapped file the reader has passed, handed back a few megabytes at a time.
struct ReadRelease {
    /// Start of the mapping (page-aligned); nil when the bytes are not a file mapping.
    let base: UnsafePointer<UInt8>?
    /// Everything below this offset has been handed back.
    var released: Int

    static let page = Int(sysconf(Int32(_SC_PAGESIZE)))
    static let step = 16 << 20

    init(mapping base: UnsafePointer<UInt8>?, from: Int) {
        self.base = base
        let p = ReadRelease.page
        released = (from + p - 1) / p * p
    }

    /// Hands back the whole pages in `released..<upTo` once there are `step` bytes of them.
    mutating func upTo(_ offset: Int, force: Bool = false) {
        guard let base else { return }
        let hi = offset / ReadRelease.page * ReadRelease.page
        guard hi - released >= (force ? ReadRelease.page : ReadRelease.step) else { return }
        _ = madvise(UnsafeMutableRawPointer(mutating: base + released), hi - released, MADV_DONTNEED)
        released = hi
    }
}
