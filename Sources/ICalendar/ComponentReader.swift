import CalendarModel

/// Reads the BEGIN/END structure of an iCalendar stream one top-level component at a time, so that
/// memory stays flat whatever the size of the calendar.
struct ComponentReader {
    typealias Item = ContentItem

    private var lines: LineReader
    private let file: String?
    private let limits: ICalendarLimits
    private var stack: [ContentComponent] = []
    /// How many BEGIN:VCALENDAR are open: a calendar nested in another is merged into it, and its
    /// END closes it, not the outer one.
    private var calendarDepth = 0
    private var insideCalendar: Bool { calendarDepth > 0 }
    private var skippingDepth = 0
    private(set) var diagnostics: [Diagnostic] = []
    /// Components cut off by the end of input.
    private(set) var droppedComponents = 0
    /// The byte offset of the line being consumed.
    private var lineOffset = 0
    /// The byte offset of the `BEGIN` line of each open component, outermost first.
    private var openedAt: [Int] = []
    /// Components closed inside another they cannot belong to, handed on before reading further.
    private var lifted: [(component: ContentComponent, offset: Int)] = []
    /// The byte offset of the `BEGIN` line of the last component handed on.
    private(set) var componentOffset = 0
    /// Whether the properties of top-level VEVENTs are skimmed: only those `skimmedNames` lists are
    /// parsed.
    private let skims: Bool
    /// The names parsed among the properties of a top-level VEVENT, nil for all of them: those
    /// `skimmedNames` or `EventReading.listedNames` lists. Reading a listing, the lines of the
    /// components inside the VEVENT are left unparsed as well, but for their BEGIN and END. Every
    /// line of such a VEVENT is kept (`skimmedLines`) for `parsedInFull(_:)`, unless it can be read
    /// again (`passesOver`).
    private let parsedNames: PropertyNames?
    /// The line being read, from the line reader or from `replayed`, after the lines read before it
    /// until they fill `scratchSize`: one array for every line, emptied only now and then (emptied
    /// for each line, it was some 140 instructions a line in `replaceSubrange`).
    private var scratch: [UInt8] = []
    private static let scratchSize = 16 << 10
    /// The names of properties and parameters met so far.
    private var names = ContentNames()
    /// The lines of the last top-level VEVENT begun, when skimming, from its BEGIN to its END: where
    /// each is in `skimmedBytes`.
    private var skimmedLines: [LineReader.LogicalLine] = []
    private var skimmedBytes: [UInt8] = []
    /// Whether the last component handed on is a skimmed or listed VEVENT, with lines left unparsed.
    private(set) var lastComponentIsSkimmed = false
    /// Whether the input ended between the top-level components of one calendar: no component open
    /// or waiting, one BEGIN:VCALENDAR open. Read once `next()` has returned nil.
    private(set) var endedAtTopLevel = false
    /// The input again from an offset of this reader's on, when the caller can read it again.
    private let rereading: ((Int) -> any ByteSource)?
    /// Whether a skimming or listing reader reads past the lines of a top-level VEVENT it leaves
    /// unparsed (`LineReader.next(appendingTo:passingOver:)`) rather than reading and keeping them:
    /// it can when it can read the event again for `parsedInFull(_:)`.
    private var passesOver: Bool { parsedNames != nil && rereading != nil }
    /// Lines read back instead of the line reader's (`parsedInFull(_:)`), and how many were.
    private var replayed: (lines: [LineReader.LogicalLine], bytes: [UInt8])?
    private var replayedCount = 0

    /// A reader of `source`; with `skimming`, the properties of each top-level VEVENT other than
    /// UID and DTSTART are left unparsed (a first pass that needs only those: `ICalendarScanner`).
    /// Reading `part` of an input, the reader starts and ends as that part says.
    /// Reading a `.listing`, only the properties of a VEVENT that `EventReading.listedNames` lists are
    /// parsed, and of the components inside it only their BEGIN and END.
    /// Skimming or listing, given `rereading` (the input again from one of this reader's offsets
    /// on), the lines left unparsed are read past, not kept (`passesOver`).
    init(
        source: any ByteSource, file: String?, limits: ICalendarLimits = ICalendarLimits(), skimming: Bool = false,
        rereading: ((Int) -> any ByteSource)? = nil, reading: EventReading = .whole, part: CalendarPart? = nil
    ) {
        self.rereading = rereading
        self.lines = LineReader(
            source: source, file: file, maximumLineLength: limits.maximumLineLength,
            maximumAttachmentLength: limits.maximumAttachmentLength, offset: part?.offset ?? 0, line: part?.line ?? 1)
        self.file = file
        self.limits = limits
        skims = skimming
        parsedNames = skimming ? Self.skimmedNames : reading == .listing ? Self.listedNames : nil
        endsInsideCalendar = part?.endsInsideCalendar ?? false
        if part?.startsInsideCalendar == true { calendarDepth = 1 }
    }

    /// Whether the input is a part that ends inside its calendar, whose end is not missing.
    private let endsInsideCalendar: Bool

    /// The physical lines read so far: the line before the next one's.
    var physicalLinesRead: Int { lines.physicalLinesRead }

    /// The names skimming parses in a top-level VEVENT: the structure, and what the scanner reads.
    private static let skimmedNames = PropertyNames(["BEGIN", "END", "UID", "DTSTART"].map { Array($0.utf8) })
    private static let listedNames = PropertyNames(EventReading.listedNames)
    private static let structureNames = PropertyNames(["BEGIN", "END"].map { Array($0.utf8) })

    /// Whether the line in `bytes`, read inside a top-level VEVENT, is left unparsed: one not among
    /// `parsedNames`, or, reading a listing, any line of a component inside the event but its BEGIN
    /// and END. A VEVENT or VTIMEZONE misplaced inside the event is read whole: it is lifted out.
    private func leavesUnparsed(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard let parsedNames else { return false }
        if stack.count == 1 { return !parsedNames.contains(nameOf: bytes) }
        guard !skims, Self.holdsNoCalendarComponent(stack) else { return false }
        return !Self.structureNames.contains(nameOf: bytes)
    }

    /// `listed`, the last component handed on, a skimmed or listed VEVENT, read again in full, from
    /// its lines kept or, when they were passed over, from the input (its lines numbered as they
    /// were): what a reader that parses every line hands on for it. The defects of the lines read
    /// again are not reported again.
    func parsedInFull(_ listed: ContentComponent) -> ContentComponent? {
        if passesOver, let rereading {
            let part = CalendarPart(
                offset: componentOffset, line: listed.line, startsInsideCalendar: true, endsInsideCalendar: false)
            var reader = ComponentReader(
                source: rereading(componentOffset), file: file, limits: limits, part: part)
            return reader.component(beginningAt: componentOffset)
        }
        guard let begin = skimmedLines.first else { return nil }
        var reader = ComponentReader(source: InMemoryByteSource([]), file: file, limits: limits)
        reader.replayed = (skimmedLines, skimmedBytes)
        return reader.component(beginningAt: begin.offset)
    }

    /// The component that begins at `offset`. Components misplaced inside it are handed on too,
    /// before or after it: those are read past.
    private mutating func component(beginningAt offset: Int) -> ContentComponent? {
        while let item = next() {
            if case .component(let component) = item, componentOffset == offset { return component }
        }
        return nil
    }

    /// The next calendar property or complete top-level component, or nil at the end.
    mutating func next() -> Item? {
        defer { takeLineDiagnostics() }
        // Taken out while lines are parsed from `scratch`, which is borrowed meanwhile.
        var names = self.names
        self.names = ContentNames()
        defer { self.names = names }
        if !lifted.isEmpty {
            let (component, offset) = lifted.removeFirst()
            componentOffset = offset
            lastComponentIsSkimmed = false
            return .component(component)
        }
        while true {
            guard let logical = nextLine() else { break }
            // Asked only of a reader that leaves lines unparsed: comparing the name is a cost per line.
            let inSkimmedEvent = parsedNames != nil && stack.first?.name == "VEVENT"
            if inSkimmedEvent && !passesOver { keepSkimmed(logical) }
            if inSkimmedEvent && leavesUnparsed(scratch[logical.bytes]) {
                lineOffset = logical.offset
                continue
            }
            let item: Item?
            if let boundary = withBytes(of: logical, { line in line.withUnsafeBytes { BoundaryLine.of($0) } }) {
                lineOffset = logical.offset
                if boundary.isBegin {
                    begin(boundary.name, line: logical.line)
                    item = nil
                } else {
                    item = end(boundary.name, line: logical.line)
                }
            } else {
                guard let line = parsed(logical, names: &names) else { continue }
                lineOffset = logical.offset
                item = consume(line)
            }
            if parsedNames != nil && !passesOver && !inSkimmedEvent && stack.count == 1 && stack[0].name == "VEVENT" {
                skimmedLines.removeAll(keepingCapacity: true)
                Self.empty(&skimmedBytes)
                keepSkimmed(logical)
            }
            if let item {
                lastComponentIsSkimmed = inSkimmedEvent && stack.isEmpty
                return item
            }
            if !lifted.isEmpty { return next() }
        }
        return finish()
    }

    /// The bytes of `logical`: in `scratch`, or lent by the line reader.
    @inline(__always)
    private mutating func withBytes<Result>(
        of logical: LineReader.LogicalLine, _ body: (Span<UInt8>) -> Result
    ) -> Result {
        logical.isLent ? lines.withLentBytes(logical.bytes, body) : body(scratch.span.extracting(logical.bytes))
    }

    /// The line parsed, its problems reported; nil when it was dropped.
    @inline(__always)
    private mutating func parsed(_ logical: LineReader.LogicalLine, names: inout ContentNames) -> ContentLine? {
        var recovered: [ContentLineParser.SyntaxError] = []
        var failure: ContentLineParser.SyntaxError?
        let parsed = withBytes(of: logical) { bytes -> ContentLine? in
            do throws(ContentLineParser.SyntaxError) {
                return try ContentLineParser.parse(
                    bytes, unfoldedValue: logical.value, isASCII: logical.isASCII, line: logical.line, names: &names,
                    recovered: &recovered)
            } catch {
                failure = error
                return nil
            }
        }
        guard let line = parsed else {
            if let error = failure {
                report(
                    .error, "syntax", error.message + "; the line was dropped", line: logical.line, column: error.column
                )
            }
            return nil
        }
        for problem in recovered {
            report(.warning, problem.code, problem.message, line: logical.line, column: problem.column)
        }
        return line
    }

    /// What a first pass needs of a top-level VEVENT read at once (`LineReader.nextPlainEvent`): the
    /// values of its UID and DTSTART lines as written, nil where it has none or the line was dropped.
    struct PlainEvent {
        var uid: String?
        var start: String?
        /// The line of its BEGIN.
        var line: Int
    }

    /// The next top-level VEVENT when a skimming reader that can read its input again can read it at
    /// once, all of it plain; nil, having read nothing, for anything else, which `next` reads. Read so,
    /// no component is made of it: the first pass needs only two values, and a component of their
    /// lines, its alarms' and the item holding it, made and freed, were 1,700 instructions an event.
    /// Its offset is `componentOffset`, and it is a skimmed one for `parsedInFull(_:)` (with a
    /// component of its line).
    mutating func nextPlainEvent() -> PlainEvent? {
        guard skims, passesOver, replayed == nil, stack.isEmpty, insideCalendar, skippingDepth == 0,
            limits.maximumDepth >= 2, lifted.isEmpty
        else { return nil }
        defer { takeLineDiagnostics() }
        if scratch.count >= Self.scratchSize { Self.empty(&scratch) }
        guard
            let event = lines.nextPlainEvent(
                appendingTo: &scratch, parses: { Self.skimmedNames.contains(name: $0) },
                parsesInAlarm: { Self.structureNames.contains(name: $0) },
                initials: Self.skimmedNames.initials | Self.structureNames.initials)
        else { return nil }
        var names = self.names
        self.names = ContentNames()
        defer { self.names = names }
        // Each written so (`nextPlainEvent` made sure): a line whose parameters are plain has its
        // value after the first colon (a DTSTART's TZID: parsed, with its array and strings, it was
        // 1,300 instructions an event); any other is parsed as reading line by line parses it.
        func value(_ logical: LineReader.LogicalLine?, nameLength: Int) -> String? {
            guard let logical else { return nil }
            let value: String? = {
                let line = scratch.span.extracting(logical.bytes)
                guard let valueStart = ContentLineParser.plainValueStart(in: line, after: nameLength) else {
                    return nil
                }
                return String(validUTF8: line.extracting(valueStart...), isASCII: true)
            }()
            return value ?? parsed(logical, names: &names)?.value
        }
        let plain = PlainEvent(
            uid: value(event.uid, nameLength: "UID".utf8.count),
            start: value(event.start, nameLength: "DTSTART".utf8.count),
            line: event.line)
        componentOffset = event.offset
        lastComponentIsSkimmed = true
        return plain
    }

    /// The next logical line, in `scratch`: the line reader's, or the next of those read back.
    /// Inlined: called, its optional line went through generic value witnesses (5,300 instructions
    /// an event more).
    @inline(__always)
    private mutating func nextLine() -> LineReader.LogicalLine? {
        if scratch.count >= Self.scratchSize { Self.empty(&scratch) }
        guard let replayed else {
            guard passesOver, stack.count == 1, stack[0].name == "VEVENT" else {
                if passesOver && stack.count > 1 && Self.passesOverNestedLines(stack) {
                    return lines.next(appendingTo: &scratch) { !Self.structureNames.contains(name: $0) }
                }
                // Only a reader that parses every line is lent lines: the others keep theirs.
                return lines.next(appendingTo: &scratch, lends: parsedNames == nil)
            }
            // The reader's `parsedNames`, named as constants: captured, the struct was retained for
            // every line (0.7 % of ics→ics).
            if skims { return lines.next(appendingTo: &scratch) { !Self.skimmedNames.contains(name: $0) } }
            return lines.next(appendingTo: &scratch) { !Self.listedNames.contains(name: $0) }
        }
        guard replayedCount < replayed.lines.count else { return nil }
        defer { replayedCount += 1 }
        var line = replayed.lines[replayedCount]
        let start = scratch.count
        scratch.append(contentsOf: replayed.bytes[line.bytes])
        line.bytes = start..<scratch.count
        return line
    }

    /// Whether the lines of the component open innermost in `stack` are passed over but for their
    /// BEGIN and END: inside a top-level VEVENT (an alarm), when no calendar component misplaced in
    /// the event is open. The event is read again whole where its alarms are needed. Out of line:
    /// inlined into `nextLine`, it made every line dearer.
    @inline(never)
    private static func passesOverNestedLines(_ stack: [ContentComponent]) -> Bool {
        stack[0].name == "VEVENT" && holdsNoCalendarComponent(stack)
    }

    /// Whether no calendar component (a VEVENT, a VTIMEZONE) is open inside the top-level one of
    /// `stack`: one misplaced there is read whole, to be lifted out. Inlined: called, it made a
    /// listing 14,000 instructions an event dearer (it is asked for every line of an alarm).
    @inline(__always)
    private static func holdsNoCalendarComponent(_ stack: [ContentComponent]) -> Bool {
        !stack.dropFirst().contains { calendarComponents.contains($0.name) }
    }

    /// Keeps the line in `scratch` among the skimmed event's.
    @inline(__always)
    private mutating func keepSkimmed(_ line: LineReader.LogicalLine) {
        var kept = line
        kept.bytes = skimmedBytes.count..<(skimmedBytes.count + line.bytes.count)
        skimmedBytes.append(contentsOf: scratch[line.bytes])
        skimmedLines.append(kept)
    }

    /// Empties `bytes` for the next line or event, keeping its memory unless a long line (an inline
    /// attachment) grew it: memory stays flat after one.
    private static func empty(_ bytes: inout [UInt8]) {
        if bytes.capacity > 1 << 20 { bytes = [] } else { bytes.removeAll(keepingCapacity: true) }
    }

    private mutating func consume(_ line: consuming ContentLine) -> Item? {
        // Names are told apart by length before they are compared: most lines are none of these,
        // and comparing two strings that differ is a call (2,500 instructions an event).
        switch line.name.utf8.count {
        case 5 where line.name == "BEGIN":
            begin(line.value.uppercased(), line: line.line)
            return nil
        case 3 where line.name == "END":
            return end(line.value.uppercased(), line: line.line)
        case 11 where line.name == "X-LIC-ERROR":
            // Written by libical-based tools (Evolution, older calport peers) into files they saved.
            report(.warning, "libical-error", "libical reported: \(TextCodec.unescape(line.value))", line: line.line)
            return nil
        default:
            if skippingDepth > 0 { return nil }
            if stack.isEmpty {
                if !insideCalendar {
                    report(.error, "outside-calendar", "expected BEGIN:VCALENDAR, found \(line.name)", line: line.line)
                    return nil
                }
                return .calendarProperty(line)
            }
            // Room for four at the second line: an alarm's three made the array three times. Not at
            // the first: a component holding one line or none (a calendar may hold a million) would
            // hold room for more (issue 24's review: 163 MB → 1,008 MB).
            if stack[stack.count - 1].properties.count == 1 { stack[stack.count - 1].properties.reserveCapacity(4) }
            stack[stack.count - 1].properties.append(line)
            return nil
        }
    }

    /// Opens the component `name` (upper-case) begun on `line`.
    private mutating func begin(_ name: String, line: Int) {
        if skippingDepth > 0 {
            skippingDepth += 1
            return
        }
        if name == "VCALENDAR" && stack.isEmpty {
            if insideCalendar {
                report(.warning, "nested-calendar", "BEGIN:VCALENDAR inside a calendar; merged", line: line)
            }
            calendarDepth += 1
            return
        }
        if !insideCalendar && stack.isEmpty {
            report(
                .warning, "outside-calendar", "BEGIN:\(name) outside BEGIN:VCALENDAR; read as part of a calendar",
                line: line)
            calendarDepth = 1
        }
        if stack.count >= limits.maximumDepth {
            report(
                .error, "nesting-limit",
                "components nest deeper than \(limits.maximumDepth); BEGIN:\(name) and its contents were skipped",
                line: line)
            skippingDepth = 1
            return
        }
        openedAt.append(lineOffset)
        var component = ContentComponent(name: name, line: line)
        // An event's lines, at once: grown one by one, the array was made and copied six times.
        if name == "VEVENT" { component.properties.reserveCapacity(32) }
        stack.append(component)
    }

    /// Closes the component `name` (upper-case) ended on `line`; the top-level component it completes.
    private mutating func end(_ name: String, line: Int) -> Item? {
        if skippingDepth > 0 {
            skippingDepth -= 1
            return nil
        }
        if stack.isEmpty {
            if name == "VCALENDAR" && insideCalendar {
                calendarDepth -= 1
            } else {
                report(.error, "unmatched-end", "END:\(name) without a matching BEGIN", line: line)
            }
            return nil
        }
        guard let depth = stack.lastIndex(where: { $0.name == name }) else {
            report(
                .error, "unmatched-end",
                "END:\(name) does not close BEGIN:\(stack[stack.count - 1].name) of line \(stack[stack.count - 1].line)",
                line: line)
            return nil
        }
        while stack.count - 1 > depth {
            let open = stack[stack.count - 1]
            report(
                .error, "missing-end", "missing END:\(open.name) for BEGIN of line \(open.line) before END:\(name)",
                line: line)
            closeTop()
        }
        return closeTop()
    }

    @discardableResult
    private mutating func closeTop() -> Item? {
        let component = stack.removeLast()
        let offset = openedAt.removeLast()
        if stack.isEmpty {
            componentOffset = offset
            return .component(component)
        }
        let parent = stack[stack.count - 1]
        // Inside an X- or unknown component it is that component's content (RFC 5545 §3.6: x-comp
        // and iana-comp hold what their definer says), kept with it.
        // An alarm, nearly always, told apart before the set is hashed.
        if component.name != "VALARM" && calendarComponents.contains(component.name)
            && rfcComponents.contains(parent.name)
        {
            // A VEVENT inside a VEVENT or VTODO (a writer that lost an END, or nested them): it is
            // complete, and belongs to the calendar, so it is read as one of its components.
            report(
                .warning, "misplaced-component",
                "BEGIN:\(component.name) of line \(component.line) is inside \(parent.name) of line \(parent.line), "
                    + "which RFC 5545 §3.6 does not allow; read as a component of the calendar",
                line: component.line)
            lifted.append((component, offset))
            return nil
        }
        stack[stack.count - 1].components.append(component)
        return nil
    }

    private mutating func finish() -> Item? {
        endedAtTopLevel = stack.isEmpty && skippingDepth == 0 && calendarDepth == 1 && lifted.isEmpty
        if let open = stack.first {
            report(
                .error, "missing-end",
                "input ended inside BEGIN:\(open.name) of line \(open.line); that component was dropped",
                line: open.line)
            stack.removeAll()
            openedAt.removeAll()
            droppedComponents += 1
        } else if insideCalendar {
            if !endsInsideCalendar { report(.warning, "missing-end", "input ended without END:VCALENDAR", line: nil) }
            calendarDepth = 0
        }
        return nil
    }

    /// Forgets the diagnostics already handed on.
    mutating func clearDiagnostics() { diagnostics.removeAll() }

    private mutating func takeLineDiagnostics() {
        // Nearly always none: appending an empty array was a call of some 150 instructions an event.
        guard !lines.diagnostics.isEmpty else { return }
        diagnostics.append(contentsOf: lines.diagnostics)
        lines.clearDiagnostics()
    }

    private mutating func report(
        _ severity: Severity, _ code: String, _ message: String, line: Int?, column: Int? = nil
    ) {
        diagnostics.append(
            Diagnostic(
                severity, code: code, message: message, location: SourceLocation(file: file, line: line, column: column)
            ))
    }
}

/// Property names a line's name is looked up among, in any case. The name of a line is the run of
/// letters, digits and hyphens `ContentLineParser` reads as one; it is compared with the names of
/// its length alone (matching it against each of a listing's twenty names, through `zip`, was 320
/// instructions a line).
private struct PropertyNames {
    /// The names, upper-case, one after another.
    private let bytes: [UInt8]
    /// For each length, where the names of that length are in `bytes`.
    private let byLength: [[Int]]

    /// A bit for each letter a name starts with, `1 << (letter - "A")` (`LineReader.nextPlainEvent`).
    let initials: UInt32

    /// The names given, upper-case, each starting with a letter.
    init(_ names: [[UInt8]]) {
        var byLength = [[Int]](repeating: [], count: (names.map(\.count).max() ?? 0) + 1)
        var bytes: [UInt8] = []
        var initials: UInt32 = 0
        for name in names {
            byLength[name.count].append(bytes.count)
            bytes += name
            precondition(name.first.map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) } == true)
            initials |= 1 << (name[0] - UInt8(ascii: "A"))
        }
        self.bytes = bytes
        self.byLength = byLength
        self.initials = initials
    }

    /// Whether the line in `line` begins with one of the names.
    func contains(nameOf line: ArraySlice<UInt8>) -> Bool {
        line.withUnsafeBufferPointer { line in
            // One byte more than the longest name tells a longer name from it.
            var length = 0
            while length < line.count && length < byLength.count && ContentLineParser.isNameByte(line[length]) {
                length += 1
            }
            return contains(name: UnsafeBufferPointer(rebasing: line[..<length]))
        }
    }

    /// Whether `name`, in any case, is one of the names.
    func contains(name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard name.count < byLength.count else { return false }
        return bytes.withUnsafeBufferPointer { names in
            byLength[name.count].contains { start in
                name.indices.allSatisfy { index in
                    let byte = name[index]
                    return names[start + index] == ((0x61...0x7A).contains(byte) ? byte - 0x20 : byte)
                }
            }
        }
    }
}

/// Components RFC 5545 §3.6 allows only directly in VCALENDAR.
private let calendarComponents: Set<String> = ["VEVENT", "VTODO", "VJOURNAL", "VFREEBUSY", "VTIMEZONE"]

/// The components RFC 5545 and RFC 7953 define, inside which one of `calendarComponents` is misplaced.
private let rfcComponents: Set<String> = calendarComponents.union([
    "VALARM", "STANDARD", "DAYLIGHT", "VAVAILABILITY", "AVAILABLE",
])

/// What the component reader hands on: a calendar property, or a complete top-level component.
enum ContentItem {
    case calendarProperty(ContentLine)
    case component(ContentComponent)
}
