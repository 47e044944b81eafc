import Foundation
import XCTest

/// Font expansion through the language: which blocks get it (issue 13), read from the PDF's text matrices.
final class MicrotypeEndToEndTests: XCTestCase {
    private static let prose = """
        The committee examined the considerable development of the railway while the engineer recorded every \
        remarkable measurement of the temperature near the harbour. A preliminary investigation demonstrated \
        that the organisation of the district was responsible for the extraordinary arrangement of the \
        correspondence, although the manufacturer acknowledged the difficulty.
        """

    /// A list item's first line holds its marker's tab, and justification expands no line with a tab: the
    /// breaker must not plan it as if it could narrow by 2%. "editor" ended 3.7pt past the first of two
    /// columns (a README's list; the benchmark report's lists too).
    func testAListItemsFirstLineStaysInsideItsColumn() throws {
        let pdf = try Harness.typesetSource("""
            ---
            columns: 2
            justify: true
            hyphenate: true
            ---

            ## Some other features

            - Opens urls in terminal using browser specified by the variable `$BROWSER`
            - Opens C, C++, Tex and text files using editor specified by the variable `$EDITOR`
            - Opens images with an image viewer specified by the variable `$XIVIEWER`
            - Opens videos and other media using mplayer

            """)
        let words = try PDF.words(pdf)
        XCTAssertTrue(words.contains { $0.text.hasPrefix("Opens") }, "\(words.map(\.text))")
        let column = (595.28 - 2 * 56.69 - 12) / 2
        for w in words where w.xMin < 56.69 + column {
            XCTAssertLessThanOrEqual(w.xMax, 56.69 + column + 0.5, "\(w.text) ends at \(w.xMax)")
        }
    }

    /// A left-to-right line with a Hebrew word in it is expanded like any other: the breaker planned such lines
    /// with the expansion, and justification left them unexpanded, up to 3.7pt past the column.
    func testLinesWithARightToLeftWordStayInsideTheirColumn() throws {
        var words: [String] = []
        for k in 0..<700 {
            words.append(k % 13 == 5 ? ["שלום", "עולם", "ספר"][k % 3]
                         : String(repeating: ["ab", "cde", "fg", "hijk"][k % 4], count: 1 + k % 3))
        }
        let pdf = try Harness.typesetSource("---\ncolumns: 2\njustify: true\nhyphenate: true\n---\n\n"
                                            + words.joined(separator: " ") + "\n")
        let column = (595.28 - 2 * 56.69 - 12) / 2
        let found = try PDF.words(pdf)
        XCTAssertTrue(found.contains { $0.text.unicodeScalars.contains { (0x5D0...0x5EA).contains($0.value) } })
        for w in found {
            let right = w.xMin < 56.69 + column ? 56.69 + column : 595.28 - 56.69
            XCTAssertLessThanOrEqual(w.xMax, right + 0.5, "\(w.text) ends at \(w.xMax)")
        }
    }

    /// Spaces that start a line take no room: the breaker plans a line without them, and a paragraph that
    /// opens with inline code of a space (`` ` ` ``) drew it, pushing its first word 4.2pt past the column.
    func testSpacesThatStartALineTakeNoRoom() throws {
        let pdf = try Harness.typesetSource("""
            ---
            columns: 6
            justify: true
            font-size: 12pt
            ---

            ` ` dlaflnldndc and then some more words follow here to make a paragraph of several lines.

            """)
        let column = (595.28 - 2 * 56.69 - 5 * 12) / 6
        let words = try PDF.words(pdf)
        let first = try XCTUnwrap(words.first { $0.text == "dlaflnldndc" })
        XCTAssertEqual(first.xMin, 56.69, accuracy: 0.5, "the first word starts at the column's edge")
        for w in words where w.xMin < 56.69 + column {
            XCTAssertLessThanOrEqual(w.xMax, 56.69 + column + 0.5, "\(w.text) ends at \(w.xMax)")
        }
    }

    /// A centred or right-aligned line that ends in two spaces (a space, then inline code's own) is aligned as if
    /// they took no room: Pango gives no width to the last one only, and the other pushed lines as wide as the
    /// column up to 3pt left of it.
    func testSpacesThatEndALineDoNotPushAnAlignedLinePastTheColumn() throws {
        // Words of 8 letters that fit the column, some with one space beside them but not with two.
        let words = ["amubrhat", "ekbdrhqq", "zouqaplz", "rlnaubkt", "tgpsqxrz", "ueqilhxc", "vphrjhqz", "qtuotjhb"]
        let body = words.map { $0 + " ` code`" }.joined(separator: " ")
        let column = (595.28 - 2 * 56.69 - 5 * 12) / 6
        for alignment in ["center", "right"] {
            let pdf = try Harness.typesetSource("""
                ---
                columns: 6
                font-size: 14pt
                ---

                {align=\(alignment)}
                \(body)

                """)
            let words = try PDF.words(pdf)
            XCTAssertEqual(words.filter { $0.text.count == 8 }.count, 8, "every long word is drawn whole")
            // 1pt: what a letter may hang out of its column (optical margins).
            for w in words {
                let k = ((w.xMin + w.xMax) / 2 - 56.69 + 6) / (column + 12)
                let left = 56.69 + k.rounded(.down) * (column + 12)
                XCTAssertGreaterThanOrEqual(w.xMin, left - 1, "\(alignment): \(w.text) starts at \(w.xMin)")
                XCTAssertLessThanOrEqual(w.xMax, left + column + 1, "\(alignment): \(w.text) ends at \(w.xMax)")
            }
        }
    }

    /// Pango 1.50 broke a word whose font changes without a space (inline code, then text) at the change with a
    /// hyphen whose width it did not reserve: "gdzbcqluiild-" set 18pt past its column at 40pt, a centred line
    /// past both edges. The break is made without a hyphen.
    func testAHyphenPangoInsertsAtAFontChangeStaysInTheColumn() throws {
        let text = "ko d `gdzbcqluiild`xtoy abc"
        let pdf = try Harness.typesetSource("""
            ---
            columns: 2
            font-size: 40pt
            margin: 1cm
            ---

            {line-breaking=greedy}
            \(text)

            {align=center}
            \(text)

            """)
        let column = (595.28 - 2 * 28.35 - 12) / 2
        let glyphs = try PDF.glyphs(pdf)
        XCTAssertEqual(glyphs.filter { $0.0 == "g" }.count, 2, "both paragraphs are drawn")
        XCTAssertFalse(glyphs.contains { $0.0 == "\u{2010}" || $0.0 == "-" }, "no hyphen is drawn")
        for (glyph, x, _) in glyphs {
            let k = ((x - 28.35 + 6) / (column + 12)).rounded(.down)
            let left = 28.35 + k * (column + 12)
            XCTAssertGreaterThanOrEqual(x, left - 1, "\(glyph) starts at \(x), left of its column")
            XCTAssertLessThanOrEqual(x, left + column, "\(glyph) starts at \(x), past its column")
        }
    }

    /// A right-to-left list item in eight columns (its lines right-aligned): one line came out wider than its
    /// width (a word broken between Arabic letters takes other forms than the breaker planned with), and
    /// Pango, aligning the lines against the widest one, set every other line of the paragraph 6pt past the
    /// column's right edge. They end at the edge; the check allows 1pt, what a letter may hang out.
    func testRightAlignedLinesEndAtTheColumnWhenOneLineIsTooWide() throws {
        let pdf = try Harness.typesetSource("""
            ---
            columns: 8
            justify: true
            font-size: 12pt
            ---

            1. العالم كتاب مكتبة hello بالعالم مرحبا hello بالعالمين العالم العالم hello hello abc كتاب العالم كتاب abc مرحبا بالعالم كتاب مرحبا بالعالمين مرحبا بالعالمين hello abc abc abc hello كتاب مكتبة بالعالم مرحبا كتاب hello العالم بالعالمين abc بالعالمين abc abc مكتبة abc العالم مكتبة مرحبا بالعالمين كتاب مكتبة بالعالم العالم بالعالمين بالعالمين بالعالم بالعالم hello hello بالعالم مكتبة بالعالم

            """)
        let column = (595.28 - 2 * 56.69 - 7 * 12) / 8
        let words = try PDF.words(pdf)
        XCTAssertGreaterThan(words.count, 40)
        var past = 0
        for w in words {
            let k = (((w.xMin + w.xMax) / 2 - 56.69 + 6) / (column + 12)).rounded(.down)
            if w.xMax > 56.69 + k * (column + 12) + column + 1 { past += 1 }
        }
        XCTAssertLessThanOrEqual(past, 1, "at most the one line that is too wide ends past its column")
    }

    /// Body text expands; headings, code blocks and a paragraph with `expansion-limit=0` do not.
    func testHeadingsCodeAndALimitOfZeroAreNotExpanded() throws {
        let pdf = try Harness.typesetSource("""
            ---
            justify: true
            hyphenate: true
            ---
            # A heading long enough to need two lines in this column, with words of every kind and length

            \(Self.prose)

            ```
            let configuration = Configuration(width: 400, height: 300, justified: true, hyphenated: true, expanded: false)
            ```

            {expansion-limit=0}
            \(Self.prose.replacingOccurrences(of: "committee", with: "council"))

            """)
        let origins = try TextOrigins.read(pdf)
        let words = try PDF.words(pdf)
        func scales(near word: String) throws -> [Double] {
            let w = try XCTUnwrap(words.first { $0.text == word }, word)
            return origins.filter { $0.y > w.yMin - 1 && $0.y < w.yMax + 1 }.map(\.scale)
        }
        let body = try scales(near: "committee") + scales(near: "organisation")
        XCTAssertFalse(body.isEmpty)
        XCTAssertTrue(origins.contains { abs($0.scale - 1) > 0.001 }, "body text is expanded somewhere")
        for word in ["heading", "kind", "configuration", "council"] {
            let near = try scales(near: word)
            XCTAssertFalse(near.isEmpty, word)
            XCTAssertTrue(near.allSatisfy { $0 == 1 }, "\(word): \(near)")
        }
        XCTAssertTrue(origins.allSatisfy { abs($0.scale - 1) <= 0.02 + 1e-6 })
    }

    func testBadExpansionLimitIsReported() throws {
        let dir = try Harness.scratch()
        try Harness.write("{expansion-limit=12%}\nText.\n", to: dir + "/doc.rt")
        let result = try Harness.typeset([dir + "/doc.rt", "-o", dir + "/doc.pdf"])
        XCTAssertTrue(result.stderr.contains("expansion-limit"), result.stderr)
        XCTAssertTrue(result.stderr.contains("doc.rt:1:"), result.stderr)
    }
}

/// Where Cairo starts each text line (`Tm`, or `Td` from the current matrix) and its horizontal scale
/// (a / |d| of the text matrix: 1.02 is 2% expansion), y down from the page top.
enum TextOrigins {
    struct Origin { var page: Int; var x: Double; var y: Double; var scale: Double }

    static func read(_ pdf: String) throws -> [Origin] {
        let qdf = pdf + ".qdf.pdf"
        _ = try Harness.run("qpdf", ["--qdf", "--object-streams=disable", pdf, qdf])
        let data = String(decoding: try Data(contentsOf: URL(fileURLWithPath: qdf)), as: UTF8.self)
        var result: [Origin] = []
        var page = 0
        var m = [1.0, 0, 0, 1, 0, 0]
        for line in data.split(separator: "\n") {
            if line.hasPrefix("%% Contents for page") {
                page = Int(line.split(separator: " ").last ?? "") ?? page
                continue
            }
            let tokens = line.split(separator: " ")
            guard page > 0, let op = tokens.last, op == "Tm" || op == "Td" else { continue }
            let numbers = tokens.dropLast().compactMap { Double($0) }
            if op == "Tm", numbers.count == 6 {
                m = numbers
            } else if op == "Td", numbers.count == 2 {
                m[4] += numbers[0] * m[0] + numbers[1] * m[2]
                m[5] += numbers[0] * m[1] + numbers[1] * m[3]
            } else {
                continue
            }
            if m[3] != 0 { result.append(Origin(page: page, x: m[4], y: m[5], scale: abs(m[0] / m[3]))) }
        }
        return result
    }
}
