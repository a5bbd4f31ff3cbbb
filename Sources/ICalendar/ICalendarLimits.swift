/// Limits that keep a hostile or broken file from exhausting memory; each one reached is a diagnostic.
public struct ICalendarLimits: Sendable {
    /// The longest logical (unfolded) content line kept, in bytes.
    public var maximumLineLength: Int
    /// The deepest BEGIN nesting accepted.
    public var maximumDepth: Int

    /// Limits of `maximumLineLength` bytes per unfolded line (8 MiB by default, room for an inline
    /// attachment) and `maximumDepth` nested BEGINs (64; real calendars nest three or four).
    public init(maximumLineLength: Int = 8 << 20, maximumDepth: Int = 64) {
        self.maximumLineLength = maximumLineLength
        self.maximumDepth = maximumDepth
    }
}
