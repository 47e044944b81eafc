// GitHub's extended autolinks (contract section 9): bare `https://`, `http://` and `www.` links and e-mail
// addresses in text.

import XCTest
@testable import RTSyntax

final class BareAutolinkTests: XCTestCase {
    private func links(_ text: String) -> [String] {
        var found: [String] = []
        func walk(_ inlines: [Inline]) {
            for inline in inlines {
                switch inline.kind {
                case .link(let destination, let content): found.append(destination); walk(content)
                case .emphasis(let content), .strong(let content): walk(content)
                default: break
                }
            }
        }
        walk(inlines(text))
        return found
    }

    func testBareURLsAndWWWBecomeLinks() {
        XCTAssertEqual(links("See https://example.com/a?b=1 for more."), ["https://example.com/a?b=1"])
        XCTAssertEqual(links("Visit www.commonmark.org/help, then http://x.org."), ["http://www.commonmark.org/help", "http://x.org"])
        XCTAssertEqual(links("(see https://en.wikipedia.org/wiki/Markup_(computing))"),
                       ["https://en.wikipedia.org/wiki/Markup_(computing)"])
        XCTAssertEqual(links("*https://x.org*"), ["https://x.org"])
    }

    /// GFM's extended e-mail autolinks (cmark-gfm's examples), linked to `mailto:`.
    func testEmailAddressesBecomeMailtoLinks() {
        XCTAssertEqual(links("foo@bar.baz"), ["mailto:foo@bar.baz"])
        XCTAssertEqual(links("hello@mail+xyz.example isn't valid, but hello+xyz@mail.example is."), ["mailto:hello+xyz@mail.example"])
        XCTAssertEqual(links("a.b-c_d@a.b"), ["mailto:a.b-c_d@a.b"])
        XCTAssertEqual(links("a.b-c_d@a.b."), ["mailto:a.b-c_d@a.b"])
        XCTAssertEqual(links("a.b-c_d@a.b- and a.b-c_d@a.b_"), [])
        XCTAssertEqual(links("Mail mailto:me@x.com or xmpp:me@x.org now."), ["mailto:me@x.com", "xmpp:me@x.org"])
        XCTAssertEqual(show("write to me@x.com."), "\"write to \" link<mailto:me@x.com>(\"me@x.com\") \".\"")
        XCTAssertEqual(links("user@localhost and @handle and a@b"), [])
        XCTAssertEqual(links("`me@x.com` in code"), [])
    }

    func testTrailingPunctuationAndEntitiesStayOutside() {
        XCTAssertEqual(links("https://x.org/path)."), ["https://x.org/path"])
        XCTAssertEqual(links("www.google.com/search?q=commonmark&hl;"), ["http://www.google.com/search?q=commonmark"])
        XCTAssertEqual(show("go to https://x.org!"), "\"go to \" link<https://x.org>(\"https://x.org\") \"!\"")
    }

    func testNotLinks() {
        XCTAssertEqual(links("xhttps://x.org and http://nodot/ and www._a.b_c and www..x"), [])
        XCTAssertEqual(links("`https://x.org` in code"), [])
        XCTAssertEqual(links("[https://x.org](https://y.org)"), ["https://y.org"])
        XCTAssertEqual(links("<https://x.org>"), ["https://x.org"])
    }

    /// Candidates that fail cost a bounded look each: linear in the input.
    func testManyFailedCandidatesStayLinear() {
        for piece in ["(www.", "_www.a_b_", " http://x", "www.a.b" + String(repeating: ")", count: 50) + " "] {
            let small = String(repeating: piece, count: 2_000), large = String(repeating: piece, count: 8_000)
            let a = parse(small).parseSteps, b = parse(large).parseSteps
            XCTAssertLessThan(Double(b), 5.0 * Double(a), piece)
            XCTAssertLessThan(b, 60 * large.utf8.count, piece)
        }
    }
}
