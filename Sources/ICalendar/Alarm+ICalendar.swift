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
            // The parameters kept of a property the model reads (ACTION and TRIGGER: all but those it
            // reads, VALUE and RELATED); looked at only when the line has any
            // (an array made and names compared for every line were a third of reading an alarm).
            var keptParameters: [Parameter] { line.parameters(excluding: ["VALUE", "RELATED"]) }
            let readsSomeParameters: Bool
            switch line.name {
            case "ACTION", "TRIGGER":
                readsSomeParameters = true
            case "SUMMARY":
                summary = TextCodec.unescape(line.value)
                readsSomeParameters = false
            case "DESCRIPTION":
                description = TextCodec.unescape(line.value)
                readsSomeParameters = false
            case "REPEAT":
                repeatCount = context.integer(line)
                readsSomeParameters = false
            case "DURATION":
                repeatInterval = context.duration(line)
                readsSomeParameters = false
            case "ATTENDEE":
                attendees.append(Participant(line: line))
                continue
            case "ATTACH":
                attachments.append(Attachment(line: line))
                continue
            default:
                extraProperties.append(ExtraProperty(line))
                continue
            }
            guard !line.parameters.isEmpty else { continue }
            let kept = readsSomeParameters ? keptParameters : line.parameters
            if !kept.isEmpty { propertyParameters[line.name] = kept }
        }
        extraComponents = component.components.map(ExtraComponent.init)
    }

    func write(to writer: inout ContentWriter) {
        writer.begin(component: "VALARM")
        func add(_ name: StaticString, _ value: ContentValue?, parameters: (inout ContentWriter) -> Void = { _ in }) {
            if let value { writer.property(name, value, kept: propertyParameters, parameters: parameters) }
        }
        add("ACTION", action.contentValue)
        switch trigger {
        case .relative(let duration, let relatedToEnd):
            add("TRIGGER", .duration(duration)) { writer in
                if relatedToEnd { writer.parameter("RELATED", literal: "END") }
            }
        case .absolute(let time):
            add("TRIGGER", .time(time)) { writer in writer.parameter("VALUE", literal: "DATE-TIME") }
        }
        add("SUMMARY", summary.map(ContentValue.text))
        add("DESCRIPTION", description.map(ContentValue.text))
        add("REPEAT", repeatCount.map(ContentValue.integer))
        add("DURATION", repeatInterval.map(ContentValue.duration))
        for attendee in attendees { attendee.write(to: &writer, name: "ATTENDEE") }
        for attachment in attachments { writer.write(attachment.contentLine) }
        for property in extraProperties { writer.write(ContentLine(property)) }
        for component in extraComponents { writer.write(ContentComponent(component)) }
        writer.end(component: "VALARM")
    }
}
