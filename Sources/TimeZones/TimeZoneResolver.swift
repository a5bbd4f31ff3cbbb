import CalendarModel
import Foundation

/// Resolves any zone name seen in the wild (IANA, Windows, Outlook display name, tzone://, prefixed TZIDs,
/// a document's own VTIMEZONE definitions, X-WR-TIMEZONE) to what calport can compute with.
///
/// The document's definitions are resolved once, when the resolver is made, so `resolve` is cheap enough
/// to call per event.
public struct TimeZoneResolver: Sendable {
    private let defined: [String: TimeZoneResolution]
    private let calendarHint: String?

    /// A resolver for one document's definitions and X-WR-TIMEZONE, with its definitions compared with
    /// tzdata over the current year and the next.
    public init(definitions: [TimeZoneDefinition] = [], calendarHint: String? = nil) {
        let year = YearBounds.year(at: Int(Date().timeIntervalSince1970))
        self.init(definitions: definitions, calendarHint: calendarHint, years: year...(year + 1))
    }

    /// A resolver whose definitions are compared with tzdata over `years`, the years the events use.
    ///
    /// A name the document defines is taken as the IANA zone it names (or its X-LIC-LOCATION) when the
    /// definition agrees with tzdata over the years; otherwise the definition is matched by its
    /// transitions, and failing that its own rules are used. A definition without observances defines
    /// nothing, so its name is resolved as if it had none.
    public init(definitions: [TimeZoneDefinition], calendarHint: String?, years: ClosedRange<Int>) {
        var defined: [String: TimeZoneResolution] = [:]
        for definition in definitions where defined[definition.identifier] == nil && !definition.observances.isEmpty {
            defined[definition.identifier] = Self.resolve(definition, years: years)
        }
        self.defined = defined
        self.calendarHint = calendarHint
    }

    /// What `name` (a TZID, a Graph `timeZone`, …) stands for.
    public func resolve(_ name: String) -> TimeZoneResolution {
        if let resolution = defined[name] ?? defined[name.trimmingSpaces] { return resolution }
        guard let (id, route) = ZoneNames.resolve(name) else { return .unknown(name) }
        return .iana(id, via: route)
    }

    /// The zone a calendar without TZIDs means (X-WR-TIMEZONE), when it names one.
    public var calendarZone: TimeZoneResolution? {
        calendarHint.map(resolve)
    }

    private static func resolve(_ definition: TimeZoneDefinition, years: ClosedRange<Int>) -> TimeZoneResolution {
        let location = definition.extraProperties.first { $0.name.caseInsensitiveEquals("X-LIC-LOCATION") }
        let named =
            ZoneNames.resolve(definition.identifier)
            ?? location.flatMap { ZoneNames.resolve($0.value) }.map { ($0.0, .definitionLocation) }
        if let (id, route) = named, VTimeZoneMatcher.definition(definition, agreesWithIANA: id, years: years) {
            return .iana(id, via: route)
        }
        if let id = VTimeZoneMatcher.ianaIdentifier(matching: definition, years: years) {
            return .iana(id, via: .definitionMatch)
        }
        return .custom(definition)
    }
}
