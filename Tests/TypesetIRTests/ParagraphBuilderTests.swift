import XCTest
@testable import TypesetIR

/// `ParagraphBuilder.finish` copies the text and runs it grew into storage of their size (memory): the copies
/// must be the same text and runs, for short, long, non-ASCII and empty paragraphs.
final class ParagraphBuilderTests: XCTestCase {
    func testFinishedParagraphKeepsTextAndRunsExactly() {
        let plain = CharacterAttributes()
        var italic = CharacterAttributes()
        italic.style = .italic
        let pieces = ["", "a", "short one", "Größe und Maß — ", "日本語のテキスト", String(repeating: "word ", count: 300), "🙂 end"]
        var builder = ParagraphBuilder()
        var expected = ""
        for (k, piece) in pieces.enumerated() {
            builder.append(piece, k % 2 == 0 ? plain : italic)
            expected += piece
        }
        let paragraph = builder.finish(style: ParagraphStyle(), emptyAttributes: plain, location: nil)
        XCTAssertEqual(paragraph.text, expected)
        XCTAssertEqual(paragraph.text.utf8.count, expected.utf8.count)
        XCTAssertEqual(paragraph.runs, builder.runs)
        XCTAssertEqual(paragraph.runs.last?.range.upperBound, expected.utf8.count)
    }

    func testFittedCopiesAreEqualAtEveryLength() {
        for length in [0, 1, 15, 16, 17, 100, 4097] {
            let ascii = String(repeating: "x", count: length)
            XCTAssertEqual(ParagraphBuilder.fitted(ascii), ascii)
            let wide = String(repeating: "ä", count: length)
            XCTAssertEqual(ParagraphBuilder.fitted(wide), wide)
            XCTAssertEqual(ParagraphBuilder.fitted(wide).utf8.count, 2 * length)
        }
    }
}
