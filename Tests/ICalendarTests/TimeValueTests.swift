import CalendarModel
import Testing

@testable import ICalendar

/// DATE and DATE-TIME values of the plain digit forms are read without libical's sscanf; libical's
/// own reading (`Libical.libicalTime`) is the oracle for every string, plain or not.
@Suite struct TimeValueTests {
    @Test(arguments: [
        "20261201", "20261201T120000", "20261201T120000Z", "00000000", "00000000T000000", "00000000T000000Z",
        "20261399", "20260230T256161Z", "99999999T999999", "00010101", "2026120 ", " 2026120", "+2026120",
        "2026-1-1", "20261201t120000", "20261201T120000z", "20261201 120000", "20261201T12000 Z",
        "20261201T1200001", "20261201X120000Z", "2026120１",
    ])
    func aValueReadsAsLibicalReadsIt(_ text: String) {
        let hasATimesLength = [8, 15, 16].contains(text.utf8.count)
        let libical = hasATimesLength ? Libical.libicalTime(text) : nil
        #expect(Libical.parseTime(text) == libical)
    }

    @Test func theFormsAreReadAsRFC5545Says() {
        #expect(Libical.parseTime("20261201")?.isDate == true)
        #expect(
            Libical.parseTime("20261201T093005Z")
                == Libical.Time(
                    local: LocalDateTime(year: 2026, month: 12, day: 1, hour: 9, minute: 30, second: 5), isDate: false,
                    isUTC: true))
        #expect(Libical.parseTime("20261201T093005")?.isUTC == false)
    }

    /// Strings of the three lengths, mostly digits with a `T`, a `Z`, a sign or a space here and there.
    @Test func randomValuesReadAsLibicalReadsThem() {
        var random = RecurrenceDifferentialTests.Seeded(state: 0x7157_2026)
        let others: [Character] = ["T", "Z", " ", "+", "-", "t", "z", "/"]
        var plain = 0
        for _ in 0..<20_000 {
            let length = [8, 15, 16].randomElement(using: &random)!
            var characters = (0..<length).map { _ in Character(String(Int.random(in: 0...9, using: &random))) }
            if length > 8 { characters[8] = "T" }
            if length == 16 { characters[15] = "Z" }
            for _ in 0..<Int.random(in: 0...2, using: &random) {
                characters[Int.random(in: 0..<length, using: &random)] = others.randomElement(using: &random)!
            }
            let text = String(characters)
            if text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 || $0 == 0x54 || $0 == 0x5A }) { plain += 1 }
            #expect(Libical.parseTime(text) == Libical.libicalTime(text), "\(text)")
        }
        #expect(plain > 5_000, "most strings take the digit path")
    }
}
