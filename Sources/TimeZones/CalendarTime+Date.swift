import CalendarModel
import Foundation

/// How a wall time that a zone's clocks skip (the hour lost when daylight saving time begins) is read.
public enum SkippedTimePolicy: Hashable, Sendable {
    /// With the offset before the gap, so that the time moves forward by the gap's length (02:30 in a
    /// 02:00 → 03:00 gap is 03:30): RFC 5545 §3.3.5's reading, and Foundation's
    /// `nextTimePreservingSmallerComponents`.
    case shiftForward
    /// Not at all: the conversion throws ``WallTimeError/skipped(_:zone:)``.
    case reject
}

/// How a wall time that a zone's clocks show twice (the hour repeated when daylight saving time ends) is read.
public enum RepeatedTimePolicy: Hashable, Sendable {
    /// The earlier of the two instants (still on daylight saving time), as RFC 5545 §3.3.5 reads it.
    case first
    /// The later of the two instants (already on standard time).
    case last
    /// Neither: the conversion throws ``WallTimeError/repeated(_:zone:)``.
    case reject
}

/// How wall times a zone skips or repeats become instants: the choice every conversion from a local
/// time to an instant has to make, stated instead of implied.
public struct WallTimePolicy: Hashable, Sendable {
    /// What a skipped wall time becomes.
    public var skipped: SkippedTimePolicy
    /// What a repeated wall time becomes.
    public var repeated: RepeatedTimePolicy

    /// A policy with the given readings; the defaults are RFC 5545's.
    public init(skipped: SkippedTimePolicy = .shiftForward, repeated: RepeatedTimePolicy = .first) {
        self.skipped = skipped
        self.repeated = repeated
    }

    /// RFC 5545 §3.3.5's reading, which calport's expansion uses: skipped times move forward by the gap,
    /// repeated times are their first occurrence.
    public static let rfc5545 = WallTimePolicy()

    /// Skipped and repeated wall times are errors.
    public static let strict = WallTimePolicy(skipped: .reject, repeated: .reject)
}

/// Why a `CalendarTime` names no single instant.
public enum WallTimeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The wall time does not exist in the zone (a daylight saving gap) and the policy rejects it.
    case skipped(LocalDateTime, zone: String)
    /// The wall time exists twice in the zone (a daylight saving fold) and the policy rejects it.
    case repeated(LocalDateTime, zone: String)
    /// The zone name is neither an IANA, Windows or Outlook name nor defined by the resolver's VTIMEZONEs.
    case unknownZone(String)

    /// The problem in a sentence naming the time and the zone.
    public var description: String {
        switch self {
        case .skipped(let local, let zone): return "\(local.isoText) does not exist in \(zone) (clocks skip it)"
        case .repeated(let local, let zone): return "\(local.isoText) happens twice in \(zone) (clocks repeat it)"
        case .unknownZone(let name): return "time zone '\(name)' is neither defined nor a known zone name"
        }
    }
}

/// The instants a wall time names in a zone.
public enum WallTimeReading: Hashable, Sendable {
    /// One instant, in UTC seconds since 1970.
    case unique(Int)
    /// Two instants (a fold), the earlier first.
    case repeated(first: Int, last: Int)
    /// None (a gap); `shifted` is the instant RFC 5545 reads it as, with the offset before the gap.
    case skipped(shifted: Int)
}

extension ZoneRules {
    /// Whether `local` names one instant in this zone, two, or none, and which.
    public func reading(of local: LocalDateTime) -> WallTimeReading {
        let wall = local.secondsSinceEpoch
        // A day either side brackets any single transition near the wall time, as `utcSeconds(for:)` does.
        let earlier = offset(atUTCSeconds: wall - 86_400)
        let later = offset(atUTCSeconds: wall + 86_400)
        let candidates = Set([wall - earlier, wall - later].filter { wall - offset(atUTCSeconds: $0) == $0 })
        switch candidates.count {
        case 0: return .skipped(shifted: wall - earlier)
        case 1: return .unique(candidates.first!)
        default: return .repeated(first: candidates.min()!, last: candidates.max()!)
        }
    }

    /// The instant `local` names under `policy`, in UTC seconds since 1970; `zone` names the zone in errors.
    func utcSeconds(for local: LocalDateTime, policy: WallTimePolicy, zone: String) throws(WallTimeError) -> Int {
        switch reading(of: local) {
        case .unique(let instant):
            return instant
        case .skipped(let shifted):
            guard policy.skipped == .shiftForward else { throw .skipped(local, zone: zone) }
            return shifted
        case .repeated(let first, let last):
            switch policy.repeated {
            case .first: return first
            case .last: return last
            case .reject: throw .repeated(local, zone: zone)
            }
        }
    }
}

extension CalendarTime {
    /// The instant this time names, as a Foundation `Date`.
    ///
    /// A UTC time is its own instant. A zoned time is read in its zone: its IANA id when known, else its
    /// name (IANA, Windows or Outlook) or a VTIMEZONE, through `resolver` (give it the document's
    /// `timeZones` for names only the document defines). A floating time, and a date (its midnight), are
    /// the same wall time everywhere and are read in `floatingZone`. `policy` says what a wall time the
    /// zone skips or repeats becomes.
    public func date(
        floatingIn floatingZone: TimeZone = TimeZone(identifier: "UTC")!, policy: WallTimePolicy = .rfc5545,
        resolver: TimeZoneResolver = TimeZoneResolver()
    ) throws(WallTimeError) -> Date {
        let seconds: Int
        switch self {
        case .utc(let local):
            seconds = local.secondsSinceEpoch
        case .date, .floating:
            guard let rules = ZoneRules(ianaIdentifier: floatingZone.identifier) else {
                throw .unknownZone(floatingZone.identifier)
            }
            seconds = try rules.utcSeconds(for: localDateTime, policy: policy, zone: floatingZone.identifier)
        case .zoned(let local, let zone):
            let rules =
                zone.ianaIdentifier.flatMap { ZoneRules(ianaIdentifier: $0) } ?? resolver.resolve(zone.name).rules
            guard let rules else { throw .unknownZone(zone.name) }
            seconds = try rules.utcSeconds(for: local, policy: policy, zone: zone.ianaIdentifier ?? zone.name)
        }
        return Date(timeIntervalSince1970: Double(seconds))
    }

    /// `date` as the wall time it is in `zone`, to the second (a fraction is dropped): a `.utc` time
    /// for UTC or GMT, otherwise a `.zoned` time naming the zone's identifier.
    public init(_ date: Date, in zone: TimeZone) {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let local = LocalDateTime(secondsSinceEpoch: seconds + zone.secondsFromGMT(for: date))
        if ["UTC", "GMT", "Etc/UTC", "Etc/GMT"].contains(zone.identifier) {
            self = .utc(local)
        } else {
            self = .zoned(local, TimeZoneReference(name: zone.identifier, ianaIdentifier: zone.identifier))
        }
    }
}

extension TimeZone {
    /// The IANA zone CLDR maps a Windows zone id to (`"Pacific Standard Time"` → `America/Los_Angeles`),
    /// for `territory` (an ISO 3166 code such as `"ES"`) when CLDR has a row for it; nil for an unknown id.
    public init?(windowsIdentifier: String, territory: String? = nil) {
        guard let id = WindowsZones.ianaIdentifier(forWindowsID: windowsIdentifier, territory: territory) else {
            return nil
        }
        self.init(identifier: id)
    }

    /// The Windows zone id CLDR gives this zone (what Graph expects in a `timeZone` member); nil when none does.
    public var windowsIdentifier: String? {
        WindowsZones.windowsID(forIANA: identifier)
    }
}

extension LocalDateTime {
    /// ISO 8601 extended form, `2026-03-08T02:30:00`, for messages.
    fileprivate var isoText: String {
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(date.year)-\(two(date.month))-\(two(date.day))T\(two(hour)):\(two(minute)):\(two(second))"
    }
}
