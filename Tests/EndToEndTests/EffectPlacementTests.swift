// Effects the renderer draws itself (RunEffects: double strikes, shadows, outlines, slanted or expanded runs and
// their underlines) must land under their own characters. Justified text is laid out from an edited copy (line
// separators, inserted hyphens) and long paragraphs in pieces, whose offsets differ from the paragraph's: the
// effect was once drawn some characters too early, on another line, or not at all. Where it sits is read from
// the rasterised page (72 dpi: a pixel is a point) and compared with the word's box from `pdftotext -bbox`.

import Foundation
import XCTest

final class EffectPlacementTests: XCTestCase {
    /// Varied words, long ones among them, so justified lines break at spaces and inside words.
    private static let filler = ["Typesetting", "internationalization", "needs", "characteristically", "careful",
                                 "responsibilities", "of", "spacing", "and", "incomprehensibility", "in", "lines",
                                 "that", "counterrevolutionaries", "justify", "well"]

    private func words(_ count: Int, from start: Int = 0) -> String {
        (0..<count).map { Self.filler[(start + $0 * 7) % Self.filler.count] }.joined(separator: " ")
    }

    /// The pixels of `color` on page 1 must lie within the box of `word` (x) and near its line (y).
    private func assertDrawn(_ pdf: String, _ word: String, _ color: @escaping (Raster.Pixel) -> Bool, _ what: String,
                             file: StaticString = #filePath, line: UInt = #line) throws {
        let boxes = try PDF.words(pdf).filter { $0.text == word && $0.page == 1 }
        XCTAssertEqual(boxes.count, 1, "'\(word)' once on page 1", file: file, line: line)
        let box = try XCTUnwrap(boxes.first, file: file, line: line)
        let ink = try XCTUnwrap(try Raster.render(pdf, dpi: 72).bounds(color), "no \(what) drawn", file: file, line: line)
        XCTAssertGreaterThanOrEqual(Double(ink.minX), box.xMin - 1.5, "\(what) starts before '\(word)'", file: file, line: line)
        XCTAssertLessThanOrEqual(Double(ink.maxX), box.xMax + 1.5, "\(what) ends after '\(word)'", file: file, line: line)
        XCTAssertGreaterThanOrEqual(Double(ink.minY), box.yMin - 1.5, "\(what) above the line of '\(word)'", file: file, line: line)
        XCTAssertLessThanOrEqual(Double(ink.maxY), box.yMax + 3, "\(what) below the line of '\(word)'", file: file, line: line)
    }

    private let lime: (Raster.Pixel) -> Bool = { $0.g > 200 && $0.r < 80 && $0.b < 80 }
    private let blue: (Raster.Pixel) -> Bool = { $0.b > 200 && $0.r < 80 && $0.g < 80 }

    /// Fifteen justified, hyphenated lines before the spans: each line break inserted a separator (and some a
    /// hyphen) before them in the text Pango lays out.
    func testEffectsOnJustifiedHyphenatedTextSitUnderTheirWords() throws {
        let source = "---\njustify: true\nhyphenate: true\n---\n" + words(150)
            + " [zap]{strike=double strike-color=lime} " + words(12, from: 3)
            + " [qux]{oblique=12 underline=single underline-color=blue} " + words(40, from: 5) + "\n"
        // Untagged, the inserted hyphens copy as text (tagged, as nothing): both files draw the same.
        for untagged in [true, false] {
            let pdf = try Harness.typesetSource(source, name: #function + "\(untagged)",
                                                environment: untagged ? ["TYPESET_UNTAGGED": "1"] : [:])
            if untagged {
                XCTAssertTrue(try PDF.tool("pdftotext", ["-raw", pdf, "-"]).contains("-\n"),
                              "no line ends with an inserted hyphen: the test lost its point")
            }
            try assertDrawn(pdf, "zap", lime, "double strike")
            try assertDrawn(pdf, "qux", blue, "underline of the slanted run")
        }
    }

    /// A paragraph long enough to be laid out in pieces (ragged: Pango breaks it), the span in a later piece.
    func testEffectsInALaterPieceOfALongParagraphSitUnderTheirWords() throws {
        let source = words(330) + " [zap]{strike=double strike-color=lime} " + words(400, from: 2) + "\n"
        XCTAssertGreaterThan(source.utf8.count, 6_000)
        let pdf = try Harness.typesetSource(source)
        try assertDrawn(pdf, "zap", lime, "double strike")
    }

    /// `underline=thick` is a heavier line than `single` (twice the font's underline thickness): Pango has
    /// no thick underline, and its "low" one drew it as thin as `single`.
    func testThickUnderlineIsTwiceAsHeavyAsSingle() throws {
        let pdf = try Harness.typesetSource("{size=30pt}\n[single]{underline=single} and [thick]{underline=thick}\n")
        let heights = try PDF.objects(pdf).split(separator: "\n").compactMap { line -> Double? in
            let parts = line.split(separator: " ")
            guard parts.count == 6, parts[4] == "re", parts[5] == "f" else { return nil }
            return Double(parts[3])
        }
        XCTAssertEqual(heights.count, 2, "\(heights)")
        guard heights.count == 2 else { return }
        XCTAssertEqual(heights[1] / heights[0], 2, accuracy: 0.05, "\(heights)")
    }

    /// `expansion=0.3` makes a run 30% wider whatever its letters (RT section 6): wide `w`s and narrow `i`s alike
    /// (an assumed average advance made `wwww` 19% and `iiii` 52% wider).
    func testExpansionWidensARunByItsFactor() throws {
        let pdf = try Harness.typesetSource("A wwww B\n\nA [wwww]{expansion=0.3} B\n\nA iiii B\n\nA [iiii]{expansion=0.3} B\n\n"
                                            + "A Hello world B\n\nA [Hello world]{expansion=1} B\n")
        let words = try PDF.words(pdf)
        let lines = Dictionary(grouping: words, by: { ($0.yMin * 10).rounded() }).sorted { $0.key < $1.key }.map(\.value)
        XCTAssertEqual(lines.count, 6)
        guard lines.count == 6 else { return }
        // The room between A and B less the two spaces (DejaVu Serif 10pt: 3.18pt each) is the run's width.
        let widths = try lines.map { line -> Double in
            let a = try XCTUnwrap(line.first { $0.text == "A" }), b = try XCTUnwrap(line.first { $0.text == "B" })
            return b.xMin - a.xMax - 2 * 3.18
        }
        XCTAssertEqual(widths[1] / widths[0], 1.3, accuracy: 0.01, "\(widths)")
        XCTAssertEqual(widths[3] / widths[2], 1.3, accuracy: 0.01, "\(widths)")
        XCTAssertEqual(widths[5] / widths[4], 2.0, accuracy: 0.01, "\(widths)")
    }
}
