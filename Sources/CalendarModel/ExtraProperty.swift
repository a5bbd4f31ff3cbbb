/// A property parameter: a name and its (possibly several) values, decoded (no quotes, no RFC 6868
/// `^` escapes).
public struct Parameter: Hashable, Sendable, Codable {
    /// The parameter's name, upper-cased when read from iCalendar (`LANGUAGE`, `X-CALPORT-URI`), since
    /// iCalendar names compare case-insensitively.
    public var name: String
    /// The first value, held apart from the others: most parameters have one, and an array of one
    /// was an allocation for each of an event's fifteen parameters read. Nil only without values.
    public private(set) var firstValue: String?
    /// The values after the first, in order; empty when `firstValue` is nil.
    package private(set) var otherValues: [String]

    /// Its values, decoded: a parameter can have several, comma-separated (`MEMBER`, `DELEGATED-TO`,
    /// RFC 5545 §3.2); most have one.
    public var values: [String] {
        get { firstValue.map { otherValues.isEmpty ? [$0] : [$0] + otherValues } ?? [] }
        set {
            firstValue = newValue.first
            otherValues = Array(newValue.dropFirst())
        }
    }

    /// The parameter `name` with all of `values`.
    public init(name: String, values: [String]) {
        self.name = name
        firstValue = values.first
        otherValues = Array(values.dropFirst())
    }

    /// The parameter `name` with the single value `value`: `Parameter("LANGUAGE", "en")`.
    public init(_ name: String, _ value: String) {
        self.name = name
        firstValue = value
        otherValues = []
    }

    /// The parameter `name` with `first` and then `others`, as a parser finds them.
    package init(name: String, first: String, others: [String]) {
        self.name = name
        firstValue = first
        otherValues = others
    }

    private enum CodingKeys: String, CodingKey {
        case name, values
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            name: try container.decode(String.self, forKey: .name),
            values: try container.decode([String].self, forKey: .values))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(values, forKey: .values)
    }
}

/// A property the model does not interpret, kept verbatim so that it is written back unchanged.
///
/// `value` is the value exactly as it was written in the source format (escapes included),
/// because without knowing the property we cannot know how to decode it.
public struct ExtraProperty: Hashable, Sendable, Codable {
    /// The property's name, upper-cased when read from iCalendar (`X-WR-CALNAME`, `TZURL`), or a
    /// `X-CALPORT-GRAPH-…` name for a Graph member iCalendar has no property for.
    public var name: String
    /// The property's parameters, in source order.
    public var parameters: [Parameter]
    /// The value exactly as written (escapes included, unfolded).
    public var value: String

    /// The property `name` with `parameters` and `value`, written as given: escape the value
    /// (RFC 5545 §3.3.11) yourself when it is TEXT.
    public init(name: String, parameters: [Parameter] = [], value: String) {
        self.name = name
        self.parameters = parameters
        self.value = value
    }

    /// The first value of the named parameter (names compare case-insensitively).
    public func parameter(_ name: String) -> String? {
        parameters.first { $0.name.caseInsensitiveEquals(name) }?.firstValue
    }
}

/// A component the model does not interpret (VTODO, VJOURNAL, VFREEBUSY, VAVAILABILITY, X-…),
/// kept whole with its properties and sub-components.
public struct ExtraComponent: Hashable, Sendable, Codable {
    /// The component's name, upper-cased (`VTODO`, `VFREEBUSY`, `X-…`).
    public var name: String
    /// Its properties in source order, verbatim.
    public var properties: [ExtraProperty]
    /// Its sub-components (a VTODO's VALARMs, …), in source order.
    public var components: [ExtraComponent]

    /// The component `name` with `properties` and sub-components `components`.
    public init(name: String, properties: [ExtraProperty] = [], components: [ExtraComponent] = []) {
        self.name = name
        self.properties = properties
        self.components = components
    }
}

extension String {
    /// ASCII case-insensitive comparison, the way iCalendar names compare.
    public func caseInsensitiveEquals(_ other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        // Lent in place: `withUTF8` needs a copy it may change, a retain and a release of each.
        if let equal = utf8.withContiguousStorageIfAvailable({ left in
            other.utf8.withContiguousStorageIfAvailable { left.caseInsensitiveEquals($0) }
        }), let equal {
            return equal
        }
        var (this, other) = (self, other)
        return this.withUTF8 { left in other.withUTF8 { left.caseInsensitiveEquals($0) } }
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// ASCII case-insensitive comparison of UTF-8 bytes, the way iCalendar and Graph names compare.
    public func caseInsensitiveEquals(_ other: UnsafeBufferPointer<UInt8>) -> Bool {
        guard count == other.count else { return false }
        for index in indices where self[index] != other[index] {
            let folded = self[index] | 0x20
            guard folded == other[index] | 0x20, (0x61...0x7A).contains(folded) else { return false }
        }
        return true
    }
}
