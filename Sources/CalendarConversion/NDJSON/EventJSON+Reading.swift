import CalendarModel
import GraphEvents
import ICalendar

/// Reads `--to ndjson` lines back into the model, so that calport's own NDJSON can be filtered with
/// jq or grep and converted on. What the schema does not carry (unknown parameters, unknown
/// sub-components) is not there to read back.
///
/// It is fed in chunks and hands over each event once its line has arrived, so that a stream of
/// any length is read with the memory of one line. A line is checked against the limit while it
/// arrives (the limit is `JSONLimits.maximumStringLength`, 64 MiB by default: no longer line is
/// kept, whatever it holds), and a line that is too long, not JSON or not an event is reported
/// with its number and dropped; the lines after it are read.
public struct EventJSONReader {
    /// The name diagnostics give the input.
    public let file: String
    private let limits: JSONLimits
    /// The line arriving, without its newline.
    private var line: [UInt8] = []
    /// The 1-based number of the line arriving.
    private var lineNumber = 1
    /// Whether the line arriving is past the limit: its bytes are dropped up to its newline.
    private var skipping = false
    /// How many bytes of the line arriving are held: never more than the limit.
    public var heldBytes: Int { line.count }

    /// A reader of the input named `file`, each line within `limits`.
    public init(file: String, limits: JSONLimits) {
        self.file = file
        self.limits = limits
    }

    /// The events of a whole NDJSON input, and a diagnostic for each line that is not an event.
    public static func read(
        _ bytes: [UInt8], file: String, limits: JSONLimits
    ) -> (events: [Event], diagnostics: [Diagnostic]) {
        let read = readWithLines(bytes, file: file, limits: limits)
        return (read.events.map(\.event), read.diagnostics)
    }

    /// The events of a whole NDJSON input, each with its line's number, and the diagnostics.
    package static func readWithLines(
        _ bytes: [UInt8], file: String, limits: JSONLimits
    ) -> (events: [(event: Event, line: Int)], diagnostics: [Diagnostic]) {
        var events: [(event: Event, line: Int)] = []
        var lines = EventJSONReader(file: file, limits: limits)
        var diagnostics = lines.read(bytes) { events.append(($0, $1)) }
        diagnostics += lines.read(nil) { events.append(($0, $1)) }
        return (events, diagnostics)
    }

    /// Reads the next chunk of input (nil: the input has ended) and hands the events of the lines it
    /// completes to `each`; returns what was wrong with those lines.
    public mutating func read(_ chunk: [UInt8]?, each: (Event) -> Void) -> [Diagnostic] {
        read(chunk) { event, _ in each(event) }
    }

    /// Reads the next chunk as `read(_:each:)` does, handing each event over with its line's number.
    public mutating func read(_ chunk: [UInt8]?, eachOnLine each: (Event, _ line: Int) -> Void) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        guard let chunk else {
            if !line.isEmpty { diagnostics += endLine(each) }
            return diagnostics
        }
        var start = chunk.startIndex
        while start < chunk.endIndex {
            let newline = chunk[start...].firstIndex(of: 0x0A)
            let end = newline ?? chunk.endIndex
            if !skipping {
                if line.count + (end - start) > limits.maximumStringLength {
                    skipping = true
                    line = []
                    diagnostics.append(
                        problem(
                            "line longer than the limit of \(limits.maximumStringLength) bytes "
                                + "(--max-string-length); the line was dropped"))
                } else {
                    line.append(contentsOf: chunk[start..<end])
                }
            }
            guard let newline else { break }
            diagnostics.collect(endLine(each))
            start = newline + 1
        }
        return diagnostics
    }

    /// Reads the line that has arrived whole, then starts the next.
    private mutating func endLine(_ each: (Event, Int) -> Void) -> [Diagnostic] {
        defer {
            lineNumber += 1
            skipping = false
            line.removeAll(keepingCapacity: line.count <= 1 << 20)
        }
        guard !skipping else { return [] }
        // RFC 8259 §8.1 lets a parser ignore a byte order mark; Windows tools write one.
        let body = lineNumber == 1 && line.starts(with: [0xEF, 0xBB, 0xBF]) ? line[3...] : line[...]
        var reader = JSONStreamReader(bytes: Array(body), limits: limits)
        do {
            guard let document = try reader.next() else { return [] }  // a blank line
            if let extra = try reader.next() {
                return [problem("more than one value on the line; the line was dropped", column: extra.column)]
            }
            var diagnostics = document.warnings.map { warning in
                var warning = warning
                warning.line = lineNumber
                return warning.diagnostic(file: file)
            }
            guard let event = Self.event(document.value) else {
                diagnostics.append(
                    problem(
                        "expected an event object with a string \"uid\" (docs/ndjson.md); the line was dropped",
                        code: "ndjson-not-an-event"))
                return diagnostics
            }
            each(event, lineNumber)
            return diagnostics
        } catch {
            return [problem(error.message + "; the line was dropped", column: error.column)]
        }
    }

    /// An error on the line arriving.
    private func problem(_ message: String, code: String = "json-syntax", column: Int? = nil) -> Diagnostic {
        Diagnostic(
            .error, code: code, message: message, location: SourceLocation(file: file, line: lineNumber, column: column)
        )
    }

    /// Whether JSON text is calport's NDJSON rather than Graph's: its first object has a `uid` and
    /// no Graph `subject`, `iCalUId` or `@odata` member.
    public static func looksLikeModelNDJSON(_ bytes: ArraySlice<UInt8>) -> Bool {
        // Only the first line, and only when it ends within 64 KiB: calport writes an event a line,
        // and a longer line is not read at all (a Graph page is one line of megabytes).
        let head = bytes.prefix(1 << 16)
        let lineEnd = head.firstIndex(of: 0x0A)
        guard lineEnd != nil || head.count == bytes.count else { return false }
        var reader = JSONStreamReader(bytes: Array(head[..<(lineEnd ?? head.endIndex)]))
        guard let document = try? reader.next(), case .object(let object) = document.value else { return false }
        return object["uid"]?.stringValue != nil && object["subject"] == nil && object["iCalUId"] == nil
            && object["@odata.context"] == nil
    }

    /// The event a line's JSON value describes (docs/ndjson.md); nil when it is not an object with a string `uid`.
    public static func event(_ value: JSONValue) -> Event? {
        guard case .object(let object) = value, let uid = object["uid"]?.stringValue else { return nil }
        var event = Event(uid: uid)
        if let value = object["recurrenceId"], let time = time(value) {
            event.recurrenceID = RecurrenceIdentifier(
                time: time, thisAndFuture: value["thisAndFuture"]?.boolValue ?? false)
        }
        event.sequence = object["sequence"]?.numberValue.map { Int($0) }
        event.summary = object["summary"]?.stringValue
        event.description = object["description"]?.stringValue
        event.htmlDescription = object["htmlDescription"]?.stringValue
        event.start = object["start"].flatMap(time)
        if let end = object["end"].flatMap(time) {
            event.end = .end(end)
        } else if let duration = object["duration"]?.stringValue.flatMap(EventDuration.init(iCalendarText:)) {
            event.end = .duration(duration)
        }
        event.locations = list(object["locations"]) { value in
            guard let name = value["name"]?.stringValue else { return nil }
            var location = Location(name: name, uri: value["uri"]?.stringValue)
            if let latitude = value["latitude"]?.numberValue, let longitude = value["longitude"]?.numberValue {
                location.coordinates = GeoCoordinate(latitude: latitude, longitude: longitude)
            }
            return location
        }
        event.organizer = object["organizer"].flatMap(participant)
        event.attendees = list(object["attendees"]) { value in
            participant(value).map { person in
                Attendee(
                    participant: person,
                    role: value["role"]?.stringValue.map {
                        token($0, [.chair, .required, .optional, .nonParticipant], AttendeeRole.other)
                    },
                    participationStatus: value["status"]?.stringValue.map {
                        token(
                            $0, [.needsAction, .accepted, .declined, .tentative, .delegated], ParticipationStatus.other)
                    },
                    rsvp: value["rsvp"]?.boolValue,
                    userType: value["type"]?.stringValue.map {
                        token($0, [.individual, .group, .resource, .room, .unknown], CalendarUserType.other)
                    })
            }
        }
        event.status = object["status"]?.stringValue.map {
            token($0, [.tentative, .confirmed, .cancelled], EventStatus.other)
        }
        event.transparency = object["transparency"]?.stringValue.map { $0 == "transparent" ? .transparent : .opaque }
        event.busyStatus = object["busyStatus"]?.stringValue.map {
            token($0, [.free, .tentative, .busy, .outOfOffice, .workingElsewhere], { _ in BusyStatus.unknown })
        }
        event.classification = object["classification"]?.stringValue.map {
            token($0, [.public, .private, .confidential, .personal], Classification.other)
        }
        event.priority = object["priority"]?.numberValue.map { Int($0) }
        event.importance = object["importance"]?.stringValue.map {
            token($0, [.low, .high], { _ in Importance.normal })
        }
        event.categories = list(object["categories"]) { $0.stringValue }
        event.alarms = list(object["alarms"], alarm)
        event.url = object["url"]?.stringValue
        event.conferences = list(object["conferences"]) { value in
            value["uri"]?.stringValue.map { Conference(uri: $0, label: value["label"]?.stringValue) }
        }
        event.recurrenceRules = list(object["rrules"]) { $0.stringValue.flatMap(RecurrenceRule.init(iCalendarText:)) }
        event.exceptionRules = list(object["exrules"]) { $0.stringValue.flatMap(RecurrenceRule.init(iCalendarText:)) }
        event.recurrenceDates = list(object["rdates"]) { time($0).map(RecurrenceDate.time) }
        event.exceptionDates = list(object["exdates"], time)
        event.created = object["created"].flatMap(time)
        event.lastModified = object["lastModified"].flatMap(time)
        event.timestamp = object["timestamp"].flatMap(time)
        event.attachments = list(object["attachments"]) { $0.stringValue.map { Attachment(content: .uri($0)) } }
        event.allowsNewTimeProposals = object["allowsNewTimeProposals"]?.boolValue
        event.extraProperties = list(object["extraProperties"]) { value in
            guard let name = value["name"]?.stringValue, let text = value["value"]?.stringValue else { return nil }
            return ExtraProperty(name: name, value: text)
        }
        return event
    }

    /// The four shapes of docs/ndjson.md's time.
    public static func time(_ value: JSONValue) -> CalendarTime? {
        if let text = value["date"]?.stringValue, let local = local(text + "T00:00:00") { return .date(local.date) }
        if let text = value["floating"]?.stringValue, let local = local(text) { return .floating(local) }
        if let text = value["utc"]?.stringValue, text.hasSuffix("Z"), let local = local(String(text.dropLast())) {
            return .utc(local)
        }
        if let text = value["local"]?.stringValue, let name = value["timeZone"]?.stringValue, let local = local(text) {
            return .zoned(local, TimeZoneReference(name: name, ianaIdentifier: value["iana"]?.stringValue))
        }
        return nil
    }

    /// `YYYY-MM-DDTHH:MM:SS`.
    private static func local(_ text: String) -> LocalDateTime? {
        let parts = text.split(whereSeparator: { "-T:".contains($0) }).compactMap { Int($0) }
        guard parts.count == 6, text.utf8.count == 19 else { return nil }
        let local = LocalDateTime(
            year: parts[0], month: parts[1], day: parts[2], hour: parts[3], minute: parts[4], second: parts[5])
        return local.isValid ? local : nil
    }

    private static func participant(_ value: JSONValue) -> Participant? {
        value["address"]?.stringValue.map { Participant(address: $0, commonName: value["name"]?.stringValue) }
    }

    private static func alarm(_ value: JSONValue) -> Alarm? {
        let action =
            value["action"]?.stringValue.map { token($0, [.audio, .display, .email], Alarm.Action.other) } ?? .display
        let trigger: Alarm.Trigger
        if let text = value["trigger"]?.stringValue, let duration = EventDuration(iCalendarText: text) {
            trigger = .relative(duration, relatedToEnd: value["relatedToEnd"]?.boolValue ?? false)
        } else if let at = value["triggerAt"].flatMap(time) {
            trigger = .absolute(at)
        } else {
            return nil
        }
        var alarm = Alarm(action: action, trigger: trigger)
        alarm.description = value["description"]?.stringValue
        return alarm
    }

    private static func list<T>(_ value: JSONValue?, _ transform: (JSONValue) -> T?) -> [T] {
        value?.arrayValue?.compactMap(transform) ?? []
    }

    /// The case whose schema name (EventJSON's lower-camel-case token) is `text`, else `other`.
    private static func token<T>(_ text: String, _ cases: [T], _ other: (String) -> T) -> T {
        cases.first { EventJSON.token($0) == text } ?? other(text)
    }
}
