import CalendarModel
import Foundation

/// Standard output and error written with write(2), where a failure ends the run cleanly: exit
/// status 3 with a message on standard error (when that still works), temporary files removed. A
/// reader that went away (`EPIPE`, as in `calport … | head`) ends the run by SIGPIPE, silently, as
/// it ends any Unix tool. Foundation's `FileHandle.write` instead crashed on any failure (a `try!`).
enum StandardStreams {
    /// Writes all of `buffer` to standard output, or ends the run.
    static func writeOutput(_ buffer: UnsafeRawBufferPointer) {
        if let failure = write(buffer, to: STDOUT_FILENO) { fail(writing: "standard output", failure) }
    }

    /// Writes `text` to standard error, or ends the run.
    static func writeError(_ text: String) {
        var text = text
        let failure = text.withUTF8 { write(UnsafeRawBufferPointer($0), to: STDERR_FILENO) }
        if let failure { fail(writing: "standard error", failure) }
    }

    /// The errno of the first failed write(2), nil when every byte was written.
    static func write(_ buffer: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32? {
        guard let base = buffer.baseAddress else { return nil }
        var written = 0
        while written < buffer.count {
            let result = Foundation.write(descriptor, base + written, buffer.count - written)
            if result < 0 {
                if errno == EINTR { continue }
                return errno
            }
            written += result
        }
        return nil
    }

    /// Ends the run after `stream` failed with `error`.
    private static func fail(writing stream: String, _ error: Int32) -> Never {
        TemporaryFiles.removeAll()
        if error == EPIPE {
            signal(SIGPIPE, SIG_DFL)
            raise(SIGPIPE)
        }
        if stream != "standard error" {
            var message = "calport: error: cannot write to \(stream): \(String(cString: strerror(error)))\n"
            _ = message.withUTF8 { write(UnsafeRawBufferPointer($0), to: STDERR_FILENO) }
        }
        // _exit: other threads may still be converting; nothing of theirs is worth flushing now.
        _exit(ExitStatus.ioError.rawValue)
    }
}
