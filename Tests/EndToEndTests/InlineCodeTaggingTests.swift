// Inline code in the tagged PDF (contract section 10: Code in the structure tree): each code span is a `Code`
// element inside the element whose text holds it, standing in that element's /K where its text is read, one
// element for a span that wraps. Read back with qpdf's JSON (the tree) and poppler (the text, in /K order).

import Foundation
import XCTest

final class InlineCodeTaggingTests: XCTestCase {
    private func build(_ source: String, name: String = #function) throws -> String {
        let dir = try Harness.scratch(name)
        try Harness.write(source, to: dir + "/doc.rt")
        let result = try Harness.typeset([dir + "/doc.rt", "-o", dir + "/doc.pdf"])
        XCTAssertEqual(result.status, 0, result.stderr)
        return dir + "/doc.pdf"
    }

    func testACodeSpanIsACodeElementWhereItsTextIs() throws {
        let pdf = try build("""
            # Inline `code` in a heading

            Some `code` here and [a link](https://example.org) end.

            - `starts` a list item

            | Col | Code |
            |-----|------|
            | a   | `b`  |

            ```
            a block
            ```

            """)
        let document = try QPDFJSON(pdf).structureTree()
        // Code under the heading, the paragraph, the item's paragraph and the cell; the block is its own.
        XCTAssertEqual(document.all("Code").count, 5, document.outline)
        XCTAssertEqual(document.children.map(\.type), ["H1", "P", "L", "Table", "Code"], document.outline)
        let heading = document.children[0], paragraph = document.children[1]
        XCTAssertEqual(heading.order, ["mcid", "Code", "mcid"], document.outline)
        // The link's annotation is a Link element after the text, as before; the code stands in the text.
        XCTAssertEqual(paragraph.order, ["mcid", "Code", "mcid", "Link"], document.outline)
        for code in document.all("Code") { XCTAssertFalse(code.mcids.isEmpty, document.outline) }
        XCTAssertEqual(document.children[2].all("P").first?.order.first, "Code", document.outline)
        XCTAssertEqual(document.children[3].all("TD").last?.children.map(\.type), ["Code"], document.outline)

        // Read in /K order, the paragraph's text comes whole and in order.
        let all = try PDF.tool("pdfinfo", ["-struct-text", pdf])
        let text = all.components(separatedBy: "\n  P (block)").dropFirst().first ?? ""
        let order = ["\"Some \"", "Code (inline)", "\"code\"", "\" here and a link end.\""].map { text.range(of: $0)?.lowerBound }
        XCTAssertFalse(order.contains(nil), text)
        XCTAssertEqual(order.compactMap { $0 }, order.compactMap { $0 }.sorted(), text)
        // Copying is unchanged: the code sits in its line.
        XCTAssertTrue(try PDF.text(pdf).contains("Some code here and a link end."))
    }

    func testACodeSpanThatWrapsIsOneElement() throws {
        let identifier = "a_rather_long_identifier_that_cannot_fit_on_one_line_of_this_narrow_column_at_all"
        let pdf = try build("---\ncolumns: 3\n---\nSee `\(identifier)` for details.\n")
        let document = try QPDFJSON(pdf).structureTree()
        let codes = document.all("Code")
        XCTAssertEqual(codes.count, 1, document.outline)
        XCTAssertGreaterThanOrEqual(codes.first?.mcids.count ?? 0, 2, "the span wraps: one sequence a line")
        // The hyphens Pango adds where it breaks the span copy as nothing, as in running text.
        let copied = try PDF.text(pdf).replacingOccurrences(of: "\n", with: "")
        XCTAssertTrue(copied.contains(identifier), copied)
    }

    /// Each span costs two marked-content sequences, which cairo keeps until the file is finished: past 5,000
    /// spans a document's code is text of its paragraph. Nothing is lost either way.
    func testCodeElementsStopAtTheLimitAndKeepTheirText() throws {
        let spans = 5_010
        let pdf = try build((0 ..< spans).map { "`k\($0)`" }.joined(separator: " ") + "\n")
        let document = try QPDFJSON(pdf).structureTree()
        XCTAssertEqual(document.all("Code").count, 5_000)
        let copied = try PDF.text(pdf)
        XCTAssertTrue(copied.contains("k0 "), String(copied.prefix(200)))
        XCTAssertTrue(copied.contains("k\(spans - 1)"), String(copied.suffix(200)))
    }
}
