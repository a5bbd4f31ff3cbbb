import CalendarModel
import Foundation

extension ICalendarSerializer {
    /// A whole calendar as text, as `serialize(_:)` writes it (CRLF line ends, folded lines).
    public func string(_ document: CalendarDocument) -> String {
        String(decoding: serialize(document), as: UTF8.self)
    }

    /// Writes a whole calendar to the file at `url`, through a temporary file renamed over it, so that
    /// a failure never leaves a truncated calendar behind.
    public func write(_ document: CalendarDocument, to url: URL) throws(CalendarFileError) {
        do { try Data(serialize(document)).write(to: url, options: .atomic) } catch {
            throw CalendarFileError(url, .write, error)
        }
    }
}
