import CalendarModel

extension DecodingContext {
    /// Reads one calendar-level property into the document's header.
    mutating func decodeCalendarProperty(_ line: ContentLine, into document: inout CalendarDocument) {
        let plain = line.parameters.isEmpty
        switch line.name {
        case "VERSION" where plain:
            if line.value != "2.0" {
                report(
                    .warning, "version", "VERSION is '\(line.value)', not 2.0; read as iCalendar 2.0", line: line.line)
            }
        case "PRODID" where plain: set(&document.productID, line)
        case "METHOD" where plain: set(&document.method, line)
        case "X-WR-CALNAME" where plain && document.name == nil: document.name = TextCodec.unescape(line.value)
        case "X-WR-TIMEZONE" where plain && document.timeZoneHint == nil: document.timeZoneHint = line.value
        default: document.extraProperties.append(ExtraProperty(line))
        }
    }

    /// A calendar property RFC 5545 allows once; a second calendar in the same file may repeat it.
    private mutating func set(_ field: inout String?, _ line: ContentLine) {
        guard let existing = field else {
            field = line.value
            return
        }
        if existing != line.value {
            report(
                .warning, "repeated-property",
                "second \(line.name) '\(line.value)' ignored; the calendar keeps '\(existing)'",
                line: line.line)
        }
    }
}
