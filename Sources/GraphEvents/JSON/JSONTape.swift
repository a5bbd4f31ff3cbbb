/// One value of a JSON text as the scanner found it: what it is and where its bytes are, without
/// decoding them. A text is a flat list of these in document order (a tape): an object is followed
/// by its members, each a key token and the tokens of its value; an array by its elements.
///
/// Readers that look at a few members of large objects (the Graph mapping reads about a third of
/// an event's strings) decode only what they read, and recording an event fills one reused buffer
/// instead of making a string for every key and value and an array for every object.
struct JSONToken: Sendable {
    enum Kind: UInt8, Sendable {
        case object, array, string, number, `true`, `false`, null
    }

    var kind: Kind
    var flags: Flags = []
    /// The first byte: an object's `{`, an array's `[`, the byte after a string's opening quote,
    /// a number's first digit or sign, a literal's first letter.
    var start: Int
    /// The byte after the value, except for a string: its closing quote.
    var end: Int
    /// The index of the token after this value and everything inside it. Zero while a container
    /// is still open, which only a text cut short by an error leaves behind.
    var next: Int
    /// For an object, a bit for each of its member names (`JSONToken.nameBit`), so that looking
    /// up a member it does not have, as readers mostly do, costs one test. For a member name, its
    /// `JSONToken.signature`, compared before its bytes.
    var bits: UInt64 = 0

    /// The bit of an object's `bits` for a member name of this `signature`.
    static func nameBit(_ signature: UInt64) -> UInt64 {
        // Fibonacci hashing: the top six bits of the product mix every byte of the signature.
        1 << ((signature &* 0x9E37_79B9_7F4A_7C15) >> 58)
    }

    /// A name's length and first seven bytes in one word: equal words mean equal names up to seven
    /// bytes long, and nearly always for longer ones (their bytes are compared too).
    @inline(__always)
    static func signature(_ name: UnsafeBufferPointer<UInt8>) -> UInt64 {
        guard let base = name.baseAddress else { return 0 }
        let length = UInt64(truncatingIfNeeded: name.count) << 56
        if name.count >= 8 {
            return UnsafeRawPointer(base).loadUnaligned(as: UInt64.self).littleEndian & 0x00FF_FFFF_FFFF_FFFF | length
        }
        var word = length
        for position in 0..<name.count { word |= UInt64(base[position]) << (position * 8) }
        return word
    }

    /// `signature(_:)` of the bytes `start..<end` of `bytes`, read as one word when `bytes` has eight
    /// from `start`, as it nearly always has for a member name: its quote and colon follow it.
    @inline(__always)
    static func signature(from start: Int, to end: Int, in bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        guard let base = bytes.baseAddress, start + 8 <= bytes.count else {
            return signature(UnsafeBufferPointer(rebasing: bytes[start..<end]))
        }
        let count = end - start
        let word = UnsafeRawPointer(base + start).loadUnaligned(as: UInt64.self).littleEndian
        let name = count >= 7 ? word & 0x00FF_FFFF_FFFF_FFFF : word & ~(~0 << (8 * UInt64(count)))
        return name | UInt64(truncatingIfNeeded: count) << 56
    }

    struct Flags: OptionSet, Sendable {
        let rawValue: UInt8
        /// A string with backslash escapes, decoded when read.
        static let escaped = Flags(rawValue: 1)
        /// A key repeated later in its object: lookups skip it, so the last value wins.
        static let shadowed = Flags(rawValue: 2)
        /// An object with a key starting with an upper-case ASCII letter, the only case in which a
        /// case-insensitive lookup can find what an exact one did not.
        static let hasCapitalizedKey = Flags(rawValue: 4)
        /// A string whose bytes the scanner found to be UTF-8, so that it is made into a `String`
        /// without checking them again (escapes decode to whole characters); and one all ASCII.
        static let validUTF8 = Flags(rawValue: 8)
        static let ascii = Flags(rawValue: 16)
    }
}

/// The tokens of a text being recorded: a growable buffer the scanner appends to and updates in
/// place, without the uniqueness check each mutation of an `Array` makes (a tenth of recording).
/// It belongs to one reader for the time of a read and is never shared.
final class JSONTapeBuffer {
    private var base: UnsafeMutablePointer<JSONToken>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int = 512) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    deinit { base.deallocate() }

    /// The tokens recorded so far; valid until the next append or `removeAll()`.
    var tokens: UnsafeBufferPointer<JSONToken> { UnsafeBufferPointer(start: base, count: count) }

    func append(_ token: JSONToken) {
        // `count` read once: after the store into the buffer, which might for all the compiler
        // knows be this object, it was read again.
        let position = count
        if position == capacity { grow() }
        (base + position).initialize(to: token)
        count = position &+ 1
    }

    /// The token at `index`, read and updated in place.
    subscript(index: Int) -> JSONToken {
        unsafeAddress {
            precondition(index >= 0 && index < count, "token index out of range")
            return UnsafePointer(base + index)
        }
        unsafeMutableAddress {
            precondition(index >= 0 && index < count, "token index out of range")
            return base + index
        }
    }

    /// Forgets every token, keeping the storage.
    func removeAll() { count = 0 }

    /// Forgets the last token.
    func removeLast() {
        precondition(count > 0, "no token to remove")
        count -= 1
    }

    private func grow() {
        let larger = UnsafeMutablePointer<JSONToken>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = larger
        capacity *= 2
    }
}

/// A JSON value and everything inside it, owning its bytes and tokens: what a reader keeps when a
/// value must outlive the buffer it was read from (an exception waiting for its series master).
struct JSONTapeDocument: Sendable {
    private let bytes: [UInt8]
    private let tokens: [JSONToken]

    /// The subtree of `node`, copied.
    init(_ node: JSONNode) {
        let token = node.token
        let first = node.offset
        // A string's token ends at its closing quote; every other value's after its last byte.
        let last = token.kind == .string ? token.end + 1 : token.end
        bytes = Array(node.bytes[first..<last])
        tokens = node.tokens[node.index..<token.next].map { token in
            var token = token
            token.start -= first
            token.end -= first
            token.next -= node.index
            return token
        }
    }

    /// `value` as JSON text read back, for callers that hold a `JSONValue`.
    init(_ value: JSONValue) {
        let text = Array(JSONWriter().string(value).utf8)
        let tape = JSONTapeBuffer()
        text.withUnsafeBufferPointer { buffer in
            var scanner = JSONScanner(bytes: buffer)
            // The writer's output is JSON that reads back, and under the default limits it fits.
            try? scanner.record(into: tape)
        }
        bytes = text
        tokens = Array(tape.tokens)
    }

    /// Calls `body` with the root value; the node is valid only inside `body`.
    func withRoot<Result>(_ body: (JSONNode) -> Result) -> Result {
        bytes.withUnsafeBufferPointer { bytes in
            tokens.withUnsafeBufferPointer { tokens in body(JSONNode(tokens: tokens, bytes: bytes, index: 0)) }
        }
    }
}
