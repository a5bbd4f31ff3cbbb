import Foundation

/// The temporary files this process is writing (an output file before its rename into place, a
/// token cache or delta state being replaced), so that a run cut short (a failed standard stream,
/// a signal) can remove them before it ends. It lives in the lowest module so that every module
/// that writes files atomically registers with the one set the signal handler empties.
public enum TemporaryFiles {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var paths: Set<String> = []

    /// Runs `create` (an open(2) of `path`, giving a descriptor or -1) and registers the file it
    /// made, as one step: an interruption comes before the file exists or after it is registered,
    /// never between.
    public static func create(_ path: String, _ create: () -> Int32) -> Int32 {
        lock.withLock {
            let descriptor = create()
            if descriptor >= 0 { paths.insert(path) }
            return descriptor
        }
    }

    /// Forgets `path`: it was renamed into place or removed.
    public static func remove(_ path: String) { lock.withLock { _ = paths.remove(path) } }

    /// Unlinks every temporary file still being written; the targets keep their old content.
    public static func removeAll() {
        lock.withLock {
            for path in paths { unlink(path) }
            paths.removeAll()
        }
    }
}
