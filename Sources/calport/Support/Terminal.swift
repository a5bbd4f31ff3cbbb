import Foundation
import ICalendar

/// Where a command reads and writes: stdin, stdout and stderr, replaceable in tests.
struct Terminal {
    var standardInput: () -> ChunkSource = {
        ChunkSource(FileDescriptorByteSource(descriptor: STDIN_FILENO), closing: nil)
    }
    var writeOutput: ([UInt8]) -> Void = { bytes in
        // Handed over without a copy: a streamed conversion writes its whole output through here, a
        // chunk at a time, and copying it into a `Data` cost about 800 instructions an event.
        bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            FileHandle.standardOutput.write(
                Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: buffer.count, deallocator: .none))
        }
    }
    var writeError: (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }
    /// Where streaming runs put their (at once unlinked) scratch files: `$TMPDIR`, else /tmp.
    var temporaryDirectory: () -> String = { NSTemporaryDirectory() }
}

/// Exit statuses, documented in calport(1).
enum ExitStatus: Int32 {
    case success = 0
    /// Input problems: something was dropped, or `--strict` found a warning.
    case dataProblem = 1
    case usage = 2
    /// A file could not be read or written.
    case ioError = 3
}
