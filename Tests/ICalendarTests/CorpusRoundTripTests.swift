import CalendarModel
import Foundation
import Testing

@testable import ICalendar

/// Every .ics under ../shared/corpus goes through parse → serialise → parse and must give the same
/// model; malformed files must give diagnostics, never a crash.
@Test func everyCorpusFileRoundTrips() throws {
    guard let (corpus, files) = try corpusCalendars() else { return }
    #expect(files.count > 100)
    var roundTripped = 0
    for file in files {
        let bytes = try [UInt8](Data(contentsOf: corpus.appendingPathComponent(file)))
        var first = ICalendarParser().parse(bytes, file: file)
        let output = ICalendarSerializer().serialize(first.document)
        let second = ICalendarParser().parse(output, file: file)
        // PRODID is required (RFC 5545 §3.7.3): calport writes its own when the input had none. And
        // Outlook reads a TZID only with its VTIMEZONE: calport adds those the input lacked.
        // A Windows zone name no VTIMEZONE defines is written under its IANA id (docs/mapping.md).
        first.document.productID = first.document.productID ?? ICalendarSerializer.defaultProductID
        ZoneNaming.name(&first.document)
        // An RDATE period is written as its start and, lasting otherwise, an override (docs/interop.md).
        first.document.events = RecurrencePeriodSplit.splitting(first.document.events)
        first.document.timeZones += TimeZoneCoverage.missingDefinitions(for: first.document)
        #expect(second.document == first.document, "\(file) changed in a round trip")
        if second.document != first.document { print("ROUNDTRIP-DIFF \(file)") }
        #expect(
            second.diagnostics.filter { $0.severity == .error }.isEmpty,
            "\(file): output has errors: \(second.diagnostics)")
        if second.document == first.document { roundTripped += 1 }
    }
    print("corpus round trip: \(roundTripped) of \(files.count) files gave equal models")
}
