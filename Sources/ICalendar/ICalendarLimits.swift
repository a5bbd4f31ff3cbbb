/// Limits that keep a hostile or broken file from exhausting memory; each one reached is a diagnostic.
public struct ICalendarLimits: Sendable {
    /// The longest logical (unfolded) content line kept, in bytes.
    public var maximumLineLength: Int
    /// The deepest BEGIN nesting accepted.
    public var maximumDepth: Int
    /// The longest unfolded ATTACH line kept, in bytes: room for Graph's largest attachment
    /// (150 MiB, 200 MiB in base64) and its parameters, so inline files survive a round trip while
    /// every other line keeps the tighter ``maximumLineLength``.
    public var maximumAttachmentLength: Int

    /// Limits of `maximumLineLength` bytes per unfolded line (8 MiB by default, room for an inline
    /// attachment) and `maximumDepth` nested BEGINs (64; real calendars nest three or four).
    /// ATTACH lines may be up to `maximumAttachmentLength` bytes (210 MiB by default), or
    /// `maximumLineLength` when that is larger.
    public init(maximumLineLength: Int = 8 << 20, maximumDepth: Int = 64, maximumAttachmentLength: Int = 210 << 20) {
        self.maximumLineLength = maximumLineLength
        self.maximumDepth = maximumDepth
        self.maximumAttachmentLength = max(maximumAttachmentLength, maximumLineLength)
    }
}
