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

    /// The provider of a join link, from its host and path.
    init?(link: String) {
        guard let url = ConferenceProvider.hostAndPath(link) else { return nil }
        let (host, path) = url
        if (host == "teams.microsoft.com" && path.hasPrefix("/l/meetup-join/"))
            || (host == "teams.live.com" && path.hasPrefix("/meet/"))
        {
            self = .teams
        } else if (host == "zoom.us" || host.hasSuffix(".zoom.us")) && (path.hasPrefix("/j/") || path.hasPrefix("/my/"))
        {
            self = .zoom
        } else if host == "meet.google.com" && path.count > 1 {
            self = .meet
        } else {
            return nil
        }
    }

    private static func hostAndPath(_ link: String) -> (String, String)? {
        guard link.hasPrefix("https://") else { return nil }
        let rest = link.dropFirst("https://".count)
        let host = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return (host.lowercased(), String(rest.dropFirst(host.count)))
    }

    /// The https links in free text, without the punctuation that usually closes them (`<…>`, `(…)`, `.`).
    static func links(in text: String) -> [String] {
        // Most texts hold no link: a byte search says so without Foundation's `range(of:)`,
        // which profiling put at a tenth of an ics→ics run.
        guard containsHTTPS(text) else { return [] }
        var links: [String] = []
        var rest = Substring(text)
        while let range = rest.range(of: "https://") {
            let candidate = rest[range.lowerBound...].prefix { !$0.isWhitespace && !"<>\"'".contains($0) }
            var link = String(candidate)
            while let last = link.last, ".,;:)]".contains(last) { link.removeLast() }
            links.append(link)
            rest = rest[candidate.endIndex...]
        }
        return links
    }

    private static let scheme = Array("https://".utf8)

    /// A plain loop: the standard library's `firstRange(of:)` made ics→ics 45 % slower here.
    private static func containsHTTPS(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.count >= scheme.count else { return false }
            for start in 0...(bytes.count - scheme.count) where bytes[start] == scheme[0] {
                if (1..<scheme.count).allSatisfy({ bytes[start + $0] == scheme[$0] }) { return true }
            }
            return false
        }
    }
}

extension Event {
    /// Adds, as RFC 7986 conferences, the Teams, Zoom and Meet links found in X-GOOGLE-CONFERENCE,
    /// LOCATION and DESCRIPTION that no CONFERENCE already holds.
    mutating func adoptConferenceLinks() {
        let google = extraProperties.filter { $0.name == "X-GOOGLE-CONFERENCE" }.map(\.value)
        let texts = google + locations.map(\.name) + [description ?? ""]
        for link in texts.flatMap(ConferenceProvider.links(in:)) {
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
