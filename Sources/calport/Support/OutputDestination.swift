import CalendarConversion
import CalendarModel
import Foundation
import ICalendar

/// Where a command's output goes: standard output as it is produced, or a file written atomically.
/// A path the user named may be a device, a FIFO or a name of a descriptor (`-o /dev/null`, `-o
/// /dev/stdout`), written as output is produced (`AtomicFile`'s `writingThroughDevices`); one made
/// from an input's name (`--out-dir`) is always a file. With `holdUntilDone`, standard output or
/// such a target receives nothing until the run has succeeded (a spool file keeps memory flat), so
/// that `--strict` failures write nothing anywhere.
final class OutputDestination {
    private let terminal: Terminal
    private let file: AtomicFile?
    /// Where the spool is copied once the run has succeeded; nil when nothing is spooled.
    private let spooledFor: SpooledOutput?

    private enum SpooledOutput {
        case standardOutput
        /// A target written through, opened at the start: its reader (a FIFO's) sees the end of
        /// the output, empty, when the run fails, rather than waiting for a writer.
        case target(AtomicFile)
    }

    /// Output to `path` (standard output when nil); `named` says the user named it.
    init(path: String?, named: Bool = true, holdUntilDone: Bool, terminal: Terminal) throws(AtomicFile.WriteError) {
        self.terminal = terminal
        let spool = { () throws(AtomicFile.WriteError) -> AtomicFile in
            // Readable by its owner only: it holds what the run has not yet decided to show anyone.
            try AtomicFile(
                path: NSTemporaryDirectory() + "calport-spool-\(getpid())-\(UInt32.random(in: 0...UInt32.max))",
                mode: 0o600)
        }
        if let path {
            let target = try AtomicFile(path: path, writingThroughDevices: named)
            guard holdUntilDone && target.writesThrough else {
                file = target
                spooledFor = nil
                return
            }
            do {
                file = try spool()
            } catch {
                target.abandon()
                throw error
            }
            spooledFor = .target(target)
        } else if holdUntilDone {
            file = try spool()
            spooledFor = .standardOutput
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
        do {
            try file.commit()
        } catch {
            if case .target(let target) = spooledFor { target.abandon() }
            throw error
        }
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
        case .target(let target):
            while let chunk = source.nextChunk() { chunk.withUnsafeBytes(target.write) }
            try target.commit()
        }
    }

    func abandon() {
        file?.abandon()
        if case .target(let target) = spooledFor { target.abandon() }
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
