import CalendarModel

extension DecodingContext {
    /// Reads one calendar-level property into the document's header.
    ///
    /// The RFC 7986 properties and the X-WR ones Google and Outlook use say the same thing: the first
    /// of either sets the field, a later one saying the same is absorbed (calport writes both), and a
    /// later one saying something else is kept verbatim.
    mutating func decodeCalendarProperty(_ line: ContentLine, into document: inout CalendarDocument) {
        let plain = line.parameters.isEmpty
        let value = line.parameter("VALUE")?.uppercased()
        switch line.name {
        case "VERSION":
            if line.value != "2.0" {
                report(
                    .warning, "version", "VERSION is '\(line.value)', not 2.0; read as iCalendar 2.0", line: line.line)
            }
            reportParametersDropped(line)
        case "PRODID":
            set(&document.productID, line)
            reportParametersDropped(line)
        case "METHOD" where plain: set(&document.method, line)
        case "NAME" where plain, "X-WR-CALNAME" where plain:
            adopt(TextCodec.unescape(line.value), \.name, line, document: &document)
        case "X-WR-TIMEZONE" where plain && document.timeZoneHint == nil: document.timeZoneHint = line.value
        case "COLOR" where plain: adopt(line.value, \.colour, line, document: &document)
        case "DESCRIPTION" where plain, "X-WR-CALDESC" where plain:
            adopt(TextCodec.unescape(line.value), \.description, line, document: &document)
        case "REFRESH-INTERVAL" where line.parameters.count == 1 && value == "DURATION",
            "X-PUBLISHED-TTL" where plain:
            guard let duration = Libical.parseDuration(line.value) else { fallthrough }
            adopt(duration, \.refreshInterval, line, document: &document)
        case "SOURCE" where line.parameters.count == 1 && value == "URI":
            adopt(line.value, \.sourceURL, line, document: &document)
        default: document.extraProperties.append(ExtraProperty(line))
        }
    }

    /// VERSION and PRODID are written once, as calport writes them (RFC 5545 §3.6 allows one of
    /// each): parameters on them cannot be kept, and kept as an extra property they made a second one.
    private mutating func reportParametersDropped(_ line: ContentLine) {
        guard !line.parameters.isEmpty else { return }
        let names = line.parameters.map(\.name).joined(separator: ", ")
        report(
            .warning, "parameters-dropped",
            "parameters \(names) of \(line.name) dropped; calport writes one \(line.name) of its own", line: line.line)
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

    private func adopt<Value: Equatable>(
        _ value: Value, _ field: WritableKeyPath<CalendarDocument, Value?>, _ line: ContentLine,
        document: inout CalendarDocument
    ) {
        if document[keyPath: field] == nil {
            document[keyPath: field] = value
        } else if document[keyPath: field] != value {
            document.extraProperties.append(ExtraProperty(line))
        }
    }
}

extension CalendarDocument {
    /// The calendar's own properties, each in its RFC 7986 form and the X-WR form Google and Outlook read.
    var headerLines: [ContentLine] {
        var lines = [
            ContentLine(name: "VERSION", value: "2.0"),
            ContentLine(name: "PRODID", value: productID ?? ICalendarSerializer.defaultProductID),
        ]
        if let method { lines.append(ContentLine(name: "METHOD", value: method)) }
        if let name {
            lines += ["NAME", "X-WR-CALNAME"].map { ContentLine(name: $0, value: TextCodec.escape(name)) }
        }
        if let description {
            lines += ["DESCRIPTION", "X-WR-CALDESC"].map { ContentLine(name: $0, value: TextCodec.escape(description)) }
        }
        if let timeZoneHint { lines.append(ContentLine(name: "X-WR-TIMEZONE", value: timeZoneHint)) }
        if let colour { lines.append(ContentLine(name: "COLOR", value: colour)) }
        if let refreshInterval {
            let text = DurationText.format(refreshInterval)
            lines.append(
                ContentLine(name: "REFRESH-INTERVAL", parameters: [Parameter("VALUE", "DURATION")], value: text))
            lines.append(ContentLine(name: "X-PUBLISHED-TTL", value: text))
        }
        if let sourceURL {
            lines.append(ContentLine(name: "SOURCE", parameters: [Parameter("VALUE", "URI")], value: sourceURL))
        }
        return lines + extraProperties.map(ContentLine.init)
    }
}
