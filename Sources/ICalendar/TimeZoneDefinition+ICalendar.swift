import CalendarModel

extension TimeZoneDefinition {
    /// Reads a VTIMEZONE; nil (with an error) without a TZID.
    init?(component: ContentComponent, context: inout DecodingContext) {
        guard let tzid = component.properties.first(where: { $0.name == "TZID" })?.value, !tzid.isEmpty else {
            context.report(.error, "invalid-vtimezone", "VTIMEZONE without TZID was dropped", line: component.line)
            return nil
        }
        self.init(identifier: TimeZoneReference(resolvingName: tzid, cache: &context.resolvedNames).name)
        extraProperties = component.properties.filter { $0.name != "TZID" }.map(ExtraProperty.init)
        for child in component.components {
            guard child.name == "STANDARD" || child.name == "DAYLIGHT" else {
                context.report(
                    .warning, "dropped-component", "\(child.name) inside VTIMEZONE \(tzid) was dropped",
                    line: child.line)
                continue
            }
            if let observance = TimeZoneObservance(component: child, context: &context) {
                observances.append(observance)
            }
        }
        // RFC 5545 §3.6.5 requires at least one; written empty, Outlook and vobject reject the file.
        // Dropped, the TZID resolves by name (and gets a VTIMEZONE from tzdata) or is reported unknown.
        if observances.isEmpty {
            context.report(
                .error, "invalid-vtimezone", "VTIMEZONE \(tzid) has no valid STANDARD or DAYLIGHT rules; dropped",
                line: component.line)
            return nil
        }
    }

    func contentComponent(_ encoder: EncodingContext) -> ContentComponent {
        let tzid = ContentLine(name: "TZID", value: identifier)
        return ContentComponent(
            name: "VTIMEZONE", properties: [tzid] + extraProperties.map(ContentLine.init),
            components: observances.map { $0.contentComponent(encoder) })
    }
}

extension TimeZoneObservance {
    init?(component: ContentComponent, context: inout DecodingContext) {
        let lines = Dictionary(component.properties.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        guard let startLine = lines["DTSTART"], let start = Libical.parseTime(startLine.value), start.local.isValid,
            let fromLine = lines["TZOFFSETFROM"], let from = Libical.parseUTCOffset(fromLine.value),
            let toLine = lines["TZOFFSETTO"], let to = Libical.parseUTCOffset(toLine.value)
        else {
            context.report(
                .error, "invalid-vtimezone",
                "\(component.name) needs a valid DTSTART, TZOFFSETFROM and TZOFFSETTO; dropped",
                line: component.line)
            return nil
        }
        self.init(
            kind: component.name == "DAYLIGHT" ? .daylight : .standard, start: start.local, offsetFrom: from,
            offsetTo: to)
        for line in component.properties {
            switch line.name {
            case "DTSTART", "TZOFFSETFROM", "TZOFFSETTO": break
            case "TZNAME": names.append(TextCodec.unescape(line.value))
            case "RRULE": rule = context.recurrence(line, start: nil)
            case "RDATE":
                for text in line.value.split(separator: ",") {
                    if let date = Libical.parseTime(String(text)) { dates.append(date.local) }
                }
            default: extraProperties.append(ExtraProperty(line))
            }
        }
    }

    func contentComponent(_ encoder: EncodingContext) -> ContentComponent {
        var lines = [
            ContentLine(name: "DTSTART", value: DateTimeText.format(start, isDate: false, isUTC: false)),
            ContentLine(name: "TZOFFSETFROM", value: Libical.formatUTCOffset(offsetFrom)),
            ContentLine(name: "TZOFFSETTO", value: Libical.formatUTCOffset(offsetTo)),
        ]
        lines += names.map { ContentLine(name: "TZNAME", value: TextCodec.escape($0)) }
        if let rule { lines.append(encoder.recurrenceLine("RRULE", rule)) }
        lines += dates.map { ContentLine(name: "RDATE", value: DateTimeText.format($0, isDate: false, isUTC: false)) }
        lines += extraProperties.map(ContentLine.init)
        return ContentComponent(name: kind == .daylight ? "DAYLIGHT" : "STANDARD", properties: lines)
    }
}
