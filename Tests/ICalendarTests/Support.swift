import CalendarModel
import Foundation
import Testing

@testable import ICalendar

/// Builds iCalendar bytes from lines joined with CRLF, as RFC 5545 writes them.
func ics(_ lines: [String], ending: String = "\r\n") -> [UInt8] {
    Array((lines.joined(separator: ending) + ending).utf8)
}

/// A calendar around the given VEVENT body lines.
func calendar(event lines: [String]) -> [UInt8] {
    ics(
        ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN", "BEGIN:VEVENT"] + lines + [
            "END:VEVENT", "END:VCALENDAR",
        ])
}

func parse(_ bytes: [UInt8], file: String = "test.ics") -> ICalendarParser.Result {
    ICalendarParser().parse(bytes, file: file)
}

func serialize(_ document: CalendarDocument) -> String {
    String(decoding: ICalendarSerializer().serialize(document), as: UTF8.self)
}

/// The unfolded lines of serialised output.
func unfoldedLines(_ text: String) -> [String] {
    text.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "\r\n").filter { !$0.isEmpty }
}

/// `../shared` beside the package, when this checkout has it (CI does; a fresh clone may not).
var sharedDirectory: URL? {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    let shared = root.deletingLastPathComponent().appendingPathComponent("shared")
    return FileManager.default.fileExists(atPath: shared.path) ? shared : nil
}

/// The `.ics` files of `../shared/corpus` (paths within it, sorted) and that folder; nil, saying the
/// test is skipped, when this checkout has no `../shared`.
func corpusCalendars() throws -> (folder: URL, files: [String])? {
    guard let shared = sharedDirectory else {
        print("skipped: ../shared/corpus is not present next to this checkout")
        return nil
    }
    let corpus = shared.appendingPathComponent("corpus")
    let files = try #require(FileManager.default.enumerator(atPath: corpus.path)).compactMap { $0 as? String }
        .filter { $0.hasSuffix(".ics") }.sorted()
    return (corpus, files)
}

/// A source that hands bytes over in chunks, as a pipe would (it knows no length): pieces of
/// `bytes` of the sizes given, in turn, so that lines, folds and CRLFs straddle chunks, or chunks
/// prepared whole.
struct ChunkedSource: ByteSource {
    private var bytes: ArraySlice<UInt8>
    private var sizes: [Int]
    private var index = 0

    init(bytes: ArraySlice<UInt8>, sizes: [Int]) {
        precondition(sizes.allSatisfy { $0 > 0 }, "a chunk holds at least a byte")
        self.bytes = bytes
        self.sizes = sizes
    }

    init(chunks: [[UInt8]]) {
        self.init(bytes: Array(chunks.joined())[...], sizes: chunks.map(\.count).filter { $0 > 0 })
    }

    mutating func nextChunk() -> [UInt8]? {
        guard !bytes.isEmpty else { return nil }
        let size = sizes[index % sizes.count]
        index += 1
        defer { bytes = bytes.dropFirst(size) }
        return Array(bytes.prefix(size))
    }
}
