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

    /// Comments are nothing: not a break, and what Outlook hides in conditional comments (an `<xml>`
    /// block whose text is settings) is not text. A declaration is no element either, while
    /// `blockquote`, longer than other names, is a block like `p`.
    @Test func commentsDeclarationsAndLongNames() {
        #expect(HTMLText.plainText(fromHTML: "a<!-- c -->b") == "ab")
        let outlook =
            "<p>x</p><!--[if gte mso 9]><xml><o:AllowPNG/><o:PixelsPerInch>96</o:PixelsPerInch></xml><![endif]--><p>y</p>"
        #expect(HTMLText.plainText(fromHTML: outlook) == "x\n\ny")
        #expect(HTMLText.plainText(fromHTML: "a<!-- unterminated <p>b") == "a")
        #expect(HTMLText.plainText(fromHTML: "<!DOCTYPE html>a<>b") == "ab")
        #expect(HTMLText.plainText(fromHTML: "q<blockquote>r</blockquote>s") == "q\n\nr\n\ns")
        #expect(HTMLText.plainText(fromHTML: "q<blockquotes>r<blockquo>s") == "qrs")
    }
}

@Suite struct HTMLTextEdgeCaseTests {
    private func text(_ html: String) -> String { HTMLText.plainText(fromHTML: html) }

    /// Named, decimal and hexadecimal entities; anything else, or an entity too long to have its `;`
    /// within ten bytes, is a literal `&`.
    @Test func entities() {
        #expect(text("a&amp;b &lt;&gt; &quot;&apos; &#65;&#x42;&#X43; &euro;&hellip;") == "a&b <> \"' ABC €…")
        #expect(text("&#x1F600; &#233;") == "😀 é")
        // Numbers are read as UInt32(_:radix:) reads them: a plus sign and leading zeros are allowed.
        #expect(text("&#+65;&#x+42; &#-1; &#0065; &#x4g;") == "AB &#-1; A &#x4g;")
        let literal = "&bogus; &amp &#; &#x; &#xD800; &#1114112; &Amp; &verylongname; &"
        #expect(text(literal) == literal)
    }

    /// No-break spaces are kept as spaces inside a line, dropped at its end, and a paragraph holding
    /// only them is an empty line like any other.
    @Test func noBreakSpaces() {
        #expect(text("A&nbsp;&nbsp;B") == "A  B")
        #expect(text("a&nbsp;<br>b\u{00A0}") == "a\nb")
        #expect(text("<p>x</p><p>&nbsp;</p><p>\u{00A0}</p><p>y</p>") == "x\n\ny")
        // Among multi-byte characters, which are copied in runs between tags, entities and spaces:
        // Â (C3 82) and U+00C2 A0 must not be taken for a no-break space's C2 A0.
        #expect(text("Zoë&nbsp;–&nbsp;Łódź  日本\u{00A0}語<br>Â\u{00C2}\u{00A0}x") == "Zoë – Łódź 日本 語\nÂÂ x")
    }

    /// `<head>`, `<title>`, `<style>` and `<script>` are dropped up to their own end tag, whatever they
    /// hold, in any case; an end tag or a self-closed one alone drops nothing.
    @Test func skippedElements() {
        #expect(text("<head><title>T</title><style>p{}</style></head>Body") == "Body")
        #expect(text("<script>if (a < b && c </b) {}</script>after") == "after")
        #expect(text("<STYLE type=x>p{}</Style >y") == "y")
        #expect(text("<style/>x</style>y") == "xy")
        #expect(text("before<style>p{}") == "before")
    }

    /// A `<br>` adds a line break to those pending, up to one empty line; other blocks only ensure
    /// theirs; none at the start or end of the text.
    @Test func lineBreaks() {
        #expect(text("a<br>b") == "a\nb")
        #expect(text("a<br><br>b") == "a\n\nb")
        #expect(text("a<BR />b") == "a\nb")
        #expect(text("<p>a</p><br><p>b</p>") == "a\n\nb")
        #expect(text("<br>a<br>") == "a")
        #expect(text("<div>a</div><div>b</div><p>c</p>") == "a\nb\n\nc")
        #expect(text("<ul><li>one</li><li>two</li></ul>after") == "one\ntwo\n\nafter")
    }

    /// Runs of white space are one space, dropped at the ends of lines and before a block.
    @Test func whiteSpace() {
        #expect(text("  a \t\r\n b  ") == "a b")
        #expect(text("a <div> b</div>c") == "a\nb\nc")
        #expect(text("<span>a</span> <b>b</b>") == "a b")
        #expect(text("") == "")
        #expect(text(" <p> </p> ") == "")
    }
}
