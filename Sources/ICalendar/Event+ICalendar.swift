import CalendarModel

extension Event {
    /// The UID a VEVENT is read with: its first UID property, unescaped; empty when it has none.
    static func uid(of component: ContentComponent) -> String {
        component.properties.first { $0.name == "UID" }.map { TextCodec.unescape($0.value) } ?? ""
    }

    /// Reads a VEVENT; nil when a property that decides when the event happens is invalid (the
    /// error is in `context.diagnostics`).
    init?(component: ContentComponent, context: inout DecodingContext) {
        var uid = Event.uid(of: component)
        if uid.isEmpty {
            // RFC 5545 requires a UID, and a CalDAV server refuses an event without one.
            uid = context.derivedUID(for: component)
            context.report(
                .warning, "missing-uid", "VEVENT has no UID; written with \(uid), derived from its content",
                line: component.line)
        }
        self.init(uid: uid)
        context.uid = uid
        // DTSTART first: RRULE's UNTIL reads its form from it.
        let startIndex = component.properties.firstIndex { $0.name == "DTSTART" }
        if let startIndex {
            guard let time = context.time(component.properties[startIndex]) else { return nil }
            start = time
            let unread = component.properties[startIndex].parameters(excluding: EventProperty.start.parametersRead)
            if !unread.isEmpty { propertyParameters["DTSTART"] = unread }
        }
        // The singletons read so far, by their bits: a set of names cost a twentieth of reading an event.
        var seen: UInt32 = startIndex == nil ? 0 : Event.startBit
        // Noted as the lines are read: looked for after them, each name was compared again.
        var hasRecurrenceIDLine = false
        for index in component.properties.indices where index != startIndex {
            let line = component.properties[index]
            let reading = EventProperty.reading(line.name)
            if reading?.property == .recurrenceID { hasRecurrenceIDLine = true }
            if let reading, reading.bit != 0 {
                let bit = reading.bit
                // DTEND and DURATION fill one slot (RFC 5545 §3.6.1 allows one): the first one read wins.
                let slot = reading.property == .duration ? .end : reading.property
                let slotBit = reading.property == .duration ? Event.endBit : bit
                if seen & slotBit != 0 && holdsValue(of: slot) {
                    if seen & bit != 0 {
                        context.report(
                            .warning, "duplicate-property", "second \(line.name) in VEVENT kept as an extra property",
                            line: line.line)
                    } else {
                        context.report(
                            .warning, "dtend-and-duration",
                            "VEVENT has both DTEND and DURATION; \(line.name) kept as an extra property",
                            line: line.line)
                    }
                    extraProperties.append(ExtraProperty(line))
                    continue
                }
                seen |= slotBit | bit
            }
            guard decode(line, as: reading, context: &context) else { return nil }
        }
        if recurrenceID.isNil, hasRecurrenceIDLine {
            // Under the series' UID it would be read as another version of the master, which it is not.
            let own = context.derivedUID(for: component)
            context.report(
                .warning, "unmatched-override",
                "override of UID \(uid) has no readable RECURRENCE-ID; kept as an event of its own, UID \(own)",
                line: component.line)
            self.uid = own
            context.uid = own
        }
        // RFC 5545 §3.6.1: a DATE start without DTEND or DURATION lasts one day. Stating it means
        // the written VEVENT has the exclusive next-day DTEND that Outlook and Google expect.
        if end.isNil, case .date(let date) = start { end = .end(.date(date.adding(days: 1))) }
        adoptAppleStructuredLocation()
        // A listing reads no alarms or links, and the components inside the event were left unread.
        guard context.reading == .whole else { return }
        adoptConferenceLinks()
        for child in component.components {
            if child.name == "VALARM", let alarm = Alarm.reading(child, context: &context) {
                alarms.append(alarm)
            } else if child.name != "VALARM" {
                extraComponents.append(ExtraComponent(child))
            }
        }
    }

    /// Whether the singleton read so far under `slot` left a value. One dropped as unreadable did
    /// not, so a later copy gives the value instead of being kept verbatim: kept, it would be the
    /// first copy when the output is read again, and dropped or read there, which a second reading
    /// must not change.
    private func holdsValue(of slot: EventProperty) -> Bool {
        switch slot {
        case .sequence: sequence != nil
        case .priority: priority != nil
        case .end: !end.isNil
        case .geo: locations.first?.coordinates != nil
        case .created: !created.isNil
        case .lastModified: !lastModified.isNil
        case .timestamp: !timestamp.isNil
        case .recurrenceID: !recurrenceID.isNil
        default: true
        }
    }

    /// What reading does with a DTEND or DURATION it cannot read: RFC 5545 §3.6.1's end for an event
    /// without one, a DATE start lasting the day and a DATE-TIME start taking no time.
    static func defaultEnd(after start: CalendarTime?) -> String {
        if case .date = start { return "the property was dropped; the event lasts its one day (RFC 5545 §3.6.1)" }
        return "the property was dropped; the event ends when it starts (RFC 5545 §3.6.1)"
    }

    /// A floating time beside a zoned DTSTART, read in DTSTART's zone as its writer meant (RFC 5545
    /// §3.8.2.2 and §3.8.4.4 want DTEND and RECURRENCE-ID in DTSTART's form); read as UTC, the event
    /// would end before it starts or its override miss its instance.
    private func inStartZone(_ time: CalendarTime, _ line: ContentLine, _ context: inout DecodingContext)
        -> CalendarTime
    {
        guard case .floating(let local) = time, case .zoned(_, let zone) = start else { return time }
        context.report(
            .note, "floating-beside-zoned",
            "\(line.name) has a floating time beside DTSTART in \(zone.name); read in that zone", line: line.line)
        return .zoned(local, zone)
    }

    private static let startBit = EventProperty.bit(of: .start)
    private static let endBit = EventProperty.bit(of: .end)

    /// Reads `line`, a property `reading` says how to read (nil: one the model does not read).
    private mutating func decode(
        _ line: ContentLine, as reading: EventProperty.Reading?, context: inout DecodingContext
    ) -> Bool {
        // The parameters a singleton's value does not hold are kept beside it; a location's and the
        // organizer's go with their values, as do those of the properties that repeat (an attendee's)
        // and of those the model does not read: for these they are not looked at here.
        var unread: [Parameter] = []
        if !line.parameters.isEmpty, let reading, reading.bit != 0, reading.property != .location,
            reading.property != .organizer
        {
            unread = line.parameters(excluding: reading.property.parametersRead)
            if !unread.isEmpty { propertyParameters[line.name] = unread }
        }
        switch reading?.property {
        case .uid?: break
        case .sequence?: sequence = context.integer(line)
        case .summary?: summary = TextCodec.unescape(line.value)
        case .description?: description = TextCodec.unescape(line.value)
        case .htmlDescription?:
            if line.parameter("FMTTYPE")?.lowercased() == "text/html" {
                htmlDescription = TextCodec.unescape(line.value)
            } else {
                propertyParameters[line.name] = nil
                extraProperties.append(ExtraProperty(line))
            }
        case .end?:
            if let time = context.time(line, recovery: Event.defaultEnd(after: start)) {
                end = .end(inStartZone(time, line, &context))
            }
        case .duration?:
            if let duration = context.duration(line, from: start, recovery: Event.defaultEnd(after: start)) {
                end = .duration(duration)
            }
        case .location?, .calportLocation?:
            var location = Location(line: line)
            // A GEO read before LOCATION left a nameless first location holding its coordinates.
            if reading?.property == .location, locations.count == 1, let geo = locations[0].coordinates,
                locations[0] == Location(name: "", coordinates: geo)
            {
                location.coordinates = location.coordinates ?? geo
                locations[0] = location
            } else {
                locations.append(location)
            }
        case .geo?:
            guard let geo = Libical.parseGeo(line.value) else {
                context.report(
                    .warning, "invalid-value", "GEO '\(line.value)' is not 'latitude;longitude'; dropped",
                    line: line.line)
                return true
            }
            if locations.isEmpty { locations.append(Location(name: "")) }
            locations[0].coordinates = geo
        case .organizer?: organizer = Participant(line: line)
        case .attendee?:
            // Room for four at the second: grown one by one, three attendees made the array three
            // times. Not at the first, which most events' only attendee would leave unused.
            if attendees.count == 1 { attendees.reserveCapacity(4) }
            attendees.append(.reading(line))
        case .status?: status = EventStatus(token: line.value)
        case .transparency?: transparency = line.value.caseInsensitiveEquals("TRANSPARENT") ? .transparent : .opaque
        case .busyStatus?: busyStatus = BusyStatus(token: line.value)
        case .classification?: classification = Classification(token: line.value)
        case .priority?: priority = context.integer(line, in: 0...9)
        case .importance?: importance = Importance(token: line.value)
        case .categories?: categories += TextCodec.splitList(line.value)
        case .url?: url = line.value
        case .conference?: conferences.append(Conference(line: line))
        case .rule?, .exceptionRule?:
            // A rule that cannot be read is dropped (`recurrence` says why): the event is kept. A rule
            // RFC 5545 leaves no meaning to keeps its event too, as a single event (DTSTART).
            guard let read = context.recurrence(line, start: start),
                let rule = context.checked(read, line: line, start: start)
            else { break }
            if reading?.property == .rule { recurrenceRules.append(rule) } else { exceptionRules.append(rule) }
        case .recurrenceDates?: recurrenceDates += context.recurrenceDates(line)
        case .exceptionDates?: exceptionDates += context.exceptionDates(line).map { inStartZone($0, line, &context) }
        case .recurrenceID?:
            // Unreadable, the override can still be placed in time by its DTSTART: `init` keeps it.
            guard let time = context.time(line, recovery: "the VEVENT is kept as an event of its own") else { break }
            recurrenceID = RecurrenceIdentifier(
                time: inStartZone(time, line, &context),
                thisAndFuture: line.parameter("RANGE")?.uppercased() == "THISANDFUTURE")
        case .created?: created = context.time(line, recovery: "the property was dropped")
        case .lastModified?: lastModified = context.time(line, recovery: "the property was dropped")
        case .timestamp?: timestamp = context.time(line, recovery: "the property was dropped")
        case .attachment?: attachments.append(Attachment(line: line))
        case .disallowCounter?: allowsNewTimeProposals = !line.value.caseInsensitiveEquals("TRUE")
        // A second DTSTART is kept as an extra by `init` before it gets here.
        case .start?, nil: extraProperties.append(ExtraProperty(line))
        }
        // A value dropped as unreadable takes its parameters with it: they are written only on the
        // property, so kept they would make two versions differ that read the same once written.
        if !unread.isEmpty, let reading, !holdsValue(of: reading.property == .duration ? .end : reading.property) {
            propertyParameters[line.name] = nil
        }
        return true
    }

    /// Writes the VEVENT for this event, modelled properties first in RFC 5545 order, then the extras.
    func write(to writer: inout ContentWriter, _ encoder: EncodingContext) {
        writer.begin(component: "VEVENT")
        // Parameters the input had on modelled properties go back on them.
        // Inlined so that each call knows its value's case: destroying an Optional<ContentValue>
        // of unknown case cost about 100 instructions a property.
        @inline(__always)
        func add(_ name: StaticString, _ value: ContentValue?) {
            if let value { writer.property(name, value, kept: propertyParameters) }
        }
        func addTime(_ name: StaticString, _ time: CalendarTime?, range: StaticString? = nil) {
            guard let time else { return }
            writer.property(name, .time(time), kept: propertyParameters) { writer in
                encoder.writeParameters(of: time, to: &writer)
                if let range { writer.parameter("RANGE", literal: range) }
            }
        }
        add("UID", uid.isEmpty ? nil : .text(uid))
        addTime("DTSTAMP", timestamp)
        add("SEQUENCE", sequence.map(ContentValue.integer))
        addTime("RECURRENCE-ID", recurrenceID?.time, range: recurrenceID?.thisAndFuture == true ? "THISANDFUTURE" : nil)
        addTime("DTSTART", start)
        switch end {
        case .end(let time): addTime("DTEND", time)
        case .duration(let duration): add("DURATION", .duration(duration))
        case nil: break
        }
        add("SUMMARY", summary.map(ContentValue.text))
        add("DESCRIPTION", description.map(ContentValue.text))
        if let htmlDescription {
            writer.property("X-ALT-DESC", .text(htmlDescription), kept: propertyParameters) { writer in
                writer.parameter("FMTTYPE", literal: "text/html")
            }
        }
        for (index, location) in locations.enumerated() {
            location.write(to: &writer, primary: index == 0)
        }
        // The pin first: it is nil without coordinates, which spares most events the search of their extras.
        if let pin = appleStructuredLocationLine, !hasOwnAppleStructuredLocation { writer.write(pin) }
        organizer?.write(to: &writer, name: "ORGANIZER")
        for attendee in attendees { attendee.write(to: &writer) }
        add("STATUS", status?.contentValue)
        add("TRANSP", transparency.map { .literal($0 == .transparent ? "TRANSPARENT" : "OPAQUE") })
        add("X-MICROSOFT-CDO-BUSYSTATUS", busyStatus?.contentValue)
        add("CLASS", classification?.contentValue)
        add("PRIORITY", priority.map(ContentValue.integer))
        add("X-MICROSOFT-CDO-IMPORTANCE", importance?.contentValue)
        // One CATEGORIES line: RFC 5545 allows several, but ics-py 0.7.3 refuses a second one.
        if !categories.isEmpty { add("CATEGORIES", .textList(categories)) }
        add("URL", url.map(ContentValue.raw))
        for conference in conferences { writer.write(conference.contentLine) }
        for rule in recurrenceRules { writer.write(encoder.recurrenceLine("RRULE", rule)) }
        for rule in exceptionRules { writer.write(encoder.recurrenceLine("EXRULE", rule)) }
        for date in recurrenceDates { writer.write(encoder.recurrenceDateLine(date)) }
        for date in exceptionDates { addTime("EXDATE", date) }
        addTime("CREATED", created)
        addTime("LAST-MODIFIED", lastModified)
        for attachment in attachments { writer.write(attachment.contentLine) }
        add("X-MICROSOFT-DISALLOW-COUNTER", allowsNewTimeProposals.map { .literal($0 ? "FALSE" : "TRUE") })
        for property in extraProperties { writer.write(ContentLine(property)) }
        for alarm in alarms { alarm.write(to: &writer) }
        for component in extraComponents { writer.write(ContentComponent(component)) }
        writer.end(component: "VEVENT")
    }
}

extension BusyStatus: ICalendarToken {
    static let tokens: [(BusyStatus, StaticString)] = [
        (.free, "FREE"), (.tentative, "TENTATIVE"), (.busy, "BUSY"), (.outOfOffice, "OOF"),
        (.workingElsewhere, "WORKINGELSEWHERE"), (.unknown, "UNKNOWN"),
    ]
    static func other(_ token: String) -> BusyStatus { .unknown }
}

extension Importance: ICalendarToken {
    static let tokens: [(Importance, StaticString)] = [(.low, "0"), (.normal, "1"), (.high, "2")]
    static func other(_ token: String) -> Importance { .normal }
}
