import Testing

@testable import CalendarModel

/// A participant's e-mail address is its `mailto:` URI's path; the scheme is case-insensitive
/// (RFC 3986 §3.1), and an address of any other scheme has none.
@Test(
    arguments: [
        ("mailto:ana@example.com", "ana@example.com"),
        ("MAILTO:Ana@Example.com", "Ana@Example.com"),
        ("MailTo:josé@example.com", "josé@example.com"),
        ("mailto:", ""),
        ("mailto", nil),
        ("mailtx:ana@example.com", nil),
        ("mäilto:ana@example.com", nil),
        ("urn:uuid:5e1c2d3a-0000-4000-8000-000000000001", nil),
        ("ana@example.com", nil),
    ] as [(String, String?)])
func anEmailAddressIsTheMailtoPath(address: String, expected: String?) {
    let participant = Participant(address: address)
    #expect(participant.emailAddress == expected)
    // What a writer of plain addresses lends: the path of a mailto URI, else the address whole.
    #expect(participant.withEmailAddressOrAddress { String(decoding: $0, as: UTF8.self) } == expected ?? address)
}
