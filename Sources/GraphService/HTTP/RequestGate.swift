/// Lets at most `limit` requests be in flight at once; Graph throttles a mailbox beyond four.
public actor RequestGate {
    private let limit: Int
    private var inFlight = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    public init(limit: Int = 4) {
        self.limit = max(limit, 1)
    }

    /// Runs `body` once a slot is free, holding the slot until it returns.
    public func withSlot<T: Sendable, E: Error>(_ body: @Sendable () async throws(E) -> T) async throws(E) -> T {
        await acquire()
        defer { release() }
        return try await body()
    }

    private func acquire() async {
        if inFlight < limit {
            inFlight += 1
            return
        }
        // The releasing call hands its slot straight to the first waiter.
        await withCheckedContinuation { waiting.append($0) }
    }

    private func release() {
        if waiting.isEmpty {
            inFlight -= 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
