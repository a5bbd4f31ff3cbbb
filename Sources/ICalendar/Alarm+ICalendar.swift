import CalendarModel

extension Alarm {
    /// Reads a VALARM; nil (with an error) when it has no usable ACTION or TRIGGER.
    init?(component: ContentComponent, context: inout DecodingContext) {
        guard let actionLine = component.properties.first(where: { $0.name == "ACTION" }),
            let triggerLine = component.properties.first(where: { $0.name == "TRIGGER" })
        else {
            context.report(
                .error, "invalid-alarm", "VALARM without ACTION or TRIGGER was dropped", line: component.line)
            return nil
        }
        let trigger: Trigger
        if triggerLine.parameter("VALUE")?.uppercased() == "DATE-TIME" {
            guard let time = context.time(text: triggerLine.value, line: triggerLine, valueType: "DATE-TIME") else {
                return nil
            }
            trigger = .absolute(time)
        } else {
            guard let duration = context.duration(triggerLine) else { return nil }
            trigger = .relative(duration, relatedToEnd: triggerLine.parameter("RELATED")?.uppercased() == "END")
        }
        self.init(action: Action(token: actionLine.value), trigger: trigger)
        for line in component.properties {
            let unread = line.parameters(excluding: ["VALUE", "RELATED"])
            switch line.name {
            case "ACTION", "TRIGGER":
                if !unread.isEmpty { propertyParameters[line.name] = unread }
            case "SUMMARY": summary = TextCodec.unescape(line.value)
            case "DESCRIPTION": description = TextCodec.unescape(line.value)
            case "REPEAT": repeatCount = context.integer(line)
            case "DURATION": repeatInterval = context.duration(line)
            case "ATTENDEE": attendees.append(Participant(line: line))
            case "ATTACH": attachments.append(Attachment(line: line))
            default: extraProperties.append(ExtraProperty(line))
            }
            if ["SUMMARY", "DESCRIPTION", "REPEAT", "DURATION"].contains(line.name) && !line.parameters.isEmpty {
                propertyParameters[line.name] = line.parameters
            }
        }
        extraComponents = component.components.map(ExtraComponent.init)
    }

    func contentComponent(_ encoder: EncodingContext) -> ContentComponent {
        var lines = [ContentLine(name: "ACTION", parameters: propertyParameters["ACTION"] ?? [], value: action.token)]
        switch trigger {
        case .relative(let duration, let relatedToEnd):
            let related = relatedToEnd ? [Parameter("RELATED", "END")] : []
            lines.append(
                ContentLine(
                    name: "TRIGGER", parameters: related + (propertyParameters["TRIGGER"] ?? []),
                    value: Libical.formatDuration(duration)))
        case .absolute(let time):
            var line = encoder.timeLine("TRIGGER", time)
            line.parameters = [Parameter("VALUE", "DATE-TIME")] + (propertyParameters["TRIGGER"] ?? [])
            lines.append(line)
        }
        func add(_ name: String, _ value: String?) {
            if let value {
                lines.append(ContentLine(name: name, parameters: propertyParameters[name] ?? [], value: value))
            }
        }
        add("SUMMARY", summary.map(TextCodec.escape))
        add("DESCRIPTION", description.map(TextCodec.escape))
        add("REPEAT", repeatCount.map(String.init))
        add("DURATION", repeatInterval.map(Libical.formatDuration))
        lines += attendees.map { $0.contentLine(name: "ATTENDEE") }
        lines += attachments.map(\.contentLine)
        lines += extraProperties.map(ContentLine.init)
        return ContentComponent(
            name: "VALARM", properties: lines, components: extraComponents.map(ContentComponent.init))
    }
}
