/// The VEVENT properties the model reads, with what reading each needs: one table, so that the
/// names, the singletons and the parameters read cannot disagree, and one lookup a line finds them
/// (a `switch` over names compared one by one, and a dictionary for each column, were a twentieth
/// of reading an event, issue 24).
enum EventProperty: CaseIterable {
    case uid, sequence, summary, description, htmlDescription, start, end, duration, location
    case calportLocation, geo, organizer, attendee, status, transparency, busyStatus, classification
    case priority, importance, categories, url, conference, rule, exceptionRule, recurrenceDates
    case exceptionDates, recurrenceID, created, lastModified, timestamp, attachment, disallowCounter

    /// Its name in iCalendar.
    var name: String {
        switch self {
        case .uid: "UID"
        case .sequence: "SEQUENCE"
        case .summary: "SUMMARY"
        case .description: "DESCRIPTION"
        case .htmlDescription: "X-ALT-DESC"
        case .start: "DTSTART"
        case .end: "DTEND"
        case .duration: "DURATION"
        case .location: "LOCATION"
        case .calportLocation: "X-CALPORT-LOCATION"
        case .geo: "GEO"
        case .organizer: "ORGANIZER"
        case .attendee: "ATTENDEE"
        case .status: "STATUS"
        case .transparency: "TRANSP"
        case .busyStatus: "X-MICROSOFT-CDO-BUSYSTATUS"
        case .classification: "CLASS"
        case .priority: "PRIORITY"
        case .importance: "X-MICROSOFT-CDO-IMPORTANCE"
        case .categories: "CATEGORIES"
        case .url: "URL"
        case .conference: "CONFERENCE"
        case .rule: "RRULE"
        case .exceptionRule: "EXRULE"
        case .recurrenceDates: "RDATE"
        case .exceptionDates: "EXDATE"
        case .recurrenceID: "RECURRENCE-ID"
        case .created: "CREATED"
        case .lastModified: "LAST-MODIFIED"
        case .timestamp: "DTSTAMP"
        case .attachment: "ATTACH"
        case .disallowCounter: "X-MICROSOFT-DISALLOW-COUNTER"
        }
    }

    /// Whether RFC 5545 (or Microsoft, for its X- properties) allows it once per VEVENT.
    var isSingleton: Bool {
        switch self {
        case .calportLocation, .attendee, .categories, .conference, .rule, .exceptionRule, .recurrenceDates,
            .exceptionDates, .attachment:
            false
        default: true
        }
    }

    /// The parameters of a singleton that the model reads itself; the others are kept with it.
    var parametersRead: [String] {
        switch self {
        case .start, .end: ["VALUE", "TZID"]
        case .recurrenceID: ["VALUE", "TZID", "RANGE"]
        case .htmlDescription: ["FMTTYPE"]
        case .timestamp, .created, .lastModified: ["VALUE"]
        default: []
        }
    }

    /// What reading a line of a name needs: its property and its bit among the singletons (0 for
    /// the others). Without a reference in it, it is copied out of the table for nothing: holding
    /// `parametersRead` too, it was retained and released for each line (600 instructions an event).
    struct Reading {
        var property: EventProperty
        var bit: UInt32
    }

    /// The reading of a property name, nil for a property the model does not read. Found among
    /// the names of its length, compared whole: hashing the name for a dictionary was 330
    /// instructions a line.
    static func reading(_ name: String) -> Reading? {
        let length = name.utf8.count
        guard length < readingsByLength.count else { return nil }
        return readingsByLength[length].withUnsafeBufferPointer { candidates in
            candidates.first { $0.name == name }?.reading
        }
    }

    /// The bit of a singleton.
    static func bit(of property: EventProperty) -> UInt32 { reading(property.name)?.bit ?? 0 }

    /// The readings by the length of their name (a few names each).
    private static let readingsByLength: [[(name: String, reading: Reading)]] = {
        var next: UInt32 = 1
        var table: [[(name: String, reading: Reading)]] = []
        for property in allCases {
            let reading = Reading(property: property, bit: property.isSingleton ? next : 0)
            if property.isSingleton { next <<= 1 }
            let length = property.name.utf8.count
            if table.count <= length { table += Array(repeating: [], count: length + 1 - table.count) }
            table[length].append((property.name, reading))
        }
        return table
    }()
}
