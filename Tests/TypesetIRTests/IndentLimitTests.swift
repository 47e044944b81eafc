import RTSyntax
@testable import TypesetIR
import XCTest

/// A first-line indent keeps the first line at least half of the paragraph's width and never starts it left of
/// the column; when it is reduced, a warning at the `indent` says to what. No layout, no Cairo.
final class IndentLimitTests: XCTestCase {
    private func lowered(_ source: String) -> (paragraphs: [AttributedParagraph], warnings: [Diagnostic]) {
        let parsed = RTParser.parse(Array(source.utf8), file: "t.rt")
        XCTAssertEqual(parsed.diagnostics.count, 0, "\(parsed.diagnostics)")
        let result = Lowering.lower(parsed.document, options: LoweringOptions(), parseInlines: { RTParser.parseInlines($0, at: $1) })
        return (result.paragraphs, result.diagnostics)
    }

    func testAnIndentWiderThanHalfTheColumnIsReducedWithAWarning() {
        // 8 columns of A3 at 24pt: 80.6pt wide; 3em is 72pt, which left 8.6pt for the first word.
        let r = lowered("---\ncolumns: 8\nfont-size: 24pt\npage: A3\n---\n\n{indent=3em}\nkl iidl emxql\n\n{indent=1em}\nok\n")
        let column = (841.89 - 2 * 56.693 - 7 * 12) / 8
        XCTAssertEqual(r.paragraphs[0].style.firstLineHeadIndent, column / 2, accuracy: 0.01)
        XCTAssertEqual(r.paragraphs[1].style.firstLineHeadIndent, 24, accuracy: 0.01, "a sensible indent is kept")
        XCTAssertEqual(r.warnings.map(\.message), ["this indent would leave the first line less than half of the "
            + "paragraph's width: it is set to 40.3pt"])
        XCTAssertEqual(r.warnings.first?.location.map { "\($0.line):\($0.column)" }, "7:2")
    }

    func testANegativeIndentStopsAtTheColumnsEdge() {
        let r = lowered("{indent=-5cm}\noff the page\n\n{margin-left=2em indent=-2em}\nhanging\n\n{margin-left=1em indent=-3em}\nfurther\n")
        XCTAssertEqual(r.paragraphs[0].style.firstLineHeadIndent, 0)
        XCTAssertEqual(r.paragraphs[1].style.firstLineHeadIndent, 0, accuracy: 1e-9, "a hanging first line is kept")
        XCTAssertEqual(r.paragraphs[1].style.headIndent, 20, accuracy: 1e-9)
        XCTAssertEqual(r.paragraphs[2].style.firstLineHeadIndent, 0, accuracy: 1e-9)
        XCTAssertEqual(r.warnings.map(\.message), Array(repeating: "this indent would start the first line left of the "
            + "column: it is set to 0pt", count: 1) + ["this indent would start the first line left of the column: it "
            + "is set to -10pt"])
    }
}
