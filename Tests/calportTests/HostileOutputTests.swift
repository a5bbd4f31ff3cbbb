import Foundation
import TestSupport
import Testing

@testable import calport

// Nothing lost: what calport was given and what it wrote before survive any failed run.

private let good = hostileCalendar(["DTSTART:20260105T100000Z", "SUMMARY:good"])

/// The names in a directory, temporary files included.
private func listing(_ directory: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
}

@Test func aFailureMidBatchKeepsTheOtherOutputsAndNamesTheInput() throws {
    let directory = try temporaryDirectory()
    let inputs = directory.appendingPathComponent("in")
    let outputs = directory.appendingPathComponent("out")
    try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(at: outputs, withIntermediateDirectories: true)
    try good.write(to: inputs.appendingPathComponent("a.ics"), atomically: true, encoding: .utf8)
    try "not a calendar".write(to: inputs.appendingPathComponent("b.ics"), atomically: true, encoding: .utf8)
    try good.write(to: inputs.appendingPathComponent("c.ics"), atomically: true, encoding: .utf8)
    // b's output from an earlier run must survive b failing now.
    try "earlier b".write(to: outputs.appendingPathComponent("b.ics"), atomically: true, encoding: .utf8)
    let run = runCalport(["convert", "--out-dir", outputs.path, inputs.path])
    #expect(run.status == .dataProblem)
    #expect(run.errors.contains("\(inputs.path)/b.ics: error: expected iCalendar (BEGIN:VCALENDAR), Graph JSON"))
    #expect(run.errors.contains("3 files, 2 events, 0 warnings, 1 failed"))
    #expect(try listing(outputs) == ["a.ics", "b.ics", "c.ics"], "no temporary files left")
    #expect(try String(contentsOf: outputs.appendingPathComponent("a.ics"), encoding: .utf8).contains("SUMMARY:good"))
    #expect(try String(contentsOf: outputs.appendingPathComponent("c.ics"), encoding: .utf8).contains("SUMMARY:good"))
    #expect(try String(contentsOf: outputs.appendingPathComponent("b.ics"), encoding: .utf8) == "earlier b")
}

@Test func aBatchInputOverTheSizeLimitIsNamedAndSkipped() throws {
    let directory = try temporaryDirectory()
    let small = directory.appendingPathComponent("small.ics")
    let large = directory.appendingPathComponent("large.ics")
    try good.write(to: small, atomically: true, encoding: .utf8)
    try hostileCalendar(["DTSTART:20260105T100000Z", "DESCRIPTION:" + String(repeating: "x", count: 2048)])
        .write(to: large, atomically: true, encoding: .utf8)
    let outputs = directory.appendingPathComponent("out")
    let run = runCalport(["convert", "--max-input-size", "1K", "--out-dir", outputs.path, small.path, large.path])
    #expect(run.status == .dataProblem)
    #expect(run.errors.contains("\(large.path): error: input is larger than 1024 bytes (--max-input-size)"))
    #expect(try listing(outputs) == ["small.ics"])
}

/// Runs that fail before converting anything, each against an existing output file.
@Test(arguments: [
    ("unrecognised input", "hello", calport.ExitStatus.dataProblem, [String]()),
    ("only errors", "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:x\r\n", .dataProblem, []),
    ("strict stop", badEvent, .dataProblem, ["--strict"]),
    ("bad limit", good, .usage, ["--max-depth", "0"]),
])
func aFailedRunLeavesTheExistingOutputAlone(
    _ name: String, _ input: String, _ status: calport.ExitStatus, _ options: [String]
) throws {
    let file = try HostileFile(input)
    try "previous".write(to: file.output, atomically: true, encoding: .utf8)
    let run = file.run("convert", options + ["-o", file.output.path])
    #expect(run.status == status, "\(name)")
    #expect(try file.written() == "previous", "\(name)")
    #expect(try listing(file.directory) == ["in.ics", "out"], "\(name): no temporary files left")
}

@Test func aMissingInputIsAnIOErrorAndLeavesTheOutputAlone() throws {
    let file = try HostileFile(good)
    try "previous".write(to: file.output, atomically: true, encoding: .utf8)
    let run = runCalport([
        "convert", file.input.path, file.directory.appendingPathComponent("absent.ics").path,
        "-o", file.output.path,
    ])
    #expect(run.status == .ioError)
    #expect(run.errors.contains("absent.ics: error: cannot read input"))
    #expect(try file.written() == "previous")
}

@Test func anUnwritableOutputIsAnIOError() throws {
    let file = try HostileFile(good)
    let run = file.run("convert", ["-o", file.directory.appendingPathComponent("missing/out.ics").path])
    #expect(run.status == .ioError)
    #expect(run.errors.contains("missing/out.ics: error: cannot write"))
}

@Test(arguments: [[String](), ["--stream"], ["--to", "ndjson"]])
func outputOntoItsOwnInputIsSafe(_ options: [String]) throws {
    // The input is read before the rename puts the output in its place.
    let file = try HostileFile(good)
    let run = file.run("convert", options + ["-o", file.input.path])
    #expect(run.status == .success)
    #expect(try String(contentsOf: file.input, encoding: .utf8).contains("good"))
    #expect(try listing(file.directory) == ["in.ics"])
}

@Test func outputDirectoryOntoItsInputsIsSafe() throws {
    let directory = try temporaryDirectory()
    try good.write(to: directory.appendingPathComponent("a.ics"), atomically: true, encoding: .utf8)
    let run = runCalport(["convert", "--out-dir", directory.path, directory.path])
    #expect(run.status == .success)
    #expect(try listing(directory) == ["a.ics"])
    #expect(try String(contentsOf: directory.appendingPathComponent("a.ics"), encoding: .utf8).contains("SUMMARY:good"))
}

@Test(.timeLimit(.minutes(1)))
func aLargeStreamedInputConvertedOntoItselfIsIntact() throws {
    // Over the 8 MiB streaming threshold: read from the open file while the output is written beside it.
    let event = (0..<40_000).map { index in
        [
            "BEGIN:VEVENT", "UID:\(index)@example.com", "DTSTAMP:20260101T000000Z", "DTSTART:20260105T100000Z",
            "SUMMARY:" + String(repeating: "s", count: 160), "END:VEVENT",
        ].joined(separator: "\r\n")
    }
    let text =
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//hostile//EN\r\n" + event.joined(separator: "\r\n")
        + "\r\nEND:VCALENDAR\r\n"
    #expect(text.utf8.count > InputFile.streamingThreshold)
    let file = try HostileFile(text)
    let run = file.run("convert", ["-o", file.input.path])
    #expect(run.status == .success)
    let written = try String(contentsOf: file.input, encoding: .utf8)
    #expect(written.components(separatedBy: "BEGIN:VEVENT").count - 1 == 40_000)
    #expect(written.contains("UID:39999@example.com"))
}

@Test func anOutputDirectoryNeverWritesOneInputOntoAnother() throws {
    // d/cal.json → d/cal.ics would replace the input d/cal.ics, and collides with cal.ics's own output.
    let directory = try temporaryDirectory()
    let ics = directory.appendingPathComponent("cal.ics")
    try good.write(to: ics, atomically: true, encoding: .utf8)
    let json =
        #"{"value":[{"id":"j","subject":"from json","start":{"dateTime":"2026-01-05T10:00:00","timeZone":"UTC"},"end":{"dateTime":"2026-01-05T11:00:00","timeZone":"UTC"}}]}"#
    try json.write(to: directory.appendingPathComponent("cal.json"), atomically: true, encoding: .utf8)
    for _ in 0..<5 {
        let run = runCalport(["convert", "--out-dir", directory.path, directory.path])
        #expect(run.status == .dataProblem)
        #expect(run.errors.contains("2 files, 0 events, 0 warnings, 2 failed"))
        #expect(
            run.errors.contains("\(directory.path)/cal.json: error: \(ics.path) would also be written from \(ics.path)")
        )
        #expect(try String(contentsOf: ics, encoding: .utf8) == good, "the input cal.ics is untouched")
        #expect(try listing(directory) == ["cal.ics", "cal.json"])
    }
}

@Test func twoInputsWithOneOutputNameAreBothRefusedAndNamed() throws {
    let directory = try temporaryDirectory()
    let (a, b) = (directory.appendingPathComponent("a"), directory.appendingPathComponent("b"))
    try FileManager.default.createDirectory(at: a, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(at: b, withIntermediateDirectories: true)
    try good.write(to: a.appendingPathComponent("x.ics"), atomically: true, encoding: .utf8)
    try good.write(to: b.appendingPathComponent("x.ics"), atomically: true, encoding: .utf8)
    let outputs = directory.appendingPathComponent("o")
    let run = runCalport([
        "convert", "--out-dir", outputs.path, a.appendingPathComponent("x.ics").path,
        b.appendingPathComponent("x.ics").path,
    ])
    #expect(run.status == .dataProblem)
    let target = outputs.appendingPathComponent("x.ics").path
    #expect(run.errors.contains("\(a.path)/x.ics: error: \(target) would also be written from \(b.path)/x.ics"))
    #expect(run.errors.contains("\(b.path)/x.ics: error: \(target) would also be written from \(a.path)/x.ics"))
    #expect(run.errors.contains("2 files, 0 events, 0 warnings, 2 failed"))
    #expect(!FileManager.default.fileExists(atPath: target))
}

@Test func replacingAFileWithOKeepsItsMode() throws {
    let file = try HostileFile(good)
    try "previous".write(to: file.output, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.output.path)
    let run = file.run("convert", ["-o", file.output.path])
    #expect(run.status == .success)
    #expect(try file.written().contains("SUMMARY:good"))
    let mode = try FileManager.default.attributesOfItem(atPath: file.output.path)[.posixPermissions] as? Int
    #expect(mode == 0o600)
}

/// Calls `body` with a FIFO in a fresh directory, opened for reading without waiting for a writer
/// (so that the run's own open for writing does not block), and removes both afterwards.
private func withFIFO(_ body: (_ directory: URL, _ path: String, _ reader: Int32) throws -> Void) throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("out.ics").path
    try #require(mkfifo(path, 0o600) == 0)
    let reader = open(path, O_RDONLY | O_NONBLOCK)
    try #require(reader >= 0)
    defer { close(reader) }
    try body(directory, path, reader)
}

/// What the FIFO holds, read without waiting (the one event written fits in its buffer).
private func drained(_ reader: Int32) -> String {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = read(reader, &chunk, chunk.count)
        guard count > 0 else { break }
        bytes += chunk[..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
}

private func isFIFO(_ path: String) -> Bool {
    var status = stat()
    return lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO
}

/// `-o` naming a FIFO (or a character device: `/dev/null`) is written in place: a temporary file
/// renamed over it put a regular file where `/dev/null` was, for the whole machine, when run as
/// root, and failed for want of write access to `/dev` otherwise.
@Test func anOutputThatIsAFIFOIsWrittenThroughNotReplaced() throws {
    try withFIFO { directory, path, reader in
        let run = try HostileFile(good).run("convert", ["-o", path])
        #expect(run.status == .success, "\(run.errors)")
        #expect(drained(reader).contains("SUMMARY:good"))
        #expect(isFIFO(path), "still a FIFO")
        #expect(try listing(directory) == ["out.ics"], "no temporary file left beside it")
    }
}

/// `--strict` writes nothing anywhere when it stops, a FIFO named by `-o` included: its output is
/// held in a spool, as standard output's is, and written through only when the run succeeds.
@Test func strictHoldsAnOutputWrittenThroughUntilTheRunSucceeds() throws {
    try withFIFO { _, path, reader in
        let run = try HostileFile(badEvent).run("convert", ["--strict", "-o", path])
        #expect(run.status == .dataProblem)
        #expect(drained(reader).isEmpty)
        #expect(isFIFO(path))
    }
    try withFIFO { _, path, reader in
        let run = try HostileFile(good).run("convert", ["--strict", "-o", path])
        #expect(run.status == .success)
        #expect(drained(reader).contains("SUMMARY:good"))
        #expect(isFIFO(path))
    }
}

/// `-o` naming a symbolic link replaces the link with the new file, as `sed -i` does, and leaves
/// the file it named as it was: followed, a link planted where the output goes would choose which
/// file is replaced.
@Test func anOutputThatIsASymbolicLinkIsReplacedNotFollowed() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let elsewhere = directory.appendingPathComponent("elsewhere.ics")
    try "previous".write(to: elsewhere, atomically: true, encoding: .utf8)
    let link = directory.appendingPathComponent("link.ics")
    try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "elsewhere.ics")
    let file = try HostileFile(good)
    let run = file.run("convert", ["-o", link.path])
    #expect(run.status == .success, "\(run.errors)")
    #expect(try String(contentsOf: elsewhere, encoding: .utf8) == "previous")
    #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link.path)) == nil, "no longer a link")
    #expect(try String(contentsOf: link, encoding: .utf8).contains("SUMMARY:good"))
    #expect(try listing(directory) == ["elsewhere.ics", "link.ics"])
}

/// A symbolic link to a FIFO is replaced like any other link, and the FIFO gets nothing: followed,
/// a link planted where the output goes could aim it at another user's terminal, or a device.
@Test func aSymbolicLinkToAFIFOIsReplacedNotFollowed() throws {
    try withFIFO { directory, path, reader in
        let link = directory.appendingPathComponent("link.ics")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: path)
        let run = try HostileFile(good).run("convert", ["-o", link.path])
        #expect(run.status == .success)
        #expect(drained(reader).isEmpty)
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link.path)) == nil, "no longer a link")
        #expect(try String(contentsOf: link, encoding: .utf8).contains("SUMMARY:good"))
        #expect(isFIFO(path))
    }
}

/// `-o /dev/fd/N` (and `/dev/stdout`, `/dev/stderr`, `/proc/self/fd/N`, however spelled) writes
/// through a copy of descriptor N, whatever it is open on, a regular file here: by its link,
/// `/dev/stdout` opened onto a regular file was replaced by a file renamed in `/dev`, and
/// `/dev/fd/N` was not found at all.
@Test(arguments: ["/dev/fd/", "/dev//fd/", "/proc/self/./fd/"])
func aDescriptorsNameIsWrittenThroughThatDescriptor(prefix: String) throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let target = directory.appendingPathComponent("held.ics").path
    let descriptor = open(target, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    try #require(descriptor >= 0)
    let run = try HostileFile(good).run("convert", ["-o", "\(prefix)\(descriptor)"])
    close(descriptor)
    #expect(run.status == .success, "\(run.errors)")
    #expect(try String(contentsOfFile: target, encoding: .utf8).contains("SUMMARY:good"))
    #expect(try listing(directory) == ["held.ics"])
}

/// A link to a descriptor's name (`/dev/fd/N` here; `/dev/stdout` alike) is that descriptor, and
/// stays a link: only the names under `/proc/self/fd` were taken for one through a link.
@Test func aLinkToADescriptorsNameIsWrittenThroughThatDescriptor() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let target = directory.appendingPathComponent("held.ics").path
    let descriptor = open(target, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    try #require(descriptor >= 0)
    let link = directory.appendingPathComponent("out.ics").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/./fd/\(descriptor)")
    let run = try HostileFile(good).run("convert", ["-o", link])
    close(descriptor)
    #expect(run.status == .success, "\(run.errors)")
    #expect(try String(contentsOfFile: target, encoding: .utf8).contains("SUMMARY:good"))
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "/dev/./fd/\(descriptor)")
}

/// A descriptor open only for reading is refused before anything is read, not after the whole run.
@Test func aDescriptorOpenOnlyForReadingIsRefusedAtOnce() throws {
    let file = try HostileFile(good)
    let descriptor = open(file.input.path, O_RDONLY | O_CLOEXEC)
    try #require(descriptor >= 0)
    defer { close(descriptor) }
    let run = file.run("convert", ["-o", "/dev/fd/\(descriptor)"])
    #expect(run.status == .ioError)
    #expect(run.errors.contains("cannot write: descriptor \(descriptor) is not open for writing"), "\(run.errors)")
}

/// A link to a directory named by `-o` is refused, as the directory is, and kept; the file that
/// replaces a link takes none of the mode of what it led to (a link to a set-user-id program gave
/// a set-user-id output; one to `/dev/null`, an output anyone could write).
@Test func aLinkToADirectoryIsRefusedAndALinksTargetLendsNoMode() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let linkToDirectory = directory.appendingPathComponent("calendars")
    try FileManager.default.createSymbolicLink(atPath: linkToDirectory.path, withDestinationPath: directory.path)
    let file = try HostileFile(good)
    let refused = file.run("convert", ["-o", linkToDirectory.path])
    #expect(refused.status == .ioError)
    #expect(
        refused.errors.contains("\(linkToDirectory.path): error: cannot write: Is a directory"), "\(refused.errors)")
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: linkToDirectory.path) == directory.path)

    let program = directory.appendingPathComponent("program")
    try "#!/bin/sh\n".write(to: program, atomically: false, encoding: .utf8)
    try #require(chmod(program.path, 0o4755) == 0)
    let link = directory.appendingPathComponent("out.ics")
    try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: program.path)
    #expect(file.run("convert", ["-o", link.path]).status == .success)
    var status = stat()
    try #require(lstat(link.path, &status) == 0)
    #expect(status.st_mode & S_IFMT == S_IFREG)
    #expect(status.st_mode & 0o7111 == 0, "neither set-id nor executable: \(String(status.st_mode, radix: 8))")
}

/// A FIFO another user owns, in a directory anyone may write to and only owners delete from (as
/// `/tmp` is), is refused: it may have been put there to read what calport writes. (Linux's
/// `protected_fifos` checks only opens that may create, which a write through does not.) Run as
/// root, which can give the FIFO to another user.
@Test(.enabled(if: geteuid() == 0, "needs root, to give a FIFO to another user"))
func aFIFOAnotherUserPlantedInASharedDirectoryIsRefused() throws {
    let shared = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: shared) }
    try #require(chmod(shared.path, 0o1777) == 0)
    let path = shared.appendingPathComponent("out.ics").path
    try #require(mkfifo(path, 0o666) == 0)
    try #require(chown(path, 65534, 65534) == 0)
    let reader = open(path, O_RDONLY | O_NONBLOCK)
    try #require(reader >= 0)
    defer { close(reader) }
    let file = try HostileFile(good)
    let run = file.run("convert", ["-o", path])
    #expect(run.status == .ioError)
    #expect(
        run.errors.contains("\(path): error: cannot write: it is a device or FIFO another user owns"), "\(run.errors)")
    #expect(drained(reader).isEmpty)
    #expect(isFIFO(path))
}

/// An output `--out-dir` makes from an input's name is a file whatever is there: a FIFO left in
/// the output directory is replaced, not written through (which waited for a reader forever).
@Test(.timeLimit(.minutes(1)))
func anOutputDirectorysFIFOIsReplacedNotWaitedOn() throws {
    let inputs = try temporaryDirectory()
    let outputs = try temporaryDirectory()
    defer {
        try? FileManager.default.removeItem(at: inputs)
        try? FileManager.default.removeItem(at: outputs)
    }
    try good.write(to: inputs.appendingPathComponent("a.ics"), atomically: true, encoding: .utf8)
    try #require(mkfifo(outputs.appendingPathComponent("a.ics").path, 0o600) == 0)
    let run = runCalport(["convert", "--out-dir", outputs.path, inputs.path])
    #expect(run.status == .success, "\(run.errors)")
    #expect(!isFIFO(outputs.appendingPathComponent("a.ics").path))
    #expect(try String(contentsOf: outputs.appendingPathComponent("a.ics"), encoding: .utf8).contains("SUMMARY:good"))
}

/// A directory named by `-o` is an I/O error that names it, and nothing is left inside it.
@Test func aDirectoryAsOutputIsRefusedAtOnce() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = try HostileFile(good)
    let run = file.run("convert", ["-o", directory.path])
    #expect(run.status == .ioError)
    #expect(run.errors.contains("\(directory.path): error: cannot write: Is a directory"), "\(run.errors)")
    #expect(try listing(directory).isEmpty)
}
