// Foundation links libm, which Double rounding needs on Linux.
import Foundation

/// Serialises `JSONValue`s as UTF-8: members in their stored order, minimal escaping, integers
/// without a fraction.
public struct JSONWriter: Sendable {
    /// Indent nested values by two spaces per level instead of writing one line.
    public var pretty: Bool

    /// A writer of compact (default) or indented text.
    public init(pretty: Bool = false) {
        self.pretty = pretty
    }

    /// `value` appended to `output`.
    public func write(_ value: JSONValue, into output: inout [UInt8]) {
        write(value, depth: 0, into: &output)
    }

    /// `value` as a string.
    public func string(_ value: JSONValue) -> String {
        var output: [UInt8] = []
        write(value, into: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// `value` appended to `output` as if nested `depth` levels deep (pretty text indents its inner
    /// lines for that depth), so that a large array can be written element by element.
    public func write(_ value: JSONValue, depth: Int, into output: inout [UInt8]) {
        write(value, depth: depth, to: &output)
    }

    /// `value` appended to `output`, as `write(_:depth:into:)` appends it to an array.
    func write(_ value: JSONValue, depth: Int = 0, to output: inout some JSONByteSink) {
        switch value {
        case .null: Self.append("null", to: &output)
        case .bool(let flag): Self.append(flag ? "true" : "false", to: &output)
        case .number(let number): Self.writeNumber(number, to: &output)
        case .string(let text): Self.writeString(text, to: &output)
        // Elements and members are read where they lie: iterated, each was copied (its references
        // retained and released).
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            elements.withUnsafeBufferPointer { elements in
                for position in elements.indices {
                    if position > 0 { output.append(UInt8(ascii: ",")) }
                    newline(depth + 1, to: &output)
                    write(elements[position], depth: depth + 1, to: &output)
                }
            }
            if !elements.isEmpty { newline(depth, to: &output) }
            output.append(UInt8(ascii: "]"))
        case .object(let object):
            output.append(UInt8(ascii: "{"))
            object.members.withUnsafeBufferPointer { members in
                for position in members.indices {
                    if position > 0 { output.append(UInt8(ascii: ",")) }
                    newline(depth + 1, to: &output)
                    Self.writeString(members[position].key, to: &output)
                    output.append(UInt8(ascii: ":"))
                    if pretty { output.append(UInt8(ascii: " ")) }
                    write(members[position].value, depth: depth + 1, to: &output)
                }
            }
            if !object.members.isEmpty { newline(depth, to: &output) }
            output.append(UInt8(ascii: "}"))
        }
    }

    private func newline(_ depth: Int, to output: inout some JSONByteSink) {
        guard pretty else { return }
        output.append(UInt8(ascii: "\n"))
        var indent = depth * 2
        while indent > 0 {
            let run = min(indent, Self.spaces.utf8CodeUnitCount)
            output.append(UnsafeBufferPointer(start: Self.spaces.utf8Start, count: run))
            indent -= run
        }
    }

    /// Spaces to indent with, appended a run at a time.
    private static let spaces: StaticString = "                                "

    /// Integers up to 2^53 print without a fraction; JSON has no NaN or infinity, so those are null.
    static func writeNumber(_ number: Double, to output: inout some JSONByteSink) {
        if !number.isFinite {
            append("null", to: &output)
        } else if abs(number) <= 9_007_199_254_740_992, let integer = Int(exactly: number) {
            writeInteger(integer, to: &output)
        } else {
            append(number.description, to: &output)
        }
    }

    /// The decimal digits of `value` (with a minus sign when negative) appended to `output`, from
    /// the stack: made a `String` first, as `description` makes it, a reminder's minutes cost some 330
    /// instructions an event.
    private static func writeInteger(_ value: Int, to output: inout some JSONByteSink) {
        if value < 0 { output.append(UInt8(ascii: "-")) }
        // Int.min's magnitude has 19 digits, as Int.max has.
        var digits = InlineArray<19, UInt8>(repeating: 0)
        var magnitude = value.magnitude
        var start = digits.count
        repeat {
            start -= 1
            digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
        digits.span.extracting(start...).withUnsafeBufferPointer { output.append($0) }
    }

    /// The UTF-8 of `text`, as it is, appended to `output`.
    private static func append(_ text: String, to output: inout some JSONByteSink) {
        var text = text
        text.withUTF8 { output.append($0) }
    }

    /// `text` as a JSON string literal (RFC 8259 escaping) appended to `output`; runs of bytes that need
    /// no escape are copied whole.
    public static func writeString(_ text: String, into output: inout [UInt8]) {
        writeString(text, to: &output)
    }

    /// `text` as a JSON string literal appended to `output`, as `writeString(_:into:)` appends it to
    /// an array.
    static func writeString(_ text: String, to output: inout some JSONByteSink) {
        // A native string lends its bytes in place; only a bridged one is copied to make them contiguous.
        if text.utf8.withContiguousStorageIfAvailable({ writeString(utf8: $0, to: &output) }) == nil {
            var text = text
            text.withUTF8 { writeString(utf8: $0, to: &output) }
        }
    }

    /// The string whose valid UTF-8 is `text`, quoted and escaped, appended to `output`.
    static func writeString(utf8 text: UnsafeBufferPointer<UInt8>, to output: inout some JSONByteSink) {
        output.append(UInt8(ascii: "\""))
        writeEscaped(text, to: &output)
        output.append(UInt8(ascii: "\""))
    }

    /// UTF-8 bytes escaped for a JSON string (without the quotes) appended to `output`.
    private static func writeEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout some JSONByteSink) {
        var index = 0
        while index < bytes.count {
            let runEnd = JSONStringBytes.plainRunEnd(in: bytes, from: index)
            output.append(UnsafeBufferPointer(rebasing: bytes[index..<runEnd]))
            guard runEnd < bytes.count else { break }
            let byte = bytes[runEnd]
            // Byte by byte: an array literal of the escape was an allocation for each (three
            // newlines in a typical description).
            output.append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): output.append(byte)
            case 0x0A: output.append(UInt8(ascii: "n"))
            case 0x0D: output.append(UInt8(ascii: "r"))
            case 0x09: output.append(UInt8(ascii: "t"))
            default:
                output.append(UInt8(ascii: "u"))
                output.append(0x30)
                output.append(0x30)
                output.append(hexDigit(byte >> 4))
                output.append(hexDigit(byte & 15))
            }
            index = runEnd + 1
        }
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}
