import CalendarModel

/// Calendars put together: `calport convert` merges its inputs into one calendar.
extension CalendarDocument {
    /// Adds another calendar's content; the first calendar's properties win, zones are kept once per TZID.
    public mutating func merge(_ other: CalendarDocument) {
        mergeHeader(other)
        let known = Set(timeZones.map(\.identifier))
        timeZones += other.timeZones.filter { !known.contains($0.identifier) }
        events += other.events
        otherComponents += other.otherComponents
    }

    /// Whether the calendar has no components at all.
    public var isEmpty: Bool { events.isEmpty && timeZones.isEmpty && otherComponents.isEmpty }

    /// Takes the calendar properties this calendar lacks from another.
    public mutating func mergeHeader(_ other: CalendarDocument) {
        productID = productID ?? other.productID
        method = method ?? other.method
        name = name ?? other.name
        timeZoneHint = timeZoneHint ?? other.timeZoneHint
        colour = colour ?? other.colour
        description = description ?? other.description
        refreshInterval = refreshInterval ?? other.refreshInterval
        sourceURL = sourceURL ?? other.sourceURL
        if extraProperties.isEmpty { extraProperties = other.extraProperties }
    }
}
