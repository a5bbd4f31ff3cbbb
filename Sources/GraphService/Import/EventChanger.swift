import Foundation
import GraphEvents

/// Carries out the steps after the creates: PATCHes and DELETEs of events, a series' overrides
/// and cancellations, and its finishing PATCH. Each outcome is journalled under its key.
struct EventChanger: Sendable {
    var client: GraphClient
    var eventsPath: String
    var journal: ImportJournal?

    /// The outcomes of `unit`'s step, by key: the unit's own, each change's, and `key/finished`
    /// once a series' finishing PATCH went through. `created` is what the create batch answered;
    /// `done` what the journal says an earlier run finished.
    func apply(
        _ step: ImportStep, to unit: ImportUnit, created: ItemResult?, done: [String: JournalRecord]
    ) async -> [String: ImportOutcome] {
        var outcomes: [String: ImportOutcome] = [:]
        let seriesID: String
        let outcome: ImportOutcome
        switch step {
        case .unchanged: return [unit.key: .unchanged]
        case .failed(let reason): return [unit.key: .failed(reason: reason)]
        case .delete(let id): return [unit.key: await delete(id, key: unit.key)]
        case .create:
            guard case .created? = created?.outcome, let id = created?.id else {
                if case .failed(let reason)? = created?.outcome { return [unit.key: .failed(reason: reason)] }
                return [unit.key: .failed(reason: "Graph did not say which event it created")]
            }
            seriesID = id
            outcome = .created
        case .update(let id):
            if let failure = await patch(id, unit.updateBody, key: unit.key) { return [unit.key: failure] }
            seriesID = id
            outcome = .updated
        case .resume(let id):
            seriesID = id
            outcome = .created
        }
        outcomes[unit.key] = outcome
        guard unit.needsFinishing else { return outcomes }
        let pending = unit.changes.filter { change in
            !(done[change.key].map { $0.outcome != "failed" } ?? false)
        }
        let applied = await SeriesUpdater(client: client, journal: journal).apply(pending, masterID: seriesID)
        var complete = true
        for change in unit.changes {
            guard let result = applied[change.key] else { continue }  // done by an earlier run
            if case .failed(let reason) = result.outcome {
                outcomes[change.key] = .failed(reason: reason)
                complete = false
            }
        }
        let attached = await attachFiles(
            unit.files, of: unit.item.label, uid: unit.uid, to: seriesID, checkExisting: step != .create, done: done)
        outcomes.merge(attached.outcomes) { $1 }
        complete = complete && attached.complete
        // An occurrence's files go onto it once it is patched (an exception, with an id of its own).
        for change in unit.changes {
            guard let files = unit.changeFiles[change.key] else { continue }
            guard let occurrenceID = applied[change.key]?.id ?? done[change.key]?.id else {
                // Not patched: the change's failure is reported, and a later run attaches them.
                complete = false
                continue
            }
            let attached = await attachFiles(
                files, of: change.label, uid: unit.uid, to: occurrenceID, checkExisting: step != .create, done: done)
            outcomes.merge(attached.outcomes) { $1 }
            complete = complete && attached.complete
        }
        // The series is finished (and its attendees invited) only once every change is in place;
        // until then its stamp says pending, and the next run resumes it.
        guard complete else { return outcomes }
        if let failure = await patch(seriesID, unit.finishingBody, key: unit.key + "/finish") {
            outcomes[unit.key] = failure
        } else {
            outcomes[unit.key + "/finished"] = .created
        }
        return outcomes
    }

    /// DELETEs an event; one already gone counts as deleted.
    func delete(_ id: String, key: String) async -> ImportOutcome {
        do {
            try await journal?.recordIntent("DELETE event", keys: [key])
            let response = try await client.send("DELETE", url(id))
            guard response.isSuccess || response.status == 404 else {
                return .failed(
                    reason: GraphClient.error("DELETE \(eventsPath)/{id}", response.status, body: response.body)
                        .description)
            }
            try await journal?.recordOutcome(key: key, outcome: .deleted, id: id)
            return .deleted
        } catch {
            return .failed(reason: error.description)
        }
    }

    /// PATCHes an event; nil when it went through, else the failure.
    private func patch(_ id: String, _ body: JSONObject, key: String) async -> ImportOutcome? {
        do {
            try await journal?.recordIntent("PATCH event", keys: [key])
            _ = try await client.json("PATCH", url(id), body: .object(body))
            try await journal?.recordOutcome(key: key, outcome: .updated, id: id)
            return nil
        } catch {
            return .failed(reason: error.description)
        }
    }

    private func url(_ id: String) -> URL { client.endpoints.mailbox("/events/\(id.urlComponentEncoded)") }
}
