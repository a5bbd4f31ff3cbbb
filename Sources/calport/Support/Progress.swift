import CalendarConversion
import Foundation

/// A one-line progress report on stderr for long runs — files done of the total and events per
/// second — shown only when stderr is a terminal, so that logs and pipes stay clean.
final class Progress: @unchecked Sendable {
    private let enabled: Bool
    private let write: (String) -> Void
    private let started = Date()
    private let lock = NSLock()
    private var lastShown = Date.distantPast
    private var lastKind = ""
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
            "calport: \(filesDone)/\(total) files, \(events) events, \(Self.rate(events, seconds: seconds)) events/s"
        }
    }

    /// Reports progress through one large input or several: bytes read of the total (when known),
    /// events, their rate and, from the byte rate, the time left; at most ten times a second.
    func update(bytes: Int, of total: Int?, events: Int) {
        show { Self.line(bytes: bytes, of: total, events: events, seconds: $0) }
    }

    /// Reports progress through a known number of items (events imported, series read): how
    /// many are done, their rate and, from it, the time left; at most ten times a second.
    func update(done: Int, of total: Int, _ noun: String, prefix: String = "") {
        show(kind: noun) { Self.line(done: done, of: total, noun, prefix: prefix, seconds: $0) }
    }

    /// Reports progress through an unknown number of items: how many so far and their rate.
    func update(reading count: Int, _ noun: String) {
        show(kind: "reading " + noun) {
            "calport: \(count.grouped) \(noun), \(Self.rate(count, seconds: $0).grouped) \(noun)/s"
        }
    }

    /// Writes the line made from the seconds since the start over the last one, unless one of the
    /// same kind was shown less than a tenth of a second ago: a new phase (reading the view, then
    /// the series) is shown at once.
    private func show(kind: String = "", _ line: (Double) -> String) {
        guard enabled else { return }
        lock.lock()
        defer { lock.unlock() }
        let now = Date()
        guard now.timeIntervalSince(lastShown) >= 0.1 || kind != lastKind else { return }
        lastShown = now
        lastKind = kind
        shown = true
        write("\r\u{1B}[K" + line(now.timeIntervalSince(started)))
    }

    /// `calport: 12.0 of 100.0 MiB, 45,000 events, 30,000 events/s, 0:03 left`.
    static func line(bytes: Int, of total: Int?, events: Int, seconds: Double) -> String {
        func mebibytes(_ count: Int) -> String {
            let tenths = Int((Double(count) / 1_048_576 * 10).rounded())
            return "\((tenths / 10).grouped).\(tenths % 10)"
        }
        var text = "calport: \(mebibytes(bytes))"
        if let total, total > 0 { text += " of \(mebibytes(total))" }
        text += " MiB, \(events.grouped) events, \(rate(events, seconds: seconds).grouped) events/s"
        if let total { text += timeLeft(done: bytes, of: total, seconds: seconds) }
        return text
    }

    /// `calport: 120 of 400 events, 40 events/s, 0:07 left`, after `prefix` when there is one.
    static func line(done: Int, of total: Int, _ noun: String, prefix: String = "", seconds: Double) -> String {
        "calport: \(prefix)\(done.grouped) of \(total.grouped) \(noun), \(rate(done, seconds: seconds).grouped) \(noun)/s"
            + timeLeft(done: done, of: total, seconds: seconds)
    }

    /// Items (or bytes) a second, whole; a run younger than a millisecond counts as one.
    private static func rate(_ count: Int, seconds: Double) -> Int { Int(Double(count) / max(seconds, 0.001)) }

    /// `, m:ss left` at the rate so far, or nothing when nothing is done yet or nothing is left.
    private static func timeLeft(done: Int, of total: Int, seconds: Double) -> String {
        guard total > done, done > 0 else { return "" }
        let left = Int((Double(total - done) / (Double(done) / max(seconds, 0.001))).rounded())
        return ", \(left / 60):\(left % 60 < 10 ? "0" : "")\(left % 60) left"
    }

    /// Clears the progress line before the final report.
    func finish() {
        guard enabled && shown else { return }
        write("\r\u{1B}[K")
    }
}
