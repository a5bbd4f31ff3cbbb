import CalendarModel

/// Reads iCalendar text (RFC 5545) into a `CalendarDocument`, keeping every valid event and
/// reporting each problem as a `Diagnostic` with its file and line.
public struct ICalendarParser: Sendable {
    /// The deepest BEGIN nesting accepted; deeper components are skipped with an error.
    public var maximumDepth: Int

    public init(maximumDepth: Int = 64) {
        self.maximumDepth = maximumDepth
    }

    /// The outcome of a parse: the document, what went wrong, and how many components were dropped.
    public struct Result: Sendable {
        public var document: CalendarDocument
        public var diagnostics: [Diagnostic]
        /// Events (and other components) that could not be kept because they were invalid.
        public var droppedComponents: Int
    }

    /// Parses a whole calendar. VTIMEZONEs may come after the events that use them.
    public func parse(_ bytes: [UInt8], file: String? = nil) -> Result {
        var reader = ComponentReader(bytes: bytes, file: file, maximumDepth: maximumDepth)
        var document = CalendarDocument()
        var components: [ContentComponent] = []
        var calendarProperties: [ContentLine] = []
        while let item = reader.next() {
            switch item {
            case .calendarProperty(let line): calendarProperties.append(line)
            case .component(let component): components.append(component)
            }
        }
        var diagnostics = reader.diagnostics
        var dropped = diagnostics.filter { $0.code == "missing-end" && $0.severity == .error }.count
        let zoneIDs = Set(
            components.filter { $0.name == "VTIMEZONE" }.compactMap { $0.properties.first { $0.name == "TZID" }?.value }
        )
        var context = DecodingContext(file: file, definedZones: zoneIDs)
        decodeCalendarProperties(calendarProperties, into: &document, context: &context)
        for component in components {
            context.uid = nil
            switch component.name {
            case "VEVENT":
                if let event = Event(component: component, context: &context) {
                    document.events.append(event)
                } else {
                    dropped += 1
                }
            case "VTIMEZONE":
                if let zone = TimeZoneDefinition(component: component, context: &context) {
                    document.timeZones.append(zone)
                } else {
                    dropped += 1
                }
            default:
                document.otherComponents.append(ExtraComponent(component))
            }
        }
        diagnostics += context.diagnostics
        return Result(document: document, diagnostics: diagnostics, droppedComponents: dropped)
    }

    private func decodeCalendarProperties(
        _ lines: [ContentLine], into document: inout CalendarDocument, context: inout DecodingContext
    ) {
        for line in lines {
            let plain = line.parameters.isEmpty
            switch line.name {
            case "VERSION" where plain:
                if line.value != "2.0" {
                    context.report(.warning, "version", "VERSION is '\(line.value)', not 2.0; read as iCalendar 2.0", line: line.line)
                }
            case "PRODID" where plain: set(&document.productID, line, context: &context)
            case "METHOD" where plain: set(&document.method, line, context: &context)
            case "X-WR-CALNAME" where plain && document.name == nil: document.name = TextCodec.unescape(line.value)
            case "X-WR-TIMEZONE" where plain && document.timeZoneHint == nil: document.timeZoneHint = line.value
            default: document.extraProperties.append(ExtraProperty(line))
            }
        }
    }

    /// A calendar property RFC 5545 allows once; a second calendar in the same file may repeat it.
    private func set(_ field: inout String?, _ line: ContentLine, context: inout DecodingContext) {
        guard let existing = field else {
            field = line.value
            return
        }
        if existing != line.value {
            context.report(
                .warning, "repeated-property", "second \(line.name) '\(line.value)' ignored; the calendar keeps '\(existing)'",
                line: line.line)
        }
    }
}
