// Issue 8: 7.5 MB of text in 16 columns makes some 3 million lines of half a word each. Whatever a line costs
// is paid 3 million times, so the work per line must stay bounded: counted here (Pango layouts, bytes laid out,
// bytes of tagged content written), never timed.

import Foundation
import TypesetIR
@testable import TypesetLayout
import XCTest
@testable import TypesetPDF

final class NarrowColumnWorkTests: XCTestCase {
    private struct Work { var lines = 0, layouts = 0, bytes = 0 }

    private func paginate(words: Int, columns: Int) throws -> Work {
        let text = String(repeating: "word ", count: words)
        let doc = Fixture.document([.paragraph(Fixture.paragraph(text))], columns: columns)
        LayoutWork.bytesLaidOut = 0
        LayoutWork.paragraphsLaidOut = 0
        var work = Work(), characters = 0
        _ = try DocumentLayout.paginate(doc) { page in
            work.lines += page.lines.count
            for line in page.lines { characters += line.box.length }
        }
        XCTAssertEqual(characters, text.utf8.count, "every byte is on a line, \(columns) columns")
        work.layouts = LayoutWork.paragraphsLaidOut
        work.bytes = LayoutWork.bytesLaidOut
        return work
    }

    func testNarrowColumnsLayEachLineOutOnce() throws {
        // 16 columns of a default page are ~19pt wide: "word" takes two lines ("wo", "rd").
        let small = try paginate(words: 2_000, columns: 16), large = try paginate(words: 8_000, columns: 16)
        for (work, words) in [(small, 2_000), (large, 8_000)] {
            XCTAssertGreaterThanOrEqual(work.lines, 2 * words, "half a word a line")
            // A Pango layout serves a piece of many lines (each piece lays out its last line again for the
            // next): not one layout per line, and no piece laid out twice (balancing, drawing).
            XCTAssertLessThan(work.layouts * 16, work.lines, "lines per Pango layout")
            XCTAssertLessThan(Double(work.bytes), 1.25 * Double(5 * words), "bytes laid out per byte of text")
        }
        XCTAssertLessThan(Double(large.layouts) / Double(small.layouts), 4.5, "layouts grow with the text")
        XCTAssertLessThan(Double(large.bytes) / Double(small.bytes), 4.5, "bytes laid out grow with the text")
    }

    func testOneColumnLaysOutTheSameTextOnce() throws {
        let work = try paginate(words: 8_000, columns: 1)
        XCTAssertLessThan(Double(work.bytes), 1.1 * Double(5 * 8_000))
    }

    func testContentRewriteLiftsSpansAndMarksArtifacts() {
        // The rewrite runs once per line of every page: it writes bytes, the same ones as before it did so
        // without Data appends and strings.
        let stream = """
            /P << /MCID 3 >> BDC
            BT
            /Span << /ActualText (fi) >> BDC
            [(x)]TJ
            EMC
            ET
            EMC
            /\(TagRecorder.artifactTag) << /MCID 4 >> BDC
            q Q
            EMC

            """
        let result = ContentRewrite.rewrite(Data(stream.utf8), firstFreeMCID: 10)
        XCTAssertEqual(String(decoding: result.data, as: UTF8.self), """
            /P << /MCID 3 >> BDC
            BT
            EMC
            /Span << /MCID 10 /ActualText (fi) >> BDC
            [(x)]TJ
            EMC
            /P << /MCID 11 >> BDC
            ET
            EMC
            /Artifact BMC
            q Q
            EMC

            """)
        XCTAssertEqual(result.continuations, [3: [10, 11]])
        XCTAssertEqual(result.nextMCID, 12)
    }

    func testContentRewriteSplitsAnAddedHyphen() {
        let stream = "/P << /MCID 5 >> BDC\nBT\n[(wo-)]TJ\nET\nEMC\n"
        let result = ContentRewrite.rewrite(Data(stream.utf8), firstFreeMCID: 6, silent: [5])
        XCTAssertEqual(String(decoding: result.data, as: UTF8.self),
                       "/P << /MCID 5 >> BDC\nBT\n[(wo)]TJ\nEMC\n/Span << /MCID 6 /ActualText () >> BDC\n[(-)]TJ\nET\nEMC\n")
        XCTAssertEqual(result.continuations, [5: [6]])
    }
}
