// Replacing a small file so that no reader ever sees half of it: the text goes to
// a fresh temporary file in the same folder (mkstemp: an unpredictable name,
// created exclusively, never through a planted link), which is synced, renamed
// over the file, and the folder synced, so that the rename itself survives a
// crash. A crash or a full disk leaves the old file as it was. The rates cache,
// the watch list and the store images are written this way.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

public enum AtomicFile {
    public enum Failure: Error, Sendable, CustomStringConvertible {
        case cannotCreateFolder(String, reason: String)
        case cannotWrite(String, reason: String)
        case cannotReplace(String, reason: String)

        public var description: String {
            switch self {
            case .cannotCreateFolder(let folder, let reason): return "cannot create the folder \(folder): \(reason)"
            case .cannotWrite(let path, let reason): return "cannot write \(path): \(reason)"
            case .cannotReplace(let path, let reason): return "cannot replace \(path): \(reason)"
            }
        }
    }

    /// The folder part of a path ("" for a bare name).
    public static func folder(of path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
    }

    /// Creates the folder and those above it that are missing (mode 0755).
    public static func makeFolders(_ folder: String) throws(Failure) {
        var current = folder.hasPrefix("/") ? "" : "."
        for part in folder.split(separator: "/") {
            current += "/" + part
            if mkdir(current, 0o755) != 0 && errno != EEXIST { throw .cannotCreateFolder(current, reason: errnoText()) }
        }
    }

    /// Writes `text` to `path` atomically. The folder must exist (`makeFolders`).
    public static func write(_ text: String, to path: String) throws(Failure) {
        let bytes = Array(text.utf8)
        try replace(path) { fd in
            var written = 0
            while written < bytes.count {
                let n = bytes.withUnsafeBufferPointer { b in b.baseAddress.map { writeBytes(fd, $0 + written, b.count - written) } ?? -1 }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return false }
                written += n
            }
            return true
        }
    }

    /// Replaces the file at `path` with what `write` writes to the temporary file's descriptor
    /// (false: it could not write everything). The folder must exist.
    public static func replace(_ path: String, _ write: (Int32) -> Bool) throws(Failure) {
        let folder = folder(of: path)
        var template = Array((path + ".tmp-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { b in b.baseAddress.map { mkstemp($0) } ?? -1 }
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard fd >= 0 else { throw .cannotWrite(temporary, reason: errnoText()) }
        func abandon(_ error: Failure) -> Failure {
            close(fd)
            unlink(temporary)
            return error
        }
        errno = 0
        guard write(fd) else { throw abandon(.cannotWrite(temporary, reason: errno == 0 ? "nothing was written" : errnoText())) }
        guard fsync(fd) == 0 else { throw abandon(.cannotWrite(temporary, reason: errnoText())) }
        guard close(fd) == 0 else {
            let reason = errnoText()
            unlink(temporary)
            throw .cannotWrite(temporary, reason: reason)
        }
        guard rename(temporary, path) == 0 else {
            let reason = errnoText()
            unlink(temporary)
            throw .cannotReplace(path, reason: reason)
        }
        // The rename itself is durable only once the folder is synced.
        let dir = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY)
        if dir >= 0 {
            _ = fsync(dir)
            close(dir)
        }
    }

    static func errnoText() -> String { String(cString: strerror(errno)) }
}

/// POSIX `write`, which `AtomicFile.write(_:to:)` hides by name inside the enum.
private func writeBytes(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, buffer, count)
}
