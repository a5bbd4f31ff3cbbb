import CalendarModel

extension Event {
    /// `onlineMeeting.joinUrl` → a CONFERENCE (RFC 7986) and Outlook's X-MICROSOFT-SKYPETEAMSMEETINGURL;
    /// the conference id and toll number ride along as CONFERENCE parameters.
    mutating func decodeGraphOnlineMeeting(
        _ object: JSONNode, at path: @autoclosure () -> String, _ decoder: inout GraphDecoder
    ) {
        guard let meeting = decoder.object("onlineMeeting", of: object, at: path()),
            let joinURL = decoder.string("joinUrl", of: meeting, at: "\(path()).onlineMeeting")
        else { return }
        var conference = Conference(uri: joinURL, features: ["AUDIO", "VIDEO"])
        for (member, parameter) in Self.meetingParameters {
            if let value = decoder.string(member, of: meeting, at: "\(path()).onlineMeeting") {
                conference.parameters.append(Parameter(parameter, value))
            }
        }
        conferences = [conference]
        extraProperties.append(ExtraProperty(name: Self.teamsURLProperty, value: ICalendarText.escape(joinURL)))
    }

    /// Writes `onlineMeeting` for a full event; the service creates meetings itself, so a POST body
    /// reports the link as lost (isOnlineMeeting and the provider are still sent).
    func encodeGraphOnlineMeeting(into object: inout some JSONMemberSink, _ encoder: inout GraphEncoder) {
        guard let conference = conferences.first else { return }
        guard encoder.style == .full else {
            encoder.report(
                .warning, "graph-post-conference", "a POST cannot set a meeting link; \(conference.uri) is lost")
            return
        }
        object.setObject("onlineMeeting") { meeting in
            meeting.set("joinUrl", .string(conference.uri))
            for (member, parameter) in Self.meetingParameters {
                if let value = conference.parameters.first(where: { $0.name == parameter })?.firstValue {
                    meeting.set(member, .string(value))
                }
            }
        }
    }

    static let teamsURLProperty = "X-MICROSOFT-SKYPETEAMSMEETINGURL"
    static let meetingParameters: KeyValuePairs<JSONKey, String> = [
        "conferenceId": "X-CALPORT-GRAPH-CONFERENCE-ID", "tollNumber": "X-CALPORT-GRAPH-TOLL-NUMBER",
    ]
}
