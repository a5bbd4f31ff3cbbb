import CalendarModel

extension ExtraProperty {
    init(_ line: ContentLine) {
        self.init(name: line.name, parameters: line.parameters, value: line.value)
    }
}

extension ContentLine {
    init(_ property: ExtraProperty) {
        self.init(name: property.name, parameters: property.parameters, value: property.value)
    }
}

extension ExtraComponent {
    init(_ component: ContentComponent) {
        self.init(
            name: component.name, properties: component.properties.map(ExtraProperty.init),
            components: component.components.map(ExtraComponent.init))
    }
}

extension ContentComponent {
    init(_ component: ExtraComponent) {
        self.init(
            name: component.name, properties: component.properties.map(ContentLine.init),
            components: component.components.map(ContentComponent.init))
    }
}

extension Location {
    /// Parameters calport adds to LOCATION to carry Graph's structured address and extra locations.
    private static let addressParameters: [(StaticString, WritableKeyPath<PostalAddress, String?> & Sendable)] = [
        ("X-CALPORT-STREET", \.street), ("X-CALPORT-CITY", \.city), ("X-CALPORT-STATE", \.state),
        ("X-CALPORT-POSTALCODE", \.postalCode), ("X-CALPORT-COUNTRY", \.country),
    ]
    private static let modelledParameters = addressParameters.map(\.0.description) + ["X-CALPORT-GEO", "X-CALPORT-URI"]

    init(line: ContentLine) {
        self.init(
            name: TextCodec.unescape(line.value), parameters: line.parameters(excluding: Location.modelledParameters))
        // Most locations are a name alone; the address parameters' names are then not made and looked for.
        guard !line.parameters.isEmpty else { return }
        var address = PostalAddress()
        for (parameter, keyPath) in Location.addressParameters {
            address[keyPath: keyPath] = line.parameter(parameter.description)
        }
        if address != PostalAddress() { self.address = address }
        uri = line.parameter("X-CALPORT-URI")
        coordinates = line.parameter("X-CALPORT-GEO").flatMap(Libical.parseGeo)
    }

    /// Writes LOCATION (+ GEO) for the first location; X-CALPORT-LOCATION for the others, which
    /// iCalendar cannot express.
    func write(to writer: inout ContentWriter, primary: Bool) {
        let geo = coordinates.map { "\($0.latitude);\($0.longitude)" }
        // Most locations have no address: the key paths, at some 60 instructions each, are then not read.
        let hasAddress =
            address.map { address in Location.addressParameters.contains { address[keyPath: $0.1] != nil } }
            ?? false
        let hasParameters = hasAddress || uri != nil || (!primary && geo != nil) || !parameters.isEmpty
        // A GEO-only location (no LOCATION in the source) has an empty name and no parameters.
        if !(primary && name.isEmpty && coordinates != nil && !hasParameters) {
            writer.begin(line: primary ? "LOCATION" : "X-CALPORT-LOCATION")
            if let address {
                for (parameter, keyPath) in Location.addressParameters {
                    if let value = address[keyPath: keyPath] { writer.parameter(parameter, value) }
                }
            }
            if let uri { writer.parameter("X-CALPORT-URI", uri) }
            if !primary, let geo { writer.parameter("X-CALPORT-GEO", geo) }
            writer.parameters(parameters)
            writer.finish(.text(name))
        }
        if primary, let geo {
            writer.begin(line: "GEO")
            writer.finish(.raw(geo))
        }
    }
}

extension Conference {
    init(line: ContentLine) {
        self.init(
            uri: line.value, label: line.parameter("LABEL") ?? ConferenceProvider(link: line.value)?.label,
            features: line.parameters.first { $0.name.caseInsensitiveEquals("FEATURE") }?.values ?? [],
            parameters: line.parameters(excluding: ["VALUE", "LABEL", "FEATURE"]))
    }

    var contentLine: ContentLine {
        var parameters = [Parameter("VALUE", "URI")]
        if !features.isEmpty { parameters.append(Parameter(name: "FEATURE", values: features)) }
        if let label = labelForOutput { parameters.append(Parameter("LABEL", label)) }
        return ContentLine(name: "CONFERENCE", parameters: parameters + self.parameters, value: uri)
    }
}

extension Attachment {
    init(line: ContentLine) {
        let inline = line.parameter("ENCODING")?.uppercased() == "BASE64"
        self.init(
            content: inline ? .base64(line.value) : .uri(line.value), mediaType: line.parameter("FMTTYPE"),
            parameters: line.parameters(excluding: ["FMTTYPE", "ENCODING", "VALUE"]))
    }

    var contentLine: ContentLine {
        var parameters: [Parameter] = []
        if let mediaType { parameters.append(Parameter("FMTTYPE", mediaType)) }
        switch content {
        case .uri(let uri):
            return ContentLine(name: "ATTACH", parameters: parameters + self.parameters, value: uri)
        case .base64(let data):
            parameters += [Parameter("ENCODING", "BASE64"), Parameter("VALUE", "BINARY")]
            return ContentLine(name: "ATTACH", parameters: parameters + self.parameters, value: data)
        }
    }
}
