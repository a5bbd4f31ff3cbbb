import CalendarModel
import Foundation
import Testing

@testable import ICalendar

// Values past 64 KiB (an inline file's base64) take their own paths: the reader unfolds an ATTACH
// value straight into its string, the writer folds such a value as it copies it. Expected values
// come from Foundation's base64 and from folding as RFC 5545 §3.1 describes it, done here.

/// `count` pseudo-random bytes, the same on every run.
private func bytes(_ count: Int, seed: UInt64 = 22) -> [UInt8] {
    var state = seed
    return (0..<count).map { _ in
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return UInt8(truncatingIfNeeded: state >> 56)
    }
}

/// One unfolded line folded as RFC 5545 §3.1 asks and calport does: each physical line holds the
/// whole characters that fit in 75 octets, a continuation line's leading space counting.
private func folded(_ line: String) -> String {
    var lines: [String] = []
    var current = ""
    for character in line {
        if current.utf8.count + character.utf8.count > 75 {
            lines.append(current)
            current = " "
        }
        current.append(character)
    }
    return (lines + [current]).joined(separator: "\r\n")
}

/// ATTACH's header before the value; the quoted FILENAME holds `:` and `;`, which do not end it.
private let attachHead = "ATTACH;FMTTYPE=application/octet-stream;FILENAME=\"a:b;c.bin\";ENCODING=BASE64;VALUE=BINARY:"

/// Folds `line` with the first break after `first` bytes and then every `width` bytes, whatever
/// the characters (readers join the pieces before reading UTF-8), with `ending` between them.
private func refolded(_ line: String, first: Int, width: Int, ending: String = "\r\n", continuation: String = " ")
    -> String
{
    let utf8 = Array(line.utf8)
    var pieces = [Array(utf8[..<min(first, utf8.count)])]
    var index = min(first, utf8.count)
    while index < utf8.count {
        pieces.append(Array(continuation.utf8) + utf8[index..<min(index + width, utf8.count)])
        index += width
    }
    return pieces.map { String(decoding: $0, as: UTF8.self) }.joined(separator: ending)
}

private func attachments(in bytes: [UInt8], chunk: Int, limits: ICalendarLimits = ICalendarLimits()) -> (
    [CalendarModel.Attachment], [String]
) {
    let chunks = stride(from: 0, to: bytes.count, by: chunk).map { Array(bytes[$0..<min($0 + chunk, bytes.count)]) }
    var reader = ICalendarReader(source: ChunkedSource(chunks: chunks), file: "long.ics", limits: limits)
    var found: [CalendarModel.Attachment] = []
    while let item = reader.next() { if case .event(let event) = item { found += event.attachments } }
    return (found, reader.takeDiagnostics().map(\.code))
}

@Test(arguments: [
    // (first break, width): in the name, in a parameter, inside the quoted colon, just before and
    // after the value's colon, then pieces of 1, 74, 75 and 4,000 bytes.
    (3, 74), (20, 75), (51, 1_000), (52, 74), (attachHead.utf8.count - 1, 74), (attachHead.utf8.count, 75),
    (attachHead.utf8.count + 1, 4_000), (200, 1), (70_000, 74), (65_536, 3),
])
func aLongAttachmentIsReadWhereverItIsFolded(first: Int, width: Int) {
    let file = bytes(60_000)
    let base64 = Data(file).base64EncodedString()
    let line = refolded(attachHead + base64, first: first, width: width)
    let calendar = calendar(event: ["UID:1", "DTSTART:20270302T100000Z", line, "SUMMARY:after"])
    for chunk in [1_000, 65_536, calendar.count] {
        let (found, codes) = attachments(in: calendar, chunk: chunk)
        #expect(codes.isEmpty)
        #expect(found.map(\.content) == [.base64(base64)], "chunks of \(chunk)")
        #expect(found.first?.parameters == [Parameter("FILENAME", "a:b;c.bin")])
        #expect(found.first.flatMap { Data(base64Encoded: base64String($0)) } == Data(file))
    }
}

private func base64String(_ attachment: CalendarModel.Attachment) -> String {
    if case .base64(let text) = attachment.content { return text }
    return ""
}

@Test func aLongAttachmentFoldedWithTabsLineFeedsAndABlankLineIsRead() {
    let base64 = Data(bytes(80_000)).base64EncodedString()
    let line = refolded(attachHead + base64, first: 90, width: 76, ending: "\n", continuation: "\t")
    // A blank line inside a folded property, as some exporters write, after 70,000 bytes.
    let blank = line.replacingOccurrences(
        of: "\n\t", with: "\n\n\t", options: [], range: line.index(line.startIndex, offsetBy: 70_000)..<line.endIndex)
    for text in [line, blank] {
        let calendar = ics(
            ["BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:1", text, "END:VEVENT", "END:VCALENDAR"], ending: "\n")
        let (found, codes) = attachments(in: calendar, chunk: 4_096)
        #expect(codes.isEmpty)
        #expect(found.map(\.content) == [.base64(base64)])
    }
}

@Test func aLongAttachmentWithAControlCharacterIsRepairedAndReportedAsAShortOneIs() {
    let base64 = Data(bytes(70_000)).base64EncodedString()
    var damaged = Array((attachHead + base64).utf8)
    damaged.insert(0, at: 80_000)
    let line = refolded(String(decoding: damaged, as: UTF8.self), first: 75, width: 74)
    let (found, codes) = attachments(in: calendar(event: ["UID:1", line]), chunk: 8_192)
    #expect(codes == ["control-character"])
    #expect(found.map(\.content) == [.base64(base64)])
}

@Test func aLongAttachmentPastItsLimitIsDroppedAndOneWithinItKept() {
    let limits = ICalendarLimits(maximumLineLength: 1_000, maximumAttachmentLength: 90_000)
    for (size, kept) in [(60_000, true), (70_000, false)] {
        // 60,000 bytes are 80,000 of base64, 70,000 are 93,336: with the header, within and past 90,000.
        let base64 = Data(bytes(size)).base64EncodedString()
        let calendar = calendar(event: ["UID:1", refolded(attachHead + base64, first: 75, width: 74), "SUMMARY:s"])
        for source in [calendar.count, 2_048] {
            let (found, codes) = attachments(in: calendar, chunk: source, limits: limits)
            #expect(codes == (kept ? [] : ["line-too-long"]))
            #expect(found.map(\.content) == (kept ? [.base64(base64)] : []))
        }
    }
}

/// An attachment of exactly its limit, unfolded, is kept and dropped at a limit of one byte less: the
/// spaces that begin its continuation lines are not part of it (the last one was counted).
@Test func anAttachmentOfExactlyItsLimitIsKept() {
    let base64 = Data(bytes(60_000)).base64EncodedString()
    let line = attachHead + base64
    let calendar = calendar(event: ["UID:1", refolded(line, first: 75, width: 74), "SUMMARY:s"])
    for (limit, isKept) in [(line.utf8.count, true), (line.utf8.count - 1, false)] {
        let limits = ICalendarLimits(maximumLineLength: 1_000, maximumAttachmentLength: limit)
        for source in [calendar.count, 2_048] {
            let (found, codes) = attachments(in: calendar, chunk: source, limits: limits)
            #expect(codes == (isKept ? [] : ["line-too-long"]), "limit \(limit), chunks of \(source)")
            #expect(found.map(\.content) == (isKept ? [.base64(base64)] : []))
        }
    }
}

@Test func sourcesSayHowMuchIsLeft() throws {
    var memory = InMemoryByteSource([1, 2, 3])
    #expect(memory.remainingByteCount == 3)
    _ = memory.nextChunk()
    #expect(memory.remainingByteCount == 0)

    let path = FileManager.default.temporaryDirectory.appendingPathComponent("calport-left-\(UUID())").path
    try Data(repeating: 7, count: 10_000).write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let descriptor = open(path, O_RDONLY)
    defer { close(descriptor) }
    var file = FileDescriptorByteSource(descriptor: descriptor, chunkSize: 4_096)
    #expect(file.remainingByteCount == 10_000)
    _ = file.nextChunk()
    #expect(file.remainingByteCount == 5_904)
    var region = FileDescriptorByteSource(descriptor: descriptor, chunkSize: 4_096, offset: 9_000)
    #expect(region.remainingByteCount == 1_000)
    _ = region.nextChunk()
    #expect(region.remainingByteCount == 0)
}

@Test func longValuesAreFoldedAsShortOnesAreAndHandedOnInChunks() {
    var event = Event(uid: "1")
    event.start = .date(CalendarDate(year: 2027, month: 3, day: 2))
    let base64 = Data(bytes(120_000)).base64EncodedString()
    // A long parameter first, so that the value starts on a continuation line.
    let label = String(repeating: "é€", count: 30)
    event.attachments = [
        CalendarModel.Attachment(
            content: .base64(base64), mediaType: "application/pdf", parameters: [Parameter("FILENAME", label)])
    ]
    // Characters of one to four octets: a line never breaks inside one.
    let text = String(repeating: "aé€😀", count: 8_000)
    event.extraProperties = [
        ExtraProperty(name: "X-LONG", value: text), ExtraProperty(name: "X-SHORT", value: text.prefix(300).description),
    ]
    let document = CalendarDocument(events: [event])

    let whole = ICalendarSerializer().serialize(document)
    let output = String(decoding: whole, as: UTF8.self)
    for line in output.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "\r\n") where !line.isEmpty {
        #expect(output.contains(folded(line) + "\r\n"), "\(line.prefix(40))")
    }
    let lines = unfoldedLines(output)
    #expect(lines.contains("ATTACH;FMTTYPE=application/pdf;ENCODING=BASE64;VALUE=BINARY;FILENAME=\(label):\(base64)"))
    #expect(lines.contains("X-LONG:" + text))

    var chunks: [[UInt8]] = []
    var writer = ICalendarStreamWriter { chunks.append(Array($0)) }
    writer.write(event, header: CalendarDocument())
    writer.finish(header: CalendarDocument())
    #expect(chunks.flatMap { $0 } == whole)
    #expect(chunks.count > 2, "the long values were handed on while they were written")
    #expect(chunks.allSatisfy { $0.count < ICalendarStreamWriter.chunkSize + 4_096 })
}

@Test func aFileIsReadIntoTheReadersBufferAfterWhatItHolds() throws {
    let content = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("calport-read-\(UUID())").path
    try Data(content).write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let descriptor = open(path, O_RDONLY)
    defer { close(descriptor) }
    var source = FileDescriptorByteSource(descriptor: descriptor, chunkSize: 4_096, offset: 1_000)
    var buffer: [UInt8] = [1, 2, 3]
    var sizes: [Int] = []
    while true {
        let before = buffer.count
        guard source.readChunk(appendingTo: &buffer) else {
            #expect(buffer.count == before, "the end of input appends nothing")
            break
        }
        sizes.append(buffer.count - before)
    }
    #expect(sizes == [4_096, 4_096, 808])
    #expect(buffer == [1, 2, 3] + content[1_000...])
    #expect(source.failure == nil)
}
