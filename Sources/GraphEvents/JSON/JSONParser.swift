/// Parses one JSON text (RFC 8259) from UTF-8 bytes.
public enum JSONParser {
    /// The single value in `bytes`; anything but whitespace after it is an error.
    public static func parse(_ bytes: [UInt8], limits: JSONLimits = JSONLimits()) throws(JSONError) -> JSONValue {
        var reader = JSONStreamReader(bytes: bytes, limits: limits)
        guard let document = try reader.next() else {
            throw JSONError(message: "empty input, expected a value", line: 1, column: 1, offset: 0)
        }
        if let extra = try reader.next() {
            throw JSONError(
                message: "unexpected content after the value", line: extra.line, column: extra.column,
                offset: extra.offset)
        }
        return document.value
    }

    /// The single value in `text`.
    public static func parse(_ text: String, limits: JSONLimits = JSONLimits()) throws(JSONError) -> JSONValue {
        try parse(Array(text.utf8), limits: limits)
    }
}

/// One top-level value of a stream, with where it started and the duplicate keys it had.
public struct JSONDocument: Hashable, Sendable {
    public var value: JSONValue
    public var line: Int
    public var column: Int
    public var offset: Int
    /// Each repeated member name, located; the last value was kept.
    public var duplicateKeys: [JSONError]
}

/// Reads top-level values one at a time from concatenated JSON texts, NDJSON or a single text.
public struct JSONStreamReader: Sendable {
    private let bytes: [UInt8]
    private let limits: JSONLimits
    private var index = 0
    private var lines = LineCounter()

    /// A reader over the whole input.
    public init(bytes: [UInt8], limits: JSONLimits = JSONLimits()) {
        self.bytes = bytes
        self.limits = limits
    }

    /// The next top-level value, or nil at the end of the input.
    public mutating func next() throws(JSONError) -> JSONDocument? {
        let result: Result<JSONDocument?, JSONError> = bytes.withUnsafeBufferPointer { buffer in
            var scanner = JSONScanner(bytes: buffer, index: index, limits: limits)
            scanner.lines = lines
            defer {
                index = scanner.index
                lines = scanner.lines
            }
            guard scanner.peekSignificant() != nil else { return .success(nil) }
            let start = scanner.index
            do throws(JSONError) {
                let value = try scanner.parseValue()
                let (line, column) = scanner.lines.position(of: start, in: buffer)
                return .success(
                    JSONDocument(
                        value: value, line: line, column: column, offset: start,
                        duplicateKeys: scanner.duplicateKeys))
            } catch {
                // A syntax error ends the stream: without a grammar there is no safe place to resume.
                scanner.index = buffer.count
                return .failure(error)
            }
        }
        return try result.get()
    }
}
