import CalendarModel
import Foundation
import ICalendar

/// `.ics` parse → serialise → parse: whatever calport writes it must read back as it wrote it
/// (property order aside, which RFC 5545 leaves free).
enum ICalendarRoundTrip {
    /// Small limits, so that the fuzzer reaches them instead of spending its time on long inputs.
    static let limits = ICalendarLimits(maximumLineLength: 4096, maximumDepth: 16)

    static func run(_ bytes: [UInt8]) throws(FuzzFinding) {
        let first = ICalendarParser(limits: limits).parse(bytes, file: "fuzz.ics")
        _ = ICalendarValidator().validate(bytes, file: "fuzz.ics")
        let written = ICalendarSerializer().serialize(first.document)
        let second = ICalendarParser().parse(written, file: "written.ics")
        // Every VEVENT written is read back (none merges with another), and every event read was
        // written: the writer adds an override for each RDATE period lasting otherwise than its
        // event, and writes once two tied versions that it splits alike, so counts alone can differ.
        let writtenEvents = topLevelEvents(written)
        guard second.document.events.count == writtenEvents else {
            throw FuzzFinding(
                target: .icalendar,
                message: "\(writtenEvents) VEVENTs written, \(second.document.events.count) read back")
        }
        let lost = Set(first.document.events.map(EventVersions.Key.init)).subtracting(
            second.document.events.map(EventVersions.Key.init))
        guard lost.isEmpty else {
            throw FuzzFinding(
                target: .icalendar, message: "events read but not written: \(lost.map(\.uid).sorted())")
        }
        // After errors the output is best effort: a second copy of a property whose first copy was
        // invalid is kept verbatim, and reading it back reports it in turn.
        guard !first.diagnostics.contains(where: { $0.severity == .error }) else { return }
        let rewritten = ICalendarSerializer().serialize(second.document)
        guard contentLines(rewritten) == contentLines(written) else {
            throw FuzzFinding(
                target: .icalendar,
                message: "serialising what was read back changed it:\n\(String(decoding: written, as: UTF8.self))"
                    + "\n---\n\(String(decoding: rewritten, as: UTF8.self))")
        }
    }

    /// The VEVENTs directly inside the VCALENDAR of calport's output (well formed, so BEGIN and END
    /// lines nest; a VEVENT kept inside an unknown component is not one).
    private static func topLevelEvents(_ bytes: [UInt8]) -> Int {
        var depth = 0
        var events = 0
        for line in unfoldedLines(bytes) {
            if line.hasPrefix("BEGIN:") {
                if depth == 1 && line == "BEGIN:VEVENT" { events += 1 }
                depth += 1
            } else if line.hasPrefix("END:") {
                depth -= 1
            }
        }
        return events
    }

    /// The unfolded lines of serialised output, in order.
    private static func unfoldedLines(_ bytes: [UInt8]) -> [String] {
        String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\r\n ", with: "")
            .components(separatedBy: "\r\n")
    }

    /// The unfolded lines of serialised output, sorted.
    private static func contentLines(_ bytes: [UInt8]) -> [String] { unfoldedLines(bytes).sorted() }
}
