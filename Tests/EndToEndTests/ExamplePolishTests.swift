// What Examples/README.md promises about the examples, checked on their PDFs: Gettysburg's drop cap spans two
// lines, the specimen's OpenType lines visibly use old-style figures and ligatures, the tour's decimal column
// holds numbers that line up.

import Foundation
import XCTest

final class ExamplePolishTests: XCTestCase {
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples")

    func render(_ name: String) throws -> String {
        let out = try Harness.scratch(name) + "/\(name).pdf"
        let result = try Harness.typeset([Self.examples.appendingPathComponent("\(name).rt").path, "-o", out])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "", "\(name) has diagnostics")
        return out
    }

    /// The second paragraph opens with a drop cap: a large N whose foot stands on the paragraph's second
    /// baseline, with the first two lines to its right and the third back at the left edge.
    func testGettysburgDropCapSpansTwoLines() throws {
        let chars = try Chars.read(try render("gettysburg"))
        guard let cap = chars.first(where: { $0.c == "N" && $0.size > 20 }) else {
            return XCTFail("no large N in gettysburg.pdf")
        }
        // Body lines of the paragraph, by baseline, below the cap's top.
        let body = chars.filter { $0.size < 12 && $0.y > cap.y - cap.size && $0.color == "#000000" }
        let baselines = Array(Set(body.map { ($0.y * 10).rounded() / 10 })).sorted()
        XCTAssertGreaterThanOrEqual(baselines.count, 3, "the paragraph has at least three lines")
        guard baselines.count >= 3 else { return }
        XCTAssertEqual(cap.y, baselines[1], accuracy: 1.5, "the cap's foot is on the second line's baseline")
        func lineStart(_ y: Double) -> Double { body.filter { abs($0.y - y) < 0.5 }.map(\.x).min() ?? .nan }
        XCTAssertGreaterThan(lineStart(baselines[0]), cap.x + cap.size * 0.7, "line 1 starts right of the cap")
        XCTAssertGreaterThan(lineStart(baselines[1]), cap.x + cap.size * 0.7, "line 2 starts right of the cap")
        XCTAssertEqual(lineStart(baselines[2]), cap.x, accuracy: 1, "line 3 is back at the left edge")
    }

    /// Ligatures: with them on, "ffi" is one glyph (its characters share a position); off, every letter has its own.
    func testSpecimenLigatureLineShowsLigatures() throws {
        let chars = try Chars.read(try render("typography")).filter { $0.font.contains("LinLibertine") }
        XCTAssertFalse(chars.isEmpty, "the OpenType lines are set in Linux Libertine O")
        let line = chars  // in reading order; only the ligatures line has "off"
        // Each "office" run: the positions of its "ffi".
        var runs: [[Chars.Char]] = []
        for (i, c) in line.enumerated() where c.c == "o" && i + 3 < line.count && line[i + 1].c == "f" {
            runs.append(Array(line[(i + 1)...(i + 3)]))
        }
        XCTAssertGreaterThanOrEqual(runs.count, 2, "two 'office' runs in Libertine")
        guard runs.count >= 2 else { return }
        XCTAssertLessThan(Set(runs[0].map { ($0.x * 10).rounded() }).count, 3, "ligatures on: ffi is one glyph")
        XCTAssertEqual(Set(runs[1].map { ($0.x * 10).rounded() }).count, 3, "ligatures off: three glyphs")
    }

    /// Old-style figures have descenders (3 4 5 7 9 go below the baseline); lining figures stand on it.
    func testSpecimenOldStyleFiguresGoBelowTheBaseline() throws {
        let pdf = try render("typography")
        let digits = try Chars.read(pdf).filter { $0.font.contains("LinLibertine") && $0.c == "9" }
        XCTAssertEqual(digits.count, 2, "one onum run and one lining run")
        guard digits.count == 2 else { return }
        let oldStyle = try Ink.bottom(pdf, x: digits[0].x, baseline: digits[0].y, size: digits[0].size)
        let lining = try Ink.bottom(pdf, x: digits[1].x, baseline: digits[1].y, size: digits[1].size)
        XCTAssertGreaterThan(oldStyle - digits[0].y, 1.5, "old-style 9 descends below the baseline")
        XCTAssertLessThan(lining - digits[1].y, 0.8, "lining 9 stands on the baseline")
    }

    /// The tour's `-.-` column holds numbers, and their decimal points share one x.
    func testTourDecimalColumnLinesUpNumbers() throws {
        let pdf = try render("tour")
        let text = try PDF.text(pdf, page: 2)
        for number in ["12.5", "0.375", "1024", "3.14159"] { XCTAssertTrue(text.contains(number), number) }
        let page2 = try Chars.read(pdf).filter { $0.y > 0 }
        let words = try PDF.words(pdf).filter { $0.page == 2 && ["12.5", "0.375", "3.14159"].contains($0.text) }
        XCTAssertEqual(words.count, 3)
        let points = words.compactMap { word in
            page2.first { $0.c == "." && $0.x > word.xMin - 0.1 && $0.x < word.xMax && abs($0.y - word.yMax) < 4 }?.x
        }
        XCTAssertEqual(points.count, 3)
        for x in points { XCTAssertEqual(x, points[0], accuracy: 0.5, "decimal points line up") }
    }
}

/// Reading ink from a rendered page (PGM from pdftoppm, so no image library is needed).
enum Ink {
    /// The lowest inked point (PDF points from the page top) in a box one em wide from `x`, from the cap
    /// height above `baseline` to half an em below it.
    static func bottom(_ pdf: String, x: Double, baseline: Double, size: Double) throws -> Double {
        let dpi = 600.0, scale = dpi / 72
        let top = baseline - size, height = size * 1.5
        // No output root: pdftoppm writes the (gray: PGM) image to standard output.
        let result = try Harness.run("pdftoppm", ["-gray", "-r", "\(Int(dpi))", "-f", "1", "-l", "1", "-singlefile",
                                                  "-x", "\(Int(x * scale))", "-y", "\(Int(top * scale))",
                                                  "-W", "\(Int(size * 0.5 * scale))", "-H", "\(Int(height * scale))", pdf])
        let (width, rows, pixels) = try parsePGM(result.stdout)
        var lowest = -1
        for row in 0..<rows where (0..<width).contains(where: { pixels[row * width + $0] < 128 }) { lowest = row }
        return top + Double(lowest + 1) / scale
    }

    static func parsePGM(_ data: Data) throws -> (width: Int, height: Int, pixels: [UInt8]) {
        let bytes = [UInt8](data)
        var fields: [String] = []
        var i = 0
        while fields.count < 4 && i < bytes.count {
            while i < bytes.count && (bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09) { i += 1 }
            var field = ""
            while i < bytes.count && !(bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09) {
                field.append(Character(UnicodeScalar(bytes[i]))); i += 1
            }
            fields.append(field)
        }
        i += 1
        guard fields.count == 4, fields[0] == "P5", let w = Int(fields[1]), let h = Int(fields[2]),
              bytes.count >= i + w * h else {
            throw NSError(domain: "Ink", code: 1, userInfo: [NSLocalizedDescriptionKey: "not a binary PGM"])
        }
        return (w, h, Array(bytes[i..<(i + w * h)]))
    }
}
