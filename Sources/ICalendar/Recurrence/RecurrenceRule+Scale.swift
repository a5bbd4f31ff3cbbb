import CalendarModel

extension RecurrenceRule {
    /// The RFC 7529 RSCALE, upper-cased; GREGORIAN when the rule does not say.
    var scale: String {
        extraParts.first { $0.name.uppercased() == "RSCALE" }?.value.uppercased() ?? "GREGORIAN"
    }

    /// Whether calport can expand the rule: the Gregorian calendar, with RFC 7529's default SKIP=OMIT.
    var isGregorian: Bool {
        let skip = extraParts.first { $0.name.uppercased() == "SKIP" }?.value.uppercased() ?? "OMIT"
        return scale == "GREGORIAN" && skip == "OMIT"
    }
}
