// Markdown people already have (issue 10, RT section 9): remote images, task lists, an HTML README header, and
// the two documents in Examples/markdown typeset with no raw markup on the page.

import Foundation
import XCTest

final class MarkdownDocumentTests: XCTestCase {
    private static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples/markdown")

    private func typeset(_ source: String, name: String = #function) throws -> (pdf: String, result: RunResult) {
        let dir = try Harness.scratch(name)
        try Harness.write(source, to: dir + "/doc.md")
        let result = try Harness.typeset([dir + "/doc.md", "-o", dir + "/doc.pdf"])
        return (dir + "/doc.pdf", result)
    }

    private func warningLines(_ stderr: String) -> [String] {
        stderr.split(separator: "\n").map(String.init).filter { $0.contains(": warning: ") }
    }

    /// Text runs in one font, in reading order: ("DejaVuSansMono", "git clone ...").
    private func fontRuns(_ pdf: String) throws -> [(font: String, text: String)] {
        var runs: [(font: String, text: String)] = []
        for char in try Chars.read(pdf) {
            let c = Stext.character(char.c)
            if let last = runs.last, last.font == char.font {
                runs[runs.count - 1].text += c
            } else {
                runs.append((char.font, c))
            }
        }
        return runs
    }

    // MARK: Remote images (section 5)

    func testRemoteImagesAreNotFetchedTheirAltTextStands() throws {
        let (pdf, result) = try typeset("""
            ![build status](https://img.shields.io/badge/build-passing-green.svg)

            Badges: [![CI](https://example.com/ci/badge.svg)](https://example.com/ci) and <img src="http://example.com/x.png" alt="Logo" width="20">.

            """)
        XCTAssertEqual(result.status, 0, result.stderr)
        let text = try PDF.text(pdf)
        XCTAssertTrue(text.contains("build status"), text)
        XCTAssertTrue(text.contains("Badges: CI and Logo."), text)
        XCTAssertEqual(warningLines(result.stderr).map { $0.components(separatedBy: ": warning: ")[0].split(separator: ":").suffix(2).joined(separator: ":") },
                       ["1:1", "3:10", "3:79"], result.stderr)
        XCTAssertTrue(warningLines(result.stderr).allSatisfy { $0.contains("remote image") && $0.contains("not fetched") })
        // The badge inside a link is still a link.
        XCTAssertTrue(try PDF.objects(pdf).contains("https://example.com/ci"))
    }

    // MARK: Emoji and symbols (READMEs are full of them)

    func testEmojiAndSymbolsPrintAsTextNotBoxes() throws {
        let (pdf, result) = try typeset("# Rustlings 🦀\n\nDone ✅, failed ❌, shipped 🎉 ➡ next.\n")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(warningLines(result.stderr), [], "scripts/install-deps.sh installs fonts-symbola")
        let text = try PDF.text(pdf)
        for symbol in ["🦀", "✅", "❌", "🎉", "➡"] { XCTAssertTrue(text.contains(symbol), "\(symbol) in \(text)") }
        XCTAssertTrue(try fontRuns(pdf).contains { $0.font.contains("Symbola") && $0.text.contains("✅") })
    }

    // MARK: Task lists (section 9)

    func testTaskBoxesReplaceTheBullets() throws {
        let (pdf, result) = try typeset("- [ ] write the parser\n- [x] write the tests\n- plain item\n")
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = try PDF.text(pdf).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertEqual(Array(lines.prefix(3)), ["☐ write the parser", "☑ write the tests", "• plain item"])
    }

    /// An ordered task item keeps its number, and the box opens its text (as GitHub shows it).
    func testOrderedTaskItemsKeepTheirNumbers() throws {
        let (pdf, result) = try typeset("1. [x] first done\n2. [ ] then this\n")
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = try PDF.text(pdf).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
        XCTAssertEqual(Array(lines.prefix(2)), ["1. ☑ first done", "2. ☐ then this"])
    }

    // MARK: HTML (section 9)

    func testCentredHTMLHeaderIsAHeadingWithALogo() throws {
        let dir = try Harness.scratch()
        try FileManager.default.copyItem(atPath: Self.examples.appendingPathComponent("logo.png").path, toPath: dir + "/logo.png")
        try Harness.write("<h1 align=\"center\"><img src=\"logo.png\" width=\"120\"><br>Project</h1>\n\nBody text.\n", to: dir + "/doc.md")
        let result = try Harness.typeset([dir + "/doc.md", "-o", dir + "/doc.pdf"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        let words = try PDF.words(dir + "/doc.pdf")
        let title = try XCTUnwrap(words.first { $0.text == "Project" })
        let body = try XCTUnwrap(words.first { $0.text == "Body" })
        // A4: the title is centred on the page and set larger than the body (a level-1 heading), below the logo.
        XCTAssertEqual((title.xMin + title.xMax) / 2, 595.28 / 2, accuracy: 2)
        XCTAssertGreaterThan(title.yMax - title.yMin, 1.5 * (body.yMax - body.yMin))
        XCTAssertGreaterThan(title.yMin, 56.7 + 120 * 0.75 - 1, "the 120 px (90 pt) logo sits above the title")
    }

    func testUnknownTagsWarnOnceAndCommentsSilently() throws {
        let (pdf, result) = try typeset("<!-- hidden note -->\nA <blink>b</blink> <blink>c</blink> d.\n")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try PDF.text(pdf).trimmingCharacters(in: .whitespacesAndNewlines), "A b c d.")
        XCTAssertEqual(warningLines(result.stderr).count, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("doc.md:2:3: warning: HTML tag <blink>"), result.stderr)
    }

    // MARK: Examples/markdown

    /// Both examples typeset, with no raw markup on any page and no warning but the remote badges'.
    func testExampleREADMEAndChangelogShowNoRawMarkup() throws {
        for (name, remote) in [("README.md", 3), ("CHANGELOG.md", 0)] {
            let dir = try Harness.scratch(name)
            let result = try Harness.typeset([Self.examples.appendingPathComponent(name).path, "-o", dir + "/out.pdf"])
            XCTAssertEqual(result.status, 0, "\(name): \(result.stderr)")
            let warnings = warningLines(result.stderr)
            XCTAssertEqual(warnings.count, remote, "\(name): \(result.stderr)")
            XCTAssertTrue(warnings.allSatisfy { $0.contains("remote image") }, "\(name): \(result.stderr)")
            let text = try PDF.text(dir + "/out.pdf")
            // Code samples may hold anything (`Result<()>`); the running text may not.
            let prose = try fontRuns(dir + "/out.pdf").filter { !$0.font.contains("Mono") }.map(\.text).joined(separator: " ")
            for raw in ["<", "**", "[x]", "[ ]", "](", "<!--"] {
                XCTAssertFalse(prose.contains(raw), "\(name) shows '\(raw)':\n\(prose)")
            }
            if name == "README.md" {
                for shown in ["Tidemark\nCI crates.io License: MIT", "Keep a log of the tides you sail.", "Install · Usage · Contributing",
                              "☑ record readings", "☐ a web dashboard", "--token ${{ secrets.CARGO_TOKEN }}",
                              "${{ github.ref }} names the tag", "Press Ctrl+C to stop.", "Why not a spreadsheet?"] {
                    XCTAssertTrue(text.contains(shown), "README lacks '\(shown)':\n\(text)")
                }
                let runs = try fontRuns(dir + "/out.pdf")
                XCTAssertTrue(runs.contains { $0.font.contains("Mono") && $0.text.contains("Ctrl") }, "<kbd> is monospace")
                XCTAssertTrue(runs.contains { $0.font.contains("Bold") && $0.text.contains("Keep a log of the tides") }, "<b> is bold")
            }
        }
    }

    /// The constructs of the examples that the CommonMark block/inline work reads (reference links, setext
    /// headings, indented code, entity references, footnotes). Skipped, saying which, while a probe shows one
    /// of them still printed raw on this build; enabled by itself once they all work.
    func testExamplesReadAsGitHubShowsThem() throws {
        let probes = [
            ("reference links", "[a][r] [R]\n\n[r]: https://example.com/r\n[R]: https://example.com/R\n", ["[", "]:"]),
            ("setext headings", "Title\n=====\n", ["="]),
            ("indented code", "Text\n\n    - not a list\n", ["•"]),
            ("entity references", "&copy; &nbsp;x\n", ["&"]),
            ("footnotes", "Note[^n].\n\n[^n]: The note.\n", ["[^"]),
        ]
        var missing: [String] = []
        for (name, source, raw) in probes {
            let (pdf, result) = try typeset(source, name: "probe" + name)
            let text = result.status == 0 ? try PDF.text(pdf) : "[failed]"
            if raw.contains(where: text.contains) { missing.append(name) }
        }
        if !missing.isEmpty {
            throw XCTSkip("not yet supported on this build: \(missing.joined(separator: ", "))")
        }
        for name in ["README.md", "CHANGELOG.md"] {
            let dir = try Harness.scratch("gh" + name)
            let result = try Harness.typeset([Self.examples.appendingPathComponent(name).path, "-o", dir + "/out.pdf"])
            XCTAssertEqual(result.status, 0, "\(name): \(result.stderr)")
            XCTAssertTrue(warningLines(result.stderr).allSatisfy { $0.contains("remote image") }, "\(name): \(result.stderr)")
            // Words as read, line breaks made spaces: a sentence may wrap anywhere.
            let text = try PDF.text(dir + "/out.pdf").split(whereSeparator: \.isWhitespace).joined(separator: " ")
            for raw in ["[guide]", "[FAQ]", "]: http", "===", "&copy;", "&nbsp;", "[^smooth]", "[Unreleased]", "[0.5.0]"] {
                XCTAssertFalse(text.contains(raw), "\(name) shows '\(raw)':\n\(text)")
            }
            if name == "README.md" {
                XCTAssertTrue(text.contains("See the user guide for the long version, or the FAQ if you are in a hurry."), text)
                XCTAssertTrue(text.contains("Copyright © 2026"), text)
                XCTAssertTrue(text.contains("A centred moving average"), "the footnote is set")
                let runs = try fontRuns(dir + "/out.pdf")
                XCTAssertTrue(runs.contains { $0.font.contains("Mono") && $0.text.contains("git clone") }, "indented code is monospace")
                XCTAssertTrue(runs.contains { $0.font.contains("Bold") && $0.text.contains("Tidemark Tables") }, "the setext heading is a heading")
            } else {
                XCTAssertTrue(text.contains("Unreleased"), text)
                XCTAssertTrue(try PDF.objects(dir + "/out.pdf").contains("compare/v0.3.0...v0.5.0"), "[0.5.0] links to its diff")
            }
        }
    }
}
