/// Lets at most `limit` operations be in flight at once. Graph allows four concurrent operations
/// per mailbox, counting a `$batch`'s items, which it runs four at a time: a batch takes as many
/// slots as it runs items at once.
public actor RequestGate {
    private let limit: Int
    private var inUse = 0
    /// First come, first served, so that a batch waiting for four slots is not overtaken forever.
    private var waiting: [(slots: Int, continuation: CheckedContinuation<Void, Never>)] = []

    /// A gate letting `limit` operations (at least one) through at once; 4 is Graph's limit per mailbox.
    public init(limit: Int = 4) {
        self.limit = max(limit, 1)
    }

    /// Runs `body` once `slots` slots (at most the limit) are free, holding them until it returns.
    public func withSlots<T: Sendable, E: Error>(_ slots: Int = 1, _ body: @Sendable () async throws(E) -> T)
        async throws(E) -> T
    {
        let slots = min(max(slots, 1), limit)
        await acquire(slots)
        defer { release(slots) }
        return try await body()
    }

    private func acquire(_ slots: Int) async {
        if waiting.isEmpty && inUse + slots <= limit {
            inUse += slots
            return
        }
        // A release hands the slots straight to the waiters at the front that now fit.
        await withCheckedContinuation { waiting.append((slots, $0)) }
    }

    private func release(_ slots: Int) {
        inUse -= slots
        while let next = waiting.first, inUse + next.slots <= limit {
            waiting.removeFirst()
            inUse += next.slots
            next.continuation.resume()
        }
    }
}
