import CalendarModel
import Foundation
import GraphEvents

/// The shared Graph corpus (`../shared/corpus/graph` beside the package), when this checkout has it.
enum Corpus {
    static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/corpus/graph")

    /// The records of a corpus file, or nil (with a message) when the corpus is absent.
    static func read(_ name: String) -> GraphReadResult? {
        let url = directory.appendingPathComponent(name)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            print("skipping: \(url.path) is absent (the shared corpus is not part of a fresh clone)")
            return nil
        }
        return GraphEventReader(file: name).read(Array(data))
    }
}

/// Graph JSON text read through the reader.
func readGraph(_ text: String) -> GraphReadResult {
    GraphEventReader().read(Array(text.utf8))
}

let pacific = TimeZoneReference(name: "Pacific Standard Time", ianaIdentifier: "America/Los_Angeles")

func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0) -> CalendarTime {
    .utc(LocalDateTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second))
}

func inPacific(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int = 0) -> CalendarTime {
    .zoned(LocalDateTime(year: year, month: month, day: day, hour: hour, minute: minute), pacific)
}

func date(_ year: Int, _ month: Int, _ day: Int) -> CalendarDate {
    CalendarDate(year: year, month: month, day: day)
}

extension Event {
    /// The decoded value of an extra property.
    func extra(_ name: String) -> String? {
        extraProperties.first { $0.name == name }?.value
    }
}

extension Location {
    func parameter(_ name: String) -> String? {
        parameters.first { $0.name == name }?.values.first
    }
}
