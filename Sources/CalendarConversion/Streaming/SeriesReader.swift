import CalendarModel
import GraphEvents
import ICalendar

/// The second pass over the files of a `SeriesIndex`: every event in input order, decoded once, and
/// with the first member of each series the whole series (master and overrides), the later members
/// read ahead from where the index says they are. Only the series at hand is held.
public struct SeriesReader {
    /// One event of the input, in input order.
    public struct Item {
        /// The event as read (the newest version, when the input holds two).
        public var event: Event
        /// The event's whole series when this is its first member; nil for the members after it.
        public var series: EventSeries? {
            switch begins {
            case .nothing: nil
            case .alone: EventSeries(alone: event)
            case .members(let series): series
            }
        }
        fileprivate var begins: Begins
        /// Which input the event is in.
        public var file: Int

        /// The event, taken out of the item (which is left holding an empty one), so that the
        /// taker holds its only reference and changes it in place.
        public mutating func takeEvent() -> Event {
            var taken = Self.placeholder
            swap(&taken, &event)
            return taken
        }

        private static let placeholder = Event(uid: "")
    }

    /// Which series an event begins. Most events are a series of their own, made from the event
    /// when asked for: held beside it, it would be a second reference to every event, and the
    /// writer that renames a Graph event's zones (`takeEvent()`) would copy it first.
    fileprivate enum Begins {
        /// None: an earlier member began it.
        case nothing
        /// The series of the event alone.
        case alone
        /// A series of these members.
        case members(EventSeries)
    }

    /// One component of the input, in input order, VTIMEZONEs left out (the index holds them).
    public enum Component {
        /// A VEVENT, as `next()` hands it on.
        case event(Item)
        /// A VTODO, VJOURNAL, VFREEBUSY, X- component or other, whole, and which input it is in.
        case other(ExtraComponent, file: Int)
    }

    private let index: SeriesIndex
    private let limits: ICalendarLimits
    private var fileIndex = 0
    /// The file being read, when it is iCalendar.
    private var reader: ICalendarReader<FileRegionSource>?
    /// The file being read, when it is Graph JSON or NDJSON, and how many of its events were read.
    private var mapped: MappedEventReader?
    private var ordinal = 0
    private let jsonLimits: JSONLimits
    /// UIDs (with their file, within a file) of the shared series already handed on, each with
    /// where its master is (nil when it has none).
    private var handedOn: [SeriesKey: Place?] = [:]
    private var diagnostics: [Diagnostic] = []
    /// Components dropped as invalid so far.
    public private(set) var droppedComponents = 0
    /// Components read and kept so far, events or not.
    public private(set) var componentsRead = 0
    /// Events read so far.
    public private(set) var eventsRead = 0
    /// Versions of an event read ahead with its series that lose to another (issue #18): skipped when met.
    private var superseded: Set<Place> = []
    /// The version to hand on, when met, at the place of an event's first version.
    private var newest: [Place: Event] = [:]
    /// Warnings about two versions, waiting until the later one is met and its line known.
    private var conflicts: [Place: [(EventVersions.Conflict, Event, earlier: Place)]] = [:]
    /// The line of each member of a shared series met so far, for those warnings.
    private var lines: [Place: Int] = [:]
    /// The names of the components other than events and VTIMEZONEs read so far, by file.
    public private(set) var otherComponents: [[String]]

    private struct SeriesKey: Hashable {
        var uid: String
        var file: Int
    }

    /// Where a VEVENT begins: its file's index and its offset in the file.
    private struct Place: Hashable {
        var file: Int
        var offset: Int
    }

    /// Reads the inputs `index` scanned, with the limits it scanned them with.
    public init(_ index: SeriesIndex, limits: ICalendarLimits, jsonLimits: JSONLimits = JSONLimits()) {
        self.init(index, limits: limits, jsonLimits: jsonLimits, half: nil)
    }

    /// Which half of its one input a reader reads, where the first pass cut it (`SeriesIndex.File.cut`).
    package enum Half: Sendable {
        case first, second
    }

    /// A reader of one half of the one input `index` scanned in halves, beside a reader of the other.
    /// Every series must be in one half (`SeriesIndex.noSeriesSpans`): each reader hands on whole
    /// the series it meets.
    package init(_ index: SeriesIndex, limits: ICalendarLimits, jsonLimits: JSONLimits, half: Half?) {
        self.init(index, limits: limits, jsonLimits: jsonLimits, half: half, reading: .whole)
    }

    /// A reader of the events of `index`'s iCalendar inputs as `reading` says.
    package init(
        _ index: SeriesIndex, limits: ICalendarLimits, jsonLimits: JSONLimits = JSONLimits(), half: Half? = nil,
        reading: EventReading
    ) {
        self.index = index
        self.limits = limits
        self.jsonLimits = jsonLimits
        self.half = half
        self.reading = reading
        otherComponents = index.files.map { _ in [] }
    }

    private let reading: EventReading

    private let half: Half?
    /// The zones that no VTIMEZONE defines, with their first use in the half read: a reader of a half
    /// leaves them to its caller, to report once for both halves.
    package private(set) var unresolvedZones: [String: Diagnostic] = [:]

    /// The zones no VTIMEZONE defines used in two halves of an input, once each with its first
    /// use, in line order: what a reader of the whole input reports at its end.
    package static func unresolvedZones(
        first: [String: Diagnostic], second: [String: Diagnostic]
    ) -> [Diagnostic] {
        ICalendarReader<FileRegionSource>.inLineOrder(first.merging(second) { earlier, _ in earlier })
    }

    /// The bytes of `file` this reader reads, and which part of it they are.
    private func region(of file: SeriesIndex.File) -> (FileRegionSource, CalendarPart?, end: Int?) {
        switch (half, file.cut) {
        case (.first?, let cut?): return (file.content.reader(upTo: cut.offset), .beforeCut, cut.offset)
        case (.second?, let cut?):
            return (file.content.reader(from: cut.offset), .afterCut(offset: cut.offset, line: cut.line), nil)
        default: return (file.content.reader(), nil, nil)
        }
    }

    /// The next event, or nil when every file has been read.
    public mutating func next() -> Item? {
        while let component = nextComponent() {
            if case .event(let item) = component { return item }
        }
        return nil
    }

    /// The next event or other component, for output that keeps them all (iCalendar); nil when every
    /// file has been read.
    public mutating func nextComponent() -> Component? {
        while fileIndex < index.files.count {
            // Called for every component: the file and the reader are looked at in place. A copy of
            // either retains all they hold, and `reader == nil` or `if case .none = reader` copies
            // the reader; a stored property reached through it does not (`componentLine`, an `Int`:
            // nil only when there is no reader).
            if index.files[fileIndex].format != .iCalendar {
                if case .none = mapped {
                    mapped = MappedEventReader(index.files[fileIndex], limits: jsonLimits)
                    ordinal = 0
                }
                // The readers are asked in place: a copy would share their buffers, and copy them at the next read.
                while let (event, line) = mapped?.next() {
                    componentsRead += 1
                    ordinal += 1
                    if let item = handOn(consume event, at: Place(file: fileIndex, offset: ordinal - 1), line: line) {
                        return .event(item)
                    }
                }
                let reported = mapped?.diagnostics ?? []
                diagnostics += reported
                droppedComponents += reported.count { $0.severity == .error }
                mapped = nil
                fileIndex += 1
                continue
            }
            if reader?.componentLine == nil {
                let file = index.files[fileIndex]
                let (source, part, end) = region(of: file)
                // Its offsets are the file's: the region again from one of them on.
                reader = ICalendarReader(
                    source: source, file: file.name, limits: limits, timeZones: file.timeZones, part: part,
                    reading: reading, rereading: { [content = file.content] in content.rereader(from: $0, upTo: end) })
            }
            while let item = reader?.next() {
                componentsRead += 1
                if case .other(let component) = item {
                    otherComponents[fileIndex].append(component.name)
                    return .other(component, file: fileIndex)
                }
                guard case .event(let event) = item else { continue }
                let place = Place(file: fileIndex, offset: reader?.componentOffset ?? 0)
                if let item = handOn(consume event, at: place, line: reader?.componentLine) { return .event(item) }
            }
            diagnostics += reader?.takeDiagnostics() ?? []
            droppedComponents += reader?.droppedComponents ?? 0
            if half != nil && index.files[fileIndex].cut != nil {
                unresolvedZones.merge(reader?.unresolvedZones ?? [:]) { first, _ in first }
            }
            reader = nil
            fileIndex += 1
        }
        return nil
    }

    /// The item for `event`, read at `place` (on `line`), nil when it is a version superseded by
    /// another.
    private mutating func handOn(_ event: consuming Event, at place: Place, line: Int?) -> Item? {
        eventsRead += 1
        var begins = series(startingWith: event, at: place)
        if !conflicts.isEmpty || !superseded.isEmpty { noteVersions(at: place, line: line) }
        // Asked only when there are any: looked up in empty tables, each place was hashed twice
        // (some 700 instructions an event).
        if !superseded.isEmpty, superseded.remove(place) != nil { return nil }
        guard !newest.isEmpty, let newest = newest.removeValue(forKey: place) else {
            return Item(event: event, begins: begins, file: fileIndex)
        }
        // The series is of the version read here, the item of the newest.
        if case .alone = begins { begins = .members(EventSeries(alone: event)) }
        return Item(event: newest, begins: begins, file: fileIndex)
    }

    /// How far the reading has come, in bytes of all the inputs, for progress.
    public var bytesRead: Int {
        var done = reader?.componentOffset ?? mapped?.bytesRead ?? 0
        for file in index.files.prefix(fileIndex) { done += file.content.size }
        return done
    }

    /// All the inputs' bytes.
    public var totalBytes: Int { index.files.map(\.content.size).reduce(0, +) }

    /// Hands over the diagnostics of the input read since the last call, in input order.
    public mutating func takeDiagnostics() -> [Diagnostic] {
        if let taken = reader?.takeDiagnostics() { diagnostics.collect(taken) }
        defer { diagnostics.removeAll() }
        return diagnostics
    }

    /// The series `event` begins, `.nothing` when an earlier member already began it. As in
    /// `CalendarDocument.series`, an event without a UID and a second master under a UID are series
    /// of their own.
    private mutating func series(startingWith event: Event, at here: Place) -> Begins {
        guard !event.uid.isEmpty, let members = index.members(of: event.uid, file: fileIndex) else {
            return .alone
        }
        let key = SeriesKey(uid: event.uid, file: index.scope == .withinFile ? fileIndex : 0)
        if let master = handedOn[key] {
            guard event.recurrenceID.isNil, master != here else { return .nothing }
            return .alone
        }
        var events: [Event] = []
        var places: [Place] = []
        var master: Place?
        for member in members {
            let place = Place(file: member.file, offset: member.offset)
            guard let found = place == here ? event : self.event(at: place, reading: reading), found.uid == event.uid
            else { continue }
            if master == nil && found.recurrenceID.isNil { master = place }
            events.append(found)
            places.append(place)
        }
        // Two versions of one member that tie are both kept when they differ (`EventVersions`), which
        // properties a listing leaves unread may decide: such series are read again whole.
        if reading == .listing, EventVersions.includeTwoVersions(events) {
            let whole = places.compactMap { self.event(at: $0, reading: .whole) }
            if whole.count == events.count { events = whole }
        }
        handedOn[key] = .some(master)
        let series = CalendarDocument(events: resolveVersions(events, at: places)).series.first
        return series.map(Begins.members) ?? .nothing
    }

    /// The event at `place`, read as `reading` says (a Graph input's as it was spooled).
    private func event(at place: Place, reading: EventReading) -> Event? {
        let file = index.files[place.file]
        guard file.format == .iCalendar else { return file.spooledEvent(place.offset) }
        // Members are read with 16 KiB reads: an override is usually a few hundred bytes.
        return ICalendarReader.event(
            at: file.content.reader(from: place.offset, chunkSize: 16 << 10), file: file.name, limits: limits,
            timeZones: file.timeZones, reading: reading)
    }

    /// The versions of a series' members kept, as reading the whole input keeps them
    /// (`EventVersions.merge`); notes which places to skip or hand on another version at.
    private mutating func resolveVersions(_ events: [Event], at places: [Place]) -> [Event] {
        let (kept, found) = Self.resolveFileByFile(events, files: places.map(\.file))
        guard !found.isEmpty || kept.count < events.count else { return events }
        let keptSet = Set(kept)
        // Every member shares the UID: a version is told by its RECURRENCE-ID alone.
        var firstOf: [CalendarTime?: Int] = [:]
        for (index, event) in events.enumerated() {
            if firstOf[event.recurrenceID?.time] == nil { firstOf[event.recurrenceID?.time] = index }
            if !keptSet.contains(index) { superseded.insert(places[index]) }
        }
        var placed: Set<CalendarTime?> = []
        for index in kept {
            // The first version kept of each instance takes the first one's place; tied ones keep their own.
            guard placed.insert(events[index].recurrenceID?.time).inserted else { continue }
            let first = firstOf[events[index].recurrenceID?.time] ?? index
            // The newest version is handed on where the first one was met, and skipped at its own place.
            if first != index && !keptSet.contains(first) {
                newest[places[first]] = events[index]
                superseded.remove(places[first])
                superseded.insert(places[index])
            }
        }
        for conflict in found {
            conflicts[places[conflict.later], default: []].append(
                (conflict, events[conflict.later], earlier: places[conflict.earlier]))
        }
        return kept.map { events[$0] }
    }

    /// `EventVersions.resolve` as `convert` applies it reading whole: within each file (`files`, in
    /// input order, one for each event) first, then across the files' survivors, so that
    /// `convert a.ics a.ics` reports a file's two versions once for each copy and nothing more.
    private static func resolveFileByFile(
        _ events: [Event], files: [Int]
    ) -> (kept: [Int], conflicts: [EventVersions.Conflict]) {
        func renumbered(_ conflict: EventVersions.Conflict, _ index: (Int) -> Int) -> EventVersions.Conflict {
            var conflict = conflict
            conflict.earlier = index(conflict.earlier)
            conflict.later = index(conflict.later)
            conflict.kept = conflict.kept.map(index)
            return conflict
        }
        var survivors: [Int] = []
        var conflicts: [EventVersions.Conflict] = []
        var start = 0
        while start < events.count {
            var end = start + 1
            while end < events.count && files[end] == files[start] { end += 1 }
            let (kept, found) = EventVersions.resolve(Array(events[start..<end]))
            survivors += kept.map { start + $0 }
            conflicts += found.map { renumbered($0) { start + $0 } }
            start = end
        }
        let (kept, found) = EventVersions.resolve(survivors.map { events[$0] })
        // Two versions both kept in one file tie again here; they were reported above.
        conflicts += found.map { renumbered($0) { survivors[$0] } }.filter { files[$0.earlier] != files[$0.later] }
        return (kept.map { survivors[$0] }, conflicts)
    }

    /// Records where a member is, and reports the conflicts whose later version it is.
    private mutating func noteVersions(at place: Place, line: Int?) {
        lines[place] = line
        guard let waiting = conflicts.removeValue(forKey: place) else { return }
        defer { if conflicts.isEmpty { lines.removeAll() } }
        let file = index.files[place.file].name
        for (conflict, event, earlier) in waiting {
            let earlierAt = SourceLocation(file: index.files[earlier.file].name, line: lines[earlier])
            diagnostics.append(
                EventVersions.diagnostic(
                    conflict, of: event, earlier: earlierAt,
                    later: SourceLocation(file: file, line: line)))
        }
    }
}
