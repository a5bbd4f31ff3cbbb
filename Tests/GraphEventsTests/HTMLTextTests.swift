import Testing

@testable import GraphEvents

@Suite struct HTMLTextTests {
    @Test func blocksListsBreaksAndEntities() {
        let html = """
            <html><head><title>x</title><style>p{margin:0}</style></head><body><p><b>Agenda</b></p>
            <ol><li>One</li><li>Two &amp; three</li></ol><div>A&nbsp;&nbsp;B<br>C<BR/>D &lt;x&gt; &#233;&#x20AC; &bogus; &</div></body></html>
            """
        #expect(HTMLText.plainText(fromHTML: html) == "Agenda\n\nOne\nTwo & three\n\nA  B\nC\nD <x> é€ &bogus; &")
    }

    @Test func whiteSpaceCollapsesAsInABrowser() {
        #expect(HTMLText.plainText(fromHTML: "  a \r\n\t b  <p>  c  </p>  ") == "a b\n\nc")
        #expect(HTMLText.plainText(fromHTML: "a<br><br><br>b") == "a\n\nb")
        #expect(HTMLText.plainText(fromHTML: "unclosed <tag") == "unclosed <tag")
    }
}
