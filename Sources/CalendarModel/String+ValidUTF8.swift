extension String {
    /// A string of bytes already known to be valid UTF-8, made without checking them again.
    ///
    /// Readers check their input once: `LineReader` each logical line (the parser's slices of it
    /// end at ASCII delimiters, so they are whole characters), the JSON scanner each string as it
    /// records it; `String(decoding:as:)` would only check every byte a second time. Debug builds
    /// still check, so that a caller breaking the rule fails the tests. An ASCII string is marked as
    /// such, as `String(decoding:as:)` marks it: unmarked, it would take Unicode's slow paths in
    /// every comparison, hash and case mapping.
    ///
    /// `isASCII` says the bytes are known to be ASCII already (a reader found them so while checking
    /// them), and spares looking at them again: two scans of each value, some 1,700
    /// instructions an event. False leaves the question to this initialiser.
    @inlinable
    package init(validUTF8 bytes: Span<UInt8>, isASCII: Bool = false) {
        assert((try? UTF8Span(validating: bytes)) != nil, "bytes handed on as valid UTF-8 are not")
        var text = UTF8Span(unchecked: bytes, isKnownASCII: isASCII)
        assert(!isASCII || text.checkForASCII(), "bytes handed on as ASCII are not")
        if !isASCII { _ = text.checkForASCII() }
        self.init(copying: text)
    }
}
