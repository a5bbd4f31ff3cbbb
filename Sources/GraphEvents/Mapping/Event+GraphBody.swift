import CalendarModel

extension Event {
    /// Graph body content types: whether the content is HTML.
    static let graphContentTypes = GraphNames<Bool>(["text": false, "html": true])

    /// `body`: HTML is kept as the HTML description (X-ALT-DESC) with a plain-text DESCRIPTION made
    /// from it; a text body is the DESCRIPTION itself.
    mutating func decodeGraphBody(
        _ object: JSONNode, at path: @autoclosure () -> String, _ decoder: inout GraphDecoder
    ) {
        guard let body = decoder.object("body", of: object, at: path()),
            let content = decoder.string("content", of: body, at: "\(path()).body"), !content.isEmpty
        else { return }
        let type = decoder.enumeration("contentType", of: body, at: "\(path()).body", Self.graphContentTypes)
        if type == true {
            htmlDescription = content
            description = HTMLText.plainText(fromHTML: content)
        } else {
            description = content
        }
    }

    /// Writes `body`, preferring the HTML description.
    func encodeGraphBody(into object: inout some JSONMemberSink) {
        guard let (type, content) = htmlDescription.map({ ("html", $0) }) ?? description.map({ ("text", $0) })
        else { return }
        object.setObject("body") { body in
            body.set("contentType", .string(type))
            body.set("content", .string(content))
        }
    }
}
