import CalendarModel

/// Which Graph JSON a writer produces.
public enum GraphOutputStyle: String, Hashable, Sendable {
    /// A body for `POST /me/events`: writable members only, Windows zone names, a `transactionId`.
    case post
    /// An event as the service returns it, read-only members included.
    case full
}

/// Collects what writing one event to Graph loses or refuses, as diagnostics naming its UID.
struct GraphEncoder {
    let style: GraphOutputStyle
    let uid: String
    private(set) var diagnostics: [Diagnostic] = []

    init(style: GraphOutputStyle, uid: String) {
        self.style = style
        self.uid = uid
    }

    /// Records a problem with the event being written.
    mutating func report(_ severity: Severity, _ code: String, _ message: String) {
        diagnostics.append(Diagnostic(severity, code: code, message: message, uid: uid))
    }
}
