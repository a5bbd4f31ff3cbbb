import CalendarModel

/// One unfolded content line, RFC 5545 §3.1: `NAME;PARAM=VALUE:value`.
///
/// `value` is the text after the colon exactly as written (escapes included); parameters are
/// decoded (quotes removed, RFC 6868 `^` sequences resolved).
struct ContentLine: Hashable, Sendable {
    var name: String
    var parameters: [Parameter]
    var value: String
    /// The physical line the content line started on (1-based); 0 for lines calport made.
    var line: Int

    init(name: String, parameters: [Parameter] = [], value: String, line: Int = 0) {
        self.name = name
        self.parameters = parameters
        self.value = value
        self.line = line
    }

    /// The first value of a parameter, matched case-insensitively.
    func parameter(_ name: String) -> String? {
        parameters.first { $0.name.caseInsensitiveEquals(name) }?.firstValue
    }

    /// The parameters other than the named ones, which are a few short upper-case literals compared
    /// one by one: an array literal of them is a constant, where a `Set` literal was built and hashed
    /// for each property read. Most lines keep none, and then no array is made; a line that keeps
    /// all shares its own, and the rest are gathered in an array made to size (`filter` made one
    /// and grew it twice: 5,500 instructions of each event read).
    func parameters(excluding names: [String]) -> [Parameter] {
        // Parsed names are already upper-case; names set by code are compared case-insensitively.
        func kept(_ parameter: Parameter) -> Bool {
            !names.contains { $0 == parameter.name || $0.caseInsensitiveEquals(parameter.name) }
        }
        let keptCount = parameters.reduce(0) { $0 + (kept($1) ? 1 : 0) }
        if keptCount == parameters.count { return parameters }
        var result: [Parameter] = []
        guard keptCount > 0 else { return result }
        result.reserveCapacity(keptCount)
        for parameter in parameters where kept(parameter) { result.append(parameter) }
        return result
    }
}

/// A `BEGIN:NAME` … `END:NAME` block with its content lines and nested blocks, in order.
struct ContentComponent: Hashable, Sendable {
    var name: String
    var properties: [ContentLine]
    var components: [ContentComponent]
    /// The line of its `BEGIN`.
    var line: Int

    init(name: String, properties: [ContentLine] = [], components: [ContentComponent] = [], line: Int = 0) {
        self.name = name
        self.properties = properties
        self.components = components
        self.line = line
    }
}
