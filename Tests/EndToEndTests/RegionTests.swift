// Pages and regions read back from the PDF: contents with page numbers and links, columns divs,
// balanced columns, running footers, bookmarks and internal links.

import Foundation
import XCTest

final class RegionTests: XCTestCase {
    private let paragraph = "Regions divide the content box into columns that text flows through line by line, "
        + "then page by page, without ever overlapping or being clipped."

    /// Link annotations per page (1-based) and the page of every named destination, from qpdf's JSON.
    private func linksAndDestinations(_ pdf: String) throws -> (links: [(page: Int, dest: String)], dests: [String: Int]) {
        let json = try PDF.tool("qpdf", ["--json", pdf])
        let root = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let pages = try XCTUnwrap(root["pages"] as? [[String: Any]]).compactMap { $0["object"] as? String }
        let qpdf = try XCTUnwrap(root["qpdf"] as? [Any])
        let objects = try XCTUnwrap(qpdf.last as? [String: Any])
        func value(_ ref: String) -> [String: Any]? {
            ((objects["obj:" + ref] as? [String: Any])?["value"]) as? [String: Any]
        }
        var links: [(Int, String)] = []
        for (i, ref) in pages.enumerated() {
            guard let annots = value(ref)?["/Annots"] as? [String] else { continue }
            for a in annots {
                if let dest = value(a)?["/Dest"] as? String { links.append((i + 1, dest.replacingOccurrences(of: "u:", with: ""))) }
            }
        }
        var dests: [String: Int] = [:]
        for (_, object) in objects {
            guard let names = ((object as? [String: Any])?["value"] as? [String: Any])?["/Names"] as? [Any] else { continue }
            var k = 0
            while k + 1 < names.count {
                if let name = names[k] as? String, let target = names[k + 1] as? [Any], let page = target.first as? String,
                   let index = pages.firstIndex(of: page) {
                    dests[name.replacingOccurrences(of: "u:", with: "")] = index + 1
                }
                k += 2
            }
        }
        return (links, dests)
    }

    func testTocHasPageNumbersLeadersAndLinksToTheHeadings() throws {
        let source = """
            ---
            footer: "\\tPage {{page}} of {{pages}}"
            ---
            @toc depth=2 title=Contents

            @pagebreak
            # Alpha

            \(paragraph)

            @pagebreak
            # Beta

            ## Beta One

            \(paragraph)

            ### Too Deep

            @pagebreak
            # Gamma

            Back to [the contents](#alpha) and [Beta](#beta).
            """
        let pdf = try Harness.typesetSource(source)
        XCTAssertEqual(try PDF.pageCount(pdf), 4)
        let words = try PDF.words(pdf).filter { $0.page == 1 }
        XCTAssertTrue(words.contains { $0.text == "Contents" })
        XCTAssertFalse(words.contains { $0.text == "Deep" }, "depth=2 leaves level 3 out")
        let expected = [("Alpha", "2"), ("Beta", "3"), ("One", "3"), ("Gamma", "4")]
        var numberEdges: [Double] = []
        for (title, page) in expected {
            let word = try XCTUnwrap(words.first { $0.text == title }, title)
            let row = words.filter { abs($0.yMin - word.yMin) < 2 && $0.xMin > word.xMax }
            let number = try XCTUnwrap(row.max { $0.xMax < $1.xMax }, "no number after \(title)")
            XCTAssertEqual(number.text, page, "\(title) is on page \(page)")
            numberEdges.append(number.xMax)
            let leaders = row.filter { $0.text.allSatisfy { $0 == "." } && !$0.text.isEmpty }
            XCTAssertFalse(leaders.isEmpty, "dot leaders after \(title)")
            XCTAssertTrue(leaders.allSatisfy { $0.xMin > word.xMax && $0.xMax < number.xMin }, "leaders lie between title and number")
        }
        XCTAssertLessThan(numberEdges.max()! - numberEdges.min()!, 0.5, "page numbers are right-aligned")
        XCTAssertEqual(numberEdges[0], 595.28 - 56.69, accuracy: 0.5)

        let (links, dests) = try linksAndDestinations(pdf)
        XCTAssertEqual(dests["alpha"], 2)
        XCTAssertEqual(dests["beta"], 3)
        XCTAssertEqual(dests["gamma"], 4)
        let tocLinks = Set(links.filter { $0.page == 1 }.map(\.dest))
        XCTAssertEqual(tocLinks, ["alpha", "beta", "beta-one", "gamma"])
        // Backward links from the last page.
        XCTAssertEqual(Set(links.filter { $0.page == 4 }.map(\.dest)), ["alpha", "beta"])
        XCTAssertTrue(try PDF.text(pdf, page: 2).contains("Page 2 of 4"))
        let outline = try PDF.tool("mutool", ["show", pdf, "outline"])
        XCTAssertTrue(outline.contains("\"Gamma\"\t#page=4"), outline)
        XCTAssertTrue(outline.contains("\"Beta One\"\t#page=3"), outline)
    }

    func testColumnsDivStartsBelowTextAndIsBalanced() throws {
        let body = (1...6).map { "Col\($0) " + paragraph }.joined(separator: "\n\n")
        let source = """
            Intro \(paragraph) \(paragraph)

            ::: {columns=2 column-gap=20pt column-rule="1pt red"}
            \(body)
            :::

            Outro \(paragraph)
            """
        let pdf = try Harness.typesetSource(source)
        XCTAssertEqual(try PDF.pageCount(pdf), 1)
        let words = try PDF.words(pdf)
        let left = 56.69, width = (595.28 - 2 * 56.69 - 20) / 2, right = left + width + 20
        let intro = try XCTUnwrap(words.first { $0.text == "Intro" })
        let outro = try XCTUnwrap(words.first { $0.text == "Outro" })
        let introBottom = words.filter { $0.yMin < intro.yMin + 30 && $0.yMax < words.first { $0.text == "Col1" }!.yMin }
            .map(\.yMax).max()!
        let starts = words.filter { $0.text.hasPrefix("Col") }
        XCTAssertEqual(starts.count, 6)
        XCTAssertTrue(starts.allSatisfy { $0.yMin > introBottom }, "columns start below the text above")
        let inColumns = words.filter { $0.yMin > introBottom && $0.yMax < outro.yMin }
        let leftWords = inColumns.filter { $0.xMin < right - 5 }, rightWords = inColumns.filter { $0.xMin >= right - 1 }
        XCTAssertFalse(rightWords.isEmpty)
        XCTAssertTrue(leftWords.allSatisfy { $0.xMax <= left + width + 1 }, "left column stays left of the gap")
        XCTAssertEqual(rightWords.map(\.xMin).min()!, right, accuracy: 1)
        XCTAssertEqual(leftWords.map(\.yMax).max()!, rightWords.map(\.yMax).max()!, accuracy: 12.5, "balanced within a line")
        XCTAssertGreaterThan(outro.yMin, rightWords.map(\.yMax).max()!)
        XCTAssertEqual(outro.xMin, left, accuracy: 1)
        // The red rule is drawn once, between the columns.
        let content = try PDF.objects(pdf)
        XCTAssertTrue(content.contains("1 0 0 rg"), "column rule colour")
    }
}
