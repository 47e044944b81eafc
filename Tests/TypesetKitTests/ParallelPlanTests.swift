// `--jobs`: paragraphs whose drawing reads font caches (inline code's background, underline, strike) are
// measured and broken on a worker and shaped again on the paginating thread; paragraphs with characters no
// font has are handed back. Both give the bytes of one thread (work is counted, never timed).

import Foundation
import TypesetKit
import TypesetLayout
import XCTest

final class ParallelPlanTests: XCTestCase {
    /// Justified, hyphenated paragraphs in two columns, two in three with a decorated span; with `missing`, every
    /// other one carries a character no installed font has (drawn as a hex box), plain or decorated.
    static func document(paragraphs: Int, missing: Bool) -> [UInt8] {
        var lines = ["---", "title: Plans", "columns: 2", "justify: true", "hyphenate: true", "---", ""]
        let words = ("workers measure and break paragraphs ahead of the paginator while the drawing thread shapes "
            + "their planned lines again with its own fonts so nothing is read across threads").split(separator: " ")
        for k in 0..<paragraphs {
            let text = (0..<(50 + k * 7 % 60)).map { String(words[(k * 11 + $0 * 5) % words.count]) }
            var sentence = text.joined(separator: " ")
            switch k % 3 {
            case 0: sentence += " with `inline code \(k)` in it"
            case 1: sentence += " with ~~struck words~~ and [underlined]{underline=single} ones"
            default: sentence += " with plain **bold** words"
            }
            if missing && k % 3 != 1 { sentence += " and a box \u{F0002} here" }
            lines += [sentence + ".", ""]
        }
        return Array(lines.joined(separator: "\n").utf8)
    }

    private func build(_ source: [UInt8], jobs: Int, to path: String) throws -> (Data, [String]) {
        var request = TypesetRequest(input: .bytes(source, name: "doc.rt"), output: .file(path))
        request.sourceDateEpoch = 1_700_000_000
        request.jobs = jobs
        let outcome = Typesetter.run(request)
        XCTAssertTrue(outcome.succeeded, outcome.diagnostics.map(\.description).joined(separator: "\n"))
        return (try Data(contentsOf: URL(fileURLWithPath: path)), outcome.diagnostics.map(\.description))
    }

    private func scratch() throws -> String {
        let dir = NSTemporaryDirectory() + "/typeset-plans-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    func testDecoratedParagraphsBrokenOnAWorkerGiveTheSameBytes() throws {
        let dir = try scratch()
        let source = ParallelPlanTests.document(paragraphs: 240, missing: false)
        let (one, oneWarnings) = try build(source, jobs: 1, to: dir + "/one.pdf")
        LayoutWork.paragraphsFromPlans = 0
        let (two, twoWarnings) = try build(source, jobs: 2, to: dir + "/two.pdf")
        XCTAssertEqual(one, two, "--jobs 2 changed the PDF")
        XCTAssertEqual(oneWarnings, twoWarnings)
        // The worker runs ahead of the paginator, so most decorated paragraphs come with their breaks planned.
        XCTAssertGreaterThan(LayoutWork.paragraphsFromPlans, 20, "no paragraph was laid out from a worker's plan")
    }

    /// A hex box is drawn from font data Pango makes on first use: a worker's paragraph with one is laid out
    /// again on the drawing thread. Many runs, so a race between the threads would show as different bytes.
    func testMissingGlyphsWithWorkersGiveTheSameBytesEveryTime() throws {
        let dir = try scratch()
        let source = ParallelPlanTests.document(paragraphs: 60, missing: true)
        let (one, oneWarnings) = try build(source, jobs: 1, to: dir + "/one.pdf")
        XCTAssertTrue(oneWarnings.contains { $0.contains("U+F0002") }, oneWarnings.joined(separator: "\n"))
        for run in 0..<15 {
            let (two, twoWarnings) = try build(source, jobs: 2, to: dir + "/two.pdf")
            XCTAssertEqual(one, two, "run \(run): --jobs 2 changed the PDF")
            XCTAssertEqual(oneWarnings, twoWarnings, "run \(run)")
            if one != two { break }
        }
    }
}
