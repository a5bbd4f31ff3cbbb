import CalendarModel
import Digests

/// Hashes an importer keeps on the events it creates, to tell on the next run whether the source
/// changed (`content`) and whether someone edited the event in the calendar since (`edits`).
public enum GraphContentHash {
    /// SHA-256 of the JSON text of `value` (members in their order), as 64 lower-case hex digits.
    public static func content(_ value: JSONValue) -> String {
        SHA256.hex(SHA256.hash(JSONWriter().string(value).utf8))
    }

    /// A hash of what a person sees and edits of an event — subject, start and end instants,
    /// all-day flag, location names — the same for a POST body and for the event Graph returns
    /// for it, whatever zone either writes its times in; nil when `value` is not an event.
    public static func edits(_ value: JSONValue) -> String? {
        guard let event = GraphEventMapper().events(from: value).output.first else { return nil }
        let end: String
        switch event.end {
        case .end(let time)?: end = instant(time)
        case .duration(let duration)?:
            let seconds = duration.nominalDays * 86_400 + duration.exactSeconds
            end = event.start.flatMap { $0.graphUTC() }.map { "\($0.secondsSinceEpoch + seconds)" } ?? "?"
        case nil: end = ""
        }
        let fields: [JSONValue] = [
            .string(event.summary ?? ""), .string(event.start.map(instant) ?? ""), .string(end),
            .bool(event.start?.isDate ?? false), .array(event.locations.map { .string($0.name) }),
        ]
        return String(content(.array(fields)).prefix(32))
    }

    /// Seconds since the epoch in UTC; a date is its UTC midnight, as on both sides of an import.
    private static func instant(_ time: CalendarTime) -> String {
        time.graphUTC().map { "\($0.secondsSinceEpoch)" } ?? "?"
    }
}
