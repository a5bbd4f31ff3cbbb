import ICalendar

/// `expand --format ndjson` writes each occurrence of an event with the same uid, summary, location,
/// status and, mostly, time zone: those members are escaped once per event, at its first occurrence, and
/// each occurrence writes only its times and flags between them (issue 24: the escaping was a quarter
/// of an NDJSON occurrence's instructions).
final class NDJSONTemplate: EventTemplate {
    /// The uid and zone the template was made with: an occurrence with others is written in full.
    private let uid: String
    private let zone: String?
    /// The object they were read from (`Occurrence.sharedForms`), held, and its identity: an
    /// occurrence with the same has the same uid and zone, known without comparing them.
    private let forms: AnyObject
    private let formsIdentity: ObjectIdentifier
    /// `{"uid":…,"recurrenceId":`, and `,"summary":…,"timeZone":…}` with the line end.
    private let head: [UInt8]
    private let tail: [UInt8]

    var size: Int { head.count + tail.count }
    /// About three thousand series' templates: more than a calendar interleaves at once.
    static var budget: Int { 1 << 20 }

    init(_ occurrence: Occurrence) {
        uid = occurrence.uid
        zone = OccurrenceFormat.ndjsonZone(of: occurrence)
        forms = occurrence.sharedForms
        formsIdentity = occurrence.formsIdentity
        var head: [UInt8] = []
        OccurrenceFormat.ndjsonHead(uid: uid, into: &head)
        self.head = head
        var tail: [UInt8] = []
        OccurrenceFormat.ndjsonTail(occurrence.source, zone: zone, into: &tail)
        self.tail = tail
    }

    /// `occurrence` (of the template's event) as `OccurrenceFormat.ndjsonRecord` writes it, appended to
    /// `output`.
    func write(_ occurrence: Occurrence, clock: ZoneClock, days: inout DayCache, into output: inout [UInt8]) {
        let sameForms = occurrence.formsIdentity == formsIdentity
        if sameForms || occurrence.uid == uid {
            Self.append(head, to: &output)
        } else {
            OccurrenceFormat.ndjsonHead(uid: occurrence.uid, into: &output)
        }
        OccurrenceFormat.ndjsonTimes(occurrence, clock: clock, days: &days, into: &output)
        if sameForms {
            return Self.append(tail, to: &output)
        }
        let zone = OccurrenceFormat.ndjsonZone(of: occurrence)
        if zone == self.zone {
            Self.append(tail, to: &output)
        } else {
            OccurrenceFormat.ndjsonTail(occurrence.source, zone: zone, into: &output)
        }
    }
}

extension EventTemplate {
    /// Appends a template's bytes in `range` from their buffer: `output += bytes`, or a slice of
    /// them, retains and releases the array, an atomic operation each on every occurrence (a seventh
    /// of writing an ICS occurrence). Inlined: called as a protocol extension's, generic over the
    /// template, it cost some 60 instructions an ICS occurrence.
    @inline(__always)
    static func append(_ bytes: [UInt8], _ range: Range<Int>, to output: inout [UInt8]) {
        bytes.withUnsafeBufferPointer { output.append(contentsOf: UnsafeBufferPointer(rebasing: $0[range])) }
    }

    /// Appends all of a template's bytes, as `append(_:_:to:)` does.
    @inline(__always)
    static func append(_ bytes: [UInt8], to output: inout [UInt8]) {
        append(bytes, bytes.indices, to: &output)
    }
}

/// What `expand` makes of an event at its first occurrence, to write the others from: a class, so
/// that handing one out is a reference, not a copy of its bytes.
protocol EventTemplate: AnyObject {
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
///
/// A table indexed by the serial's low bits, not a dictionary: the events expanded together were made
/// together and have consecutive serials, so they fall in different slots, and a lookup is an index
/// and a comparison where hashing the key and copying the template out cost some 360 instructions an
/// occurrence. An event whose slot another took has its template made again.
struct EventTemplates<Template: EventTemplate> {
    /// Each slot's template and the serial number of its event (0, which no event has, for none).
    private var serials: [Int] = []
    private var templates: [Template?] = []
    private var bytes = 0

    /// How many slots there are: more events than a calendar interleaves at once.
    private static var slotCount: Int { 1 << 13 }

    /// Calls `body` with the template of `occurrence`'s event, made now if it is the event's first
    /// occurrence met. Lent, not returned: a template returned is retained and released for each
    /// occurrence.
    mutating func withTemplate<Result>(for occurrence: Occurrence, _ body: (Template) -> Result) -> Result {
        let key = occurrence.source.serial
        let index = key & (Self.slotCount - 1)
        if index >= serials.count || serials[index] != key || templates[index] == nil {
            add(Template(occurrence), serial: key, at: index)
        }
        return Unmanaged.passUnretained(templates[index].unsafelyUnwrapped)._withUnsafeGuaranteedRef(body)
    }

    private mutating func add(_ template: Template, serial key: Int, at index: Int) {
        if serials.isEmpty || bytes + template.size > Template.budget {
            serials = Array(repeating: 0, count: Self.slotCount)
            templates = Array(repeating: nil, count: Self.slotCount)
            bytes = 0
        }
        serials[index] = key
        templates[index] = template
        bytes += template.size
    }
}
