// The folder of store images (`$XDG_CACHE_HOME/abacus/`, else `~/.cache/abacus/`):
// which image belongs to which ledger files, when one may be used, saving a new one
// and keeping the folder small.
//
// An image is named after the canonical paths of the files it was made from, and
// is used only when everything it records still holds: the same Abacus version and
// image format, the same files, each of the same size and the same content hash
// (every byte hashed: an edit that keeps the size and the modification time is
// seen), and every section of the image matching its checksum. Anything else — a
// file edited, an image cut short, damaged or left by another version — sends the
// load to the JSON with a one-line note, and the image is saved anew. Saving is
// atomic (`AtomicFile`), so a session never sees half an image; a folder that
// cannot be written is a note, not an error. After a save, the least recently
// used images are removed beyond `maxImages` images or `maxBytes` bytes in all.

import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

public struct StoreCache: Sendable {
    public let folder: String
    /// The Abacus version an image must have been written by.
    public let version: String
    public var maxImages = 8
    public var maxBytes = 4 << 30

    public init(folder: String, version: String) {
        self.folder = folder
        self.version = version
    }

    /// `$XDG_CACHE_HOME/abacus`, else `$HOME/.cache/abacus`; nil when neither is set.
    public static func defaultFolder(_ environment: [String: String]) -> String? {
        if let c = environment["XDG_CACHE_HOME"], c.hasPrefix("/") { return c + "/abacus" }
        if let h = environment["HOME"], !h.isEmpty { return h + "/.cache/abacus" }
        return nil
    }

    /// The image file for these canonical paths.
    public func imagePath(for canonical: [String]) -> String {
        let key = Array(canonical.joined(separator: "\u{0}").utf8)
        let h = key.withUnsafeBytes { ContentHash.xxh64($0, seed: 0x4142_4143_5553) }
        let hex = String(h, radix: 16)
        return folder + "/store-" + String(repeating: "0", count: 16 - hex.count) + hex + ".img"
    }

    /// Loads the ledger files, from their image when it provably matches them, else from the
    /// JSON (saving an image for next time). `note` receives one-line notes for stderr.
    /// `usingTheImage` false reads the JSON whatever image there is (and saves a new one): after
    /// a section of the image failed the check made when it was first read (`LateSections`).
    ///
    /// `confirmingLater`: a ledger from an image is returned while the files' contents are still
    /// being hashed; nothing made from it may be shown before `LateSections.filesChangedNote()`
    /// (which waits for the hashing) said they match, and when it gives a note, the files are
    /// read from the JSON (`usingTheImage` false) and what was made is made again.
    public func load(paths: [String], usingTheImage: Bool = true, confirmingLater: Bool = false, progress: LoadProgress? = nil,
                     note: (String) -> Void) throws(LoadError) -> Ledger {
        var canonical: [String] = []
        for p in paths {
            // Only regular files can be checked against an image; a pipe is read as it comes.
            guard let c = LedgerLoader.canonicalPath(p), MappedFile.identity(of: c) != nil else {
                return try LedgerLoader.load(paths: paths, progress: progress)
            }
            canonical.append(c)
        }
        let image = imagePath(for: canonical)
        if usingTheImage, let ledger = fromImage(image, canonical: canonical, paths: paths, confirmingLater: confirmingLater, note: note) {
            return ledger
        }
        let (ledger, stamps) = try LedgerLoader.load(paths: paths, stamping: true, progress: progress)
        if let stamps { save(ledger, stamps: stamps, to: image, note: note) }
        return ledger
    }

    // MARK: Using an image

    /// The ledger from the image at `path`, or nil (with a note unless there is no image).
    func fromImage(_ path: String, canonical: [String], paths: [String], confirmingLater: Bool = false, note: (String) -> Void) -> Ledger? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else {
            if errno != ENOENT && errno != ENOTDIR { note("note: cannot read the store image \(path) (\(RateCache.errnoText())); reading the JSON") }
            return nil
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size > 0 else {
            note("note: ignoring the store image \(path): not a regular file with contents; reading the JSON")
            return nil
        }
        guard let memory = ImageMemory(mapping: fd, size: Int(info.st_size)) else {
            note("note: cannot map the store image \(path) (\(RateCache.errnoText())); reading the JSON")
            return nil
        }
        let guardRail = ShrinkGuard(message: "error: \(path) or a ledger file got shorter while it was being read; run again, or with --no-cache\n")
        defer { guardRail.remove() }
        let bytes = memory.bytes
        do throws(ImageProblem) {
            let dir = try StoreImage.directory(bytes)
            guard dir.version == version else { throw ImageProblem("written by Abacus \(ShownText.shown(dir.version, limit: 40)), this is \(version)") }
            guard dir.stamps.map(\.path) == canonical else { throw ImageProblem("made from other ledger files") }
            var hashing: [FileHashing] = []
            for (stamp, name) in zip(dir.stamps, paths) {
                let fd = open(stamp.path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
                var now = stat()
                guard fd >= 0, fstat(fd, &now) == 0, now.st_mode & S_IFMT == S_IFREG, UInt64(now.st_size) == stamp.size else {
                    if fd >= 0 { close(fd) }
                    hashing.forEach { close($0.fd) }
                    note(StoreCache.changed(name))
                    return nil
                }
                hashing.append(FileHashing(fd: fd, size: Int(now.st_size)))
            }
            // Each ledger file's contents hashed (every byte) while the image is checked and,
            // `confirmingLater`, while the session goes on to its first answer.
            let contents = ContentCheck(hashing, stamps: dir.stamps, names: paths)
            let ledger: Ledger
            do throws(ImageProblem) {
                ledger = try StoreImage.ledger(memory, dir, files: paths, imagePath: path, contents: contents)
            } catch {
                _ = contents.changedNote()
                throw error
            }
            if !confirmingLater, let change = contents.changedNote() {
                note(change)
                return nil
            }
            // Most recently used first when the folder is trimmed.
            _ = futimens(fd, nil)
            return ledger
        } catch {
            note(StoreCache.ignoring(path, error))
            return nil
        }
    }

    /// The note for an image found damaged, at open or when a section was first read.
    public static func ignoring(_ path: String, _ problem: ImageProblem) -> String {
        "note: ignoring the store image \(path): \(problem.description); reading the JSON"
    }

    static func changed(_ name: String) -> String {
        "note: \(ShownText.shown(name, limit: 1000)) changed since its store image was saved; reading the JSON"
    }

    // MARK: Saving an image

    func save(_ ledger: Ledger, stamps: [LedgerFileStamp], to path: String, note: (String) -> Void) {
        do throws(AtomicFile.Failure) {
            try AtomicFile.makeFolders(folder)
            try AtomicFile.replace(path) { fd in StoreImage.write(ledger, stamps: stamps, version: version, to: fd) }
        } catch {
            note("note: cannot save a store image in \(folder) (\(error.description)); the next start reads the JSON again")
            return
        }
        trim(keeping: path)
    }

    /// Removes the least recently used images beyond `maxImages` or `maxBytes`, and
    /// temporary files a crashed save left more than an hour ago. `keeping` always stays.
    func trim(keeping: String) {
        guard let dir = opendir(folder) else { return }
        var images: [(path: String, used: Int, bytes: Int)] = []
        let now = time(nil)
        while let e = readdir(dir) {
            let name = withUnsafeBytes(of: e.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name.hasPrefix("store-") else { continue }
            let path = folder + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            if name.hasSuffix(".img") {
                images.append((path, Int(info.st_mtim.tv_sec), Int(info.st_size)))
            } else if name.contains(".img.tmp-"), Int(now) - Int(info.st_mtim.tv_sec) > 3600 {
                unlink(path)
            }
        }
        closedir(dir)
        images.sort { ($0.path == keeping ? 1 : 0, $0.used) > ($1.path == keeping ? 1 : 0, $1.used) }
        var total = 0
        for (i, image) in images.enumerated() {
            total += image.bytes
            if image.path != keeping && (i >= maxImages || total > maxBytes) { unlink(image.path) }
        }
    }
}

extension LedgerLoader {
    /// `ContentHash.of` a regular file's bytes, read through a small buffer per core (nothing is
    /// mapped, so nothing stays resident and no pages are mapped and unmapped); nil when it is
    /// not a regular file or cannot be read whole.
    public static func contentHash(of path: String) -> UInt64? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return ContentHash.ofFile(fd, size: Int(info.st_size))
    }
}


/// The ledger files' contents hashed in the background (every byte of each), against what an
/// image recorded of them: threads of its own, one per core, so that the hashing goes on at full
/// width whatever the session's own jobs keep busy (the dispatch pool is sized to the cores).
final class ContentCheck: @unchecked Sendable {
    private let hashing: [FileHashing]
    private let stamps: [LedgerFileStamp]
    private let names: [String]
    /// Every piece of every file, taken in turn by the threads.
    private let jobs: [(file: FileHashing, piece: Int)]
    private let next = Atomic<Int>(0)
    /// The threads started; joined (and the outcome worked out) once, under the lock.
    private var threads: [pthread_t] = []
    private let outcome = Mutex<String??>(nil)

    init(_ hashing: [FileHashing], stamps: [LedgerFileStamp], names: [String]) {
        self.hashing = hashing
        self.stamps = stamps
        self.names = names
        jobs = hashing.flatMap { h in (0..<h.pieces).map { (h, $0) } }
        let cores = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        for _ in 0..<min(cores, jobs.count) {
            // The pieces no thread takes are hashed by `changedNote`.
            guard let thread = startThread({ [self] in work() }) else { break }
            threads.append(thread)
        }
    }

    /// Hashes pieces until none is left.
    private func work() {
        while true {
            let k = next.wrappingAdd(1, ordering: .relaxed).oldValue
            guard k < jobs.count else { return }
            jobs[k].file.hash(piece: jobs[k].piece)
        }
    }

    /// Waits for the hashing: nil when every file holds what the image was made from, else the
    /// note that says which changed.
    func changedNote() -> String? {
        outcome.withLock { known in
            if let known { return known }
            for t in threads { pthread_join(t, nil) }
            work()
            var note: String?
            for (h, (stamp, name)) in zip(hashing, zip(stamps, names)) where h.value != stamp.hash {
                note = StoreCache.changed(name)
                break
            }
            hashing.forEach { close($0.fd) }
            known = .some(note)
            return note
        }
    }
}
