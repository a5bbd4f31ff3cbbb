extension String {
    /// A string of bytes already known to be valid UTF-8, made without checking them again.
    ///
    /// `LineReader` checks (and repairs) each logical line once; the parser's slices of it end at
    /// ASCII delimiters, so they are whole characters, and `String(decoding:as:)` would only check
    /// every byte a second time. Debug builds still check, so that a caller breaking the rule fails
    /// the tests. An ASCII string is marked as such, as `String(decoding:as:)` marks it: unmarked, it
    /// would take Unicode's slow paths in every comparison, hash and case mapping.
    init(validUTF8 bytes: Span<UInt8>) {
        assert((try? UTF8Span(validating: bytes)) != nil, "bytes handed on as valid UTF-8 are not")
        var text = UTF8Span(unchecked: bytes)
        _ = text.checkForASCII()
        self.init(copying: text)
    }
}
