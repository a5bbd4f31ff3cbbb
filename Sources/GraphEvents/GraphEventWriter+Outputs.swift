import CalendarModel
import Foundation

/// How a list of Graph objects is laid out as JSON text.
public enum GraphJSONLayout: Hashable, Sendable {
    /// A JSON array, `[{…}, {…}]`: the bodies to POST to `/me/events`, one by one.
    case array
    /// A page as Graph returns it, `{"value": [{…}, {…}]}`.
    case page
    /// One object a line (NDJSON), for tools that read a line at a time.
    case lines
}

extension GraphEventWriter {
    /// The events as Graph JSON text laid out as `layout` (indented when `pretty`, except `.lines`),
    /// with what mapping them to Graph lost or refused.
    public func encode(_ events: [Event], layout: GraphJSONLayout = .array, pretty: Bool = false)
        -> GraphMapping<[UInt8]>
    {
        let written = write(events)
        var bytes: [UInt8] = []
        switch layout {
        case .lines:
            for value in written.output {
                JSONWriter().write(value, into: &bytes)
                bytes.append(0x0A)
            }
        case .array, .page:
            let list = JSONValue.array(written.output)
            let value: JSONValue = layout == .page ? ["value": list] : list
            JSONWriter(pretty: pretty).write(value, into: &bytes)
            bytes.append(0x0A)
        }
        return GraphMapping(output: bytes, diagnostics: written.diagnostics)
    }

    /// Writes the events as Graph JSON to the file at `url`, through a temporary file renamed over it;
    /// returns what mapping them to Graph lost or refused.
    @discardableResult
    public func write(_ events: [Event], to url: URL, layout: GraphJSONLayout = .array, pretty: Bool = false)
        throws(CalendarFileError) -> [Diagnostic]
    {
        let encoded = encode(events, layout: layout, pretty: pretty)
        do { try Data(encoded.output).write(to: url, options: .atomic) } catch {
            throw CalendarFileError(url, .write, error)
        }
        return encoded.diagnostics
    }
}
