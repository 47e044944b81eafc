// What a reader sees in the PDF: text, faces, links, bookmarks, metadata, pages, positions.

import Foundation
import XCTest

final class DocumentOutputTests: XCTestCase {
    func testFacesAreRealAndEmbedded() throws {
        let pdf = try Harness.typesetSource("Plain **bold** *italic* `mono` text.\n")
        let fonts = try PDF.fonts(pdf)
        let names = fonts.map(\.name).joined(separator: " ")
        for face in ["DejaVuSerif", "DejaVuSerif-Bold", "DejaVuSerif-Italic", "DejaVuSansMono"] {
            XCTAssertTrue(fonts.contains { $0.name.hasSuffix("+" + face) || $0.name == face }, "missing \(face) in \(names)")
        }
        XCTAssertTrue(fonts.allSatisfy(\.embedded), "every font embedded: \(fonts)")
        XCTAssertTrue(try PDF.text(pdf).contains("Plain bold italic mono text."))
    }

    func testBodyTextIsTenPoint() throws {
        let pdf = try Harness.typesetSource("Measure me please.\n")
        let word = try XCTUnwrap(try PDF.words(pdf).first { $0.text == "Measure" })
        // DejaVu Serif at 10pt: ascent+descent about 11.6pt (poppler's box is the font bbox height).
        XCTAssertEqual(word.yMax - word.yMin, 11.6, accuracy: 1.2, "text is not set at 10pt")
    }

    func testMetadataFromFrontMatter() throws {
        let pdf = try Harness.typesetSource("---\ntitle: Annual Report\nauthor: Ada Lovelace\nsubject: Engines\nkeywords: one, two\n---\nBody.\n")
        let info = try PDF.info(pdf)
        XCTAssertEqual(info["Title"], "Annual Report")
        XCTAssertEqual(info["Author"], "Ada Lovelace")
        XCTAssertEqual(info["Subject"], "Engines")
    }

    /// Dates are PDF date strings with the `D:` prefix (cairo 1.16 leaves it out), fixed by SOURCE_DATE_EPOCH.
    func testDatesHaveTheDPrefixAndFollowSourceDateEpoch() throws {
        let dir = try Harness.scratch()
        try Harness.write("---\ntitle: Dated\n---\nBody.\n", to: dir + "/doc.rt")
        let result = try Harness.typeset(["doc.rt"], environment: ["SOURCE_DATE_EPOCH": "1700000000"], cwd: dir)
        XCTAssertEqual(result.status, 0, result.stderr)
        let json = try PDF.tool("qpdf", ["--json", "--json-key=qpdf", dir + "/doc.pdf"])
        XCTAssertTrue(json.contains("\"/CreationDate\": \"u:D:20231114221320Z\""), json)
        XCTAssertTrue(json.contains("\"/ModDate\": \"u:D:20231114221320Z\""), json)
        XCTAssertEqual(try PDF.tool("pdfinfo", ["-isodates", dir + "/doc.pdf"]).contains("2023-11-14T22:13:20Z"), true)
    }

    func testExternalLinksAreAnnotations() throws {
        let pdf = try Harness.typesetSource("See [the site](https://example.org/a) and <https://example.com/b>.\n")
        let objects = try PDF.objects(pdf)
        XCTAssertTrue(objects.contains("(https://example.org/a)"), "link URI missing")
        XCTAssertTrue(objects.contains("(https://example.com/b)"), "autolink URI missing")
        XCTAssertTrue(objects.contains("/Subtype /Link"))
    }

    func testWrappedLinkIsClickableOnBothLines() throws {
        let filler = String(repeating: "word ", count: 12)
        let pdf = try Harness.typesetSource("\(filler)[a link whose words are long enough to wrap across the line end for sure](https://wrap.example/x) after.\n")
        let words = try PDF.words(pdf)
        let first = try XCTUnwrap(words.first { $0.text == "link" })
        let last = try XCTUnwrap(words.first { $0.text == "sure" })
        XCTAssertGreaterThan(last.yMin, first.yMin + 5, "the link text should wrap onto a second line")
        let rects = try linkRects(pdf, uri: "https://wrap.example/x")
        func covered(_ w: PDF.Word, height: Double) -> Bool {
            let (cx, cy) = ((w.xMin + w.xMax) / 2, height - (w.yMin + w.yMax) / 2)
            return rects.contains { $0.0 <= cx && cx <= $0.2 && $0.1 <= cy && cy <= $0.3 }
        }
        let pageHeight = 841.89
        XCTAssertTrue(covered(first, height: pageHeight), "first line of the link not clickable: \(rects)")
        XCTAssertTrue(covered(last, height: pageHeight), "second line of the link not clickable: \(rects)")
    }

    func testHeadingsBecomeNestedBookmarksAndInternalLinksWork() throws {
        var source = "# Alpha\n\nGo to [the end](#omega-part).\n\n## Alpha Two\n\nText.\n\n@pagebreak\n\n"
        source += "# Omega Part\n\nBack to [alpha](#alpha).\n"
        let pdf = try Harness.typesetSource(source)
        XCTAssertEqual(try PDF.pageCount(pdf), 2)
        let objects = try PDF.objects(pdf)
        for title in ["(Alpha)", "(Alpha Two)", "(Omega Part)"] {
            XCTAssertTrue(objects.contains("/Title \(title)"), "bookmark \(title) missing")
        }
        XCTAssertTrue(objects.contains("/Count"), "outline has no counts (not nested?)")
        // Named destinations for both ids, and links that use them.
        XCTAssertTrue(objects.contains("(omega-part)"), "destination omega-part missing")
        XCTAssertTrue(objects.contains("(alpha)"), "destination alpha missing")
        let outline = try PDF.tool("mutool", ["show", pdf, "outline"])
        XCTAssertTrue(outline.contains("Alpha Two"), outline)
        let alphaTwo = try XCTUnwrap(outline.split(separator: "\n").first { $0.contains("Alpha Two") })
        let alpha = try XCTUnwrap(outline.split(separator: "\n").first { $0.contains("\"Alpha\"") })
        XCTAssertGreaterThan(alphaTwo.prefix { $0 == " " || $0 == "\t" || $0 == "+" || $0 == "|" || $0 == "-" }.count,
                             alpha.prefix { $0 == " " || $0 == "\t" || $0 == "+" || $0 == "|" || $0 == "-" }.count,
                             "Alpha Two should be nested under Alpha:\n\(outline)")
        let omega = try XCTUnwrap(outline.split(separator: "\n").first { $0.contains("Omega") })
        XCTAssertTrue(omega.contains("#2") || omega.contains("page=2") || omega.contains("\t2"), "Omega should point at page 2: \(omega)")
    }

    func testLongDocumentFlowsOverPagesWithinMargins() throws {
        var source = "---\ntitle: Long\nmargin: 2cm\n---\n"
        for i in 1...40 {
            source += "## Section \(i)\n\n"
            source += String(repeating: "The quick brown fox jumps over the lazy dog near the riverbank. ", count: 12) + "\n\n"
            source += "- first point of section \(i), long enough to wrap onto a second line in the column for sure, yes indeed\n- second point\n\n"
        }
        let pdf = try Harness.typesetSource(source)
        let pages = try PDF.pageCount(pdf)
        XCTAssertGreaterThan(pages, 5)
        let words = try PDF.words(pdf)
        let margin = 56.69
        for w in words {
            XCTAssertGreaterThanOrEqual(w.xMin, margin - 1, "word \(w.text) left of the margin on page \(w.page)")
            XCTAssertLessThanOrEqual(w.xMax, 595.28 - margin + 1, "word \(w.text) past the right margin on page \(w.page)")
            XCTAssertGreaterThanOrEqual(w.yMin, margin - 3, "word \(w.text) in the top margin on page \(w.page)")
            XCTAssertLessThanOrEqual(w.yMax, 841.89 - margin + 3, "word \(w.text) in the bottom margin on page \(w.page)")
        }
        XCTAssertEqual(Set(words.filter { $0.text == "Section" }.map(\.page)).count > 5, true)
        XCTAssertTrue(try PDF.text(pdf).contains("Section 40"))
    }

    func testListItemsHangAtTheTextEdge() throws {
        let long = String(repeating: "hanging indent text ", count: 12)
        let pdf = try Harness.typesetSource("- \(long)\n- short\n\n1. \(long)\n")
        let words = try PDF.words(pdf)
        let bullet = try XCTUnwrap(words.first { $0.text == "•" })
        let firstItem = words.filter { $0.text == "hanging" || $0.text == "indent" || $0.text == "text" }
        XCTAssertGreaterThan(firstItem.map(\.xMin).min()!, bullet.xMax, "item text starts after the bullet")
        // Wrapped lines of the first item start where its first line's text starts (not under the marker).
        let firstLineY = words.first { $0.text == "hanging" }!.yMin
        let firstTextX = words.filter { abs($0.yMin - firstLineY) < 1 && $0.text != "•" }.map(\.xMin).min()!
        let secondLine = words.filter { $0.yMin > firstLineY + 5 && $0.yMin < firstLineY + 20 }
        XCTAssertFalse(secondLine.isEmpty)
        XCTAssertEqual(secondLine.map(\.xMin).min()!, firstTextX, accuracy: 1.0, "wrapped line should hang at the text edge")
    }

    func testJustifiedTextReachesTheRightEdge() throws {
        let text = String(repeating: "Justified paragraphs spread their words to both margins evenly. ", count: 8)
        let pdf = try Harness.typesetSource("---\njustify: true\n---\n\(text)\n")
        let words = try PDF.words(pdf)
        let rows = Dictionary(grouping: words, by: { ($0.yMin * 2).rounded() }).sorted { $0.key < $1.key }
        XCTAssertGreaterThan(rows.count, 2)
        for (_, row) in rows.dropLast() {
            // A line ending in a period hangs it 70% into the margin (protrusion): 2.2pt.
            let hang = row.max { $0.xMax < $1.xMax }!.text.hasSuffix(".") ? 0.7 * 3.18 : 0
            XCTAssertEqual(row.map(\.xMax).max()!, 595.28 - 56.69 + hang, accuracy: 1.0, "full lines end at the right margin")
        }
        XCTAssertLessThan(rows.last!.value.map(\.xMax).max()!, 595.28 - 56.69 - 20, "last line is not stretched")
    }

    func testCenteredAndRightAlignedParagraphs() throws {
        let pdf = try Harness.typesetSource("{align=center}\nMiddle\n\n{align=right}\nRightmost\n")
        let words = try PDF.words(pdf)
        let mid = try XCTUnwrap(words.first { $0.text == "Middle" })
        XCTAssertEqual((mid.xMin + mid.xMax) / 2, 595.28 / 2, accuracy: 1.0)
        let right = try XCTUnwrap(words.first { $0.text == "Rightmost" })
        XCTAssertEqual(right.xMax, 595.28 - 56.69, accuracy: 1.0)
    }

    func testPageSizeOrientationAndMargins() throws {
        let pdf = try Harness.typesetSource("---\npage: A5\norientation: landscape\nmargin: 1in 2cm\n---\nCorner\n")
        let size = try XCTUnwrap(try PDF.info(pdf)["Page size"])
        XCTAssertTrue(size.hasPrefix("595.27") || size.hasPrefix("595.28"), size)
        XCTAssertTrue(size.contains("x 419.5"), size)
        let word = try XCTUnwrap(try PDF.words(pdf).first { $0.text == "Corner" })
        XCTAssertEqual(word.xMin, 56.69, accuracy: 1.0, "left margin 2cm")
        XCTAssertEqual(word.yMin, 72, accuracy: 3.0, "top margin 1in")
    }

    /// Link rectangles (x0, y0, x1, y1 in PDF user space) of the annotations with this URI.
    private func linkRects(_ pdf: String, uri: String) throws -> [(Double, Double, Double, Double)] {
        let objects = try PDF.objects(pdf)
        var rects: [(Double, Double, Double, Double)] = []
        for chunk in objects.components(separatedBy: "endobj") where chunk.contains("(\(uri))") || chunk.contains("/Link") {
            // An annotation may carry one /Rect and several /QuadPoints; accept both.
            guard chunk.contains("/Annot") || chunk.contains("/Link") else { continue }
            let numbers: (String) -> [Double] = { key in
                guard let r = chunk.range(of: key) else { return [] }
                let rest = chunk[r.upperBound...]
                guard let open = rest.firstIndex(of: "["), let close = rest.firstIndex(of: "]") else { return [] }
                return rest[rest.index(after: open)..<close].split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Double($0) }
            }
            guard chunk.contains(uri) || objects.contains(uri) else { continue }
            let quads = numbers("/QuadPoints")
            if quads.count >= 8 {
                for q in stride(from: 0, to: quads.count - 7, by: 8) {
                    let xs = [quads[q], quads[q + 2], quads[q + 4], quads[q + 6]]
                    let ys = [quads[q + 1], quads[q + 3], quads[q + 5], quads[q + 7]]
                    rects.append((xs.min()!, ys.min()!, xs.max()!, ys.max()!))
                }
            } else {
                let r = numbers("/Rect")
                if r.count == 4 { rects.append((min(r[0], r[2]), min(r[1], r[3]), max(r[0], r[2]), max(r[1], r[3]))) }
            }
        }
        return rects
    }
}

final class HyphenationOutputTests: XCTestCase {
    /// Code identifiers and paths are not hyphenated, and no hyphenated line ends past the column edge.
    func testIdentifiersAreNeverHyphenated() throws {
        let prose = "Measurements of the interdisciplinary typesetting characteristically show that"
        let words = (0..<40).map { "\(prose) `pango_layout_iterator_\($0)` returns." }
        let source = "---\ncolumns: 2\njustify: true\nhyphenate: true\n---\n" + words.joined(separator: " ") + "\n"
        let pdf = try Harness.typesetSource(source)
        let text = try PDF.text(pdf)
        for i in 0..<40 {
            let whole = text.contains("pango_layout_iterator_\(i) ") || text.contains("pango_layout_iterator_\(i)\n")
            XCTAssertTrue(whole, "identifier \(i) was split across lines")
        }
        let columnRight = 56.69 + (595.28 - 2 * 56.69 - 12) / 2
        for w in try PDF.words(pdf) where w.xMin < 297 {
            // Only a line's final hyphen or period may hang out: by 70% of its width (protrusion).
            let hang = w.text.hasSuffix("-") || w.text.hasSuffix(".") ? 0.7 * 3.38 : 0
            XCTAssertLessThanOrEqual(w.xMax, columnRight + hang + 0.5, "\(w.text) past the first column's edge")
        }
    }
}

final class NonASCIIDestinationTests: XCTestCase {
    /// A heading whose id is not ASCII still gets a working bookmark and internal link (cairo 1.16 would
    /// otherwise write the name tree and the targets in different encodings).
    func testNonASCIIHeadingIdsResolve() throws {
        let pdf = try Harness.typesetSource("[go](#ünïcode-ça)\n\n@pagebreak\n\n# Ünïcode Ça\n\nText.\n")
        let outline = try PDF.tool("mutool", ["show", pdf, "outline"])
        XCTAssertTrue(outline.contains("#page=2"), "bookmark does not resolve to page 2: \(outline)")
        let dests = try PDF.tool("pdfinfo", ["-dests", pdf])
        let row = try XCTUnwrap(dests.split(separator: "\n").first { $0.contains("code-") }, dests)
        XCTAssertTrue(row.trimmingCharacters(in: .whitespaces).hasPrefix("2 "), "destination not on page 2: \(row)")
        let name = try XCTUnwrap(row.split(separator: "\"").dropFirst().first)
        XCTAssertTrue(try PDF.objects(pdf).contains("/Dest (\(name))"), "the link does not target \(name)")
    }
}

final class JustifiedListTests: XCTestCase {
    /// List items in a justified document are broken total-fit too: no line with gaping word spaces.
    func testJustifiedListItemsAreEven() throws {
        let item = "The almost provides typesetting hyphenation interface configuration clearly an configuration but a these as at the limitation an cost layout early was measured carefully."
        let source = "---\ncolumns: 2\njustify: true\nhyphenate: true\n---\n" + (0..<6).map { _ in "- \(item)" }.joined(separator: "\n") + "\n"
        let pdf = try Harness.typesetSource(source)
        let words = try PDF.words(pdf).filter { $0.text != "•" }
        let rows = Dictionary(grouping: words, by: { [($0.yMin * 2).rounded(), $0.xMin < 297 ? 0 : 1] }).values
        let space = 10 * 0.318
        var worst = 0.0
        for row in rows where row.count > 2 {
            let sorted = row.sorted { $0.xMin < $1.xMin }
            for (a, b) in zip(sorted, sorted.dropFirst()) { worst = max(worst, (b.xMin - a.xMax) / space) }
        }
        XCTAssertLessThan(worst, 2.6, "a justified list line has a word gap of \(worst) spaces")
    }
}
