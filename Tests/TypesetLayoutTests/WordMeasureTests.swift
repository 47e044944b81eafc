import CPangoCairo
import Foundation
import RTSyntax
@testable import TypesetLayout
import TypesetIR
import XCTest

/// Total-fit paragraphs measured by cached words must break exactly as when the paragraph is shaped to measure it.
final class WordMeasureTests: XCTestCase {
    static let prose = TotalFitOutputTests.prose

    private func justified() -> ParagraphStyle {
        var style = ParagraphStyle()
        style.alignment = .justify
        style.hyphenate = true
        return style
    }

    /// Prose with bold, italic and monospaced runs.
    private func mixedParagraph() -> AttributedParagraph {
        var bold = CharacterAttributes(); bold.weight = 700
        var italic = CharacterAttributes(); italic.style = .italic
        var mono = CharacterAttributes(); mono.fontFamily = "DejaVu Sans Mono"
        let plain = CharacterAttributes()
        return Fixture.paragraph([(Self.prose + " The ", plain), ("harbour master", bold), (" wrote ", plain),
                                  ("pango_layout_set_text", mono), (" — “quickly”, then ", plain),
                                  ("slowly and carefully", italic), (". " + Self.prose, plain)], style: justified())
    }

    private func layout(_ p: AttributedParagraph, width: Double, byWords: Bool) -> ParagraphLayout {
        let saved = TotalFitParagraph.measureByWords
        TotalFitParagraph.measureByWords = byWords
        defer { TotalFitParagraph.measureByWords = saved }
        var diagnostics: [Diagnostic] = []
        return LayoutEngine.shared.withLock {
            ParagraphLayout(p, columnWidth: width, engine: .shared, images: ImageCache(), diagnostics: &diagnostics)
        }
    }

    func testWordMeasurementMatchesTheShapedParagraph() throws {
        let p = mixedParagraph()
        let engine = LayoutEngine.shared
        try engine.withLock {
            let base = FontKey(p.runs[0].attributes)
            let handle = LayoutHandle(engine: engine)
            pango_layout_set_font_description(handle.layout, engine.fontDescription(base))
            var text = p.text
            try text.withUTF8 { buffer in
                XCTAssertTrue(WordMeasure.isEligible(runs: p.runs, base: base, hasAttachments: false, text: buffer))
                ParagraphLayout.setText(handle.layout, buffer)
                ParagraphLayout.setAttributes(handle.layout, runs: p.runs, shapes: [], base: base, style: p.style)
                let exact = try XCTUnwrap(ParagraphMeasurement.exact(layout: handle.layout, text: buffer))
                let words = try XCTUnwrap(WordMeasure.cache(for: engine).measure(text: buffer, runs: p.runs,
                                                                                 base: base, engine: engine))
                XCTAssertEqual(words.advance, exact.advance)
                XCTAssertEqual(words.clusterStart, exact.clusterStart)
                XCTAssertEqual(words.attrs.count, exact.attrs.count)
                for (w, e) in zip(words.attrs, exact.attrs) {
                    XCTAssertEqual(w.is_line_break, e.is_line_break)
                    XCTAssertEqual(w.is_white, e.is_white)
                    XCTAssertEqual(w.is_expandable_space, e.is_expandable_space)
                    XCTAssertEqual(w.is_mandatory_break, e.is_mandatory_break)
                }
            }
        }
    }

    func testBothMeasurementsGiveTheSameLinesAndNoLinePassesItsSlot() {
        for width in [140.0, 181.5, 240.0] {
            let fast = layout(mixedParagraph(), width: width, byWords: true)
            let exact = layout(mixedParagraph(), width: width, byWords: false)
            XCTAssertTrue(fast.measuredByWords)
            XCTAssertFalse(exact.measuredByWords)
            XCTAssertEqual(fast.breakKinds, exact.breakKinds)
            XCTAssertEqual(fast.lines.map(\.startIndex), exact.lines.map(\.startIndex), "width \(width)")
            XCTAssertGreaterThan(fast.lines.count, 5)
            for (a, b) in zip(fast.lines, exact.lines) {
                XCTAssertEqual(a.width, b.width, accuracy: 0.01)
                // Only by what its last character hangs into the margin (protrusion).
                XCTAssertLessThanOrEqual(a.x + a.width, width + a.adjustment.protrudeRight + 0.01,
                                         "a line passes its slot at width \(width)")
            }
            for line in fast.lines.dropLast() {
                XCTAssertEqual(line.x + line.width - line.adjustment.protrudeRight, width, accuracy: 0.5)
            }
        }
    }

    func testParagraphsWithWhatWordsCannotMeasureTakeTheExactPath() {
        var spaced = CharacterAttributes(); spaced.letterSpacing = 1
        let letterSpaced = Fixture.paragraph([(Self.prose, CharacterAttributes()), (" spaced out", spaced)],
                                             style: justified())
        XCTAssertFalse(layout(letterSpaced, width: 180, byWords: true).measuredByWords)
        let hebrew = Fixture.paragraph(Self.prose + " שלום " + Self.prose, style: justified())
        XCTAssertFalse(layout(hebrew, width: 180, byWords: true).measuredByWords)
        XCTAssertTrue(layout(Fixture.paragraph(Self.prose, style: justified()), width: 180, byWords: true).measuredByWords)
    }

    func testPatternFileHeadersAndNextLevel() {
        let h = Hyphenator(dictionary: "UTF-8\n  LEFTHYPHENMIN 1\r\nRIGHTHYPHENMIN 1\n\n% c\nCOMPOUNDLEFTHYPHENMIN 2\na1b\n"
                           + "NEXTLEVEL\nc1d\n")
        XCTAssertEqual(h.leftMin, 1)
        // As libhyphen: patterns before NEXTLEVEL split compounds (here only with 2 letters beside the joint),
        // those after it hyphenate each word (French files keep all their patterns there).
        XCTAssertEqual(h.hyphenationPoints("ab"), [])
        XCTAssertEqual(h.hyphenationPoints("aabb"), [2])
        XCTAssertEqual(h.hyphenationPoints("cd"), [1], "patterns after NEXTLEVEL are the word level")
    }
}
