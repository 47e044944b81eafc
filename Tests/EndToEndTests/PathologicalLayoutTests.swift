// Issue 8, "text lost with exit 0": every word of these documents must reach the PDF (pdftotext counts),
// pages stay sane, text never goes inside an exclusion, and what cannot be laid out is a located error.

import Foundation
import XCTest

final class PathologicalLayoutTests: XCTestCase {
    private func run(_ source: String, name: String = #function) throws -> (RunResult, String) {
        let dir = try Harness.scratch(name)
        try Harness.write(source, to: dir + "/doc.rt")
        let result = try Harness.typeset(["doc.rt", "-o", "doc.pdf"], cwd: dir)
        return (result, dir + "/doc.pdf")
    }

    private func words(_ pdf: String) throws -> [Substring] {
        try PDF.text(pdf).split(whereSeparator: { $0.isWhitespace })
    }

    func testParagraphOfSeventyTwoThousandWordsKeepsEveryWord() throws {
        let (result, pdf) = try run(String(repeating: "word ", count: 72_465) + "\n")
        XCTAssertEqual(result.status, 0, result.stderr)
        let found = try words(pdf)
        XCTAssertEqual(found.count, 72_465)
        XCTAssertTrue(found.allSatisfy { $0 == "word" })
        XCTAssertTrue((70...85).contains(try PDF.pageCount(pdf)))
    }

    func testHalfAMillionCharacterCodeLineKeepsEveryCharacter() throws {
        let (result, pdf) = try run("```\n" + String(repeating: "x", count: 500_000) + "\n```\n")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try PDF.text(pdf).filter { $0 == "x" }.count, 500_000)
    }

    func testThousandPointJustifiedTextDoesNotCrash() throws {
        let source = "---\npage: 2000mm x 2000mm\nfont-size: 1000pt\njustify: true\n---\n\n"
            + String(repeating: "word ", count: 1_800) + "\n"
        let (result, pdf) = try run(source)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try words(pdf).count, 1_800)
    }

    func testFortyQuoteLevelsKeepTheirTextOnOneLine() throws {
        for depth in [35, 40] {
            let (result, pdf) = try run(String(repeating: "> ", count: depth) + "hello world\n", name: "quotes\(depth)")
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(try PDF.text(pdf).trimmingCharacters(in: .whitespacesAndNewlines), "hello world")
            XCTAssertEqual(result.stderr.components(separatedBy: "not indented further").count - 1, 1, result.stderr)
            XCTAssertTrue(result.stderr.contains("doc.rt:1:"), result.stderr)
        }
    }

    func testFortyListLevelsKeepEveryItem() throws {
        let source = (0..<40).map { String(repeating: "  ", count: $0) + "- item\($0) has some words\n" }.joined()
        let (result, pdf) = try run(source)
        XCTAssertEqual(result.status, 0, result.stderr)
        let text = try words(pdf).joined(separator: " ")  // deep items wrap in their 8em measure
        for level in 0..<40 { XCTAssertTrue(text.contains("item\(level) has some words"), "level \(level)") }
        XCTAssertLessThanOrEqual(try PDF.pageCount(pdf), 2)
    }

    func testFullPageExclusionIsAnErrorAtTheDirective() throws {
        let source = "Intro.\n\n@exclude rect(0, 0, 100%, 100%) pages=all\n\n" + String(repeating: "word ", count: 5_000) + "\n"
        let (result, pdf) = try run(source)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("doc.rt:3:1: error: no line of text fits"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: pdf))
    }

    /// With nothing before it the first page is never finished: the error at the directive is what is reported,
    /// not the tagging stage's complaint about the page cairo writes for an empty document.
    func testFullPageExclusionBeforeAnyTextIsTheLocatedError() throws {
        for source in ["@exclude rect(0, 0, 100%, 100%) pages=all\n\nword word word\n",
                       "@exclude rect(0, 0, 100%, 100%)\n\nword word word\n"] {
            let (result, pdf) = try run(source)
            XCTAssertEqual(result.status, 1)
            XCTAssertTrue(result.stderr.contains("doc.rt:1:1: error: no line of text fits on page 1"), result.stderr)
            XCTAssertFalse(result.stderr.contains("tagging"), result.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: pdf))
        }
    }

    func testTextNeverGoesInsideAnExclusion() throws {
        // The left half of every page's text area is excluded: every word sits right of it, and all are there.
        let source = "@exclude rect(0, 0, 50%, 100%) pages=all\n\n" + String(repeating: "word ", count: 3_000) + "\n"
        let (result, pdf) = try run(source)
        XCTAssertEqual(result.status, 0, result.stderr)
        let found = try PDF.words(pdf)
        XCTAssertEqual(found.count, 3_000)
        let margin = 72 / 2.54 * 2, half = (595.28 - 2 * margin) / 2
        XCTAssertTrue(found.allSatisfy { $0.xMin >= margin + half - 0.5 }, "a word inside the exclusion")
    }
}
