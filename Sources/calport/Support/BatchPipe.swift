import Foundation

/// Hands batches of values from the thread that makes them to a thread of its own that consumes
/// them, in the order sent. At most `capacity` batches wait, so a fast producer waits for a slow
/// consumer and memory stays bounded.
final class BatchPipe<Element: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var waiting: [[Element]] = []
    private var closed = false
    private let capacity: Int
    private let done = DispatchSemaphore(value: 0)

    /// Starts the consumer: `consume` is called with each batch, on one thread, in order, and may take
    /// its elements out of it (the batch is the consumer's alone). The thread
    /// is its own, not one of Dispatch's: it waits for batches, and waiting in Dispatch's few shared
    /// threads holds up whatever else the process gives them (a test suite's timers and processes).
    init(capacity: Int = 8, consume: @escaping @Sendable (inout [Element]) -> Void) {
        self.capacity = capacity
        Thread.detachNewThread { [self] in
            while var batch = take() { consume(&batch) }
            done.signal()
        }
    }

    /// Queues `batch`, waiting while `capacity` batches already wait.
    func send(_ batch: [Element]) {
        condition.lock()
        while waiting.count >= capacity { condition.wait() }
        waiting.append(batch)
        condition.broadcast()
        condition.unlock()
    }

    /// Returns once every batch sent is consumed; nothing may be sent after.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
        done.wait()
    }

    private func take() -> [Element]? {
        condition.lock()
        defer { condition.unlock() }
        while waiting.isEmpty && !closed { condition.wait() }
        guard !waiting.isEmpty else { return nil }
        condition.broadcast()
        return waiting.removeFirst()
    }
}
