import CalendarModel

/// The meeting services whose join links clients put in DESCRIPTION, LOCATION or Google's
/// X-GOOGLE-CONFERENCE rather than in an RFC 7986 CONFERENCE.
enum ConferenceProvider: CaseIterable {
    case teams, zoom, meet

    /// What calport writes as the CONFERENCE's LABEL.
    var label: String {
        switch self {
        case .teams: "Microsoft Teams Meeting"
        case .zoom: "Zoom Meeting"
        case .meet: "Google Meet"
        }
    }

    /// Where a provider's join links live: a host (and, with `subdomains`, every host under it) and
    /// what the path after it must be. Both `init(link:)` and `mayBeJoinLink` read this table.
    private static let joinHosts:
        [(host: String, subdomains: Bool, provider: ConferenceProvider, pathPrefixes: [String])] = [
            ("teams.microsoft.com", false, .teams, ["/l/meetup-join/"]),
            ("teams.live.com", false, .teams, ["/meet/"]),
            ("zoom.us", true, .zoom, ["/j/", "/my/"]),
            // Any path beyond the root: a meeting's code.
            ("meet.google.com", false, .meet, []),
        ]

    /// The provider of a join link, from its host and path.
    init?(link: String) {
        guard let (host, path) = ConferenceProvider.hostAndPath(link) else { return nil }
        for entry in Self.joinHosts where host == entry.host || (entry.subdomains && host.hasSuffix("." + entry.host)) {
            let pathMatches =
                entry.pathPrefixes.isEmpty ? path.count > 1 : entry.pathPrefixes.contains { path.hasPrefix($0) }
            if pathMatches {
                self = entry.provider
                return
            }
        }
        return nil
    }

    /// Whether the https link `bytes` may be a join link: false only when its host is printable
    /// ASCII and, ignoring case, none of `joinHosts` (`init(link:)` lower-cases it, and an ASCII
    /// host's characters are its bytes). A text-heavy event's description holds two links to other
    /// hosts; made into strings and taken apart by `init(link:)` to find it out, they were 5,700
    /// instructions of it.
    private static func mayBeJoinLink(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let hostStart = scheme.count
        var hostEnd = hostStart
        while hostEnd < bytes.count, !endsHost(bytes[hostEnd]) {
            guard (0x20...0x7E).contains(bytes[hostEnd]) else { return true }
            hostEnd += 1
        }
        let host = UnsafeBufferPointer(rebasing: bytes[hostStart..<hostEnd])
        return joinHosts.contains { entry in
            var name = entry.host
            return name.withUTF8 { name in
                if host.caseInsensitiveEquals(name) { return true }
                // A host under it: its name after a `.`.
                let start = host.count - name.count
                return entry.subdomains && start > 0 && host[start - 1] == UInt8(ascii: ".")
                    && UnsafeBufferPointer(rebasing: host[start...]).caseInsensitiveEquals(name)
            }
        }
    }

    /// Whether `byte` ends a link's host: the path, query or fragment begins (RFC 3986 §3.2).
    private static func endsHost(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#")
    }

    /// The host (lower-cased) and the rest of an https link. On its UTF-8: a `Character` walk over
    /// the host made a string of each character, some 3,700 instructions a link (a description of
    /// the text-heavy benchmark holds one). The delimiters are ASCII, and no character a grapheme
    /// cluster joins to them is taken for one.
    private static func hostAndPath(_ link: String) -> (String, String)? {
        guard link.hasPrefix("https://") else { return nil }
        let utf8 = link.utf8
        let hostStart = utf8.index(utf8.startIndex, offsetBy: scheme.count)
        let hostEnd = utf8[hostStart...].firstIndex(where: endsHost) ?? utf8.endIndex
        return (String(link[hostStart..<hostEnd]).lowercased(), String(link[hostEnd...]))
    }

    /// The https links in free text that may be join links (`mayBeJoinLink`), without the
    /// punctuation that usually closes them (`<…>`, `(…)`, `.`). A link runs from `https://` to the
    /// first whitespace (Unicode's, as `Character.isWhitespace` says) or `<`, `>`, `"`, `'`.
    static func candidateLinks(in text: String) -> [String] {
        var text = text
        // On the UTF-8 bytes: Foundation's `range(of:)` and a `Character` walk cost 560,000
        // instructions an event on text-heavy calendars whose descriptions hold a link (issue 24),
        // seven tenths of ics→ics; before that, a byte search ruled out texts without one.
        return text.withUTF8 { bytes in
            var links: [String] = []
            var from = 0
            while let start = firstScheme(in: bytes, from: from) {
                var end = start + scheme.count
                while end < bytes.count, let length = linkCharacterLength(bytes, at: end) { end += length }
                from = end
                // The punctuation that closes it taken off its bytes: a byte of `.,;:)]` last is a
                // character of its own, which a `Character` walk found at the cost of a string each.
                while end > start + scheme.count, closingPunctuation.contains(bytes[end - 1]) { end -= 1 }
                let link = UnsafeBufferPointer(rebasing: bytes[start..<end])
                if mayBeJoinLink(link) { links.append(String(decoding: link, as: UTF8.self)) }
            }
            return links
        }
    }

    private static let scheme = Array("https://".utf8)
    private static let closingPunctuation = Array(".,;:)]".utf8)
    /// `https://` as the little-endian word its eight bytes make.
    private static let schemeWord = scheme.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }

    /// Where the next `https://` starts: each `h`, found eight bytes at a time, then the eight
    /// bytes from it compared as one word. A loop comparing each byte with the scheme's first was
    /// most of the 4,400 instructions an event that looking for links took; `memchr` for each `h`
    /// was quicker on prose and 2.5 times slower on a text of `h`s (a second pair of eyes found it).
    private static func firstScheme(in bytes: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        let last = bytes.count - scheme.count
        var start = from
        while start <= last {
            let index = ByteScan.firstIndex(
                in: UnsafeBufferPointer(rebasing: bytes[..<(last + 1)]), from: start,
                candidates: { $0.bytes(equalTo: UInt8(ascii: "h")) }, byte: { $0 == UInt8(ascii: "h") })
            guard index <= last else { return nil }
            if UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) == schemeWord { return index }
            start = index + 1
        }
        return nil
    }

    /// The length of the UTF-8 character at `index` when it belongs to a link; nil when it ends one.
    private static func linkCharacterLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
        let lead = bytes[index]
        if lead < 0x80 {
            switch lead {
            case 0x09...0x0D, 0x20, UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "'"):
                return nil
            default: return 1
            }
        }
        // A Swift string's bytes are valid UTF-8: the lead byte gives the length.
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        var value = UInt32(lead) & (0xFF >> (length + 1))
        for offset in 1..<length { value = value << 6 | UInt32(bytes[index + offset] & 0x3F) }
        guard let scalar = Unicode.Scalar(value), !scalar.properties.isWhitespace else { return nil }
        return length
    }
}

extension Event {
    /// Adds, as RFC 7986 conferences, the Teams, Zoom and Meet links found in X-GOOGLE-CONFERENCE,
    /// LOCATION and DESCRIPTION that no CONFERENCE already holds.
    /// The texts are looked at where they are, in that order: gathering them into arrays first was
    /// three allocations an event.
    mutating func adoptConferenceLinks() {
        for property in extraProperties where property.name == "X-GOOGLE-CONFERENCE" {
            adoptConferenceLinks(in: property.value)
        }
        for location in locations { adoptConferenceLinks(in: location.name) }
        if let description { adoptConferenceLinks(in: description) }
    }

    private mutating func adoptConferenceLinks(in text: String) {
        for link in ConferenceProvider.candidateLinks(in: text) {
            guard let provider = ConferenceProvider(link: link), !conferences.contains(where: { $0.uri == link })
            else { continue }
            conferences.append(Conference(uri: link, label: provider.label, features: ["AUDIO", "VIDEO"]))
        }
    }
}

extension Conference {
    /// The label to write: the conference's own, else its provider's.
    var labelForOutput: String? {
        label ?? ConferenceProvider(link: uri)?.label
    }
}
