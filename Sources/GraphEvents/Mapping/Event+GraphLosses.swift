import CalendarModel

extension Event {
    /// What of this event no Graph member holds, named the iCalendar way, so that a writer can
    /// report it; what the facets map (even lossily, with their own diagnostics) is not listed, nor
    /// SEQUENCE, which every event from iCalendar has and is reported apart (`graph-sequence-lost`).
    func graphLosses(style: GraphOutputStyle) -> [String] {
        var lost: [String] = []
        if !attachments.isEmpty { lost.append("ATTACH") }
        switch status {
        case .tentative?: lost.append("STATUS:TENTATIVE")
        case .other(let value)?: lost.append("STATUS:\(value)")
        default: break
        }
        if let priority, ![0, 1, 5, 9].contains(priority) { lost.append("PRIORITY:\(priority)") }
        if conferences.count > 1 { lost.append("CONFERENCE (all but the first)") }
        if attendees.contains(where: { !$0.delegatedTo.isEmpty || !$0.delegatedFrom.isEmpty }) {
            lost.append("ATTENDEE delegation")
        }
        if style == .post && url != nil { lost.append("URL") }
        // Each asked only when there is something: most events have none, and the sorted keys and
        // mapped arrays were made and freed for each (800 instructions an event written to Graph).
        if !propertyParameters.isEmpty { lost += propertyParameters.keys.sorted().map { "\($0) parameters" } }
        let namesStart = lost.count
        for property in extraProperties
        where !Self.mappedExtras.contains(property.name) && !lost[namesStart...].contains(property.name) {
            lost.append(property.name)
        }
        for component in extraComponents { lost.append(component.name) }
        return lost
    }

    /// Extra properties the Graph mapping writes back itself.
    private static let mappedExtras = Set(GraphExtraProperty.allCases.map(\.rawValue) + [teamsURLProperty])
}
