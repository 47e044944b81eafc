// The tagging stage edits cairo's link annotations as text (qpdf would parse and keep every one of them).

import XCTest
@testable import TypesetPDF

final class LinkAnnotationTextTests: XCTestCase {
    private let entries = ["/StructParent 7", "/Contents (Link to x)", "/F 4"]

    func testOwnKeysAreReplacedAndNestedOnesKept() throws {
        let cairo = """
            12 0 obj
            << /Type /Annot
               /Subtype /Link
               /StructParent 3
               /Rect [ 1 2 3 4 ]
               /A <<
                  /S /GoToR
                  /F (other.pdf)
               >>
               /BS << /W 0 >>
            >>
            endobj

            """
        let edited = try XCTUnwrap(LinkAnnotationText.edited(cairo, number: 12, entries))
        XCTAssertFalse(edited.contains("/StructParent 3"), edited)
        XCTAssertTrue(edited.contains("/F (other.pdf)"), edited)
        XCTAssertTrue(edited.hasSuffix("/StructParent 7 /Contents (Link to x) /F 4\n>>"), edited)
        XCTAssertEqual(edited.components(separatedBy: "<<").count, edited.components(separatedBy: ">>").count)
    }

    func testAnythingElseFallsBackToQpdf() {
        XCTAssertNil(LinkAnnotationText.edited("12 0 obj\n<< /Type /Annot\n /A <<\n>>\nendobj\n", number: 13, entries))
        XCTAssertNil(LinkAnnotationText.edited("12 0 obj\n<< /Type /Annot\n /A <<\n>>\nendobj\n", number: 12, entries))
        XCTAssertNil(LinkAnnotationText.edited("12 0 obj\n<< /Type /Page\n>>\nendobj\n", number: 12, entries))
        XCTAssertNil(LinkAnnotationText.edited("12 0 obj\n[ 1 2 ]\nendobj\n", number: 12, entries))
    }
}
