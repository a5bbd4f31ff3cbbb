/// What became of one planned item.
public enum ImportOutcome: Sendable, Hashable {
    /// Created (or, for an occurrence, changed) by this run.
    case created
    /// Already there: done by an earlier run (journal), or recognised by its `transactionId`.
    case alreadyPresent
    case failed(reason: String)
}

/// One planned item's outcome.
public struct ImportResult: Sendable, Hashable {
    public var key: String
    public var label: String
    public var outcome: ImportOutcome
}

/// The final account of an import.
public struct ImportReport: Sendable, Hashable {
    /// Each item's outcome, in plan order.
    public var results: [ImportResult]

    public init(results: [ImportResult] = []) {
        self.results = results
    }

    public var created: Int { results.filter { $0.outcome == .created }.count }
    public var alreadyPresent: Int { results.filter { $0.outcome == .alreadyPresent }.count }
    /// The failed items with their reasons.
    public var failures: [(label: String, reason: String)] {
        results.compactMap { result in
            if case .failed(let reason) = result.outcome { return (result.label, reason) }
            return nil
        }
    }
}
