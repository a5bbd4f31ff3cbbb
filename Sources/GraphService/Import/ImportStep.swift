/// What the import does with one event of a source, given what the calendar has of it.
enum ImportStep: Sendable, Hashable {
    /// Not in the calendar: POST it.
    case create
    /// In the calendar with other content: PATCH the event with this id.
    case update(id: String)
    /// In the calendar with this content, its series not finished (a run stopped mid-way): apply
    /// the overrides and cancellations, then the finishing PATCH.
    case resume(id: String)
    /// Cancelled in the input (STATUS:CANCELLED, METHOD:CANCEL) and in the calendar: DELETE it.
    case delete(id: String)
    /// Nothing to do: the same content is there, or a cancelled event is not.
    case unchanged
    /// Left alone, for this reason.
    case failed(String)

    /// The step for `unit` given `target`, the calendar's event of the same source and UID.
    /// The upsert rules (docs/graph-service.md): the same content is unchanged; otherwise an
    /// older version of the source (SEQUENCE, then LAST-MODIFIED) or an event edited in the
    /// calendar since the last import is reported and left alone, unless `force`.
    static func decide(_ unit: ImportUnit, target: TargetEvent?, force: Bool) -> ImportStep {
        if unit.item.source.cancelled { return target.map { .delete(id: $0.id) } ?? .unchanged }
        guard let target else { return .create }
        if target.stamp.content == unit.content {
            return target.stamp.isPending ? .resume(id: target.id) : .unchanged
        }
        guard !force else { return .update(id: target.id) }
        if unit.item.source.isOlder(than: target.stamp.version) {
            let sequence = target.stamp.version.sequence.map { "SEQUENCE \($0)" } ?? "a later LAST-MODIFIED"
            return .failed("the calendar holds a newer version of it (\(sequence)); --force overwrites it")
        }
        if target.edits != target.stamp.edits {
            return .failed("edited in the calendar since the last import; --force overwrites it")
        }
        return .update(id: target.id)
    }
}
