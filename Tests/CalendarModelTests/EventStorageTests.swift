import CalendarModel
import Foundation
import Testing

// `Event` keeps its members in storage its copies share until one changes (copy on write): these
// check that it still behaves as a value, member by member, as the struct of stored members did.

@Test func aChangedCopyLeavesTheOriginalAsItWas() {
    var original = Event(uid: "a")
    original.summary = "Planning"
    original.categories = ["Work"]
    var copy = original
    copy.summary = "Review"
    copy.categories.append("Q3")
    copy.attendees.append(Attendee(participant: Participant(address: "mailto:b@example.com")))
    #expect(original.summary == "Planning")
    #expect(original.categories == ["Work"])
    #expect(original.attendees.isEmpty)
    #expect(copy.summary == "Review")
    #expect(copy.categories == ["Work", "Q3"])
    #expect(copy.attendees.count == 1)
    #expect(original != copy)
}

@Test func eventsAreEqualAndHashAlikeByTheirMembersWhetherOrNotTheyShareStorage() {
    var one = Event(uid: "a")
    one.summary = "Planning"
    var other = Event(uid: "a")
    other.summary = "Planning"
    let shared = one
    #expect(one == other)
    #expect(one == shared)
    #expect(Set([one, other, shared]).count == 1)
    other.summary = "Review"
    #expect(one != other)
    #expect(Set([one, other]).count == 2)
}

@Test func eventsEncodeUnderTheirMembersNames() throws {
    var event = Event(uid: "a")
    event.summary = "Planning"
    event.sequence = 2
    let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(event)) as? [String: Any]
    // The keys a struct of stored members was encoded under: its property names.
    #expect(object?["uid"] as? String == "a")
    #expect(object?["summary"] as? String == "Planning")
    #expect(object?["sequence"] as? Int == 2)
    #expect(try JSONDecoder().decode(Event.self, from: JSONEncoder().encode(event)) == event)
}
