import CalendarModel

extension Event {
    /// `isReminderOn` and `reminderMinutesBeforeStart` → one display VALARM. A minutes value without
    /// `isReminderOn` (as in some calendarView pages) counts as on.
    mutating func decodeGraphReminder(
        _ object: JSONNode, at path: @autoclosure () -> String, _ decoder: inout GraphDecoder
    ) {
        let isOn = decoder.bool("isReminderOn", of: object, at: path())
        let minutes = decoder.integer("reminderMinutesBeforeStart", of: object, at: path())
        if isOn != false, let minutes { alarms = [.minutesBeforeStart(minutes)] }
    }

    /// Writes the reminder from the first alarm that fires a whole number of minutes before the
    /// start; the other alarms are reported as lost, since Graph keeps one reminder.
    func encodeGraphReminder(into object: inout some JSONMemberSink, _ encoder: inout GraphEncoder) {
        let minutes = alarms.lazy.compactMap(\.minutesBeforeStart).first
        object.set("isReminderOn", .bool(minutes != nil))
        if let minutes { object.set("reminderMinutesBeforeStart", .number(Double(minutes))) }
        let lost = alarms.count - (minutes == nil ? 0 : 1)
        if lost > 0 {
            encoder.report(
                .warning, "graph-alarms-lost",
                "Graph keeps one reminder before the start; \(lost) other alarm(s) left out"
            )
        }
    }
}

extension Alarm {
    /// Minutes before the start, when this alarm is relative to the start and at or before it.
    var minutesBeforeStart: Int? {
        guard case .relative(let offset, relatedToEnd: false) = trigger else { return nil }
        let seconds = offset.nominalDays * 86_400 + offset.exactSeconds
        return seconds <= 0 && seconds % 60 == 0 ? -seconds / 60 : nil
    }
}
