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
        Progress(enabled: !quiet && terminal.errorIsTerminal, write: terminal.writeError)
    }

    /// Reports progress, at most ten times a second.
    func update(filesDone: Int, of total: Int, events: Int) {
        show { seconds in
            "calport: \(filesDone)/\(total) files, \(events) events, \(Int(Double(events) / max(seconds, 0.001))) events/s"
        }
    }

    /// Reports progress through one large input or several: bytes read of the total (when known),
    /// events, their rate and, from the byte rate, the time left; at most ten times a second.
    func update(bytes: Int, of total: Int?, events: Int) {
        show { Self.line(bytes: bytes, of: total, events: events, seconds: $0) }
    }

    /// Writes the line made from the seconds since the start over the last one, unless one was
    /// shown less than a tenth of a second ago.
    private func show(_ line: (Double) -> String) {
        guard enabled else { return }
        lock.lock()
        defer { lock.unlock() }
        let now = Date()
        guard now.timeIntervalSince(lastShown) >= 0.1 else { return }
        lastShown = now
        shown = true
        write("\r\u{1B}[K" + line(now.timeIntervalSince(started)))
    }

    /// `calport: 12.0 of 100.0 MiB, 45,000 events, 30,000 events/s, 0:03 left`.
    static func line(bytes: Int, of total: Int?, events: Int, seconds: Double) -> String {
        let elapsed = max(seconds, 0.001)
        func mebibytes(_ count: Int) -> String {
            let tenths = Int((Double(count) / 1_048_576 * 10).rounded())
            return "\((tenths / 10).grouped).\(tenths % 10)"
        }
        var text = "calport: \(mebibytes(bytes))"
        if let total, total > 0 { text += " of \(mebibytes(total))" }
        text += " MiB, \(events.grouped) events, \(Int(Double(events) / elapsed).grouped) events/s"
        if let total, total > bytes, bytes > 0 {
            let left = Int((Double(total - bytes) / (Double(bytes) / elapsed)).rounded())
            text += ", \(left / 60):\(left % 60 < 10 ? "0" : "")\(left % 60) left"
        }
        return text
    }

    /// Clears the progress line before the final report.
    func finish() {
        guard enabled && shown else { return }
        write("\r\u{1B}[K")
    }
}
