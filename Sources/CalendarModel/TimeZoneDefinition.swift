/// A time zone defined by its own rules (a VTIMEZONE), rather than by an IANA name alone.
public struct TimeZoneDefinition: Hashable, Sendable {
    public var identifier: String
    public var observances: [TimeZoneObservance]
    /// Properties the model does not interpret (TZURL, LAST-MODIFIED, X-LIC-LOCATION, …).
    public var extraProperties: [ExtraProperty]

    public init(identifier: String, observances: [TimeZoneObservance] = [], extraProperties: [ExtraProperty] = []) {
        self.identifier = identifier
        self.observances = observances
        self.extraProperties = extraProperties
    }
}

/// One STANDARD or DAYLIGHT block of a time zone definition.
public struct TimeZoneObservance: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        case standard, daylight
    }

    public var kind: Kind
    /// The first onset, in the local time in force before it (RFC 5545 §3.6.5).
    public var start: LocalDateTime
    /// UTC offsets in seconds, before and after the onset.
    public var offsetFrom: Int
    public var offsetTo: Int
    public var names: [String]
    public var rule: RecurrenceRule?
    /// Extra onsets (RDATE), in local time before the onset.
    public var dates: [LocalDateTime]
    public var extraProperties: [ExtraProperty]

    public init(
        kind: Kind, start: LocalDateTime, offsetFrom: Int, offsetTo: Int, names: [String] = [],
        rule: RecurrenceRule? = nil, dates: [LocalDateTime] = [], extraProperties: [ExtraProperty] = []
    ) {
        self.kind = kind
        self.start = start
        self.offsetFrom = offsetFrom
        self.offsetTo = offsetTo
        self.names = names
        self.rule = rule
        self.dates = dates
        self.extraProperties = extraProperties
    }
}
