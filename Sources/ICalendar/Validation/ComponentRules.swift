/// Which properties RFC 5545 (§3.6, with RFC 7986's additions) allows in a component, which it
/// requires, and which may appear only once. One table, read by the validator.
struct ComponentRules {
    var required: Set<String>
    var once: Set<String>
    var many: Set<String>

    var allowed: Set<String> { once.union(many) }

    static let table: [String: ComponentRules] = [
        "VCALENDAR": ComponentRules(
            required: ["PRODID", "VERSION"],
            once: [
                "PRODID", "VERSION", "CALSCALE", "METHOD", "UID", "LAST-MODIFIED", "URL", "REFRESH-INTERVAL", "SOURCE",
                "COLOR",
            ],
            many: ["NAME", "DESCRIPTION", "CATEGORIES", "IMAGE"]),
        "VEVENT": ComponentRules(
            required: ["UID", "DTSTAMP"],
            once: [
                "DTSTAMP", "UID", "DTSTART", "CLASS", "CREATED", "DESCRIPTION", "GEO", "LAST-MODIFIED", "LOCATION",
                "ORGANIZER",
                "PRIORITY", "SEQUENCE", "STATUS", "SUMMARY", "TRANSP", "URL", "RECURRENCE-ID", "DTEND", "DURATION",
                "COLOR",
            ],
            many: [
                "ATTACH", "ATTENDEE", "CATEGORIES", "COMMENT", "CONTACT", "EXDATE", "REQUEST-STATUS", "RELATED-TO",
                "RESOURCES",
                "RDATE", "RRULE", "EXRULE", "CONFERENCE", "IMAGE",
            ]),
        "VTODO": ComponentRules(
            required: ["UID", "DTSTAMP"],
            once: [
                "DTSTAMP", "UID", "CLASS", "COMPLETED", "CREATED", "DESCRIPTION", "DTSTART", "GEO", "LAST-MODIFIED",
                "LOCATION",
                "ORGANIZER", "PERCENT-COMPLETE", "PRIORITY", "RECURRENCE-ID", "SEQUENCE", "STATUS", "SUMMARY", "URL",
                "DUE",
                "DURATION", "COLOR",
            ],
            many: [
                "ATTACH", "ATTENDEE", "CATEGORIES", "COMMENT", "CONTACT", "EXDATE", "REQUEST-STATUS", "RELATED-TO",
                "RESOURCES",
                "RDATE", "RRULE", "EXRULE", "CONFERENCE", "IMAGE",
            ]),
        "VALARM": ComponentRules(
            required: ["ACTION", "TRIGGER"],
            once: ["ACTION", "TRIGGER", "DURATION", "REPEAT", "DESCRIPTION", "SUMMARY", "UID", "ACKNOWLEDGED"],
            many: ["ATTACH", "ATTENDEE", "RELATED-TO"]),
        "VTIMEZONE": ComponentRules(
            required: ["TZID"], once: ["TZID", "LAST-MODIFIED", "TZURL"], many: []),
    ]

    /// Properties another component owns, so that finding them here is an error rather than an
    /// unknown IANA property (DUE in a VEVENT, DTEND in a VTODO).
    static let ownedElsewhere: Set<String> = [
        "DUE", "COMPLETED", "PERCENT-COMPLETE", "DTEND", "TZOFFSETFROM", "TZOFFSETTO", "TZNAME", "TZID", "FREEBUSY",
        "ACTION", "TRIGGER", "REPEAT",
    ]
}
