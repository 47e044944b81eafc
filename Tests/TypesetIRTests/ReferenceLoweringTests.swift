// Heading numbers, figure and table captions and cross-reference labels in the IR (no Cairo).

import Foundation
import RTSyntax
@testable import TypesetIR
import XCTest

/// A real PNG for image blocks (lowering checks that the file is an image).
private let iconPath: String = {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples/check-icon.png").path
}()

private func figure(_ pairs: AttributePair..., id: String? = nil, line: Int = 1) -> Block {
    let image = ImageReference(alt: "icon", path: iconPath, attributes: Attributes(styles: [], id: id, pairs: pairs), range: at(line))
    return Block(.imageBlock(image), range: at(line))
}

private func pipeTable(line: Int = 1) -> Block {
    let cell = TableCell(content: [text("1")], range: at(line))
    return Block(.table(Table(alignments: [.left], header: [TableCell(content: [text("a")], range: at(line))], rows: [[cell]])),
                 range: at(line))
}

private func crossReference(_ id: String, page: Bool = false, line: Int = 1, column: Int = 1) -> Inline {
    let link = Inline(.link(destination: "#" + id, content: []), range: at(line, column))
    guard page else { return link }
    return Inline(.span(content: [link], attributes: attrs(pair("ref", "page"))), range: at(line, column))
}

final class HeadingNumberingTests: XCTestCase {
    func testPatternsAndCounters() throws {
        XCTAssertNil(HeadingNumbering(pattern: "x.1"))
        XCTAssertNil(HeadingNumbering(pattern: ""))
        var counter = HeadingCounter(HeadingNumbering(pattern: "1.1"))
        XCTAssertEqual([1, 2, 2, 1, 3, 2].map { counter.next(level: $0) }, ["1", "1.1", "1.2", "2", nil, "2.1"])
        var roman = HeadingCounter(HeadingNumbering(pattern: "I.A.1"))
        XCTAssertEqual([1, 2, 2, 3, 1, 2].map { roman.next(level: $0) }, ["I", "I.A", "I.B", "I.B.1", "II", "II.A"])
        var none = HeadingCounter(nil)
        XCTAssertNil(none.next(level: 1))
    }

    func testNumbersInHeadingTextOutlineAndTocButNotInIds() {
        let result = lower([
            Block(.directive(.toc(options: [])), range: at(1)),
            heading(1, "Intro", id: "intro"), heading(2, "Methods", id: "methods"), heading(3, "Deep", id: "deep"),
            heading(1, "End", id: "end"),
        ], frontMatter: frontMatter([("numbering", "1.1")]))
        let headings = result.paragraphs.filter { $0.outline != nil }
        XCTAssertEqual(headings.map(\.text), ["1 Intro", "1.1 Methods", "Deep", "2 End"])
        XCTAssertEqual(headings.map { $0.outline?.title }, ["1 Intro", "1.1 Methods", "Deep", "2 End"])
        XCTAssertEqual(headings.map { $0.outline?.id }, ["intro", "methods", "deep", "end"])
        let toc = result.document.blocks.compactMap { if case .tocEntry(let e) = $0 { e.paragraph.text } else { nil } }
        XCTAssertEqual(toc, ["1 Intro", "1.1 Methods", "Deep", "2 End"])
    }

    func testBadPatternWarnsAtItsValue() {
        let result = lower([heading(1, "Intro", id: "intro")], frontMatter: frontMatter([("numbering", "1.x")]))
        XCTAssertEqual(result.warnings.map(\.location), [loc(2, 12)])
        XCTAssertEqual(result.paragraphs[0].text, "Intro")
    }
}

final class CaptionLoweringTests: XCTestCase {
    func testFiguresAreNumberedWithCaptionsBelowTheirImages() throws {
        let result = lower([
            figure(pair("caption", "First")), paragraph(text("between")), figure(id: "fig-second"),
            figure(pair("width", "1cm")),   // no caption, no fig- id: a plain image block
        ])
        XCTAssertEqual(result.errors.count, 0, "\(result.diagnostics)")
        let texts = result.paragraphs.map(\.text)
        XCTAssertEqual(texts, ["\u{FFFC}", "Figure 1: First", "between", "\u{FFFC}", "Figure 2", "\u{FFFC}"])
        let captions = result.paragraphs.compactMap(\.caption)
        XCTAssertEqual(captions, [CaptionInfo(kind: .figure, number: 1, label: "Figure 1", contentBlocks: 1),
                                  CaptionInfo(kind: .figure, number: 2, label: "Figure 2", contentBlocks: 1)])
        XCTAssertTrue(result.paragraphs[0].style.keepWithNext, "the image stays with its caption")
        XCTAssertEqual(result.paragraphs[0].style.alignment, .center)
        XCTAssertEqual(result.paragraphs[1].runs[0].attributes.style, .italic, "style caption")
        XCTAssertEqual(result.paragraphs[3].anchors, ["fig-second"])
        // A figure's picture is at most the column wide (A4, 2cm margins: 481.9pt); a plain image block is not capped.
        XCTAssertEqual(result.paragraphs[0].attachments[0].image.maxWidth ?? 0, 481.89, accuracy: 0.01)
        XCTAssertNil(result.paragraphs[5].attachments[0].image.maxWidth)
    }

    /// RT section 5: no smart punctuation inside attribute values, so `caption="..."` is set as written; a
    /// `Table: ...` caption is a paragraph of text and gets it.
    func testACaptionAttributeIsSetAsWrittenAndATableCaptionParagraphIsNot() throws {
        let result = lower([figure(pair("caption", "It's \"cap\" -- x")), pipeTable(), paragraph(text("Table: It's -- y"))])
        let texts = result.paragraphs.map(\.text)
        XCTAssertTrue(texts.contains("Figure 1: It's \"cap\" -- x"), "\(texts)")
        XCTAssertTrue(texts.contains("Table 1: It\u{2019}s \u{2013} y"), "\(texts)")
        XCTAssertTrue(texts.contains { $0.contains("\u{FFFC}") })
    }

    func testLabelsFollowLangAndFrontMatterWords() {
        let german = lower([figure(pair("caption", "Bild")), pipeTable(), paragraph(text("Table: Werte"))],
                           frontMatter: frontMatter([("lang", "de")]))
        XCTAssertEqual(german.paragraphs.map(\.text).filter { !$0.hasPrefix("\u{FFFC}") }, ["Abbildung 1: Bild", "Tabelle 1: Werte"])
        let custom = lower([figure(pair("caption", "x"))], frontMatter: frontMatter([("figure-label", "Fig."), ("lang", "fr")]))
        XCTAssertEqual(custom.paragraphs[1].text, "Fig. 1: x")
        XCTAssertEqual(ReferenceLabels(language: "nl-BE").table, "Tabel")
        XCTAssertEqual(ReferenceLabels(language: "ja").figure, "Figure")
    }

    func testTableCaptionGoesAboveItsTableBeforeOrAfter() throws {
        let result = lower([
            pipeTable(), paragraph(text("Table: After {#tbl-a}"), line: 5),
            paragraph(text("Table: Before")), pipeTable(),
            paragraph(text("Table: lonely")),   // next to no table: a paragraph
        ])
        var kinds: [String] = []
        for block in result.document.blocks {
            switch block {
            case .paragraph(let p): kinds.append(p.text)
            case .table: kinds.append("<table>")
            default: break
            }
        }
        XCTAssertEqual(kinds, ["Table 1: After", "<table>", "Table 2: Before", "<table>", "Table: lonely"])
        let first = result.paragraphs[0]
        XCTAssertEqual(first.anchors, ["tbl-a"])
        XCTAssertTrue(first.style.keepWithNext, "a table caption stays with its table")
        XCTAssertEqual(first.caption?.contentBlocks, 0)
        XCTAssertEqual(first.location, loc(5))
    }
}

final class CrossReferenceLoweringTests: XCTestCase {
    func testLabelsForwardAndBackward() {
        let result = lower([
            paragraph(crossReference("fig-x"), text(" "), crossReference("tbl-y"), text(" "), crossReference("methods"),
                      text(" "), crossReference("plain"), text(" "), crossReference("sp")),
            heading(1, "Intro", id: "intro"),
            figure(pair("caption", "X"), id: "fig-x"),
            heading(2, "Methods", id: "methods"),
            pipeTable(), paragraph(text("Table: Y {#tbl-y}")),
            heading(4, "Plain heading", id: "plain"),
            paragraph(span(attrs(id: "sp"), text("the span")), text(" "), crossReference("intro")),
        ], frontMatter: frontMatter([("numbering", "1.1")]))
        XCTAssertEqual(result.errors.count, 0, "\(result.diagnostics)")
        let p = result.paragraphs[0]
        XCTAssertEqual(p.text, "Figure 1 Table 1 Section 1.1 Plain heading the span")
        XCTAssertEqual(p.attributes(of: "Figure 1")?.link, .destination("fig-x"))
        XCTAssertEqual(p.attributes(of: "Section")?.link, .destination("methods"))
        XCTAssertEqual(p.attributes(of: "Table 1")?.color, Color.parse("#1a4fb0"), "styled as a link")
        XCTAssertEqual(result.paragraphs.last?.text, "the span Section 1")
        assertRunsCover(p)
    }

    func testUnnumberedHeadingsAreCalledByTheirTextAndSectionIsLocalised() {
        let plain = lower([paragraph(crossReference("m")), heading(2, "Methods", id: "m")])
        XCTAssertEqual(plain.paragraphs[0].text, "Methods")
        let german = lower([paragraph(crossReference("m")), heading(1, "Methoden", id: "m")],
                           frontMatter: frontMatter([("numbering", "1"), ("lang", "de")]))
        XCTAssertEqual(german.paragraphs[0].text, "Abschnitt 1")
    }

    /// The label is the heading as it is set: smart punctuation applied, as in the heading, its bookmark and
    /// the table of contents (unless `smart: false`).
    func testAHeadingsLabelHasItsSmartPunctuation() {
        let typed = "Don't \"panic\" -- now"
        let result = lower([paragraph(crossReference("h")), heading(2, typed, id: "h")])
        XCTAssertEqual(result.paragraphs[0].text, "Don\u{2019}t \u{201C}panic\u{201D} \u{2013} now")
        XCTAssertEqual(result.paragraphs[1].text, result.paragraphs[0].text, "the heading itself")
        let plain = lower([paragraph(crossReference("h")), heading(2, typed, id: "h")], frontMatter: frontMatter([("smart", "false")]))
        XCTAssertEqual(plain.paragraphs[0].text, typed)
    }

    func testMissingTargetIsAnErrorAtTheReferenceButAPlainLinkOnlyWarns() {
        let result = lower([paragraph(crossReference("nowhere", line: 3, column: 7), text(" "),
                                      link("#gone", text("text"), line: 4, column: 2))])
        XCTAssertEqual(result.errors.map(\.location), [loc(3, 7)])
        XCTAssertTrue(result.errors[0].message.contains("#nowhere"), result.errors[0].message)
        XCTAssertEqual(result.warnings.map(\.location), [loc(4, 2)])
        XCTAssertEqual(result.paragraphs[0].attributes(of: "text")?.link, .destination("gone"))
    }

    func testPageReferenceIsAPlaceholderThatLayoutFillsIn() {
        let result = lower([paragraph(text("see page "), crossReference("end", page: true), text(" now")),
                            heading(1, "End", id: "end")])
        let p = result.paragraphs[0]
        XCTAssertEqual(p.text, "see page 00 now")
        XCTAssertEqual(p.pageReferences, [PageReference(range: 9..<11, target: "end")])
        let resolved = p.resolvingPageReferences(["end": 123])
        XCTAssertEqual(resolved.text, "see page 123 now")
        XCTAssertEqual(resolved.pageReferences[0].range, 9..<12)
        XCTAssertEqual(resolved.attributes(of: "123")?.link, .destination("end"))
        XCTAssertEqual(resolved.attributes(of: " now")?.link, nil)
        assertRunsCover(resolved)
        XCTAssertEqual(p.resolvingPageReferences(["other": 1]).text, p.text, "unknown pages keep the placeholder")
    }
}
