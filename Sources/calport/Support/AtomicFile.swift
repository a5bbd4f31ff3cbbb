import Foundation

/// Writes files so that a reader sees the old content or the new, never a half-written file:
/// a temporary file in the same directory, flushed to disk, then renamed over the target.
enum AtomicFile {
    struct WriteError: Error, CustomStringConvertible {
        var path: String
        var reason: String
        var description: String { "\(path): error: cannot write: \(reason)" }
    }

    static func write(_ bytes: [UInt8], to path: String) throws(WriteError) {
        let directory = (path as NSString).deletingLastPathComponent
        let base = (path as NSString).lastPathComponent
        let temporary =
            (directory.isEmpty ? "." : directory)
            + "/.\(base).calport-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard descriptor >= 0 else { throw WriteError(path: path, reason: String(cString: strerror(errno))) }
        var written = 0
        let failure: String? = bytes.withUnsafeBytes { buffer in
            while written < buffer.count {
                let result = Foundation.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if result < 0 { return String(cString: strerror(errno)) }
                written += result
            }
            return fsync(descriptor) == 0 ? nil : String(cString: strerror(errno))
        }
        close(descriptor)
        if let failure {
            unlink(temporary)
            throw WriteError(path: path, reason: failure)
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw WriteError(path: path, reason: reason)
        }
    }
}
