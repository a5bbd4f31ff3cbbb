import CalendarModel
import Foundation
import GraphEvents

/// Where an export puts the files attached to events.
public enum AttachmentDestination: Sendable, Hashable {
    /// Not read: no ATTACH is written (and no request made for them).
    case omitted
    /// Inline, as `ATTACH;FMTTYPE=…;FILENAME=…;ENCODING=BASE64;VALUE=BINARY` (RFC 5545 §3.8.1.1).
    case inline
    /// Written as files into `directory` (which must exist), each referenced by an ATTACH URI that is
    /// `reference` (a relative URI, the directory as seen from the .ics; empty for the same folder)
    /// followed by the file's name, percent-encoded.
    case directory(String, reference: String)
}

/// Reads the attachments of one exported event: the list (`GET /events/{id}/attachments`, metadata
/// only), then each file's raw bytes (`/$value`), so that no file passes through JSON.
struct EventAttachmentReader: Sendable {
    var client: GraphClient
    var destination: AttachmentDestination
    /// File names already written into the directory by this export, to keep each file apart.
    private let names = NameRegistry()

    init(client: GraphClient, destination: AttachmentDestination) {
        self.client = client
        self.destination = destination
    }

    /// The file attachments of event `eventID` as model attachments; reference and item attachments
    /// are reported (Graph v1.0 gives no URL of a reference attachment, and an attached message or
    /// event is not a file), each diagnostic naming the event's `uid` and `location`.
    func attachments(
        of eventID: String, uid: String, location: SourceLocation
    ) async throws(GraphServiceError) -> (attachments: [Attachment], diagnostics: [Diagnostic]) {
        let path = client.endpoints.mailboxPath + "/events/\(eventID.urlComponentEncoded)/attachments"
        // Metadata only: a list with contentBytes would carry every file in one JSON answer.
        let listed = try await GraphPager(client: client).all(
            client.endpoints.graph(path, query: "$select=id,name,contentType,size,isInline"))
        var attachments: [Attachment] = []
        var diagnostics: [Diagnostic] = []
        for item in listed {
            let name = item["name"]?.stringValue ?? "attachment"
            switch item["@odata.type"]?.stringValue {
            case "#microsoft.graph.fileAttachment":
                guard let id = item["id"]?.stringValue else { continue }
                let url = client.endpoints.graph(path + "/\(id.urlComponentEncoded)/$value")
                let response = try await client.send("GET", url)
                guard response.isSuccess else {
                    throw GraphClient.error("GET \(url.path)", response.status, body: response.body)
                }
                attachments.append(
                    try attachment(response.body, name: name, mediaType: item["contentType"]?.stringValue))
            case let kind:
                let what =
                    kind == "#microsoft.graph.referenceAttachment"
                    ? "a link to a cloud file, whose URL Graph v1.0 does not give"
                    : "an attached Outlook item (message, event or contact), not a file"
                diagnostics.append(
                    Diagnostic(
                        .warning, code: "graph-attachment-not-carried",
                        message: "attachment '\(name)' is \(what); it is not carried", location: location, uid: uid))
            }
        }
        return (attachments, diagnostics)
    }

    /// The model attachment of a file's `bytes`, inline or written into the directory.
    private func attachment(_ bytes: [UInt8], name: String, mediaType: String?) throws(GraphServiceError)
        -> Attachment
    {
        // FILENAME is what Thunderbird and Apple Calendar show; Outlook writes and reads X-FILENAME.
        let parameters = [Parameter("FILENAME", name), Parameter("X-FILENAME", name)]
        switch destination {
        case .omitted, .inline:
            return Attachment(content: .base64(Base64.encode(bytes)), mediaType: mediaType, parameters: parameters)
        case .directory(let directory, let reference):
            let file = names.claim(AttachmentFileName.safe(name))
            let target = (directory as NSString).appendingPathComponent(file)
            do {
                try Data(bytes).write(to: URL(fileURLWithPath: target), options: .atomic)
            } catch {
                throw .storage(path: target, reason: "cannot write the attachment: \(error.localizedDescription)")
            }
            let prefix = reference.isEmpty || reference.hasSuffix("/") ? reference : reference + "/"
            return Attachment(
                content: .uri(prefix + file.urlComponentEncoded), mediaType: mediaType, parameters: parameters)
        }
    }
}

/// File names safe to create in a directory: no path separators, control characters or leading dots.
enum AttachmentFileName {
    static func safe(_ name: String) -> String {
        let cleaned = String(
            name.unicodeScalars.map { scalar -> Character in
                scalar == "/" || scalar == "\\" || scalar.value < 0x20 || scalar.value == 0x7F ? "_" : Character(scalar)
            })
        let trimmed = String(cleaned.drop { $0 == "." || $0 == " " })
        return trimmed.isEmpty ? "attachment" : String(trimmed.prefix(200))
    }
}

/// The names given out so far; a name met again becomes `name (2).ext`. Shared by concurrent reads.
private final class NameRegistry: @unchecked Sendable {
    private let lock = NSLock()
    private var taken: Set<String> = []

    func claim(_ name: String) -> String {
        lock.withLock {
            var candidate = name
            var number = 1
            while !taken.insert(candidate.lowercased()).inserted {
                number += 1
                let stem = (name as NSString).deletingPathExtension
                let ext = (name as NSString).pathExtension
                candidate = "\(stem) (\(number))" + (ext.isEmpty ? "" : "." + ext)
            }
            return candidate
        }
    }
}

/// An exported event whose Graph object says `hasAttachments`: its place among its entry's events,
/// and the Graph id its attachments are read under.
struct AttachmentOwner: Sendable {
    var event: Int
    var id: String
    var uid: String
    var location: SourceLocation
}

/// An entry of the export whose events' attachments are still to be read.
struct PendingEntry {
    private(set) var entry: ExportEntry
    /// The events whose attachments are to be read, in the order met.
    private var owners: [AttachmentOwner] = []

    /// An entry with no events yet, keeping `values`.
    init(values: [JSONValue]) {
        entry = ExportEntry(values: values, events: [], diagnostics: [])
    }

    /// Appends what Graph object `value`, at `location` in the output, mapped to, and notes the
    /// first event it made for reading its attachments when Graph says it has some.
    mutating func add(_ mapping: GraphMapping<[Event]>, of value: JSONValue, at location: SourceLocation) {
        entry.diagnostics += mapping.diagnostics
        if value["hasAttachments"]?.boolValue == true, let id = value["id"]?.stringValue,
            let first = mapping.output.first
        {
            owners.append(
                AttachmentOwner(
                    event: entry.events.count, id: id, uid: first.uid,
                    location: SourceLocation(jsonPath: (location.jsonPath ?? "$") + ".attachments")))
        }
        entry.events += mapping.output
    }

    /// Reads the attachments of the events noted, one event at a time, and gives them to the events.
    mutating func readAttachments(with reader: EventAttachmentReader) async throws(GraphServiceError) {
        for owner in owners {
            let read = try await reader.attachments(of: owner.id, uid: owner.uid, location: owner.location)
            entry.events[owner.event].attachments += read.attachments
            entry.diagnostics += read.diagnostics
        }
    }
}
