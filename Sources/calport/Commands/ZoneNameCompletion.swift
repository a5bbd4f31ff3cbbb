import ArgumentParsing
import TimeZones

/// The zone names shells offer for `--tz` and `calport tz`: UTC, the IANA zones CLDR maps and the
/// Windows ids, from the same tables calport resolves them with.
enum ZoneNameCompletion {
    static let all = ValueCompletion.wordList(name: "zones") {
        ["UTC"] + WindowsZones.allIANAIdentifiers + WindowsZones.allWindowsIDs
    }
}

/// The calendar names shells offer for `--calendar`: asked of Graph at completion time through
/// `calport calendars --names`, which prints nothing and fails at once when not signed in.
enum CalendarNameCompletion {
    static let names = ValueCompletion.command(["calendars", "--names"])
}
