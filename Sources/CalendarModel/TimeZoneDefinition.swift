/// A time zone defined by its own rules (a VTIMEZONE), rather than by an IANA name alone.
public struct TimeZoneDefinition: Hashable, Sendable {
    /// The TZID the definition is for, as events name it in their TZID parameters (an IANA id,
    /// `Pacific Standard Time`, `Customized Time Zone`, …).
    public var identifier: String
    /// The STANDARD and DAYLIGHT blocks, in source order; together their onsets give the zone's
    /// UTC offset at any time. A VTIMEZONE without a valid one is dropped on input.
    public var observances: [TimeZoneObservance]
    /// Properties the model does not interpret (TZURL, LAST-MODIFIED, X-LIC-LOCATION, …).
    public var extraProperties: [ExtraProperty]

    /// The definition of the zone `identifier` by its observances.
    public init(identifier: String, observances: [TimeZoneObservance] = [], extraProperties: [ExtraProperty] = []) {
        self.identifier = identifier
        self.observances = observances
        self.extraProperties = extraProperties
    }
}

/// One STANDARD or DAYLIGHT block of a time zone definition.
public struct TimeZoneObservance: Hashable, Sendable {
    /// Whether a block is standard or daylight-saving time.
    public enum Kind: Hashable, Sendable {
        /// A STANDARD block (winter time) and a DAYLIGHT block (summer time), RFC 5545 §3.6.5.
        case standard, daylight
    }

    /// Whether this is a STANDARD or a DAYLIGHT block.
    public var kind: Kind
    /// The first onset, in the local time in force before it (RFC 5545 §3.6.5).
    public var start: LocalDateTime
    /// The UTC offset in seconds in force before the onset (TZOFFSETFROM), east of UTC positive.
    public var offsetFrom: Int
    /// The UTC offset in seconds from the onset on (TZOFFSETTO): 3600 for UTC+01:00, -18000 for UTC-05:00.
    public var offsetTo: Int
    /// The names of the zone in this observance (TZNAME, e.g. `CET`, `PDT`); empty when none.
    public var names: [String]
    /// The rule the onset recurs by (RRULE, usually yearly: `FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU`);
    /// nil when the onsets are only ``start`` and ``dates``.
    public var rule: RecurrenceRule?
    /// Extra onsets (RDATE), in local time before the onset.
    public var dates: [LocalDateTime]
    /// Properties of the block the model does not interpret (COMMENT, X-…), kept verbatim.
    public var extraProperties: [ExtraProperty]

    /// A STANDARD or DAYLIGHT block first starting at `start` (local time before the onset), changing the
    /// offset from `offsetFrom` to `offsetTo` seconds east of UTC.
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
