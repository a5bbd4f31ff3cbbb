import Foundation
import ICalendar

/// Where a command reads and writes: stdin, stdout and stderr, replaceable in tests.
struct Terminal {
    var standardInput: () -> ChunkSource = {
        ChunkSource(FileDescriptorByteSource(descriptor: STDIN_FILENO), closing: nil)
    }
    /// Receives standard output's bytes, which it must not keep past the call: the .ics writer hands
    /// over its own buffer, and copying each 64 KiB chunk into an array cost about 1,000 instructions an
    /// event as callgrind counts them.
    var writeOutput: (UnsafeRawBufferPointer) -> Void = StandardStreams.writeOutput
    /// Receives standard error's text; a failed write ends the run (`StandardStreams`).
    var writeError: (String) -> Void = StandardStreams.writeError
    /// Where streaming runs put their (at once unlinked) scratch files: `$TMPDIR`, else /tmp.
    var temporaryDirectory: () -> String = { NSTemporaryDirectory() }
    /// Whether standard error is a terminal, where progress is shown; tests capture it and say no.
    var errorIsTerminal: Bool = isatty(STDERR_FILENO) == 1
    /// The environment the run sees (the XDG directories, `CALPORT_…` settings); tests give their own.
    var environment: [String: String] = ProcessInfo.processInfo.environment

    /// Writes `line` to standard error as one line: its control characters escaped, then a newline.
    /// Text that comes from an input or a server (a Graph error message, a path) goes out through
    /// here, so that it can neither forge a line of calport's report nor drive the terminal.
    func writeErrorLine(_ line: String) {
        writeError(line.escapingControlCharacters + "\n")
    }

    func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes(writeOutput)
    }
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
