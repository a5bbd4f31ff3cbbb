// memcmp, for comparing member names.
import Foundation

/// A value of a recorded JSON text (see `JSONToken`): read member by member, decoding only the
/// strings and numbers asked for.
///
/// A node points into the buffers it was read from, so it is valid only while they are: inside the
/// closure that handed it over. Whatever must outlive that is decoded, or copied with
/// `JSONTapeDocument(_:)`.
struct JSONNode {
    let tokens: UnsafeBufferPointer<JSONToken>
    let bytes: UnsafeBufferPointer<UInt8>
    let index: Int

    var token: JSONToken { tokens[index] }

    /// Where the value starts in its buffer (a string's opening quote).
    var offset: Int { token.kind == .string ? token.start - 1 : token.start }

    /// Whether the text ended, in error, before this value did.
    var isComplete: Bool { token.next != 0 }

    private func node(_ index: Int) -> JSONNode { JSONNode(tokens: tokens, bytes: bytes, index: index) }

    // MARK: Scalars

    var isNull: Bool { token.kind == .null }

    var boolValue: Bool? {
        switch token.kind {
        case .true: return true
        case .false: return false
        default: return nil
        }
    }

    var stringValue: String? {
        guard token.kind == .string else { return nil }
        return JSONNode.decodeString(token, in: bytes)
    }

    var numberValue: Double? {
        guard token.kind == .number else { return nil }
        var scanner = JSONScanner(bytes: bytes, index: token.start)
        // Recorded numbers were read once already, so they read again.
        return try? scanner.parseNumber()
    }

    /// The string's UTF-8 bytes as written, when it is a string without escapes; lets callers
    /// compare or parse without making a `String`.
    var rawStringBytes: UnsafeBufferPointer<UInt8>? {
        let token = token
        guard token.kind == .string, !token.flags.contains(.escaped) else { return nil }
        return UnsafeBufferPointer(rebasing: bytes[token.start..<token.end])
    }

    /// Whether this is the string `text`.
    func isString(_ text: StaticString) -> Bool {
        token.kind == .string && JSONNode.equal(token, text, in: bytes)
    }

    /// The JSON type name used in messages: `object`, `array`, `string`, `number`, `boolean` or `null`.
    var typeName: String {
        switch token.kind {
        case .null: return "null"
        case .true, .false: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }

    // MARK: Containers

    /// The node itself when it is an object.
    var objectValue: JSONNode? { token.kind == .object ? self : nil }

    /// The elements, when this is an array.
    var arrayValue: Elements? { token.kind == .array ? Elements(array: self) : nil }

    /// An array's elements (the complete ones, for a text cut short by an error); none for `Elements()`.
    struct Elements: Sequence {
        fileprivate var array: JSONNode?

        init() {}

        fileprivate init(array: JSONNode) { self.array = array }

        func makeIterator() -> Iterator { Iterator(array: array, position: (array?.index ?? 0) + 1) }

        /// How many there are, counted by following the tokens (no value is read).
        var count: Int { reduce(0) { count, _ in count + 1 } }

        struct Iterator: IteratorProtocol {
            fileprivate let array: JSONNode?
            fileprivate var position: Int

            mutating func next() -> JSONNode? {
                guard let array, position < array.tokens.count, position != array.token.next else { return nil }
                let element = array.node(position)
                guard element.isComplete else { return nil }
                position = element.token.next
                return element
            }
        }
    }

    /// The member named `key`, when this is an object that has it; for a repeated key, its last value.
    /// In an object cut short by an error, the value may be incomplete itself (see `isComplete`).
    subscript(key: JSONKey) -> JSONNode? {
        let object = token
        let signature = key.signature
        guard object.kind == .object, object.bits & JSONToken.nameBit(signature) != 0, let base = tokens.baseAddress
        else { return nil }
        // An object cut short by an error ends where the tokens do, or at its first incomplete value.
        let end = object.next == 0 ? tokens.count : object.next
        var position = index + 1
        // Through the base pointer, reading only the words it needs: this loop runs for most
        // members of every object read.
        while position + 1 < end {
            let name = base + position
            let flags = name.pointee.flags
            if name.pointee.bits == signature || flags.contains(.escaped), !flags.contains(.shadowed),
                flags.contains(.escaped)
                    ? JSONNode.equal(name.pointee, key.bytes, in: bytes) : key.isSpelled(by: name.pointee, in: bytes)
            {
                return node(position + 1)
            }
            position = base[position + 1].next
            guard position != 0 else { return nil }
        }
        return nil
    }

    /// The member whose name matches `key` when ASCII case is ignored, for producers that
    /// capitalise names; callers look up the exact key first.
    @inline(__always)
    func caseInsensitiveMember(_ key: JSONKey) -> JSONNode? {
        // Graph names are camelCase: most objects have no capitalised name, and this is all they cost.
        guard token.flags.contains(.hasCapitalizedKey) || isUpper(key.name.utf8Start.pointee) else { return nil }
        return caseInsensitiveSearch(key)
    }

    private func caseInsensitiveSearch(_ key: JSONKey) -> JSONNode? {
        let wanted = key.bytes
        let object = token
        guard object.kind == .object else { return nil }
        var position = index + 1
        while position + 1 < tokens.count, position != object.next {
            let value = node(position + 1)
            guard value.isComplete else { return nil }
            let key = tokens[position]
            if !key.flags.contains(.shadowed) {
                var name = JSONNode.decodeString(key, in: bytes)
                if name.withUTF8({ $0.caseInsensitiveEquals(wanted) }) { return value }
            }
            position = value.token.next
        }
        return nil
    }

    /// Whether the string `token` holds is `wanted`, comparing lengths before bytes.
    static func equal(_ token: JSONToken, _ wanted: UnsafeBufferPointer<UInt8>, in bytes: UnsafeBufferPointer<UInt8>)
        -> Bool
    {
        guard !token.flags.contains(.escaped) else {
            var text = decodeString(token, in: bytes)
            return text.withUTF8 {
                $0.count == wanted.count && equalBytes($0.baseAddress, wanted.baseAddress, count: $0.count)
            }
        }
        return token.end - token.start == wanted.count
            && equalBytes(bytes.baseAddress.map { $0 + token.start }, wanted.baseAddress, count: wanted.count)
    }

    /// Whether the string `token` holds is `name`.
    static func equal(_ token: JSONToken, _ name: StaticString, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        equal(token, UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount), in: bytes)
    }

    static func equalBytes(_ first: UnsafePointer<UInt8>?, _ second: UnsafePointer<UInt8>?, count: Int) -> Bool {
        guard count > 0, let first, let second else { return true }
        return memcmp(first, second, count) == 0
    }

    // MARK: Decoding

    /// The value as a `JSONValue`, for code that keeps or writes it whole.
    var value: JSONValue {
        switch token.kind {
        case .null: return .null
        case .true: return .bool(true)
        case .false: return .bool(false)
        case .number: return .number(numberValue ?? 0)
        case .string: return .string(stringValue ?? "")
        case .array: return .array(arrayValue.map { $0.map(\.value) } ?? [])
        case .object:
            var builder = JSONObjectBuilder()
            var position = index + 1
            while position < token.next {
                let value = node(position + 1)
                // A repeated key was reported when it was read; the builder keeps the last value.
                _ = builder.add(JSONNode.decodeString(tokens[position], in: bytes), value.value)
                position = value.token.next
            }
            return .object(builder.object)
        }
    }

    /// The text of a string token (a key or a value). Bytes that are not UTF-8 become U+FFFD; the
    /// scanner reported them when it read the text.
    static func decodeString(_ token: JSONToken, in bytes: UnsafeBufferPointer<UInt8>) -> String {
        let text = UnsafeBufferPointer(rebasing: bytes[token.start..<token.end])
        let isValid = token.flags.contains(.validUTF8)
        guard token.flags.contains(.escaped) else {
            return isValid
                ? String(validUTF8: text.span, isASCII: token.flags.contains(.ascii))
                : String(decoding: text, as: UTF8.self)
        }
        return decodeEscaped(token, in: bytes, isValid: isValid)
    }

    /// The text of a string token with escapes, decoded into scratch space the size of its text (on
    /// the stack for all but long strings; an array grown run by run cost an Outlook body 11,000
    /// instructions) and copied once. Out of line: most strings have none.
    @inline(never)
    private static func decodeEscaped(_ token: JSONToken, in bytes: UnsafeBufferPointer<UInt8>, isValid: Bool)
        -> String
    {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(token.end - token.start, 1)) { scratch in
            var scanner = JSONScanner(bytes: bytes, index: token.start)
            var decoded = BufferSink(scratch)
            // The string was read once already, escapes and all, so it reads again; escapes decode
            // to whole characters, so the decoded bytes are UTF-8 when the raw ones are.
            try? scanner.scanStringBody(decodingInto: &decoded)
            return isValid ? String(validUTF8: decoded.bytes.span) : String(decoding: decoded.bytes, as: UTF8.self)
        }
    }

    private func isUpper(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") }
}

/// A member name to look up, with its `JSONToken.signature` worked out where the name is written:
/// inlined there, the signature of a literal folds to a constant, where a lookup by `StaticString`
/// recomputed it from the bytes each time (about seventy lookups an event).
struct JSONKey: ExpressibleByStringLiteral, CustomStringConvertible, Sendable {
    let name: StaticString
    let signature: UInt64

    @inline(__always)
    init(stringLiteral name: StaticString) {
        self.name = name
        signature = JSONToken.signature(UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
    }

    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount) }

    /// Whether `name`, a member name without escapes whose signature is this key's, is this key.
    /// The signature holds the length and the first seven bytes, so a shorter name is equal
    /// already and one of up to 15 bytes needs its last eight compared as one word (most names the
    /// mapping reads, and all that events commonly have): a call to memcmp cost more than the rest
    /// of a lookup.
    @inline(__always)
    func isSpelled(by name: JSONToken, in text: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = self.name.utf8CodeUnitCount
        guard name.end - name.start == count, let base = text.baseAddress else { return false }
        if count <= 7 { return true }
        let spelled = UnsafeRawPointer(base + name.start)
        let wanted = UnsafeRawPointer(self.name.utf8Start)
        guard count <= 15 else { return memcmp(spelled, wanted, count) == 0 }
        return spelled.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            == wanted.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
    }

    var description: String { name.description }
}
