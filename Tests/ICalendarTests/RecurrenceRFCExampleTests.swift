import CalendarModel
import Testing

@testable import ICalendar

/// The RRULE examples of RFC 5545 §3.8.5.3, with the occurrence lists the RFC gives (transcribed by hand;
/// every example starts at 09:00 America/New_York, so wall times are compared).
struct RecurrenceRFCExampleTests {
    /// One RFC example: DTSTART, the rule (and any EXDATE), and the first occurrences the RFC lists.
    struct Example: CustomTestStringConvertible, Sendable {
        var title: String
        var start: String
        var rule: String
        var exdate: String? = nil
        var expected: [String]
        /// Whether the RFC's list is the whole set (COUNT/UNTIL) rather than its beginning.
        var complete = true
        var testDescription: String { title }
    }

    static let examples: [Example] = [
        Example(
            title: "Daily for 10 occurrences", start: "19970902T090000", rule: "FREQ=DAILY;COUNT=10",
            expected: days(1997, 9, Array(2...11))),
        Example(
            title: "Daily until December 24, 1997", start: "19970902T090000", rule: "FREQ=DAILY;UNTIL=19971224T000000Z",
            expected: days(1997, 9, Array(2...30)) + days(1997, 10, Array(1...31)) + days(1997, 11, Array(1...30))
                + days(1997, 12, Array(1...23))),
        Example(
            title: "Every other day - forever", start: "19970902T090000", rule: "FREQ=DAILY;INTERVAL=2",
            expected: days(1997, 9, Array(stride(from: 2, through: 30, by: 2)))
                + days(1997, 10, Array(stride(from: 2, through: 30, by: 2)))
                + days(1997, 11, Array(stride(from: 1, through: 29, by: 2))) + days(1997, 12, [1, 3]),
            complete: false),
        Example(
            title: "Every 10 days, 5 occurrences", start: "19970902T090000", rule: "FREQ=DAILY;INTERVAL=10;COUNT=5",
            expected: days(1997, 9, [2, 12, 22]) + days(1997, 10, [2, 12])),
        Example(
            title: "Every day in January, for 3 years (YEARLY)", start: "19980101T090000",
            rule: "FREQ=YEARLY;UNTIL=20000131T140000Z;BYMONTH=1;BYDAY=SU,MO,TU,WE,TH,FR,SA",
            expected: days(1998, 1, Array(1...31)) + days(1999, 1, Array(1...31)) + days(2000, 1, Array(1...31))),
        Example(
            title: "Every day in January, for 3 years (DAILY)", start: "19980101T090000",
            rule: "FREQ=DAILY;UNTIL=20000131T140000Z;BYMONTH=1",
            expected: days(1998, 1, Array(1...31)) + days(1999, 1, Array(1...31)) + days(2000, 1, Array(1...31))),
        Example(
            title: "Weekly for 10 occurrences", start: "19970902T090000", rule: "FREQ=WEEKLY;COUNT=10",
            expected: days(1997, 9, [2, 9, 16, 23, 30]) + days(1997, 10, [7, 14, 21, 28]) + days(1997, 11, [4])),
        Example(
            title: "Weekly until December 24, 1997", start: "19970902T090000",
            rule: "FREQ=WEEKLY;UNTIL=19971224T000000Z",
            expected: days(1997, 9, [2, 9, 16, 23, 30]) + days(1997, 10, [7, 14, 21, 28])
                + days(1997, 11, [4, 11, 18, 25])
                + days(1997, 12, [2, 9, 16, 23])),
        Example(
            title: "Every other week - forever", start: "19970902T090000", rule: "FREQ=WEEKLY;INTERVAL=2;WKST=SU",
            expected: days(1997, 9, [2, 16, 30]) + days(1997, 10, [14, 28]) + days(1997, 11, [11, 25])
                + days(1997, 12, [9, 23])
                + days(1998, 1, [6, 20]) + days(1998, 2, [3, 17]),
            complete: false),
        Example(
            title: "Weekly on Tuesday and Thursday for five weeks (UNTIL)", start: "19970902T090000",
            rule: "FREQ=WEEKLY;UNTIL=19971007T000000Z;WKST=SU;BYDAY=TU,TH",
            expected: days(1997, 9, [2, 4, 9, 11, 16, 18, 23, 25, 30]) + days(1997, 10, [2])),
        Example(
            title: "Weekly on Tuesday and Thursday for five weeks (COUNT)", start: "19970902T090000",
            rule: "FREQ=WEEKLY;COUNT=10;WKST=SU;BYDAY=TU,TH",
            expected: days(1997, 9, [2, 4, 9, 11, 16, 18, 23, 25, 30]) + days(1997, 10, [2])),
        Example(
            title: "Every other week on Monday, Wednesday, and Friday until December 24, 1997",
            start: "19970901T090000",
            rule: "FREQ=WEEKLY;INTERVAL=2;UNTIL=19971224T000000Z;WKST=SU;BYDAY=MO,WE,FR",
            expected: days(1997, 9, [1, 3, 5, 15, 17, 19, 29]) + days(1997, 10, [1, 3, 13, 15, 17, 27, 29, 31])
                + days(1997, 11, [10, 12, 14, 24, 26, 28]) + days(1997, 12, [8, 10, 12, 22])),
        Example(
            title: "Every other week on Tuesday and Thursday, for 8 occurrences", start: "19970902T090000",
            rule: "FREQ=WEEKLY;INTERVAL=2;COUNT=8;WKST=SU;BYDAY=TU,TH",
            expected: days(1997, 9, [2, 4, 16, 18, 30]) + days(1997, 10, [2, 14, 16])),
        Example(
            title: "Monthly on the first Friday for 10 occurrences", start: "19970905T090000",
            rule: "FREQ=MONTHLY;COUNT=10;BYDAY=1FR",
            expected: days(1997, 9, [5]) + days(1997, 10, [3]) + days(1997, 11, [7]) + days(1997, 12, [5])
                + days(1998, 1, [2])
                + days(1998, 2, [6]) + days(1998, 3, [6]) + days(1998, 4, [3]) + days(1998, 5, [1]) + days(1998, 6, [5])
        ),
        Example(
            title: "Monthly on the first Friday until December 24, 1997", start: "19970905T090000",
            rule: "FREQ=MONTHLY;UNTIL=19971224T000000Z;BYDAY=1FR",
            expected: days(1997, 9, [5]) + days(1997, 10, [3]) + days(1997, 11, [7]) + days(1997, 12, [5])),
        Example(
            title: "Every other month on the first and last Sunday of the month for 10 occurrences",
            start: "19970907T090000",
            rule: "FREQ=MONTHLY;INTERVAL=2;COUNT=10;BYDAY=1SU,-1SU",
            expected: days(1997, 9, [7, 28]) + days(1997, 11, [2, 30]) + days(1998, 1, [4, 25])
                + days(1998, 3, [1, 29])
                + days(1998, 5, [3, 31])),
        Example(
            title: "Monthly on the second-to-last Monday of the month for 6 months", start: "19970922T090000",
            rule: "FREQ=MONTHLY;COUNT=6;BYDAY=-2MO",
            expected: days(1997, 9, [22]) + days(1997, 10, [20]) + days(1997, 11, [17]) + days(1997, 12, [22])
                + days(1998, 1, [19]) + days(1998, 2, [16])),
        Example(
            title: "Monthly on the third-to-the-last day of the month, forever", start: "19970928T090000",
            rule: "FREQ=MONTHLY;BYMONTHDAY=-3",
            expected: days(1997, 9, [28]) + days(1997, 10, [29]) + days(1997, 11, [28]) + days(1997, 12, [29])
                + days(1998, 1, [29]) + days(1998, 2, [26]),
            complete: false),
        Example(
            title: "Monthly on the 2nd and 15th of the month for 10 occurrences", start: "19970902T090000",
            rule: "FREQ=MONTHLY;COUNT=10;BYMONTHDAY=2,15",
            expected: days(1997, 9, [2, 15]) + days(1997, 10, [2, 15]) + days(1997, 11, [2, 15])
                + days(1997, 12, [2, 15])
                + days(1998, 1, [2, 15])),
        Example(
            title: "Monthly on the first and last day of the month for 10 occurrences", start: "19970930T090000",
            rule: "FREQ=MONTHLY;COUNT=10;BYMONTHDAY=1,-1",
            expected: days(1997, 9, [30]) + days(1997, 10, [1, 31]) + days(1997, 11, [1, 30]) + days(1997, 12, [1, 31])
                + days(1998, 1, [1, 31]) + days(1998, 2, [1])),
        Example(
            title: "Every 18 months on the 10th thru 15th of the month for 10 occurrences", start: "19970910T090000",
            rule: "FREQ=MONTHLY;INTERVAL=18;COUNT=10;BYMONTHDAY=10,11,12,13,14,15",
            expected: days(1997, 9, Array(10...15)) + days(1999, 3, Array(10...13))),
        Example(
            title: "Every Tuesday, every other month", start: "19970902T090000",
            rule: "FREQ=MONTHLY;INTERVAL=2;BYDAY=TU",
            expected: days(1997, 9, [2, 9, 16, 23, 30]) + days(1997, 11, [4, 11, 18, 25])
                + days(1998, 1, [6, 13, 20, 27])
                + days(1998, 3, [3, 10, 17, 24, 31]),
            complete: false),
        Example(
            title: "Yearly in June and July for 10 occurrences", start: "19970610T090000",
            rule: "FREQ=YEARLY;COUNT=10;BYMONTH=6,7",
            expected: (1997...2001).flatMap { days($0, 6, [10]) + days($0, 7, [10]) }),
        Example(
            title: "Every other year on January, February, and March for 10 occurrences", start: "19970310T090000",
            rule: "FREQ=YEARLY;INTERVAL=2;COUNT=10;BYMONTH=1,2,3",
            expected: days(1997, 3, [10])
                + [1999, 2001, 2003].flatMap { year in (1...3).flatMap { days(year, $0, [10]) } }),
        Example(
            title: "Every third year on the 1st, 100th, and 200th day for 10 occurrences", start: "19970101T090000",
            rule: "FREQ=YEARLY;INTERVAL=3;COUNT=10;BYYEARDAY=1,100,200",
            expected: days(1997, 1, [1]) + days(1997, 4, [10]) + days(1997, 7, [19]) + days(2000, 1, [1])
                + days(2000, 4, [9])
                + days(2000, 7, [18]) + days(2003, 1, [1]) + days(2003, 4, [10]) + days(2003, 7, [19])
                + days(2006, 1, [1])),
        Example(
            title: "Every 20th Monday of the year, forever", start: "19970519T090000", rule: "FREQ=YEARLY;BYDAY=20MO",
            expected: days(1997, 5, [19]) + days(1998, 5, [18]) + days(1999, 5, [17]), complete: false),
        Example(
            title: "Monday of week number 20, forever", start: "19970512T090000",
            rule: "FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO",
            expected: days(1997, 5, [12]) + days(1998, 5, [11]) + days(1999, 5, [17]), complete: false),
        Example(
            title: "Every Thursday in March, forever", start: "19970313T090000", rule: "FREQ=YEARLY;BYMONTH=3;BYDAY=TH",
            expected: days(1997, 3, [13, 20, 27]) + days(1998, 3, [5, 12, 19, 26]) + days(1999, 3, [4, 11, 18, 25]),
            complete: false),
        Example(
            title: "Every Thursday, but only during June, July, and August, forever", start: "19970605T090000",
            rule: "FREQ=YEARLY;BYDAY=TH;BYMONTH=6,7,8",
            expected: days(1997, 6, [5, 12, 19, 26]) + days(1997, 7, [3, 10, 17, 24, 31])
                + days(1997, 8, [7, 14, 21, 28])
                + days(1998, 6, [4, 11, 18, 25]) + days(1998, 7, [2, 9, 16, 23, 30]) + days(1998, 8, [6, 13, 20, 27])
                + days(1999, 6, [3, 10, 17, 24]) + days(1999, 7, [1, 8, 15, 22, 29]) + days(1999, 8, [5, 12, 19, 26]),
            complete: false),
        Example(
            title: "Every Friday the 13th, forever", start: "19970902T090000",
            rule: "FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13",
            exdate: "19970902T090000",
            expected: days(1998, 2, [13]) + days(1998, 3, [13]) + days(1998, 11, [13]) + days(1999, 8, [13])
                + days(2000, 10, [13]),
            complete: false),
        Example(
            title: "The first Saturday that follows the first Sunday of the month, forever", start: "19970913T090000",
            rule: "FREQ=MONTHLY;BYDAY=SA;BYMONTHDAY=7,8,9,10,11,12,13",
            expected: days(1997, 9, [13]) + days(1997, 10, [11]) + days(1997, 11, [8]) + days(1997, 12, [13])
                + days(1998, 1, [10])
                + days(1998, 2, [7]) + days(1998, 3, [7]) + days(1998, 4, [11]) + days(1998, 5, [9])
                + days(1998, 6, [13]),
            complete: false),
        Example(
            title: "Every 4 years, the first Tuesday after a Monday in November, forever", start: "19961105T090000",
            rule: "FREQ=YEARLY;INTERVAL=4;BYMONTH=11;BYDAY=TU;BYMONTHDAY=2,3,4,5,6,7,8",
            expected: days(1996, 11, [5]) + days(2000, 11, [7]) + days(2004, 11, [2]), complete: false),
        Example(
            title: "The third instance into the month of one of Tuesday, Wednesday, or Thursday, for the next 3 months",
            start: "19970904T090000", rule: "FREQ=MONTHLY;COUNT=3;BYDAY=TU,WE,TH;BYSETPOS=3",
            expected: days(1997, 9, [4]) + days(1997, 10, [7]) + days(1997, 11, [6])),
        Example(
            title: "The second-to-last weekday of the month", start: "19970929T090000",
            rule: "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-2",
            expected: days(1997, 9, [29]) + days(1997, 10, [30]) + days(1997, 11, [27]) + days(1997, 12, [30])
                + days(1998, 1, [29]) + days(1998, 2, [26]) + days(1998, 3, [30]),
            complete: false),
        // RFC 5545 erratum 3883: the example's UNTIL=19970902T170000Z is 13:00 EDT, which cuts 15:00 off the list
        // it prints; the corrected UNTIL (21:00Z, 17:00 EDT) gives that list.
        Example(
            title: "Every 3 hours from 9:00 AM to 5:00 PM on a specific day", start: "19970902T090000",
            rule: "FREQ=HOURLY;INTERVAL=3;UNTIL=19970902T210000Z",
            expected: ["19970902T090000", "19970902T120000", "19970902T150000"]),
        Example(
            title: "Every 15 minutes for 6 occurrences", start: "19970902T090000",
            rule: "FREQ=MINUTELY;INTERVAL=15;COUNT=6",
            expected: ["090000", "091500", "093000", "094500", "100000", "101500"].map { "19970902T" + $0 }),
        Example(
            title: "Every hour and a half for 4 occurrences", start: "19970902T090000",
            rule: "FREQ=MINUTELY;INTERVAL=90;COUNT=4",
            expected: ["090000", "103000", "120000", "133000"].map { "19970902T" + $0 }),
        Example(
            title: "Every 20 minutes from 9:00 AM to 4:40 PM every day (DAILY)", start: "19970902T090000",
            rule: "FREQ=DAILY;BYHOUR=9,10,11,12,13,14,15,16;BYMINUTE=0,20,40",
            expected: twentyMinuteSlots(2) + twentyMinuteSlots(3), complete: false),
        Example(
            title: "Every 20 minutes from 9:00 AM to 4:40 PM every day (MINUTELY)", start: "19970902T090000",
            rule: "FREQ=MINUTELY;INTERVAL=20;BYHOUR=9,10,11,12,13,14,15,16",
            expected: twentyMinuteSlots(2) + twentyMinuteSlots(3), complete: false),
        Example(
            title: "WKST=MO changes the result", start: "19970805T090000",
            rule: "FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=MO",
            expected: days(1997, 8, [5, 10, 19, 24])),
        Example(
            title: "WKST=SU changes the result", start: "19970805T090000",
            rule: "FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=SU",
            expected: days(1997, 8, [5, 17, 19, 31])),
        Example(
            title: "An invalid date (February 30) is ignored", start: "20070115T090000",
            rule: "FREQ=MONTHLY;BYMONTHDAY=15,30;COUNT=5",
            expected: days(2007, 1, [15, 30]) + days(2007, 2, [15]) + days(2007, 3, [15, 30])),
    ]

    /// 09:00, 09:20, … 16:40 on September `day`, 1997.
    static func twentyMinuteSlots(_ day: Int) -> [String] {
        (9...16).flatMap { hour in
            [0, 20, 40].flatMap { days(1997, 9, [day], at: String(format: "%02d%02d00", hour, $0)) }
        }
    }

    @Test(arguments: examples)
    func rfcExample(_ example: Example) {
        var lines = ["UID:rfc", "DTSTART;TZID=America/New_York:\(example.start)", "RRULE:\(example.rule)"]
        if let exdate = example.exdate { lines.append("EXDATE;TZID=America/New_York:\(exdate)") }
        let limit = example.complete ? 10_000 : example.expected.count
        let listed = occurrences(calendar(event: lines), limit: limit).map { text($0.start) }
        #expect(listed == example.expected)
    }

    /// The instants, not only the wall times, follow New York's change from EDT to EST on 1997-10-26.
    @Test func weeklyOccurrencesKeepNineOClockAcrossTheChangeToStandardTime() {
        let lines = ["UID:rfc", "DTSTART;TZID=America/New_York:19971021T090000", "RRULE:FREQ=WEEKLY;COUNT=2"]
        let listed = occurrences(calendar(event: lines)).map { utcText($0.startInstant) }
        #expect(listed == ["19971021T130000Z", "19971028T140000Z"])
    }
}
