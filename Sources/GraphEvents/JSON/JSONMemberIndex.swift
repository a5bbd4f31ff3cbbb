/// The members of one object found by name in a single pass, for an object that is asked for many
/// members: a Graph event is asked for about seventy, most of which it has, and a scan per lookup
/// compares a dozen names each time.
///
/// It holds up to 32 members in a 64-slot open-addressing table (one allocation); an object with
/// more members, or with an escaped name, is not indexed and lookups scan it.
struct JSONMemberIndex {
    /// The object's token index; -1 for an index of nothing.
    private(set) var object = -1
    /// Slot `i` is at `2i` (the name's signature) and `2i + 1` (its value token's index, or zero
    /// for an empty slot: no value is at index 0).
    private var slots: [UInt64] = []

    /// An index of nothing, to be replaced.
    init() {}

    /// The index of `object`, or nil when it cannot be indexed.
    init?(_ object: JSONNode) {
        let token = object.token
        guard token.kind == .object, token.next != 0, token.bits != ~0 else { return nil }
        self.object = object.index
        slots = Array(repeating: 0, count: 128)
        var position = object.index + 1
        var count = 0
        while position < token.next {
            let name = object.tokens[position]
            count += 1
            guard count <= 32 else { return nil }
            if !name.flags.contains(.shadowed) {
                var slot = Self.slot(name.bits)
                while slots[2 * slot + 1] != 0 { slot = (slot + 1) & 63 }
                slots[2 * slot] = name.bits
                slots[2 * slot + 1] = UInt64(position + 1)
            }
            position = object.tokens[position + 1].next
        }
    }

    /// The member named `key` of `object`; `object` must be the node this index was made for.
    func member(_ key: StaticString, of object: JSONNode) -> JSONNode? {
        let wanted = UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount)
        let signature = JSONToken.signature(wanted)
        return slots.withUnsafeBufferPointer { slots in
            var slot = Self.slot(signature)
            while case let value = Int(slots[2 * slot + 1]), value != 0 {
                if slots[2 * slot] == signature, JSONNode.equal(object.tokens[value - 1], wanted, in: object.bytes) {
                    return JSONNode(tokens: object.tokens, bytes: object.bytes, index: value)
                }
                slot = (slot + 1) & 63
            }
            return nil
        }
    }

    /// The slot a name's search starts at: the position of its bit in an object's `bits`.
    private static func slot(_ signature: UInt64) -> Int { JSONToken.nameBit(signature).trailingZeroBitCount }
}
