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
        // The writer adds an override for each RDATE period lasting otherwise than its event, so
        // overrides may grow in number; masters and single events may not.
        let (masters, overrides) = counts(first.document)
        let (mastersBack, overridesBack) = counts(second.document)
        guard mastersBack == masters, overridesBack >= overrides else {
            throw FuzzFinding(
                target: .icalendar,
                message:
                    "\(masters) events and \(overrides) overrides read, \(mastersBack) and \(overridesBack) read back")
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

    /// The events without RECURRENCE-ID and those with one.
    private static func counts(_ document: CalendarDocument) -> (masters: Int, overrides: Int) {
        let overrides = document.events.count { $0.recurrenceID != nil }
        return (document.events.count - overrides, overrides)
    }

    /// The unfolded lines of serialised output, sorted.
    private static func contentLines(_ bytes: [UInt8]) -> [String] {
        String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\r\n ", with: "")
            .components(separatedBy: "\r\n").sorted()
    }
}
