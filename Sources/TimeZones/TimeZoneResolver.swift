import CalendarModel
import Foundation

/// Resolves any zone name seen in the wild (IANA, Windows, Outlook display name, tzone://, prefixed TZIDs,
/// a document's own VTIMEZONE definitions, X-WR-TIMEZONE) to what calport can compute with.
public struct TimeZoneResolver: Sendable {
    private let definitions: [String: TimeZoneDefinition]
    private let calendarHint: String?
    private let years: ClosedRange<Int>

    /// A resolver for one document's definitions and X-WR-TIMEZONE, with its definitions compared with
    /// tzdata over the current year and the next.
    public init(definitions: [TimeZoneDefinition] = [], calendarHint: String? = nil) {
        let year = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: Date()).year!
        self.init(definitions: definitions, calendarHint: calendarHint, years: year...(year + 1))
    }

    /// A resolver whose definitions are compared with tzdata over `years`, the years the events use.
    public init(definitions: [TimeZoneDefinition], calendarHint: String?, years: ClosedRange<Int>) {
        var byID: [String: TimeZoneDefinition] = [:]
        for definition in definitions where byID[definition.identifier] == nil {
            byID[definition.identifier] = definition
        }
        self.definitions = byID
        self.calendarHint = calendarHint
        self.years = years
    }

    /// What `name` (a TZID, a Graph `timeZone`, …) stands for.
    ///
    /// A name the document defines is taken as the IANA zone it names (or its X-LIC-LOCATION) when the
    /// definition agrees with tzdata over the years; otherwise the definition is matched by its
    /// transitions, and failing that its own rules are used.
    public func resolve(_ name: String) -> TimeZoneResolution {
        guard let definition = definitions[name] ?? definitions[name.trimmingSpaces] else {
            guard let (id, route) = ZoneNames.resolve(name) else { return .unknown(name) }
            return .iana(id, via: route)
        }
        let location = definition.extraProperties.first { $0.name.caseInsensitiveEquals("X-LIC-LOCATION") }
        let named =
            ZoneNames.resolve(name)
            ?? location.flatMap { ZoneNames.resolve($0.value) }.map { ($0.0, .definitionLocation) }
        if let (id, route) = named, VTimeZoneMatcher.definition(definition, agreesWithIANA: id, years: years) {
            return .iana(id, via: route)
        }
        if let id = VTimeZoneMatcher.ianaIdentifier(matching: definition, years: years) {
            return .iana(id, via: .definitionMatch)
        }
        return .custom(definition)
    }

    /// The zone a calendar without TZIDs means (X-WR-TIMEZONE), when it names one.
    public var calendarZone: TimeZoneResolution? {
        calendarHint.map(resolve)
    }
}
