import CalendarModel
import Foundation

extension GraphEventReader {
    /// Every event in the file at `url`, naming its path in diagnostics unless `file` names it already;
    /// throws only when the file cannot be read.
    public func read(contentsOf url: URL) throws(CalendarFileError) -> GraphReadResult {
        let data: Data
        do { data = try Data(contentsOf: url) } catch { throw CalendarFileError(url, .read, error) }
        var reader = self
        reader.file = file ?? url.path
        return reader.read(data)
    }

    /// Every event in Graph JSON held as text.
    public func read(_ text: String) -> GraphReadResult {
        read(Array(text.utf8))
    }

    /// Every event in Graph JSON held as bytes in a `Data`.
    public func read(_ data: Data) -> GraphReadResult {
        read([UInt8](data))
    }
}

extension GraphReadResult {
    /// The events as a calendar, masters with their overrides, for the .ics serializer and expansion.
    public var document: CalendarDocument { CalendarDocument(events: events) }
}
