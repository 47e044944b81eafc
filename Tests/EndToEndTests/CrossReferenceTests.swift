// Figures, table captions, heading numbers and cross-references, read back from the PDF with poppler and qpdf.

import Foundation
import XCTest

final class CrossReferenceTests: XCTestCase {
    private let filler = "Numbered figures and tables let a reader find what the text talks about, and references "
        + "to them keep working when the document is rearranged."

    private var iconPath: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples/check-icon.png").path
    }

    /// Typesets `source` next to a copy of the check icon; returns the PDF path.
    private func build(_ source: String, name: String = #function) throws -> String {
        let dir = try Harness.scratch(name)
        try FileManager.default.copyItem(atPath: iconPath, toPath: dir + "/icon.png")
        try Harness.write(source, to: dir + "/doc.rt")
        let result = try Harness.typeset(["doc.rt", "-o", "doc.pdf"], cwd: dir)
        XCTAssertEqual(result.status, 0, result.stderr)
        return dir + "/doc.pdf"
    }

    /// Internal link annotations per page (1-based) and the page of every named destination (qpdf --json).
    private func linksAndDestinations(_ pdf: String) throws -> (links: [(page: Int, dest: String)], dests: [String: Int]) {
        let json = try PDF.tool("qpdf", ["--json", pdf])
        let root = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let pages = try XCTUnwrap(root["pages"] as? [[String: Any]]).compactMap { $0["object"] as? String }
        let objects = try XCTUnwrap((root["qpdf"] as? [Any])?.last as? [String: Any])
        func value(_ ref: String) -> [String: Any]? { ((objects["obj:" + ref] as? [String: Any])?["value"]) as? [String: Any] }
        var links: [(Int, String)] = []
        for (i, ref) in pages.enumerated() {
            for a in value(ref)?["/Annots"] as? [String] ?? [] {
                if let dest = value(a)?["/Dest"] as? String { links.append((i + 1, dest.replacingOccurrences(of: "u:", with: ""))) }
            }
        }
        var dests: [String: Int] = [:]
        for (_, object) in objects {
            guard let names = ((object as? [String: Any])?["value"] as? [String: Any])?["/Names"] as? [Any] else { continue }
            for k in stride(from: 0, to: names.count - 1, by: 2) {
                if let name = names[k] as? String, let target = names[k + 1] as? [Any], let page = target.first as? String,
                   let index = pages.firstIndex(of: page) {
                    dests[name.replacingOccurrences(of: "u:", with: "")] = index + 1
                }
            }
        }
        return (links, dests)
    }

    func testFiguresInOrderCaptionsUnderImagesAndTableCaptionAbove() throws {
        let pdf = try build("""
            Before the first figure.

            ![one](icon.png){caption="First icon" height=2cm}

            Between the figures.

            ![two](icon.png){#fig-two height=2cm}

            | Alpha | Beta |
            |---|---|
            | 1 | 2 |

            Table: Values {#tbl-v}
            """)
        let words = try PDF.words(pdf)
        func first(_ text: String) throws -> PDF.Word { try XCTUnwrap(words.first { $0.text == text }, "no \(text)") }
        let labels = words.enumerated().filter { $0.element.text == "Figure" }.map { words[$0.offset + 1].text }
        XCTAssertEqual(labels, ["1:", "2"], "numbered in order; no colon without a caption")
        // The caption sits under its 2cm (56.7pt) image, which sits under the text before it.
        let before = try first("Before"), caption = try first("First")
        XCTAssertGreaterThan(caption.yMin - before.yMax, 56.7)
        let between = try first("Between")
        XCTAssertGreaterThan(between.yMin, caption.yMax)
        // `Table 1: Values` is set above the table although written below it.
        let table = try first("Table"), alpha = try first("Alpha")
        XCTAssertEqual(words[words.firstIndex { $0.text == "Table" }! + 1].text, "1:")
        XCTAssertLessThan(table.yMax, alpha.yMin)
        XCTAssertFalse(try PDF.text(pdf).contains("Table: Values"))
    }

    func testForwardAndPageReferencesResolveToTheTargetAndItsPage() throws {
        let pdf = try build("""
            See [](#fig-late) on page [](#fig-late){ref=page} and [](#tbl-t).

            @pagebreak

            \(filler)

            @pagebreak

            ![late](icon.png){caption="Late figure" #fig-late height=1cm}

            Table: Tiny {#tbl-t}

            | a | b |
            |---|---|
            | 1 | 2 |

            Back to [](#fig-late).
            """)
        let pageOne = try PDF.text(pdf, page: 1)
        XCTAssertTrue(pageOne.contains("See Figure 1 on page 3 and Table 1."), pageOne)
        let captionPage = try (1...3).first { try PDF.text(pdf, page: $0).contains("Figure 1: Late figure") }
        XCTAssertEqual(captionPage, 3, "the page reference shows the page where the figure is")
        let (links, dests) = try linksAndDestinations(pdf)
        XCTAssertEqual(dests["fig-late"], 3)
        XCTAssertTrue(links.contains { $0.page == 1 && $0.dest == "fig-late" }, "\(links)")
        XCTAssertTrue(links.contains { $0.page == 1 && $0.dest == "tbl-t" }, "\(links)")
        XCTAssertTrue(try PDF.text(pdf, page: 3).contains("Back to Figure 1."))
    }

    func testMissingTargetIsALocatedErrorAndNothingIsWritten() throws {
        let dir = try Harness.scratch()
        try Harness.write("# Title\n\nSee [x](#title) and\nalso [](#nowhere).\n", to: dir + "/doc.rt")
        let result = try Harness.typeset(["doc.rt", "-o", "doc.pdf"], cwd: dir)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("doc.rt:4:6: error: cross-reference to '#nowhere'"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/doc.pdf"))
    }

    func testGermanLabelsAndNumberingInBookmarksTocAndSection() throws {
        let pdf = try build("""
            ---
            lang: de
            numbering: 1.1
            header: "{{section}}"
            ---
            @toc

            # Einleitung

            Siehe [](#methoden), [](#fig-bild) und [](#tbl-werte).

            ## Methoden

            ![Bild](icon.png){#fig-bild height=1cm}

            Table: Werte {#tbl-werte}

            | a | b |
            |---|---|
            | 1 | 2 |

            ### Tiefer

            @pagebreak

            # Ergebnisse

            Text.
            """)
        let text = try PDF.text(pdf)
        XCTAssertTrue(text.contains("Siehe Abschnitt 1.1, Abbildung 1 und Tabelle 1."), text)
        XCTAssertTrue(text.contains("Tabelle 1: Werte"), text)
        let toc = try PDF.text(pdf, layout: true, page: 1)
        for entry in ["1 Einleitung", "1.1 Methoden", "2 Ergebnisse"] { XCTAssertTrue(toc.contains(entry), "toc lacks \(entry): \(toc)") }
        XCTAssertTrue(toc.contains("Tiefer"))
        XCTAssertFalse(toc.contains("1.1.1"), "level 3 is past the pattern: not numbered")
        XCTAssertTrue(try PDF.text(pdf, page: 2).hasPrefix("2 Ergebnisse"), "{{section}} carries the number")
        let json = try PDF.tool("qpdf", ["--json", pdf])
        let root = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        var titles: [String] = []
        func walk(_ items: [[String: Any]]) {
            for item in items {
                titles.append(item["title"] as? String ?? "")
                walk(item["kids"] as? [[String: Any]] ?? [])
            }
        }
        walk(root["outlines"] as? [[String: Any]] ?? [])
        XCTAssertEqual(titles, ["1 Einleitung", "1.1 Methoden", "Tiefer", "2 Ergebnisse"])
        XCTAssertEqual(try linksAndDestinations(pdf).dests["methoden"], 1, "ids stay free of numbers")
    }

    func testTableCaptionStaysWithTheTablesFirstRows() throws {
        // The caption ends up lower and lower on page 1 until the table no longer fits under it.
        var moved = false
        for count in 20...26 {
            let paragraphs = (1..<count).map { "Paragraph \($0). \(filler)" }.joined(separator: "\n\n")
            let rows = (0..<12).map { "| row\($0) | \($0) |" }.joined(separator: "\n")
            let pdf = try build("\(paragraphs)\n\nShort line.\n\nTable: Kept\n\n| h | v |\n|---|---|\n\(rows)\n",
                                name: "caption\(count)")
            let words = try PDF.words(pdf)
            let caption = try XCTUnwrap(words.first { $0.text == "Kept" }), row = try XCTUnwrap(words.first { $0.text == "row0" })
            XCTAssertEqual(caption.page, row.page, "with \(count) paragraphs the caption is parted from its table")
            let short = try XCTUnwrap(words.first { $0.text == "Short" })
            if short.page < caption.page { moved = true }
        }
        XCTAssertTrue(moved, "no case put the caption at the foot of a page: the test shows nothing")
    }

    func testDeferredLastFigureKeepsItsCaptionWhenColumnsAreBalanced() throws {
        let paragraphs = (1...15).map { "Paragraph \($0). \(filler) \(filler)" }.joined(separator: "\n\n")
        let pdf = try build("""
            ---
            columns: 2
            ---
            | where | page |
            |--|--|
            | figure | p. [](#fig-end){ref=page} |

            \(paragraphs)

            ![tall](icon.png){caption="End figure" #fig-end height=8cm}

            Tail paragraph.
            """)
        let words = try PDF.words(pdf)
        let caption = try XCTUnwrap(words.first { $0.text == "End" })
        XCTAssertEqual(try PDF.pageCount(pdf), 2)
        XCTAssertEqual(caption.page, 2, "the figure did not fit on page 1")
        // Under its 8cm (226.8pt) image, in the same (first) column: not parted by balancing.
        XCTAssertGreaterThan(caption.yMin, 56.7 + 226.8)
        XCTAssertLessThan(caption.xMax, 595.28 / 2)
        let tail = try XCTUnwrap(words.first { $0.text == "Tail" })
        XCTAssertEqual(tail.page, 1, "the text after the figure filled page 1 first")
        XCTAssertTrue(try PDF.text(pdf, page: 1).contains("p. 2"), "a page reference in a table cell")
    }

    func testFigureThatDoesNotFitMovesToTheNextColumnAndTheTextFlowsOn() throws {
        let paragraphs = (1...7).map { "Paragraph \($0). \(filler) \(filler)" }.joined(separator: "\n\n")
        let after = (1...12).map { "Later\($0). \(filler)" }.joined(separator: "\n\n")
        let pdf = try build("""
            ---
            columns: 2
            ---
            \(paragraphs)

            ![tall](icon.png){caption="Tall figure" height=7cm}

            \(after)
            """)
        let words = try PDF.words(pdf).filter { $0.page == 1 }
        let middle = 595.28 / 2
        let caption = try XCTUnwrap(words.first { $0.text == "Tall" })
        XCTAssertGreaterThan(caption.xMin, middle, "the figure went to the second column")
        // 7cm of image above the caption: the figure starts at the top of that column.
        XCTAssertLessThan(caption.yMin, 56.7 + 198.4 + 30)
        // The paragraph written after the figure starts in the first column, below the text before it.
        let later = try XCTUnwrap(words.first { $0.text == "Later1." })
        let last = try XCTUnwrap(words.first { $0.text == "7." })
        XCTAssertLessThan(later.xMax, middle, "the text flows on in the first column")
        XCTAssertGreaterThan(later.yMin, last.yMin)
        // Nothing overlaps the caption in its column.
        let overlapping = words.filter { $0.xMin > middle && $0.yMax > caption.yMin && $0.yMin < caption.yMax && !["Figure", "1:", "Tall", "figure"].contains($0.text) }
        XCTAssertTrue(overlapping.isEmpty, "\(overlapping.map(\.text))")
    }
}
