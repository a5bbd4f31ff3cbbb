import CalendarModel
import GraphEvents

extension ImportSource {
    /// The source `name` (what the calendar's events are tied to, so that importing it again updates
    /// them) made of `events`, planned as `calport import` plans a file; with what mapping the events to
    /// Graph reported. An error diagnostic is an event Graph cannot hold: it is left out of the plan.
    public static func planning(_ events: [Event], name: String) -> GraphMapping<ImportSource> {
        let carried = AttachmentPlanning(events)
        var written = GraphEventWriter(style: .post, annotatesIdentity: true).write(carried.events)
        // The importer deletes cancelled events itself, so the writer's warning does not apply.
        written.diagnostics.removeAll { $0.code == "graph-post-cancelled" }
        var plan = ImportPlan(entries: written.output)
        func files(of item: PlannedItem) -> [Attachment] {
            guard let uid = item.source.uid else { return [] }
            return carried.files[AttachmentPlanning.key(uid: uid, recurrenceID: item.source.recurrenceID)] ?? []
        }
        for index in plan.creates.indices { plan.creates[index].attachments = files(of: plan.creates[index]) }
        for index in plan.changes.indices {
            guard case .update = plan.changes[index].action else { continue }
            plan.changes[index].attachments = files(of: plan.changes[index])
        }
        return GraphMapping(
            output: ImportSource(name: name, plan: plan), diagnostics: carried.diagnostics + written.diagnostics)
    }
}
