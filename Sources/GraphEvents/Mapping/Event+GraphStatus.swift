import CalendarModel

extension Event {
    /// `showAs`, `sensitivity`, `importance` and `isCancelled`, read the way Outlook exports them:
    /// showAs sets both TRANSP and the finer busy status, importance both PRIORITY (1/5/9) and itself.
    mutating func decodeGraphStatus(
        _ object: JSONNode, at path: @autoclosure () -> String, _ decoder: inout GraphDecoder
    ) {
        if let showAs = decoder.enumeration("showAs", of: object, at: path(), Self.graphShowAs) {
            busyStatus = showAs
            transparency = showAs == .free ? .transparent : showAs == .unknown ? nil : .opaque
        }
        classification = decoder.enumeration("sensitivity", of: object, at: path(), Self.graphSensitivity)
        if let level = decoder.enumeration("importance", of: object, at: path(), Self.graphImportance) {
            importance = level
            priority = level == .high ? 1 : level == .normal ? 5 : 9
        }
        if decoder.bool("isCancelled", of: object, at: path()) == true { status = .cancelled }
    }

    /// Writes the same members; a POST cannot cancel, so STATUS:CANCELLED is reported as lost there.
    func encodeGraphStatus(into object: inout some JSONMemberSink, _ encoder: inout GraphEncoder) {
        if let showAs = busyStatus ?? transparency.map({ $0 == .transparent ? .free : .busy }) {
            object.set("showAs", .string(Self.graphShowAs.name(of: showAs)!))
        }
        if let classification {
            if let name = Self.graphSensitivity.name(of: classification) {
                object.set("sensitivity", .string(name))
            } else if case .other(let value) = classification {
                // Only a class iCalendar spells its own way has no sensitivity; named as it was written.
                let written = value.isEmpty ? "CLASS with an empty value" : "CLASS:\(value)"
                encoder.report(.warning, "graph-unsupported-class", "\(written) has no Graph sensitivity; left out")
            }
        }
        if let level = importance ?? priority.flatMap(Self.importance(forPriority:)) {
            object.set("importance", .string(Self.graphImportance.name(of: level)!))
        }
        switch (status, encoder.style) {
        case (.cancelled?, .full): object.set("isCancelled", true)
        case (.cancelled?, .post):
            encoder.report(
                .warning, "graph-post-cancelled", "a POST cannot create a cancelled event; STATUS:CANCELLED is lost")
        case (_, .full): object.set("isCancelled", false)
        case (_, .post): break
        }
    }

    /// RFC 5545 §3.8.1.9: 1–4 high, 5 normal, 6–9 low, 0 undefined.
    static func importance(forPriority priority: Int) -> Importance? {
        switch priority {
        case 1...4: return .high
        case 5: return .normal
        case 6...9: return .low
        default: return nil
        }
    }

    static let graphShowAs = GraphNames<BusyStatus>([
        "free": .free, "tentative": .tentative, "busy": .busy, "oof": .outOfOffice,
        "workingElsewhere": .workingElsewhere, "unknown": .unknown,
    ])
    static let graphSensitivity = GraphNames<Classification>([
        "normal": .public, "personal": .personal, "private": .private, "confidential": .confidential,
    ])
    static let graphImportance = GraphNames<Importance>(["low": .low, "normal": .normal, "high": .high])
}
