import CalendarModel

extension CalendarTime {
    /// The UTC wall time of this time; nil when the zone is unknown. A date counts from its
    /// midnight in `allDayZone` (a Graph zone name, as all-day events carry one) or else in UTC; a
    /// floating time is read as UTC.
    func graphUTC(allDayZone: String? = nil) -> LocalDateTime? {
        switch self {
        case .utc(let local), .floating(let local): return local
        case .date(let date):
            let midnight = LocalDateTime(date: date)
            guard let iana = allDayZone.flatMap(GraphZones.ianaIdentifier(forGraphName:)),
                let seconds = GraphZones.utcSeconds(for: midnight, inIANA: iana)
            else { return midnight }
            return LocalDateTime(secondsSinceEpoch: seconds)
        case .zoned(let local, let zone):
            guard let iana = zone.ianaIdentifier ?? GraphZones.ianaIdentifier(forGraphName: zone.name),
                let seconds = GraphZones.utcSeconds(for: local, inIANA: iana)
            else { return nil }
            return LocalDateTime(secondsSinceEpoch: seconds)
        }
    }

    /// The instant `utc` written in the same form as this time (same zone, UTC, date or floating),
    /// so that a RECURRENCE-ID or EXDATE matches its series' DTSTART; nil when the zone is unknown.
    /// A date is the day in `allDayZone` (else UTC) at that instant.
    func sameForm(atUTC utc: LocalDateTime, allDayZone: String? = nil) -> CalendarTime? {
        switch self {
        case .utc: return .utc(utc)
        case .floating: return .floating(utc)
        case .date:
            let local = allDayZone.flatMap(GraphZones.ianaIdentifier(forGraphName:)).flatMap {
                GraphZones.localDateTime(atUTCSeconds: utc.secondsSinceEpoch, inIANA: $0)
            }
            return .date((local ?? utc).date)
        case .zoned(_, let zone):
            guard let iana = zone.ianaIdentifier ?? GraphZones.ianaIdentifier(forGraphName: zone.name),
                let local = GraphZones.localDateTime(atUTCSeconds: utc.secondsSinceEpoch, inIANA: iana)
            else { return nil }
            return .zoned(local, zone)
        }
    }

    /// The same instant as a wall-clock time in `zone` (UTC as `.utc`); nil for a date, or when a
    /// zone is unknown.
    func sameInstant(in zone: TimeZoneReference) -> CalendarTime? {
        guard !isDate, let utc = graphUTC(), let iana = zone.ianaIdentifier else { return nil }
        if iana == "UTC" || iana == "Etc/UTC" { return .utc(utc) }
        return GraphZones.localDateTime(atUTCSeconds: utc.secondsSinceEpoch, inIANA: iana).map { .zoned($0, zone) }
    }

    /// The basic-format text of a RECURRENCE-ID for transaction ids and the writer's identity
    /// annotations: a date, or the UTC time.
    public var transactionKey: String {
        let utc = isDate ? localDateTime : graphUTC() ?? localDateTime
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
