import CLibical

extension Libical {
    /// What libical's own parser complains about in a whole calendar (its X-LIC-ERROR messages), or
    /// nil when it cannot read it at all. calport does not parse with it (it loses data, see
    /// docs/architecture.md), but libical-based clients do: this checks that they read calport's output.
    static func parserComplaints(_ text: String) -> [String]? {
        guard let root = icalparser_parse_string(text) else { return nil }
        defer { icalcomponent_free(root) }
        var complaints: [String] = []
        collect(root, into: &complaints)
        return complaints
    }

    private static func collect(_ component: OpaquePointer, into complaints: inout [String]) {
        var property = icalcomponent_get_first_property(component, ICAL_XLICERROR_PROPERTY)
        while let current = property {
            complaints.append(String(cString: icalproperty_get_xlicerror(current)))
            property = icalcomponent_get_next_property(component, ICAL_XLICERROR_PROPERTY)
        }
        var child = icalcomponent_get_first_component(component, ICAL_ANY_COMPONENT)
        while let current = child {
            collect(current, into: &complaints)
            child = icalcomponent_get_next_component(component, ICAL_ANY_COMPONENT)
        }
    }
}
