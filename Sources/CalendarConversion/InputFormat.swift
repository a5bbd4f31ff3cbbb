/// What an input's content is, whatever the file is called.
public enum InputFormat: String, Sendable {
    /// iCalendar (RFC 5545).
    case iCalendar = "ics"
    /// Microsoft Graph event JSON: one event, an array, `{"value": […]}` pages or one event a line.
    case graph
    /// calport's own NDJSON (docs/ndjson.md).
    case ndjson

    /// What an input of none of the formats is told.
    public static let unrecognised =
        "expected iCalendar (BEGIN:VCALENDAR), Graph JSON ({ or [) or calport NDJSON ({\"uid\":…), found none"

    /// The format of content beginning with `bytes` (its first 64 KiB suffice): iCalendar (`BEGIN:`)
    /// versus Graph JSON (`{` or `[`) versus calport's NDJSON, from the first meaningful bytes; nil
    /// when it is none of them.
    public init?(detectedIn bytes: [UInt8]) {
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        guard index < bytes.count else { return nil }
        if bytes[index] == UInt8(ascii: "{") && EventJSONReader.looksLikeModelNDJSON(bytes[index...]) {
            self = .ndjson
            return
        }
        if bytes[index] == UInt8(ascii: "{") || bytes[index] == UInt8(ascii: "[") {
            self = .graph
            return
        }
        let head = String(decoding: bytes[index..<min(bytes.count, index + 6)], as: UTF8.self).uppercased()
        guard head == "BEGIN:" else { return nil }
        self = .iCalendar
    }
}
