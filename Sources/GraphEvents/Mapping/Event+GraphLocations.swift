import CalendarModel

extension Event {
    /// `locations` when present (each with address and coordinates), else the single `location`.
    /// Graph's `location` of a multi-place event only joins the names with "; ", so it adds nothing.
    mutating func decodeGraphLocations(
        _ object: JSONNode, at path: @autoclosure () -> String, _ decoder: inout GraphDecoder
    ) {
        let list = decoder.array("locations", of: object, at: path())
        locations = list.enumerated().compactMap { index, value in
            func itemPath() -> String { "\(path()).locations[\(index)]" }
            guard let item = value.objectValue else {
                decoder.report(
                    .warning, "graph-wrong-type", "a location should be an object, found \(value.typeName); ignored",
                    at: itemPath())
                return nil
            }
            return decoder.location(item, at: itemPath())
        }
        if locations.isEmpty, let single = decoder.object("location", of: object, at: path()),
            let location = decoder.location(single, at: "\(path()).location")
        {
            locations = [location]
        }
    }

    /// Writes `location` (the one place, or the names joined) and, for several places or a full
    /// event, `locations`.
    func encodeGraphLocations<Object: JSONMemberSink>(into object: inout Object, _ encoder: GraphEncoder) {
        guard let first = locations.first else { return }
        object.setObject("location") { location in
            if locations.count == 1 {
                Self.graphLocation(first, encoder.style, into: &location)
            } else {
                location.set("displayName", .string(locations.map(\.name).joined(separator: "; ")))
            }
        }
        if locations.count > 1 || encoder.style == .full {
            object.setObjects("locations", locations) { Self.graphLocation($1, encoder.style, into: &$0) }
        }
    }

    /// A Graph `location`; Graph reserves `uniqueId` and `uniqueIdType` for itself, so a POST body
    /// leaves them out.
    private static func graphLocation(
        _ location: Location, _ style: GraphOutputStyle, into result: inout some JSONMemberSink
    ) {
        result.set("displayName", .string(location.name))
        // Looked for only where there are parameters, and a member's name only for a parameter
        // found: made a `String` for each member of each location, most of which have no
        // parameters, it was 1,100 instructions an event.
        if !location.parameters.isEmpty {
            for (member, parameter) in locationParameters {
                guard let value = location.parameters.first(where: { $0.name == parameter })?.firstValue,
                    style == .full || !member.description.hasPrefix("uniqueId")
                else { continue }
                result.set(member, .string(value))
            }
        }
        if let uri = location.uri { result.set("locationUri", .string(uri)) }
        if let address = location.address {
            result.setObject("address") { fields in
                for (member, path) in addressFields {
                    if let value = address[keyPath: path] { fields.set(member, .string(value)) }
                }
            }
        }
        if let point = location.coordinates {
            result.setObject("coordinates") { coordinates in
                coordinates.set("latitude", .number(point.latitude))
                coordinates.set("longitude", .number(point.longitude))
            }
        }
    }

    /// Graph location members without a model field, kept as LOCATION parameters.
    static let locationParameters: KeyValuePairs<JSONKey, String> = [
        "locationType": "X-CALPORT-GRAPH-LOCATION-TYPE", "uniqueId": "X-CALPORT-GRAPH-UNIQUE-ID",
        "uniqueIdType": "X-CALPORT-GRAPH-UNIQUE-ID-TYPE", "locationEmailAddress": "X-CALPORT-GRAPH-LOCATION-EMAIL",
    ]

    /// Graph `physicalAddress` members and the model fields they fill.
    static let addressFields: KeyValuePairs<JSONKey, any WritableKeyPath<PostalAddress, String?> & Sendable> = [
        "street": \.street, "city": \.city, "state": \.state, "countryOrRegion": \.country, "postalCode": \.postalCode,
    ]
}

extension GraphDecoder {
    /// One Graph `location`; nil when it names nothing (Graph sends `{"displayName": ""}` for none).
    mutating func location(_ object: JSONNode, at path: @autoclosure () -> String) -> Location? {
        var location = Location(name: string("displayName", of: object, at: path()) ?? "")
        for (member, parameter) in Event.locationParameters {
            if let value = string(member, of: object, at: path()), !value.isEmpty {
                location.parameters.append(Parameter(parameter, value))
            }
        }
        location.uri = string("locationUri", of: object, at: path())
        if let fields = self.object("address", of: object, at: path()) {
            var address = PostalAddress()
            for (member, keyPath) in Event.addressFields {
                address[keyPath: keyPath] = string(member, of: fields, at: "\(path()).address").flatMap {
                    $0.isEmpty ? nil : $0
                }
            }
            if address != PostalAddress() { location.address = address }
        }
        if let point = self.object("coordinates", of: object, at: path()),
            let latitude = number("latitude", of: point, at: "\(path()).coordinates"),
            let longitude = number("longitude", of: point, at: "\(path()).coordinates")
        {
            location.coordinates = GeoCoordinate(latitude: latitude, longitude: longitude)
        }
        let isEmpty =
            location.name.isEmpty && location.address.isNil && location.coordinates == nil && location.uri == nil
        return isEmpty ? nil : location
    }
}
