// The renderer lets go of the table of shared attributes once the pages are out: pagination fills it with the
// runs it makes (up to 4,096 values), and the tagging stage that follows is where memory peaks on a long
// document (issue 14: 1.5-2 MB less at the end of the 350,000-word report).

@testable import TypesetIR
import TypesetPDF
import XCTest

final class SharedTableReleaseTests: XCTestCase {
    func testRenderingLetsGoOfTheSharedAttributeTable() throws {
        let attributes = Fixture.attributes(size: 10.75)
        let before = Shared.of(attributes)
        XCTAssertTrue(Shared.of(attributes) === before, "the table holds the value while nothing releases it")
        let document = Fixture.document([.paragraph(Fixture.paragraph(Fixture.lorem, attributes: attributes))])
        _ = try PDFTool.render(document, name: "shared-table-release")
        let after = Shared.of(attributes)
        XCTAssertFalse(after === before, "the renderer kept the table through the tagging stage")
        XCTAssertEqual(after, before)
    }
}
