import Foundation
import GraphEvents

/// What an earlier run recorded about one item.
public struct JournalRecord: Sendable, Hashable {
    /// `created`, `updated`, `unchanged`, `deleted` or `failed`.
    public var outcome: String
    /// The Graph id of what was created, when known.
    public var id: String?
}

/// The import journal: JSON lines appended and fsynced one by one, so that after a crash (kill -9
/// included) every line but a torn last one is on disk. An `intent` line precedes each request,
/// an `outcome` line follows each item's answer. Items with an intent but no outcome are sent
/// again with the same `transactionId`, which Graph recognises. It holds keys, ids and reasons,
/// never a token. An open journal is locked (flock(2)): two imports appending to one journal at
/// once would each take the other's outcomes for its own and count them twice.
public actor ImportJournal {
    /// Where the journal is.
    public nonisolated let path: String
    /// The last outcome of each key recorded by earlier runs, read once the journal was locked.
    public nonisolated let earlier: [String: JournalRecord]
    private let descriptor: Int32

    /// Opens (creating, 0600) and locks the journal at `path` for appending; fails at once, without
    /// waiting, when another process (or another `ImportJournal`) holds it. The lock is held until
    /// the journal is released, and by the kernel no longer than the process lives.
    public init(path: String) throws(GraphServiceError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .storage(path: path, reason: String(cString: strerror(errno))) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let failure = errno
            close(descriptor)
            throw .storage(
                path: path,
                reason: failure == EWOULDBLOCK
                    ? "the journal is in use by another import (locked); wait for it to end, or give another --journal"
                    : "cannot lock the journal: \(String(cString: strerror(failure)))")
        }
        self.path = path
        self.descriptor = descriptor
        earlier = Self.load(path: path)
        // A crash can leave a torn last line; end it so the next record starts on a line of its own.
        if let data = FileManager.default.contents(atPath: path), let last = data.last, last != UInt8(ascii: "\n") {
            try? DurableFile.writeAll([UInt8(ascii: "\n")], to: descriptor)
        }
    }

    deinit { close(descriptor) }

    /// The last outcome of each key in the journal at `path`; empty when there is none.
    private static func load(path: String) -> [String: JournalRecord] {
        guard let data = FileManager.default.contents(atPath: path) else { return [:] }
        var records: [String: JournalRecord] = [:]
        for line in data.split(separator: UInt8(ascii: "\n")) {
            // A line torn by a crash does not parse and is skipped: its item was not finished.
            guard let value = try? JSONParser.parse([UInt8](line)), value["op"]?.stringValue == "outcome",
                let key = value["key"]?.stringValue, let outcome = value["outcome"]?.stringValue
            else { continue }
            records[key] = JournalRecord(outcome: outcome, id: value["id"]?.stringValue ?? records[key]?.id)
        }
        return records
    }

    /// Records that a request for `keys` is about to go out.
    public func recordIntent(_ request: String, keys: [String]) throws(GraphServiceError) {
        try append(["op": "intent", "request": .string(request), "keys": .array(keys.map(JSONValue.string))])
    }

    /// Records the outcome of `key`.
    public func recordOutcome(key: String, outcome: ImportOutcome, id: String?) throws(GraphServiceError) {
        var line = JSONObject([JSONMember("op", "outcome"), JSONMember("key", .string(key))])
        switch outcome {
        case .created: line["outcome"] = "created"
        case .updated: line["outcome"] = "updated"
        case .unchanged: line["outcome"] = "unchanged"
        case .deleted: line["outcome"] = "deleted"
        case .failed(let reason):
            line["outcome"] = "failed"
            line["reason"] = .string(reason)
        }
        if let id { line["id"] = .string(id) }
        try append(.object(line))
    }

    private func append(_ value: JSONValue) throws(GraphServiceError) {
        do throws(DurableFile.Failure) {
            try DurableFile.writeAll(Array((JSONWriter().string(value) + "\n").utf8), to: descriptor)
            guard fsync(descriptor) == 0 else { throw DurableFile.Failure.current }
        } catch {
            throw .storage(path: path, reason: "cannot write the journal: \(error.reason)")
        }
    }
}
