import CalendarModel

/// An event read from Graph JSON and where its object starts.
public struct GraphEventRecord: Hashable, Sendable {
    /// The event, mapped to the model.
    public var event: Event
    /// Where its JSON object starts: file, line, column and JSON path.
    public var location: SourceLocation
}

/// Everything read from one Graph JSON input.
public struct GraphReadResult: Sendable {
    /// Masters, single events and overrides, in input order, except that an exception listed before
    /// its master comes after everything else.
    public var records: [GraphEventRecord]
    /// What reading and mapping reported, each with its location and UID.
    public var diagnostics: [Diagnostic]
    /// The last page's `@odata.nextLink`, when the input was a page that had one.
    public var nextLink: String?

    /// The events alone.
    public var events: [Event] { records.map(\.event) }
}

/// Reads Graph event JSON as people have it on disk: one event, an array, a page
/// (`{"value": [...]}`), several pages or documents concatenated, or NDJSON, told apart by content.
///
/// Exception instances listed beside their series master become its overrides; plain occurrences
/// of a master that is present are dropped (the RRULE makes them); instances whose master is absent
/// stay single events, after the others.
public struct GraphEventReader: Sendable {
    /// The file name used in diagnostics.
    public var file: String?
    /// JSON depth and string length bounds; each one reached is an error diagnostic, never a crash.
    public var limits: JSONLimits

    /// A reader naming `file` in its diagnostics and holding its input to `limits`.
    public init(file: String? = nil, limits: JSONLimits = JSONLimits()) {
        self.file = file
        self.limits = limits
    }

    /// Every event in `bytes`. A JSON syntax error ends reading; what came before is kept.
    public func read(_ bytes: [UInt8]) -> GraphReadResult {
        var records: [GraphEventRecord] = []
        var result = read(bytes) { records.append($0) }
        result.records = records
        return result
    }

    /// Every event in `bytes`, handed to `each` as soon as it is mapped, so that a large input
    /// need not be held as events; the result carries the diagnostics and no records. An
    /// exception listed before its series master is handed over once the master is read.
    public func read(_ bytes: [UInt8], each: (GraphEventRecord) -> Void) -> GraphReadResult {
        var stream = GraphEventStream(file: file, limits: limits, bytes: bytes)
        let diagnostics = stream.finish(each: each)
        return GraphReadResult(records: [], diagnostics: diagnostics, nextLink: stream.nextLink)
    }
}
