// SVG images (RT section 5): kept as vectors (paths in a form XObject, never an image XObject), sized from the
// SVG's own width/height (CSS px) or viewBox, bounded, and an SVG that does not parse is an error at its place.

import Foundation
import XCTest

final class SVGImageTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/svg").path

    /// Typesets `source` next to copies of the fixtures and `extra` files; returns (result, pdf path).
    private func run(_ source: String, extra: [String: String] = [:], name: String = #function) throws -> (RunResult, String) {
        let dir = try Harness.scratch(name)
        for file in try FileManager.default.contentsOfDirectory(atPath: Self.fixtures) {
            try FileManager.default.copyItem(atPath: Self.fixtures + "/" + file, toPath: dir + "/" + file)
        }
        for (file, text) in extra { try Harness.write(text, to: dir + "/" + file) }
        try Harness.write(source, to: dir + "/doc.rt")
        let result = try Harness.typeset(["doc.rt", "-o", "doc.pdf"], cwd: dir)
        return (result, dir + "/doc.pdf")
    }

    func testPlotsFromMatplotlibGnuplotAndABrowserAreDrawnAsPaths() throws {
        let (result, pdf) = try run("""
            Before.

            ![line plot](matplotlib-line.svg)

            ![bars](gnuplot-bars.svg){width=8cm}

            ![diagram](browser-diagram.svg)

            ![plot with text elements](matplotlib-text.svg)

            After.
            """)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        let objects = try PDF.objects(pdf)
        XCTAssertFalse(objects.contains("/Subtype /Image"), "an SVG was rasterised")
        // The drawings are form XObjects of path operators: moves, lines, curves, rectangles, fills and strokes.
        let tokens = Set(objects.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init))
        for op in ["m", "l", "c", "re", "f", "S"] {
            XCTAssertTrue(tokens.contains(op), "no '\(op)' path operator")
        }
        let text = try PDF.text(pdf)
        XCTAssertTrue(text.contains("Before.") && text.contains("After."), text)
    }

    func testSizeComesFromTheSVGInCSSPixels() throws {
        // 96 x 48 px = 72 x 36 pt; 2in x 0.5in = 144 x 36 pt; a viewBox alone (200 x 100) = 150 x 75 pt.
        let (result, pdf) = try run("""
            ![a](px.svg)

            ![b](inch.svg)

            ![c](viewbox.svg)
            """, extra: [
                "px.svg": #"<svg xmlns="http://www.w3.org/2000/svg" width="96" height="48"><rect width="96" height="48"/></svg>"#,
                "inch.svg": #"<svg xmlns="http://www.w3.org/2000/svg" width="2in" height="0.5in" viewBox="0 0 10 10" preserveAspectRatio="none"><rect width="10" height="10"/></svg>"#,
                "viewbox.svg": #"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 100"><rect width="200" height="100"/></svg>"#,
            ])
        XCTAssertEqual(result.status, 0, result.stderr)
        let boxes = try InkBoxes.rows(pdf)
        XCTAssertEqual(boxes.count, 3, "\(boxes)")
        let expected: [(Double, Double)] = [(72, 36), (144, 36), (150, 75)]
        for (box, (w, h)) in zip(boxes, expected) {
            XCTAssertEqual(box.width, w, accuracy: 1.5, "\(boxes)")
            XCTAssertEqual(box.height, h, accuracy: 1.5, "\(boxes)")
        }
    }

    func testTextInAnSVGIsDrawn() throws {
        // librsvg 2.54 draws SVG text as glyph outlines: it is visible, as paths.
        let (result, pdf) = try run("![t](text.svg)\n", extra: [
            "text.svg": #"<svg xmlns="http://www.w3.org/2000/svg" width="200" height="40"><text x="10" y="30" font-family="DejaVu Sans" font-size="24">Hello SVG</text></svg>"#,
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        let boxes = try InkBoxes.rows(pdf)
        XCTAssertEqual(boxes.count, 1, "\(boxes)")
        // "Hello SVG" at 24px is about 120 px wide = 90 pt.
        XCTAssertGreaterThan(boxes.first?.width ?? 0, 60, "\(boxes)")
        XCTAssertFalse(try PDF.objects(pdf).contains("/Subtype /Image"))
    }

    func testBrokenAndHugeSVGsAreReportedAtTheirPlace() throws {
        let (result, _) = try run("""
            Text.

            ![broken](broken.svg)

            ![huge](huge.svg)
            """, extra: [
                "broken.svg": #"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="5" </svg>"#,
                "huge.svg": #"<svg xmlns="http://www.w3.org/2000/svg" width="20000" height="10"/>"#,
            ])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("doc.rt:3:1: error: image 'broken.svg' is not a readable SVG"), result.stderr)
        XCTAssertTrue(result.stderr.contains("doc.rt:5:1: error: image 'huge.svg' is 20000 x 10 px"), result.stderr)
    }

    func testAnSVGFileOverTheSizeLimitIsRefusedBeforeParsing() throws {
        let (result, _) = try run("Text.\n\n![big](big.svg)\n", extra: [
            "big.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\">" + String(repeating: "<!-- padding -->", count: 1_100_000) + "</svg>",
        ])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("doc.rt:3:1: error: SVG image 'big.svg' is 16.8 MB; the limit is 16 MB"), result.stderr)
    }

    func testExternalFilesAreNeverLoaded() throws {
        let dir = try Harness.scratch()
        try TestImage.writePNG(to: dir + "/secret.png")
        try Harness.write(#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100" height="50"><image xlink:href="secret.png" width="100" height="50"/><image href="/etc/passwd" width="10" height="10"/><rect width="20" height="20"/></svg>"#,
                          to: dir + "/ext.svg")
        try Harness.write("Text.\n\n![e](ext.svg)\n", to: dir + "/doc.rt")
        let result = try Harness.typeset(["doc.rt", "-o", "doc.pdf"], cwd: dir)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("doc.rt:3:1: warning: SVG image 'ext.svg' refers to 'secret.png', which is not loaded"), result.stderr)
        XCTAssertTrue(result.stderr.contains("refers to '/etc/passwd'"), result.stderr)
        let objects = try PDF.objects(dir + "/doc.pdf")
        XCTAssertFalse(objects.contains("/Subtype /Image"), "the SVG's external picture was loaded")
        XCTAssertTrue(objects.contains("0 0 20 20 re"), "the SVG's own rectangle is missing")
    }
}

/// Bounding boxes of the dark areas of page 1, one per band of rows separated by white rows (points at 72 dpi).
enum InkBoxes {
    struct Box { var x, y, width, height: Double }

    static func rows(_ pdf: String, threshold: UInt8 = 128) throws -> [Box] {
        let prefix = pdf + "-ink"
        _ = try Harness.run("pdftoppm", ["-r", "72", "-gray", "-f", "1", "-l", "1", "-singlefile", pdf, prefix])
        let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: prefix + ".pgm")))
        // P5 header: "P5\nW H\n255\n"
        var fields: [Int] = []
        var i = 2
        while fields.count < 3 {
            while i < data.count, data[i] == 0x20 || data[i] == 0x0A { i += 1 }
            var n = 0
            while i < data.count, data[i] >= 0x30, data[i] <= 0x39 { n = n * 10 + Int(data[i] - 0x30); i += 1 }
            fields.append(n)
        }
        let (w, h) = (fields[0], fields[1])
        let pixels = data[(i + 1)...]
        var boxes: [Box] = []
        var current: (top: Int, left: Int, right: Int)? = nil
        for y in 0 ..< h {
            let row = pixels.dropFirst(y * w).prefix(w)
            let dark = row.indices.filter { row[$0] < threshold }.map { $0 - row.startIndex }
            if let first = dark.first, let last = dark.last {
                if let c = current { current = (c.top, min(c.left, first), max(c.right, last)) }
                else { current = (y, first, last) }
            } else if let c = current {
                boxes.append(Box(x: Double(c.left), y: Double(c.top), width: Double(c.right - c.left + 1), height: Double(y - c.top)))
                current = nil
            }
        }
        return boxes
    }
}
