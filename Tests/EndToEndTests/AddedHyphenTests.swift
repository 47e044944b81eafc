// A hyphen the line breaker adds is drawn where it always was but reads as nothing (`/ActualText ()`), so
// copied text and screen readers get the word whole; a hyphen typed in the source stays in the text.

import Foundation
import XCTest

final class AddedHyphenTests: XCTestCase {
    private let hyphenated = "---\njustify: true\nhyphenate: true\npage: 200pt x 400pt\nmargin: 20pt\n---\n"
        + "The internationalization of typesetting infrastructure demonstrates extraordinary responsibilities, "
        + "unquestionably characteristic of contemporary documentation.\n"

    private func build(_ source: String, untagged: Bool = false, name: String = #function) throws -> String {
        try Harness.typesetSource(source, name: name + (untagged ? "u" : "t"),
                                  environment: untagged ? ["TYPESET_UNTAGGED": "1"] : [:])
    }

    func testAddedHyphenIsDrawnInPlaceButNotCopied() throws {
        let tagged = try build(hyphenated), untagged = try build(hyphenated, untagged: true)
        // `-raw`: pdftotext's own dehyphenation (default mode) would hide the hyphen either way.
        let plain = try PDF.tool("pdftotext", ["-raw", untagged, "-"])
        XCTAssertTrue(plain.contains("-\n"), "the paragraph is not hyphenated: \(plain)")
        let copied = try PDF.tool("pdftotext", ["-raw", tagged, "-"])
        XCTAssertFalse(copied.contains("-"), copied)
        // The halves of a word are on two lines, with nothing but the line break between them.
        let joined = copied.replacingOccurrences(of: "\n", with: "")
        for word in ["internationalization", "typesetting", "infrastructure", "demonstrates", "extraordinary",
                     "responsibilities", "unquestionably", "characteristic", "contemporary", "documentation"] {
            XCTAssertTrue(joined.contains(word), "'\(word)' not whole in: \(copied)")
        }
        let content = try PDF.tool("qpdf", ["--qdf", "--object-streams=disable", tagged, "-"])
        XCTAssertTrue(content.contains("/ActualText () >> BDC\n[(-)]TJ\n"), "no silent hyphen span")
        // The hyphens are still drawn, each glyph exactly where the untagged file draws it.
        let a = try PDF.glyphs(tagged), b = try PDF.glyphs(untagged)
        XCTAssertEqual(a.count, b.count)
        XCTAssertGreaterThan(a.filter { $0.0 == "-" }.count, 0)
        XCTAssertEqual(a.filter { $0.0 == "-" }.count, b.filter { $0.0 == "-" }.count)
        for (g, h) in zip(a, b) {
            XCTAssertEqual(g.0, h.0)
            XCTAssertEqual(g.1, h.1, accuracy: 0.01, "'\(g.0)' moved")
            XCTAssertEqual(g.2, h.2, accuracy: 0.01, "'\(g.0)' moved")
        }
    }

    /// The lines before an added hyphen share its marked-content sequence, which the hyphen ends: a paragraph
    /// has one sequence per added hyphen and one after the last (cairo keeps a node for every sequence until
    /// the file is finished; each hyphenated line used to be a sequence of its own, between two others).
    func testLinesUpToAnAddedHyphenShareOneSequence() throws {
        let narrow = hyphenated.replacingOccurrences(of: "page: 200pt", with: "page: 150pt")
        let pdf = try build(narrow)
        let content = try PDF.tool("qpdf", ["--qdf", "--object-streams=disable", pdf, "-"])
        let hyphens = content.components(separatedBy: "/ActualText () >> BDC").count - 1
        let sequences = content.components(separatedBy: "/P << /MCID ").count - 1
        XCTAssertGreaterThanOrEqual(hyphens, 2, "the paragraph should break words at two line ends at least")
        XCTAssertEqual(sequences, hyphens + 1)
        let copied = try PDF.tool("pdftotext", ["-raw", pdf, "-"]).replacingOccurrences(of: "\n", with: " ")
        XCTAssertFalse(copied.contains("-"), copied)
    }

    /// Ragged lines end in a plain string (`(... un-)Tj`), and a long paragraph is laid out in pieces: their added
    /// hyphens read as nothing too, drawn where they were.
    func testAddedHyphensOfRaggedAndLongParagraphsAreNotCopied() throws {
        var seed: UInt64 = 7
        let words = ["internationalization", "typesetting", "infrastructure", "demonstrates", "extraordinary",
                     "responsibilities", "unquestionably", "characteristic", "contemporary", "documentation", "of"]
        func next() -> String {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return words[Int((seed >> 33) % UInt64(words.count))]
        }
        let long = (0 ..< 1_500).map { _ in next() }.joined(separator: " ")
        for justify in ["false", "true"] {
            let source = "---\njustify: \(justify)\nhyphenate: true\ncolumns: 2\n---\n\n\(long)\n"
            let tagged = try build(source, name: "long-\(justify)")
            let untagged = try build(source, untagged: true, name: "long-\(justify)")
            let plain = try PDF.tool("pdftotext", ["-raw", untagged, "-"])
            XCTAssertGreaterThan(plain.components(separatedBy: "-\n").count, 20, "justify \(justify): few hyphens")
            let copied = try PDF.tool("pdftotext", ["-raw", tagged, "-"])
            XCTAssertFalse(copied.contains("-"), "justify \(justify): an added hyphen is copied")
            XCTAssertEqual(copied.replacingOccurrences(of: "\n", with: ""),
                           plain.replacingOccurrences(of: "-\n", with: "").replacingOccurrences(of: "\n", with: ""))
            let a = try PDF.glyphs(tagged), b = try PDF.glyphs(untagged)
            XCTAssertEqual(a.count, b.count)
            XCTAssertFalse(zip(a, b).contains { $0.0 != $1.0 || abs($0.1 - $1.1) > 0.01 || abs($0.2 - $1.2) > 0.01 },
                           "justify \(justify): a glyph moved")
        }
    }

    /// A word broken at a soft hyphen the author typed (U+00AD, `&shy;`) shows a hyphen at the line's end, in
    /// justified text as in ragged: the total-fit breaker took the break at no width and added no hyphen, so
    /// "Donaudampf|schifffahrts" was split with nothing to show it. Copied, the word is whole.
    func testASoftHyphenBreakShowsAHyphen() throws {
        let word = "Donau&shy;dampf&shy;schiff&shy;fahrts&shy;gesell&shy;schaft"
        for justify in ["true", "false"] {
            let source = "---\njustify: \(justify)\npage: 140pt x 400pt\nmargin: 20pt\n---\n\n"
                + Array(repeating: word, count: 6).joined(separator: " ") + "\n"
            // The glyphs drawn, line by line (Pango draws the soft hyphen itself at a break, as "\u{00AD}").
            var lines: [Double: String] = [:]
            for (text, _, y) in try PDF.glyphs(try build(source, untagged: true, name: "shy-\(justify)")) {
                lines[(y * 10).rounded() / 10, default: ""] += text
            }
            let broken = lines.values.filter { !$0.hasSuffix("schaft") }
            XCTAssertGreaterThan(broken.count, 4, "justify \(justify): \(lines)")
            for line in broken {
                XCTAssertTrue(line.hasSuffix("-") || line.hasSuffix("\u{00AD}"), "justify \(justify): \(line)")
            }
            let copied = try PDF.tool("pdftotext", ["-raw", try build(source, name: "shy-\(justify)"), "-"])
            XCTAssertFalse(copied.contains("-"), "justify \(justify): a hyphen is copied: \(copied)")
        }
    }

    /// A soft hyphen the font ligates across ("f&shy;fl" is one "ffl" glyph) offers no break: the breaker
    /// measured the line before it with the whole ligature and the line after without its letters, and
    /// "fldf qxns" was set 8pt past its column (8 columns at 14pt, found by the column check).
    func testASoftHyphenInsideALigatureIsNoBreak() throws {
        for justify in ["true", "false"] {
            let source = "---\ncolumns: 8\njustify: \(justify)\nhyphenate: \(justify == "false")\nfont-size: 14pt\n---\n\n"
                + "hfqf&shy;fldf qxns lhaoljip abc hfqf&shy;fldf qxns\n"
            let pdf = try build(source, name: "shy-ligature-\(justify)")
            let column = (595.28 - 2 * 56.69 - 7 * 12) / 8
            let words = try PDF.words(pdf)
            XCTAssertFalse(words.isEmpty)
            for w in words {
                let k = (((w.xMin + w.xMax) / 2 - 56.69 + 6) / (column + 12)).rounded(.down)
                let right = 56.69 + k * (column + 12) + column
                XCTAssertLessThanOrEqual(w.xMax, right + 1, "justify \(justify): \(w.text) ends at \(w.xMax)")
            }
        }
    }

    /// Broken after a hyphen typed in the source, the hyphen is part of the text.
    func testTypedHyphenAtALineEndStaysInTheText() throws {
        let text = (1...12).map { _ in "well-known state-of-the-art" }.joined(separator: " ")
        let source = "---\njustify: true\nhyphenate: true\npage: 120pt x 400pt\nmargin: 20pt\n---\n" + text + "\n"
        let pdf = try build(source)
        let copied = try PDF.tool("pdftotext", ["-raw", pdf, "-"])
        // Lines end after typed hyphens ("well-", "state-", "the-"), and every hyphen is copied: joined again
        // (a line ending in a hyphen joins the next directly, any other with a space), the lines are the source.
        XCTAssertGreaterThan(copied.components(separatedBy: "-\n").count, 6, copied)
        let joined = copied.trimmingCharacters(in: .whitespacesAndNewlines)
            .replacingOccurrences(of: "-\n", with: "-").replacingOccurrences(of: "\n", with: " ")
        XCTAssertEqual(joined, text)
        let content = try PDF.tool("qpdf", ["--qdf", "--object-streams=disable", pdf, "-"])
        XCTAssertFalse(content.contains("/ActualText ()"))
    }
}
