import RTSyntax
@testable import TypesetIR
import XCTest

final class AttributeTests: XCTestCase {
    typealias Check = @Sendable (CharacterAttributes, ParagraphStyle) -> Bool

    /// One case per attribute key: a value and what it must do to the IR (body is 10pt, column 481.89pt).
    static let cases: [(key: String, value: String, check: Check)] = [
        ("font", "Linux Libertine O", { c, _ in c.fontFamily == "Linux Libertine O" }),
        ("size", "1.5em", { c, _ in c.fontSize == 15 }),
        ("weight", "bold", { c, _ in c.weight == 700 }),
        ("style", "italic", { c, _ in c.style == .italic }),
        ("color", "#ff0000", { c, _ in c.color == Color(red: 1, green: 0, blue: 0) }),
        ("background", "yellow", { c, _ in c.background == Color(red: 1, green: 1, blue: 0) }),
        ("underline", "wavy", { c, _ in c.underline == .wavy }),
        ("underline-color", "blue", { c, _ in c.underlineColor == Color(red: 0, green: 0, blue: 1) }),
        ("strike", "double", { c, _ in c.strike == .double }),
        ("strike-color", "rgb(0, 255, 0)", { c, _ in c.strikeColor == Color(red: 0, green: 1, blue: 0) }),
        ("stroke", "-0.1em", { c, _ in c.strokeWidth == -1 }),
        ("stroke-color", "black", { c, _ in c.strokeColor == .black }),
        ("shadow", "1pt 2pt 3pt rgb(0, 0, 255)", { c, _ in c.shadow == Shadow(dx: 1, dy: 2, blur: 3, color: Color(red: 0, green: 0, blue: 1)) }),
        ("kern", "0.5pt", { c, _ in c.letterSpacing == 0.5 }),
        ("letter-spacing", "10%", { c, _ in c.letterSpacing == 1 }),
        ("baseline", "3pt", { c, _ in c.baselineShift == 3 }),
        ("features", "smcp, onum, -liga", { c, _ in c.fontFeatures == "smcp=1, onum=1, -liga" }),
        ("smallcaps", "true", { c, _ in c.smallCaps }),
        ("ligatures", "false", { c, _ in !c.ligatures }),
        ("oblique", "12", { c, _ in c.obliqueAngle == 12 }),
        ("expansion", "0.3", { c, _ in c.expansion == 0.3 }),
        ("link", "#intro", { c, _ in c.link == .destination("intro") }),
        ("lang", "de-CH", { c, p in c.language == "de-CH" && p.language == "de-CH" && p.decimalSeparator == "," }),
        ("align", "justify", { _, p in p.alignment == .justify }),
        ("indent", "1em", { _, p in p.firstLineHeadIndent == 10 && p.headIndent == 0 }),
        ("margin-left", "20pt", { _, p in p.headIndent == 20 && p.firstLineHeadIndent == 20 }),
        ("margin-right", "1in", { _, p in p.tailIndent == 72 }),
        ("line-height", "1.5", { _, p in p.lineHeight == .multiple(1.5) }),
        ("line-spacing", "2pt", { _, p in p.lineSpacing == 2 }),
        ("min-line-height", "12pt", { _, p in p.minLineHeight == 12 }),
        ("max-line-height", "20pt", { _, p in p.maxLineHeight == 20 }),
        ("space-before", "1em", { _, p in p.spaceBefore == 10 }),
        ("space-after", "0", { _, p in p.spaceAfter == 0 }),
        ("tabs", "4cm, 9cm decimal, 16cm right", { _, p in
            p.tabStops == [TabStop(position: 4 * 72 / 2.54, alignment: .left), TabStop(position: 9 * 72 / 2.54, alignment: .decimal),
                           TabStop(position: 16 * 72 / 2.54, alignment: .right)] }),
        ("tab-interval", "1cm", { _, p in abs(p.tabInterval - 72 / 2.54) < 1e-9 }),
        ("hyphenate", "yes", { _, p in p.hyphenate }),
        ("wrap", "char", { _, p in p.wrap == .char }),
        ("max-lines", "3", { _, p in p.maxLines == 3 }),
        ("truncate", "middle", { _, p in p.truncation == .middle }),
        ("keep-with-next", "true", { _, p in p.keepWithNext }),
        ("keep-together", "true", { _, p in p.keepTogether }),
        ("widows", "3", { _, p in p.widows == 3 }),
        ("orphans", "4", { _, p in p.orphans == 4 }),
        ("break-before", "page", { _, p in p.breakBefore == .page }),
        ("border-left", "2pt red", { _, p in p.leftBorder == Border(width: 2, color: Color(red: 1, green: 0, blue: 0)) }),
        ("expansion-limit", "1%", { _, p in abs(p.expansionLimit - 0.01) < 1e-12 }),
        ("protrusion", "false", { _, p in !p.protrusion }),
        ("line-breaking", "greedy", { _, p in p.greedyBreaking }),
    ]

    func testEveryAttributeKeyReachesItsIRField() throws {
        for (key, value, check) in Self.cases {
            let result = lower([paragraph(text("x"), attributes: attrs(pair(key, value)))])
            XCTAssertEqual(result.diagnostics, [], key)
            let p = try XCTUnwrap(result.paragraphs.first)
            XCTAssertTrue(check(p.runs[0].attributes, p.style), "\(key)=\(value) did not reach the IR")
        }
    }

    func testEveryKeyInTheTableIsCovered() {
        // `bullet` shapes list markers rather than a paragraph field: ListMarkerTests covers it.
        XCTAssertEqual(Set(AttributeTable.handlers.keys).subtracting(["bullet"]), Set(Self.cases.map(\.key)))
    }

    func testWithoutTheAttributeTheChecksFail() throws {
        // Guards against checks that pass on defaults.
        let p = try XCTUnwrap(lower([paragraph(text("x"))]).paragraphs.first)
        for (key, _, check) in Self.cases where key != "space-after" {
            XCTAssertFalse(check(p.runs[0].attributes, p.style), "\(key) check passes without the attribute")
        }
    }

    func testIndentIsRelativeToMarginLeft() throws {
        let p = try XCTUnwrap(lower([paragraph(text("x"), attributes: attrs(pair("margin-left", "2cm"), pair("indent", "-1cm")))]).paragraphs.first)
        XCTAssertEqual(p.style.headIndent, 2 * 72 / 2.54, accuracy: 1e-9)
        XCTAssertEqual(p.style.firstLineHeadIndent, 1 * 72 / 2.54, accuracy: 1e-9)
    }

    func testPercentAndEmContexts() throws {
        // size first, so margin-left's em uses the new size; % of the column width.
        let p = try XCTUnwrap(lower([paragraph(text("x"), attributes: attrs(pair("margin-left", "1em"), pair("size", "20pt"), pair("margin-right", "10%")))]).paragraphs.first)
        XCTAssertEqual(p.style.headIndent, 20)
        XCTAssertEqual(p.style.tailIndent, PageGeometry().columnWidth / 10, accuracy: 1e-9)
        XCTAssertEqual(p.runs[0].attributes.fontSize, 20)
    }

    func testLineHeightForms() throws {
        func lineHeight(_ v: String) throws -> LineHeight {
            try XCTUnwrap(lower([paragraph(text("x"), attributes: attrs(pair("line-height", v)))]).paragraphs.first).style.lineHeight
        }
        XCTAssertEqual(try lineHeight("14pt"), .exactly(14))
        XCTAssertEqual(try lineHeight("150%"), .multiple(1.5))
        XCTAssertEqual(try lineHeight("2em"), .exactly(20))
    }

    func testUnknownKeyWarnsAtKeyAndDocumentStillLowers() throws {
        let result = lower([paragraph(text("x"), attributes: attrs(pair("colour", "red", line: 3, column: 5)))])
        XCTAssertEqual(result.warnings.count, 1)
        XCTAssertEqual(result.warnings.first?.location, loc(3, 5))
        XCTAssertTrue(result.warnings.first?.message.contains("colour") ?? false)
        XCTAssertEqual(result.paragraphs.first?.text, "x")
    }

    func testBadValueWarnsAtKeyAndFallsBack() throws {
        let result = lower([paragraph(text("x"), attributes: attrs(pair("size", "huge", line: 2, column: 3), pair("weight", "950", line: 2, column: 14)))])
        XCTAssertEqual(result.warnings.map(\.location), [loc(2, 3), loc(2, 14)], "section 6: a warning at the key's location")
        XCTAssertEqual(result.errors, [])
        let a = try XCTUnwrap(result.paragraphs.first).runs[0].attributes
        XCTAssertEqual(a.fontSize, 10)
        XCTAssertEqual(a.weight, 400)
    }

    func testBadValuesAreRejected() {
        let bad: [(String, String)] = [
            ("size", "-2pt"), ("style", "slanted"), ("color", "#12"), ("underline", "triple"), ("strike", "wavy"),
            ("shadow", "1pt 2pt"), ("features", "smcp=yes"), ("smallcaps", "maybe"), ("oblique", "steep"),
            ("expansion", "-1"), ("link", ""), ("lang", "english!"), ("align", "middle"), ("line-height", "-1"),
            ("tabs", "4cm sideways"), ("tab-interval", "0"), ("wrap", "line"), ("max-lines", "-1"),
            ("truncate", "end"), ("widows", "0"), ("break-before", "chapter"), ("border-left", "2pt"),
        ]
        for (key, value) in bad {
            let result = lower([paragraph(text("x"), attributes: attrs(pair(key, value)))])
            XCTAssertEqual(result.warnings.count, 1, "\(key)=\(value) should warn")
        }
    }

    func testParagraphAttributeOnSpanWarns() throws {
        let result = lower([paragraph(span(attrs(pair("align", "center", line: 4, column: 9), pair("color", "red")), text("x")))])
        XCTAssertEqual(result.warnings.map(\.location), [loc(4, 9)])
        let p = try XCTUnwrap(result.paragraphs.first)
        XCTAssertEqual(p.style.alignment, .left)
        XCTAssertEqual(p.runs[0].attributes.color, Color(red: 1, green: 0, blue: 0))
    }

    func testBuiltInStylesAreValid() {
        for (name, pairs) in StyleSheet.builtIns {
            var state = StyleState()
            var report = AttributeDiagnostics(report: true)
            AttributeTable.apply(pairs.map { pair($0.0, $0.1) }, to: &state, scope: .paragraph, diagnostics: &report)
            XCTAssertEqual(report.messages, [], name)
        }
    }

    func testStyleNameAppliesAndUnknownStyleWarns() throws {
        let result = lower([
            paragraph(text("x"), attributes: Attributes(styles: [StyleName("caption", range: at(1))])),
            paragraph(text("y"), attributes: Attributes(styles: [StyleName("nosuch", range: at(7, 2))])),
        ])
        XCTAssertEqual(result.paragraphs[0].style.alignment, .center)
        XCTAssertEqual(result.paragraphs[0].runs[0].attributes.style, .italic)
        XCTAssertEqual(result.warnings.map(\.location), [loc(7, 2)])
    }

    func testIdBecomesAnchor() throws {
        let result = lower([paragraph(text("x"), attributes: attrs(id: "here")), paragraph(link("#here", text("go")))])
        XCTAssertEqual(result.paragraphs[0].anchors, ["here"])
        XCTAssertEqual(result.diagnostics, [])
    }
}
