import CalendarModel

extension Alarm {
    /// Reads a VALARM; nil (with an error) when it has no usable ACTION or TRIGGER. Made here and
    /// returned: an `init` delegating to the model's made the alarm aside and copied it into place.
    static func reading(_ component: ContentComponent, context: inout DecodingContext) -> Alarm? {
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
        var alarm = Alarm(action: Action(token: actionLine.value), trigger: trigger)
        // A line's parameters are looked at only when it has some: an array made and names compared
        // for every line were a third of reading an alarm.
        func keepParameters(of line: ContentLine, excluding read: [String] = []) {
            guard !line.parameters.isEmpty else { return }
            let kept = line.parameters(excluding: read)
            if !kept.isEmpty { alarm.propertyParameters[line.name] = kept }
        }
        for line in component.properties {
            switch line.name {
            case "ACTION", "TRIGGER": keepParameters(of: line, excluding: ["VALUE", "RELATED"])
            case "SUMMARY":
                alarm.summary = TextCodec.unescape(line.value)
                keepParameters(of: line)
            case "DESCRIPTION":
                alarm.description = TextCodec.unescape(line.value)
                keepParameters(of: line)
            case "REPEAT":
                alarm.repeatCount = context.integer(line)
                keepParameters(of: line)
            case "DURATION":
                alarm.repeatInterval = context.duration(line)
                keepParameters(of: line)
            case "ATTENDEE": alarm.attendees.append(Participant(line: line))
            case "ATTACH": alarm.attachments.append(Attachment(line: line))
            default: alarm.extraProperties.append(ExtraProperty(line))
            }
        }
        alarm.extraComponents = component.components.map(ExtraComponent.init)
        return alarm
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
