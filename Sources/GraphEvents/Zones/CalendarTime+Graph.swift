import CalendarModel

extension CalendarTime {
    /// The UTC wall time of this time: a date counts from its midnight, and a floating time is read
    /// as UTC; nil when the zone is unknown.
    var graphUTC: LocalDateTime? {
        switch self {
        case .utc(let local), .floating(let local): return local
        case .date(let date): return LocalDateTime(date: date)
        case .zoned(let local, let zone):
            guard let iana = zone.ianaIdentifier ?? GraphZones.ianaIdentifier(forGraphName: zone.name),
                let seconds = GraphZones.utcSeconds(for: local, inIANA: iana)
            else { return nil }
            return LocalDateTime(secondsSinceEpoch: seconds)
        }
    }

    /// The instant `utc` written in the same form as this time (same zone, UTC, date or floating),
    /// so that a RECURRENCE-ID or EXDATE matches its series' DTSTART; nil when the zone is unknown.
    func sameForm(atUTC utc: LocalDateTime) -> CalendarTime? {
        switch self {
        case .utc: return .utc(utc)
        case .floating: return .floating(utc)
        case .date: return .date(utc.date)
        case .zoned(_, let zone):
            guard let iana = zone.ianaIdentifier ?? GraphZones.ianaIdentifier(forGraphName: zone.name),
                let local = GraphZones.localDateTime(atUTCSeconds: utc.secondsSinceEpoch, inIANA: iana)
            else { return nil }
            return .zoned(local, zone)
        }
    }

    /// The wall date of this time in the zone Graph calls `zoneName` (for UTC instants); other forms
    /// keep their own date.
    func localDate(inGraphZone zoneName: String?) -> CalendarDate {
        guard case .utc(let utc) = self, let zoneName, let iana = GraphZones.ianaIdentifier(forGraphName: zoneName),
            let local = GraphZones.localDateTime(atUTCSeconds: utc.secondsSinceEpoch, inIANA: iana)
        else { return date }
        return local.date
    }

    /// The basic-format text of a RECURRENCE-ID for transaction ids: a date, or the UTC time.
    var transactionKey: String {
        let utc = isDate ? localDateTime : graphUTC ?? localDateTime
        let date = GraphDateTime.format(utc.date).filter { $0 != "-" }
        if isDate { return date }
        let clock = GraphDateTime.format(utc, fraction: false).suffix(8).filter { $0 != ":" }
        return "\(date)T\(clock)Z"
    }
}

extension GraphZones {
    /// The UTC end of the inclusive local date `endDate` in `zoneName` (23:59:59 there), as UNTIL;
    /// nil when the zone is unknown.
    static func untilTime(endDate: CalendarDate, zoneName: String) -> CalendarTime? {
        guard let iana = ianaIdentifier(forGraphName: zoneName),
            let seconds = utcSeconds(for: LocalDateTime(date: endDate, hour: 23, minute: 59, second: 59), inIANA: iana)
        else { return nil }
        return .utc(LocalDateTime(secondsSinceEpoch: seconds))
    }
}
