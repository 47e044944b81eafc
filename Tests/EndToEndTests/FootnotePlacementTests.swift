// Footnotes at the foot of the column where their marks land, read back from the PDF: each note on its
// mark's page, in its column's x range and below all of that column's text; the short rule above the notes;
// a long note continuing at the next column's foot with no text lost; marks in table cells and list items;
// the mark's link on the page of its note; 2,000 notes all set.

import Foundation
import XCTest

final class FootnotePlacementTests: XCTestCase {
    private static let lorem = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor "
        + "incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco "
        + "laboris nisi ut aliquip ex ea commodo consequat."
    private static let bodyWords = Set(lorem.split(separator: " ").map(String.init))

    /// Paragraph `i` holds the word `MarkwordI` (with a mark when `marks` has `i`).
    private func body(_ count: Int, marks: Set<Int>, label: (Int) -> String = { "n\($0)" }) -> String {
        (0..<count).map { i in
            "\(Self.lorem) Markword\(i)\(marks.contains(i) ? "[^\(label(i))]" : "") \(Self.lorem)\n"
        }.joined(separator: "\n")
    }

    /// The note `noteWord` starts on its mark's page, inside the column the mark is in, below every body word
    /// of that column; returns the note's first word.
    @discardableResult
    private func assertNote(_ noteWord: String, markedAt markWord: String, in words: [PDF.Word],
                            columns: [ClosedRange<Double>], file: StaticString = #filePath,
                            line: UInt = #line) throws -> PDF.Word {
        let mark = try XCTUnwrap(words.first { $0.text == markWord }, "no \(markWord)", file: file, line: line)
        let note = try XCTUnwrap(words.first { $0.text == noteWord }, "no \(noteWord)", file: file, line: line)
        XCTAssertEqual(note.page, mark.page, "\(noteWord) not on its mark's page", file: file, line: line)
        let column = try XCTUnwrap(columns.first { $0.contains(mark.xMin) }, file: file, line: line)
        XCTAssertTrue(column.contains(note.xMin), "\(noteWord) at x \(note.xMin), not in \(column)", file: file, line: line)
        let text = words.filter {
            $0.page == note.page && column.contains($0.xMin)
                && (Self.bodyWords.contains($0.text) || $0.text.hasPrefix("Markword"))
        }
        let lowest = text.map(\.yMax).max() ?? 0
        XCTAssertGreaterThan(note.yMin, lowest, "\(noteWord) not below its column's text", file: file, line: line)
        return note
    }

    func testNotesSitAtTheFootOfTheirPageUnderAShortRule() throws {
        let marks: Set<Int> = [0, 3, 6, 9, 12]
        let notes = marks.sorted().map { "[^n\($0)]: Notetext\($0) explains zeta and eta in a short sentence.\n" }
        let pdf = try Harness.typesetSource("# Footnotes\n\n" + body(14, marks: marks) + "\n" + notes.joined(separator: "\n"))
        let words = try PDF.words(pdf)
        XCTAssertEqual(try PDF.pageCount(pdf), 2)
        let rules = try FootnoteProbe.rules(pdf)
        for i in marks.sorted() {
            let note = try assertNote("Notetext\(i)", markedAt: "Markword\(i)", in: words, columns: [0...600])
            // A 0.5pt rule a third of the 481.9pt column wide, between the text and the notes of that page.
            let rule = try XCTUnwrap(rules.first { $0.page == note.page }, "no rule on page \(note.page)")
            XCTAssertEqual(rule.width, 481.89 / 3, accuracy: 1)
            XCTAssertEqual(rule.height, 0.5, accuracy: 0.05)
            XCTAssertLessThan(rule.y, note.yMin)
            let text = words.filter { $0.page == note.page && Self.bodyWords.contains($0.text) }
            XCTAssertGreaterThan(rule.y, text.map(\.yMax).max() ?? 0)
        }
        XCTAssertEqual(rules.count, 2, "one rule per page with notes")
        // Numbered in order, each note starting with its number.
        let text = try PDF.text(pdf)
        var last = text.startIndex
        for (k, i) in marks.sorted().enumerated() {
            let range = try XCTUnwrap(text.range(of: "\(k + 1). Notetext\(i)"), "note \(k + 1): \(text)")
            XCTAssertGreaterThan(range.lowerBound, last)
            last = range.lowerBound
        }
        try FootnoteProbe.assertLinksOnNotePages(pdf, count: marks.count)
        // Each note's number links back to its mark's line, on the same page.
        let dests = try PDF.tool("pdfinfo", ["-dests", pdf])
        let objects = try PDF.objects(pdf)
        for n in 1...marks.count {
            let back = try XCTUnwrap(dests.split(separator: "\n").first { $0.hasSuffix("\"fnref-\(n)\"") }, dests)
            let note = try XCTUnwrap(dests.split(separator: "\n").first { $0.hasSuffix("\"footnote-\(n)\"") })
            XCTAssertEqual(back.split(separator: " ").first, note.split(separator: " ").first, "fnref-\(n)")
            XCTAssertTrue(objects.contains("/Dest (fnref-\(n))"), "no link back from note \(n)")
        }
    }

    func testTwoColumnNotesSitUnderTheirOwnColumnWithTableCellAndListItem() throws {
        let marks: Set<Int> = [1, 5, 9, 13]
        var source = "---\ncolumns: 2\n---\n# Two columns\n\n" + body(4, marks: marks)
        source += "\n| Name | Value |\n|---|---|\n| Cellword[^cell] | 3 |\n| other | 4 |\n\n- Itemword[^item]\n- plain item\n\n"
        source += body(16, marks: marks).split(separator: "\n").dropFirst(4).joined(separator: "\n") + "\n\n"
        source += marks.sorted().map { "[^n\($0)]: Notetext\($0) explains zeta.\n" }.joined(separator: "\n")
        source += "\n[^cell]: Cellnote sits under the table's column.\n\n[^item]: Itemnote sits under the list's column.\n"
        let pdf = try Harness.typesetSource(source)
        let words = try PDF.words(pdf)
        // Columns of an A4 page with 2cm margins and a 12pt gap: 56.7...291.6 and 303.6...538.6.
        let columns: [ClosedRange<Double>] = [50...297, 297...545]
        var sides = Set<Int>()
        for i in marks.sorted() {
            let note = try assertNote("Notetext\(i)", markedAt: "Markword\(i)", in: words, columns: columns)
            sides.insert(note.xMin < 297 ? 0 : 1)
        }
        XCTAssertEqual(sides, [0, 1], "notes under both columns")
        try assertNote("Cellnote", markedAt: "Cellword", in: words, columns: columns)
        try assertNote("Itemnote", markedAt: "Itemword", in: words, columns: columns)
        let rules = try FootnoteProbe.rules(pdf)
        XCTAssertTrue(rules.contains { abs($0.width - (481.89 - 12) / 6) < 1 }, "a rule a third of a column: \(rules)")
        try FootnoteProbe.assertLinksOnNotePages(pdf, count: marks.count + 2)
    }

    func testALongNoteContinuesAtTheFootOfTheNextColumnWithNothingLost() throws {
        let sentences = (0..<400).map { "Sentence\($0) goes on." }.joined(separator: " ")
        let pdf = try Harness.typesetSource("# Long\n\n" + body(12, marks: [7], label: { _ in "big" })
                                            + "\n[^big]: Bignote \(sentences)\n")
        let words = try PDF.words(pdf)
        let first = try assertNote("Bignote", markedAt: "Markword7", in: words, columns: [0...600])
        let text = try PDF.text(pdf).split(whereSeparator: \.isWhitespace).map(String.init)
        for k in 0..<400 { XCTAssertTrue(text.contains("Sentence\(k)"), "Sentence\(k) lost") }
        let last = try XCTUnwrap(words.first { $0.text == "Sentence399" })
        XCTAssertGreaterThan(last.page, first.page, "the note continues overleaf")
        // Where it continues, it is at the foot: under the page's text.
        let continued = words.filter { $0.page == first.page + 1 && $0.text.hasPrefix("Sentence") }
        let text2 = words.filter { $0.page == first.page + 1 && Self.bodyWords.contains($0.text) }
        XCTAssertGreaterThan(continued.map(\.yMin).min() ?? 0, text2.map(\.yMax).max() ?? 0)
        try FootnoteProbe.assertLinksOnNotePages(pdf, count: 1)
    }

    func testMarksInABoxAFloatAndAShapeSetTheirNotesAtTheirColumnsFoot() throws {
        let source = "# Containers\n\n\(Self.lorem)\n\n::: {box=true}\nBoxword[^b] \(Self.lorem)\n:::\n\n"
            + "::: {float=right width=4cm}\nFloatword[^f] in a float.\n:::\n\n\(Self.lorem) \(Self.lorem)\n\n"
            + "::: {shape=circle width=6cm align=center}\nShapeword[^s] \(Self.lorem)\n:::\n\n"
            + body(6, marks: [4]) + "\n[^b]: Boxnote zeta.\n\n[^f]: Floatnote eta.\n\n[^s]: Shapenote theta.\n\n"
            + "[^n4]: Notetext4 iota.\n"
        let pdf = try Harness.typesetSource(source)
        let words = try PDF.words(pdf)
        for (note, mark) in [("Boxnote", "Boxword"), ("Floatnote", "Floatword"), ("Shapenote", "Shapeword"),
                             ("Notetext4", "Markword4")] {
            try assertNote(note, markedAt: mark, in: words, columns: [0...600])
        }
        try FootnoteProbe.assertLinksOnNotePages(pdf, count: 4)
    }

    func testAPositionedShapesNoteGoesUnderTheFirstColumnItOverlaps() throws {
        // The div is met early in the left column; the shape is drawn over the right column.
        let source = "---\ncolumns: 2\n---\n@exclude rect(300pt, 400pt, 140pt, 60pt) margin=4pt\n\n"
            + "::: {shape=ellipse x=300pt y=400pt width=140pt height=60pt}\nShapeword[^s] zeta eta.\n:::\n\n"
            + body(12, marks: []) + "\n[^s]: Shapenote theta.\n"
        let pdf = try Harness.typesetSource(source)
        let words = try PDF.words(pdf)
        let note = try assertNote("Shapenote", markedAt: "Shapeword", in: words, columns: [50...297, 297...545])
        XCTAssertGreaterThan(note.xMin, 297, "under the right column")
        let right = words.filter { $0.page == 1 && $0.xMin > 297 && Self.bodyWords.contains($0.text) }
        XCTAssertFalse(right.isEmpty, "the right column has text above the note")
    }

    func testTwoThousandNotesAreAllSetOnTheirMarksPages() throws {
        let source = (1...2000).map { "Paragraph \($0) says a little^[Notenumber \($0) is here.]." }
            .joined(separator: "\n\n")
        let pdf = try Harness.typesetSource(source + "\n")
        let text = try PDF.text(pdf)
        var seen = Set<Int>()
        var rest = text[...]
        while let r = rest.range(of: "Notenumber ") {
            rest = rest[r.upperBound...]
            if let n = Int(rest.prefix { $0.isNumber }) { seen.insert(n) }
        }
        XCTAssertEqual(seen, Set(1...2000), "missing: \(Set(1...2000).subtracting(seen).sorted().prefix(10))")
        try FootnoteProbe.assertLinksOnNotePages(pdf, count: 2000)
    }
}

/// Rules and link annotations read back from a PDF.
enum FootnoteProbe {
    struct Rect { var page: Int; var x, y, width, height: Double }

    /// Filled rectangles (`mutool draw -F trace`, y down) no taller than 1pt: the drawn rules.
    static func rules(_ pdf: String) throws -> [Rect] {
        let trace = try PDF.tool("mutool", ["draw", "-F", "trace", "-o", "-", pdf])
        var out: [Rect] = []
        var page = 0
        var points: [(Double, Double)] = []
        for line in trace.split(separator: "\n") {
            if line.contains("<page ") { page += 1 }
            if line.contains("<fill_path") { points = [] }
            if line.contains("<moveto") || line.contains("<lineto") {
                func attr(_ name: String) -> Double {
                    guard let r = line.range(of: " \(name)=\"") else { return .nan }
                    let rest = line[r.upperBound...]
                    return Double(rest[..<(rest.firstIndex(of: "\"") ?? rest.endIndex)]) ?? .nan
                }
                points.append((attr("x"), attr("y")))
            }
            if line.contains("</fill_path>"), points.count == 4 {
                let xs = points.map(\.0), ys = points.map(\.1)
                let r = Rect(page: page, x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!,
                             height: ys.max()! - ys.min()!)
                if r.height <= 1 && r.width > 5 { out.append(r) }
            }
        }
        return out
    }

    /// Each `footnote-N` mark's link annotation is on the page its destination (the note) is on.
    static func assertLinksOnNotePages(_ pdf: String, count: Int, file: StaticString = #filePath,
                                       line: UInt = #line) throws {
        var notePage: [String: Int] = [:]
        for row in try PDF.tool("pdfinfo", ["-dests", pdf]).split(separator: "\n") {
            let cols = row.split(separator: " ", omittingEmptySubsequences: true)
            guard let page = Int(cols.first ?? ""), let name = cols.last, name.hasPrefix("\"footnote-") else { continue }
            notePage[String(name.dropFirst().dropLast())] = page
        }
        let json = try PDF.tool("qpdf", ["--json=2", "--json-key=pages", "--json-key=qpdf", pdf])
        let root = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let pages = try XCTUnwrap(root["pages"] as? [[String: Any]])
        let objects = try XCTUnwrap((root["qpdf"] as? [Any])?.last as? [String: Any])
        func value(_ ref: String) -> Any? { (objects["obj:" + ref] as? [String: Any])?["value"] }
        var linkPage: [String: Int] = [:]
        for (k, page) in pages.enumerated() {
            guard let ref = page["object"] as? String, let dict = value(ref) as? [String: Any] else { continue }
            var annots = dict["/Annots"]
            if let indirect = annots as? String { annots = value(indirect) }
            for a in annots as? [String] ?? [] {
                guard let annot = value(a) as? [String: Any], let dest = annot["/Dest"] as? String,
                      dest.hasPrefix("u:footnote-") else { continue }
                let name = String(dest.dropFirst(2))
                if linkPage[name] == nil { linkPage[name] = k + 1 }
            }
        }
        XCTAssertEqual(notePage.count, count, "notes with destinations", file: file, line: line)
        XCTAssertEqual(linkPage.count, count, "marks with links", file: file, line: line)
        for (name, page) in linkPage where notePage[name] != page {
            XCTFail("\(name): mark on page \(page), note on page \(notePage[name] ?? -1)", file: file, line: line)
        }
    }
}
