// A paragraph of thousands of links (issue 8): every link clickable with its own target, each a Link element with
// its annotation, and the work per link small: links do not cut the text into one PDF text object each.

import Foundation
import XCTest

final class ManyLinksTests: XCTestCase {
    private let count = 2000

    /// The document's link annotations in page order, and its page content streams decoded.
    private func annotations(_ json: QPDFJSON) -> (links: [[String: Any]], contents: [Data]) {
        var links: [[String: Any]] = []
        var contents: [Data] = []
        for page in json.dictionary(json.catalog["/Pages"])["/Kids"] as? [Any] ?? [] {
            let dictionary = json.dictionary(page)
            links += (dictionary["/Annots"] as? [Any] ?? []).map { json.dictionary($0) }
            let streams = dictionary["/Contents"] as? [Any] ?? [dictionary["/Contents"] as Any]
            contents += streams.compactMap { json.streamData($0) }
        }
        return (links, contents)
    }

    func testTwoThousandLinksAreEachClickableAndTagged() throws {
        let source = (0 ..< count).map { "[a\($0)](https://x.org/\($0))" }.joined(separator: " ")
        let pdf = try Harness.typesetSource(source + "\n")
        let json = try QPDFJSON(pdf)
        let (links, _) = annotations(json)
        XCTAssertEqual(links.count, count)
        XCTAssertEqual(links.map { ($0["/A"] as? [String: Any])?["/URI"] as? String },
                       (0 ..< count).map { "u:https://x.org/\($0)" }, "in reading order, each with its own target")
        XCTAssertEqual(links.map { $0["/Subtype"] as? String }, Array(repeating: "/Link", count: count))

        let root = json.dictionary(json.catalog["/StructTreeRoot"])
        let nums = json.numberTree(root["/ParentTree"])
        XCTAssertFalse(nums.isEmpty)
        var parents: [Int: String] = [:]
        for k in stride(from: 0, to: nums.count - 1, by: 2) {
            if let key = nums[k] as? Int { parents[key] = json.dictionary(nums[k + 1])["/S"] as? String }
        }
        XCTAssertEqual(links.compactMap { $0["/StructParent"] as? Int }.map { parents[$0] },
                       Array(repeating: "/Link", count: count), "each annotation's parent is a Link element")
        let paragraph = try XCTUnwrap(try json.structureTree().all("P").first)
        XCTAssertEqual(paragraph.children.count, count)
        XCTAssertTrue(paragraph.children.allSatisfy { $0.type == "Link" && $0.annotations.count == 1 })
        XCTAssertEqual(Set(paragraph.children.flatMap(\.annotations)).count, count, "one annotation each")
        XCTAssertEqual(try TaggedPDFTests.marking(pdf).unmarked, [], "everything painted is marked")
        XCTAssertTrue(try PDF.text(pdf).contains("a0 a1 a2"))
    }

    /// Counting work, not time: a link's run and the space after it used to be two text objects each
    /// (`BT ... ET`, with a colour change), so a paragraph of links cost two per link in layout, drawing and file.
    func testLinksShareTextObjects() throws {
        let source = Array(repeating: "[a](https://x.org/a)", count: count).joined(separator: " ")
        let pdf = try Harness.typesetSource("# Target {#x}\n\n" + source + "\n\nBack [up](#x).\n")
        let json = try QPDFJSON(pdf)
        let (links, contents) = annotations(json)
        XCTAssertEqual(links.count, count + 1)
        XCTAssertEqual(links.last?["/Dest"] as? String, "u:x", "an internal link names its destination")
        let textObjects = contents.map { data in
            String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace).filter { $0 == "BT" }.count
        }.reduce(0, +)
        let lines = try PDF.text(pdf).split(separator: "\n").filter { !$0.isEmpty }.count
        XCTAssertLessThan(textObjects, 3 * lines, "text objects per line, not per link (\(textObjects) for \(lines) lines)")
        XCTAssertLessThan(textObjects, count / 10)
    }

    /// A page whose font changes every word draws a glyph run per word. From `analysisCoverRuns` runs on, a cover
    /// drawing over the whole page comes first, so cairo adds each run's extents to one rectangle, not to a region
    /// of thousands (`*a* ` x 250,000 took 9.4 s, 6.6 of them there). Checked by the cover's mark, not by time.
    func testAPageOfManyFontChangesStartsWithACover() throws {
        let dense = Array(repeating: "*a* b", count: 3000).joined(separator: " ")
        let pdf = try Harness.typesetSource("---\nfont-size: 6pt\n---\n\n" + dense + "\n")
        let (_, contents) = annotations(try QPDFJSON(pdf))
        let first = String(decoding: contents[0], as: UTF8.self)
        XCTAssertTrue(first.split(whereSeparator: \.isWhitespace).contains("f*"), "the cover's even-odd fill")
        XCTAssertEqual(try PDF.text(pdf).filter { $0 == "a" }.count, 3000, "every word drawn")
        XCTAssertEqual(try TaggedPDFTests.marking(pdf).unmarked, [], "the cover is an artifact")

        let sparse = Array(repeating: "*a* b", count: 50).joined(separator: " ")
        let plain = try Harness.typesetSource(sparse + "\n", name: "sparse")
        let (_, few) = annotations(try QPDFJSON(plain))
        XCTAssertFalse(String(decoding: few[0], as: UTF8.self).split(whereSeparator: \.isWhitespace).contains("f*"),
                       "a page of few runs stays as it was")
    }
}
