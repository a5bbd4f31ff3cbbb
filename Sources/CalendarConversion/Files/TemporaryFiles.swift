import Foundation

/// The temporary files this process is writing (``AtomicFile``), so that a run cut short (a failed
/// standard stream, a signal) can remove them before it ends.
public enum TemporaryFiles {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var paths: Set<String> = []

    static func add(_ path: String) { lock.withLock { _ = paths.insert(path) } }
    static func remove(_ path: String) { lock.withLock { _ = paths.remove(path) } }

    /// Unlinks every temporary file still being written; the targets keep their old content.
    public static func removeAll() {
        lock.withLock {
            for path in paths { unlink(path) }
            paths.removeAll()
        }
    }
}
