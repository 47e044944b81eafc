// Links in the PDF (issue 8, contract section 11): valid files whatever sits beside a link, URIs written so
// the PDF string survives, and only the allowed schemes. Every PDF here also passes `qpdf --check`
// (Harness.typeset).

import Foundation
import XCTest

final class LinkSafetyTests: XCTestCase {
    /// An 8 x 8 red PNG.
    private static let icon = Data(base64Encoded:
        "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEklEQVR4nGP4z8CAFWEXHbQSACj/P8Fu7N9hAAAAAElFTkSuQmCC")!

    /// Typesets `source` beside `icon.png`; returns the PDF and the warnings.
    private func run(_ source: String, name: String = #function, file: StaticString = #filePath,
                     line: UInt = #line) throws -> (pdf: String, stderr: String) {
        let dir = try Harness.scratch(name)
        try Self.icon.write(to: URL(fileURLWithPath: dir + "/icon.png"))
        try Harness.write(source, to: dir + "/doc.rt")
        let result = try Harness.typeset(["doc.rt", "-o", "doc.pdf"], cwd: dir, file: file, line: line)
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        return (dir + "/doc.pdf", result.stderr)
    }

    /// The /URI of every link annotation, in page order, read back through qpdf's JSON.
    private func uris(_ pdf: String) throws -> [String] {
        let json = try PDF.tool("qpdf", ["--json", pdf])
        let root = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let pages = try XCTUnwrap(root["pages"] as? [[String: Any]]).compactMap { $0["object"] as? String }
        let qpdf = try XCTUnwrap(root["qpdf"] as? [Any])
        let objects = try XCTUnwrap(qpdf.last as? [String: Any])
        func value(_ ref: String) -> [String: Any]? {
            ((objects["obj:" + ref] as? [String: Any])?["value"]) as? [String: Any]
        }
        var found: [String] = []
        for page in pages {
            for annot in value(page)?["/Annots"] as? [String] ?? [] {
                guard let action = value(annot)?["/A"] as? [String: Any], let uri = action["/URI"] as? String else { continue }
                // qpdf writes a text string as "u:..."; a byte string that is not valid text as "b:<hex>".
                XCTAssertTrue(uri.hasPrefix("u:"), "URI is not plain text: \(uri)")
                found.append(String(uri.dropFirst(2)))
            }
        }
        return found
    }

    private func linkAnnotationCount(_ pdf: String) throws -> Int {
        try PDF.objects(pdf).components(separatedBy: "/Subtype /Link").count - 1
    }

    // MARK: Damaged files (cairo 1.16 dropped the Document tag when an image came first on the page)

    func testExternalLinkBesideAnImageGivesAValidPDF() throws {
        let (pdf, _) = try run("[e](https://x.org) ![](icon.png)\n")
        XCTAssertEqual(try uris(pdf), ["https://x.org"])
        XCTAssertTrue(try PDF.text(pdf).contains("e"))
    }

    func testInternalLinkBesideAnImageGivesAValidPDF() throws {
        let (pdf, _) = try run("# Top {#id}\n\n[t](#id) ![](icon.png)\n")
        let objects = try PDF.objects(pdf)
        XCTAssertTrue(objects.contains("/Dest (id)"), "the internal link is missing")
    }

    func testImageFirstOnEveryPageWithLinksGivesAValidPDF() throws {
        var source = ""
        for k in 1...3 {
            source += "![](icon.png){width=3cm}\n\nPage \(k) [to top](#p1) and [out](https://example.org/\(k)).\n\n@pagebreak\n\n"
        }
        source = "# Start {#p1}\n\n" + source + "End.\n"
        let (pdf, _) = try run(source)
        XCTAssertEqual(try uris(pdf), ["https://example.org/1", "https://example.org/2", "https://example.org/3"])
        XCTAssertEqual(try linkAnnotationCount(pdf), 6)
    }

    // MARK: URIs that must be escaped or encoded

    func testParenthesesInAnAutolinkArePercentEncoded() throws {
        let (pdf, _) = try run("See <https://example.com/smile:)> here.\n")
        XCTAssertEqual(try uris(pdf), ["https://example.com/smile:%29"])
        XCTAssertTrue(try PDF.text(pdf).contains("https://example.com/smile:)"), "the visible text keeps the parenthesis")
    }

    func testBackslashesArePercentEncoded() throws {
        let (pdf, _) = try run("[l](foo\\bar) and [s](file://server\\\\share\\\\)\n")
        XCTAssertEqual(try uris(pdf), ["foo%5Cbar", "file://server%5Cshare%5C"])
    }

    func testNonASCIIIsPercentEncodedAsUTF8() throws {
        let (pdf, _) = try run("[Größe](https://de.wikipedia.org/wiki/Größe) and <https://example.org/a(b)'c>\n")
        XCTAssertEqual(try uris(pdf), ["https://de.wikipedia.org/wiki/Gr%C3%B6%C3%9Fe", "https://example.org/a%28b%29'c"])
    }

    func testExistingPercentEscapesStay() throws {
        let (pdf, _) = try run("[q](https://example.org/search?q=a%20b&x=1#frag)\n")
        XCTAssertEqual(try uris(pdf), ["https://example.org/search?q=a%20b&x=1#frag"])
    }

    // MARK: Schemes (section 11)

    func testAllowedSchemesAndRelativeTargetsPassQuietly() throws {
        let source = "[a](http://a.org) [b](HTTPS://b.org) [c](mailto:c@d.org) [d](ftp://e.org) [e](tel:+4112) [f](other.pdf)\n"
        let (pdf, stderr) = try run(source)
        XCTAssertEqual(try uris(pdf), ["http://a.org", "HTTPS://b.org", "mailto:c@d.org", "ftp://e.org", "tel:+4112", "other.pdf"])
        XCTAssertFalse(stderr.contains("warning"), stderr)
    }

    func testFileLinksPassWithALocatedWarning() throws {
        let (pdf, stderr) = try run("Read\n[this](file:///etc/hosts) please.\n")
        XCTAssertEqual(try uris(pdf), ["file:///etc/hosts"])
        XCTAssertTrue(stderr.contains("doc.rt:2:1: warning: link to a local file 'file:///etc/hosts'"), stderr)
    }

    func testScriptAndDataLinksAreDroppedWithALocatedWarningAndTheTextStays() throws {
        let source = "One [click](javascript:alert(1)) two\n<data:text/html,hi> three [x](vbscript:x) four\n"
        let (pdf, stderr) = try run(source)
        XCTAssertEqual(try uris(pdf), [])
        XCTAssertEqual(try linkAnnotationCount(pdf), 0)
        let text = try PDF.text(pdf)
        for word in ["click", "data:text/html,hi", "four"] { XCTAssertTrue(text.contains(word), "\(word) lost: \(text)") }
        XCTAssertTrue(stderr.contains("doc.rt:1:5: warning: link to 'javascript:alert(1)' dropped"), stderr)
        XCTAssertTrue(stderr.contains("doc.rt:2:1: warning: link to 'data:text/html,hi' dropped"), stderr)
        XCTAssertTrue(stderr.contains("doc.rt:2:27: warning: link to 'vbscript:x' dropped"), stderr)
    }

    func testSchemeHiddenByTabsOrSpacesIsStillFound() throws {
        let (pdf, stderr) = try run("[x](< java\tscript:alert(1)>)\n")
        XCTAssertEqual(try linkAnnotationCount(pdf), 0)
        XCTAssertTrue(stderr.contains("warning: link to"), stderr)
    }

    func testSpanLinkAttributeWithABadSchemeIsIgnoredWithAWarning() throws {
        let (pdf, stderr) = try run("Some [text]{link=\"javascript:alert(1)\"} here.\n")
        XCTAssertEqual(try linkAnnotationCount(pdf), 0)
        XCTAssertTrue(stderr.contains("doc.rt:1:13: warning: bad value 'javascript:alert(1)' for 'link'"), stderr)
        XCTAssertTrue(try PDF.text(pdf).contains("text"))
    }
}
