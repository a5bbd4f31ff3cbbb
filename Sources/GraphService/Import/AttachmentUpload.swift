import CalendarModel
import Digests
import Foundation
import GraphEvents

/// A file attachment to import: its name, media type and base64 text as the .ics carried it.
struct FileToAttach: Sendable, Hashable {
    var name: String
    var mediaType: String
    var base64: String
    /// The file's size in bytes, counted from the text.
    var size: Int

    /// The file `attachment` holds inline; nil for one by URI. The name is FILENAME (RFC 5545 has
    /// none; FILENAME is what Thunderbird and others write), else X-FILENAME (Outlook), else
    /// X-APPLE-FILENAME, else `attachment`.
    init?(_ attachment: Attachment) {
        guard case .base64(let text) = attachment.content else { return nil }
        let names = ["FILENAME", "X-FILENAME", "X-APPLE-FILENAME"]
        name =
            names.lazy.compactMap { wanted in
                attachment.parameters.first { $0.name.uppercased() == wanted }?.firstValue
            }.first ?? "attachment"
        mediaType = attachment.mediaType ?? "application/octet-stream"
        base64 = text
        size = Base64.decodedCount(text.utf8)
    }

    /// What names this file's content in the journal and the content hash: name, type, size and the
    /// SHA-256 of its text.
    var digest: String {
        "\(name)\n\(mediaType)\n\(size)\n\(SHA256.hex(SHA256.hash(base64.utf8)))"
    }
}

/// Why one file was not attached.
enum AttachmentUploadError: Error, Sendable {
    /// Larger than Graph attaches (150 MB): never sent.
    case tooLarge(size: Int)
    /// The text is not base64.
    case invalidBase64
    /// Graph refused or the network failed.
    case service(GraphServiceError)
}

/// Attaches files to an event as Graph documents it (Attach large files to Outlook messages or
/// events, https://learn.microsoft.com/graph/outlook-large-attachments): a file under 3 MB with
/// one `POST /events/{id}/attachments`, a larger one (up to 150 MB) through an upload session,
/// its bytes sent in ranges by PUTs to the session's pre-authenticated `uploadUrl`.
struct AttachmentUploader: Sendable {
    var client: GraphClient

    /// "Under 3 MB": the largest file sent in one POST (decimal megabytes, the stricter reading).
    static let postLimit = 3_000_000
    /// "Files up to 150 MB" (binary megabytes, as Exchange counts them).
    static let maximumSize = 150 * 1024 * 1024
    /// Bytes per PUT: under the documented 4 MB, a multiple of 3 (so each range is whole base64
    /// quads) and of 320 KiB (the range unit OneDrive sessions ask for, harmless here).
    static let chunkSize = 9 * 320 * 1024

    /// Attaches `file` to event `eventID`; the attachment's id when Graph gave it.
    func attach(_ file: FileToAttach, to eventID: String) async throws(AttachmentUploadError) -> String? {
        guard file.size <= Self.maximumSize else { throw .tooLarge(size: file.size) }
        let path = client.endpoints.mailboxPath + "/events/\(eventID.urlComponentEncoded)/attachments"
        var small: [UInt8]?
        if file.size < Self.postLimit {
            // Re-encoded from the decoded bytes: Graph wants plain base64, whatever the .ics wrapped.
            guard let bytes = Base64.decode(file.base64.utf8) else { throw .invalidBase64 }
            small = bytes
        }
        do throws(GraphServiceError) {
            if let bytes = small {
                let body: JSONValue = [
                    "@odata.type": "#microsoft.graph.fileAttachment", "name": .string(file.name),
                    "contentType": .string(file.mediaType), "contentBytes": .string(Base64.encode(bytes)),
                ]
                return try await client.json("POST", client.endpoints.graph(path), body: body)["id"]?.stringValue
            }
            return try await uploadInRanges(file, path: path)
        } catch {
            throw .service(error)
        }
    }

    /// attachment: createUploadSession (https://learn.microsoft.com/graph/api/attachment-createuploadsession),
    /// then the ranges in order; the last PUT answers 201 with the attachment in `Location`.
    private func uploadInRanges(_ file: FileToAttach, path: String) async throws(GraphServiceError) -> String? {
        let session = try await client.json(
            "POST", client.endpoints.graph(path + "/createUploadSession"),
            body: [
                "AttachmentItem": [
                    "attachmentType": "file", "name": .string(file.name), "size": .number(Double(file.size)),
                    "contentType": .string(file.mediaType),
                ]
            ])
        let request = "PUT uploadUrl"
        guard let link = session["uploadUrl"]?.stringValue, let uploadURL = URL(string: link) else {
            throw .unexpectedResponse(request: "POST \(path)/createUploadSession", reason: "no uploadUrl")
        }
        var chunks = Base64Chunks(text: file.base64)
        var offset = 0
        while offset < file.size {
            guard let bytes = chunks.next(Self.chunkSize), !bytes.isEmpty else {
                throw .unexpectedResponse(request: request, reason: "the attachment's base64 text ended early")
            }
            let last = offset + bytes.count - 1
            let put = HTTPRequest(
                method: "PUT", url: uploadURL,
                headers: [
                    "Content-Type": "application/octet-stream", "Content-Range": "bytes \(offset)-\(last)/\(file.size)",
                ], body: bytes)
            let response = try await client.sendUnsigned(put)
            guard response.isSuccess else { throw GraphClient.error(request, response.status, body: response.body) }
            offset = last + 1
            if response.status == 201 {
                return response.headers["location"].flatMap(Self.attachmentID(location:))
            }
            // An Outlook session names the one next offset it expects ("{start}").
            let expected = (try? JSONParser.parse(response.body))?["nextExpectedRanges"]?.arrayValue?.first?
                .stringValue.flatMap { Int($0.split(separator: "-").first ?? "") }
            if let expected, expected != offset {
                throw .unexpectedResponse(request: request, reason: "Graph expects offset \(expected), not \(offset)")
            }
        }
        throw .unexpectedResponse(request: request, reason: "every range was sent but Graph did not attach the file")
    }

    /// The id in a `Location` such as `…/Events('AAMk…')/Attachments('AAMk…')`.
    static func attachmentID(location: String) -> String? {
        guard let range = location.range(of: "Attachments('", options: .backwards) else { return nil }
        let rest = location[range.upperBound...]
        return rest.firstIndex(of: "'").map { String(rest[..<$0]) }
    }
}

/// Decodes base64 text a range at a time, so a large file is never held decoded whole.
struct Base64Chunks {
    private let text: String.UTF8View
    private var index: String.UTF8View.Index

    init(text: String) {
        self.text = text.utf8
        self.index = self.text.startIndex
    }

    /// The next `count` bytes (fewer at the end, empty past it); nil when the text is not base64.
    mutating func next(_ count: Int) -> [UInt8]? {
        // `count` is a multiple of 3, so 4 symbols per 3 bytes; whitespace is skipped by `decode`.
        var symbols = 0
        let start = index
        let wanted = count / 3 * 4
        while index < text.endIndex && symbols < wanted {
            if !Base64.isWhitespace(text[index]) { symbols += 1 }
            index = text.index(after: index)
        }
        return Base64.decode(text[start..<index])
    }
}

extension AttachmentUploader {
    /// The requests that attach `files` to the event at `eventURL`, for `--dry-run`: a POST per
    /// small file, a createUploadSession per large one (its PUTs counted, not listed); bytes left out.
    static func plannedRequests(for files: [FileToAttach], eventURL: String) -> [JSONValue] {
        files.map { file -> JSONValue in
            let item: JSONValue = ["name": .string(file.name), "size": .number(Double(file.size))]
            guard file.size <= maximumSize else {
                return ["refused": .string("larger than Graph's 150 MB"), "attachment": item]
            }
            if file.size < postLimit {
                return ["method": "POST", "url": .string(eventURL + "/attachments"), "attachment": item]
            }
            let puts = (file.size + chunkSize - 1) / chunkSize
            return [
                "method": "POST", "url": .string(eventURL + "/attachments/createUploadSession"),
                "attachment": item, "uploadPuts": .number(Double(puts)),
            ]
        }
    }
}
