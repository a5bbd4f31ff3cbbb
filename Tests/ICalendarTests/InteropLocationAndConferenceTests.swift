import CalendarModel
import Foundation
import Testing

@testable import ICalendar

/// The unfolded content lines written for the first event of a parsed calendar.
private func written(_ input: [UInt8]) -> (model: Event?, lines: [String]) {
    let document = parse(input).document
    return (document.events.first, unfoldedLines(serialize(document)))
}

private func roundTrips(_ input: [UInt8]) -> Bool {
    let first = parse(input).document
    return parse(ICalendarSerializer().serialize(first)).document == first
}

@Test func appleStructuredLocationGivesCoordinatesAndIsKeptAsWritten() throws {
    // The form Apple Calendar writes: RFC 5870 geo URI, title and address as parameters.
    let pin =
        #"X-APPLE-STRUCTURED-LOCATION;VALUE=URI;X-ADDRESS="1 Infinite Loop, Cupertino, CA 95014";X-APPLE-RADIUS=72.4;X-TITLE="Apple Inc.":geo:37.331741,-122.030333"#
    let input = calendar(event: [
        "UID:a", "DTSTAMP:20261201T000000Z", "DTSTART:20261201T170000Z", "LOCATION:Apple Inc.", pin,
    ])
    let (event, lines) = written(input)
    #expect(event?.locations.first?.coordinates == GeoCoordinate(latitude: 37.331741, longitude: -122.030333))
    #expect(lines.contains("GEO:37.331741;-122.030333"))
    // Kept as written, except that a value needing no quotes (RFC 5545 §3.1) is written without.
    #expect(
        lines.filter { $0.hasPrefix("X-APPLE-STRUCTURED-LOCATION") } == [
            pin.replacingOccurrences(of: #"X-TITLE="Apple Inc.""#, with: "X-TITLE=Apple Inc.")
        ])
    #expect(roundTrips(input))
}

@Test func coordinatesAreWrittenAsAnAppleStructuredLocation() throws {
    let input = calendar(event: [
        "UID:b", "DTSTAMP:20261201T000000Z", "DTSTART:20261201T090000Z", "LOCATION:Room 4.12\\, Berlin office",
        "GEO:52.52;13.405",
    ])
    let (event, lines) = written(input)
    // The title has a comma, so RFC 5545 §3.2 wants the parameter value quoted.
    #expect(
        lines.contains(
            #"X-APPLE-STRUCTURED-LOCATION;VALUE=URI;X-APPLE-RADIUS=70;X-TITLE="Room 4.12, Berlin office":geo:52.52,13.405"#
        ))
    #expect(event?.extraProperties.isEmpty == true)
    #expect(roundTrips(input))
    let again = parse(Array(serialize(parse(input).document).utf8)).document.events.first
    #expect(again?.extraProperties.isEmpty == true)
}

@Test func meetingLinksInDescriptionLocationAndGoogleConferenceBecomeConferences() throws {
    let teams = "https://teams.microsoft.com/l/meetup-join/19%3ameeting_abc%40thread.v2/0"
    let meet = "https://meet.google.com/abc-defg-hij"
    let input = calendar(event: [
        "UID:c", "DTSTAMP:20261201T000000Z", "DTSTART:20261201T090000Z",
        "DESCRIPTION:Join: <\(teams)>.\\nAgenda: https://example.com/agenda",
        "LOCATION:Online (\(meet))", "X-GOOGLE-CONFERENCE:\(meet)",
    ])
    let (event, lines) = written(input)
    #expect(
        event?.conferences == [
            Conference(uri: meet, label: "Google Meet", features: ["AUDIO", "VIDEO"]),
            Conference(uri: teams, label: "Microsoft Teams Meeting", features: ["AUDIO", "VIDEO"]),
        ])
    // RFC 7986 §5.11: CONFERENCE;VALUE=URI with FEATURE and LABEL.
    #expect(lines.contains("CONFERENCE;VALUE=URI;FEATURE=AUDIO,VIDEO;LABEL=Microsoft Teams Meeting:\(teams)"))
    #expect(lines.contains("CONFERENCE;VALUE=URI;FEATURE=AUDIO,VIDEO;LABEL=Google Meet:\(meet)"))
    #expect(roundTrips(input))
}

/// A link is found after false starts (`h`, `http://`, a scheme cut short) and at the very end of
/// its text, and texts are looked at in the order X-GOOGLE-CONFERENCE, LOCATION, DESCRIPTION.
@Test func linksAreFoundAfterFalseStartsAndAtTheEndOfTheirText() throws {
    let links = (
        meet: "https://meet.google.com/xyz-abcd-efg", teams: "https://teams.live.com/meet/9",
        zoom: "https://zoom.us/j/123"
    )
    let event = written(
        calendar(event: [
            "UID:e", "DTSTAMP:20261201T000000Z", "DTSTART:20261201T090000Z", "X-GOOGLE-CONFERENCE:\(links.meet)",
            "DESCRIPTION:hhhh http://zoom.us/j/1 https:/ httpsx://a \(links.zoom)",
            "LOCATION:h https:// \(links.teams)",
        ])
    ).0
    #expect(event?.conferences.map(\.uri) == [links.meet, links.teams, links.zoom])
    #expect(event?.conferences.map(\.label) == ["Google Meet", "Microsoft Teams Meeting", "Zoom Meeting"])
}

@Test func aLinkAlreadyInAConferenceIsNotAddedTwiceAndGetsItsLabel() throws {
    let zoom = "https://us02web.zoom.us/j/81234567890?pwd=abc"
    let input = calendar(event: [
        "UID:d", "DTSTAMP:20261201T000000Z", "DTSTART:20261201T090000Z", "CONFERENCE;VALUE=URI:\(zoom)",
        "DESCRIPTION:Zoom: \(zoom)",
    ])
    let (event, lines) = written(input)
    #expect(event?.conferences == [Conference(uri: zoom, label: "Zoom Meeting")])
    #expect(lines.filter { $0.hasPrefix("CONFERENCE") } == ["CONFERENCE;VALUE=URI;LABEL=Zoom Meeting:\(zoom)"])
    #expect(roundTrips(input))
}

/// A link ends at whitespace as Unicode defines it (U+00A0 no-break space, U+3000 ideographic space:
/// both White_Space in PropList.txt) and runs on over other non-ASCII characters, as in a path.
@Test func meetingLinksEndAtUnicodeWhitespaceAndKeepNonASCIIPaths() throws {
    let meet = "https://meet.google.com/abc-défg-日本"
    let teams = "https://teams.microsoft.com/l/meetup-join/19%3ameeting_x%40thread.v2/0"
    let input = calendar(event: [
        "UID:u", "DTSTAMP:20261201T000000Z", "DTSTART:20261201T090000Z",
        "DESCRIPTION:Réunion\u{00A0}\(meet)\u{00A0}puis \(teams)\u{3000}fin https://",
    ])
    let (event, _) = written(input)
    #expect(
        event?.conferences == [
            Conference(uri: meet, label: "Google Meet", features: ["AUDIO", "VIDEO"]),
            Conference(uri: teams, label: "Microsoft Teams Meeting", features: ["AUDIO", "VIDEO"]),
        ])
}

/// The punctuation prose puts after a link (`.,;:)]`, any run of them) is not part of it; the host
/// is compared in lower case and ends at the first `/`, `?` or `#` (RFC 3986 §3.2), so a host in
/// capitals, or one followed at once by a query, is still recognised.
@Test func closingPunctuationIsLeftOffAndHostsCompareInAnyCase() throws {
    let input = calendar(event: [
        "UID:p", "DTSTAMP:20261201T000000Z", "DTSTART:20261201T090000Z",
        "DESCRIPTION:(see https://ZOOM.US/j/42).\\, or [https://Meet.Google.com/abc-defg-hij];: and https://e",
        "LOCATION:https://zoom.us?j/1 https://teams.live.com/meet/7#x,",
    ])
    let (event, _) = written(input)
    // LOCATION is looked at before DESCRIPTION; zoom.us with a query and no /j/ path is no meeting.
    #expect(
        event?.conferences.map(\.uri) == [
            "https://teams.live.com/meet/7#x", "https://ZOOM.US/j/42", "https://Meet.Google.com/abc-defg-hij",
        ])
    #expect(event?.conferences.map(\.label) == ["Microsoft Teams Meeting", "Zoom Meeting", "Google Meet"])
}

/// Only the providers' own hosts make a link a meeting: Zoom's domain and hosts under it in any case,
/// not a host that merely ends in its letters or starts with another provider's host, nor one that
/// spells a provider's name in look-alike letters (a Cyrillic `е` in `googlе`), nor the link the
/// text-heavy benchmark calendar's descriptions hold (`teams.example.com`).
@Test func onlyTheProvidersOwnHostsMakeAMeeting() throws {
    let input = calendar(event: [
        "UID:h", "DTSTAMP:20261201T000000Z", "DTSTART:20261201T090000Z",
        "DESCRIPTION:https://notzoom.us/j/1 https://zoom.us.example.com/j/2"
            + " https://teams.microsoft.com.example.net/l/meetup-join/3 https://teams.example.com/l/meetup-join/4"
            + " https://meet.googl\u{0435}.com/abc-defg-hij https://US02WEB.Zoom.Us/j/5 https://zoom.us/my/6",
    ])
    let (event, _) = written(input)
    #expect(event?.conferences.map(\.uri) == ["https://US02WEB.Zoom.Us/j/5", "https://zoom.us/my/6"])
}
