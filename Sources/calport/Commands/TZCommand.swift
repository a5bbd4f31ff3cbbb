import ArgumentParsing
import CalendarModel
import ICalendar
import TimeZones

/// `calport tz`: the Windows ↔ IANA tables and VTIMEZONE output, for scripts and for checking a zone.
enum TZCommand {
    static let territory = OptionSpec(
        names: ["--territory"], valueName: "CC",
        help: "ISO 3166 territory for windows-to-iana (CLDR's 001 row otherwise)")
    static let fromYear = OptionSpec(
        names: ["--from"], valueName: "YEAR", help: "First year for vtimezone (default: this year)")
    static let toYear = OptionSpec(
        names: ["--to"], valueName: "YEAR", help: "Last year for vtimezone (default: --from)")

    /// The years `vtimezone` builds: those a four-digit iCalendar year can say.
    static let writableYears = 1...9999
    static let spec = CommandSpec(
        name: "tz", abstract: "Map Windows and IANA time zone names, and print VTIMEZONEs.",
        options: [territory, fromYear, toYear, CommonOptions.help], positionals: "NAME",
        actions: [
            ("windows-to-iana", "windows-to-iana NAME [--territory CC]   IANA id of a Windows zone id or Outlook name"),
            ("iana-to-windows", "iana-to-windows ZONE                    Windows id of an IANA zone"),
            ("vtimezone", "vtimezone ZONE [--from YEAR --to YEAR]  VTIMEZONE of a zone, truncated to the years"),
        ], positionalCompletion: ZoneNameCompletion.all)

    static func run(_ arguments: ParsedArguments, terminal: Terminal, currentYear: Int) -> ExitStatus {
        guard arguments.positionals.count == 2, let action = arguments.positionals.first,
            let name = arguments.positionals.last
        else {
            terminal.writeError("calport tz: error: expected an action and a zone name\nUsage: \(spec.synopsis)\n")
            return .usage
        }
        switch action {
        case "windows-to-iana":
            let identifier =
                WindowsZones.ianaIdentifier(forWindowsID: name, territory: arguments.value(territory))
                ?? TimeZoneResolver().resolve(name).ianaIdentifier
            return answer(
                identifier, for: name, expected: "a Windows zone id or Outlook display name", terminal: terminal)
        case "iana-to-windows":
            return answer(
                WindowsZones.windowsID(forIANA: name), for: name, expected: "an IANA zone id", terminal: terminal)
        case "vtimezone":
            guard let first = Int(arguments.value(fromYear) ?? String(currentYear)),
                let last = Int(arguments.value(toYear) ?? arguments.value(fromYear) ?? String(currentYear)),
                first <= last
            else {
                terminal.writeError("calport tz: error: --from and --to expect years, --from not after --to\n")
                return .usage
            }
            // iCalendar's DATE-TIME has four digits for the year (RFC 5545 §3.3.4); year 0 is none.
            guard Self.writableYears.contains(first), Self.writableYears.contains(last) else {
                terminal.writeError(
                    "calport tz: error: --from and --to must be years from 1 to 9999, the years iCalendar writes\n")
                return .usage
            }
            guard let identifier = TimeZoneResolver().resolve(name).ianaIdentifier,
                let definition = VTimeZoneBuilder.definition(forIANA: identifier, years: first...last)
            else {
                terminal.writeError("calport tz: error: '\(name)' is not a zone calport knows\n")
                return .dataProblem
            }
            terminal.write(ICalendarSerializer().serialize(definition))
            return .success
        default:
            terminal.writeError(
                "calport tz: error: unknown action '\(action)'; expected windows-to-iana, iana-to-windows or vtimezone\n"
            )
            return .usage
        }
    }

    private static func answer(_ value: String?, for name: String, expected: String, terminal: Terminal) -> ExitStatus {
        guard let value else {
            terminal.writeError("calport tz: error: '\(name)' is not \(expected) calport knows\n")
            return .dataProblem
        }
        terminal.write(Array((value + "\n").utf8))
        return .success
    }
}
