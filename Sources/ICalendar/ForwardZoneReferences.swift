import CalendarModel
import TimeZones

/// Events read before the VTIMEZONE they use could not have it matched to an IANA zone; once the
/// whole calendar is read, those references are resolved as if the VTIMEZONE had come first.
enum ForwardZoneReferences {
    static func resolve(_ document: inout CalendarDocument) {
        let definitions = Dictionary(
            document.timeZones.map { ($0.identifier, $0) }, uniquingKeysWith: { first, _ in first })
        var matches: [String: String?] = [:]
        for index in document.events.indices {
            document.events[index].mapTimes { time in
                guard case .zoned(let local, var zone) = time, zone.ianaIdentifier == nil,
                    let definition = definitions[zone.name]
                else { return time }
                if matches[zone.name] == nil {
                    let year = local.date.year
                    matches[zone.name] = VTimeZoneMatcher.ianaIdentifier(
                        matching: definition, years: (year - 1)...(year + 1))
                }
                zone.ianaIdentifier = matches[zone.name] ?? nil
                return .zoned(local, zone)
            }
        }
    }
}
