import CalendarModel
import GraphEvents
import ICalendar

/// What a first, cheap pass over iCalendar files learns (`ICalendarScanner`): each file's calendar
/// properties, VTIMEZONEs and event years, and where every member of a series with more than one
/// VEVENT (a master and its overrides, wherever they are) begins, so that a second pass can hand
/// each series on whole while holding only that series.
///
/// Memory: the pass notes 16 bytes per event (a UID hash and an offset); past `memoryRecords` they
/// are spilled to hash-partitioned files and each partition is sorted alone, so that only the
/// series that have more than one member are ever held together.
public struct SeriesIndex {
    /// One input as the first pass saw it.
    public struct File {
        /// The name diagnostics give the input.
        public var name: String
        /// The input's bytes, read again by the second pass.
        public var content: ReadableFile
        /// The input's calendar properties (PRODID, METHOD, X-WR-TIMEZONE…), without its events.
        public var header = CalendarDocument()
        /// The input's VTIMEZONEs.
        public var timeZones: [TimeZoneDefinition] = []
        /// The years the events' DTSTARTs name.
        public var years: ClosedRange<Int>?
        /// The input's format.
        public var format: InputFormat = .iCalendar
        /// A Graph JSON or NDJSON input's events that share a UID with another, as the first pass
        /// mapped them (`EventSpool`), and where each is by its number among the input's events.
        package var events: ReadableFile?
        package var spooled: [Int: Int] = [:]
        /// Where the first pass cut an iCalendar input into halves it scanned at once: the offset
        /// of the second half's first byte and its line. Nil when it was scanned whole.
        package var cut: (offset: Int, line: Int)?
        /// Whether an iCalendar input has an event without a UID: each reader of a part would make
        /// up UIDs of its own for them (the second of two alike gets `-2`).
        package var hasEventsWithoutUID = false

        /// The event numbered `ordinal` among a Graph JSON or NDJSON input's, when it was spooled.
        package func spooledEvent(_ ordinal: Int) -> Event? {
            guard let events, let offset = spooled[ordinal] else { return nil }
            return EventSpool.event(at: offset, in: events)
        }
    }

    /// Whether a series may span files (convert merges its inputs) or stays within one (expand).
    public enum Scope: Sendable {
        /// One UID in two inputs is one series (`calport convert` merges its inputs).
        case acrossFiles
        /// Each input's series are its own (`calport expand`).
        case withinFile
    }

    /// The inputs, in the order given.
    public private(set) var files: [File] = []
    /// Whether a series may span inputs.
    public let scope: Scope
    /// Where the members of each shared key begin: file index in the top 16 bits, offset below.
    private var shared: [UInt64: [UInt64]] = [:]

    static let partitions = 64

    /// The records held before they are spilled: 2 MiB (the two halves of a large file scanned at
    /// once hold half each). At 65,536 (1 MiB) a mailbox of 100,000 events made and wrote 64
    /// partition files to sort 1.6 MB of records: 3 % of converting it on one core (1.025 s against
    /// 0.99, median of 6). More would add to the peak of a million events' expansion, held under 64 MB.
    public static let defaultMemoryRecords = 1 << 17

    /// Scans iCalendar `inputs` (name and readable content).
    public init(
        _ inputs: [(name: String, content: ReadableFile)], scope: Scope,
        limits: ICalendarLimits, scratch: ScratchSpace, memoryRecords: Int = defaultMemoryRecords
    ) throws {
        try self.init(
            inputs.map { ($0.name, $0.content, .iCalendar) }, scope: scope, limits: limits, jsonLimits: JSONLimits(),
            scratch: scratch, memoryRecords: memoryRecords)
    }

    /// Scans `inputs` (name, readable content and format). NDJSON output needs the series too: two
    /// versions of one event are one (issue #18), found through the members noted here.
    ///
    /// iCalendar is tokenised without decoding its events; a member is noted by its offset. Graph
    /// JSON is read without mapping its events, only naming them (`GraphIdentityStream`), and NDJSON
    /// is read as events; when a UID they name is shared, the input is then mapped (a Graph exception
    /// against its master, which may be anywhere in the input), its members noted by their number
    /// among the input's events, and spooled (`EventSpool`), to be read back by that number.
    public init(
        _ inputs: [(name: String, content: ReadableFile, format: InputFormat)], scope: Scope,
        limits: ICalendarLimits, jsonLimits: JSONLimits, scratch: ScratchSpace,
        memoryRecords: Int = defaultMemoryRecords
    ) throws {
        self.scope = scope
        var records: [(key: UInt64, location: UInt64)] = []
        var spills: [SpillWriter] = []
        for (fileIndex, input) in inputs.enumerated() {
            var file = File(name: input.name, content: input.content, format: input.format)
            guard input.format == .iCalendar else {
                // The events are named here and placed (numbered) once a UID is known to be shared.
                var names = EventNameReader(file, limits: jsonLimits)
                var years: ClosedRange<Int>?
                while let (uid, year) = names.next() {
                    if let year { years = years.widened(to: year...year) }
                    guard !uid.isEmpty else { continue }
                    records.append((key(uid, file: fileIndex), Self.unplaced(in: fileIndex)))
                    if records.count >= memoryRecords { try Self.spill(&records, to: &spills, in: scratch) }
                }
                file.years = years
                files.append(file)
                continue
            }
            let place = CalendarScan.Place(
                file: fileIndex, name: input.name, scope: scope, limits: limits, scratch: scratch,
                memoryRecords: memoryRecords)
            var scan = try CalendarScan.scan(input.content, place)
            file.header = scan.header
            file.timeZones = scan.timeZones
            file.years = scan.years
            file.cut = scan.cut
            file.hasEventsWithoutUID = scan.hasEventsWithoutUID
            files.append(file)
            if records.isEmpty {
                // Taken whole (one input, most often): appended one by one, the scan's records were
                // held twice, in two arrays, the second grown by doubling. Swapped, not copied: an
                // array shared with the scan would be made again when emptied by a spill.
                swap(&records, &scan.records)
            } else {
                for record in scan.records {
                    records.append(record)
                    if records.count >= memoryRecords { try Self.spill(&records, to: &spills, in: scratch) }
                }
            }
            // A scan's own partition files are copied into these and closed at once: kept, each large
            // input would hold two sets of 64 descriptors open to the end.
            for set in scan.spillSets {
                if spills.isEmpty { try Self.spill(&records, to: &spills, in: scratch) }
                for (partition, spill) in set.enumerated() {
                    try Self.readBack(spill) { key, location in
                        spills[partition].write(key)
                        spills[partition].write(location)
                    }
                }
            }
        }
        if !spills.isEmpty { try Self.spill(&records, to: &spills, in: scratch) }
        noteShared(&records)
        for spill in spills {
            records.removeAll(keepingCapacity: true)
            try Self.readBack(spill) { records.append(($0, $1)) }
            noteShared(&records)
        }
        try placeSharedEvents(limits: jsonLimits, scratch: scratch)
    }

    /// Where a Graph JSON or NDJSON input's event is noted until the input is mapped: its file, and
    /// past any event's number.
    private static func unplaced(in file: Int) -> UInt64 { UInt64(file) << 48 | (1 << 48 - 1) }

    /// Maps each Graph JSON or NDJSON input that names a shared UID, numbers the events of the
    /// shared UIDs in place of the notes the first pass made, and spools them. A UID named more
    /// often than mapping gives it (`GraphIdentityStream`) may turn out not to be shared after all.
    private mutating func placeSharedEvents(limits: JSONLimits, scratch: ScratchSpace) throws {
        // The shared keys each input named, found in one pass over them all.
        var wantedIn: [Int: Set<UInt64>] = [:]
        for (key, locations) in shared {
            for location in locations where location == Self.unplaced(in: Int(location >> 48)) {
                wantedIn[Int(location >> 48), default: []].insert(key)
            }
        }
        for (fileIndex, wanted) in wantedIn.sorted(by: { $0.key < $1.key }) {
            let unplaced = Self.unplaced(in: fileIndex)
            var placed: [UInt64: [UInt64]] = [:]
            var spool = EventSpool.Writer(try scratch.create("events"))
            var events = MappedEventReader(files[fileIndex], limits: limits)
            var ordinal = 0
            while let (event, _) = events.next() {
                defer { ordinal += 1 }
                guard !event.uid.isEmpty else { continue }
                let key = key(event.uid, file: fileIndex)
                guard wanted.contains(key) else { continue }
                placed[key, default: []].append(UInt64(fileIndex) << 48 | UInt64(ordinal))
                files[fileIndex].spooled[ordinal] = spool.offset
                spool.write(event)
            }
            try spool.spill.finish()
            files[fileIndex].events = try ReadableFile(spool.spill)
            for key in wanted {
                let others = shared[key, default: []].filter { $0 != unplaced }
                let members = (others + placed[key, default: []]).sorted()
                // Counted with the notes of inputs still to be placed, so a key dropped here stays so.
                shared[key] = members.count > 1 ? members : nil
            }
        }
    }

    /// Reads back the (key, location) records of a finished partition file.
    private static func readBack(_ spill: SpillWriter, _ each: (UInt64, UInt64) -> Void) throws {
        try spill.finish()
        var reader = SpillReader(spill.reader())
        while let key = reader.readUInt64(), let location = reader.readUInt64() { each(key, location) }
        try reader.checkRead(spill)
    }

    /// Moves `records` to the partition files their keys hash to, creating them the first time.
    fileprivate static func spill(
        _ records: inout [(key: UInt64, location: UInt64)], to spills: inout [SpillWriter], in scratch: ScratchSpace
    ) throws(AtomicFile.WriteError) {
        if spills.isEmpty {
            for _ in 0..<partitions { spills.append(try scratch.create("index")) }
        }
        for record in records {
            let spill = spills[Int(record.key % UInt64(partitions))]
            spill.write(record.key)
            spill.write(record.location)
        }
        records.removeAll(keepingCapacity: true)
    }

    /// Keeps the locations of the keys that occur more than once among `records`.
    private mutating func noteShared(_ records: inout [(key: UInt64, location: UInt64)]) {
        records.sort { ($0.key, $0.location) < ($1.key, $1.location) }
        var start = 0
        while start < records.count {
            var end = start + 1
            while end < records.count && records[end].key == records[start].key { end += 1 }
            if end - start > 1 { shared[records[start].key] = records[start..<end].map(\.location) }
            start = end
        }
    }

    /// The key a UID is grouped by: its hash (FNV-1a), mixed with the file's index within a file.
    private func key(_ uid: String, file: Int) -> UInt64 { Self.key(uid, file: file, scope: scope) }

    fileprivate static func key(_ uid: String, file: Int, scope: Scope) -> UInt64 {
        var uid = uid
        // Over the bytes in place: through the string's iterator, the hash was 860 instructions a UID.
        var hash = uid.withUTF8 { bytes in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01b3
            }
            return hash
        }
        if scope == .withinFile { hash = (hash ^ UInt64(file)) &* 0x100_0000_01b3 }
        return hash
    }

    /// Where the VEVENTs that may share `uid` (in file `file`) begin, as (file index, offset; for
    /// Graph JSON and NDJSON the event's number instead), in input order; nil when it is the only one. Hash collisions are possible: callers compare UIDs.
    package func members(of uid: String, file: Int) -> [(file: Int, offset: Int)]? {
        shared[key(uid, file: file)]?.map(Self.place)
    }

    /// Whether every series with more than one member has them all before `offset` of file `file`
    /// or all from it on: what a second pass in two halves cut there needs, each half handing on
    /// whole the series it meets. A UID hash two UIDs share counts as one series.
    package func noSeriesSpans(_ offset: Int, inFile file: Int) -> Bool {
        shared.values.allSatisfy { locations in
            let offsets = locations.map(Self.place).filter { $0.file == file }.map(\.offset)
            return offsets.allSatisfy { $0 < offset } || offsets.allSatisfy { $0 >= offset }
        }
    }

    /// Where the one input may be read in two halves at once, each half's reader decoding as one
    /// reader of the whole would: an iCalendar input the first pass cut, no series across the cut,
    /// no UID made up (each reader numbers its own), every zone known by name. Nil otherwise.
    package var halvesCut: Int? {
        guard files.count == 1, files[0].format == .iCalendar, let cut = files[0].cut,
            noSeriesSpans(cut.offset, inFile: 0), !files[0].hasEventsWithoutUID,
            CalendarPart.zonesReadAlike(files[0].timeZones)
        else { return nil }
        return cut.offset
    }

    /// A noted location's file index (its top 16 bits) and offset (or event number).
    private static func place(_ location: UInt64) -> (file: Int, offset: Int) {
        (Int(location >> 48), Int(location & (1 << 48 - 1)))
    }

    /// The VTIMEZONEs of all inputs, once per TZID (the first one met).
    public var timeZones: [TimeZoneDefinition] {
        var merged = CalendarDocument()
        for file in files { merged.merge(CalendarDocument(timeZones: file.timeZones)) }
        return merged.timeZones
    }

    /// Throws when reading an input failed in either pass (its output would be cut short).
    public func checkReads() throws(InputError) {
        for file in files {
            if let failure = file.content.failure ?? file.events?.failure {
                throw InputError(message: "\(file.name): error: cannot read input: \(failure)")
            }
        }
    }

    /// The calendar properties of all inputs, the first input's winning.
    public var header: CalendarDocument {
        var header = CalendarDocument()
        for file in files { header.mergeHeader(file.header) }
        return header
    }
}

/// What the first pass finds in one iCalendar file: its calendar properties, VTIMEZONEs and event
/// years, and a record (UID key, location) for each event with a UID, in memory or, past
/// `memoryRecords`, in partition files of its own.
///
/// A large file is scanned in two halves at once, on two threads: the second from the first
/// `BEGIN:VEVENT` line after its middle. Its scan is kept only when it is the one a scan of the
/// whole file would have made: the first half ended between components, one calendar open, and the
/// second holds no calendar property (a second calendar concatenated to the first, say). Otherwise
/// the file is scanned again from the start, as one. Each thread makes and frees only its own
/// values: handing values made on one thread to another to free costs more than it saves here.
private struct CalendarScan {
    /// Which file is scanned, and how.
    struct Place: Sendable {
        var file: Int
        var name: String
        var scope: SeriesIndex.Scope
        var limits: ICalendarLimits
        var scratch: ScratchSpace
        var memoryRecords: Int

        /// The place for each of two halves scanned at once: each holds half the records, so that
        /// the two, and the scan they are joined into, hold no more than one scan would.
        var halved: Place {
            var half = self
            half.memoryRecords = max(memoryRecords / 2, 1)
            return half
        }
    }

    var header = CalendarDocument()
    var timeZones: [TimeZoneDefinition] = []
    var years: ClosedRange<Int>?
    var records: [(key: UInt64, location: UInt64)] = []
    /// The records past `memoryRecords`: a set of partition files for each region scanned that
    /// spilled.
    var spillSets: [[SpillWriter]] = []
    /// Where the halves were cut, when they were scanned so: the second's first byte and line.
    var cut: (offset: Int, line: Int)?
    /// Whether an event has no UID.
    var hasEventsWithoutUID = false

    /// Files smaller than this are scanned on one thread: a second costs more than it saves.
    static let halvingSize = 4 << 20

    /// Scans `content`: in two halves at once when it is large, the process may run on two
    /// processors, and the halves turn out to be what one scan would see; else as one. On one
    /// processor the halves only take turns, and the second pass, read in the same halves, writes
    /// the second's output to a scratch file to copy after the first's.
    static func scan(_ content: ReadableFile, _ place: Place) throws -> CalendarScan {
        if content.size >= halvingSize, Processors.available >= 2,
            let middle = eventBoundary(in: content, after: content.size / 2),
            let halves = try scanHalves(content, splitAt: middle, place.halved)
        {
            return halves
        }
        return try scanRegion(content, from: 0, upTo: nil, place).scan
    }

    /// The two halves' scans joined, nil when the second is not what one scan would have made.
    private static func scanHalves(_ content: ReadableFile, splitAt middle: Int, _ place: Place) throws
        -> CalendarScan?
    {
        let second = ThreadResult { Result { try scanRegion(content, from: middle, upTo: nil, place) } }
        let first = Result { try scanRegion(content, from: 0, upTo: middle, place) }
        // Both are waited for, so that no thread outlives the scan, whichever failed.
        let secondResult = second.wait()
        let (firstScan, firstEnd) = try first.get()
        let (secondScan, secondEnd) = try secondResult.get()
        guard firstEnd.atTopLevel, secondEnd.calendarProperties == 0 else { return nil }
        var joined = firstScan
        joined.timeZones += secondScan.timeZones
        if let years = secondScan.years { joined.years = joined.years.widened(to: years) }
        joined.records += secondScan.records
        joined.spillSets += secondScan.spillSets
        joined.hasEventsWithoutUID = firstScan.hasEventsWithoutUID || secondScan.hasEventsWithoutUID
        joined.cut = (middle, firstEnd.linesRead + 1)
        return joined
    }

    /// How a region's scan ended: whether at the top level of a calendar, and how many calendar
    /// properties it read.
    private struct RegionEnd {
        var atTopLevel: Bool
        var calendarProperties: Int
        /// The physical lines it read.
        var linesRead: Int
    }

    /// A region's scan, and how it ended.
    private typealias Region = (scan: CalendarScan, end: RegionEnd)

    /// Scans the bytes of `content` from `start` up to `end` (its end when nil), the offsets it
    /// notes counted from the file's start.
    private static func scanRegion(_ content: ReadableFile, from start: Int, upTo end: Int?, _ place: Place) throws
        -> Region
    {
        var scan = CalendarScan()
        var spills: [SpillWriter] = []
        var scanner = ICalendarScanner(
            source: content.reader(from: start, upTo: end), file: place.name, limits: place.limits,
            rereading: { content.rereader(from: start + $0, upTo: end) })
        while let component = scanner.next() {
            switch component.kind {
            case .event(let uid, let year):
                if let year { scan.years = scan.years.widened(to: year...year) }
                // An event without a UID is a series of its own: nothing to find again.
                guard !uid.isEmpty else {
                    scan.hasEventsWithoutUID = true
                    continue
                }
                scan.records.append(
                    (
                        SeriesIndex.key(uid, file: place.file, scope: place.scope),
                        UInt64(place.file) << 48 | UInt64(start + component.offset)
                    ))
                if scan.records.count >= place.memoryRecords {
                    try SeriesIndex.spill(&scan.records, to: &spills, in: place.scratch)
                }
            case .timeZone(let zone): scan.timeZones.append(zone)
            case .other: break
            }
        }
        scan.header = scanner.header
        if !spills.isEmpty { scan.spillSets = [spills] }
        let regionEnd = RegionEnd(
            atTopLevel: scanner.endedAtTopLevel, calendarProperties: scanner.calendarPropertyCount,
            linesRead: scanner.physicalLinesRead)
        return (scan, regionEnd)
    }

    /// The offset of the first line `BEGIN:VEVENT` (as most writers spell it) that starts at or after
    /// `offset` and within a mebibyte of it; nil when there is none.
    private static func eventBoundary(in content: ReadableFile, after offset: Int) -> Int? {
        var source = content.reader(from: max(offset - 1, 0), upTo: offset + (1 << 20), chunkSize: 1 << 20)
        guard let bytes = source.nextChunk() else { return nil }
        let marker = Array("BEGIN:VEVENT".utf8)
        var index = 1
        while index + marker.count < bytes.count {
            defer { index += 1 }
            // After a line end, and ending one that no continuation line follows.
            guard bytes[index - 1] == 0x0A || bytes[index - 1] == 0x0D,
                bytes[index..<(index + marker.count)].elementsEqual(marker)
            else { continue }
            var next = index + marker.count
            guard bytes[next] == 0x0D || bytes[next] == 0x0A else { continue }
            if bytes[next] == 0x0D && next + 1 < bytes.count && bytes[next + 1] == 0x0A { next += 1 }
            guard next + 1 < bytes.count, bytes[next + 1] != 0x20, bytes[next + 1] != 0x09 else { continue }
            return max(offset - 1, 0) + index
        }
        return nil
    }
}
