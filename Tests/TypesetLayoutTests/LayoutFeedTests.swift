// `--jobs`: the shaping workers start on the paragraphs lowering has finished while it is still lowering the
// rest (LayoutFeed.swift). Counted, never timed: lowering is held in the middle of the document until a worker
// has laid out a paragraph, which it can only do if the work reached it before lowering ended.

import Foundation
import RTSyntax
import TypesetIR
import TypesetLayout
import XCTest

final class LayoutFeedTests: XCTestCase {
    /// Passes blocks on to the feed and, at block `holdAt`, holds lowering until a worker has laid one out.
    final class HoldingSink: LoweredBlockSink, @unchecked Sendable {
        let feed: LayoutFeed
        let holdAt: Int
        var madeWhileLowering = 0
        var heardAfterHold = 0

        init(feed: LayoutFeed, holdAt: Int) {
            self.feed = feed
            self.holdAt = holdAt
        }

        func begin(_ document: TypesetDocument) -> Bool { feed.begin(document) }

        func lowered(_ block: LayoutBlock, at index: Int) {
            feed.lowered(block, at: index)
            if index > holdAt { heardAfterHold += 1 }
            guard index == holdAt else { return }
            // Bounded, so a worker that never gets the work fails the test instead of hanging it (60 s).
            for _ in 0..<60_000 where feed.paragraphsMade == 0 { usleep(1000) }
            madeWhileLowering = feed.paragraphsMade
        }
    }

    static func source(paragraphs: Int) -> String {
        var lines = ["---", "title: Feed", "columns: 2", "justify: true", "---", ""]
        for k in 0..<paragraphs {
            if k % 10 == 0 { lines += ["## Part \(k / 10)", ""] }
            lines += [(0..<(30 + k % 40)).map { "word\(($0 * 7 + k) % 23)" }.joined(separator: " ") + ".", ""]
        }
        return lines.joined(separator: "\n")
    }

    func testWorkersShapeWhileTheRestIsLowered() throws {
        let engine = LayoutEngine()
        let feed = LayoutFeed(engine: engine, jobs: 2)
        let sink = HoldingSink(feed: feed, holdAt: 40)
        var options = LoweringOptions()
        options.sink = sink
        let parsed = RTParser.parse(Array(LayoutFeedTests.source(paragraphs: 120).utf8), file: "feed.rt")
        let lowered = Lowering.lower(parsed.document, options: options, parseInlines: RTParser.parseInlines)
        XCTAssertGreaterThan(sink.madeWhileLowering, 0, "no worker laid out a paragraph while lowering went on")
        XCTAssertGreaterThan(sink.heardAfterHold, 60, "lowering had finished before the hold")
        XCTAssertEqual(feed.paragraphsFed, 120 + 12)  // and the headings

        engine.jobs = 2
        defer { engine.jobs = 1 }
        let (early, earlyDiagnostics) = engine.withLock {
            feed.handOver()
            defer { feed.withdraw() }
            return DocumentLayout.pages(lowered.document, engine: engine)
        }
        feed.close()
        // The pagination took the workers over with what they had made: every paragraph fed matched.
        XCTAssertEqual(LayoutFeed.last.fed, 132)
        XCTAssertEqual(LayoutFeed.last.matched, 132)
        XCTAssertGreaterThan(LayoutFeed.last.early, 0)

        // The same lines in the same places as one thread from scratch.
        let single = LayoutEngine()
        let (pages, diagnostics) = DocumentLayout.pages(lowered.document, engine: single)
        XCTAssertEqual(earlyDiagnostics.map(\.description), diagnostics.map(\.description))
        XCTAssertEqual(early.count, pages.count)
        XCTAssertGreaterThan(pages.count, 1)
        for (a, b) in zip(early, pages) {
            XCTAssertEqual(a.lines.map(\.box.startIndex), b.lines.map(\.box.startIndex), "page \(a.number)")
            XCTAssertEqual(a.lines.map(\.box.width), b.lines.map(\.box.width), "page \(a.number)")
            XCTAssertEqual(a.lines.map(\.baseline), b.lines.map(\.baseline), "page \(a.number)")
            XCTAssertEqual(a.lines.map(\.x), b.lines.map(\.x), "page \(a.number)")
        }
    }
}
