// Section 6 character attributes, inline images and fonts, checked in the PDF the binary writes:
// per-character fonts, sizes, colours and positions (mutool stext), content-stream operators (qpdf),
// images (pdfimages, mutool trace) and, where only pixels tell, a rasterised page (pdftoppm).

import Foundation
import XCTest

final class TypographyTests: XCTestCase {
    // MARK: Fonts, colours, positions

    func testFacesColorsAndComposition() throws {
        let pdf = try Harness.typesetSource("""
            a **bold [x]{.warning stroke=-1 stroke-color=red}** *it* `mono` [c]{color=crimson} [s]{font="DejaVu Sans"}
            """)
        let chars = try Chars.read(pdf)
        XCTAssertTrue(try Chars.first("a", in: chars).font.hasSuffix("DejaVuSerif"))
        XCTAssertTrue(try Chars.first("b", in: chars).font.hasSuffix("DejaVuSerif-Bold"))
        // The stroked run inside ** keeps the bold face (its text copy is set in the face Pango chose).
        XCTAssertTrue(try Chars.first("x", in: chars).font.hasSuffix("DejaVuSerif-Bold"), "stroke inside ** lost bold")
        XCTAssertTrue(try Chars.first("t", in: chars).font.hasSuffix("DejaVuSerif-Italic"))
        XCTAssertTrue(try Chars.first("m", in: chars).font.hasSuffix("DejaVuSansMono"))
        XCTAssertTrue(["#dc143c", "#db143b"].contains(try Chars.first("c", in: chars).color))  // crimson, rounded
        XCTAssertTrue(try Chars.first("s", in: chars).font.hasSuffix("DejaVuSans"))
    }

    func testBaselineShiftRaisesByPoints() throws {
        let chars = try Chars.read(try Harness.typesetSource("a [b]{baseline=3pt} [c]{baseline=-2pt}\n"))
        let a = try Chars.first("a", in: chars), b = try Chars.first("b", in: chars), c = try Chars.first("c", in: chars)
        XCTAssertEqual(a.y - b.y, 3, accuracy: 0.05)
        XCTAssertEqual(c.y - a.y, 2, accuracy: 0.05)
    }

    func testLetterSpacingWidens() throws {
        let chars = try Chars.read(try Harness.typesetSource("mmmm\n\n[mmmm]{letter-spacing=2pt}\n"))
        let ms = chars.filter { $0.c == "m" }
        XCTAssertEqual(ms.count, 8)
        let plain = ms[1].x - ms[0].x, spaced = ms[5].x - ms[4].x
        XCTAssertEqual(spaced - plain, 2, accuracy: 0.05)
    }

    func testSmallCapsAndLigaturesOff() throws {
        let chars = try Chars.read(try Harness.typesetSource(
            "[Caps]{smallcaps=true}\n\n[office]{font=\"DejaVu Sans\"}\n\n[office]{font=\"DejaVu Sans\" ligatures=false}\n"))
        // Small caps: lower-case letters become smaller capitals (Pango emulates them when the font lacks smcp).
        XCTAssertEqual(try Chars.first("C", in: chars).size, 10, accuracy: 0.01)
        XCTAssertLessThan(try Chars.first("a", in: chars).size, 9.5)
        let fs = chars.filter { $0.c == "f" || $0.c == "i" }
        XCTAssertEqual(fs.count, 6)
        // With ligatures the "ffi" glyph carries all three letters at one position; without, each has its own.
        XCTAssertEqual(fs[1].x, fs[2].x, accuracy: 0.01, "ligature expected by default")
        XCTAssertGreaterThan(fs[4].x, fs[3].x + 1)
        XCTAssertGreaterThan(fs[5].x, fs[4].x + 1)
    }

    func testUnderlineAndStrikeColorsReachThePDF() throws {
        let content = try Content.of(try Harness.typesetSource(
            "[u]{underline=double underline-color=blue} [s]{strike=double strike-color=lime}\n"))
        XCTAssertTrue(content.contains("0 0 1 rg"), "underline colour missing")
        XCTAssertTrue(content.contains("0 1 0 rg"), "strike colour missing")
        // Double strike: two closed rectangles (cairo writes them as m/l/h paths) after the strike colour.
        let afterStrike = content.components(separatedBy: "0 1 0 rg").dropFirst().joined()
        XCTAssertGreaterThanOrEqual(afterStrike.components(separatedBy: " l h").count - 1, 2)
    }

    /// Issue 9 point 2: outline only means no fill operation at all, not even a near-transparent one. The page
    /// content holds the outline as a stroked path and the text once, in a font whose glyphs paint nothing.
    func testStrokeOutlineOnlyHasNoFillOperation() throws {
        let pdf = try Harness.typesetSource("[Outline]{stroke=0.5 color=red size=20pt background=yellow}\n")
        let content = try Content.pageStream(of: pdf)
        XCTAssertTrue(content.contains("1 0 0 RG"), "stroke colour missing")
        let operators = Content.operators(content)
        XCTAssertTrue(operators.contains("S"), "no stroke operator")
        XCTAssertEqual(operators.filter { ["f", "F", "f*", "B", "B*", "b", "b*"].contains($0) }.count, 1,
                       "only the yellow background may be filled: \(operators)")
        // One text-showing operator, in the Type 3 font (whose glyph procedures are empty).
        XCTAssertEqual(operators.filter { ["Tj", "TJ", "'", "\""].contains($0) }.count, 1)
        let objects = try PDF.objects(pdf)
        XCTAssertTrue(objects.contains("/Subtype /Type3"))
        for glyph in objects.components(separatedBy: " d1\n").dropFirst() {
            XCTAssertTrue(glyph.hasPrefix("q\nQ\nendstream"), "a glyph procedure paints: \(glyph.prefix(80))")
        }
        XCTAssertEqual(try PDF.text(pdf).trimmingCharacters(in: .whitespacesAndNewlines), "Outline")
        // Extraction places the words where they are drawn: same line and width as the plain copy of the word.
        let stroked = try Harness.typesetSource("[Outline]{stroke=0.5 size=20pt} word\n", name: "strokedWords")
        let plain = try Harness.typesetSource("Outline word\n", name: "plainWords")
        let a = try PDF.words(stroked), b = try PDF.words(plain)
        XCTAssertEqual(a.map(\.text), ["Outline", "word"])
        XCTAssertEqual(a[0].xMin, b[0].xMin, accuracy: 0.5)
        XCTAssertEqual(a[0].xMax - a[0].xMin, 2 * (b[0].xMax - b[0].xMin), accuracy: 1, "20pt against 10pt")
        XCTAssertEqual(a[1].xMin - a[0].xMax, b[1].xMin - b[0].xMax, accuracy: 0.5, "one 10pt space between")
    }

    /// The invisible copy keeps right-to-left text and ligatures in logical order.
    func testOutlineOnlyTextStaysExtractableInRightToLeftAndLigatures() throws {
        let pdf = try Harness.typesetSource("[שלום עולם]{stroke=0.5} and [office]{stroke=0.4}\n")
        let text = try PDF.text(pdf)
        for word in ["שלום", "עולם", "office", "and"] { XCTAssertTrue(text.contains(word), "\(word) lost: \(text)") }
    }

    func testNegativeStrokeFillsWithColorAndOutlinesWithStrokeColor() throws {
        let pdf = try Harness.typesetSource("[Filled]{stroke=-1 color=blue stroke-color=red size=20pt}\n")
        let content = try Content.of(pdf)
        XCTAssertTrue(content.contains("0 0 1 rg"), "fill colour missing")
        XCTAssertTrue(content.contains("1 0 0 RG"), "stroke colour missing")
        XCTAssertTrue(try PDF.text(pdf).contains("Filled"))
    }

    func testShadowIsOffsetByDxDy() throws {
        let pdf = try Harness.typesetSource("[I]{size=72pt shadow=\"10 6 0 blue\"}\n")
        let image = try Raster.render(pdf, dpi: 72)
        let black = try XCTUnwrap(image.bounds { $0.r < 60 && $0.g < 60 && $0.b < 60 })
        let blue = try XCTUnwrap(image.bounds { $0.b > 200 && $0.r < 60 && $0.g < 60 })
        XCTAssertEqual(Double(blue.maxX - black.maxX), 10, accuracy: 2)
        XCTAssertEqual(Double(blue.maxY - black.maxY), 6, accuracy: 2)
    }

    func testObliqueSlantsAndExpansionWidens() throws {
        let slanted = try Raster.render(try Harness.typesetSource("[I]{size=72pt font=\"DejaVu Sans\" oblique=20}\n"), dpi: 72)
        let upright = try Raster.render(try Harness.typesetSource("[I]{size=72pt font=\"DejaVu Sans\"}\n"), dpi: 72)
        let dark: (Raster.Pixel) -> Bool = { $0.r < 100 }
        let s = try XCTUnwrap(slanted.bounds(dark)), u = try XCTUnwrap(upright.bounds(dark))
        // An upright I is a narrow bar; slanted by 20 degrees its ink spans tan(20) x its height more.
        XCTAssertGreaterThan(Double(s.maxX - s.minX), Double(u.maxX - u.minX) + 0.3 * Double(u.maxY - u.minY))

        let chars = try Chars.read(try Harness.typesetSource("wwww x\n\n[wwww]{expansion=0.5} x\n"))
        let xs = chars.filter { $0.c == "x" }
        XCTAssertEqual(xs.count, 2)
        XCTAssertGreaterThan(xs[1].x - 56.69, (xs[0].x - 56.69) * 1.2, "expanded run does not take more room")
    }

    // MARK: Images

    func testJPEGIsEmbeddedAsDCTOnceAndPlacedOnItsLine() throws {
        let dir = try Harness.scratch()
        try XCTUnwrap(Data(base64Encoded: Self.jpeg)).write(to: URL(fileURLWithPath: dir + "/p.jpg"))
        try Harness.write("""
            First paragraph.

            Icons ![a](p.jpg){height=16pt align=middle} and ![b](p.jpg){width=8pt} and ![c](p.jpg) end.
            """, to: dir + "/doc.rt")
        let result = try Harness.typeset([dir + "/doc.rt", "-o", dir + "/doc.pdf"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let rows = try PDF.tool("pdfimages", ["-list", dir + "/doc.pdf"]).split(separator: "\n").dropFirst(2)
            .map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
        XCTAssertEqual(rows.count, 3, "three uses drawn")
        XCTAssertTrue(rows.allSatisfy { $0[8] == "jpeg" }, "JPEG re-encoded: \(rows)")
        XCTAssertEqual(Set(rows.map { $0[10] }).count, 1, "one image object for three uses: \(rows)")

        let trace = try PDF.tool("mutool", ["draw", "-F", "trace", "-o", "-", dir + "/doc.pdf"])
        let transforms = trace.split(separator: "\n").filter { $0.contains("<fill_image") }.compactMap { line -> [Double]? in
            guard let r = line.range(of: "transform=\"") else { return nil }
            let rest = line[r.upperBound...]
            return rest[..<rest.firstIndex(of: "\"")!].split(separator: " ").compactMap { Double($0) }
        }
        XCTAssertEqual(transforms.count, 3)
        let chars = try Chars.read(dir + "/doc.pdf")
        let icons = try Chars.first("I", in: chars)
        let first = try Chars.first("F", in: chars)
        // Sizes: 16pt tall (16px square), 8pt wide keeps the aspect, natural 16px at 96 dpi = 12pt.
        XCTAssertEqual(transforms[0][3], 16, accuracy: 0.01)
        XCTAssertEqual(transforms[1][0], 8, accuracy: 0.01)
        XCTAssertEqual(transforms[2][0], 12, accuracy: 0.01)
        // On the second line, centred on the text: its middle about 0.35 em above the baseline.
        let middle = transforms[0][5] + transforms[0][3] / 2
        XCTAssertGreaterThan(icons.y, first.y + 5)
        XCTAssertEqual(middle, icons.y - 3.5, accuracy: 1.5)
    }

    func testUnreadableImageIsAnErrorAtItsLocation() throws {
        let dir = try Harness.scratch()
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10, 1, 2, 3, 4, 5]).write(to: URL(fileURLWithPath: dir + "/bad.jpg"))
        try Harness.write("Text\nand ![x](bad.jpg) here.\n", to: dir + "/doc.rt")
        let result = try Harness.typeset([dir + "/doc.rt", "-o", dir + "/doc.pdf"])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.stderr.contains("doc.rt:2:5: error:"), result.stderr)
        XCTAssertTrue(result.stderr.contains("JPEG"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/doc.pdf"))
    }

    // MARK: Fonts

    /// Typesets `source` as doc.rt: the run and the PDF's path.
    private func typesetDoc(_ source: String, name: String = #function) throws -> (result: RunResult, pdf: String) {
        let dir = try Harness.scratch(name)
        try Harness.write(source, to: dir + "/doc.rt")
        return (try Harness.typeset([dir + "/doc.rt", "-o", dir + "/doc.pdf"]), dir + "/doc.pdf")
    }

    /// Front matter's `font:` and a style's are located at their value in the front matter.
    func testUnknownFamilyInTheFrontMatterIsLocatedThere() throws {
        let (result, _) = try typesetDoc("---\ntitle: t\nfont: NoSuchFontXYZ\nstyles:\n  note: {font: NoFamQ}\n---\n\nHello.\n\n{.note}\nNote.\n")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("doc.rt:3:7: warning: font family 'NoSuchFontXYZ' is not installed"), result.stderr)
        XCTAssertTrue(result.stderr.contains("doc.rt:5:16: warning: font family 'NoFamQ' is not installed"), result.stderr)
    }

    func testUnknownFamilyWarnsAndFallsBack() throws {
        let (result, pdf) = try typesetDoc("Line one.\n\n[x]{font=\"No Such Family\"} and [b]{font=\"DejaVu Math TeX Gyre\" weight=bold}\n")
        XCTAssertEqual(result.status, 0, result.stderr)
        // At the `font` key that names it (section 6), not at its paragraph.
        XCTAssertTrue(result.stderr.contains("doc.rt:3:5: warning: font family 'No Such Family' is not installed"), result.stderr)
        XCTAssertTrue(result.stderr.contains("'DejaVu Math TeX Gyre' has no bold face"), result.stderr)
        XCTAssertTrue(try Chars.first("x", in: Chars.read(pdf)).font.hasSuffix("DejaVuSerif"))
    }

    func testFrontMatterFontsAreLoaded() throws {
        let dir = try Harness.scratch()
        // DejaVu Sans renamed to a family nothing else provides, so only `fonts:` can make it known.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"))
        for (old, new) in [("DejaVu Sans", "Typeset Tst")] {
            for encoding in [String.Encoding.ascii, .utf16BigEndian] {
                bytes = Self.replacing(old.data(using: encoding)!, with: new.data(using: encoding)!, in: bytes)
            }
        }
        try FileManager.default.createDirectory(atPath: dir + "/fonts", withIntermediateDirectories: true)
        try bytes.write(to: URL(fileURLWithPath: dir + "/fonts/tst.ttf"))
        let body = "[Loaded]{font=\"Typeset Tst\"} text\n"
        try Harness.write("---\nfonts: [fonts]\n---\n" + body, to: dir + "/doc.rt")
        try Harness.write(body, to: dir + "/without.rt")
        let with = try Harness.typeset([dir + "/doc.rt", "-o", dir + "/doc.pdf"])
        XCTAssertEqual(with.status, 0, with.stderr)
        XCTAssertFalse(with.stderr.contains("not installed"), with.stderr)
        XCTAssertTrue(try Chars.first("L", in: Chars.read(dir + "/doc.pdf")).font.hasSuffix("DejaVuSans"))
        let without = try Harness.typeset([dir + "/without.rt", "-o", dir + "/without.pdf"])
        XCTAssertTrue(without.stderr.contains("'Typeset Tst' is not installed"), without.stderr)
    }

    func testGreekAndCyrillicHaveGlyphs() throws {
        let pdf = try Harness.typesetSource("Ελληνικά Кириллица\n")
        let text = try PDF.text(pdf)
        XCTAssertTrue(text.contains("Ελληνικά") && text.contains("Кириллица"), text)
        XCTAssertTrue(try Chars.read(pdf).allSatisfy { $0.font.contains("DejaVu") })
    }

    // MARK: Examples

    func testExamplesRenderCleanly() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples")
        let expected = ["progress-log": "Nightly build 412", "gettysburg": "Four score and seven years ago",
                        "inline-image": "all checks passed", "typography": "fourteen points",
                        "price-list": "Market prices", "tour": "Why another markup",
                        "two-column-report": "Contents", "report": "Justified Text at Scale",
                        "newsletter": "The Riverside Newsletter", "polygon-wrap": "Flowing around a triangle",
                        "circle-text": "Text in a circle"]
        let dir = try Harness.scratch()
        for (name, text) in expected {
            let out = dir + "/\(name).pdf"
            let result = try Harness.typeset([root.appendingPathComponent("\(name).rt").path, "-o", out])
            XCTAssertEqual(result.status, 0, "\(name): \(result.stderr)")
            XCTAssertEqual(result.stderr, "", "\(name) has diagnostics")
            XCTAssertTrue(try PDF.text(out).replacingOccurrences(of: "\n", with: " ").contains(text), name)
        }
        // The price list's decimal points line up: the tab-stop list, the table, then the German commas.
        let points = try Chars.read(dir + "/price-list.pdf").filter { $0.c == "." && $0.y > 150 }
        let stopX = (2 + 6) * 72 / 2.54
        XCTAssertEqual(points.prefix(4).map(\.x).filter { abs($0 - stopX) < 0.5 }.count, 4, "tab-stop prices")
        let tablePoints = points.dropFirst(4).prefix(4).map(\.x)
        XCTAssertEqual(tablePoints.count, 4)
        for x in tablePoints { XCTAssertEqual(x, tablePoints[0], accuracy: 0.5, "table prices") }
        let gettysburg = try Chars.read(dir + "/gettysburg.pdf")
        XCTAssertGreaterThan(try Chars.first("F", in: gettysburg).size, 20, "first letter larger")
        XCTAssertEqual(try Chars.first("G", in: gettysburg).font.hasSuffix("Bold"), true)
        XCTAssertTrue(try Content.of(dir + "/gettysburg.pdf").contains("1 0 0 RG"), "Gettysburg stroked red")
    }

    // MARK: Helpers

    static func replacing(_ old: Data, with new: Data, in data: Data) -> Data {
        var result = data
        var start = result.startIndex
        while let r = result.range(of: old, in: start..<result.endIndex) {
            result.replaceSubrange(r, with: new)
            start = r.lowerBound + new.count
        }
        return result
    }

    /// A 16x16 baseline JPEG (543 bytes).
    static let jpeg = "/9j/4AAQSkZJRgABAQEAAQABAAD/2wBDAAMCAgICAgMCAgIDAwMDBAYEBAQEBAgGBgUGCQgKCgkICQkKDA8MCgsOCwkJDRENDg8QEBEQCgwSExIQEw8QEBD/2wBDAQMDAwQDBAgEBAgQCwkLEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBD/wAARCAAQABADASIAAhEBAxEB/8QAFgABAQEAAAAAAAAAAAAAAAAABwQF/8QAJBAAAQQBBAICAwAAAAAAAAAAAQIDBAYFBwgSExEiABQJMTL/xAAVAQEBAAAAAAAAAAAAAAAAAAAABv/EACMRAAECBQMFAAAAAAAAAAAAAAECEQMEBQYhABIxFRZhgeH/2gAMAwEAAhEDEQA/ABSm0mobc8HmExLUlRzzEWPkJWW+ulrsaUVAseUgslSlH9LKuPryIKuWPZdskzXmm3fX5m2nF4GlVxx/HOpx4ks51+MiU/Iaad7UcUo4tILoS4kqcWkezS0hO/HvuRp0rO6hWnWO1UisZVuFi4GFeyEpmGepa5S5SWVPuciFKRFLgSrwetnyPIB+Vb4N9mKhQMzo5po9XLdDs9d6ZVix2VEhiL9kuNPxw2gEKcDQ/rs8AuA8VAe0vdl7VOYn+27flGAUgmITjbhSmCg3BYlyeWDkMolvw4KOp1KM6iCNvngZHwetf//Z"
}

/// Characters from `mutool draw -F stext`.
enum Chars {
    struct Char { var c: String; var font: String; var size: Double; var x: Double; var y: Double; var color: String }

    static func read(_ pdf: String) throws -> [Char] {
        let xml = try PDF.tool("mutool", ["draw", "-F", "stext", "-o", "-", pdf])
        var result: [Char] = []
        var font = "", size = 0.0
        for line in xml.split(separator: "\n") {
            if line.contains("<font ") {
                font = attr(line, "name")
                size = Double(attr(line, "size")) ?? 0
            } else if line.contains("<char ") {
                result.append(Char(c: attr(line, "c"), font: font, size: size, x: Double(attr(line, "x")) ?? .nan,
                                   y: Double(attr(line, "y")) ?? .nan, color: attr(line, "color")))
            }
        }
        return result
    }

    static func first(_ c: String, in chars: [Char], file: StaticString = #filePath, line: UInt = #line) throws -> Char {
        try XCTUnwrap(chars.first { $0.c == c }, "no '\(c)' in the PDF", file: file, line: line)
    }

    static func attr(_ line: Substring, _ name: String) -> String {
        guard let r = line.range(of: " \(name)=\"") else { return "" }
        let rest = line[r.upperBound...]
        return String(rest[..<(rest.firstIndex(of: "\"") ?? rest.endIndex)])
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
    }
}

/// Page content streams, uncompressed.
enum Content {
    static func of(_ pdf: String) throws -> String {
        let out = pdf + ".content.qdf"
        _ = try Harness.run("qpdf", ["--qdf", "--object-streams=disable", pdf, out])
        return try String(contentsOfFile: out, encoding: .isoLatin1)
    }

    /// The first page's content stream (qpdf --qdf marks it "Contents for page 1").
    static func pageStream(of pdf: String) throws -> String {
        let all = try of(pdf)
        guard let mark = all.range(of: "%% Contents for page 1"),
              let start = all.range(of: "stream\n", range: mark.upperBound..<all.endIndex),
              let end = all.range(of: "endstream", range: start.upperBound..<all.endIndex) else { return "" }
        return String(all[start.upperBound..<end.lowerBound])
    }

    /// The operators of a content stream in order (operands: numbers, names, strings, arrays and dicts skipped).
    static func operators(_ stream: String) -> [String] {
        let bytes = Array(stream.utf8)
        var result: [String] = []
        var i = 0
        func regular(_ b: UInt8) -> Bool { !" \n\r\t\u{0C}()<>[]{}/%".utf8.contains(b) && b != 0 }
        while i < bytes.count {
            let b = bytes[i]
            switch b {
            case UInt8(ascii: "("):  // literal string, nested parentheses and escapes
                var depth = 0
                while i < bytes.count {
                    if bytes[i] == UInt8(ascii: "\\") { i += 2; continue }
                    if bytes[i] == UInt8(ascii: "(") { depth += 1 }
                    if bytes[i] == UInt8(ascii: ")") { depth -= 1; if depth == 0 { break } }
                    i += 1
                }
                i += 1
            case UInt8(ascii: "<") where i + 1 < bytes.count && bytes[i + 1] != UInt8(ascii: "<"):
                while i < bytes.count && bytes[i] != UInt8(ascii: ">") { i += 1 }
                i += 1
            case UInt8(ascii: "/"):
                i += 1
                while i < bytes.count && regular(bytes[i]) { i += 1 }
            case _ where regular(b):
                let start = i
                while i < bytes.count && regular(bytes[i]) { i += 1 }
                let token = String(decoding: bytes[start..<i], as: UTF8.self)
                if let first = token.first, first.isLetter || first == "'" || first == "\"" { result.append(token) }
            default:
                i += 1
            }
        }
        return result
    }
}

/// The first page rasterised (pdftoppm, PPM).
struct Raster {
    struct Pixel { var r, g, b: Int }
    var width: Int, height: Int, bytes: [UInt8]

    static func render(_ pdf: String, dpi: Int) throws -> Raster {
        let result = try Harness.run("pdftoppm", ["-r", "\(dpi)", "-f", "1", "-l", "1", pdf])
        let data = [UInt8](result.stdout)
        // Header: P6\n<w> <h>\n255\n
        var fields: [String] = [], i = 0, current = ""
        while fields.count < 4 && i < data.count {
            let ch = Character(UnicodeScalar(data[i]))
            if ch.isWhitespace { if !current.isEmpty { fields.append(current); current = "" } } else { current.append(ch) }
            i += 1
        }
        guard fields.count == 4, fields[0] == "P6", let w = Int(fields[1]), let h = Int(fields[2]) else {
            throw NSError(domain: "Raster", code: 1)
        }
        return Raster(width: w, height: h, bytes: Array(data[i...]))
    }

    func bounds(_ match: (Pixel) -> Bool) -> (minX: Int, minY: Int, maxX: Int, maxY: Int)? {
        var box: (Int, Int, Int, Int)? = nil
        for y in 0..<height {
            for x in 0..<width {
                let k = (y * width + x) * 3
                guard k + 2 < bytes.count, match(Pixel(r: Int(bytes[k]), g: Int(bytes[k + 1]), b: Int(bytes[k + 2]))) else { continue }
                box = box.map { (min($0.0, x), min($0.1, y), max($0.2, x), max($0.3, y)) } ?? (x, y, x, y)
            }
        }
        return box
    }
}
