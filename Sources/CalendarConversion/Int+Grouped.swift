extension Int {
    /// The number with a comma between groups of three digits: 2,974.
    package var grouped: String {
        let digits = String(magnitude)
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return self < 0 ? "-" + text : text
    }
}
