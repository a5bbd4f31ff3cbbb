/// An invariant a fuzz target found broken: the input did not crash, but calport mishandled it.
public struct FuzzFinding: Error, CustomStringConvertible, Sendable {
    /// Which target found it.
    public var target: FuzzTarget
    /// What went wrong, for the crash report or the failing test.
    public var message: String

    public var description: String { "\(target.rawValue): \(message)" }
}
