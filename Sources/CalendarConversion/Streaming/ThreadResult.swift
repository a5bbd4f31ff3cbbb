import Foundation

/// A value worked out on a thread of its own, handed over by `wait()`.
///
/// A thread, not a Dispatch queue: waiting for the work in one of Dispatch's few shared threads
/// could hold up whatever else the process gives them (the test suite's process waits once did).
package final class ThreadResult<Value>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    // Written once by the thread before `done` is signalled; read only after.
    private var value: Value?

    /// Starts `work` on a new thread.
    package init(_ work: @escaping @Sendable () -> Value) {
        Thread.detachNewThread { [self] in
            value = work()
            done.signal()
        }
    }

    /// The value, waiting for the thread to finish it. Asked once.
    package func wait() -> Value {
        done.wait()
        return value!
    }
}
