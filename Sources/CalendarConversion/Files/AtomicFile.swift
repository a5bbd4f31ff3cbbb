import CalendarModel
import Foundation

/// A file written so that a reader sees the old content or the new, never a half-written file: a
/// temporary file in the same directory, written in chunks, flushed to disk, then renamed over the
/// target. A run that fails calls `abandon()` and the target is untouched. A symbolic link is
/// replaced by the file, as `sed -i` replaces one, and the file it named left as it was: following
/// it would let whoever can plant a link where the output goes choose which file is replaced.
///
/// A character device or a FIFO (`/dev/null`, `/dev/stdout`, `>(…)`) has no content to replace and
/// is written as it is produced, opened as a shell's `>` opens it (the kernel's protections against
/// planted links and FIFOs apply): a file renamed over `/dev/null` took its place for the whole
/// machine when run as root, and failed for want of write access to `/dev` otherwise. A directory
/// or a block device is refused before anything is written.
public final class AtomicFile {
    /// A file that could not be written (or a scratch file read back), with the system's reason.
    public struct WriteError: Error, CustomStringConvertible {
        /// The file that failed.
        public var path: String
        /// What the system said (`strerror`).
        public var reason: String
        /// What failed: writing, or reading back a scratch file written earlier.
        public var action = "write"
        /// `PATH: error: cannot ACTION: REASON`, as calport prints it.
        public var description: String { "\(path): error: cannot \(action): \(reason)" }

        /// A failure to `action` the file at `path`, for `reason`.
        public init(path: String, reason: String, action: String = "write") {
            self.path = path
            self.reason = reason
            self.action = action
        }
    }

    /// The file that `commit()` replaces.
    public let path: String
    /// The file renamed over `path` by `commit()`; nil when `path` is written as it is produced
    /// (`writesThrough(_:)`).
    private let temporaryPath: String?
    private let descriptor: Int32
    private var failure: String?

    /// Starts writing a new content for `path`, in a temporary file beside it, or into `path` itself
    /// when it is a character device or a FIFO.
    public init(path: String) throws(WriteError) {
        self.path = path
        var existing = stat()
        let kind = stat(path, &existing) == 0 ? existing.st_mode & S_IFMT : S_IFREG
        if kind == S_IFDIR { throw WriteError(path: path, reason: String(cString: strerror(EISDIR))) }
        if kind == S_IFBLK { throw WriteError(path: path, reason: "it is a block device") }
        if kind == S_IFCHR || kind == S_IFIFO {
            temporaryPath = nil
            // Neither created nor truncated; opening a FIFO waits for its reader, as `>` does.
            descriptor = open(path, O_WRONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw WriteError(path: path, reason: String(cString: strerror(errno))) }
            var opened = stat()
            guard fstat(descriptor, &opened) == 0, Self.isWrittenThrough(opened.st_mode) else {
                close(descriptor)
                throw WriteError(path: path, reason: "it was replaced while it was opened")
            }
            return
        }
        let directory = (path as NSString).deletingLastPathComponent
        let base = (path as NSString).lastPathComponent
        let temporary =
            (directory.isEmpty ? "." : directory)
            + "/.\(base).calport-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp"
        temporaryPath = temporary
        descriptor = TemporaryFiles.create(temporary) {
            open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        }
        guard descriptor >= 0 else { throw WriteError(path: path, reason: String(cString: strerror(errno))) }
    }

    /// Whether `path` names, after symbolic links, a character device or a FIFO, which an
    /// `AtomicFile` writes as output is produced.
    public static func writesThrough(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && isWrittenThrough(status.st_mode)
    }

    private static func isWrittenThrough(_ mode: mode_t) -> Bool {
        mode & S_IFMT == S_IFCHR || mode & S_IFMT == S_IFIFO
    }

    /// Appends bytes; the first failure is kept and reported by `commit()`.
    public func write(_ buffer: UnsafeRawBufferPointer) {
        guard failure == nil else { return }
        var written = 0
        while written < buffer.count {
            let result = Foundation.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
            if result < 0 {
                if errno == EINTR { continue }
                failure = String(cString: strerror(errno))
                return
            }
            written += result
        }
    }

    /// Flushes the data to disk and puts the file in place of the target.
    public func commit() throws(WriteError) {
        guard let temporaryPath else {
            close(descriptor)
            if let failure { throw WriteError(path: path, reason: failure) }
            return
        }
        // A file replaced keeps its permissions (a 0600 target stays 0600), as an edit in place would.
        var existing = stat()
        if failure == nil && stat(path, &existing) == 0 && fchmod(descriptor, existing.st_mode & 0o7777) != 0 {
            failure = String(cString: strerror(errno))
        }
        if failure == nil && fsync(descriptor) != 0 { failure = String(cString: strerror(errno)) }
        close(descriptor)
        if failure == nil && rename(temporaryPath, path) != 0 { failure = String(cString: strerror(errno)) }
        TemporaryFiles.remove(temporaryPath)
        if let failure {
            unlink(temporaryPath)
            throw WriteError(path: path, reason: failure)
        }
    }

    /// Removes the temporary file; the target keeps its old content. (A target written through has
    /// what was written so far, as standard output would.)
    public func abandon() {
        close(descriptor)
        guard let temporaryPath else { return }
        unlink(temporaryPath)
        TemporaryFiles.remove(temporaryPath)
    }

    /// Writes a whole file at once.
    public static func write(_ bytes: [UInt8], to path: String) throws(WriteError) {
        let file = try AtomicFile(path: path)
        bytes.withUnsafeBytes(file.write)
        try file.commit()
    }
}
