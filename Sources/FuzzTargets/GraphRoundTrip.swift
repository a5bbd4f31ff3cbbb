import GraphEvents

/// Graph JSON decode → encode → decode: JSON values survive the writer, and the events calport
/// writes are valid JSON that reads back as the same number of events.
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
        let written = GraphEventWriter(style: .full).write(read.events)
        let page = JSONValue.object(JSONObject([JSONMember("value", .array(written.output))]))
        let text = JSONWriter().string(page)
        let reread = GraphEventReader(file: "written.json").read(Array(text.utf8))
        if let broken = reread.diagnostics.first(where: { $0.code == "json-syntax" }) {
            throw FuzzFinding(target: .graph, message: "written JSON does not parse: \(broken.message)\n\(text)")
        }
    }
}
