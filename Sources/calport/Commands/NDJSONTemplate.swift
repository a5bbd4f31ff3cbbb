import ICalendar

/// `expand --format ndjson` writes each occurrence of an event with the same uid, summary, location,
/// status and, mostly, time zone: those members are escaped once per event, at its first occurrence, and
/// each occurrence writes only its times and flags between them (issue 24: the escaping was a quarter
/// of an NDJSON occurrence's instructions).
struct NDJSONTemplate: EventTemplate {
    /// The uid and zone the template was made with: an occurrence with others is written in full.
    private let uid: String
    private let zone: String?
    /// `{"uid":…,"recurrenceId":`, and `,"summary":…,"timeZone":…}` with the line end.
    private let head: [UInt8]
    private let tail: [UInt8]

    var size: Int { head.count + tail.count }
    /// About three thousand series' templates: more than a calendar interleaves at once.
    static var budget: Int { 1 << 20 }

    init(_ occurrence: Occurrence) {
        uid = occurrence.uid
        zone = OccurrenceFormat.ndjsonZone(of: occurrence)
        var head: [UInt8] = []
        OccurrenceFormat.ndjsonHead(uid: uid, into: &head)
        self.head = head
        var tail: [UInt8] = []
        OccurrenceFormat.ndjsonTail(occurrence.source, zone: zone, into: &tail)
        self.tail = tail
    }

    /// `occurrence` (of the template's event) as `OccurrenceFormat.ndjsonRecord` writes it, appended to
    /// `output`.
    func write(_ occurrence: Occurrence, clock: ZoneClock, into output: inout [UInt8]) {
        if occurrence.uid == uid {
            output += head
        } else {
            OccurrenceFormat.ndjsonHead(uid: occurrence.uid, into: &output)
        }
        OccurrenceFormat.ndjsonTimes(occurrence, clock: clock, into: &output)
        let zone = OccurrenceFormat.ndjsonZone(of: occurrence)
        if zone == self.zone {
            output += tail
        } else {
            OccurrenceFormat.ndjsonTail(occurrence.source, zone: zone, into: &output)
        }
    }
}

/// What `expand` makes of an event at its first occurrence, to write the others from.
protocol EventTemplate {
    /// The template of `occurrence`'s event.
    init(_ occurrence: Occurrence)
    /// The bytes it holds: a template holds no event, so that a few hundred bytes of JSON do not keep a
    /// whole event alive (they did, and a streamed 1M-event expansion took 620 MB).
    var size: Int { get }
    /// How many bytes of templates of its kind are kept.
    static var budget: Int { get }
}

/// The templates of the events met, by the event's serial number: read whole, a calendar's series
/// come in time order, interleaved; streamed, one series after another. Past the template's budget it
/// starts again, so streaming stays flat.
struct EventTemplates<Template: EventTemplate> {
    private var templates: [Int: Template] = [:]
    private var bytes = 0

    /// The template of `occurrence`'s event, made now if it is the event's first occurrence met.
    mutating func template(for occurrence: Occurrence) -> Template {
        let key = occurrence.source.serial
        if let template = templates[key] { return template }
        let template = Template(occurrence)
        if bytes + template.size > Template.budget {
            templates.removeAll()
            bytes = 0
        }
        templates[key] = template
        bytes += template.size
        return template
    }
}
