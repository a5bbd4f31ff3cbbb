import CalendarModel
import Foundation

/// A file written so that a reader sees the old content or the new, never a half-written file: a
/// temporary file in the same directory, written in chunks, flushed to disk, then renamed over the
/// target. A run that fails calls `abandon()` and the target is untouched. A symbolic link is
/// replaced by the file, as `sed -i` replaces one, and what it named is left as it was: followed,
/// a link planted where the output goes would choose what is written.
///
/// A path a user names (`writingThroughDevices`) may instead be a device or a FIFO, which has no
/// content to replace and is written as output is produced: a file renamed over `/dev/null` took
/// its place for the whole machine when run as root, and failed for want of write access to `/dev`
/// otherwise. That is the path itself being a character device or FIFO (not a link to one), or one
/// of the names of a descriptor calport has (`/dev/stdout`, `/dev/fd/N`, `/proc/self/fd/N`, however
/// spelled), which is written through a copy of that descriptor, whatever it is open on.
/// A device or FIFO another user owns, in a directory anyone may write to and only owners delete
/// from (`/tmp`), is refused: it may have been put there to read what calport writes. A directory
/// or a block device, or a link to one, is refused before anything is written. A replaced file
/// keeps its permissions but not its set-id bits; a file replacing a link takes nothing of what the
/// link led to.
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
    /// The file renamed over `path` by `commit()`; nil when `path` is written as output is produced.
    private let temporaryPath: String?
    private let descriptor: Int32
    private var failure: String?

    /// Starts writing a new content for `path`, in a temporary file beside it made with `mode` (a
    /// spool of output held back is made 0600), or, with `writingThroughDevices`, into `path`
    /// itself when it names a device, a FIFO or a descriptor.
    public init(path: String, writingThroughDevices: Bool = false, mode: mode_t = 0o644) throws(WriteError) {
        self.path = path
        if writingThroughDevices, let opened = try Self.openedForWritingThrough(path) {
            temporaryPath = nil
            descriptor = opened
            return
        }
        // Through a link too: one to a directory or a block device is refused, not replaced.
        var existing = stat()
        if stat(path, &existing) == 0 {
            let kind = existing.st_mode & S_IFMT
            if kind == S_IFDIR { throw WriteError(path: path, reason: String(cString: strerror(EISDIR))) }
            if kind == S_IFBLK { throw WriteError(path: path, reason: "it is a block device") }
        }
        let temporary =
            path.parentDirectory + "/.\(path.lastPathName).calport-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp"
        temporaryPath = temporary
        // Made with the mode of the file it replaces: no more open than it while it is written.
        var replaced = stat()
        let creationMode =
            lstat(path, &replaced) == 0 && replaced.st_mode & S_IFMT == S_IFREG ? replaced.st_mode & 0o777 : mode
        descriptor = TemporaryFiles.create(temporary) {
            open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, creationMode)
        }
        guard descriptor >= 0 else { throw WriteError(path: path, reason: String(cString: strerror(errno))) }
    }

    /// Whether `path` is written as output is produced (a device, a FIFO or a descriptor), not
    /// replaced by `commit()`.
    public var writesThrough: Bool { temporaryPath == nil }

    /// The descriptor a path names, however it is spelled (`/dev//stdout`, `/dev/fd/5`):
    /// `/dev/stdin`, `/dev/stdout` and `/dev/stderr` 0, 1 and 2, `/proc/self/fd/N` (or this
    /// process's number for `self`) N, and so a link to one. Through its link to `/proc/self/fd/1`,
    /// `/dev/stdout` is whatever standard output is open on, and a regular file there was replaced
    /// by a rename in `/dev`. A path ending in `/` names none (a shell's `>` fails on it).
    private static func descriptorNamed(_ path: String) -> Int32? {
        guard !path.hasSuffix("/") else { return nil }
        if let named = descriptorSpelled(path) { return named }
        // One level of link, its text read from where the link is.
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else { return nil }
        var text = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink(path, &text, text.count - 1)
        guard length > 0 else { return nil }
        let target = String(decoding: text[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard !target.hasSuffix("/") else { return nil }
        return descriptorSpelled(target.hasPrefix("/") ? target : path.parentDirectory + "/" + target)
    }

    /// The descriptor `path` spells once its directory is made canonical (`/dev/fd` is
    /// `/proc/<pid>/fd`), its last name as it is.
    private static func descriptorSpelled(_ path: String) -> Int32? {
        var canonical = path
        if let resolved = realpath(path.parentDirectory, nil) {
            let directory = String(cString: resolved)
            free(resolved)
            canonical = (directory == "/" ? "" : directory) + "/" + path.lastPathName
        }
        switch canonical {
        case "/dev/stdin": return 0
        case "/dev/stdout": return 1
        case "/dev/stderr": return 2
        default: break
        }
        for prefix in ["/proc/self/fd/", "/proc/\(getpid())/fd/", "/dev/fd/"] where canonical.hasPrefix(prefix) {
            // Digits as the kernel names descriptors: no sign, no leading zero.
            let digits = canonical.dropFirst(prefix.count)
            guard !digits.isEmpty, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                digits == "0" || !digits.hasPrefix("0")
            else { return nil }
            return Int32(digits)
        }
        return nil
    }

    private static func isDeviceOrFIFO(_ mode: mode_t) -> Bool {
        mode & S_IFMT == S_IFCHR || mode & S_IFMT == S_IFIFO
    }

    /// A descriptor to write `path` through, when it is written so; nil when it is replaced.
    private static func openedForWritingThrough(_ path: String) throws(WriteError) -> Int32? {
        func failed(_ reason: String) -> WriteError { WriteError(path: path, reason: reason) }
        if let named = descriptorNamed(path) {
            // Said now, not after the whole run: a descriptor not open, or open only for reading.
            let flags = fcntl(named, F_GETFL)
            guard flags >= 0 else { throw failed(String(cString: strerror(errno))) }
            guard flags & O_ACCMODE == O_WRONLY || flags & O_ACCMODE == O_RDWR else {
                throw failed("descriptor \(named) is not open for writing")
            }
            let copy = fcntl(named, F_DUPFD_CLOEXEC, 0)
            guard copy >= 0 else { throw failed(String(cString: strerror(errno))) }
            return copy
        }
        var status = stat()
        guard lstat(path, &status) == 0, isDeviceOrFIFO(status.st_mode) else { return nil }
        if status.st_uid != geteuid() {
            var directory = stat()
            if stat(path.parentDirectory, &directory) == 0, directory.st_mode & S_ISVTX != 0,
                directory.st_mode & S_IWOTH != 0
            {
                throw failed("it is a device or FIFO another user owns, in a directory anyone may write to")
            }
        }
        // Neither created nor truncated, as it is; opening a FIFO waits for its reader, as `>` does.
        let opened = open(path, O_WRONLY | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC)
        guard opened >= 0 else { throw failed(String(cString: strerror(errno))) }
        var now = stat()
        guard fstat(opened, &now) == 0, now.st_dev == status.st_dev, now.st_ino == status.st_ino else {
            close(opened)
            throw failed("it was replaced while it was opened")
        }
        return opened
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
        // A file replaced keeps its permissions (a 0600 target stays 0600), as an edit in place would;
        // not its set-id bits, and not the mode of what a link replaced led to (a link planted to
        // /dev/null would have made the output writable by anyone).
        var existing = stat()
        if failure == nil && lstat(path, &existing) == 0 && existing.st_mode & S_IFMT == S_IFREG
            && fchmod(descriptor, existing.st_mode & 0o777) != 0
        {
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
    public static func write(_ bytes: [UInt8], to path: String, writingThroughDevices: Bool = false)
        throws(WriteError)
    {
        let file = try AtomicFile(path: path, writingThroughDevices: writingThroughDevices)
        bytes.withUnsafeBytes(file.write)
        try file.commit()
    }
}
