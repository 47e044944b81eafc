// Footnote placement inside the paginator: the work footnotes cost grows linearly with their number
// (counted, not timed), every note is set once, and the column's text stays above its notes.

import Foundation
import RTSyntax
import TypesetIR
@testable import TypesetLayout
import XCTest

final class FootnoteLayoutTests: XCTestCase {
    /// Paginates `n` paragraphs with a note each: footnote work counted, note first lines set, and whether
    /// every page's notes sit below all of its body text.
    private func paginate(notes n: Int) throws -> (work: Int, set: [Int], notesBelowText: Bool) {
        let source = (1...n).map { "Paragraph \($0) says a little more^[Note \($0) says why.] than it needs to." }
            .joined(separator: "\n\n") + "\n"
        let parsed = RTParser.parse(Array(source.utf8), file: "test.rt")
        let lowered = Lowering.lower(parsed.document, options: LoweringOptions(), parseInlines: RTParser.parseInlines)
        var set: [Int] = []
        var below = true
        let summary = try DocumentLayout.paginate(lowered.document) { page in
            var noteTop = Double.infinity, textBottom = 0.0
            for line in page.lines {
                if let anchor = line.paragraph.paragraph.anchors.first, let k = Int(anchor.dropFirst(9)),
                   anchor.hasPrefix("footnote-") {
                    set.append(k)
                    noteTop = min(noteTop, line.top)
                } else if line.paragraph.paragraph.text.hasPrefix("Paragraph") {
                    textBottom = max(textBottom, line.top + line.box.height)
                }
            }
            if textBottom > noteTop { below = false }
        }
        XCTAssertFalse(summary.diagnostics.contains { $0.severity == .error }, "\(summary.diagnostics)")
        return (summary.footnoteWork, set, below)
    }

    func testFootnoteWorkGrowsLinearlyAndEveryNoteIsSetOnce() throws {
        let small = try paginate(notes: 500)
        let large = try paginate(notes: 2000)
        XCTAssertEqual(small.set, Array(1...500))
        XCTAssertEqual(large.set, Array(1...2000), "every note set once, in order")
        XCTAssertTrue(small.notesBelowText && large.notesBelowText)
        XCTAssertGreaterThan(small.work, 500)
        // Linear: 4 times the notes, about 4 times the work (quadratic would be 16).
        let ratio = Double(large.work) / Double(small.work)
        XCTAssertLessThan(ratio, 5, "work \(small.work) -> \(large.work)")
    }
}
