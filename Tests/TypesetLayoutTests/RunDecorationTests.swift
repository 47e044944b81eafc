// Issue 8: colours, underlines and strike lines reach Pango's runs after line breaking (RunDecorations), and
// backgrounds are measured with the lines (LineBackgrounds), so Pango's per-run pass over the layout's
// attribute list, quadratic in a paragraph's styled spans, has nothing to walk. The runs must come out as
// Pango's own pass makes them, and every span keeps its style however many there are (there was a cap of
// 3,000 per paragraph, past which spans were set plain).

import CPangoCairo
import Foundation
import RTSyntax
import TypesetIR
@testable import TypesetLayout
import XCTest

final class RunDecorationTests: XCTestCase {
    private static let red = Color(red: 1, green: 0, blue: 0)
    private static let grey = Color(red: 0.5, green: 0.5, blue: 0.5)

    private func styled(_ text: String, _ change: (inout CharacterAttributes) -> Void) -> (String, CharacterAttributes) {
        var a = Fixture.attributes()
        change(&a)
        return (text, a)
    }

    /// Attribute types on the run: its `extra_attrs`.
    private func types(_ run: UnsafeMutablePointer<PangoGlyphItem>) -> [PangoAttrType] {
        var out: [PangoAttrType] = []
        var node = run.pointee.item.pointee.analysis.extra_attrs
        while let n = node {
            if let attribute = n.pointee.data?.assumingMemoryBound(to: PangoAttribute.self) {
                out.append(attribute.pointee.klass.pointee.type)
            }
            node = n.pointee.next
        }
        return out
    }

    private func runs(_ line: UnsafeMutablePointer<PangoLayoutLine>) -> [UnsafeMutablePointer<PangoGlyphItem>] {
        var out: [UnsafeMutablePointer<PangoGlyphItem>] = []
        var node = line.pointee.runs
        while let n = node {
            if let run = n.pointee.data?.assumingMemoryBound(to: PangoGlyphItem.self) { out.append(run) }
            node = n.pointee.next
        }
        return out
    }

    func testRunsGetTheirDecorationsAndTheLayoutListHasNone() throws {
        var pieces: [(String, CharacterAttributes)] = []
        for k in 0..<40 {
            pieces.append(("plain words \(k) ", Fixture.attributes()))
            pieces.append(styled("red words ", { $0.color = Self.red }))
            pieces.append(styled("under", { $0.underline = .single }))
            pieces.append((" and ", Fixture.attributes()))
            pieces.append(styled("struck", { $0.strike = .single }))
            pieces.append((" ", Fixture.attributes()))
            pieces.append(styled("grey ground", { $0.background = Self.grey }))
            pieces.append((" ", Fixture.attributes()))
        }
        let p = Fixture.paragraph(pieces)
        var diagnostics: [Diagnostic] = []
        let l = ParagraphLayout(single: p, columnWidth: 180, engine: .shared, images: ImageCache(),
                                diagnostics: &diagnostics)
        XCTAssertEqual(diagnostics, [])
        let layout = try XCTUnwrap(l.handle?.layout)
        let list = try XCTUnwrap(pango_layout_get_attributes(layout))
        var attributes: [UnsafeMutablePointer<PangoAttribute>] = []
        var node = pango_attr_list_get_attributes(list)
        let head = node
        while let n = node {
            if let a = n.pointee.data?.assumingMemoryBound(to: PangoAttribute.self) { attributes.append(a) }
            node = n.pointee.next
        }
        XCTAssertFalse(attributes.contains(where: RunDecorations.isDecoration), "no colour, ground or line on the layout")
        for a in attributes { pango_attribute_destroy(a) }
        g_slist_free(head)

        // Each run has exactly the decorations of the span it covers.
        let bytes = Array(p.text.utf8)
        var seen: Set<String> = []
        for line in l.linePointers {
            for run in runs(line) {
                let item = run.pointee.item.pointee
                let text = String(decoding: bytes[Int(item.offset) ..< Int(item.offset + item.length)], as: UTF8.self)
                let kinds = types(run)
                let trimmed = text.trimmingCharacters(in: .whitespaces)
                guard !trimmed.isEmpty else { continue }
                switch trimmed {
                case "red", "words", "red words":
                    XCTAssertEqual(kinds, [PANGO_ATTR_FOREGROUND], text)
                    seen.insert("red")
                case "under":
                    XCTAssertEqual(kinds, [PANGO_ATTR_UNDERLINE], text)
                    seen.insert("under")
                case "struck":
                    XCTAssertEqual(kinds, [PANGO_ATTR_STRIKETHROUGH], text)
                    seen.insert("struck")
                default:
                    XCTAssertEqual(kinds, [], "'\(text)' is plain: backgrounds are not Pango's")
                }
            }
        }
        XCTAssertEqual(seen, ["red", "under", "struck"])

        // Backgrounds: one rectangle per span piece on a line, where Pango puts the span's glyphs.
        var rectangles = 0
        for (i, line) in l.linePointers.enumerated() {
            let box = l.lines[i]
            for rect in l.backgrounds(ofLine: i) {
                rectangles += 1
                XCTAssertEqual(rect.color, LineBackground.Color(red: 32768, green: 32768, blue: 32768, alpha: 0))
                // The rectangle starts at a character of a "grey ground" span.
                var index: Int32 = 0, trailing: Int32 = 0
                let inside = pango_layout_line_x_to_index(line, Int32((rect.x + 0.5) * 1024), &index, &trailing)
                XCTAssertNotEqual(inside, 0)
                let run = p.runs.first { $0.range.contains(Int(index)) }
                XCTAssertEqual(run?.attributes.background, Self.grey, "at x \(rect.x) on line \(i)")
                XCTAssertEqual(-rect.y, box.ascent, accuracy: 0.01, "from the line's top")
                XCTAssertEqual(rect.height, box.ascent + box.descent, accuracy: 0.01)
            }
        }
        XCTAssertGreaterThanOrEqual(rectangles, 40, "every span has its ground")
    }

    /// A paragraph of 6,000 styled spans (twice the old cap) keeps every colour and ground, and Pango's attribute
    /// list stays free of them however long the paragraph is (laid out in pieces).
    func testThousandsOfSpansAllKeepTheirStyle() throws {
        var pieces: [(String, CharacterAttributes)] = []
        for _ in 0..<3000 {
            pieces.append(styled("r", { $0.color = Self.red }))
            pieces.append((" ", Fixture.attributes()))
            pieces.append(styled("g", { $0.background = Self.grey }))
            pieces.append((" ", Fixture.attributes()))
        }
        let p = Fixture.paragraph(pieces)
        var diagnostics: [Diagnostic] = []
        let l = ParagraphLayout(p, columnWidth: 300, engine: .shared, images: ImageCache(), diagnostics: &diagnostics)
        XCTAssertEqual(diagnostics.map(\.message), [], "no span is set plain")
        var red = 0, grounds = 0
        for i in 0..<l.lines.count {
            grounds += l.backgrounds(ofLine: i).count
            for run in runs(l.pangoLine(i)) where types(run).contains(PANGO_ATTR_FOREGROUND) {
                red += Int(run.pointee.glyphs.pointee.num_glyphs)
            }
        }
        XCTAssertEqual(red, 3000)
        XCTAssertEqual(grounds, 3000)
    }
}
