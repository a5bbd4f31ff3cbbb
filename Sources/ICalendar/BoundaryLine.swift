/// A line that is `BEGIN:VEVENT`, `END:VEVENT`, `BEGIN:VALARM` or `END:VALARM` exactly: the four
/// lines of every event that need no parsing. Parsed, each made a `ContentLine` (a name from the
/// table, a value made a string, compared and dropped) for some 600 instructions, eight an event
/// read in two passes. Any other way of writing them is parsed as every line is.
struct BoundaryLine {
    /// Whether it begins its component, else ends it.
    var isBegin: Bool
    /// Whether its component is a VEVENT, else a VALARM.
    var isEvent: Bool

    /// The component's name.
    var name: String { isEvent ? "VEVENT" : "VALARM" }

    /// The boundary `line` is, nil for any other line. Compared as two words, the line's first eight
    /// bytes and the rest.
    @inline(__always)
    static func of(_ line: UnsafeRawBufferPointer) -> BoundaryLine? {
        guard line.count == 12 || line.count == 10 else { return nil }
        let isBegin = line.count == 12
        let first = line.loadUnaligned(as: UInt64.self)
        let rest =
            isBegin
            ? UInt64(line.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
            : UInt64(line.loadUnaligned(fromByteOffset: 8, as: UInt16.self))
        let words = isBegin ? Self.words.begin : Self.words.end
        if first == words.event.first && rest == words.event.rest {
            return BoundaryLine(isBegin: isBegin, isEvent: true)
        }
        if first == words.alarm.first && rest == words.alarm.rest {
            return BoundaryLine(isBegin: isBegin, isEvent: false)
        }
        return nil
    }

    /// The boundary the line in `line` is, nil for any other line.
    @inline(__always)
    static func of(_ line: ArraySlice<UInt8>) -> BoundaryLine? {
        guard line.count == 12 || line.count == 10 else { return nil }
        return line.withUnsafeBytes { of($0) }
    }

    /// The words the lines are compared with, made from their text.
    private static let words = (
        begin: (event: words("BEGIN:VEVENT"), alarm: words("BEGIN:VALARM")),
        end: (event: words("END:VEVENT"), alarm: words("END:VALARM"))
    )

    /// The first eight bytes of `text`, and the rest (at most eight), as little-endian words.
    private static func words(_ text: StaticString) -> (first: UInt64, rest: UInt64) {
        var words: (first: UInt64, rest: UInt64) = (0, 0)
        for index in 0..<text.utf8CodeUnitCount {
            let byte = UInt64(text.utf8Start[index])
            if index < 8 { words.first |= byte << (8 * index) } else { words.rest |= byte << (8 * (index - 8)) }
        }
        return words
    }
}
