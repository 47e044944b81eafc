// `--jobs 2` starts shaping while the document is still lowered (LayoutFeed.swift): the PDF is the one thread's,
// byte for byte, whether the paragraphs handed over early stay as they were or lowering changes them after.

import Foundation
import TypesetKit
import TypesetLayout
import XCTest

final class EarlyLayoutTests: XCTestCase {
    static func document(paragraphs: Int, font: String? = nil, toc: Bool = false) -> [UInt8] {
        var lines = ["---", "title: Early", "columns: 2", "justify: true", "hyphenate: true"]
        if let font { lines.append("font: \(font)") }
        lines += ["---", ""]
        if toc { lines += ["@toc", ""] }
        let words = "shaping starts on the first paragraphs while the rest of the report is still lowered".split(separator: " ")
        for k in 0..<paragraphs {
            if k % 8 == 0 { lines += ["## Part \(k / 8 + 1)", ""] }
            let text = (0..<(40 + k * 13 % 50)).map { String(words[(k * 5 + $0 * 3) % words.count]) }
            lines += [text.joined(separator: " ") + (k % 4 == 1 ? " with [a link](https://example.com/\(k))." : "."), ""]
        }
        return Array(lines.joined(separator: "\n").utf8)
    }

    static func build(_ source: [UInt8], jobs: Int, to path: String) throws -> Data {
        var request = TypesetRequest(input: .bytes(source, name: "doc.rt"), output: .file(path))
        request.sourceDateEpoch = 1_700_000_000
        request.jobs = jobs
        let outcome = Typesetter.run(request)
        XCTAssertTrue(outcome.succeeded, outcome.diagnostics.map(\.description).joined(separator: "\n"))
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    private func scratch() throws -> String {
        let dir = NSTemporaryDirectory() + "/typeset-early-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    func testParagraphsFedWhileLoweringGiveTheSameBytes() throws {
        let dir = try scratch()
        let source = EarlyLayoutTests.document(paragraphs: 160)
        let one = try Self.build(source, jobs: 1, to: dir + "/one.pdf")
        let two = try Self.build(source, jobs: 2, to: dir + "/two.pdf")
        XCTAssertEqual(one, two, "--jobs 2 with the early start changed the PDF")
        // Every paragraph and heading went to the workers during lowering, and all were still the same after.
        XCTAssertEqual(LayoutFeed.last.fed, 160 + 20)
        XCTAssertEqual(LayoutFeed.last.matched, 160 + 20)
    }

    /// A `@toc` is filled in once lowering is done: its entries come before every paragraph fed, moving their
    /// block numbers (two passes: the counting pass takes the workers over).
    func testParagraphsMovedByATocKeepTheirEarlyLayouts() throws {
        let dir = try scratch()
        let source = EarlyLayoutTests.document(paragraphs: 80, toc: true)
        let one = try Self.build(source, jobs: 1, to: dir + "/one.pdf")
        let two = try Self.build(source, jobs: 2, to: dir + "/two.pdf")
        XCTAssertEqual(one, two, "--jobs 2 with the early start changed the PDF of a document with a toc")
        XCTAssertEqual(LayoutFeed.last.fed, 80 + 10)
        XCTAssertEqual(LayoutFeed.last.matched, 80 + 10)
    }

    /// An unknown body font family is replaced after lowering (FontSetup): every paragraph fed in it differs
    /// from the document's, so what the workers made of it may not be used.
    func testParagraphsChangedAfterLoweringAreLaidOutAgain() throws {
        let dir = try scratch()
        let source = EarlyLayoutTests.document(paragraphs: 60, font: "No Such Family Anywhere")
        let one = try Self.build(source, jobs: 1, to: dir + "/one.pdf")
        let two = try Self.build(source, jobs: 2, to: dir + "/two.pdf")
        XCTAssertEqual(one, two, "--jobs 2 used layouts of paragraphs lowering had not finished")
        XCTAssertEqual(LayoutFeed.last.fed, 60 + 8)
        // Only the first block, a heading in the heading font (installed), stays as it was fed.
        XCTAssertEqual(LayoutFeed.last.matched, 1)
    }
}

/// A document of a page or two is laid out on the main thread alone: a worker's thread and font setup would
/// cost more than it saves (issue 14, start-up). A longer one still gets its workers, and both give the bytes
/// of one job.
final class SmallDocumentJobsTests: XCTestCase {
    private func build(_ source: [UInt8], jobs: Int, name: String) throws -> Data {
        let path = NSTemporaryDirectory() + "/typeset-small-\(UUID().uuidString.prefix(8))-\(name).pdf"
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try EarlyLayoutTests.build(source, jobs: jobs, to: path)
    }

    func testNoWorkerStartsForAOnePageDocument() throws {
        let small = EarlyLayoutTests.document(paragraphs: 4)
        let one = try build(small, jobs: 1, name: "one")
        let before = WorkerEngines.workersStarted
        let two = try build(small, jobs: 2, name: "two")
        XCTAssertEqual(WorkerEngines.workersStarted, before, "a worker started for a one-page document")
        XCTAssertEqual(one, two)

        let large = EarlyLayoutTests.document(paragraphs: 60)
        let largeOne = try build(large, jobs: 1, name: "large-one")
        let largeTwo = try build(large, jobs: 2, name: "large-two")
        XCTAssertGreaterThan(WorkerEngines.workersStarted, before, "no worker started for a long document")
        XCTAssertEqual(largeOne, largeTwo)
    }
}
