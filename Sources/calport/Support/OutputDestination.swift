import CalendarConversion
import CalendarModel
import Foundation
import ICalendar

/// Where a command's output goes: standard output as it is produced, or a file written atomically.
/// With `holdUntilDone`, standard output receives nothing until the run has succeeded (a spool
/// file keeps memory flat), so that `--strict` failures write nothing anywhere; so does an output
/// path that is no regular file (`-o /dev/stdout`, a FIFO), which is written through
/// (`AtomicFile.writesThrough(_:)`).
final class OutputDestination {
    private let terminal: Terminal
    private let file: AtomicFile?
    /// Where the spool is copied once the run has succeeded: standard output, or the path written
    /// through; nil when nothing is spooled.
    private let spooledFor: SpooledOutput?

    private enum SpooledOutput {
        case standardOutput
        case path(String)
    }

    init(path: String?, holdUntilDone: Bool, terminal: Terminal) throws(AtomicFile.WriteError) {
        self.terminal = terminal
        if let path, !(holdUntilDone && AtomicFile.writesThrough(path)) {
            file = try AtomicFile(path: path)
            spooledFor = nil
        } else if holdUntilDone {
            let spool = NSTemporaryDirectory() + "calport-spool-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            file = try AtomicFile(path: spool)
            spooledFor = path.map(SpooledOutput.path) ?? .standardOutput
        } else {
            file = nil
            spooledFor = nil
        }
    }

    /// Writes bytes that need not outlive the call.
    func write(_ bytes: UnsafeRawBufferPointer) {
        if let file { file.write(bytes) } else { terminal.writeOutput(bytes) }
    }

    func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes(write)
    }

    /// Puts the output in place: renames the file, or copies the spool where it is going.
    func commit() throws(AtomicFile.WriteError) {
        guard let file else { return }
        try file.commit()
        guard let spooledFor else { return }
        // Registered again while it is copied, so that an interruption removes it too.
        let descriptor = TemporaryFiles.create(file.path) { open(file.path, O_RDONLY | O_CLOEXEC) }
        defer {
            unlink(file.path)
            TemporaryFiles.remove(file.path)
        }
        guard descriptor >= 0 else {
            throw AtomicFile.WriteError(path: file.path, reason: String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        var source = FileDescriptorByteSource(descriptor: descriptor)
        switch spooledFor {
        case .standardOutput:
            while let chunk = source.nextChunk() { terminal.write(chunk) }
        case .path(let path):
            let output = try AtomicFile(path: path)
            while let chunk = source.nextChunk() { chunk.withUnsafeBytes(output.write) }
            try output.commit()
        }
    }

    func abandon() {
        file?.abandon()
    }

    /// Ends a run: puts the output in place when it `ranToEnd`, else abandons it (exit status 1, as
    /// for `--strict`); a failed commit is said on stderr (exit status 3). Nil once in place.
    func conclude(ranToEnd: Bool) -> ExitStatus? {
        guard ranToEnd else {
            abandon()
            return .dataProblem
        }
        do {
            try commit()
        } catch {
            terminal.writeError(error.description + "\n")
            return .ioError
        }
        return nil
    }
}
