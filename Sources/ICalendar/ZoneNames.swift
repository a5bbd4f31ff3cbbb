import CalendarModel
import Foundation

/// TZID handling at the iCalendar boundary: vendor prefixes that some writers (libical's built-in
/// zones, Mozilla, Citadel) put before IANA ids, and resolution of a TZID to an IANA zone.
enum ZoneNames {
    /// `/freeassociation.sourceforge.net/Europe/Berlin` → `Europe/Berlin`, when the rest is an IANA id.
    static func strippingVendorPrefix(_ tzid: String) -> String {
        guard tzid.hasPrefix("/") else { return tzid }
        let parts = tzid.split(separator: "/")
        // Try the longest suffix that is an IANA id: "Tzfile/Europe/Berlin" is not, "Europe/Berlin" is.
        for start in 1..<max(parts.count, 1) {
            let candidate = parts[start...].joined(separator: "/")
            if isIANA(candidate) { return candidate }
        }
        return tzid
    }

    /// Whether tzdata knows the id.
    static func isIANA(_ identifier: String) -> Bool {
        identifier.contains("/") || identifier == "UTC" || identifier == "GMT"
            ? TimeZone(identifier: identifier) != nil : false
    }
}
