// Decimal tab stops: the IR marks each tab segment's decimal separator with a zero-width word joiner.

import RTSyntax
@testable import TypesetIR
import XCTest

final class DecimalTabTests: XCTestCase {
    private func makeParagraph(_ pieces: [(String, Int)], separator: String = ".", stops: [TabStop]) -> AttributedParagraph {
        var style = ParagraphStyle()
        style.tabStops = stops
        style.decimalSeparator = separator
        var text = "", runs: [AttributeRun] = []
        for (piece, weight) in pieces {
            var a = CharacterAttributes()
            a.weight = weight
            runs.append(AttributeRun(range: text.utf8.count..<(text.utf8.count + piece.utf8.count), attributes: a))
            text += piece
        }
        return AttributedParagraph(text: text, runs: runs, style: style)
    }

    private let mark = String(AttributedParagraph.decimalMark)

    func testMarksTheFirstNumericSeparatorOfEachTabSegment() {
        let p = makeParagraph([("Onions v1.0\t$2.34 and 5.6\u{2028}Peppers.\t$15.2443\u{2028}Beans\t$7 each\t1,234.5\tn/a\t.5", 400)],
                          stops: [TabStop(position: 100, alignment: .decimal)]).markingDecimalSeparators()
        XCTAssertEqual(p.text, "Onions v1.0\t$2\(mark).34 and 5.6\u{2028}Peppers.\t$15\(mark).2443\u{2028}Beans\t$7\(mark) each\t1,234\(mark).5\tn/a\t\(mark).5")
        assertRunsCover(p)
    }

    func testRunsAndAttachmentsKeepTheirText() {
        let base = makeParagraph([("Item\t12", 400), (".5", 700), ("\tx\u{FFFC}", 400)],
                             stops: [TabStop(position: 100, alignment: .decimal)])
        var withImage = base
        withImage.attachments = [TextAttachment(offset: base.text.utf8.count - 3,
                                                image: ImageAttachment(path: "/i.png", location: loc(1)))]
        let p = withImage.markingDecimalSeparators()
        XCTAssertEqual(p.text, "Item\t12\(mark).5\tx\u{FFFC}")
        XCTAssertEqual(p.attributes(of: ".5")?.weight, 700)
        XCTAssertEqual(p.attributes(of: "12")?.weight, 400)
        XCTAssertEqual(p.attachments[0].offset, p.text.utf8.count - 3)
        assertRunsCover(p)
    }

    func testCommaLanguagesAndParagraphsWithoutDecimalStops() {
        let de = makeParagraph([("Zwiebeln\t2,34 €", 400)], separator: ",", stops: [TabStop(position: 50, alignment: .decimal)])
        XCTAssertEqual(de.markingDecimalSeparators().text, "Zwiebeln\t2\(mark),34 €")
        let thousands = makeParagraph([("x\t1.234,5\t7 €", 400)], separator: ",", stops: [TabStop(position: 50, alignment: .decimal)])
        XCTAssertEqual(thousands.markingDecimalSeparators().text, "x\t1.234\(mark),5\t7\(mark) €")
        let left = makeParagraph([("a\t2.5", 400)], stops: [TabStop(position: 50)])
        XCTAssertEqual(left.markingDecimalSeparators(), left)
    }

    func testLoweringMarksParagraphsWithDecimalStops() {
        let block = paragraph(text("Tea"), Inline(.tab, range: at(1)), text("3.5"),
                              attributes: attrs(pair("tabs", "5cm decimal")))
        XCTAssertEqual(lower([block]).paragraphs[0].text, "Tea\t3\(mark).5")
    }
}
