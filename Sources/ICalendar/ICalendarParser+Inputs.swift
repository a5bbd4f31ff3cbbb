import CalendarModel
import Foundation

extension ICalendarParser {
    /// Parses the calendar in the file at `url`, naming its path in diagnostics; throws only when the
    /// file cannot be read (what is wrong inside it is in the result's diagnostics).
    public func parse(contentsOf url: URL) throws(CalendarFileError) -> Result {
        let data: Data
        do { data = try Data(contentsOf: url) } catch { throw CalendarFileError(url, .read, error) }
        return parse(data, file: url.path)
    }

    /// Parses a calendar held as text.
    public func parse(_ text: String, file: String? = nil) -> Result {
        parse(Array(text.utf8), file: file)
    }

    /// Parses a calendar held as bytes in a `Data`.
    public func parse(_ data: Data, file: String? = nil) -> Result {
        parse([UInt8](data), file: file)
    }
}
