import CalendarModel
import Foundation
import Testing

@testable import ICalendar
@testable import calport

/// Error-level diagnostics of calport's validator, counted by what they say: the code, and for a
/// property missing or repeated, which one (the message), so that one defect does not hide another.
private func errorCodes(_ bytes: [UInt8], file: String) -> [String: Int] {
    ICalendarValidator().validate(bytes, file: file).filter { $0.severity == .error }
        .reduce(into: [:]) { counts, diagnostic in counts[key(diagnostic), default: 0] += 1 }
}

private func key(_ diagnostic: Diagnostic) -> String {
    ["missing-property", "repeated-property"].contains(diagnostic.code)
        ? "\(diagnostic.code): \(diagnostic.message)" : diagnostic.code
}

/// A VEVENT without DTSTAMP: an input's defect calport keeps, since it invents no revision time.
private func isUndated(_ diagnostic: Diagnostic) -> Bool {
    key(diagnostic) == undatedKey
}

private let undatedKey = "missing-property: VEVENT has no DTSTAMP, which RFC 5545 requires"

/// What calport always repairs, whatever its input: a VEVENT gets a UID derived from its content.
private let neverInOutput = "missing-property: VEVENT has no UID, which RFC 5545 requires"

/// Every .ics and Graph JSON input of the shared corpus, and the samples, converts to an .ics in which
/// calport's own validator finds no error the input did not have: calport adds no defect of its own
/// (a second VERSION, a parameter twice, a VEVENT without UID), so a new one fails here. An input's
/// own defects it keeps verbatim (a VEVENT without DTSTAMP, a second DTSTART) may stay. Graph JSON has
/// no iCalendar defects: its output may lack only DTSTAMP, where the input has no lastModifiedDateTime
/// (POST bodies, `$select` of a few members), since calport invents no revision time.
@Test func calportWritesNoErrorItsInputDidNotHave() throws {
    guard let shared = sharedDirectoryBesideCheckout else {
        print("skipped: ../shared/corpus is not present next to this checkout")
        return
    }
    let corpus = shared.appendingPathComponent("corpus")
    let inCorpus = try #require(FileManager.default.enumerator(atPath: corpus.path)).compactMap { $0 as? String }
        .filter { $0.hasSuffix(".ics") || ($0.hasPrefix("graph/") && $0.hasSuffix(".json")) }
        .map { corpus.appendingPathComponent($0).path }
    let samples = try FileManager.default.contentsOfDirectory(
        atPath: packageRoot.appendingPathComponent("Samples").path
    )
    .filter { $0.hasSuffix(".ics") || $0.hasSuffix(".json") }.map(samplePath)
    let files = (inCorpus + samples).sorted()
    #expect(files.count > 200)
    var checked = 0
    for path in files {
        let run = runCalport(["convert", "--quiet", "--to", "ics", path])
        guard run.output.hasPrefix("BEGIN:VCALENDAR") else { continue }
        checked += 1
        let output = errorCodes(Array(run.output.utf8), file: path)
        var allowed: [String: Int]
        if path.hasSuffix(".ics") {
            let input = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            allowed = errorCodes(input, file: path)
            // An RDATE period is written as an override VEVENT (docs/interop.md), a copy of its
            // master: of a master without DTSTAMP, the override lacks it as well. A master without
            // UID has one derived from its content in the output.
            let undated = Set(ICalendarValidator().validate(input, file: path).filter(isUndated).map(\.uid))
            let named = Set(
                String(decoding: input, as: UTF8.self).split(whereSeparator: \.isNewline)
                    .filter { $0.hasPrefix("UID:") }.map { String($0.dropFirst(4)) })
            let inherited = ICalendarValidator().validate(Array(run.output.utf8)).filter(isUndated)
                .filter { undated.contains($0.uid) || (undated.contains(nil) && !named.contains($0.uid ?? "")) }.count
            allowed[undatedKey] = max(allowed[undatedKey, default: 0], inherited)
        } else {
            // Only where the input gives no revision time at all.
            let input = try String(contentsOfFile: path, encoding: .utf8)
            let lacking = ICalendarValidator().validate(Array(run.output.utf8)).filter(isUndated)
            allowed = input.contains("lastModifiedDateTime") ? [:] : [undatedKey: lacking.count]
        }
        allowed[neverInOutput] = nil
        for (code, count) in output where count > allowed[code, default: 0] {
            Issue.record(
                "\(path): calport's output has \(count) [\(code)] errors, its input \(allowed[code, default: 0])")
        }
    }
    #expect(checked > 180)
    print("output validity: \(checked) of \(files.count) inputs converted; no error calport added")
}
