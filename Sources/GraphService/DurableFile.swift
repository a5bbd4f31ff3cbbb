import CalendarModel
import Foundation

/// File writes that survive a crash: fsync before rename, fsync after append.
enum DurableFile {
    /// Why a write failed, from `strerror`.
    struct Failure: Error {
        var reason: String
        static var current: Failure { Failure(reason: String(cString: strerror(errno))) }
    }

    /// Replaces `path` with `bytes` through a temporary file in the same directory, created with `mode`.
    static func replace(_ path: String, with bytes: [UInt8], mode: mode_t) throws(Failure) {
        let temporary = path + ".\(getpid()).tmp"
        // A leftover of an earlier process with this pid is removed, and the file made anew
        // (O_EXCL, O_NOFOLLOW): never written through a link or a FIFO someone left there.
        unlink(temporary)
        let descriptor = TemporaryFiles.create(temporary) {
            open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        }
        guard descriptor >= 0 else { throw .current }
        // Registered, so that SIGINT or SIGTERM while a token cache or delta state is being
        // replaced leaves no `.tmp` file (holding a refresh token) behind.
        defer { TemporaryFiles.remove(temporary) }
        do throws(Failure) {
            // The umask may have taken bits off `mode`; the file gets exactly `mode`.
            guard fchmod(descriptor, mode) == 0 else { throw Failure.current }
            try writeAll(bytes, to: descriptor)
            guard fsync(descriptor) == 0 else { throw Failure.current }
        } catch {
            close(descriptor)
            unlink(temporary)
            throw error
        }
        close(descriptor)
        guard rename(temporary, path) == 0 else {
            let failure = Failure.current
            unlink(temporary)
            throw failure
        }
    }

    /// Writes every byte, retrying short writes.
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) throws(Failure) {
        var written = 0
        let failed = bytes.withUnsafeBytes { buffer -> Bool in
            while written < buffer.count {
                let result = write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if result < 0 {
                    if errno == EINTR { continue }
                    return true
                }
                written += result
            }
            return false
        }
        if failed { throw .current }
    }
}
