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

/// How many processors this process may run on: a second thread helps only when there is a second
/// processor for it. Foundation's `activeProcessorCount` counts the machine's (under `taskset -c 0`
/// it still says 2 on two cores); Linux's affinity mask, which `/proc/self/status` gives as
/// `Cpus_allowed` (`sched_getaffinity` is not in Swift's Glibc module), says what the process may
/// use.
package enum Processors {
    package static let available: Int = {
        let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        return status.flatMap(allowed(inStatus:)) ?? ProcessInfo.processInfo.activeProcessorCount
    }()

    /// The processors `Cpus_allowed` in the text of a `/proc/<pid>/status` allows: a mask in hex,
    /// in words of 32 bits separated by commas (proc(5)); nil without one or with none allowed.
    package static func allowed(inStatus status: String) -> Int? {
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed:") }) else {
            return nil
        }
        let count = line.dropFirst("Cpus_allowed:".count).reduce(0) { count, digit in
            count + (digit.hexDigitValue?.nonzeroBitCount ?? 0)
        }
        return count > 0 ? count : nil
    }
}
