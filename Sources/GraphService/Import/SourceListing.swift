import CalendarModel
import Foundation
import GraphEvents

/// An event in the target calendar that carries a source's identity.
struct TargetEvent: Sendable {
    var id: String
    var uid: String
    var stamp: ImportStamp
    /// `GraphContentHash.edits` of the event as it is now; nil when it does not read as an event.
    var edits: String?
    /// Its attendees' addresses: a change to it mails them.
    var attendees: [String] = []
}

/// Finds what a source already has in the target calendar: every event whose `calport.source`
/// property is the source's name, with calport's properties expanded (Get
/// singleValueLegacyExtendedProperty: `$filter=singleValueExtendedProperties/Any(ep: ep/id eq '…'
/// and ep/value eq '…')`, which lists series masters and single events, not occurrences; a
/// filter's result does not include the property, hence the `$expand`).
struct SourceListing: Sendable {
    var client: GraphClient
    var eventsPath: String

    /// The source's events by UID. An event whose properties are not calport's, or whose stamp
    /// does not parse, is not the source's: it is left out, never matched. Graph compares a
    /// filter's value case-insensitively, so the name is checked again here, exactly.
    func events(of source: String) async throws(GraphServiceError) -> [String: TargetEvent] {
        var found: [String: TargetEvent] = [:]
        // Paging Microsoft Graph data: pages of 10 unless `odata.maxpagesize` asks for more.
        let headers = ["Prefer": "odata.maxpagesize=1000"]
        for event in try await GraphPager(client: client).all(url(source), headers: headers) {
            let values = CalportProperty.values(of: event)
            guard values[.source] == source, let uid = values[.uid], values[.recurrenceID] == nil,
                let id = event["id"]?.stringValue, let stamp = values[.stamp].flatMap(ImportStamp.init(parsing:)),
                found[uid] == nil
            else { continue }
            found[uid] = TargetEvent(
                id: id, uid: uid, stamp: stamp, edits: GraphContentHash.edits(event),
                attendees: ParticipantPolicy.addresses(event["attendees"]))
        }
        return found
    }

    /// The filtered, expanded listing of the source's events.
    func url(_ source: String) -> URL {
        // An OData string literal doubles its single quotes.
        let literal = source.replacingOccurrences(of: "'", with: "''")
        let filter =
            "singleValueExtendedProperties/Any(ep: ep/id eq '\(CalportProperty.source.id)' and ep/value eq '\(literal)')"
        return client.endpoints.graph(
            eventsPath, query: "$filter=" + filter.urlComponentEncoded + "&" + CalportProperty.expandQuery)
    }
}
