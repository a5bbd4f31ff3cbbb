import Foundation
import GraphEvents
import ICalendar

// Reads an .ics file, lists next week's occurrences in the user's time zone, writes Graph JSON.
let input = URL(fileURLWithPath: CommandLine.arguments.dropFirst().first ?? "calendar.ics")
let calendar = try ICalendarParser().parse(contentsOf: input)
for problem in calendar.diagnostics { print(problem) }

let nextWeek = DateInterval(start: Date(), duration: 7 * 86_400)
for occurrence in calendar.document.occurrences(in: nextWeek, timeZone: .current).occurrences {
    print(occurrence.startDate.formatted(date: .abbreviated, time: .shortened), occurrence.event.summary ?? "")
}

let output = URL(fileURLWithPath: "events.json")
let lost = try GraphEventWriter(style: .post).write(calendar.document.events, to: output, pretty: true)
print("wrote \(output.path), \(lost.count) warnings")
