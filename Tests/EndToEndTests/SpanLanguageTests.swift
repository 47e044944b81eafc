// A span's `lang` reaches the PDF (section 10: `/Lang` from `lang`): its text is drawn in marked-content
// sequences of its paragraph's element whose property lists carry `/Lang` (ISO 32000-1, 14.9.2), so a screen
// reader switches language there. The glyphs stay where drawing the whole line puts them, the paragraph reads
// whole, and text in the element's own language carries no `/Lang` of its own.

import Foundation
import XCTest

final class SpanLanguageTests: XCTestCase {
    private func build(_ source: String, untagged: Bool = false, name: String = #function) throws -> String {
        let pdf = try Harness.typesetSource(source, name: name + (untagged ? "u" : "t"),
                                            environment: untagged ? ["TYPESET_UNTAGGED": "1"] : [:])
        let check = try PDF.tool("qpdf", ["--check", pdf])
        XCTAssertTrue(check.contains("No syntax or stream encoding errors"), check)
        return pdf
    }

    /// Each marked-content sequence of the page content as (its `/Lang`, or nil; the text of its literal
    /// strings), in drawing order.
    private func sequences(_ pdf: String) throws -> [(language: String?, text: String)] {
        let content = try PDF.tool("qpdf", ["--qdf", "--object-streams=disable", pdf, "-"])
        var result: [(String?, String)] = []
        var current: (String?, String)? = nil
        for line in content.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasSuffix(" BDC"), line.contains("/MCID") {
                var language: String? = nil
                if let r = line.range(of: "/Lang (") {
                    language = String(line[r.upperBound...].prefix { $0 != ")" })
                }
                current = (language, "")
            } else if line == "EMC" {
                if let c = current { result.append(c) }
                current = nil
            } else if current != nil {
                var inString = false
                for ch in line {
                    if ch == "(" { inString = true } else if ch == ")" { inString = false } else if inString { current!.1.append(ch) }
                }
            }
        }
        return result
    }

    private let germanWords = ["ein", "deutscher", "Satz", "mit", "vielen", "langen", "Wendungen", "der", "weitergeht"]
    private var mixed: String {
        "---\nlang: en\njustify: true\npage: 260pt x 400pt\nmargin: 20pt\n---\n"
            + "English text and [ein deutscher Satz mit vielen langen Wendungen, der über das Zeilenende hinaus "
            + "weitergeht]{lang=de} here, then English again until the end of the paragraph.\n"
    }

    func testASpansTextCarriesItsLanguageAcrossLines() throws {
        let pdf = try build(mixed)
        let all = try sequences(pdf)
        let german = all.filter { $0.language == "de" }
        XCTAssertGreaterThanOrEqual(german.count, 2, "the span crosses a line: one sequence a line at least: \(all)")
        let germanText = german.map(\.text).joined(separator: " ")
        for word in germanWords { XCTAssertTrue(germanText.contains(word), "'\(word)' is not marked German: \(all)") }
        let rest = all.filter { $0.language == nil }.map(\.text).joined(separator: " ")
        for word in ["English", "text", "here,", "again", "paragraph."] {
            XCTAssertTrue(rest.contains(word), "'\(word)' should be in the paragraph's language: \(all)")
            XCTAssertFalse(germanText.contains(word), "'\(word)' is marked German: \(all)")
        }
        XCTAssertFalse(all.contains { $0.language != nil && $0.language != "de" })
        // Copied, the paragraph is the same text as without tags; the glyphs are where the whole line puts them
        // (cairo positions a new sequence's first glyph exactly, a long string's glyphs to its widths' 1/1000 em).
        let untagged = try build(mixed, untagged: true)
        XCTAssertEqual(try PDF.tool("pdftotext", ["-raw", pdf, "-"]), try PDF.tool("pdftotext", ["-raw", untagged, "-"]))
        let a = try PDF.glyphs(pdf), b = try PDF.glyphs(untagged)
        XCTAssertEqual(a.count, b.count)
        for (g, h) in zip(a, b) {
            XCTAssertEqual(g.0, h.0)
            XCTAssertEqual(g.1, h.1, accuracy: 0.25, "'\(g.0)' moved")
            XCTAssertEqual(g.2, h.2, accuracy: 0.01, "'\(g.0)' moved")
        }
    }

    /// In a German paragraph the element is German (`/Lang` on the P); only the English span's text is marked.
    /// A list item's first line (drawn as label and body) and a table cell mark theirs too.
    func testOnlyTextInAnotherLanguageThanItsElementIsMarked() throws {
        let pdf = try build("---\nlang: en\n---\n\n{lang=de}\nDeutscher Absatz mit [an English phrase]{lang=en} darin.\n\n"
                            + "[Tout en français]{lang=fr}\n\n- item with [italiano]{lang=it} inside\n- plain item\n\n"
                            + "| a | b |\n|---|---|\n| cell [español]{lang=es} | x |\n")
        let all = try sequences(pdf)
        XCTAssertEqual(all.filter { $0.language == "en" }.map(\.text), ["an English phrase"], "\(all)")
        XCTAssertFalse(all.contains { $0.language == "de" }, "the German paragraph's own text is marked: \(all)")
        XCTAssertTrue(all.contains { $0.language == "fr" && $0.text.contains("fran") }, "\(all)")
        XCTAssertEqual(all.filter { $0.language == "it" }.map(\.text), ["italiano"], "\(all)")
        XCTAssertTrue(all.contains { $0.language == "es" && $0.text.contains("espa") }, "\(all)")
        let tree = try PDF.tool("qpdf", ["--qdf", "--object-streams=disable", pdf, "-"])
        XCTAssertTrue(tree.contains("/Lang (de)"), "the German paragraph's element has no /Lang")
    }
}
