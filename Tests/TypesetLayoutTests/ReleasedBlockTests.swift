// Issue 14 (flat memory): the last pagination pass frees each page's blocks of the IR once the page is handed
// out, so the IR of a long document is not whole to the end, also with `{{pages}}` and a table of contents
// (the counting pass keeps no copy). Counted in heap bytes (glibc's malloc_info), not timed.

import Foundation
import TypesetIR
@testable import TypesetLayout
import XCTest

final class ReleasedBlockTests: XCTestCase {
    #if canImport(Glibc)
    /// Heap in use when the document is made, when its first page and its last page are handed out.
    private func heap(sections: Int) throws -> (ir: Int, first: Int, last: Int, pages: Int) {
        guard let before = HeapBytes.inUse() else { throw XCTSkip("malloc_info is not available") }
        let doc = RetainedLayoutTests.document(sections: sections)
        guard let made = HeapBytes.inUse() else { throw XCTSkip("malloc_info is not available") }
        var first: Int? = nil, last = 0, pages = 0
        _ = try DocumentLayout.paginate(consume doc) { _ in
            let now = HeapBytes.inUse() ?? 0
            if first == nil { first = now }
            last = now
            pages += 1
        }
        return (made - before, first ?? 0, last, pages)
    }

    func testBlocksAreFreedAsPagesGoOut() throws {
        _ = try heap(sections: 20)  // fonts, caches and patterns: loaded before anything is counted
        for sections in [300, 1200] {
            let run = try heap(sections: sections)
            let report = "\(sections) sections, \(run.pages) pages: IR \(run.ir) bytes, heap at the first page "
                + "\(run.first), at the last \(run.last)"
            print("released blocks: \(report)")
            XCTAssertGreaterThan(run.pages, sections / 20, report)
            // Holding the IR to the end, the heap at the last page was about the first page's; freed page by
            // page, all but the last page's blocks are gone by then.
            XCTAssertLessThan(run.last, run.first - run.ir / 2, report)
        }
    }
    #endif

    /// What the renderer hands over is freed; a caller that keeps its copy keeps its blocks whole: the same
    /// document paginated again gives the same pages, line for line.
    func testCallersCopyStaysWhole() throws {
        let doc = RetainedLayoutTests.document(sections: 40)
        var runs: [[[Int]]] = []  // per run, per page: each line's start and length in its paragraph
        for _ in 0..<2 {
            var pages: [[Int]] = []
            _ = try DocumentLayout.paginate(doc) { page in
                pages.append(page.lines.flatMap { [$0.box.startIndex, $0.box.length] })
            }
            runs.append(pages)
        }
        XCTAssertGreaterThan(runs[0].count, 1)
        XCTAssertGreaterThan(runs[0].joined().count, 100 * 2)
        XCTAssertEqual(runs[0], runs[1], "the second pagination of the caller's copy differs")
        let paragraphs = doc.blocks.filter { if case .paragraph = $0 { true } else { false } }.count
        XCTAssertEqual(paragraphs, 80 + 40)
    }
}
