/// One `"key": value` member of a JSON object.
public struct JSONMember: Hashable, Sendable {
    /// The member's name.
    public let key: String
    /// The member's value.
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
        // A native string lends its bytes in place; a copy (`withUTF8` on a `var`) was a retain and
        // release for every member made or looked up.
        if let signature = key.utf8.withContiguousStorageIfAvailable(signature(of:)) { return signature }
        var key = key
        return key.withUTF8(signature(of:))
    }

    private static func signature(of bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let first = bytes.first, let last = bytes.last else { return 0 }
        return bytes.count | Int(first) << 32 | Int(bytes[bytes.count / 2]) << 40 | Int(last) << 48
    }
}

/// A JSON object: members in the order they were read or added, looked up by key.
///
/// Keys are unique: setting an existing key replaces its value in place. Lookups scan, comparing
/// lengths before bytes; for objects of a few dozen members that measured faster than hashing.
/// Objects are equal when their members are, in the same order.
public struct JSONObject: Hashable, Sendable {
    /// The members, in document order.
    public private(set) var members: [JSONMember] = []

    /// An object of these members; a repeated key keeps its first position and its last value.
    public init(_ members: [JSONMember] = []) {
        // Most lists name each key once, and are taken as they are rather than member by member.
        if members.count <= Self.distinctCheckLimit && Self.areDistinct(members) {
            self.members = members
            return
        }
        self.members.reserveCapacity(members.count)
        for member in members { self[member.key] = member.value }
    }

    /// The most members whose keys `init(_:)` compares pairwise before taking them as they are.
    private static let distinctCheckLimit = 32

    private static func areDistinct(_ members: [JSONMember]) -> Bool {
        members.withUnsafeBufferPointer { members in
            for later in members.indices {
                let member = members[later]
                for earlier in 0..<later
                where members[earlier].signature == member.signature && members[earlier].key == member.key {
                    return false
                }
            }
            return true
        }
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
            case (nil, nil):
                break
            }
        }
    }

    /// Room for `count` members, for a writer that knows roughly how many it will add.
    mutating func reserveCapacity(_ count: Int) { members.reserveCapacity(count) }

    /// An object of members whose keys the caller knows to be distinct.
    init(distinct members: [JSONMember]) {
        self.members = members
    }

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
}

/// Collects an object's members as they are parsed, finding a repeated key by comparing
/// signatures (lengths) before keys.
struct JSONObjectBuilder {
    private var members: [JSONMember]
    /// Each key's member, once there are more than `linearLimit` members: comparing each new key
    /// with every earlier one made an object of n members cost O(n²) (80,000 members: minutes).
    private var index: [String: Int]?
    /// How many members are searched one by one before they are indexed.
    static let linearLimit = 32
    /// How many members `add` has compared or indexed: what the tests count.
    private(set) var comparisons = 0

    init() {
        // Room for a typical small object at once, instead of growing through 1, 2, 4, 8.
        members = []
        members.reserveCapacity(8)
    }

    /// Adds a member; returns true when the key was already there (its value is replaced).
    mutating func add(_ key: String, _ value: JSONValue) -> Bool {
        if index == nil && members.count == Self.linearLimit {
            comparisons += members.count
            index = Dictionary(members.indices.map { (members[$0].key, $0) }, uniquingKeysWith: { first, _ in first })
        }
        if index != nil {
            comparisons += 1
            if let found = index?[key] {
                members[found].value = value
                return true
            }
            index?[key] = members.count
            members.append(JSONMember(key, value))
            return false
        }
        let member = JSONMember(key, value)
        comparisons += members.count
        if let found = members.firstIndex(where: { $0.signature == member.signature && $0.key == key }) {
            members[found].value = value
            return true
        }
        members.append(member)
        return false
    }

    var object: JSONObject { JSONObject(distinct: members) }
}
