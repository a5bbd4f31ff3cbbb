extension String {
    /// A string of bytes already known to be valid UTF-8, made without checking them again.
    ///
    /// `LineReader` checks (and repairs) each logical line once; the parser's slices of it end at
    /// ASCII delimiters, so they are whole characters, and `String(decoding:as:)` would only check
    /// every byte a second time. Debug builds still check, so that a caller breaking the rule fails
    /// the tests.
    init(validUTF8 bytes: Span<UInt8>) {
        assert((try? UTF8Span(validating: bytes)) != nil, "bytes handed on as valid UTF-8 are not")
        self.init(copying: UTF8Span(unchecked: bytes))
    }
}
