/// The byte layout calport and `calport-http` exchange over the helper's stdin and stdout.
///
/// A frame is the magic `calport-http`, one version byte, one kind byte, then fields; each field
/// is a 32-bit big-endian length and that many bytes, so bodies may hold any byte. The frame is
/// the whole stream: a field cut short, or bytes after the last one, make it malformed.
enum HelperFrame {
    static let magic = Array("calport-http".utf8)
    /// Raised whenever the layout changes, so that a calport and a helper from different builds
    /// refuse each other's frames instead of misreading them.
    static let version: UInt8 = 1

    /// What a frame carries.
    enum Kind: UInt8 {
        case request = 0x51  // "Q"
        case response = 0x52  // "R"
        case failure = 0x46  // "F"
        case unreachable = 0x55  // "U"
    }
}

/// Why bytes are not a frame this build can read, or a message cannot be framed.
public enum HelperFrameError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The bytes do not start with the magic: not a helper frame at all.
    case notAFrame
    /// A frame of another protocol version: calport and calport-http come from different builds.
    case unsupportedVersion(UInt8)
    /// A frame of the wrong kind (a request where a reply was expected, or an unknown kind).
    case unexpectedKind(UInt8)
    /// The frame ends inside a field or before its last field.
    case truncated
    /// Bytes follow the last field.
    case trailingBytes
    /// A field's content is unusable (not UTF-8, not a URL, a number of the wrong width).
    case invalidField(String)
    /// A header name that is not an HTTP token, or a value holding CR, LF or NUL, which would let
    /// it end the header and start another.
    case invalidHeader(String)

    public var description: String {
        switch self {
        case .notAFrame: return "not a calport-http frame"
        case .unsupportedVersion(let version):
            return
                "protocol version \(version), not \(HelperFrame.version): calport and calport-http come from different builds"
        case .unexpectedKind(let kind): return "unexpected frame kind \(kind)"
        case .truncated: return "the frame is cut short"
        case .trailingBytes: return "bytes follow the frame"
        case .invalidField(let field): return "invalid \(field)"
        case .invalidHeader(let name): return "invalid header \(name.debugDescription)"
        }
    }
}

/// Builds one frame field by field.
struct HelperFrameWriter {
    private(set) var bytes: [UInt8]

    init(kind: HelperFrame.Kind) {
        bytes = HelperFrame.magic + [HelperFrame.version, kind.rawValue]
    }

    private init() {
        bytes = []
    }

    mutating func field(_ content: some Collection<UInt8>) throws(HelperFrameError) {
        try fieldLength(content.count)
        bytes.append(contentsOf: content)
    }

    /// The length that starts a field of `count` bytes, for a field whose content is sent apart.
    mutating func fieldLength(_ count: Int) throws(HelperFrameError) {
        guard let length = UInt32(exactly: count) else { throw .invalidField("field of \(count) bytes") }
        append(UInt64(length), width: 4)
    }

    mutating func text(_ text: String) throws(HelperFrameError) {
        try field(Array(text.utf8))
    }

    mutating func number(_ value: UInt64) throws(HelperFrameError) {
        var content = HelperFrameWriter()
        content.append(value, width: 8)
        try field(content.bytes)
    }

    /// Headers as one field holding a name field and a value field per header, sorted by name so
    /// that equal messages make equal frames.
    mutating func headers(_ headers: [String: String]) throws(HelperFrameError) {
        var content = HelperFrameWriter()
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            guard HTTPHeaderSyntax.isName(name), HTTPHeaderSyntax.isValue(value) else { throw .invalidHeader(name) }
            try content.text(name)
            try content.text(value)
        }
        try field(content.bytes)
    }

    private mutating func append(_ value: UInt64, width: Int) {
        for shift in stride(from: (width - 1) * 8, through: 0, by: -8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> shift))
        }
    }
}

/// Reads one frame field by field, in the order they were written.
struct HelperFrameReader {
    /// The frame's kind byte (`HelperFrame.Kind` when this build knows it).
    let kind: UInt8
    private let bytes: ArraySlice<UInt8>
    private var offset: Int

    /// Checks the magic and the version; the fields follow.
    init(frame: [UInt8]) throws(HelperFrameError) {
        let magic = HelperFrame.magic
        guard frame.starts(with: magic) else {
            throw frame.count < magic.count && magic.starts(with: frame) ? .truncated : .notAFrame
        }
        guard frame.count >= magic.count + 2 else { throw .truncated }
        let version = frame[magic.count]
        guard version == HelperFrame.version else { throw .unsupportedVersion(version) }
        self.init(kind: frame[magic.count + 1], fields: frame[(magic.count + 2)...])
    }

    private init(kind: UInt8, fields: ArraySlice<UInt8>) {
        self.kind = kind
        bytes = fields
        offset = fields.startIndex
    }

    var isAtEnd: Bool { offset == bytes.endIndex }

    mutating func field() throws(HelperFrameError) -> ArraySlice<UInt8> {
        let length = Int(try fixedWidth(4))
        guard bytes.endIndex - offset >= length else { throw .truncated }
        defer { offset += length }
        return bytes[offset..<(offset + length)]
    }

    mutating func text(_ name: String) throws(HelperFrameError) -> String {
        guard let text = String(validating: try field(), as: UTF8.self) else { throw .invalidField(name) }
        return text
    }

    mutating func number(_ name: String) throws(HelperFrameError) -> UInt64 {
        var content = HelperFrameReader(kind: kind, fields: try field())
        guard content.bytes.count == 8 else { throw .invalidField(name) }
        return try content.fixedWidth(8)
    }

    mutating func headers() throws(HelperFrameError) -> [String: String] {
        var content = HelperFrameReader(kind: kind, fields: try field())
        var headers: [String: String] = [:]
        while !content.isAtEnd {
            let name = try content.text("header name")
            let value = try content.text("header value")
            guard HTTPHeaderSyntax.isName(name), HTTPHeaderSyntax.isValue(value) else { throw .invalidHeader(name) }
            headers[name] = value
        }
        return headers
    }

    /// Throws unless every field was read.
    func finish() throws(HelperFrameError) {
        guard isAtEnd else { throw .trailingBytes }
    }

    private mutating func fixedWidth(_ width: Int) throws(HelperFrameError) -> UInt64 {
        guard bytes.endIndex - offset >= width else { throw .truncated }
        defer { offset += width }
        return bytes[offset..<(offset + width)].reduce(0) { $0 << 8 | UInt64($1) }
    }
}

/// What RFC 9110 allows in a header: a name is a token, a value has no line break or NUL.
enum HTTPHeaderSyntax {
    private static let tokenPunctuation = Set("!#$%&'*+-.^_`|~".utf8)

    static func isName(_ name: String) -> Bool {
        !name.isEmpty
            && name.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
                    || tokenPunctuation.contains(byte)
            }
    }

    static func isValue(_ value: String) -> Bool {
        !value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }
    }
}
