import CalendarModel

extension Event {
    /// VEVENT properties the model interprets; everything else is kept in `extraProperties`.
    static let modelledProperties: Set<String> = [
        "UID", "SEQUENCE", "SUMMARY", "DESCRIPTION", "X-ALT-DESC", "DTSTART", "DTEND", "DURATION", "LOCATION", "GEO",
        "ORGANIZER", "ATTENDEE", "STATUS", "TRANSP", "X-MICROSOFT-CDO-BUSYSTATUS", "CLASS", "PRIORITY",
        "X-MICROSOFT-CDO-IMPORTANCE", "CATEGORIES", "URL", "CONFERENCE", "RRULE", "EXRULE", "RDATE", "EXDATE",
        "RECURRENCE-ID", "CREATED", "LAST-MODIFIED", "DTSTAMP", "ATTACH", "X-MICROSOFT-DISALLOW-COUNTER",
        "X-CALPORT-LOCATION",
    ]

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
            let unread = component.properties[startIndex].parameters(excluding: ["VALUE", "TZID"])
            if !unread.isEmpty { propertyParameters["DTSTART"] = unread }
        }
        // The singletons read so far, by their bits: a set of names cost a twentieth of reading an event.
        var seen: UInt32 = startIndex == nil ? 0 : Event.startBit
        for (index, line) in component.properties.enumerated() where index != startIndex {
            if let bit = Event.singletons[line.name] {
                // DTEND and DURATION fill one slot (RFC 5545 §3.6.1 allows one): the first one read wins.
                let slot = line.name == "DURATION" ? "DTEND" : line.name
                let slotBit = line.name == "DURATION" ? Event.endBit : bit
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
            guard decode(line, context: &context) else { return nil }
        }
        if recurrenceID == nil, component.properties.contains(where: { $0.name == "RECURRENCE-ID" }) {
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
        if end == nil, case .date(let date) = start { end = .end(.date(date.adding(days: 1))) }
        adoptAppleStructuredLocation()
        adoptConferenceLinks()
        for child in component.components {
            if child.name == "VALARM", let alarm = Alarm(component: child, context: &context) {
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
    private func holdsValue(of slot: String) -> Bool {
        switch slot {
        case "SEQUENCE": sequence != nil
        case "PRIORITY": priority != nil
        case "DTEND": end != nil
        case "GEO": locations.first?.coordinates != nil
        case "CREATED": created != nil
        case "LAST-MODIFIED": lastModified != nil
        case "DTSTAMP": timestamp != nil
        case "RECURRENCE-ID": recurrenceID != nil
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

    /// Properties RFC 5545 allows once per VEVENT, each with a bit of its own.
    static let singletons: [String: UInt32] = Dictionary(
        uniqueKeysWithValues: [
            "UID", "SEQUENCE", "SUMMARY", "DESCRIPTION", "X-ALT-DESC", "DTSTART", "DTEND", "DURATION", "LOCATION",
            "GEO", "ORGANIZER", "STATUS", "TRANSP", "CLASS", "PRIORITY", "URL", "RECURRENCE-ID", "CREATED",
            "LAST-MODIFIED", "DTSTAMP", "X-MICROSOFT-CDO-BUSYSTATUS", "X-MICROSOFT-CDO-IMPORTANCE",
            "X-MICROSOFT-DISALLOW-COUNTER",
        ].enumerated().map { ($1, UInt32(1) << $0) })
    private static let startBit = singletons["DTSTART"] ?? 0
    private static let endBit = singletons["DTEND"] ?? 0

    /// Parameters of single-valued properties that the model itself reads.
    private static let parametersRead: [String: [String]] = [
        "DTSTART": ["VALUE", "TZID"], "DTEND": ["VALUE", "TZID"], "RECURRENCE-ID": ["VALUE", "TZID", "RANGE"],
        "X-ALT-DESC": ["FMTTYPE"], "DTSTAMP": ["VALUE"], "CREATED": ["VALUE"], "LAST-MODIFIED": ["VALUE"],
    ]

    private mutating func decode(_ line: ContentLine, context: inout DecodingContext) -> Bool {
        let unread = line.parameters.isEmpty ? [] : line.parameters(excluding: Event.parametersRead[line.name] ?? [])
        if !unread.isEmpty && Event.singletons[line.name] != nil && line.name != "LOCATION"
            && line.name != "ORGANIZER"
        {
            propertyParameters[line.name] = unread
        }
        switch line.name {
        case "UID": break
        case "SEQUENCE": sequence = context.integer(line)
        case "SUMMARY": summary = TextCodec.unescape(line.value)
        case "DESCRIPTION": description = TextCodec.unescape(line.value)
        case "X-ALT-DESC":
            if line.parameter("FMTTYPE")?.lowercased() == "text/html" {
                htmlDescription = TextCodec.unescape(line.value)
            } else {
                propertyParameters[line.name] = nil
                extraProperties.append(ExtraProperty(line))
            }
        case "DTEND":
            if let time = context.time(line, recovery: Event.defaultEnd(after: start)) {
                end = .end(inStartZone(time, line, &context))
            }
        case "DURATION":
            if let duration = context.duration(line, from: start, recovery: Event.defaultEnd(after: start)) {
                end = .duration(duration)
            }
        case "LOCATION", "X-CALPORT-LOCATION":
            var location = Location(line: line)
            // A GEO read before LOCATION left a nameless first location holding its coordinates.
            if line.name == "LOCATION", locations.count == 1, let geo = locations[0].coordinates,
                locations[0] == Location(name: "", coordinates: geo)
            {
                location.coordinates = location.coordinates ?? geo
                locations[0] = location
            } else {
                locations.append(location)
            }
        case "GEO":
            guard let geo = Libical.parseGeo(line.value) else {
                context.report(
                    .warning, "invalid-value", "GEO '\(line.value)' is not 'latitude;longitude'; dropped",
                    line: line.line)
                return true
            }
            if locations.isEmpty { locations.append(Location(name: "")) }
            locations[0].coordinates = geo
        case "ORGANIZER": organizer = Participant(line: line)
        case "ATTENDEE": attendees.append(Attendee(line: line))
        case "STATUS": status = EventStatus(token: line.value)
        case "TRANSP": transparency = line.value.caseInsensitiveEquals("TRANSPARENT") ? .transparent : .opaque
        case "X-MICROSOFT-CDO-BUSYSTATUS": busyStatus = BusyStatus(token: line.value)
        case "CLASS": classification = Classification(token: line.value)
        case "PRIORITY": priority = context.integer(line, in: 0...9)
        case "X-MICROSOFT-CDO-IMPORTANCE": importance = Importance(token: line.value)
        case "CATEGORIES": categories += TextCodec.splitList(line.value)
        case "URL": url = line.value
        case "CONFERENCE": conferences.append(Conference(line: line))
        case "RRULE", "EXRULE":
            // A rule that cannot be read is dropped (`recurrence` says why): the event is kept. A rule
            // RFC 5545 leaves no meaning to keeps its event too, as a single event (DTSTART).
            guard let read = context.recurrence(line, start: start),
                let rule = context.checked(read, line: line, start: start)
            else { break }
            if line.name == "RRULE" { recurrenceRules.append(rule) } else { exceptionRules.append(rule) }
        case "RDATE": recurrenceDates += context.recurrenceDates(line)
        case "EXDATE": exceptionDates += context.exceptionDates(line).map { inStartZone($0, line, &context) }
        case "RECURRENCE-ID":
            // Unreadable, the override can still be placed in time by its DTSTART: `init` keeps it.
            guard let time = context.time(line, recovery: "the VEVENT is kept as an event of its own") else { break }
            recurrenceID = RecurrenceIdentifier(
                time: inStartZone(time, line, &context),
                thisAndFuture: line.parameter("RANGE")?.uppercased() == "THISANDFUTURE")
        case "CREATED": created = context.time(line, recovery: "the property was dropped")
        case "LAST-MODIFIED": lastModified = context.time(line, recovery: "the property was dropped")
        case "DTSTAMP": timestamp = context.time(line, recovery: "the property was dropped")
        case "ATTACH": attachments.append(Attachment(line: line))
        case "X-MICROSOFT-DISALLOW-COUNTER": allowsNewTimeProposals = !line.value.caseInsensitiveEquals("TRUE")
        default: extraProperties.append(ExtraProperty(line))
        }
        // A value dropped as unreadable takes its parameters with it: they are written only on the
        // property, so kept they would make two versions differ that read the same once written.
        if !unread.isEmpty, !holdsValue(of: line.name == "DURATION" ? "DTEND" : line.name) {
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
