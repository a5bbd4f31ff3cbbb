/// Memory that `JSONText` writes JSON text into, freed with it. Kept apart from the text so that a
/// text can be handed from an object to the object nested in it and back as a few words, with no
/// reference counted: one storage is written by one text at a time.
final class JSONTextStorage {
    fileprivate var base: UnsafeMutablePointer<UInt8>
    fileprivate var capacity: Int

    /// Room for `capacity` bytes to begin with; a text grows it when it needs more.
    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }
}

/// JSON text written into a `JSONTextStorage`, a run or a byte at a time, without an array's checks
/// on each: writing a Graph event appends some sixty runs and more single bytes, and an array asked
/// itself at each whether it was uniquely referenced and had room (6,000 instructions an event).
/// The storage must outlive the text, and only the text last handed on writes to it.
struct JSONText: JSONByteSink {
    private unowned(unsafe) let storage: JSONTextStorage
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// How many bytes are written.
    private(set) var count = 0

    /// An empty text written into `storage`, over what it held.
    init(writingInto storage: JSONTextStorage) {
        self.storage = storage
        base = storage.base
        capacity = storage.capacity
    }

    /// The bytes written.
    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        assertCurrent()
        if count == capacity { grow(toHold: 1) }
        base[count] = byte
        count += 1
    }

    @inline(__always)
    mutating func append(_ run: UnsafeBufferPointer<UInt8>) {
        assertCurrent()
        guard let source = run.baseAddress else { return }
        if capacity - count < run.count { grow(toHold: run.count) }
        (base + count).initialize(from: source, count: run.count)
        count += run.count
    }

    /// A member's key, `"name":`, with a comma before it when `separated`: room made for all of it
    /// at once, where five appends each looked for room (560 instructions an event).
    @inline(__always)
    mutating func appendKey(_ name: UnsafeBufferPointer<UInt8>, separated: Bool) {
        assertCurrent()
        let length = name.count + (separated ? 4 : 3)
        if capacity - count < length { grow(toHold: length) }
        var next = base + count
        if separated {
            next.initialize(to: UInt8(ascii: ","))
            next += 1
        }
        next.initialize(to: UInt8(ascii: "\""))
        if let source = name.baseAddress { (next + 1).initialize(from: source, count: name.count) }
        (next + 1 + name.count).initialize(to: UInt8(ascii: "\""))
        (next + 2 + name.count).initialize(to: UInt8(ascii: ":"))
        count += length
    }

    /// Debug builds check that this is the text last handed on: a stale copy (an object's own,
    /// while the object nested in it writes) may point at memory a growth freed.
    @inline(__always)
    private func assertCurrent() {
        assert(base == storage.base, "a JSON text was written after it was handed on")
    }

    /// Moves the text to a storage at least twice as large, with room for `extra` bytes more.
    @inline(never)
    private mutating func grow(toHold extra: Int) {
        let grown = max(capacity * 2, count + extra)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        moved.initialize(from: base, count: count)
        base.deallocate()
        (base, capacity) = (moved, grown)
        (storage.base, storage.capacity) = (moved, grown)
    }
}
