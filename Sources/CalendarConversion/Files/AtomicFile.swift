import CalendarModel
import Foundation

/// A file written so that a reader sees the old content or the new, never a half-written file: a
/// temporary file in the same directory, written in chunks, flushed to disk, then renamed over the
/// target. A run that fails calls `abandon()` and the target is untouched.
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
    private let temporaryPath: String
    private let descriptor: Int32
    private var failure: String?

    /// Starts writing a new content for `path`, in a temporary file beside it.
    public init(path: String) throws(WriteError) {
        self.path = path
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
        // A file replaced keeps its permissions (a 0600 target stays 0600), as an edit in place would.
        var target = stat()
        if failure == nil && stat(path, &target) == 0 && fchmod(descriptor, target.st_mode & 0o7777) != 0 {
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

    /// Removes the temporary file; the target keeps its old content.
    public func abandon() {
        close(descriptor)
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
