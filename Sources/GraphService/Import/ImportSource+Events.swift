import CalendarModel
import GraphEvents

extension ImportSource {
    /// The source `name` (what the calendar's events are tied to, so that importing it again updates
    /// them) made of `events`, planned as `calport import` plans a file; with what mapping the events to
    /// Graph reported. An error diagnostic is an event Graph cannot hold: it is left out of the plan.
    public static func planning(_ events: [Event], name: String) -> GraphMapping<ImportSource> {
        var written = GraphEventWriter(style: .post, annotatesIdentity: true).write(events)
        // The importer deletes cancelled events itself, so the writer's warning does not apply.
        written.diagnostics.removeAll { $0.code == "graph-post-cancelled" }
        return GraphMapping(
            output: ImportSource(name: name, plan: ImportPlan(entries: written.output)),
            diagnostics: written.diagnostics)
    }
}
