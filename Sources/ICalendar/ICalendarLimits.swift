/// Limits that keep a hostile or broken file from exhausting memory; each one reached is a diagnostic.
public struct ICalendarLimits: Sendable {
    /// The longest logical (unfolded) content line kept, in bytes.
    public var maximumLineLength: Int
    /// The deepest BEGIN nesting accepted.
    public var maximumDepth: Int

    public init(maximumLineLength: Int = 8 << 20, maximumDepth: Int = 64) {
        self.maximumLineLength = maximumLineLength
        self.maximumDepth = maximumDepth
    }
}
