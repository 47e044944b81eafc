// Issue 12's features together, read back from the PDF: a chart and an SVG as numbered, referable, deferred
// figures; notes in captions, table cells and referenced sections under their own column; a caption or heading
// that keeps with what follows also when that carries a note; `{ref=page}` inside a note; the report examples.

import Foundation
import XCTest

final class ReportInterplayTests: XCTestCase {
    private static var examples: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples").path
    }

    private static let data = """
        {"tests": [{"name": "alpha", "seconds": 1.5}, {"name": "beta", "seconds": 3.25}, {"name": "gamma", "seconds": 0.75}]}
        """

    /// Typesets `source` with the data above and a matplotlib SVG next to it.
    private func build(_ source: String, name: String = #function) throws -> String {
        let dir = try Harness.scratch(name)
        try FileManager.default.copyItem(atPath: Self.examples + "/build-times.svg", toPath: dir + "/plot.svg")
        try Harness.write(Self.data, to: dir + "/data.json")
        try Harness.write(source, to: dir + "/doc.rt")
        let result = try Harness.typeset(["doc.rt", "--data", "data.json", "-o", "doc.pdf"], cwd: dir)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        return dir + "/doc.pdf"
    }

    private func word(_ text: String, in words: [PDF.Word], file: StaticString = #filePath, line: UInt = #line) throws -> PDF.Word {
        try XCTUnwrap(words.first { $0.text == text }, "no '\(text)'", file: file, line: line)
    }

    /// The PDF's text with every run of white space one space (lines wrap anywhere in a column).
    private func flatText(_ pdf: String, page: Int? = nil) throws -> String {
        try PDF.text(pdf, page: page).split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    private func filler(_ count: Int) -> String {
        (0..<count).map { "Filler paragraph number \($0) of the text before." }.joined(separator: "\n\n")
    }

    func testChartAndSVGFiguresAreNumberedReferableAndTheirCaptionNotesSitUnderTheirColumn() throws {
        let pdf = try build("""
            ---
            columns: 2
            numbering: 1.1
            ---
            # Intro

            See [](#fig-chart), [](#fig-svg), [](#tbl-t) and [](#later); the chart is on page [](#fig-chart){ref=page}.

            @chart bar data=tests x=name y=seconds title="Chartitle" caption="Chartcaption^[Chartnote here.]" #fig-chart

            @columnbreak

            ![plot](plot.svg){caption="Svgcaption[^svg]" #fig-svg}

            [^svg]: Svgnote here.

            Table: Tablecaption {#tbl-t}

            | a | b |
            |---|---|
            | Cellword^[Cellnote here.] | y |

            # Later section {#later}

            Back to [](#fig-chart) and [](#intro).

            """)
        let text = try flatText(pdf)
        for expected in ["See Figure 1, Figure 2, Table 1 and Section 2; the chart is on page 1.",
                         "Figure 1: Chartcaption", "Figure 2: Svgcaption", "Table 1: Tablecaption",
                         "Back to Figure 1 and Section 1."] {
            XCTAssertTrue(text.contains(expected), "'\(expected)' missing in \(text)")
        }
        let words = try PDF.words(pdf)
        let middle = 297.6
        // Each caption's note at the foot of the caption's column; the cell's note under the table's. (The
        // raised number is a word of its own.)
        for (mark, note) in [("Chartcaption", "Chartnote"), ("Svgcaption", "Svgnote"), ("Cellword", "Cellnote")] {
            let m = try word(mark, in: words), n = try word(note, in: words)
            XCTAssertEqual(m.page, n.page)
            XCTAssertEqual(m.xMin < middle, n.xMin < middle, "\(note) not under the column of \(mark)")
            XCTAssertGreaterThan(n.yMin, m.yMax)
        }
        XCTAssertLessThan(try word("Chartcaption", in: words).xMin, middle)
        XCTAssertGreaterThan(try word("Svgcaption", in: words).xMin, middle)
        XCTAssertTrue(text.contains("1. Chartnote here.") && text.contains("2. Svgnote here.") && text.contains("3. Cellnote here."))
        // The SVG stays vectors; the chart's links resolve to its figure.
        XCTAssertFalse(try PDF.objects(pdf).contains("/Subtype /Image"), "an SVG or chart was rasterised")
    }

    func testAChartFigureThatDoesNotFitMovesToTheNextColumnAndTheTextFlowsOn() throws {
        let pdf = try build("""
            ---
            columns: 2
            ---
            \(filler(50))

            @chart bar data=tests x=name y=seconds title="Chartitle" caption="Chartcaption" #fig-chart

            Followword comes after the chart in the source, and [](#fig-chart) is referred to.

            """)
        // The filler ends low in the second column of page 1: the chart goes to the top of the next column
        // (page 2's first) and the paragraph after it fills the rest of page 1.
        let words = try PDF.words(pdf)
        let title = try word("Chartitle", in: words), follow = try word("Followword", in: words)
        let lastFiller = try word("49", in: words)
        XCTAssertEqual(lastFiller.page, 1)
        XCTAssertGreaterThan(lastFiller.xMin, 297.6)
        XCTAssertEqual(follow.page, 1)
        XCTAssertGreaterThan(follow.yMin, lastFiller.yMax)
        XCTAssertEqual(title.page, 2)
        XCTAssertLessThan(title.xMax, 297.6)
        XCTAssertLessThan(title.yMin, 100, "at the top of the column")
        XCTAssertTrue(try flatText(pdf).contains("Figure 1 is referred to"))
    }

    func testATableCaptionAndHeaderStayWithTheFirstRowWhoseNoteMovesIt() throws {
        let note = "Cellnote explains the cell at some length so that it takes two lines of notes at the foot of "
            + "the page, or even three lines if we keep on writing words here."
        // 37 filler paragraphs leave room for the caption, header and row, but not for the row's note too.
        let pdf = try build(filler(37) + "\n\nTable: Captionword {#tbl-a}\n\n| Headword | b |\n|---|---|\n"
            + "| Cellword^[\(note)] | 2 |\n| 3 | 4 |\n\nSee [](#tbl-a).\n")
        let words = try PDF.words(pdf)
        let caption = try word("Captionword", in: words), header = try word("Headword", in: words)
        let cell = try word("Cellword", in: words)
        XCTAssertEqual(cell.page, 2)
        XCTAssertEqual(caption.page, cell.page, "the caption was left behind")
        XCTAssertEqual(words.filter { $0.text == "Headword" }.count, 1, "the header was set twice")
        XCTAssertEqual(header.page, cell.page)
    }

    func testOnABalancedLastPageATableCaptionWithANoteStaysWithItsTableBehindADeferredFigure() throws {
        let pdf = try build("""
            ---
            columns: 2
            numbering: 1.1
            ---
            @toc

            # Intro

            See [](#fig-chart) and [](#fig-svg) and [](#tbl-t) and [](#later). A note here[^a].

            [^a]: The first note.

            @chart bar data=tests x=name y=seconds title="Times" caption="Times per test^[Note in a chart caption.]" #fig-chart

            ![plot](plot.svg){caption="An SVG plot[^b]" #fig-svg}

            [^b]: Note in an SVG caption.

            Table: Captionword with a note^[Note in a table caption.] {#tbl-t}

            | a | b |
            |---|---|
            | Cellword^[Cellnote] | y |

            # Later section {#later}

            Back to [](#fig-chart).

            """)
        let words = try PDF.words(pdf)
        let caption = try word("Captionword", in: words), cell = try word("Cellword", in: words)
        let svg = try word("plot", in: words)
        // The SVG figure moved to the second column; the table with its caption after it, in the same column.
        XCTAssertGreaterThan(svg.xMin, 297.6)
        XCTAssertEqual(caption.xMin > 297.6, cell.xMin > 297.6, "caption and table in different columns")
        XCTAssertLessThan(caption.yMax, cell.yMin)
        XCTAssertLessThan(cell.yMin - caption.yMax, 40, "caption not right above its table")
    }

    func testAHeadingStaysWithAFirstLineWhoseNoteMovesIt() throws {
        let note = "Longnote explains the line at some length so that it takes two lines of notes at the foot of "
            + "the page, or even three lines if we keep on writing words here and there and more."
        let pdf = try build(filler(37) + "\n\n## Headword here\n\nFirstline^[\(note)] and more.\n")
        let words = try PDF.words(pdf)
        let heading = try word("Headword", in: words), line = try word("Firstline", in: words)
        XCTAssertEqual(line.page, 2)
        XCTAssertEqual(heading.page, line.page, "the heading was left at the foot of page 1")
    }

    func testAPageReferenceInsideANoteShowsThePage() throws {
        let pdf = try build("""
            # Start {#start}

            A mark^[See page [](#end){ref=page} and [](#end).] here.

            @pagebreak

            # End {#end}

            The end.

            """)
        let text = try flatText(pdf, page: 1)
        XCTAssertTrue(text.contains("See page 2 and End."), text)
    }

    func testANoteInAHeadingIsNotRepeatedInItsBookmarkTocEntryOrReference() throws {
        let pdf = try build("""
            ---
            numbering: 1.1
            header: "{{section}}"
            ---
            @toc

            # Methods[^m] used {#methods}

            See [](#methods) on page [](#methods){ref=page}.

            [^m]: Heading note.

            @pagebreak

            More text.

            """)
        let text = try flatText(pdf)
        XCTAssertTrue(text.contains("1 Methods used . "), "the @toc entry: \(text)")
        XCTAssertTrue(text.contains("See Section 1 on page 1."), text)
        XCTAssertTrue(text.contains("1 Methods1 used"), "the heading keeps its mark: \(text)")
        XCTAssertEqual(try flatText(pdf, page: 2), "1 Methods used More text.", "the page header")
        let titles = try PDF.tool("qpdf", ["--json", pdf]).components(separatedBy: "\"/Title\": \"").dropFirst()
            .map { $0.prefix { $0 != "\"" } }
        XCTAssertTrue(titles.contains("u:1 Methods used"), "bookmarks: \(titles)")
    }

    // MARK: The examples

    func testTheTechReportDrawsItsSVGPlotAsVectorsWithNotesAndReferences() throws {
        let pdf = try Harness.scratch() + "/tech.pdf"
        let result = try Harness.typeset([Self.examples + "/tech-report.rt", "-o", pdf])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        let objects = try PDF.objects(pdf)
        // One raster image (the PNG bar plot); the SVG line plot is paths.
        XCTAssertEqual(objects.components(separatedBy: "/Subtype /Image").count - 1, 1)
        let text = try flatText(pdf)
        for expected in ["1 Summary", "4.1 Flaky tests", "Figure 1: Time of the whole test suite",
                         "Figure 2: Passed and failed tests", "Table 1: Tests per suite", "(see Figure 1 on page",
                         "Section 2.2 on page 1"] {
            XCTAssertTrue(text.contains(expected), "'\(expected)' missing")
        }
        // Four notes, numbered in order, each on its mark's page.
        let words = try PDF.words(pdf)
        for n in 1...4 {
            let starts = words.filter { $0.text == "\(n)." }
            XCTAssertFalse(starts.isEmpty, "note \(n) missing")
        }
    }

    func testTheReportExamplesReferToTheirTablesAndCharts() throws {
        let ci = Self.examples + "/ci-report"
        let ciPDF = try Harness.scratch() + "/ci.pdf"
        var result = try Harness.typeset([ci + "/report.rt", "--data", ci + "/results.json", "-o", ciPDF])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        let ciText = try flatText(ciPDF)
        for expected in ["Table 1 counts the", "Figure 1 shows them per suite and Figure 2 the five slowest",
                         "Table 1: Tests in this run", "1. A skipped test did not run"] {
            XCTAssertTrue(ciText.contains(expected), "ci-report: '\(expected)' missing")
        }
        let tr = Self.examples + "/test-report"
        let trPDF = try Harness.scratch() + "/tr.pdf"
        result = try Harness.typeset([tr + "/report.rt", "--data", tr + "/results.json", "-o", trPDF])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        let trText = try flatText(trPDF)
        XCTAssertTrue(trText.contains("Figure 1 shows them per suite"))
        XCTAssertTrue(trText.contains("Table 1 on page 1 lists every test"))
        XCTAssertEqual(trText.components(separatedBy: "testParser").count - 1, 40)
        let rows = try PDF.words(trPDF).filter { $0.text.hasPrefix("test") && $0.text.count > 8 }
        XCTAssertEqual(rows.count, 200, "every test in the table")
    }
}
