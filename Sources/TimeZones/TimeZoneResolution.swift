import CalendarModel

/// What a zone name resolved to: an IANA zone (and how it was found), a document's own rules, or nothing.
public enum TimeZoneResolution: Hashable, Sendable {
    /// An IANA zone, found by the route given.
    case iana(String, via: TimeZoneResolutionRoute)
    /// A VTIMEZONE that matches no IANA zone: its own rules are used.
    case custom(TimeZoneDefinition)
    /// A name that neither the tables nor the document define.
    case unknown(String)

    /// The IANA id, when the name resolved to one.
    public var ianaIdentifier: String? {
        if case .iana(let id, _) = self { return id }
        return nil
    }

    /// The rules to compute with: the IANA zone's or the definition's; nil for an unknown name.
    public var rules: ZoneRules? {
        switch self {
        case .iana(let id, _): return ZoneRules(ianaIdentifier: id)
        case .custom(let definition): return ZoneRules(definition: definition)
        case .unknown: return nil
        }
    }

    /// What a caller should report: a warning when a document's own rules are used, an error for an unknown
    /// name (never silently read as UTC or floating); nil when an IANA zone was found.
    public var diagnostic: Diagnostic? {
        switch self {
        case .iana:
            return nil
        case .custom(let definition):
            return Diagnostic(
                .warning, code: "custom-time-zone",
                message: "VTIMEZONE '\(definition.identifier)' matches no IANA zone; its own rules are used")
        case .unknown(let name):
            return Diagnostic(
                .error, code: "unknown-tzid", message: "time zone '\(name)' is neither defined nor a known zone name")
        }
    }
}

/// How a zone name was recognised.
public enum TimeZoneResolutionRoute: Hashable, Sendable {
    /// An IANA id, a tzdata link, or a legacy name.
    case ianaName
    /// A Windows id, possibly with Outlook's numbered suffix (`Eastern Standard Time 1`).
    case windowsID
    /// An Outlook display name (`(UTC-05:00) Eastern Time (US & Canada)`).
    case outlookDisplayName
    /// A `tzone://Microsoft/…` URI.
    case microsoftURI
    /// An IANA id after a vendor prefix (`/mozilla.org/20050126_1/America/New_York`).
    case vendorPrefix
    /// The X-LIC-LOCATION of the document's VTIMEZONE.
    case definitionLocation
    /// The document's VTIMEZONE, matched by its offsets and transitions.
    case definitionMatch
}
