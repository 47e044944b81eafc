import RTSyntax
@testable import TypesetIR
import XCTest

final class FrontMatterTests: XCTestCase {
    let mm = 72 / 25.4

    func testDefaults() {
        let result = lower([paragraph(text("x"))], options: LoweringOptions(now: 1234))
        let page = result.document.page
        XCTAssertEqual(page.width, 210 * mm, accuracy: 0.01)
        XCTAssertEqual(page.margins, EdgeInsets(all: 20 * mm).rounded)
        XCTAssertEqual(page.columns, 1)
        XCTAssertEqual(result.document.metadata.creationDate, 1234)
        XCTAssertEqual(result.paragraphs[0].runs[0].attributes.fontFamily, "DejaVu Serif")
        XCTAssertEqual(result.paragraphs[0].style.lineHeight, .multiple(1.2))
    }

    func testA5Landscape() {
        let result = lower([], frontMatter: frontMatter([("page", "A5"), ("orientation", "landscape")]))
        XCTAssertEqual(result.diagnostics, [])
        XCTAssertEqual(result.document.page.width, 210 * mm, accuracy: 0.01)
        XCTAssertEqual(result.document.page.height, 148 * mm, accuracy: 0.01)
    }

    func testMarginsInCSSOrder() {
        func margins(_ value: String) -> EdgeInsets {
            lower([], frontMatter: frontMatter([("margin", value)])).document.page.margins
        }
        XCTAssertEqual(margins("10pt"), EdgeInsets(all: 10))
        XCTAssertEqual(margins("10pt 20pt"), EdgeInsets(top: 10, right: 20, bottom: 10, left: 20))
        XCTAssertEqual(margins("10pt 20pt 30pt"), EdgeInsets(top: 10, right: 20, bottom: 30, left: 20))
        XCTAssertEqual(margins("10pt 20pt 30pt 40pt"), EdgeInsets(top: 10, right: 20, bottom: 30, left: 40))
        // % of the page width.
        XCTAssertEqual(margins("10%").left, 21 * mm, accuracy: 0.001)
    }

    func testMarginAsYAMLList() {
        let fm = FrontMatter(entries: [yamlPair("margin", YAMLValue(.sequence([scalar("1in"), scalar("2in")]), at: loc(2, 9)))], range: at(1))
        XCTAssertEqual(lower([], frontMatter: fm).document.page.margins, EdgeInsets(top: 72, right: 144, bottom: 72, left: 144))
    }

    func testColumns() {
        let result = lower([paragraph(text("x"))], frontMatter: frontMatter([
            ("page", "200pt x 400pt"), ("margin", "20pt"), ("columns", "2"), ("column-gap", "10pt"), ("column-rule", "0.5pt gray"),
        ]))
        XCTAssertEqual(result.diagnostics, [])
        let page = result.document.page
        XCTAssertEqual(page.columns, 2)
        XCTAssertEqual(page.columnGap, 10)
        XCTAssertEqual(page.columnRule, Border(width: 0.5, color: Color.parse("gray")!))
        XCTAssertEqual(page.columnWidth, 75)
        // % in paragraph attributes is of this column width.
        let p = lower([paragraph(text("x"), attributes: attrs(pair("indent", "10%")))], frontMatter: frontMatter([
            ("page", "200pt x 400pt"), ("margin", "20pt"), ("columns", "2"), ("column-gap", "10pt"),
        ])).paragraphs[0]
        XCTAssertEqual(p.style.firstLineHeadIndent, 7.5)
    }

    func testBadValuesWarnAtValueAndUseDefaults() {
        let result = lower([], frontMatter: frontMatter([
            ("page", "A9"), ("orientation", "sideways"), ("margin", "1cm 2cm 3cm 4cm 5cm"), ("columns", "two"), ("colour", "red"),
        ]))
        XCTAssertEqual(result.warnings.map(\.location), [loc(6, 1), loc(2, 7), loc(3, 14), loc(4, 9), loc(5, 10)])
        XCTAssertEqual(result.document.page, PageGeometry())
    }

    func testTemplateAndFontsKeptWithoutWarning() {
        let fm = FrontMatter(entries: [
            yamlPair("template", scalar("report")),
            yamlPair("fonts", YAMLValue(.sequence([scalar("fonts/A.ttf"), scalar("/abs/B.otf")]), at: loc(3))),
        ], range: at(1))
        let result = lower([], frontMatter: fm)
        XCTAssertEqual(result.diagnostics, [])
        XCTAssertEqual(result.document.template, "report")
        XCTAssertEqual(result.document.fontFiles, ["/tmp/fonts/A.ttf", "/abs/B.otf"])
    }

    func testMetadataAndDate() {
        let fm = frontMatter([("title", "T"), ("author", "A"), ("subject", "S"), ("keywords", "k1, k2"), ("date", "2024-02-29")])
        let result = lower([], frontMatter: fm, options: LoweringOptions(sourceDateEpoch: 5, now: 9))
        XCTAssertEqual(result.document.metadata.title, "T")
        XCTAssertEqual(result.document.metadata.author, "A")
        XCTAssertEqual(result.document.metadata.subject, "S")
        XCTAssertEqual(result.document.metadata.keywords, "k1, k2")
        XCTAssertEqual(result.document.metadata.creationDate, 1_709_164_800)
    }

    func testDateFallsBackToSourceDateEpochThenNow() {
        XCTAssertEqual(lower([], options: LoweringOptions(sourceDateEpoch: 5, now: 9)).document.metadata.creationDate, 5)
        XCTAssertEqual(lower([], options: LoweringOptions(now: 9)).document.metadata.creationDate, 9)
        let bad = lower([], frontMatter: frontMatter([("date", "yesterday")]), options: LoweringOptions(sourceDateEpoch: 5, now: 9))
        XCTAssertEqual(bad.document.metadata.creationDate, 5)
        XCTAssertEqual(bad.warnings.map(\.location), [loc(2, 7)])
    }

    func testISO8601Forms() {
        XCTAssertEqual(parseISO8601("1970-01-01"), 0)
        XCTAssertEqual(parseISO8601("2000-01-01T00:00:00Z"), 946_684_800)
        XCTAssertEqual(parseISO8601("2000-01-01T01:30:00+01:30"), 946_684_800)
        XCTAssertEqual(parseISO8601("2000-01-01 00:00"), 946_684_800)
        XCTAssertEqual(parseISO8601("1999-12-31T19:00:00.250-05:00"), 946_684_800)
        for bad in ["2023-02-29", "2000-13-01", "2000-1-1", "2000-01-01T25:00", "2000-01-01Tnoon", "01/02/2000"] {
            XCTAssertNil(parseISO8601(bad), bad)
        }
    }

    func testBodySettings() {
        let result = lower([paragraph(text("x"))], frontMatter: frontMatter([
            ("font", "TeX Gyre Pagella"), ("font-size", "11pt"), ("line-height", "1.4"), ("justify", "true"),
            ("hyphenate", "true"), ("lang", "de"),
        ]))
        XCTAssertEqual(result.diagnostics, [])
        let p = result.paragraphs[0]
        XCTAssertEqual(p.runs[0].attributes.fontFamily, "TeX Gyre Pagella")
        XCTAssertEqual(p.runs[0].attributes.fontSize, 11)
        XCTAssertEqual(p.style.lineHeight, .multiple(1.4))
        XCTAssertEqual(p.style.alignment, .justify)
        XCTAssertTrue(p.style.hyphenate)
        XCTAssertEqual(p.style.language, "de")
        XCTAssertEqual(p.style.decimalSeparator, ",")
        XCTAssertEqual(result.document.language, "de")
    }

    func testDecimalSeparatorByLanguage() {
        XCTAssertEqual(decimalSeparator(forLanguage: "fr-CA"), ",")
        XCTAssertEqual(decimalSeparator(forLanguage: "en-GB"), ".")
        XCTAssertEqual(decimalSeparator(forLanguage: "ja"), ".")
        XCTAssertEqual(decimalSeparator(forLanguage: "nb"), ",")
    }

    func testStylesOverrideAndExtendBuiltIns() {
        let styles = YAMLValue(.mapping([
            YAMLPair(key: "h1", keyLocation: loc(3, 3), value: YAMLValue(.mapping([
                YAMLPair(key: "color", keyLocation: loc(4, 5), value: scalar("navy", line: 4, column: 12)),
                YAMLPair(key: "size", keyLocation: loc(5, 5), value: scalar("enormous", line: 5, column: 11)),
            ]), at: loc(4, 5))),
            YAMLPair(key: "note", keyLocation: loc(6, 3), value: YAMLValue(.mapping([
                YAMLPair(key: "background", keyLocation: loc(7, 5), value: scalar("#eee", line: 7, column: 17)),
            ]), at: loc(7, 5))),
        ]), at: loc(3, 3))
        let fm = FrontMatter(entries: [yamlPair("styles", styles, line: 2)], range: at(1))
        let result = lower([heading(1, "Title", id: "title"),
                            paragraph(text("x"), attributes: Attributes(styles: [StyleName("note", range: at(9))]))], frontMatter: fm)
        // The bad value is reported once, where the style defines it, however often the style is used.
        XCTAssertEqual(result.warnings.map(\.location), [loc(5, 5)])
        let h = result.paragraphs[0].runs[0].attributes
        XCTAssertEqual(h.color, Color.parse("navy"))
        XCTAssertEqual(h.weight, 700)   // built-in h1 pairs kept
        XCTAssertEqual(h.fontSize, 20)  // bad override fell back
        XCTAssertEqual(result.paragraphs[1].runs[0].attributes.background, Color.parse("#eee"))
    }

    func testHeaderAndFooterParts() {
        let result = lower([], frontMatter: frontMatter([("title", "Doc"), ("header", "{{title}}\\t{{section}}"), ("footer", "{{page}} / {{pages}}")]))
        XCTAssertEqual(result.diagnostics, [])
        let header = result.document.header!
        XCTAssertEqual(header.left.count, 1)
        guard case .field(.title, let a) = header.left[0] else { return XCTFail("\(header.left)") }
        XCTAssertEqual(a.fontSize, 8.5)
        // Two parts are left and centre (TABs split into left / centre / right, in that order).
        guard case .field(.section, _) = header.center.first else { return XCTFail("\(header.center)") }
        XCTAssertTrue(header.right.isEmpty)
        // One part goes where the footer style's align puts it: left by default.
        let footer = result.document.footer!
        XCTAssertTrue(footer.center.isEmpty && footer.right.isEmpty)
        XCTAssertEqual(footer.left.count, 3)
        guard case .field(.page, _) = footer.left[0], case .text(" / ", _) = footer.left[1], case .field(.pages, _) = footer.left[2] else {
            return XCTFail("\(footer.left)")
        }
    }

    func testHeaderThreePartsAndVariables() {
        let fm = FrontMatter(entries: [
            yamlPair("vars", YAMLValue(.mapping([YAMLPair(key: "org", keyLocation: loc(3), value: scalar("ACME"))]), at: loc(3))),
            yamlPair("header", scalar("{{org}}\t\t{{page}}")),
        ], range: at(1))
        let header = lower([], frontMatter: fm).document.header!
        guard case .text("ACME", _) = header.left.first else { return XCTFail("\(header.left)") }
        XCTAssertTrue(header.center.isEmpty)
        guard case .field(.page, _) = header.right.first else { return XCTFail("\(header.right)") }
    }
}

extension EdgeInsets {
    var rounded: EdgeInsets {
        func r(_ v: Double) -> Double { (v * 1e4).rounded() / 1e4 }
        return EdgeInsets(top: r(top), right: r(right), bottom: r(bottom), left: r(left))
    }
}
