/// The byte-level JSON grammar (RFC 8259) over a buffer, used by every reader in this module.
///
/// It is a pull parser: callers can take a whole value, or walk an array or object member by
/// member, which is how the Graph reader finds each event of a page and its line.
struct JSONScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var index: Int
    let limits: JSONLimits
    var lines = LineCounter()
    /// Duplicate keys (the last value wins) and strings that are not UTF-8 seen so far, reported
    /// rather than rejected.
    var warnings: [JSONWarning] = []
    /// Whether the input may go on after the buffer (a chunked reader before its end): a number
    /// that runs to the buffer's end may then have more digits, so it is an end of input, as a
    /// literal cut off there is, and the reader waits for more.
    var moreMayFollow = false
    /// The member names of each open object with more than `linearMemberScan` members, by their
    /// text, to the token of the last member so named (see `shadowEarlierMember`).
    private var memberIndexes: [Int: [[UInt8]: Int]] = [:]
    /// How many earlier member names duplicate detection has compared or indexed: the work the
    /// tests count (linear in the members of an object, however many).
    private(set) var memberComparisons = 0

    init(bytes: UnsafeBufferPointer<UInt8>, index: Int = 0, limits: JSONLimits = JSONLimits()) {
        self.bytes = bytes
        self.index = index
        self.limits = limits
    }

    var isAtEnd: Bool { index >= bytes.count }

    /// An error at `offset` with its line and column.
    mutating func error(_ message: String, at offset: Int? = nil) -> JSONError {
        let at = offset ?? index
        let (line, column) = lines.position(of: at, in: bytes)
        return JSONError(message: message, line: line, column: column, offset: at)
    }

    /// The next byte that is not JSON whitespace, without consuming it; nil at the end.
    @inline(__always)
    mutating func peekSignificant() -> UInt8? {
        while index < bytes.count {
            let byte = bytes[index]
            // JSON whitespace is at most a space, and most bytes looked at here are above it: one
            // comparison for them, where the four cases took a test each.
            if byte > 0x20 { return byte }
            switch byte {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return byte
            }
        }
        return nil
    }

    /// Consumes `byte` after optional whitespace, or throws naming what was expected.
    @inline(__always)
    mutating func expect(_ byte: UInt8, _ what: String) throws(JSONError) {
        guard peekSignificant() == byte else { throw unexpected(what) }
        index += 1
    }

    /// Consumes `byte` after optional whitespace when it is next.
    @inline(__always)
    mutating func consumeIf(_ byte: UInt8) -> Bool {
        guard peekSignificant() == byte else { return false }
        index += 1
        return true
    }

    mutating func unexpected(_ expected: String) -> JSONError {
        guard index < bytes.count else { return error("unexpected end of input, expected \(expected)") }
        let byte = bytes[index]
        let shown =
            byte >= 0x20 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
        return error("unexpected \(shown), expected \(expected)")
    }

    // MARK: Values

    /// Reads one complete value, appending its tokens to `tape` (see `JSONToken`). A value cut
    /// short by an error leaves its open containers with `next` zero.
    mutating func record(into tape: JSONTapeBuffer, depth: Int = 0) throws(JSONError) {
        guard let byte = peekSignificant() else { throw unexpected("a value") }
        switch byte {
        case UInt8(ascii: "{"):
            try recordObject(into: tape, depth: depth + 1)
        case UInt8(ascii: "["):
            guard depth + 1 <= limits.maximumDepth else { throw error("nesting deeper than \(limits.maximumDepth)") }
            let position = tape.count
            tape.append(JSONToken(kind: .array, start: index, end: 0, next: 0))
            index += 1
            if !consumeIf(UInt8(ascii: "]")) {
                repeat {
                    try record(into: tape, depth: depth + 1)
                } while try continueList(closer: UInt8(ascii: "]"))
            }
            tape[position].end = index
            tape[position].next = tape.count
        case UInt8(ascii: "\""):
            try recordString(into: tape)
        case UInt8(ascii: "t"):
            try recordLiteral("true", .true, into: tape)
        case UInt8(ascii: "f"):
            try recordLiteral("false", .false, into: tape)
        case UInt8(ascii: "n"):
            try recordLiteral("null", .null, into: tape)
        default:
            let start = index
            _ = try parseNumber()
            tape.append(JSONToken(kind: .number, start: start, end: index, next: tape.count + 1))
        }
    }

    /// Reads one complete value as a `JSONValue`.
    mutating func parseValue(depth: Int = 0) throws(JSONError) -> JSONValue {
        let tape = JSONTapeBuffer(capacity: 64)
        try record(into: tape, depth: depth)
        return JSONNode(tokens: tape.tokens, bytes: bytes, index: 0).value
    }

    /// After a list element: true when a comma follows, false at the closing bracket.
    @inline(__always)
    mutating func continueList(closer: UInt8) throws(JSONError) -> Bool {
        switch peekSignificant() {
        case UInt8(ascii: ","):
            index += 1
            return true
        case closer:
            index += 1
            return false
        default:
            throw unexpected(closer == UInt8(ascii: "]") ? "',' or ']'" : "',' or '}'")
        }
    }

    private mutating func recordObject(into tape: JSONTapeBuffer, depth: Int) throws(JSONError) {
        try recordObject(into: tape, depth: depth, passingOver: [])
    }

    /// Records an object (its `{` next) at nesting `depth` as `record` does, except that the members
    /// named in `passedOver` are passed over (`passOverValue`): neither their names nor their values
    /// are recorded, so the object reads as one without them. Members inside its values are all
    /// recorded. For a reader that needs a few members of large objects: the Graph identity pass
    /// reads an event's identity and times, not its body and attendees (`GraphObjectSink`).
    mutating func recordObject(into tape: JSONTapeBuffer, depth: Int, passingOver passedOver: [JSONKey])
        throws(JSONError)
    {
        var object = try beginObject(into: tape, depth: depth)
        do throws(JSONError) {
            if !consumeIf(UInt8(ascii: "}")) {
                repeat {
                    let name = try recordMemberName(into: tape, of: &object)
                    if !passedOver.isEmpty, Self.names(tape[name.token], passedOver, in: bytes) {
                        // Its bit stays in the object's: a lookup of it then searches and finds nothing.
                        tape.removeLast()
                        try passOverValue(depth: depth)
                    } else {
                        try recordMemberValue(into: tape, named: name, of: object, depth: depth)
                    }
                } while try continueList(closer: UInt8(ascii: "}"))
            }
        } catch {
            keepNames(of: object, in: tape)
            throw error
        }
        end(object, in: tape)
    }

    /// Whether the name token `name` (its signature in `bits`) spells one of `keys`; an escaped
    /// name never does.
    private static func names(_ name: JSONToken, _ keys: [JSONKey], in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !name.flags.contains(.escaped) else { return false }
        return keys.contains { $0.signature == name.bits && $0.isSpelled(by: name, in: bytes) }
    }

    /// Moves past the value at `index` (whitespace first) of a member of an object at nesting
    /// `depth`, recording nothing: a string to its closing quote, a container to the bracket that
    /// closes it, a number or literal to the next delimiter. It checks less than `record` (escapes,
    /// UTF-8, control characters, literals, numbers, which bracket closes which), and fails only
    /// where `record` fails too (the end of the input, a value missing, nesting too deep): in a
    /// document `record` reads, it ends where `record` would; in one it stops reading, it may read
    /// on past the defect, never stop before it.
    private mutating func passOverValue(depth: Int) throws(JSONError) {
        var nesting = 0
        repeat {
            guard let byte = peekSignificant() else { throw unexpected("a value") }
            switch byte {
            case UInt8(ascii: "\""):
                try passOverString()
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard depth + nesting + 1 <= limits.maximumDepth else {
                    throw error("nesting deeper than \(limits.maximumDepth)")
                }
                nesting += 1
                index += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard nesting > 0 else { throw unexpected("a value") }
                nesting -= 1
                index += 1
            case UInt8(ascii: ","), UInt8(ascii: ":"):
                guard nesting > 0 else { throw unexpected("a value") }
                index += 1
            default:
                // A number or a literal (or a stray byte, which `record` refuses): up to a delimiter.
                repeat { index += 1 } while index < bytes.count && !Self.endsScalar(bytes[index])
                if moreMayFollow && index >= bytes.count { throw error("unexpected end of input in a value") }
            }
        } while nesting > 0
    }

    /// Moves past a string from its opening quote to after its closing one: the first quote after
    /// an even number of backslashes (each escape is a backslash and one more byte, so an odd run of
    /// them escapes the quote). Quotes are found by `memchr`, past the escapes between them: an HTML
    /// body's `\"`, `\r\n` and `\t` stopped a scan for quotes and backslashes every few bytes.
    @inline(__always)
    private mutating func passOverString() throws(JSONError) {
        index += 1
        let start = index
        while true {
            guard let quote = bytes.firstIndex(of: UInt8(ascii: "\""), in: index..<bytes.count) else {
                index = bytes.count
                throw error("unexpected end of input in a string")
            }
            var backslashes = 0
            while quote - backslashes > start && bytes[quote - backslashes - 1] == UInt8(ascii: "\\") {
                backslashes += 1
            }
            index = quote + 1
            if backslashes % 2 == 0 { return }
        }
    }

    /// Whether `byte` ends a number or literal: JSON whitespace or structure.
    @inline(__always)
    private static func endsScalar(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x20, 0x0A, 0x0D, 0x09, UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: ":"),
            UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\""):
            true
        default: false
        }
    }

    /// An object whose members are being read: its token's index, and the `bits` and flags of the
    /// names read so far, kept here rather than updated in the token for each name (three reads
    /// and writes through the tape a member) and written once, by `end(_:in:)` or, for an object
    /// cut short by an error, `keepNames(of:in:)`.
    struct OpenObject {
        let token: Int
        var bits: UInt64 = 0
        var flags: JSONToken.Flags = []
    }

    /// Reads an object's `{` at nesting `depth` and appends its token.
    /// Its members follow with `recordMemberName` and `recordMemberValue`, then `end(_:in:)`.
    @inline(__always)
    mutating func beginObject(into tape: JSONTapeBuffer, depth: Int) throws(JSONError) -> OpenObject {
        guard depth <= limits.maximumDepth else { throw error("nesting deeper than \(limits.maximumDepth)") }
        try expect(UInt8(ascii: "{"), "'{'")
        tape.append(JSONToken(kind: .object, start: index - 1, end: 0, next: 0))
        return OpenObject(token: tape.count - 1)
    }

    /// Reads a member name and its colon into `object`: the name's token gets its
    /// `JSONToken.signature`, the object its bit and flags.
    @inline(__always)
    mutating func recordMemberName(into tape: JSONTapeBuffer, of object: inout OpenObject) throws(JSONError)
        -> MemberName
    {
        guard peekSignificant() == UInt8(ascii: "\"") else { throw unexpected("a member name") }
        var name = try scanString()
        let signature = JSONToken.signature(from: name.start, to: name.end, in: bytes)
        name.bits = signature
        let key = tape.count
        name.next = key + 1
        tape.append(name)
        // The signature's lowest byte is the name's first (zero for an empty name).
        if UInt8(truncatingIfNeeded: signature) &- UInt8(ascii: "A") < 26 { object.flags.insert(.hasCapitalizedKey) }
        // An escaped name's bit is not that of its text: such an object lets every lookup search.
        let bit = name.flags.contains(.escaped) ? ~0 : JSONToken.nameBit(signature)
        let mayRepeat = object.bits & bit != 0
        object.bits |= bit
        try expect(UInt8(ascii: ":"), "':'")
        return MemberName(token: key, mayRepeat: mayRepeat)
    }

    /// A member name's token, and whether an earlier member may have the same name.
    struct MemberName {
        let token: Int
        let mayRepeat: Bool
    }

    /// Reads the value of the member `name` of `object`, which is at nesting `depth`.
    @inline(__always)
    mutating func recordMemberValue(
        into tape: JSONTapeBuffer, named name: MemberName, of object: OpenObject, depth: Int
    ) throws(JSONError) {
        // Most values are strings or objects: read here, without `record`'s dispatch.
        switch peekSignificant() {
        case UInt8(ascii: "\""): try recordString(into: tape)
        case UInt8(ascii: "{"): try recordObject(into: tape, depth: depth + 1)
        default: try record(into: tape, depth: depth)
        }
        // An indexed object records every name, so that a later repeat finds it.
        if name.mayRepeat || (!memberIndexes.isEmpty && memberIndexes[object.token] != nil) {
            shadowEarlierMember(named: name.token, of: object.token, in: tape)
        }
    }

    /// Closes `object` after its last member.
    mutating func end(_ object: OpenObject, in tape: JSONTapeBuffer) {
        keepNames(of: object, in: tape)
        if !memberIndexes.isEmpty { memberIndexes[object.token] = nil }
        tape[object.token].end = index
        tape[object.token].next = tape.count
    }

    /// Writes the bits and flags of the names read so far into `object`'s token, which an object
    /// cut short by an error keeps too, with `next` zero.
    func keepNames(of object: OpenObject, in tape: JSONTapeBuffer) {
        tape[object.token].bits = object.bits
        tape[object.token].flags = object.flags
    }

    /// Marks an earlier member of the same name as shadowed, and warns: the last value is used.
    ///
    /// The earlier members are compared one by one up to `linearMemberScan` of them, which is all
    /// of any real object's; past that, the object's names go into a dictionary (`memberIndexes`),
    /// so that an object of n members costs O(n), not O(n²) (80,000 members once took 24 s).
    private mutating func shadowEarlierMember(named key: Int, of object: Int, in tape: JSONTapeBuffer) {
        if !memberIndexes.isEmpty, memberIndexes[object] != nil {
            shadowIndexedMember(named: key, of: object, in: tape)
            return
        }
        let keyToken = tape[key]
        let name = UnsafeBufferPointer(rebasing: bytes[keyToken.start..<keyToken.end])
        let decoded = keyToken.flags.contains(.escaped) ? JSONNode.decodeString(keyToken, in: bytes) : nil
        // Read through the buffer, without the tape's checks: the walk passes every earlier member.
        let tokens = tape.tokens
        var earlier = object + 1
        var compared = 0
        while earlier < key {
            if compared == Self.linearMemberScan {
                indexMembers(of: object, before: key, in: tape)
                shadowIndexedMember(named: key, of: object, in: tape)
                return
            }
            compared += 1
            memberComparisons += 1
            let other = tokens[earlier]
            // Names without escapes of different signatures differ: most names are ruled out here.
            let mayBeSame = other.bits == keyToken.bits || decoded != nil || other.flags.contains(.escaped)
            let same =
                mayBeSame
                && (decoded.map { $0 == JSONNode.decodeString(other, in: bytes) }
                    ?? JSONNode.equal(other, name, in: bytes))
            if same, !other.flags.contains(.shadowed) {
                tape[earlier].flags.insert(.shadowed)
                warnDuplicate(decoded ?? JSONNode.decodeString(keyToken, in: bytes), at: keyToken)
                return
            }
            earlier = tokens[earlier + 1].next
        }
    }

    /// How many earlier members `shadowEarlierMember` compares one by one before it indexes them.
    static let linearMemberScan = 256

    /// Indexes the names of `object`'s members before `key` by their decoded text, each to its
    /// last unshadowed member.
    private mutating func indexMembers(of object: Int, before key: Int, in tape: JSONTapeBuffer) {
        let tokens = tape.tokens
        var names: [[UInt8]: Int] = [:]
        var earlier = object + 1
        while earlier < key {
            memberComparisons += 1
            let other = tokens[earlier]
            if !other.flags.contains(.shadowed) { names[Array(JSONNode.decodeString(other, in: bytes).utf8)] = earlier }
            earlier = tokens[earlier + 1].next
        }
        memberIndexes[object] = names
    }

    /// `shadowEarlierMember` for an object whose earlier names are in `memberIndexes`: each member
    /// of it is passed here, whether its name may repeat or not (see `recordMemberValue`).
    private mutating func shadowIndexedMember(named key: Int, of object: Int, in tape: JSONTapeBuffer) {
        memberComparisons += 1
        let keyToken = tape[key]
        let name = JSONNode.decodeString(keyToken, in: bytes)
        // By bytes, as `JSONNode.equal` compares: String's == would take canonical equivalents.
        if let earlier = memberIndexes[object]?.updateValue(key, forKey: Array(name.utf8)) {
            tape[earlier].flags.insert(.shadowed)
            warnDuplicate(name, at: keyToken)
        }
    }

    /// Warns that the member name `name` at `token` repeats an earlier one: the last value is used.
    mutating func warnDuplicate(_ name: String, at token: JSONToken) {
        warnings.append(
            JSONWarning(
                code: "json-duplicate-key",
                error("duplicate key \"\(name)\"; the last value is used", at: token.start - 1)))
    }

    private mutating func recordLiteral(_ word: StaticString, _ kind: JSONToken.Kind, into tape: JSONTapeBuffer)
        throws(JSONError)
    {
        let start = index
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else {
            // Cut off by the end of the input: say so, so that a chunked reader waits for more.
            index = bytes.count
            throw error("unexpected end of input in a literal")
        }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] {
            throw error("invalid literal", at: index + offset)
        }
        index += count
        tape.append(JSONToken(kind: kind, start: start, end: index, next: tape.count + 1))
    }

    // MARK: Strings

    /// Reads a string value and appends its token.
    @inline(__always)
    private mutating func recordString(into tape: JSONTapeBuffer) throws(JSONError) {
        var token = try scanString()
        token.next = tape.count + 1
        tape.append(token)
    }

    /// Reads a string (a key or a value) from its opening quote without decoding it, and returns
    /// its token (without `next`); escapes are checked, bytes that are not UTF-8 reported.
    @inline(__always)
    private mutating func scanString() throws(JSONError) -> JSONToken {
        index += 1  // the opening quote
        let start = index
        var flags: JSONToken.Flags = []
        let run = JSONStringBytes.plainRun(in: bytes, from: index)
        index = run.end
        var isASCII = run.isASCII
        if index < bytes.count, bytes[index] == UInt8(ascii: "\""), index - start <= limits.maximumStringLength {
            index += 1
        } else {
            isASCII = false
            // Escapes, a control character, the end of the input or a long string: the full check.
            index = start
            var length = DecodedLength()
            try scanStringBody(decodingInto: &length)
            if length.hasEscapes { flags.insert(.escaped) }
        }
        let end = index - 1
        if isASCII {
            flags.formUnion([.validUTF8, .ascii])
        } else if checkUTF8(UnsafeBufferPointer(rebasing: bytes[start..<end]), at: start - 1) {
            flags.insert(.validUTF8)
        }
        return JSONToken(kind: .string, flags: flags, start: start, end: end, next: 0)
    }

    /// Reads a string's bytes from after its opening quote to after its closing one, handing each
    /// decoded byte to `sink` (escapes decoded).
    mutating func scanStringBody(decodingInto sink: inout some JSONByteSink) throws(JSONError) {
        let start = index
        while index < bytes.count {
            let runEnd = JSONStringBytes.plainRunEnd(in: bytes, from: index)
            sink.append(UnsafeBufferPointer(rebasing: bytes[index..<runEnd]))
            index = runEnd
            if sink.count > limits.maximumStringLength { throw stringTooLong(at: start - 1) }
            guard index < bytes.count else { break }
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return
            case UInt8(ascii: "\\"):
                try appendEscape(to: &sink)
                if sink.count > limits.maximumStringLength { throw stringTooLong(at: start - 1) }
            default:
                throw error("control character in string", at: index - 1)
            }
        }
        throw error("unterminated string", at: start - 1)
    }

    /// Whether `utf8` is UTF-8. Bytes that are not become U+FFFD when the string is decoded: a
    /// warning located at the string's opening quote says so, since RFC 8259 §8.1 requires UTF-8 and
    /// the text changes. Escapes decode to whole characters, so the raw bytes are UTF-8 exactly when
    /// the decoded are.
    private mutating func checkUTF8(_ utf8: UnsafeBufferPointer<UInt8>, at quote: Int) -> Bool {
        // Validated in place: decoded into a `String` and compared with the bytes, a 4 KB HTML body
        // cost some 60,000 instructions.
        if JSONStringBytes.isASCII(utf8) || (try? UTF8Span(validating: utf8.span)) != nil { return true }
        warnings.append(
            JSONWarning(
                code: "invalid-utf8",
                error("string holds bytes that are not UTF-8; each is replaced with U+FFFD", at: quote)))
        return false
    }

    private mutating func stringTooLong(at offset: Int) -> JSONError {
        error("string longer than the limit of \(limits.maximumStringLength) bytes", at: offset)
    }

    private mutating func appendEscape(to sink: inout some JSONByteSink) throws(JSONError) {
        guard index < bytes.count else { throw error("unterminated escape") }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): sink.append(byte)
        case UInt8(ascii: "b"): sink.append(0x08)
        case UInt8(ascii: "f"): sink.append(0x0C)
        case UInt8(ascii: "n"): sink.append(0x0A)
        case UInt8(ascii: "r"): sink.append(0x0D)
        case UInt8(ascii: "t"): sink.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hexQuad()
            if (0xD800..<0xDC00).contains(scalar) {
                // A high surrogate must be followed by `\u` and a low one; otherwise it is replaced.
                if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                    index += 2
                    let low = try hexQuad()
                    scalar =
                        (0xDC00..<0xE000).contains(low) ? 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00) : 0xFFFD
                } else {
                    scalar = 0xFFFD
                }
            } else if (0xDC00..<0xE000).contains(scalar) {
                scalar = 0xFFFD
            }
            for unit in UTF8.encode(Unicode.Scalar(scalar) ?? "\u{FFFD}")! { sink.append(unit) }
        default:
            throw error("invalid escape", at: index - 2)
        }
    }

    private mutating func hexQuad() throws(JSONError) -> UInt32 {
        guard index + 4 <= bytes.count else {
            index = bytes.count
            throw error("truncated \\u escape")
        }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("invalid hex digit in \\u escape")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    // MARK: Numbers

    /// A number by the RFC 8259 grammar; integers of up to 15 digits take a fast path.
    mutating func parseNumber() throws(JSONError) -> Double {
        let start = index
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        let digitsStart = index
        var integer = 0
        while index < bytes.count, case let digit = bytes[index] &- UInt8(ascii: "0"), digit < 10 {
            integer = integer &* 10 &+ Int(digit)
            index += 1
        }
        let digitCount = index - digitsStart
        guard digitCount > 0 else {
            if index < bytes.count { index = start }
            throw unexpected("a value")
        }
        if digitCount > 1 && bytes[digitsStart] == UInt8(ascii: "0") {
            throw error("leading zero in number", at: digitsStart)
        }
        let isIntegral =
            index >= bytes.count || !(bytes[index] == UInt8(ascii: ".") || bytes[index] | 0x20 == UInt8(ascii: "e"))
        if isIntegral && digitCount <= 15 {
            try endNumber()
            return Double(negative ? -integer : integer)
        }
        if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard skipDigits() > 0 else { throw error("digit expected after '.'") }
        }
        if index < bytes.count && bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) {
                index += 1
            }
            guard skipDigits() > 0 else { throw error("digit expected in exponent") }
        }
        try endNumber()
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text) else { throw error("invalid number", at: start) }
        // A Double cannot hold it, and JSON has no infinity to write it back as.
        guard value.isFinite else { throw error("number out of range", at: start) }
        return value
    }

    /// Throws when the number just read runs to the end of a buffer that `moreMayFollow`.
    private mutating func endNumber() throws(JSONError) {
        if moreMayFollow && index >= bytes.count { throw error("unexpected end of input in a number") }
    }

    private mutating func skipDigits() -> Int {
        let start = index
        while index < bytes.count && bytes[index] &- UInt8(ascii: "0") < 10 { index += 1 }
        return index - start
    }
}
