/// The names of a Graph enumeration and what each stands for, matched as Graph matches them:
/// exactly first (the usual spelling), then ignoring ASCII case (`"Required"` is `"required"`).
///
/// A handful of names compared byte by byte cost less than hashing the one looked up, and the
/// bytes can be the JSON text itself, without a `String` made for them.
struct GraphNames<Value: Sendable>: Sendable {
    private let entries: [(name: String, value: Value)]
    /// Each name's bytes, kept apart so that comparing them needs no access to a `String`'s storage.
    private let spellings: [[UInt8]]

    init(_ entries: KeyValuePairs<String, Value>) {
        self.init(entries.map { ($0.key, $0.value) })
    }

    init(_ entries: [(String, Value)]) {
        self.entries = entries.map { (name: $0.0, value: $0.1) }
        spellings = entries.map { Array($0.0.utf8) }
    }

    /// The names, sorted, for messages.
    var names: [String] { entries.map(\.name).sorted() }

    /// The entry for the name spelled by `bytes`.
    func entry(named bytes: UnsafeBufferPointer<UInt8>) -> (name: String, value: Value)? {
        for (position, spelling) in spellings.enumerated() where Self.equal(spelling, bytes) {
            return entries[position]
        }
        return spellings.firstIndex { $0.withUnsafeBufferPointer { $0.caseInsensitiveEquals(bytes) } }.map {
            entries[$0]
        }
    }

    /// The entry for the JSON string `node`, read from its bytes when it has no escapes.
    func entry(named node: JSONNode) -> (name: String, value: Value)? {
        if let bytes = node.rawStringBytes { return entry(named: bytes) }
        return node.stringValue.flatMap { entry(named: $0) }
    }

    /// The entry for `name`.
    func entry(named name: String) -> (name: String, value: Value)? {
        var name = name
        return name.withUTF8 { entry(named: $0) }
    }

    private static func equal(_ spelling: [UInt8], _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard spelling.count == bytes.count else { return false }
        for (left, right) in zip(spelling, bytes) where left != right { return false }
        return true
    }
}

extension GraphNames where Value: Equatable {
    /// The name of `value`; the first, when several names stand for it.
    func name(of value: Value) -> String? { entries.first { $0.value == value }?.name }
}
