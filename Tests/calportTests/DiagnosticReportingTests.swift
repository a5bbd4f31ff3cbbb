import CalendarModel
import Foundation
import TestSupport
import Testing

@testable import calport

/// A calendar with one event that Graph cannot hold all of: SEQUENCE (graph-sequence-lost) and an
/// X- property (graph-properties-lost), and, when asked, a to-do.
private func calendar(uid: String, withTodo: Bool = false) -> String {
    var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\n"
    text += "BEGIN:VEVENT\r\nUID:\(uid)\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20261201T100000Z\r\n"
    text += "DURATION:PT1H\r\nSEQUENCE:2\r\nX-FOO:bar\r\nSUMMARY:s\r\nEND:VEVENT\r\n"
    if withTodo { text += "BEGIN:VTODO\r\nUID:t-\(uid)\r\nDTSTAMP:20260101T000000Z\r\nSUMMARY:t\r\nEND:VTODO\r\n" }
    return text + "END:VCALENDAR\r\n"
}

/// A directory of `count` such calendars, `e00.ics`, `e01.ics`…
private func directory(of count: Int) throws -> URL {
    let directory = try temporaryDirectory()
    for index in 0..<count {
        let name = String(format: "e%02d", index)
        try calendar(uid: name).write(
            to: directory.appendingPathComponent("\(name).ics"), atomically: true, encoding: .utf8)
    }
    return directory
}

private func lines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init) }

@Test func aBatchPrintsTheFirstFewOfACodeThenItsCount() throws {
    let inputs = try directory(of: 12)
    let output = try temporaryDirectory()
    let run = runCalport(["convert", "--to", "graph", "--out-dir", output.path, inputs.path])
    #expect(run.status == .success)
    let lost = lines(run.errors).filter { $0.contains("[graph-properties-lost]") }
    #expect(lost.count == DiagnosticReporter.shownPerCode)
    for line in lost { #expect(line.hasPrefix(inputs.path + "/e"), "names its file: \(line)") }
    #expect(
        run.errors.contains(
            "calport: 12 × graph-properties-lost (12 warnings) in 12 files, the first 5 shown; --verbose lists each\n"))
    // SEQUENCE, which every event from iCalendar has, is a note: not shown, not counted.
    #expect(!run.errors.contains("graph-sequence-lost"))
    #expect(run.errors.hasSuffix("calport: 12 files, 12 events, 12 warnings, 0 failed\n"))

    let verbose = runCalport(["convert", "--to", "graph", "--out-dir", output.path, "--verbose", inputs.path])
    #expect(lines(verbose.errors).filter { $0.contains("[graph-properties-lost]") }.count == 12)
    #expect(lines(verbose.errors).filter { $0.contains("note: Graph has no SEQUENCE") }.count == 12)
    #expect(!verbose.errors.contains("--verbose lists each"))
}

@Test func strictMakesTheRoutineLossAWarningAndStopsAtIt() throws {
    let run = runCalport(["convert", "--to", "graph", "--strict"], stdin: calendar(uid: "a"))
    #expect(run.status == .dataProblem)
    #expect(run.errors.contains("<stdin>: error: Graph has no SEQUENCE (revision number); left out"))
    #expect(run.errors.contains("calport: stopped by --strict at <stdin>; nothing was written"))
    #expect(run.output.isEmpty)
}

@Test func aCodeCanBeSilencedOrMadeAnErrorOnTheCommandLine() throws {
    let off = runCalport(["convert", "--to", "graph", "-W", "graph-properties-lost=off"], stdin: calendar(uid: "a"))
    #expect(off.status == .success)
    #expect(off.errors.isEmpty)
    let error = runCalport(
        ["convert", "--to", "graph", "-W", "graph-properties-lost=error", "--diagnostic=graph-sequence-lost=warning"],
        stdin: calendar(uid: "a"))
    #expect(error.status == .dataProblem)
    #expect(error.errors.contains("<stdin>: error: Graph has no place for X-FOO; left out [graph-properties-lost]"))
    #expect(error.errors.contains("<stdin>: warning: Graph has no SEQUENCE"))
    let wrong = runCalport(["convert", "-W", "graph-properties-lost=loud"], stdin: calendar(uid: "a"))
    #expect(wrong.status == .usage)
    #expect(wrong.errors.contains("-W: expected CODE=off|note|warning|error, found 'graph-properties-lost=loud'"))
}

@Test func theConfigFileSetsDefaultsThatTheCommandLineOverrides() throws {
    let config = try temporaryDirectory()
    try FileManager.default.createDirectory(
        at: config.appendingPathComponent("calport"), withIntermediateDirectories: true)
    let file = config.appendingPathComponent("calport/config")
    try "# mine\n[diagnostics]\ngraph-properties-lost = off   # noisy\n".write(
        to: file, atomically: true, encoding: .utf8)
    let environment = ["XDG_CONFIG_HOME": config.path]
    let quiet = runCalport(["convert", "--to", "graph"], stdin: calendar(uid: "a"), environment: environment)
    #expect(quiet.errors.isEmpty)
    let loud = runCalport(
        ["convert", "--to", "graph", "-W", "graph-properties-lost=warning"], stdin: calendar(uid: "a"),
        environment: environment)
    #expect(loud.errors.contains("[graph-properties-lost]"))

    try "[diagnostics]\ngraph-properties-lost\n".write(to: file, atomically: true, encoding: .utf8)
    let broken = runCalport(["convert", "--to", "graph"], stdin: calendar(uid: "a"), environment: environment)
    #expect(broken.status == .usage)
    #expect(broken.errors.contains("\(file.path):2: expected CODE=off|note|warning|error"))
}

@Test func theSummaryNamesTheFilesThatFailed() throws {
    let inputs = try directory(of: 2)
    try badEvent.write(to: inputs.appendingPathComponent("bad.ics"), atomically: true, encoding: .utf8)
    let run = runCalport(["convert", "--out-dir", try temporaryDirectory().path, inputs.path])
    #expect(run.status == .dataProblem)
    #expect(run.errors.hasSuffix("calport: 3 files, 3 events, 0 warnings, 1 failed: \(inputs.path)/bad.ics\n"))
}

@Test func componentsGraphCannotHoldAreCountedByKind() throws {
    let mixed = runCalport(
        ["convert", "--to", "graph", "-W", "graph-properties-lost=off"], stdin: calendar(uid: "a", withTodo: true))
    #expect(mixed.status == .success)
    #expect(
        mixed.errors
            == "<stdin>: warning: 1 × VTODO left out: Graph event JSON holds events only (--to ics keeps them) [component-left-out]\n"
    )
    let todo =
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\n"
        + "BEGIN:VTODO\r\nUID:t1\r\nDTSTAMP:20260101T000000Z\r\nEND:VTODO\r\n"
        + "BEGIN:VTODO\r\nUID:t2\r\nDTSTAMP:20260101T000000Z\r\nEND:VTODO\r\n"
        + "BEGIN:VJOURNAL\r\nUID:j1\r\nDTSTAMP:20260101T000000Z\r\nEND:VJOURNAL\r\nEND:VCALENDAR\r\n"
    for target in ["graph", "graph-post", "ndjson"] {
        let only = runCalport(["convert", "--to", target], stdin: todo)
        #expect(only.status == .dataProblem, "\(target)")
        #expect(only.output.isEmpty, "\(target): no empty page")
        #expect(only.errors.contains("<stdin>: warning: 2 × VTODO left out"), "\(target)")
        #expect(only.errors.contains("<stdin>: warning: 1 × VJOURNAL left out"), "\(target)")
        #expect(only.errors.contains("calport: the input holds no events for --to \(target); nothing was written"))
    }
    // Streamed (read twice, series by series), the same is said.
    let streamed = runCalport(["convert", "--to", "graph", "--stream"], stdin: todo)
    #expect(streamed.status == .dataProblem)
    #expect(streamed.errors.contains("<stdin>: warning: 2 × VTODO left out"))
    #expect(runCalport(["convert", "--to", "ics"], stdin: todo).output.contains("BEGIN:VJOURNAL"))
}

@Test func messagesSpeakICalendarNotSwift() {
    let calendar = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:x\r
        BEGIN:VEVENT\r
        UID:\r
        DTSTAMP:20260101T000000Z\r
        DTSTART:20261201T100000Z\r
        CLASS:\r
        END:VEVENT\r
        END:VCALENDAR\r

        """
    let run = runCalport(["convert", "--to", "graph-post"], stdin: calendar)
    #expect(run.errors.contains("CLASS with an empty value has no Graph sensitivity; left out"))
    #expect(!run.errors.contains("other("))
    // Reading gives an empty UID one of its own; a diagnostic that still has none says so in words.
    let empty = Diagnostic(.warning, code: "c", message: "m", location: SourceLocation(file: "f.ics"), uid: "")
    #expect(empty.description == "f.ics: warning: m [c] (empty UID)")
}

/// 12 of 100 MiB in 1.5 s: 8 MiB/s, so 88 MiB take 11 s more; 45,000 events in 1.5 s are 30,000 a second.
@Test func progressSaysBytesEventsRateAndTimeLeft() {
    #expect(
        Progress.line(bytes: 12 << 20, of: 100 << 20, events: 45_000, seconds: 1.5)
            == "calport: 12.0 of 100.0 MiB, 45,000 events, 30,000 events/s, 0:11 left")
    #expect(
        Progress.line(bytes: 3 << 19, of: nil, events: 10, seconds: 2)
            == "calport: 1.5 MiB, 10 events, 5 events/s")
    var lines: [String] = []
    let progress = Progress(enabled: true) { lines.append($0) }
    progress.update(bytes: 1, of: 2, events: 1)
    progress.update(bytes: 2, of: 2, events: 2)
    progress.finish()
    #expect(lines.count == 2, "the second update within 0.1 s is not shown; the line is cleared at the end")
    #expect(lines.last == "\r\u{1B}[K")
}

/// 120 of 400 events in 3 s are 40 a second, so the 280 left take 7 s; with nothing left, no time.
@Test func progressThroughKnownItemsSaysRateAndTimeLeft() {
    #expect(
        Progress.line(done: 120, of: 400, "events", seconds: 3)
            == "calport: 120 of 400 events, 40 events/s, 0:07 left")
    #expect(
        Progress.line(done: 3_000, of: 3_000, "series", prefix: "12,500 events; ", seconds: 60)
            == "calport: 12,500 events; 3,000 of 3,000 series, 50 series/s")
    #expect(
        Progress.line(done: 10, of: 1_000, "events", seconds: 10)
            == "calport: 10 of 1,000 events, 1 events/s, 16:30 left")
}

/// Each control character becomes its escape; other text, tabs' neighbours and non-ASCII included,
/// is kept as it is.
@Test func controlCharactersArePrintedAsEscapes() {
    #expect("a\nb\rc\td".escapingControlCharacters == #"a\nb\rc\td"#)
    #expect("\u{1B}[31mred\u{7F}\u{9B}".escapingControlCharacters == #"\u{1B}[31mred\u{7F}\u{9B}"#)
    #expect("Zürich café ☕".escapingControlCharacters == "Zürich café ☕")
}

@Test func importNamesTheFileOfWhatItCannotSend() throws {
    let inputs = try temporaryDirectory()
    let file = inputs.appendingPathComponent("a.ics")
    try calendar(uid: "a", withTodo: true).write(to: file, atomically: true, encoding: .utf8)
    let run = runCalport(["import", "--dry-run", inputs.path])
    #expect(run.status == .success, "\(run.errors)")
    #expect(
        run.errors.contains("\(file.path): warning: Graph has no place for X-FOO; left out [graph-properties-lost]"))
    #expect(
        run.errors.contains(
            "\(file.path): warning: 1 × VTODO left out: Graph event JSON holds events only [component-left-out]"))
}
