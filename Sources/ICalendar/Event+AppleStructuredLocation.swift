import CalendarModel

/// Apple Calendar's map pin for an event: `X-APPLE-STRUCTURED-LOCATION;VALUE=URI;X-TITLE=…:geo:lat,lon`
/// (RFC 5870 `geo:` URI). Apple shows a map only with it, not with GEO.
extension Event {
    static let appleStructuredLocation = "X-APPLE-STRUCTURED-LOCATION"
    /// calport has no accuracy for a place, and Apple wants a radius; 70 m is a building-sized pin.
    static let appleRadius = "70"

    /// The pin calport writes for the first location, when it has coordinates.
    var appleStructuredLocationLine: ContentLine? {
        guard let location = locations.first, let coordinates = location.coordinates else { return nil }
        var parameters = [Parameter("VALUE", "URI")]
        if let address = location.address?.appleText { parameters.append(Parameter("X-ADDRESS", address)) }
        parameters += [Parameter("X-APPLE-RADIUS", Event.appleRadius), Parameter("X-TITLE", location.name)]
        return ContentLine(
            name: Event.appleStructuredLocation, parameters: parameters,
            value: "geo:\(coordinates.latitude),\(coordinates.longitude)")
    }

    /// Takes coordinates from an Apple pin when GEO gave none; a pin that says no more than calport
    /// would write is absorbed, any other stays verbatim in `extraProperties` (and is written instead).
    mutating func adoptAppleStructuredLocation() {
        guard let index = extraProperties.firstIndex(where: { $0.name == Event.appleStructuredLocation }),
            let coordinates = Event.coordinates(geoURI: extraProperties[index].value)
        else { return }
        let pin = ContentLine(extraProperties[index])
        if locations.isEmpty { locations.append(Location(name: pin.parameter("X-TITLE") ?? "")) }
        if locations[0].coordinates == nil { locations[0].coordinates = coordinates }
        if appleStructuredLocationLine == pin { extraProperties.remove(at: index) }
    }

    /// Whether the event keeps a pin of its own, so that calport must not write a second one.
    var hasOwnAppleStructuredLocation: Bool {
        extraProperties.contains { $0.name == Event.appleStructuredLocation }
    }

    /// `geo:52.52,13.405` or `geo:52.52,13.405,34;u=20` (RFC 5870) → latitude and longitude.
    static func coordinates(geoURI: String) -> GeoCoordinate? {
        guard geoURI.lowercased().hasPrefix("geo:") else { return nil }
        let path = geoURI.dropFirst(4).prefix { $0 != ";" }
        let parts = path.split(separator: ",")
        guard parts.count >= 2 else { return nil }
        return Libical.parseGeo("\(parts[0]);\(parts[1])")
    }
}

extension PostalAddress {
    /// One line, as Apple writes X-ADDRESS: street, city, state and postal code, country.
    var appleText: String? {
        let region = [state, postalCode].compactMap { $0 }.joined(separator: " ")
        let parts = [street, city, region.isEmpty ? nil : region, country].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }
}
