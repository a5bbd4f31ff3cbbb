import Foundation

/// A calendar file that could not be read or written: which file, what was being done, and what the
/// system said. Problems *inside* a file are `Diagnostic`s instead.
public struct CalendarFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was being done with the file.
    public enum Operation: String, Hashable, Sendable {
        /// Reading the whole file.
        case read
        /// Writing the whole file (to a temporary file renamed over it).
        case write
    }

    /// The file's path.
    public var path: String
    /// Whether it was being read or written.
    public var operation: Operation
    /// The system's explanation, e.g. "No such file or directory".
    public var reason: String

    /// An error for `path`.
    public init(path: String, operation: Operation, reason: String) {
        self.path = path
        self.operation = operation
        self.reason = reason
    }

    /// An error for the file at `url`, explained by the error reading or writing it threw.
    public init(_ url: URL, _ operation: Operation, _ underlying: any Error) {
        self.init(path: url.path, operation: operation, reason: underlying.localizedDescription)
    }

    /// `path: cannot read: reason`, as compilers report a file they cannot open.
    public var description: String { "\(path): cannot \(operation.rawValue): \(reason)" }
}
