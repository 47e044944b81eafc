// Deep nesting stops indenting where the text would have less than 8em (issue 8: 40 quote levels gave a blank
// page, 35 one letter per line, a 40-level list lost text).

import RTSyntax
@testable import TypesetIR
import XCTest

final class NestingLimitTests: XCTestCase {
    private let columnWidth = 481.89  // A4 with 2cm margins, the default
    private let minimum = 8 * 10.0    // 8em of the 10pt body

    private func quotes(_ depth: Int) -> Block {
        var block = paragraph(text("hello world"), line: 1)
        for _ in 0..<depth { block = Block(.blockQuote([block]), range: at(1, 3)) }
        return block
    }

    func testDeepQuotesKeepAnEightEmMeasureAndWarnOnce() {
        for depth in [35, 40] {
            let result = lower([quotes(depth)])
            let p = result.paragraphs[0]
            XCTAssertEqual(p.text, "hello world")
            XCTAssertGreaterThanOrEqual(columnWidth - p.style.headIndent - p.style.tailIndent, minimum - 1e-9, "depth \(depth)")
            XCTAssertGreaterThanOrEqual(columnWidth - p.style.firstLineHeadIndent - p.style.tailIndent, minimum - 1e-9)
            XCTAssertEqual(result.warnings.count, 1, "\(result.warnings)")
            XCTAssertTrue(result.warnings[0].message.contains("not indented further"))
            XCTAssertNotNil(result.warnings[0].location)
        }
        // Shallow quotes are not touched and do not warn.
        let shallow = lower([quotes(3)])
        XCTAssertTrue(shallow.warnings.isEmpty)
        XCTAssertGreaterThan(shallow.paragraphs[0].style.headIndent, 0)
    }

    func testDeepListsKeepAnEightEmMeasureAndEveryItem() {
        var block = list(.bullet("-"), [[paragraph(text("level 39"))]])
        for level in stride(from: 38, through: 0, by: -1) {
            block = list(.bullet("-"), [[paragraph(text("level \(level)")), block]])
        }
        let result = lower([block])
        XCTAssertEqual(result.paragraphs.count, 40)
        var previous = -1.0
        for (level, p) in result.paragraphs.enumerated() {
            XCTAssertTrue(p.text.hasSuffix("level \(level)"))
            XCTAssertGreaterThanOrEqual(columnWidth - p.style.headIndent - p.style.tailIndent, minimum - 1e-9, "level \(level)")
            XCTAssertGreaterThanOrEqual(p.style.firstLineHeadIndent, 0)
            XCTAssertGreaterThanOrEqual(p.style.headIndent, previous, "indentation never moves back")
            XCTAssertEqual(p.style.tabStops.first?.position, p.style.headIndent)
            previous = p.style.headIndent
        }
        XCTAssertEqual(result.warnings.count, 1, "\(result.warnings)")
    }
}
