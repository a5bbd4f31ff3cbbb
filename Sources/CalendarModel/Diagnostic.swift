/// How serious a diagnostic is.
public enum Severity: Int, Comparable, Hashable, Sendable, CustomStringConvertible {
    /// For information: nothing was lost.
    case note
    /// Something was dropped, changed or guessed; the rest was kept.
    case warning
    /// An event or component could not be kept, or the input cannot be read as meant.
    case error

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String {
        switch self {
        case .note: return "note"
        case .warning: return "warning"
        case .error: return "error"
        }
    }
}

/// Where in an input something was found: a file, a line and column, or a JSON path.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    /// The input file, when there is one.
    public var file: String?
    /// The 1-based line.
    public var line: Int?
    /// The 1-based column.
    public var column: Int?
    /// A JSON path such as `$.value[3].start.timeZone`.
    public var jsonPath: String?

    /// A location from the parts that are known.
    public init(file: String? = nil, line: Int? = nil, column: Int? = nil, jsonPath: String? = nil) {
        self.file = file
        self.line = line
        self.column = column
        self.jsonPath = jsonPath
    }

    /// `file:line:column`, with the parts that are known.
    public var description: String {
        var text = file ?? "<input>"
        if let line {
            text += ":\(line)"
            if let column { text += ":\(column)" }
        }
        if let jsonPath { text += ": \(jsonPath)" }
        return text
    }
}

/// One problem found while reading, mapping or writing a calendar, as a value the caller can print,
/// count or turn into an error.
public struct Diagnostic: Error, Hashable, Sendable, CustomStringConvertible {
    /// How serious it is.
    public var severity: Severity
    /// A stable kebab-case identifier, e.g. `unknown-tzid`, for scripts and tests.
    public var code: String
    /// What happened, in a sentence.
    public var message: String
    /// Where it was found.
    public var location: SourceLocation
    /// The UID of the component it concerns, when known.
    public var uid: String?

    /// A diagnostic of `severity` under `code`, located at `location`, about the component `uid`.
    public init(
        _ severity: Severity, code: String, message: String, location: SourceLocation = SourceLocation(),
        uid: String? = nil
    ) {
        self.severity = severity
        self.code = code
        self.message = message
        self.location = location
        self.uid = uid
    }

    /// `file:line:column: severity: message [code] (UID …)`, the way compilers print; a problem of
    /// no particular input (found while writing) is prefixed `calport:` instead.
    public var description: String {
        let place = location == SourceLocation() ? "calport" : location.description
        var text = "\(place): \(severity): \(message) [\(code)]"
        if let uid { text += uid.isEmpty ? " (empty UID)" : " (UID \(uid))" }
        return text
    }
}

extension [Diagnostic] {
    /// Appends `others` when there are any. Readers and writers pass diagnostics on after every
    /// event, five times an event, and nearly always none: `append(contentsOf:)` of an empty array
    /// is still a call of some 160 instructions.
    @inlinable
    package mutating func collect(_ others: [Diagnostic]) {
        if !others.isEmpty { append(contentsOf: others) }
    }
}
