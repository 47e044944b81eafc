// Points of the page-by-page review (issue 9): running headers, trailing breaks, measure with breaks.

import Foundation
import XCTest

final class PageReviewTests: XCTestCase {
    private let lorem = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut "
        + "labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris."

    /// Header words per page (above the 2cm top margin).
    private func headers(_ pdf: String) throws -> [Int: String] {
        var result: [Int: String] = [:]
        for word in try PDF.words(pdf) where word.yMax < 2 * 72 / 2.54 {
            result[word.page, default: ""] += (result[word.page] == nil ? "" : " ") + word.text
        }
        return result
    }

    /// `{{section}}` is the level-1 heading in force at the top of the page: the one the page opens with,
    /// else the last one before the page, else empty.
    func testSectionIsTheHeadingInForceAtTheTopOfThePage() throws {
        let body = Array(repeating: lorem, count: 40).joined(separator: "\n\n")
        let pdf = try Harness.typesetSource("""
            ---
            header: "[{{section}}]"
            ---
            Intro text before any heading.

            # Alpha

            Short.

            # Beta

            \(body)

            # Gamma

            Gamma's text.

            @pagebreak

            # Delta

            Delta's text.

            """)
        let words = try PDF.words(pdf)
        let gammaPage = try XCTUnwrap(words.first { $0.text == "Gamma" && $0.yMin > 50 }).page
        let deltaPage = try XCTUnwrap(words.first { $0.text == "Delta" && $0.yMin > 50 }).page
        XCTAssertGreaterThan(gammaPage, 1)
        XCTAssertEqual(deltaPage, gammaPage + 1)
        let heads = try headers(pdf)
        XCTAssertEqual(heads[1], "[]", "page 1 opens with text and no heading comes before it")
        for page in 2...gammaPage { XCTAssertEqual(heads[page], "[Beta]", "page \(page)") }
        XCTAssertEqual(heads[deltaPage], "[Delta]", "the page opens with Delta")
    }

    /// `measure` counts a page or column break as the end of a page of the document's height, and agrees with
    /// a real render (it reported about 1,000,000 pt).
    func testMeasureWithBreaksAgreesWithARender() throws {
        let dir = try Harness.scratch()
        for brk in ["@pagebreak", "@columnbreak"] {
            try Harness.write("First page.\n\n\(brk)\n\nSecond page.\n\nAnd a third line.\n", to: dir + "/b.rt")
            XCTAssertEqual(try Harness.typeset(["b.rt"], cwd: dir).status, 0)
            let result = try Harness.typeset(["measure", "b.rt", "--width", "481.89pt"], cwd: dir)
            XCTAssertEqual(result.status, 0, result.stderr)
            let json = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Double] ?? [:]
            XCTAssertEqual(json["pages"], 2, brk)
            XCTAssertEqual(json["lines"], 3, brk)
            // A4 with 2cm margins: 729.64pt of content per page; the last page's text ends where the render's does.
            let top = 2 * 72 / 2.54, contentHeight = 841.89 - 2 * top
            let last = try XCTUnwrap(try PDF.words(dir + "/b.pdf").filter { $0.page == 2 }.map(\.yMax).max())
            XCTAssertEqual(json["height"] ?? 0, contentHeight + last - top, accuracy: 4, brk)
        }
    }

    /// A break at the very end of the document does nothing: no empty last page (with its footer).
    func testTrailingBreaksMakeNoEmptyPage() throws {
        for tail in ["@pagebreak", "@columnbreak", "@pagebreak\n\n@pagebreak", "@columnbreak\n\n@pagebreak"] {
            let pdf = try Harness.typesetSource("""
                ---
                footer: "{{page}}/{{pages}}"
                ---
                # One screen

                Text on the first page.

                \(tail)

                """)
            XCTAssertEqual(try PDF.pageCount(pdf), 1, tail)
            XCTAssertTrue(try PDF.text(pdf).contains("1/1"), tail)
        }
        // A break with text after it still breaks; so does one before a trailing column switch's text.
        let pdf = try Harness.typesetSource("One.\n\n@pagebreak\n\nTwo.\n\n@pagebreak\n")
        XCTAssertEqual(try PDF.pageCount(pdf), 2)
        XCTAssertEqual(try PDF.text(pdf, page: 2).trimmingCharacters(in: .whitespacesAndNewlines), "Two.")
    }
}

final class ContentsTests: XCTestCase {
    /// A contents entry that wraps continues under its text, after its number; the leaders and the page number
    /// stay on its last line.
    func testWrappedEntryHangsAfterItsNumber() throws {
        let pdf = try Harness.typesetSource("""
            @toc

            # 3. Protecting Users' Legal Rights From Anti-Circumvention Law, Which Takes Many Words To Say Here

            Text.

            # 12. Short

            More text.

            """)
        let words = try PDF.words(pdf).filter { $0.page == 1 }
        let number = try XCTUnwrap(words.first { $0.text == "3." })
        let first = try XCTUnwrap(words.first { $0.text == "Protecting" })
        XCTAssertEqual(first.yMin, number.yMin, accuracy: 0.1)
        let entryLines = Dictionary(grouping: words.filter { $0.yMin >= number.yMin - 0.1 && $0.yMin < number.yMin + 30 },
                                    by: { $0.yMax.rounded() }).sorted { $0.key < $1.key }.map(\.value)
        XCTAssertGreaterThanOrEqual(entryLines.count, 2)
        let second = entryLines[1].sorted { $0.xMin < $1.xMin }
        XCTAssertEqual(second[0].xMin, first.xMin, accuracy: 0.5, "the second line hangs under 'Protecting'")
        // Leaders and the page number: on the entry's last line, not the first.
        let rightEdge = (21 - 2) * 72 / 2.54
        XCTAssertEqual(second.last?.text, "1")
        XCTAssertEqual(try XCTUnwrap(second.last).xMax, rightEdge, accuracy: 0.5)
        XCTAssertGreaterThan(second.filter { $0.text == "." }.count, 10, "\(second.map(\.text))")
        XCTAssertFalse(entryLines[0].contains { $0.text == "." || $0.text == "1" })
    }
}

final class CodeWrapTests: XCTestCase {
    /// Wrapped code breaks after a space or punctuation where there is one, else by character, and each
    /// wrapped piece starts with a `↪` drawn as an outline in a hanging indent: seen, but not copied.
    func testWrappedCodeIsMarkedAndBreaksAfterPunctuation() throws {
        let call = "let result = try await client.fetchSomethingVeryLong(parameter: value, other: otherValue, third: 3)"
        let path = "https://example.com/a/very/long/path/that/goes/on/and/on/and/on/further/than/the/line/allows.html"
        let word = String(repeating: "x", count: 130)
        let pdf = try Harness.typesetSource("```\n\(call)\n\(path)\n\(word)\nshort\n```\n")
        let lines = try PDF.text(pdf).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && $0 != "\u{0C}" }
        XCTAssertEqual(lines.count, 7, "\(lines)")
        guard lines.count == 7 else { return }
        XCTAssertFalse(lines.contains { $0.contains("\u{21AA}") || $0.contains("\u{200B}") },
                       "neither the mark nor the break opportunities are copied: \(lines)")
        // The call breaks after a space, the path after a slash; only the long word breaks by character.
        XCTAssertEqual(lines[0] + " " + lines[1], call)
        XCTAssertTrue(lines[2].hasSuffix("/"), lines[2])
        XCTAssertEqual(lines[2] + lines[3], path)
        XCTAssertEqual(lines[4] + lines[5], word)
        XCTAssertEqual(lines[6], "short")
        // The mark: ink in the hanging indent, left of each wrapped piece (72 dpi: one pixel per point).
        let words = try PDF.words(pdf)
        let left = try XCTUnwrap(words.first { $0.text == "let" }).xMin
        let raster = try Raster.render(pdf, dpi: 72)
        for piece in [lines[1], lines[3], lines[5]] {
            let start = String(piece.prefix { $0 != " " })
            let w = try XCTUnwrap(words.first { $0.text == start }, start)
            XCTAssertGreaterThan(w.xMin, left + 4, "\(start) hangs")
            var ink = 0
            for y in Int(w.yMin)...Int(w.yMax) {
                for x in Int(left)..<Int(w.xMin - 1) {
                    let k = (y * raster.width + x) * 3
                    if k + 2 < raster.bytes.count && raster.bytes[k] < 120 && raster.bytes[k + 2] < 120 { ink += 1 }
                }
            }
            XCTAssertGreaterThan(ink, 3, "no mark before \(start)")
        }
    }
}

final class RuntTests: XCTestCase {
    /// Issue 9's target on the examples: under 1% of paragraphs of three lines or more end in a one-word line
    /// (a word of letters alone; list markers and contents page numbers are not runts).
    func testExampleReportsEndFewParagraphsInARunt() throws {
        let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples")
        let dir = try Harness.scratch()
        for name in ["two-column-report", "report"] {
            let pdf = dir + "/\(name).pdf"
            let result = try Harness.typeset([examples.appendingPathComponent("\(name).rt").path, "-o", pdf])
            XCTAssertEqual(result.status, 0, result.stderr)
            let xml = try PDF.tool("pdftotext", ["-bbox-layout", pdf, "-"])
            var paragraphs = 0, runts: [String] = []
            for block in xml.components(separatedBy: "<block ").dropFirst() {
                let lines = block.components(separatedBy: "<line ").dropFirst()
                guard lines.count >= 3, let last = lines.last else { continue }
                paragraphs += 1
                let words = last.components(separatedBy: "<word ").dropFirst().compactMap { w -> String? in
                    guard let open = w.firstIndex(of: ">"), let close = w.range(of: "</word>") else { return nil }
                    return String(w[w.index(after: open)..<close.lowerBound])
                }
                if words.count == 1, words[0].filter(\.isLetter).count >= 2 { runts.append(words[0]) }
            }
            XCTAssertGreaterThan(paragraphs, 100, name)
            XCTAssertLessThan(Double(runts.count), 0.01 * Double(paragraphs), "\(name): \(runts)")
        }
    }
}

final class SlotTests: XCTestCase {
    /// Beside shapes, justified text prefers hyphenation, then a ragged line, to gaps over twice a space or any
    /// letter-spacing; a slot narrower than about 8 em is set ragged.
    func testNarrowSlotsAreNeitherLooseNorLetterSpaced() throws {
        let vocabulary = ["market", "fountain", "terrace", "house", "library", "bridge", "warehouse", "quay",
                          "granary", "courtyard", "arcade", "timber", "window", "chapel", "survey", "orchard"]
        let text = (0..<600).map { vocabulary[($0 * 7 + $0 / 5) % vocabulary.count] }.joined(separator: " ")
        let pdf = try Harness.typesetSource("""
            ---
            justify: true
            hyphenate: true
            ---
            @exclude rect(0, 0, 74%, 150pt) margin=0
            @exclude rect(0, 170pt, 85%, 150pt) margin=0

            \(text).

            """)
        let words = try PDF.words(pdf).filter { $0.page == 1 }
        let top = 2 * 72 / 2.54
        let space = 3.18  // DejaVu Serif 10pt
        // A word's natural width: the narrowest it is set anywhere (letter-spacing only widens it), in its
        // line's own scale (font expansion draws a line up to 2% wider or narrower).
        let origins = try TextOrigins.read(pdf).filter { $0.page == 1 }
        func unscaled(_ w: PDF.Word) -> Double {
            let start = origins.filter { $0.y > w.yMin - 1 && $0.y < w.yMax + 1 && $0.x <= w.xMin + 1 }.max { $0.x < $1.x }
            return (w.xMax - w.xMin) / (start?.scale ?? 1)
        }
        var natural: [String: Double] = [:]
        for w in words { natural[w.text] = min(natural[w.text] ?? .infinity, unscaled(w)) }
        let lines = Dictionary(grouping: words, by: { $0.yMax.rounded() })
        var wideSlotLines = 0, narrowSlotLines = 0
        for (_, line) in lines {
            let sorted = line.sorted { $0.xMin < $1.xMin }
            guard let first = sorted.first, first.xMin > 100 else { continue }  // lines beside the shapes only
            let y = first.yMin - top
            let narrow = y > 170 && y < 315
            if narrow { narrowSlotLines += 1 } else if y < 145 { wideSlotLines += 1 } else { continue }
            for (a, b) in zip(sorted, sorted.dropFirst()) {
                let gap = b.xMin - a.xMax
                XCTAssertLessThanOrEqual(gap, 2 * space, "gap before '\(b.text)'")
                if narrow { XCTAssertEqual(gap, space, accuracy: 0.1, "a slot under 8em is ragged: '\(b.text)'") }
            }
            for w in sorted { XCTAssertEqual(unscaled(w), natural[w.text] ?? 0, accuracy: 0.05, "'\(w.text)' letter-spaced") }
        }
        XCTAssertGreaterThan(wideSlotLines, 5)
        XCTAssertGreaterThan(narrowSlotLines, 5)
    }
}
