import Foundation
import Testing

@testable import CalendarModel

/// A parameter keeps its first value apart from the others; what it is to a caller must not show it:
/// the same values, the same equality and the same JSON as a name with an array of values.
struct ParameterTests {
    /// `MEMBER` (RFC 5545 §3.2.11) may have several values, `LANGUAGE` one; a parameter may end up
    /// with none when a program empties it.
    @Test(arguments: [[], ["en"], ["mailto:a@example.com", "mailto:b@example.com", "mailto:c@example.com"]])
    func valuesComeBackAsGiven(values: [String]) {
        let parameter = Parameter(name: "MEMBER", values: values)
        #expect(parameter.values == values)
        #expect(parameter.firstValue == values.first)
        #expect(parameter.otherValues == Array(values.dropFirst()))
    }

    @Test func parametersMadeAnyWayWithTheSameValuesAreEqual() {
        var emptied = Parameter("LANGUAGE", "de")
        emptied.values = []
        #expect(emptied == Parameter(name: "LANGUAGE", values: []))
        #expect(emptied.firstValue == nil)

        var grown = Parameter("MEMBER", "mailto:a@example.com")
        grown.values.append("mailto:b@example.com")
        let parsed = Parameter(name: "MEMBER", first: "mailto:a@example.com", others: ["mailto:b@example.com"])
        #expect(grown == parsed)
        #expect(grown == Parameter(name: "MEMBER", values: ["mailto:a@example.com", "mailto:b@example.com"]))
        #expect(Set([grown, parsed]).count == 1)
        #expect(grown != Parameter(name: "MEMBER", values: ["mailto:b@example.com", "mailto:a@example.com"]))
        #expect(Parameter("LANGUAGE", "en") != Parameter(name: "LANGUAGE", values: ["en", "en"]))
    }

    /// The JSON a Codable parameter had as a stored name and array: `{"name":…,"values":[…]}`.
    @Test func itsJSONIsANameAndAnArrayOfValues() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let parameter = Parameter(name: "DELEGATED-TO", values: ["mailto:a@example.com", "mailto:b@example.com"])
        let json = String(decoding: try encoder.encode(parameter), as: UTF8.self)
        #expect(json == #"{"name":"DELEGATED-TO","values":["mailto:a@example.com","mailto:b@example.com"]}"#)
        let read = try JSONDecoder().decode(Parameter.self, from: Data(#"{"values":["x","y"],"name":"X-A"}"#.utf8))
        #expect(read == Parameter(name: "X-A", values: ["x", "y"]))
        let none = try JSONDecoder().decode(Parameter.self, from: Data(#"{"name":"X-B","values":[]}"#.utf8))
        #expect(none.values.isEmpty && none.firstValue == nil)
    }
}
