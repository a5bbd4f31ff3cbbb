import Dispatch
import Foundation

/// One run of a program: `input` on its stdin, stdout and stderr collected, killed when it outlives
/// `limit` seconds.
///
/// Its stdin is a socket, not a pipe: writing to a program that exited without reading would
/// raise SIGPIPE in a pipe's writer and end calport, where `send` with `MSG_NOSIGNAL` just fails.
/// The input is written and both outputs are read at the same time, on their own threads, so that
/// neither side waits on a full buffer the other is not emptying, whatever the sizes.
struct ChildProcess: Sendable {
    var executable: String
    var limit: TimeInterval

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
        var sockets: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &sockets) == 0 else {
            throw LaunchError(reason: "no socket for its input: \(String(cString: strerror(errno)))")
        }
        let run = Run(executable: executable, childInput: sockets[1])
        let result: Result<Outcome, LaunchError> = await withCheckedContinuation { continuation in
            run.start(input: input, inputSocket: sockets[0], limit: limit) { continuation.resume(returning: $0) }
        }
        return try result.get()
    }
}

/// The state of one run, shared by the threads that feed and drain it and by its termination
/// handler. `@unchecked`: `Process` is not Sendable; the mutable fields are guarded by `lock`.
private final class Run: @unchecked Sendable {
    private let process = Process()
    private let output = Pipe()
    private let errorOutput = Pipe()
    private let childInput: FileHandle
    private let lock = NSLock()
    private let finished = DispatchGroup()
    private var ending: ChildProcess.Outcome.Ending?
    private var outlived = false
    private var outputBytes: [UInt8] = []
    private var errorBytes: [UInt8] = []

    init(executable: String, childInput: Int32) {
        self.childInput = FileHandle(fileDescriptor: childInput, closeOnDealloc: true)
        process.executableURL = URL(fileURLWithPath: executable)
        process.standardInput = self.childInput
        process.standardOutput = output
        process.standardError = errorOutput
    }

    func start(
        input: [UInt8], inputSocket: Int32, limit: TimeInterval,
        done: @escaping @Sendable (Result<ChildProcess.Outcome, ChildProcess.LaunchError>) -> Void
    ) {
        finished.enter()
        process.terminationHandler = { [self] process in
            let ending: ChildProcess.Outcome.Ending =
                process.terminationReason == .uncaughtSignal
                ? .signalled(process.terminationStatus) : .exited(process.terminationStatus)
            lock.withLock { self.ending = outlived ? .outlived : ending }
            finished.leave()
        }
        do {
            try process.run()
        } catch {
            close(inputSocket)
            finished.leave()
            done(.failure(ChildProcess.LaunchError(reason: (error as NSError).localizedDescription)))
            return
        }
        // The child has its own copy now; the parent's would keep the child's stdin from ending.
        try? childInput.close()
        feed(input, to: inputSocket)
        drain(output) { bytes in self.outputBytes = bytes }
        drain(errorOutput) { bytes in self.errorBytes = bytes }
        // Weak: a run that ended must not be kept, with its descriptors, until the limit passes.
        let watchdog = DispatchWorkItem { [weak self] in self?.killIfRunning() }
        DispatchQueue.global().asyncAfter(deadline: .now() + limit, execute: watchdog)
        finished.notify(queue: .global()) { [self] in
            watchdog.cancel()
            // The handler holds this run, which holds the process, which holds the handler.
            process.terminationHandler = nil
            let outcome = lock.withLock {
                // Set by the termination handler, which the group waited for.
                ChildProcess.Outcome(ending: ending!, output: outputBytes, errorOutput: errorBytes)
            }
            done(.success(outcome))
        }
    }

    private func killIfRunning() {
        lock.withLock {
            guard ending == nil else { return }
            outlived = true
            kill(process.processIdentifier, SIGKILL)
        }
    }

    /// Writes `input` and then ends the child's stdin; a child that stops reading only makes the
    /// write fail, and its exit or its reply says why.
    private func feed(_ input: [UInt8], to socket: Int32) {
        finished.enter()
        DispatchQueue.global().async { [self] in
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
            finished.leave()
        }
    }

    private func drain(_ pipe: Pipe, into store: @escaping @Sendable ([UInt8]) -> Void) {
        finished.enter()
        DispatchQueue.global().async { [self] in
            let bytes = [UInt8](pipe.fileHandleForReading.readDataToEndOfFile())
            // Now, not when the pipe is freed: Process keeps its pipes for as long as it lives.
            try? pipe.fileHandleForReading.close()
            lock.withLock { store(bytes) }
            finished.leave()
        }
    }
}
