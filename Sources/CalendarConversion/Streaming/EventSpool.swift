import CalendarModel
import Foundation
import ICalendar

/// Events of a Graph JSON or NDJSON input as the index pass mapped them, in the model's own form,
/// so that the second pass reads them in order and a series' members from where they are, as it
/// reads VEVENTs of iCalendar. Graph events cannot be read again from their own bytes alone: an
/// exception is mapped against its master, and an instance listed before its master is handed on
/// after the input's other events.
///
/// A record is the length of the encoded event and the line its object or line begins on (0 when
/// unknown), little-endian 64-bit integers, then the event (`Codable`, as JSON: the model holds
/// nothing that it does not carry exactly).
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

        /// Appends `event`, which begins on `line` of its input.
        package mutating func write(_ event: Event, line: Int?) {
            // Encoding fails only on a non-finite number, which is written as a string here.
            let bytes = (try? encoder.encode(event)) ?? Data()
            spill.write(UInt64(bytes.count))
            spill.write(UInt64(line ?? 0))
            spill.write(bytes)
            offset += 16 + bytes.count
        }
    }

    /// Reads a spool's records in order, or one record from its offset.
    package struct Reader {
        private var spill: SpillReader
        private let decoder = JSONDecoder()
        /// Where the record read last begins.
        package private(set) var recordOffset = 0
        /// The input line the record read last begins on, nil when unknown.
        package private(set) var recordLine: Int?
        private var nextOffset: Int

        /// A reader of `file`'s records from `offset`; `chunkSize` as for `ReadableFile.reader`.
        package init(_ file: ReadableFile, from offset: Int = 0, chunkSize: Int = 1 << 20) {
            spill = SpillReader(file.reader(from: offset, chunkSize: chunkSize))
            nextOffset = offset
            decoder.nonConformingFloatDecodingStrategy = .convertFromString(
                positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        }

        /// The next event; nil at the end (or when the spool cannot be read back: `ReadableFile.failure`).
        package mutating func next() -> Event? {
            guard let length = spill.readUInt64(), let line = spill.readUInt64(),
                let bytes = spill.read(Int(length))
            else { return nil }
            recordOffset = nextOffset
            recordLine = line == 0 ? nil : Int(line)
            nextOffset += 16 + Int(length)
            do {
                return try decoder.decode(Event.self, from: Data(bytes))
            } catch {
                // Written by this process from the same model a moment ago: only a bug gets here.
                preconditionFailure("a spooled event does not decode: \(error)")
            }
        }
    }

    /// The event whose record begins at `offset` of `file`.
    package static func event(at offset: Int, in file: ReadableFile) -> Event? {
        // An event is usually a few hundred bytes to a few KiB.
        var reader = Reader(file, from: offset, chunkSize: 16 << 10)
        return reader.next()
    }
}
