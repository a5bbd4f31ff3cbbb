import Foundation

/// A one-line progress report on stderr for long runs — files done of the total and events per
/// second — shown only when stderr is a terminal, so that logs and pipes stay clean.
final class Progress: @unchecked Sendable {
    private let enabled: Bool
    private let write: (String) -> Void
    private let started = Date()
    private let lock = NSLock()
    private var lastShown = Date.distantPast
    private var shown = false

    init(enabled: Bool, write: @escaping (String) -> Void) {
        self.enabled = enabled
        self.write = write
    }

    /// Shown when stderr is a terminal and the run is not `--quiet`.
    static func forTerminal(quiet: Bool, terminal: Terminal) -> Progress {
        Progress(enabled: !quiet && isatty(STDERR_FILENO) == 1, write: terminal.writeError)
    }

    /// Reports progress, at most ten times a second.
    func update(filesDone: Int, of total: Int, events: Int) {
        guard enabled else { return }
        lock.lock()
        defer { lock.unlock() }
        let now = Date()
        guard now.timeIntervalSince(lastShown) >= 0.1 else { return }
        lastShown = now
        shown = true
        let rate = Double(events) / max(now.timeIntervalSince(started), 0.001)
        write("\r\u{1B}[Kcalport: \(filesDone)/\(total) files, \(events) events, \(Int(rate)) events/s")
    }

    /// Clears the progress line before the final report.
    func finish() {
        guard enabled && shown else { return }
        write("\r\u{1B}[K")
    }
}
