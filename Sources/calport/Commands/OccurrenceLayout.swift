import CalendarModel
import GraphEvents
import ICalendar

/// How `calport expand` writes occurrences: the format, the fields (`--fields`, for table, CSV and
/// NDJSON) and the zone times are shown in, named for the agenda.
struct OccurrenceLayout {
    var format: OccurrenceFormat
    /// The chosen fields; nil for the format's own (all of the NDJSON schema, the table's three).
    var fields: [OccurrenceField]?
    /// The `--tz` zone as given, for the agenda's first line.
    var zoneName: String
    /// The agenda's last day heading written, so that each day is headed once.
    private var lastHeading: [UInt8] = []
    /// For .ics, each event's VEVENT; for NDJSON with the schema's fields, each series' members.
    private var icsTemplates = EventTemplates<OccurrenceTemplate>()
    private var ndjsonTemplates = EventTemplates<NDJSONTemplate>()
    /// The date of the day last written: occurrences come in start order, so most are on the day of
    /// the one before (working the date out again was 2 % of an NDJSON expansion).
    private var days = DayCache()

    init(format: OccurrenceFormat, fields: [OccurrenceField]?, zoneName: String) {
        self.format = format
        self.fields = fields
        self.zoneName = zoneName
    }

    private var columns: [OccurrenceField] {
        fields ?? (format == .csv ? OccurrenceField.allCases : OccurrenceField.tableDefault)
    }

    /// What comes before the first occurrence: the calendar header with the inputs' VTIMEZONEs,
    /// column titles, or the agenda's zone.
    func header(timeZones: [TimeZoneDefinition]) -> [UInt8] {
        switch format {
        case .ics:
            let text = ICalendarSerializer().serialize(CalendarDocument(timeZones: timeZones))
            // The serialiser closes the calendar; occurrences go before that last line.
            return Array(text.dropLast("END:VCALENDAR\r\n".utf8.count))
        case .ndjson:
            return []
        case .table:
            return Array(row(columns.map { $0.rawValue.uppercased() }).utf8)
        case .csv:
            return Array(CSV.record(columns.map(\.rawValue)).utf8)
        case .agenda:
            return Array("Times in \(zoneName)\n".utf8)
        }
    }

    /// What closes the output.
    var footer: [UInt8] {
        format == .ics ? Array("END:VCALENDAR\r\n".utf8) : []
    }

    /// One occurrence's record appended to `output`, with times shown on `clock`. An agenda record
    /// is its day's heading and its line; `append(record:to:)` writes each heading once.
    mutating func write(_ occurrence: Occurrence, clock: ZoneClock, into output: inout [UInt8]) {
        switch format {
        case .ics:
            icsTemplates.withTemplate(for: occurrence) { $0.write(occurrence, days: &days, into: &output) }
        case .ndjson:
            guard let fields else {
                // A single event has one occurrence in most windows: a template would be made to be used once.
                guard occurrence.isInstance else {
                    return OccurrenceFormat.ndjsonRecord(occurrence, clock: clock, days: &days, into: &output)
                }
                return ndjsonTemplates.withTemplate(for: occurrence) {
                    $0.write(occurrence, clock: clock, days: &days, into: &output)
                }
            }
            output.append(UInt8(ascii: "{"))
            for (index, field) in fields.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                JSONWriter.writeString(field.rawValue, into: &output)
                output.append(UInt8(ascii: ":"))
                JSONWriter().write(field.json(of: occurrence, clock: clock), into: &output)
            }
            output += Array("}\n".utf8)
        case .table:
            output += row(columns.map { cell($0, occurrence, clock) }).utf8
        case .csv:
            output += CSV.record(columns.map { $0.cell(of: occurrence, clock: clock) }).utf8
        case .agenda:
            output += agenda(occurrence, clock: clock).utf8
        }
    }

    /// Appends a record written by `write`, dropping an agenda heading the previous record had.
    mutating func append(record: some Collection<UInt8>, to output: inout [UInt8]) {
        guard format == .agenda, let lineEnd = record.firstIndex(of: 0x0A) else {
            return output.append(contentsOf: record)
        }
        let heading = Array(record[record.startIndex...lineEnd])
        if heading != lastHeading {
            if !lastHeading.isEmpty { output.append(0x0A) }
            output += heading
            lastHeading = heading
        }
        output += record[record.index(after: lineEnd)...]
    }

    private func cell(_ field: OccurrenceField, _ occurrence: Occurrence, _ clock: ZoneClock) -> String {
        if field == .summary && occurrence.source.event.summary == nil { return "(no summary)" }
        return String(field.cell(of: occurrence, clock: clock, separator: " ").map { $0.isNewline ? " " : $0 })
    }

    /// Table cells padded to their column, the last as it is.
    private func row(_ cells: [String]) -> String {
        var line = ""
        for (index, cell) in cells.enumerated() {
            line += index == cells.count - 1 ? cell : OccurrenceFormat.pad(cell, Self.width(of: columns[index]))
        }
        return line + "\n"
    }

    private static func width(of field: OccurrenceField) -> Int {
        switch field {
        case .start, .end, .recurrenceId: return 26
        case .isAllDay, .isOverride: return 11
        case .status: return 11
        case .uid, .summary: return 32
        case .location, .timeZone: return 24
        }
    }

    /// `Tue 2026-12-01` then `  09:00–09:15  Stand-up  @ Room 1`, or `  all day      Offsite`.
    private func agenda(_ occurrence: Occurrence, clock: ZoneClock) -> String {
        let event = occurrence.source.event
        let startWall = wall(occurrence.start, occurrence.startInstant, clock)
        let endWall = wall(occurrence.end, occurrence.endInstant, clock)
        let day = startWall.date
        let heading = "\(day.weekday.shortName) \(OccurrenceFormat.display(.date(day), instant: 0, clock: clock))\n"
        let when: String
        if occurrence.isAllDay {
            let days = endWall.date.daysSinceEpoch - day.daysSinceEpoch
            when = days > 1 ? "all day (\(days) days)" : "all day"
        } else {
            let endText = endWall.date == day ? hhmm(endWall) : "\(endWall.date.weekday.shortName) \(hhmm(endWall))"
            when = "\(hhmm(startWall))–\(endText)"
        }
        var line = "  " + OccurrenceFormat.pad(when, 18) + (event.summary ?? "(no summary)")
        if let location = event.locations.first?.name, !location.isEmpty { line += "  @ \(location)" }
        return heading + String(line.map { $0.isNewline ? " " : $0 }) + "\n"
    }

    /// The wall-clock time of an instant on `clock`; a date as itself.
    private func wall(_ time: CalendarTime, _ instant: Int, _ clock: ZoneClock) -> LocalDateTime {
        if case .date(let date) = time { return LocalDateTime(date: date) }
        return LocalDateTime(secondsSinceEpoch: instant + clock.offset(at: instant))
    }

    private func hhmm(_ time: LocalDateTime) -> String {
        (time.hour < 10 ? "0" : "") + "\(time.hour):" + (time.minute < 10 ? "0" : "") + "\(time.minute)"
    }
}

extension Weekday {
    /// `Mon`, `Tue`…, as khal and date(1) head a day.
    var shortName: String {
        switch self {
        case .monday: return "Mon"
        case .tuesday: return "Tue"
        case .wednesday: return "Wed"
        case .thursday: return "Thu"
        case .friday: return "Fri"
        case .saturday: return "Sat"
        case .sunday: return "Sun"
        }
    }
}
