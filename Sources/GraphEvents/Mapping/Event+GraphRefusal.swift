import CalendarModel

extension Event {
    /// Why Graph cannot hold this series' recurrence (an error naming the rule), or nil when it can
    /// or the event does not recur; lets a caller expand such a series instead of losing it.
    public var graphRecurrenceRefusal: Diagnostic? {
        var encoder = GraphEncoder(style: .post, uid: uid)
        do {
            _ = try graphRecurrence(&encoder)
            return nil
        } catch {
            return graphRefusalDiagnostic(error)
        }
    }

    /// The error that says which rule Graph refuses and why.
    func graphRefusalDiagnostic(_ refusal: GraphRecurrenceRefusal) -> Diagnostic {
        let rule = recurrenceRules.first.map { "RRULE:" + $0.rruleText } ?? "the recurrence"
        return Diagnostic(
            .error, code: refusal.code,
            message: "\(rule) cannot be written to Graph: \(refusal.reason); the series is left out",
            uid: uid)
    }
}
