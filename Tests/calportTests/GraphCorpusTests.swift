import Foundation
import Testing

@testable import ICalendar
@testable import calport

/// Every Graph JSON example of the shared corpus converts to an .ics that libical's own parser reads
/// without a complaint (libical-based clients such as Evolution read it as calport wrote it).
/// Python's icalendar re-reads the same outputs in scripts/interop.
@Test func everyGraphCorpusFileConvertsToICalendarLibicalReadsCleanly() throws {
    guard let shared = sharedDirectoryBesideCheckout else {
        print("skipped: ../shared/corpus/graph is not present next to this checkout")
        return
    }
    let folder = shared.appendingPathComponent("corpus/graph")
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
        .sorted()
    #expect(files.count >= 19)
    var converted = 0
    var unusable: [String] = []
    for file in files {
        let run = runCalport(["convert", folder.appendingPathComponent(file).path])
        #expect(run.status != .ioError && run.status != .usage, "\(file): \(run.errors)")
        guard run.output.hasPrefix("BEGIN:VCALENDAR") else {
            // Doc examples cut short upstream (no start at all): an error, and nothing written.
            #expect(run.errors.contains("[graph-missing-start]"), "\(file): \(run.errors)")
            unusable.append(file)
            continue
        }
        let complaints = try #require(Libical.parserComplaints(run.output), "libical cannot read the output of \(file)")
        #expect(complaints.isEmpty, "\(file): \(complaints)")
        converted += 1
    }
    #expect(converted + unusable.count == files.count)
    #expect(unusable.count <= 4)
    print(
        "graph corpus: \(converted) of \(files.count) files converted and read back by libical; no usable event in \(unusable)"
    )
}
