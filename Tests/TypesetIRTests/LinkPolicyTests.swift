// Section 11's link filter, on its own: which targets pass, pass with a warning, or are dropped.

import RTSyntax
@testable import TypesetIR
import XCTest

final class LinkPolicyTests: XCTestCase {
    func testSchemeIsFoundTheWayABrowserReadsIt() {
        XCTAssertEqual(LinkPolicy.scheme(of: "HTTPS://x.org"), "https")
        XCTAssertEqual(LinkPolicy.scheme(of: "java\tscript:alert(1)"), "javascript")
        XCTAssertEqual(LinkPolicy.scheme(of: "  \u{1}javascript:x"), "javascript")
        XCTAssertEqual(LinkPolicy.scheme(of: "svn+ssh://h/r"), "svn+ssh")
        XCTAssertNil(LinkPolicy.scheme(of: "docs/a:b.html"), "a colon after a slash is a path")
        XCTAssertNil(LinkPolicy.scheme(of: "other.pdf"))
        XCTAssertNil(LinkPolicy.scheme(of: "?q=a:b"))
        XCTAssertNil(LinkPolicy.scheme(of: "1abc:x"), "a scheme starts with a letter")
        XCTAssertNil(LinkPolicy.scheme(of: ":x"))
    }

    func testVerdicts() {
        for url in ["http://a", "https://a", "mailto:a@b", "ftp://a", "tel:+1", "a/b.html", "../x"] {
            XCTAssertEqual(LinkPolicy.check(.url(url)), .pass, url)
        }
        XCTAssertEqual(LinkPolicy.check(.destination("intro")), .pass)
        guard case .warn = LinkPolicy.check(.url("FILE:///etc/hosts")) else { return XCTFail("file: should warn") }
        for url in ["javascript:alert(1)", "data:text/html,x", "vbscript:x", "C:/x", "smb://h/s"] {
            guard case .drop = LinkPolicy.check(.url(url)) else { return XCTFail("\(url) should be dropped") }
        }
    }

    func testDroppedLinkAttributeLeavesTheTextUnlinked() {
        let pairs = [AttributePair(key: "link", value: "javascript:x", keyRange: SourceRange(at: SourceLocation(file: "t.rt", line: 1, column: 1)),
                                   valueRange: SourceRange(at: SourceLocation(file: "t.rt", line: 1, column: 6)))]
        var state = StyleState()
        var report = AttributeDiagnostics(report: true)
        AttributeTable.apply(pairs, to: &state, scope: .character, diagnostics: &report)
        XCTAssertNil(state.character.link)
        XCTAssertEqual(report.messages.count, 1)
    }
}
