import CalendarModel
import Foundation

/// The events of Graph JSON and NDJSON inputs that share a UID with another (the members of a
/// series, or versions of one event), mapped by the index pass, so that the second pass can read a
/// series' later members from where they are, as it reads VEVENTs of iCalendar. A Graph event cannot
/// be read again from its own bytes alone: an exception is mapped against its master, and an
/// instance listed before its master is handed on after the input's other events.
///
/// A record is the length of the encoded event, a little-endian 64-bit integer, then the event
/// (`Codable`, as JSON: the model holds nothing that it does not carry exactly). Only events of
/// shared UIDs are written: encoding and decoding one costs several times what mapping it does.
package enum EventSpool {
    /// Writes records to a spill file, noting where each begins.
    package struct Writer {
        /// The file written.
        package let spill: SpillWriter
        /// Where the next record begins.
        package private(set) var offset = 0
        private let encoder = JSONEncoder()

        package init(_ spill: SpillWriter) {
            self.spill = spill
            encoder.nonConformingFloatEncodingStrategy = .convertToString(
                positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        }

        /// Appends `event`.
        package mutating func write(_ event: Event) {
            // Encoding fails only on a non-finite number, which is written as a string here.
            let bytes = (try? encoder.encode(event)) ?? Data()
            spill.write(UInt64(bytes.count))
            spill.write(bytes)
            offset += 8 + bytes.count
        }
    }

    /// The event whose record begins at `offset` of `file`.
    package static func event(at offset: Int, in file: ReadableFile) -> Event? {
        // An event is usually a few hundred bytes to a few KiB.
        var spill = SpillReader(file.reader(from: offset, chunkSize: 16 << 10))
        guard let length = spill.readUInt64(), let bytes = spill.read(Int(length)) else { return nil }
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        do {
            return try decoder.decode(Event.self, from: Data(bytes))
        } catch {
            // Written by this process from the same model a moment ago: only a bug gets here.
            preconditionFailure("a spooled event does not decode: \(error)")
        }
    }
}
