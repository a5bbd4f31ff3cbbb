/// The members of one object found by name in a single pass, for an object that is asked for many
/// members: a Graph event is asked for about seventy, most of which it has, and a scan per lookup
/// compares a dozen names each time.
///
/// It holds up to 32 members in a 64-slot open-addressing table; an object with more members, or
/// with an escaped name, is not indexed and lookups scan it.
struct JSONMemberIndex {
    /// The object's token index; -1 for an index of nothing.
    private(set) var object = -1
    /// Slot `i` holds a member's value token index, or zero for an empty slot (no value is at index
    /// 0); the name is the token before it, whose `bits` are the signature compared first.
    private var table: Table?

    /// The slots, in the same allocation as the object: an `Array` of them cost a lookup of its
    /// generic type at run time, about 900 instructions for every event, and an `InlineArray`
    /// was copied whole for each lookup.
    private final class Table: ManagedBuffer<Void, UInt32> {}

    /// An index of nothing, to be replaced.
    init() {}

    /// The index of `object`, or nil when it cannot be indexed.
    init?(_ object: JSONNode) {
        let token = object.token
        guard token.kind == .object, token.next != 0, token.bits != ~0, token.next <= UInt32.max else { return nil }
        let table = unsafeDowncast(Table.create(minimumCapacity: 64) { _ in }, to: Table.self)
        let indexed = table.withUnsafeMutablePointerToElements { slots in
            slots.initialize(repeating: 0, count: 64)
            var position = object.index + 1
            var count = 0
            while position < token.next {
                let name = object.tokens[position]
                count += 1
                guard count <= 32 else { return false }
                if !name.flags.contains(.shadowed) {
                    var slot = Self.slot(name.bits)
                    while slots[slot] != 0 { slot = (slot + 1) & 63 }
                    slots[slot] = UInt32(position + 1)
                }
                position = object.tokens[position + 1].next
            }
            return true
        }
        guard indexed else { return nil }
        self.object = object.index
        self.table = table
    }

    /// The member named `key` of `object`; `object` must be the node this index was made for.
    /// Inlined into the decoder's lookup, which makes half of its calls here.
    @inline(__always)
    func member(_ key: JSONKey, of object: JSONNode) -> JSONNode? {
        table?.withUnsafeMutablePointerToElements { slots in
            var slot = Self.slot(key.signature)
            while case let value = Int(slots[slot]), value != 0 {
                let name = object.tokens[value - 1]
                // No name is escaped: such an object is not indexed.
                if name.bits == key.signature, key.isSpelled(by: name, in: object.bytes) {
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
