@testable import TypesetIR
import XCTest

final class LengthTests: XCTestCase {
    let context = LengthContext(fontSize: 12, percentBase: 400)

    func testUnits() throws {
        let cases: [(String, Double)] = [
            ("12pt", 12), ("12", 12), ("25.4mm", 72), ("2.54cm", 72), ("1in", 72), ("96px", 72),
            ("2em", 24), ("50%", 200), ("-1.5em", -18), ("+3pt", 3), (".5in", 36), (" 10 mm ", 28.3464566929), ("1IN", 72),
        ]
        for (text, points) in cases {
            let value = try XCTUnwrap(Length.points(text, in: context), text)
            XCTAssertEqual(value, points, accuracy: 1e-6, text)
        }
    }

    /// Issue 8: lengths with many digits trapped in the Pango conversion. Every length is range-checked
    /// when it is read; the warning says why.
    func testLengthsOutsideTheBoundAreRejected() {
        for text in ["3000000pt", "100000000000pt", "-14401pt", "5081mm", "201in", "2000em", "5000%", String(repeating: "9", count: 400) + "pt"] {
            XCTAssertNil(Length.points(text, in: context), text)
        }
        for text in ["14400pt", "-14400pt", "200in", "1000em"] {
            XCTAssertNotNil(Length.points(text, in: context), text)
        }
        XCTAssertTrue(Length.rangeNote("3000000pt").contains("14400pt"))
        XCTAssertTrue(Length.rangeNote(String(repeating: "9", count: 400) + "pt").contains("14400pt"))
        XCTAssertEqual(Length.rangeNote("12pt"), "")
        XCTAssertEqual(Length.rangeNote("wide"), "")
        XCTAssertNil(PageSize.parse("100000mm x 10mm"))
    }

    func testFontSizesAndCountsAreBounded() {
        var state = StyleState()
        let size = AttributeTable.handlers["size"]!
        XCTAssertNil(size.apply(&state, "1638pt"))
        XCTAssertNotNil(size.apply(&state, "1639pt"))
        XCTAssertNotNil(size.apply(&state, "100000000000pt"))
        XCTAssertNotNil(AttributeTable.handlers["max-lines"]!.apply(&state, "99999999999"))
        XCTAssertNotNil(AttributeTable.handlers["line-height"]!.apply(&state, "1e300"))
        XCTAssertNotNil(AttributeTable.handlers["oblique"]!.apply(&state, "1e300"))
        XCTAssertNil(AttributeTable.handlers["line-height"]!.apply(&state, "1.5"))
    }

    func testRejectsNonLengths() {
        for text in ["", "pt", "12 parsecs", "1.2.3mm", "abc", "--2pt", "12pt5", "1e3pt", "mm12"] {
            XCTAssertNil(Length(parsing: text), text)
        }
    }

    func testKeepsUnit() {
        XCTAssertEqual(Length(parsing: "3mm"), Length(3, .mm))
        XCTAssertEqual(Length(parsing: "7%"), Length(7, .percent))
    }

    func testNamedPageSizes() throws {
        let a4 = try XCTUnwrap(PageSize.parse("A4"))
        XCTAssertEqual(a4.width, 595.2756, accuracy: 0.01)
        XCTAssertEqual(a4.height, 841.8898, accuracy: 0.01)
        let letter = try XCTUnwrap(PageSize.parse("letter"))
        XCTAssertEqual(letter.width, 612)
        XCTAssertEqual(letter.height, 792)
        XCTAssertEqual(try XCTUnwrap(PageSize.parse("Legal")).height, 1008)
        XCTAssertEqual(try XCTUnwrap(PageSize.parse("A5")).width, 148 * 72 / 25.4, accuracy: 0.01)
        XCTAssertEqual(try XCTUnwrap(PageSize.parse("A3")).height, 420 * 72 / 25.4, accuracy: 0.01)
        XCTAssertEqual(try XCTUnwrap(PageSize.parse("B5")).width, 176 * 72 / 25.4, accuracy: 0.01)
    }

    func testCustomPageSize() throws {
        let size = try XCTUnwrap(PageSize.parse("210mm x 99mm"))
        XCTAssertEqual(size.width, 595.2756, accuracy: 0.01)
        XCTAssertEqual(size.height, 99 * 72 / 25.4, accuracy: 0.01)
        XCTAssertEqual(try XCTUnwrap(PageSize.parse("8.5in X 11in")).height, 792)
        XCTAssertEqual(try XCTUnwrap(PageSize.parse("300x200")).width, 300)
        for bad in ["A9", "210mm", "10em x 10em", "0 x 10", "x", "10mm x 20mm x 3mm"] {
            XCTAssertNil(PageSize.parse(bad), bad)
        }
    }
}

final class ColorTests: XCTestCase {
    func testHexForms() {
        XCTAssertEqual(Color.parse("#f00"), Color(red: 1, green: 0, blue: 0))
        XCTAssertEqual(Color.parse("#00FF00"), Color(red: 0, green: 1, blue: 0))
        XCTAssertEqual(Color.parse("#0000ff80"), Color(red: 0, green: 0, blue: 1, alpha: 128.0 / 255))
        XCTAssertEqual(Color.parse("#fff8"), Color(red: 1, green: 1, blue: 1, alpha: 136.0 / 255))
        let gray = Color.parse("#808080")!
        XCTAssertEqual(gray.red, 128.0 / 255, accuracy: 1e-9)
    }

    func testRGBFunction() {
        XCTAssertEqual(Color.parse("rgb(255, 0, 51)"), Color(red: 1, green: 0, blue: 0.2))
        XCTAssertEqual(Color.parse("rgb(255 255 255)"), .white)
        XCTAssertEqual(Color.parse("rgb(100%, 0%, 0%)"), Color(red: 1, green: 0, blue: 0))
        XCTAssertEqual(Color.parse("rgba(0, 0, 0, 0.5)"), Color(red: 0, green: 0, blue: 0, alpha: 0.5))
    }

    func testNamedColors() {
        XCTAssertEqual(Color.parse("red"), Color(red: 1, green: 0, blue: 0))
        XCTAssertEqual(Color.parse("RebeccaPurple"), Color(red: 0x66 / 255.0, green: 0x33 / 255.0, blue: 0x99 / 255.0))
        XCTAssertEqual(Color.parse("lightgoldenrodyellow"), Color(red: 0xFA / 255.0, green: 0xFA / 255.0, blue: 0xD2 / 255.0))
        XCTAssertEqual(Color.parse("transparent")?.alpha, 0)
        XCTAssertEqual(Color.cssNamedColors.count, 148)
        XCTAssertEqual(Color.parse("grey"), Color.parse("gray"))
    }

    func testRejectsNonColors() {
        for bad in ["", "#", "#ff", "#fffff", "#ggg", "rgb(256, 0, 0)", "rgb(1, 2)", "rgb(1,2,3", "reddish", "hsl(0, 100%, 50%)"] {
            XCTAssertNil(Color.parse(bad), bad)
        }
    }
}
