import Dispatch
import Foundation

/// One run of a program: `input` on its stdin, stdout and stderr collected, killed when it outlives
/// `limit` seconds.
///
/// Spawned with posix_spawn rather than Foundation's Process, because Process makes its pipes and
/// its exit-watching socket without close-on-exec: a child another thread starts at that moment
/// inherits them, and this run's end-of-file, or its exit, then waits until that child ends too.
/// Every descriptor here is a close-on-exec socket pair; stdin being a socket also means that
/// writing to a program that exited unread fails (`MSG_NOSIGNAL`) instead of raising SIGPIPE.
/// Input is written while both outputs are read, so neither side waits on a full buffer the other
/// is not emptying, whatever the sizes; each blocking call has a thread of its own, since the
/// global dispatch queues run about as many threads as there are cores and a few blocked calls
/// there would stall every other run, and the watchdog meant to end them.
struct ChildProcess: Sendable {
    var executable: String
    var limit: TimeInterval
    /// The child's environment as `NAME=value` strings.
    var environment: [String] = ChildProcess.environment(without: ChildProcess.secretVariables)

    /// Variables that hold credentials: a helper gets its token in the request on stdin, never from
    /// here, so that it does not sit in /proc/PID/environ for anyone who may read that.
    static let secretVariables: Set<String> = ["CALPORT_TOKEN", "CALPORT_CLIENT_SECRET"]

    /// `environment` (this process's by default) without the variables named in `removed`.
    static func environment(
        without removed: Set<String>, from environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> [String] {
        environment.filter { !removed.contains($0.key) }.map { "\($0.key)=\($0.value)" }.sorted()
    }

    /// How the program ended and what it wrote.
    struct Outcome: Sendable, Hashable {
        enum Ending: Sendable, Hashable {
            case exited(Int32)
            case signalled(Int32)
            /// Still running after `limit` seconds, then killed.
            case outlived
        }

        var ending: Ending
        var output: [UInt8]
        var errorOutput: [UInt8]
    }

    /// Why the program could not be started.
    struct LaunchError: Error, Sendable, Hashable {
        var reason: String
    }

    func run(input: [UInt8]) async throws(LaunchError) -> Outcome {
        let result: Result<Outcome, LaunchError> = await withCheckedContinuation { continuation in
            Run.start(executable: executable, environment: environment, input: input, limit: limit) {
                continuation.resume(returning: $0)
            }
        }
        return try result.get()
    }
}

/// The state of one started run, shared by the threads that feed it, drain it and wait for it.
/// `@unchecked`: the mutable fields are guarded by `lock`.
private final class Run: @unchecked Sendable {
    /// Watchdogs and completions: short work, on a serial queue, which gets a thread of its own.
    private static let events = DispatchQueue(label: "calport.child-process")

    private let pid: pid_t
    private let lock = NSLock()
    private let finished = DispatchGroup()
    private var ending: ChildProcess.Outcome.Ending?
    private var outlived = false
    private var output: [UInt8] = []
    private var errorOutput: [UInt8] = []

    private init(pid: pid_t) {
        self.pid = pid
    }

    static func start(
        executable: String, environment: [String], input: [UInt8], limit: TimeInterval,
        done: @escaping @Sendable (Result<ChildProcess.Outcome, ChildProcess.LaunchError>) -> Void
    ) {
        // Each pair: this side's end, then the child's.
        var pairs: [[Int32]] = []
        for _ in 0..<3 {
            var pair: [Int32] = [-1, -1]
            guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0
            else {
                let reason = String(cString: strerror(errno))
                pairs.joined().forEach { close($0) }
                return done(.failure(ChildProcess.LaunchError(reason: "no socket for its standard streams: \(reason)")))
            }
            pairs.append(pair)
        }
        let spawned = spawn(executable, environment: environment, streams: pairs.map { $0[1] })
        pairs.forEach { close($0[1]) }
        guard case .success(let pid) = spawned else {
            pairs.forEach { close($0[0]) }
            if case .failure(let error) = spawned { done(.failure(error)) }
            return
        }
        let run = Run(pid: pid)
        run.awaitExit()
        run.feed(input, to: pairs[0][0])
        run.drain(pairs[1][0]) { bytes in run.output = bytes }
        run.drain(pairs[2][0]) { bytes in run.errorOutput = bytes }
        // Weak: a run that ended must not be kept until the limit passes.
        let watchdog = DispatchWorkItem { [weak run] in run?.killIfRunning() }
        events.asyncAfter(deadline: .now() + limit, execute: watchdog)
        run.finished.notify(queue: events) {
            watchdog.cancel()
            let outcome = run.lock.withLock {
                // Set by awaitExit, which the group waited for.
                ChildProcess.Outcome(ending: run.ending!, output: run.output, errorOutput: run.errorOutput)
            }
            done(.success(outcome))
        }
    }

    /// Starts `executable` with `streams` as its stdin, stdout and stderr, no signal blocked or
    /// ignored (whatever the calling thread has), and `environment`.
    private static func spawn(_ executable: String, environment: [String], streams: [Int32]) -> Result<
        pid_t, ChildProcess.LaunchError
    > {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (target, stream) in streams.enumerated() {
            posix_spawn_file_actions_adddup2(&actions, stream, Int32(target))
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let arguments = [strdup(executable), nil]
        defer { arguments.forEach { free($0) } }
        let variables = environment.map { strdup($0) } + [nil]
        defer { variables.forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, &attributes, arguments, variables)
        guard status == 0 else { return .failure(ChildProcess.LaunchError(reason: String(cString: strerror(status)))) }
        return .success(pid)
    }

    /// Waits for the exit without reaping it, then reaps it under the lock that the watchdog takes
    /// to kill: the pid cannot have passed to another process while the watchdog may still use it.
    private func awaitExit() {
        onThreadOfItsOwn { [self] in
            var info = siginfo_t()
            while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
            lock.withLock {
                var status: Int32 = 0
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                // The low seven bits are the signal that ended it, zero when it exited.
                ending =
                    outlived
                    ? .outlived : status & 0x7F == 0 ? .exited((status >> 8) & 0xFF) : .signalled(status & 0x7F)
            }
        }
    }

    private func killIfRunning() {
        lock.withLock {
            guard ending == nil else { return }
            outlived = true
            kill(pid, SIGKILL)
        }
    }

    /// Writes `input` and then ends the child's stdin; a child that stops reading only makes the
    /// write fail, and its exit or its reply says why.
    private func feed(_ input: [UInt8], to socket: Int32) {
        onThreadOfItsOwn {
            input.withUnsafeBytes { buffer in
                var sent = 0
                while sent < buffer.count {
                    let count = send(socket, buffer.baseAddress! + sent, buffer.count - sent, Int32(MSG_NOSIGNAL))
                    if count < 0 && errno == EINTR { continue }
                    if count <= 0 { break }
                    sent += count
                }
            }
            shutdown(socket, Int32(SHUT_WR))
            close(socket)
        }
    }

    /// Reads `socket` to its end, then hands the bytes to `store` under the lock.
    private func drain(_ socket: Int32, into store: @escaping @Sendable ([UInt8]) -> Void) {
        onThreadOfItsOwn { [self] in
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = read(socket, &chunk, chunk.count)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                bytes.append(contentsOf: chunk[..<count])
            }
            close(socket)
            lock.withLock { store(bytes) }
        }
    }

    private func onThreadOfItsOwn(_ work: @escaping @Sendable () -> Void) {
        finished.enter()
        Thread { [finished] in
            work()
            finished.leave()
        }
        .start()
    }
}
