import CalendarModel

extension LocalDateTime {
    /// Reads `YYYY-MM-DDTHH:MM`, the way the expectation tables (printed by Python) write wall times.
    init(_ text: String) {
        let numbers = text.split(whereSeparator: { "-T:".contains($0) }).map { Int($0)! }
        self.init(year: numbers[0], month: numbers[1], day: numbers[2], hour: numbers[3], minute: numbers[4])
    }
}
