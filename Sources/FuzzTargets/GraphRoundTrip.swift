import CalendarModel
import GraphEvents

/// Graph JSON decode → encode → decode: JSON values survive the writer, the events calport
/// writes are valid JSON that reads back (and, written as text, are the values written), and the
/// names a first pass gives the events without mapping them (`GraphIdentityStream`) name each UID
/// at least as often as mapping gives it.
enum GraphRoundTrip {
    /// Small limits, so that the fuzzer reaches them instead of spending its time on long inputs.
    static let limits = JSONLimits(maximumDepth: 32, maximumStringLength: 4096)

    static func run(_ bytes: [UInt8]) throws(FuzzFinding) {
        if let value = try? JSONParser.parse(bytes, limits: limits) {
            let text = JSONWriter().string(value)
            guard let again = try? JSONParser.parse(text), again == value else {
                throw FuzzFinding(target: .graph, message: "JSON value changed on its way through JSONWriter: \(text)")
            }
        }
        let read = GraphEventReader(file: "fuzz.json", limits: limits).read(bytes)
        try checkNames(of: read.events, in: bytes)
        let written = GraphEventWriter(style: .full).write(read.events)
        try checkText(of: read.events, values: written.output)
        let page = JSONValue.object(JSONObject([JSONMember("value", .array(written.output))]))
        let text = JSONWriter().string(page)
        let reread = GraphEventReader(file: "written.json").read(Array(text.utf8))
        if let broken = reread.diagnostics.first(where: { $0.code == "json-syntax" }) {
            throw FuzzFinding(target: .graph, message: "written JSON does not parse: \(broken.message)\n\(text)")
        }
    }

    /// Written as text (what `convert --to graph` writes, in memory of the writer's own), the
    /// entries are the values the writer makes, as `JSONWriter` writes them.
    private static func checkText(of events: [Event], values: [JSONValue]) throws(FuzzFinding) {
        var bytes: [UInt8] = []
        _ = GraphEventWriter(style: .full).write(events, appendingTo: &bytes, separatesFirst: false)
        let text = String(decoding: bytes, as: UTF8.self)
        let separator = String(decoding: GraphEventWriter.entrySeparator, as: UTF8.self)
        let expected = values.map { JSONWriter().string($0) }.joined(separator: separator)
        guard text == expected else {
            throw FuzzFinding(target: .graph, message: "entries written as text differ from their values:\n\(text)")
        }
    }

    /// A UID named less often than `events` hold it would hide a shared series from `SeriesIndex`.
    private static func checkNames(of events: [Event], in bytes: [UInt8]) throws(FuzzFinding) {
        var named: [String: Int] = [:]
        var stream = GraphIdentityStream(limits: limits)
        stream.append(bytes) { named[$0.uid, default: 0] += 1 }
        stream.finish { named[$0.uid, default: 0] += 1 }
        var mapped: [String: Int] = [:]
        for event in events { mapped[event.uid, default: 0] += 1 }
        for (uid, count) in mapped where named[uid, default: 0] < count {
            throw FuzzFinding(
                target: .graph, message: "UID \(uid) is named \(named[uid, default: 0]) times, mapped \(count) times")
        }
    }
}
