/// An input that could not be read: its message names the file and the system's reason.
public struct InputError: Error, CustomStringConvertible {
    /// `PATH: error: cannot read input: REASON`, as calport prints it.
    public var message: String
    /// The message.
    public var description: String { message }

    /// An error with this message.
    public init(message: String) {
        self.message = message
    }
}
