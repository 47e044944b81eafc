// Issue 8: paragraphs past Pango's int range lost their text; unbreakable text and long words near exclusions
// were quadratic. Complexity is checked by counting the text handed to Pango (LayoutWork), never by a clock.

import CPangoCairo
import Foundation
import RTSyntax
import TypesetIR
@testable import TypesetLayout
import XCTest

final class LongParagraphTests: XCTestCase {
    private func layout(_ p: AttributedParagraph, width: Double = 481.89) -> ParagraphLayout {
        var diagnostics: [Diagnostic] = []
        return ParagraphLayout(p, columnWidth: width, engine: .shared, images: ImageCache(), diagnostics: &diagnostics)
    }

    /// The lines cover the text from its first byte to its last, in order, without gaps.
    private func assertCoversText(_ l: ParagraphLayout, file: StaticString = #filePath, line: UInt = #line) {
        var at = 0
        for box in l.lines {
            XCTAssertEqual(box.startIndex, at, file: file, line: line)
            at = box.startIndex + box.length
        }
        XCTAssertEqual(at, l.paragraph.text.utf8.count, file: file, line: line)
    }

    private func resetWork() {
        LayoutWork.bytesLaidOut = 0
        LayoutWork.largestLayout = 0
        LayoutWork.linesLaidOut = 0
    }

    func testParagraphPastPangosRangeKeepsAllItsLines() {
        // 72,465 words gave one line ("word word ... wor") and nothing else: one more word than fits in Pango's int.
        resetWork()
        let text = String(repeating: "word ", count: 72_465)
        let l = layout(Fixture.paragraph(text))
        assertCoversText(l)
        XCTAssertGreaterThan(l.lines.count, 3_000)
        XCTAssertTrue(l.lines.allSatisfy { $0.width <= 481.89 + 0.5 })
        XCTAssertLessThanOrEqual(LayoutWork.largestLayout, 2 * ParagraphLayout.maxPieceBytes)
        XCTAssertLessThan(Double(LayoutWork.bytesLaidOut), 1.1 * Double(text.utf8.count))
        // Every line can be drawn: its Pango line holds the bytes the box says.
        for i in stride(from: 0, to: l.lines.count, by: 97) {
            let (piece, local) = l.piece(ofLine: i)
            XCTAssertEqual(Int(piece.pangoLine(local).pointee.length), piece.lines[local].length)
        }
    }

    func testJustifiedHugeFontDoesNotOverflow() {
        // 1000pt, justified: the total-fit measurement of the whole paragraph as one line passed 2^31 Pango units.
        var style = ParagraphStyle()
        style.alignment = .justify
        let l = layout(Fixture.paragraph(String(repeating: "word ", count: 1_800), style: style,
                                         attributes: Fixture.attributes(size: 1000)), width: 5_000)
        assertCoversText(l)
        XCTAssertGreaterThanOrEqual(l.lines.count, 900)
        XCTAssertLessThanOrEqual(LayoutWork.largestLayout, 2 * ParagraphLayout.maxPieceBytes)
    }

    func testUnbreakableTextCostsLinearWork() {
        var work: [Int] = []
        for n in [20_000, 80_000] {
            resetWork()
            let l = layout(Fixture.paragraph(String(repeating: "a", count: n)))
            assertCoversText(l)
            XCTAssertLessThanOrEqual(LayoutWork.largestLayout, 2 * ParagraphLayout.maxPieceBytes)
            work.append(LayoutWork.bytesLaidOut)
        }
        XCTAssertLessThan(Double(work[1]) / Double(work[0]), 5, "\(work)")
    }

    func testPaginatedUnbreakableTextIsLaidOutOnce() throws {
        // A long word is laid out in pieces of a few lines; placing a column used to lay out again the
        // pieces whose layouts were dropped while the paginator looked ahead (twice the work).
        for columns in [1, 4] {
            let n = 40_000
            let doc = Fixture.document([.paragraph(Fixture.paragraph(String(repeating: "a", count: n)))],
                                       columns: columns)
            resetWork()
            var characters = 0
            _ = try DocumentLayout.paginate(doc) { page in
                for line in page.lines { characters += line.box.length }
            }
            XCTAssertEqual(characters, n)
            // Each piece lays out its last line again for the next one: a little more, never twice.
            XCTAssertLessThan(Double(LayoutWork.bytesLaidOut), 1.5 * Double(n), "\(columns) columns")
            XCTAssertLessThanOrEqual(LayoutWork.largestLayout, 2 * ParagraphLayout.maxPieceBytes, "\(columns) columns")
        }
    }

    func testUnbreakableTextIsShapedOnceAndSetWhereItWasPlanned() {
        // Text with no break opportunity (`[ a_` has spaces, but UAX #14 allows no break after `[ ` nor between
        // `_` and `[`) made Pango shape the rest of a piece again for every line. Now it is shaped once to plan
        // the lines and laid out once with them: no line of a planned piece is broken elsewhere by Pango.
        for unit in ["a", "[ a_", "<", "a]"] {
            let n = 100_000
            resetWork()
            LayoutWork.bytesMeasured = 0
            LayoutWork.unplannedBreaks = 0
            let l = layout(Fixture.paragraph(String(repeating: unit, count: n / unit.utf8.count)))
            assertCoversText(l)
            XCTAssertEqual(LayoutWork.unplannedBreaks, 0, unit)
            XCTAssertLessThan(Double(LayoutWork.bytesMeasured), 1.1 * Double(n), unit)
            XCTAssertLessThan(Double(LayoutWork.bytesLaidOut), 1.1 * Double(n), unit)
            XCTAssertGreaterThan(l.lines.count, n / 150, unit)
            XCTAssertTrue(l.lines.allSatisfy { $0.width <= 481.89 + 0.01 }, unit)
        }
    }

    func testUnbreakableTextOfShortStyledRunsIsNotPlanned() {
        // `*a*b` x 25,000: one word whose style changes every letter is short Pango items already, which Pango
        // breaks in linear time; planning shaped it twice (43% of its layout). Counted, not timed: nothing is
        // measured to plan it, it is laid out about once, and its lines are whole and inside the column.
        var pieces: [(String, CharacterAttributes)] = []
        for _ in 0..<25_000 {
            pieces.append(("a", Fixture.attributes(style: .italic)))
            pieces.append(("b", Fixture.attributes()))
        }
        resetWork()
        LayoutWork.bytesMeasured = 0
        let l = layout(Fixture.paragraph(pieces))
        assertCoversText(l)
        XCTAssertEqual(LayoutWork.bytesMeasured, 0)
        XCTAssertLessThan(Double(LayoutWork.bytesLaidOut), 1.5 * 50_000)
        XCTAssertTrue(l.lines.allSatisfy { $0.width <= 481.89 + 0.01 })
        XCTAssertGreaterThan(l.lines.count, 50_000 / 150)
        // A stretch with a run longer than `shortRunBytes` is still planned.
        var long = pieces
        long.append((String(repeating: "c", count: 70_000), Fixture.attributes()))
        LayoutWork.bytesMeasured = 0
        assertCoversText(layout(Fixture.paragraph(long)))
        XCTAssertGreaterThan(LayoutWork.bytesMeasured, 60_000)
    }

    func testManyStretchesAreMeasuredOnlyJustPastTheirEnds() {
        // Runs of backticks of growing length (cmark's pathological input), each followed by a space: every run
        // longer than a piece's word budget was planned by shaping a whole 16 KB window (6.7 s for 1 MB). Now
        // the window ends just past the run's end, found from the space after it.
        let text = (1..<700).map { String(repeating: "`", count: $0) + "a " }.joined()
        let n = text.utf8.count
        resetWork()
        LayoutWork.bytesMeasured = 0
        LayoutWork.unplannedBreaks = 0
        let l = layout(Fixture.paragraph(text))
        assertCoversText(l)
        XCTAssertGreaterThan(LayoutWork.bytesMeasured, n / 20, "the runs are planned")
        XCTAssertLessThan(Double(LayoutWork.bytesMeasured), 0.2 * Double(n))
        XCTAssertEqual(LayoutWork.unplannedBreaks, 0)
    }

    func testPlannedLinesAreWherePangoBreaks() {
        // A narrow column makes this text long enough for pieces; Pango's own layout of all of it is the reference.
        for (unit, code) in [("a", false), ("[ a_", false), ("\u{00E9}x\u{0301}", false), ("a", true), ("a_", true)] {
            var style = ParagraphStyle()
            if code { style.wrap = .char }
            let p = Fixture.paragraph(String(repeating: unit, count: 6_000 / unit.utf8.count), style: style)
            LayoutWork.unplannedBreaks = 0
            let pieces = layout(p, width: 150)
            var diagnostics: [Diagnostic] = []
            let whole = ParagraphLayout(single: p, columnWidth: 150, engine: .shared, images: ImageCache(),
                                        diagnostics: &diagnostics)
            XCTAssertNotNil(pieces.pieceSet, unit)
            assertCoversText(pieces)
            if !code {  // wrapped code's pieces start without the hanging indent (a line is longer there)
                XCTAssertEqual(pieces.lines.map(\.startIndex), whole.lines.map(\.startIndex), unit)
            }
            XCTAssertEqual(LayoutWork.unplannedBreaks, 0, unit)
        }
    }

    func testPlannedLinesInAColumnTwoLettersWideStayInIt() {
        // 14pt text without a break in a 19pt column (16 columns on A4) is one letter and a hyphen a line. Each
        // planned line made a Pango item of its own, and Pango set a whole next item beside a line when it fitted
        // without the hyphen that ending the line there then added: lines of two letters, 3-5pt past the edge.
        let width = 18.87
        for (unit, size) in [("abcdefghij", 14.0), ("abcdefghijklmnopqrstuvwxyz", 10.0)] {
            let p = Fixture.paragraph(String(repeating: unit, count: 20_000 / unit.utf8.count),
                                      attributes: Fixture.attributes(size: size))
            resetWork()
            LayoutWork.bytesMeasured = 0
            let pieces = layout(p, width: width)
            // Not planned where the letters do not pair up (a window is measured once, not for every piece), and
            // laid out by Pango in short pieces: each byte handed to it about once.
            XCTAssertLessThan(LayoutWork.bytesMeasured, 2 * 16_384 + 1_000, unit)
            XCTAssertLessThan(Double(LayoutWork.bytesLaidOut), 1.5 * 20_000, unit)
            var diagnostics: [Diagnostic] = []
            let whole = ParagraphLayout(single: Fixture.paragraph(String(repeating: unit, count: 2),
                                                                  attributes: Fixture.attributes(size: size)),
                                        columnWidth: width, engine: .shared, images: ImageCache(),
                                        diagnostics: &diagnostics)
            assertCoversText(pieces)
            XCTAssertTrue(pieces.lines.allSatisfy { $0.width <= width + 0.01 },
                          "\(unit): widest line \(pieces.lines.map(\.width).max() ?? 0)pt in a \(width)pt column")
            // The first lines are Pango's own, as in a layout of a little of the text without pieces.
            let n = min(whole.lines.count - 2, 12)
            XCTAssertEqual(Array(pieces.lines.prefix(n).map(\.startIndex)), Array(whole.lines.prefix(n).map(\.startIndex)), unit)
        }
    }

    func testTheQuickCheckNeverHidesAnUnbreakableStretch() {
        // Prose skips Pango's break analysis when a cheap byte test finds breaks; it must never skip a stretch.
        let language = pango_language_from_string("en")
        for unit in ["( a", "[ a_", "\" (a", "word ", "x* y", "'( a", "a ` b", "\u{201C} a", "a) b", "a, (b"] {
            let bytes = Array(String(repeating: unit, count: 3_000 / unit.utf8.count).utf8)
            let found = UnbreakableText.stretch(bytes, from: 0, upTo: bytes.count, minLength: 200, code: false,
                                                language: language)
            var expected: Range<Int>? = nil, last = 0
            for b in UnbreakableText.breaks(bytes, from: 0, upTo: bytes.count, code: false, language: language)
                + [bytes.count] where expected == nil {
                if b - last > 200 { expected = last..<b }
                last = b
            }
            XCTAssertEqual(found, expected, unit)
        }
    }

    func testLongWordBesideAnExclusionCostsLinearWork() throws {
        // Each line of a word too long for the space beside a shape laid out all the rest of the word again.
        var work: [Int] = []
        for n in [4_000, 16_000] {
            let doc = Fixture.document([.exclusion(Exclusion(shape: .circle(cx: 240, cy: 60, r: 50))),
                                        .paragraph(Fixture.paragraph(String(repeating: "x", count: n)))])
            resetWork()
            var characters = 0
            _ = try DocumentLayout.paginate(doc) { page in
                for line in page.lines { characters += line.box.length }
            }
            XCTAssertEqual(characters, n)
            work.append(LayoutWork.bytesLaidOut)
        }
        XCTAssertLessThan(Double(work[1]) / Double(work[0]), 6, "\(work)")
    }

    func testTextBesideACircleInNarrowColumnsLaysOutFewLinesPerBand() throws {
        // pipeline_fuzz: 162 KB of ragged words in 8 columns beside a circle on every page took 23 s. Beside the
        // curve each band has its own width, so a fragment layout serves one line; each was laid out for eight.
        var seed: UInt64 = 42
        func letter() -> Character {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Character(UnicodeScalar(UInt8(97 + (seed >> 33) % 26)))
        }
        // Words of 1 to 40 letters, most longer than a column is wide (two letters a line).
        let text = (0 ..< 300).map { k in String((0 ..< 1 + (k * 7) % 40).map { _ in letter() }) }.joined(separator: " ")
        // 2 cm margins: columns 13pt wide
        let characters = try bytesOnLinesBesideACircle(.paragraph(Fixture.paragraph(text)), cx: 93, cy: 86, columns: 8)
        XCTAssertEqual(characters, text.utf8.count, "every byte is on a line")
        let perByte = Double(LayoutWork.bytesLaidOut) / Double(text.utf8.count)
        XCTAssertLessThan(perByte, 10, "bytes laid out per byte of text (11.6 with eight-line layouts)")
    }

    func testAJustifiedLongWordBesideACircleLaysOutFewLinesPerBand() throws {
        // pipeline_fuzz: a 36,000-letter word in justified (total-fit) text beside a circle on small pages took
        // 6.4 s. Each band lays out a fragment of its own; its text was at least 256 bytes, a dozen narrow lines
        // of which the band used one.
        var style = ParagraphStyle()
        style.alignment = .justify
        style.hyphenate = true
        let text = String(repeating: "zbjbr", count: 600) + " abc def"
        let paragraph = Fixture.paragraph(text, style: style, attributes: Fixture.attributes(size: 14))
        let characters = try bytesOnLinesBesideACircle(.paragraph(paragraph), cx: 110, cy: 100, columns: 1)
        // Lines count the hyphens and line separators the breaker adds, never less than the text.
        XCTAssertGreaterThanOrEqual(characters, text.utf8.count, "every byte is on a line")
        let perByte = Double(LayoutWork.bytesLaidOut) / Double(text.utf8.count)
        XCTAssertLessThan(perByte, 25, "bytes laid out per byte of text (57 with 256-byte fragments, 17 now)")
    }

    func testLargeTypeInNarrowColumnsBesideACircleSizesFragmentsByTheirLines() throws {
        // pipeline_fuzz: 400 KB of 18pt words, some of 60,000 letters, in 3 narrow columns beside a circle, 8 s of
        // layout. A fragment layout's text was sized at 0.4 em a character; a long word broken two letters a line
        // with a hyphen gave 46 lines where 18 were asked, and Pango shapes the rest of a layout again per line.
        var seed: UInt64 = 7
        func letter() -> Character {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Character(UnicodeScalar(UInt8(97 + (seed >> 33) % 26)))
        }
        let words = (0 ..< 40).map { k in String((0 ..< 1 + (k * 11) % 37).map { _ in letter() }) }
        let text = (words.prefix(40) + [String(repeating: "q", count: 12_000)] + words.prefix(40)).joined(separator: " ")
        for justified in [false, true] {
            var style = ParagraphStyle()
            style.greedyBreaking = true
            if justified { style.alignment = .justify }
            let paragraph = Fixture.paragraph(text, style: style, attributes: Fixture.attributes(size: 18))
            var placed = 0
            let characters = try bytesOnLinesBesideACircle(.paragraph(paragraph), cx: 93, cy: 120, columns: 3,
                                                           lines: &placed)
            XCTAssertGreaterThanOrEqual(characters, text.utf8.count, "every byte is on a line")
            let perLine = Double(LayoutWork.linesLaidOut) / Double(placed)
            // 7.4 and 7.8 with the 0.4 em estimate; 5.4 and 6.3 sized by the lines the last layout showed.
            XCTAssertLessThan(perLine, 6.8, "lines laid out per line placed, justified \(justified)")
        }
    }

    /// Lays out `block` on 300 x 400pt pages with a circle of radius 85 on every page, after resetting the work
    /// counters; the bytes of all lines placed.
    private func bytesOnLinesBesideACircle(_ block: LayoutBlock, cx: Double, cy: Double, columns: Int) throws -> Int {
        var lines = 0
        return try bytesOnLinesBesideACircle(block, cx: cx, cy: cy, columns: columns, lines: &lines)
    }

    /// The same, and the number of lines placed.
    private func bytesOnLinesBesideACircle(_ block: LayoutBlock, cx: Double, cy: Double, columns: Int,
                                           lines: inout Int) throws -> Int {
        var doc = Fixture.document([.exclusion(Exclusion(shape: .circle(cx: cx, cy: cy, r: 85), pages: .all)), block],
                                   columns: columns)
        doc.page.width = 300
        doc.page.height = 400
        resetWork()
        var characters = 0
        var placed = 0
        _ = try DocumentLayout.paginate(doc) { page in
            placed += page.lines.count
            for line in page.lines { characters += line.box.length }
        }
        lines = placed
        return characters
    }

    func testLongWordAfterAShortOneBesideARectangleIsSetOnceAndWhole() throws {
        // pipeline_fuzz: beside an @exclude the first line came from a layout cut before the long word, taken to
        // end the paragraph (the word was lost); then each band moved down beside the rectangle laid the whole
        // word out again (190 tries a column, 13 s for 1,500 letters in 8 columns).
        let exclusion = Exclusion(shape: .rect(x: 0, y: 0, width: 0.4 * 481.89, height: 0.5 * 728.5))
        for n in [1_500, 2_100] {
            let text = "ab " + String(repeating: "x", count: n)
            let doc = Fixture.document([.exclusion(exclusion), .paragraph(Fixture.paragraph(text))], columns: 8)
            resetWork()
            var characters = 0
            _ = try DocumentLayout.paginate(doc) { page in
                for line in page.lines { characters += line.box.length }
            }
            XCTAssertEqual(characters, text.utf8.count, "every byte is on a line")
            XCTAssertLessThan(LayoutWork.bytesLaidOut, 100 * n, "bytes laid out for \(n) letters")
        }
    }

    func testALongWordInNarrowColumnsBesideATriangleLaysOutLittlePerLine() throws {
        // pipeline_fuzz: 71 KB with a 50,000-letter word in 12 columns at 24pt beside a triangle on every page, 292
        // pages: 6.2 s, ten times the same word without the triangle. Each band laid out 64 bytes (some thirty
        // lines of two letters, Pango shaping the rest again for each) and measured 256 bytes of the word to
        // find it wider than the column, for a line of two letters.
        let width = 481.89, height = 728.5  // the content box of the fixture's A4 page
        let triangle = FlowShape.polygon([0, 0, width, 0, width / 2, 0.4 * height])
        let text = String(repeating: "abcdefghijklmnopqrstuvwxyz", count: 160)
        let doc = Fixture.document([.exclusion(Exclusion(shape: triangle, pages: .all, margin: 4)),
                                    .paragraph(Fixture.paragraph(text, attributes: Fixture.attributes(size: 24)))],
                                   columns: 12)
        resetWork()
        var characters = 0, lines = 0
        _ = try DocumentLayout.paginate(doc) { page in
            for line in page.lines { characters += line.box.length }
            lines += page.lines.count
        }
        XCTAssertEqual(characters, text.utf8.count, "every byte is on a line")
        XCTAssertGreaterThan(lines, text.utf8.count / 4, "a few letters a line")
        let perByte = Double(LayoutWork.bytesLaidOut) / Double(text.utf8.count)
        XCTAssertLessThan(perByte, 12, "bytes laid out per byte of text (25 with those, 8 now)")
    }

    func testThePageLimitCountsEveryPage() throws {
        var style = ParagraphStyle()
        style.breakBefore = .page
        let blocks = (0...DocumentLayout.maxPages).map { _ in LayoutBlock.paragraph(Fixture.paragraph("x", style: style)) }
        var pages = 0
        let summary = try DocumentLayout.paginate(Fixture.document(blocks)) { _ in pages += 1 }
        XCTAssertGreaterThanOrEqual(pages, DocumentLayout.maxPages - 1)  // the page at the limit is not finished
        XCTAssertLessThanOrEqual(pages, DocumentLayout.maxPages)
        let errors = summary.diagnostics.filter { $0.severity == .error }
        XCTAssertEqual(errors.count, 1)
        XCTAssertTrue(errors.first?.message.contains("\(DocumentLayout.maxPages) pages") ?? false, "\(errors)")
    }

    func testAnExclusionOverEveryPageIsAnErrorAtIt() throws {
        let here = SourceLocation(file: "doc.rt", line: 3, column: 1)
        let doc = Fixture.document([
            .exclusion(Exclusion(shape: .rect(x: 0, y: 0, width: 481.89, height: 728.5), pages: .all, location: here)),
            .paragraph(Fixture.paragraph(String(repeating: "word ", count: 2_000))),
        ])
        var drawn = 0
        let summary = try DocumentLayout.paginate(doc) { page in drawn += page.lines.count }
        XCTAssertEqual(drawn, 0, "no line is drawn inside the exclusion")
        let errors = summary.diagnostics.filter { $0.severity == .error }
        XCTAssertEqual(errors.map(\.location), [here])
        XCTAssertLessThanOrEqual(summary.pageCount, 2)
    }

    func testLinesLeftAfterAnOffsetMatchesACountOfEveryLine() {
        // The widow check beside shapes searches the lines (FlowDecorations.swift); count them all to compare.
        let short = Fixture.paragraph(String(repeating: "word and more words ", count: 40))
        let long = Fixture.paragraph(String(repeating: "a", count: 6_000))  // narrow: a paragraph in pieces
        for (p, width) in [(short, 120.0), (long, 150.0)] {
            let l = layout(p, width: width)
            let starts = l.lines.map { l.sourceOffset($0.startIndex) }
            XCTAssertGreaterThan(starts.count, 10)
            let bytes = p.text.utf8.count
            for offset in [0, 1, starts[3], starts[3] + 1, bytes / 2, starts[starts.count - 2], bytes - 1, bytes] {
                let all = starts.filter { $0 >= offset }.count
                for cap in [1, 2, 3, 1_000_000] {
                    XCTAssertEqual(l.linesLeft(after: offset, atMost: cap), min(all, cap), "offset \(offset) cap \(cap)")
                }
            }
        }
    }
}
