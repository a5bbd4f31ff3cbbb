import CalendarModel
import Foundation
import GraphEvents

/// What import does with an event's ATTACH properties before its Graph body is written: inline
/// files are set aside to be attached once the event exists (an override's once its occurrence is
/// patched); a file by URI becomes a line of the body ("Attachment: URI"), because Graph v1.0
/// cannot create a reference attachment (its `sourceUrl` is beta only) and a URI an importer cannot
/// fetch is best kept where people read it.
struct AttachmentPlanning {
    /// The events without ATTACH, URIs moved into their descriptions.
    var events: [Event] = []
    /// The inline files of each event, by ``key(uid:recurrenceID:)``.
    var files: [String: [Attachment]] = [:]
    /// The links moved into a body.
    var diagnostics: [Diagnostic] = []

    /// What names one event's files: its UID, and an override's RECURRENCE-ID in the form the
    /// Graph writer annotates it with (`SourceVersion.recurrenceID`).
    static func key(uid: String, recurrenceID: String?) -> String {
        recurrenceID.map { uid + "\n" + $0 } ?? uid
    }

    init(_ source: [Event]) {
        events.reserveCapacity(source.count)
        for var event in source {
            let links = event.attachments.compactMap { attachment -> String? in
                if case .uri(let uri) = attachment.content { return uri }
                return nil
            }
            let inline = event.attachments.filter { if case .base64 = $0.content { true } else { false } }
            event.attachments = []
            if !links.isEmpty {
                let lines = links.map { "Attachment: " + $0 }
                event.description = ([event.description].compactMap { $0 } + lines).joined(separator: "\n")
                if let html = event.htmlDescription {
                    event.htmlDescription = html + lines.map { "<p>\(Self.escaped($0))</p>" }.joined()
                }
                diagnostics.append(
                    Diagnostic(
                        .note, code: "graph-attach-uri-in-body",
                        message:
                            "ATTACH by URI becomes a line of the body: Graph v1.0 cannot create a reference attachment",
                        uid: event.uid))
            }
            if !inline.isEmpty {
                files[Self.key(uid: event.uid, recurrenceID: event.recurrenceID?.time.transactionKey), default: []] +=
                    inline
            }
            events.append(event)
        }
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
