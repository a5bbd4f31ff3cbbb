/// A token or code that must never be printed: its description is a placeholder, and only
/// `reveal()` (used where it goes on the wire or into the 0600 cache) gives the text.
public struct Secret: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    private let text: String

    /// Wraps `text` (an access or refresh token, a device code) so that printing it shows `<redacted>`.
    public init(_ text: String) {
        self.text = text
    }

    /// The secret text, for an `Authorization` header, a form body or the token cache only.
    public func reveal() -> String { text }

    public var description: String { "<redacted>" }
    public var debugDescription: String { "<redacted>" }
}
