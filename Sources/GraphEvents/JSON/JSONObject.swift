/// One `"key": value` member of a JSON object.
public struct JSONMember: Hashable, Sendable {
    public let key: String
    public var value: JSONValue
    /// The key's length and three of its bytes, compared before the key itself when searching:
    /// keys of an object rarely share all four, so a lookup compares one string, not every
    /// key of the same length.
    let signature: Int

    /// A member named `key` holding `value`.
    public init(_ key: String, _ value: JSONValue) {
        self.key = key
        self.value = value
        signature = Self.signature(key)
    }

    static func signature(_ key: String) -> Int {
        var key = key
        return key.withUTF8 { bytes in
            guard let first = bytes.first, let last = bytes.last else { return 0 }
            return bytes.count | Int(first) << 32 | Int(bytes[bytes.count / 2]) << 40 | Int(last) << 48
        }
    }
}

/// A JSON object: members in the order they were read or added, looked up by key.
///
/// Keys are unique: setting an existing key replaces its value in place. Lookups scan, comparing
/// lengths before bytes; for objects of a few dozen members that measured faster than hashing.
public struct JSONObject: Hashable, Sendable {
    public private(set) var members: [JSONMember] = []
    /// Whether some key starts with an upper-case ASCII letter, the only case in which a
    /// case-insensitive lookup can find what an exact one did not (Graph names are camelCase).
    private var hasCapitalizedKey = false

    /// An object of these members; a repeated key keeps its first position and its last value.
    public init(_ members: [JSONMember] = []) {
        self.members.reserveCapacity(members.count)
        for member in members { self[member.key] = member.value }
    }

    /// The value of the member named `key`; setting nil removes the member.
    public subscript(key: String) -> JSONValue? {
        get { position(of: key).map { members[$0].value } }
        set {
            switch (position(of: key), newValue) {
            case (let position?, let value?):
                members[position].value = value
            case (let position?, nil):
                members.remove(at: position)
            case (nil, let value?):
                members.append(JSONMember(key, value))
                if let first = key.utf8.first, (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(first) {
                    hasCapitalizedKey = true
                }
            case (nil, nil):
                break
            }
        }
    }

    /// The member matching `key` when ASCII case is ignored, for producers that capitalise names;
    /// callers look up the exact key first.
    func caseInsensitiveFallback(_ key: String) -> JSONMember? {
        guard hasCapitalizedKey || key.utf8.first.map(Self.isUpper) ?? false else { return nil }
        let count = key.utf8.count
        return members.first { member in
            member.key.utf8.count == count
                && zip(member.key.utf8, key.utf8).allSatisfy { Self.asciiLower($0) == Self.asciiLower($1) }
        }
    }

    /// Objects are equal when their members are, in the same order.
    /// Room for `count` members, for a writer that knows roughly how many it will add.
    mutating func reserveCapacity(_ count: Int) { members.reserveCapacity(count) }

    /// An object of members whose keys the caller knows to be distinct.
    init(distinct members: [JSONMember]) {
        self.members = members
        hasCapitalizedKey = members.contains { $0.key.utf8.first.map(Self.isUpper) ?? false }
    }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool { lhs.members == rhs.members }

    /// Hashes the members in order.
    public func hash(into hasher: inout Hasher) { hasher.combine(members) }

    private func position(of key: String) -> Int? {
        let signature = JSONMember.signature(key)
        // Through the buffer, so that skipping a member costs a comparison and no retain.
        return members.withUnsafeBufferPointer { buffer in
            for index in buffer.indices where buffer[index].signature == signature && buffer[index].key == key {
                return index
            }
            return nil
        }
    }

    private static func asciiLower(_ byte: UInt8) -> UInt8 { isUpper(byte) ? byte | 0x20 : byte }

    private static func isUpper(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") }
}

/// Collects an object's members as they are parsed, finding a repeated key by comparing
/// signatures (lengths) before keys.
struct JSONObjectBuilder {
    private var members: [JSONMember]

    init() {
        // Room for a typical small object at once, instead of growing through 1, 2, 4, 8.
        members = []
        members.reserveCapacity(8)
    }

    /// Adds a member; returns true when the key was already there (its value is replaced).
    mutating func add(_ key: String, _ value: JSONValue) -> Bool {
        let member = JSONMember(key, value)
        if let found = members.firstIndex(where: { $0.signature == member.signature && $0.key == key }) {
            members[found].value = value
            return true
        }
        members.append(member)
        return false
    }

    var object: JSONObject { JSONObject(distinct: members) }
}
