// `--jobs`: paragraphs shaped on worker threads give the same PDF, byte for byte, as one thread.

import Foundation
import XCTest

final class ParallelLayoutTests: XCTestCase {
    /// A two-column justified, hyphenated report with headings, lists, code, footnotes, a toc and
    /// `{{pages}}` (two passes), long enough that workers run well ahead of the paginator.
    static func report(sections: Int) -> String {
        let words = ("the layout of each paragraph depends on its width and text alone so workers can shape them "
            + "ahead while pages are assembled in order typesetting justification hyphenation measurement").split(separator: " ")
        var lines = ["---", "title: Parallel", "page: A4", "columns: 2", "justify: true", "hyphenate: true",
                     "footer: \"\\t{{page}} of {{pages}}\\t\"", "---", "", "@toc", ""]
        for s in 1...sections {
            lines.append("# Section \(s)")
            lines.append("")
            for k in 0..<4 {
                let count = 40 + (s * 7 + k * 13) % 90
                let text = (0..<count).map { i in String(words[(s * 31 + k * 17 + i * 7) % words.count]) }
                    .joined(separator: " ")
                let note = k == 2 ? "^[A note in section \(s).]" : ""
                lines.append("*\(text.prefix(12))* \(text) **end**\(note).")
                lines.append("")
            }
            lines.append("- item one of \(s)\n- item two, a little longer than the first\n")
            if s % 5 == 0 { lines.append("```\nlet x = \(s) // code\n```\n") }
        }
        return lines.joined(separator: "\n")
    }

    func testJobsOneAndTwoGiveTheSameBytes() throws {
        let dir = try Harness.scratch()
        try Harness.write(ParallelLayoutTests.report(sections: 40), to: dir + "/report.rt")
        let environment = ["SOURCE_DATE_EPOCH": "1700000000"]
        var outputs: [Data] = []
        for jobs in ["1", "2", "3"] {
            let out = dir + "/report-\(jobs).pdf"
            let result = try Harness.typeset([dir + "/report.rt", "-o", out, "--jobs", jobs], environment: environment)
            XCTAssertEqual(result.status, 0, result.stderr)
            outputs.append(try Data(contentsOf: URL(fileURLWithPath: out)))
        }
        XCTAssertGreaterThan(try PDF.pageCount(dir + "/report-1.pdf"), 5)
        XCTAssertEqual(outputs[0], outputs[1], "--jobs 2 changed the PDF")
        XCTAssertEqual(outputs[0], outputs[2], "--jobs 3 changed the PDF")
        XCTAssertTrue(try PDF.text(dir + "/report-2.pdf").contains("A note in section 40"))
    }

    /// With several jobs each page is written (cairo_show_page) on its own thread while the next is laid out:
    /// pages with links (underlined), images drawn twice, a chart, bookmarks, notes and a table still come out
    /// byte for byte as with one job, in order.
    func testPagesWrittenWhileTheNextIsLaidOutGiveTheSameBytes() throws {
        let dir = try Harness.scratch()
        try TestImage.writePNG(to: dir + "/pic.png")
        var lines = ["---", "title: Writer", "columns: 2", "justify: true", "hyphenate: true", "---", ""]
        for s in 1...24 {
            lines += ["# Part \(s)", "",
                      "See [the site \(s)](https://example.com/\(s)) and [part \(s % 24 + 1)](#part-\(s % 24 + 1)) "
                      + String(repeating: "for words that fill the column and wrap over lines ", count: 20)
                      + "with a note.^[Note \(s).]", "",
                      "![picture \(s)](pic.png)", "",
                      "| a | b |\n|---|---|\n| \(s) | \(s * s) |", ""]
            if s % 6 == 0 { lines += ["@chart bar data=rows x=name y=value title=\"Chart \(s)\"", ""] }
        }
        try Harness.write(lines.joined(separator: "\n"), to: dir + "/doc.rt")
        try Harness.write(#"{"rows": [{"name": "a", "value": 3}, {"name": "b", "value": 5}]}"#, to: dir + "/d.json")
        var outputs: [Data] = []
        for jobs in ["1", "2"] {
            let out = dir + "/doc-\(jobs).pdf"
            let result = try Harness.typeset([dir + "/doc.rt", "-o", out, "--data", dir + "/d.json", "--jobs", jobs],
                                             environment: ["SOURCE_DATE_EPOCH": "1700000000", "TYPESET_PAGE_WRITER": "1"])
            XCTAssertEqual(result.status, 0, result.stderr)
            outputs.append(try Data(contentsOf: URL(fileURLWithPath: out)))
        }
        XCTAssertGreaterThan(try PDF.pageCount(dir + "/doc-2.pdf"), 6)
        XCTAssertEqual(outputs[0], outputs[1], "--jobs 2 changed the PDF")
        let text = try PDF.text(dir + "/doc-2.pdf")
        XCTAssertLessThan(try XCTUnwrap(text.range(of: "Part 23")).lowerBound, try XCTUnwrap(text.range(of: "Part 24")).lowerBound)
    }

    /// One paragraph of 300 KB (words, emphasis, a stretch without break opportunities): with two jobs a worker
    /// lays out its pieces ahead of the paginator (issue 8); the PDF is the same, byte for byte.
    func testOneLongParagraphGivesTheSameBytesWithTwoJobs() throws {
        let dir = try Harness.scratch()
        var text = ""
        for k in 0..<47_000 {
            text += k % 97 == 5 ? "*stressed* " : ["layout ", "of ", "one ", "paragraph "][k % 4]
            if k == 20_000 { text += String(repeating: "[ a_", count: 5_000) + " " }
        }
        try Harness.write("---\ntitle: Long\ncolumns: 2\n---\n\n" + text + "\n", to: dir + "/long.rt")
        XCTAssertGreaterThan(text.utf8.count, 300_000)
        var outputs: [Data] = []
        for jobs in ["1", "2"] {
            let out = dir + "/long-\(jobs).pdf"
            let result = try Harness.typeset([dir + "/long.rt", "-o", out, "--jobs", jobs],
                                             environment: ["SOURCE_DATE_EPOCH": "1700000000"])
            XCTAssertEqual(result.status, 0, result.stderr)
            outputs.append(try Data(contentsOf: URL(fileURLWithPath: out)))
        }
        XCTAssertGreaterThan(try PDF.pageCount(dir + "/long-2.pdf"), 50)
        XCTAssertEqual(outputs[0], outputs[1], "--jobs 2 changed the PDF")
    }

    func testJobsMustBeAPositiveCount() throws {
        let dir = try Harness.scratch()
        try Harness.write("Hello.\n", to: dir + "/a.rt")
        let result = try Harness.typeset([dir + "/a.rt", "--jobs", "0"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("--jobs"), result.stderr)
    }
}
