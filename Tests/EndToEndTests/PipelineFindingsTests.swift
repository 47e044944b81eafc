// Documents scripts/pipeline_fuzz.py found (`make pipeline-fuzz`), kept in Tests/Fixtures/found so they stay
// fixed: each is typeset with --jobs 1 and --jobs 2, which must give the same bytes.

import Foundation
import XCTest

final class PipelineFindingsTests: XCTestCase {
    private func fixture(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/found/" + name).path
    }

    /// The fixture typeset with --jobs 1 and 2: the runs' standard error, and the PDF's path (asserting the
    /// two PDFs are the same bytes).
    private func typesetBoth(_ name: String) throws -> (pdf: String, stderr: [String]) {
        let dir = try Harness.scratch(name)
        var outputs: [Data] = [], errors: [String] = []
        for jobs in ["1", "2"] {
            let out = dir + "/out-\(jobs).pdf"
            let result = try Harness.typeset([fixture(name), "-o", out, "--jobs", jobs],
                                             environment: ["SOURCE_DATE_EPOCH": "1"])
            XCTAssertEqual(result.status, 0, result.stderr)
            outputs.append(try Data(contentsOf: URL(fileURLWithPath: out)))
            errors.append(result.stderr)
        }
        XCTAssertEqual(outputs[0], outputs[1], "--jobs 2 changed the PDF")
        return (dir + "/out-1.pdf", errors)
    }

    /// Lines of one word each with hard breaks, 18pt, justified: a page's content stream, compressed by the
    /// tagging stage at zlib level 1, inflated in qpdf's pieces (10,240 bytes into a 64 KB buffer) filled the
    /// buffer exactly as a piece ran out, and `qpdf --check` warned "input stream is complete but output may
    /// still be valid" (the data was whole). Such a stream is compressed at another level (Deflate.fast).
    func testNoStreamMeetsQPDFsInflateBoundary() throws {
        let (pdf, _) = try typesetBoth("flate-boundary-page.rt")  // each PDF is checked by qpdf, warnings fail
        XCTAssertGreaterThan(try PDF.pageCount(pdf), 10)
    }

    /// A paragraph beside an @exclude whose text goes on with a word longer than a piece (2,100 letters): the
    /// line placed beside the shape came from a layout cut before the long word, and the paragraph was taken
    /// to end with that layout's last line, so the word was lost without a word said.
    func testLongWordBesideAnExclusionIsSetWhole() throws {
        let (pdf, _) = try typesetBoth("exclude-long-word.rt")
        let text = try PDF.text(pdf).filter { !$0.isWhitespace && $0 != "-" }
        XCTAssertEqual(text, "ab" + String(repeating: "a", count: 2100))
    }

    /// A justified paragraph of 40 words joined by no-break spaces, wider than the line: the total-fit breaker
    /// measured each word alone, found no break and no word too long to break between letters, and set it all
    /// as one line running off the page (greedy lines broke it).
    func testWordsJoinedByNoBreakSpacesStayOnThePage() throws {
        let source = try String(contentsOfFile: fixture("justified-nbsp-run.rt"), encoding: .utf8)
        let letters = source.split(separator: "\n").last.map { $0.filter(\.isLetter).count } ?? 0
        let (pdf, _) = try typesetBoth("justified-nbsp-run.rt")
        let text = try PDF.text(pdf).filter { $0.isLetter }
        XCTAssertEqual(text.count, letters, text)
        XCTAssertGreaterThan(letters, 250)
    }

    /// The same paragraph after a table of contents: the counting pass lays the pieces out and the drawing
    /// pass reuses them, so the warning has to come from the counting pass (it was lost), and once.
    func testMissingGlyphInALaterPieceIsWarnedWithATableOfContents() throws {
        let fonts = try Harness.run("fc-list", [":charset=f0001"])
        try XCTSkipUnless(String(decoding: fonts.stdout, as: UTF8.self).isEmpty, "a font covers U+F0001 here")
        let source = try String(contentsOfFile: fixture("late-missing-glyph.rt"), encoding: .utf8)
        let dir = try Harness.scratch(#function)
        try Harness.write("# Top\n\n@toc\n\n" + source, to: dir + "/doc.rt")
        for jobs in ["1", "2"] {
            let result = try Harness.typeset([dir + "/doc.rt", "-o", dir + "/doc.pdf", "--jobs", jobs])
            XCTAssertEqual(result.status, 0, result.stderr)
            let warnings = result.stderr.components(separatedBy: "warning: character U+F0001").count - 1
            XCTAssertEqual(warnings, 1, "--jobs \(jobs): \(result.stderr)")
        }
    }

    /// A character no installed font has, met only in a later piece of a long paragraph (laid out as the
    /// paginator reaches it, or by a worker): it was drawn as an empty box without the warning the first
    /// piece's characters get (contract section 1).
    func testMissingGlyphInALaterPieceIsWarned() throws {
        let fonts = try Harness.run("fc-list", [":charset=f0001"])
        try XCTSkipUnless(String(decoding: fonts.stdout, as: UTF8.self).isEmpty, "a font covers U+F0001 here")
        let (_, errors) = try typesetBoth("late-missing-glyph.rt")
        for stderr in errors {
            XCTAssertTrue(stderr.contains("late-missing-glyph.rt:2:10001: warning: character U+F0001 is not in any installed font"),
                          stderr)
        }
    }

    /// Arabic broken inside a word in twelve narrow columns, next to CJK that no installed font has: in 3-7 of
    /// 10 runs `--jobs 2` broke a line one letter later than `--jobs 1` (and past the column), because a font
    /// measured on both threads at once lost its approximate character width (FontMetricsGuard.swift). Several
    /// runs, since the race needs the two threads to meet.
    func testArabicBesideMissingGlyphsBreaksTheSameWithTwoJobs() throws {
        let (pdf, _) = try typesetBoth("arabic-beside-missing-glyphs.rt")
        let once = try Data(contentsOf: URL(fileURLWithPath: pdf))
        let dir = try Harness.scratch(#function)
        var differing = 0
        for run in 0..<6 {
            let out = dir + "/run-\(run).pdf"
            let result = try Harness.typeset([fixture("arabic-beside-missing-glyphs.rt"), "-o", out, "--jobs", "2"],
                                             environment: ["SOURCE_DATE_EPOCH": "1"])
            XCTAssertEqual(result.status, 0, result.stderr)
            if try Data(contentsOf: URL(fileURLWithPath: out)) != once { differing += 1 }
        }
        XCTAssertEqual(differing, 0, "\(differing) of 6 runs with --jobs 2 differ from --jobs 1")
    }

    /// `make fuzz`'s plain-text target (letters, digits, spaces, line ends) found a document whose text seemed
    /// lost: pdftotext's default reading order split an indented code line at its run of seven spaces and put
    /// the right part after the next code block. Every character is in the PDF, in the order drawn.
    func testPlainTextComesBackInOrderWhenDrawn() throws {
        let (pdf, _) = try typesetBoth("fuzz-text-wide-gap-in-code.rt")
        let input = try String(contentsOfFile: fixture("fuzz-text-wide-gap-in-code.rt"), encoding: .utf8)
        let letters = { (text: String) in text.filter { !$0.isWhitespace && !"-\u{00AD}\u{2010}\u{2011}".contains($0) } }
        let wanted = letters(input)
        var shown = Substring(letters(try PDF.tool("pdftotext", ["-raw", pdf, "-"])))
        for (k, character) in wanted.enumerated() {
            guard let found = shown.firstIndex(of: character) else {
                return XCTFail("character \(k + 1) of \(wanted.count), '\(character)', is not in the PDF in order")
            }
            shown = shown[shown.index(after: found)...]
        }
        // The code line is drawn whole, its spaces kept.
        XCTAssertTrue(try PDF.text(pdf, layout: true).contains("from wave slop        1 0U3U0 1"))
    }
}
