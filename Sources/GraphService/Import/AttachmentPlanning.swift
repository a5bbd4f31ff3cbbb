import CalendarModel
import Foundation

/// What import does with an event's ATTACH properties before its Graph body is written: inline
/// files are set aside to be attached once the event exists; a file by URI becomes a line of the
/// body ("Attachment: URI"), because Graph v1.0 cannot create a reference attachment (its
/// `sourceUrl` is beta only) and a URI an importer cannot fetch is best kept where people read it.
struct AttachmentPlanning {
    /// The events without ATTACH, URIs moved into their descriptions.
    var events: [Event] = []
    /// The inline files of each single event or series master, by UID.
    var files: [String: [Attachment]] = [:]
    /// What was not carried as it was: files of an overridden occurrence, links moved into a body.
    var diagnostics: [Diagnostic] = []

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
                if event.recurrenceID == nil {
                    files[event.uid, default: []] += inline
                } else {
                    diagnostics.append(
                        Diagnostic(
                            .warning, code: "graph-attach-override-not-imported",
                            message:
                                "the files attached to an overridden occurrence are not imported; attach them to the series",
                            uid: event.uid))
                }
            }
            events.append(event)
        }
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
