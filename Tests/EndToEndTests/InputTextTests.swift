// Contract section 1 and issue 8's rule: every character of the input reaches the PDF, or a located
// diagnostic says why. Line ends (LF, CRLF, CR), control characters, characters no font has, `float=` on an
// inline image, invalid UTF-8 and the BOM, as a reader of the PDF and of stderr sees them.

import Foundation
import XCTest

final class InputTextTests: XCTestCase {
    private func typeset(_ bytes: [UInt8], in dir: String, name: String = "doc") throws -> (RunResult, String) {
        try Data(bytes).write(to: URL(fileURLWithPath: "\(dir)/\(name).rt"))
        let result = try Harness.typeset(["\(name).rt", "-o", "\(name).pdf"], cwd: dir)
        return (result, "\(dir)/\(name).pdf")
    }

    /// The characters of the first page as mutool reads them (spaces included, unlike pdftotext's guesses).
    private func characters(_ pdf: String) throws -> String {
        let xml = try PDF.tool("mutool", ["draw", "-F", "stext", "-o", "-", pdf, "1"])
        var out = ""
        for line in xml.split(separator: "\n") {
            if line.contains("<line") { out += "\n" }
            guard let c = line.range(of: " c=\"") else { continue }
            let value = line[c.upperBound...].prefix { $0 != "\"" }
            out += value == "&quot;" ? "\"" : value == "&amp;" ? "&" : value == "&lt;" ? "<" : value == "&gt;" ? ">" : String(value)
        }
        return out
    }

    func testLFCRLFAndCRFilesGiveTheSamePDFText() throws {
        let dir = try Harness.scratch()
        try Harness.write("part one\nline two\n", to: dir + "/part.rt")
        let source = """
            ---
            title: Line ends
            vars:
              who: World
            ---
            # Hello {{who}}

            first
            second\\
            third

            - item one
            - item two

            | a | b |
            |---|--:|
            | 1 | 22 |

            {align=right}
            right aligned

            ```
            code line 1

              code line 3
            ```

            @include part.rt

            [x]{bogus=1}

            """
        var texts: [String: String] = [:]
        var warnings: [String: String] = [:]
        for (name, ending) in [("lf", "\n"), ("crlf", "\r\n"), ("cr", "\r")] {
            try Harness.write("part one" + ending + "line two" + ending, to: dir + "/part.rt")
            let (result, pdf) = try typeset(Array(source.replacingOccurrences(of: "\n", with: ending).utf8), in: dir, name: name)
            XCTAssertEqual(result.status, 0, result.stderr)
            texts[name] = try characters(pdf)
            warnings[name] = result.stderr.replacingOccurrences(of: "\(name).rt", with: "doc.rt")
        }
        let lf = try XCTUnwrap(texts["lf"])
        for expected in ["Hello World", "first second", "third", "code line 1", "code line 3", "part one line two", "x"] {
            XCTAssertTrue(lf.contains(expected), "\(expected) in \(lf)")
        }
        XCTAssertEqual(texts["crlf"], lf)
        XCTAssertEqual(texts["cr"], lf)
        XCTAssertTrue(warnings["lf"]?.contains("doc.rt:30:5: warning:") ?? false, warnings["lf"] ?? "")
        XCTAssertEqual(warnings["crlf"], warnings["lf"])
        XCTAssertEqual(warnings["cr"], warnings["lf"])
    }

    func testControlCharactersAreDroppedWithALocatedWarning() throws {
        let dir = try Harness.scratch()
        let (result, pdf) = try typeset(Array("Start of text.\n\nab\u{1}cd and \u{85}ef\u{7F}.\n".utf8), in: dir)
        XCTAssertEqual(result.status, 0, result.stderr)
        // One warning each, at its own column (characters counted, the dropped ones included).
        for (column, code) in [(3, "U+0001"), (11, "U+0085"), (14, "U+007F")] {
            XCTAssertTrue(result.stderr.contains("doc.rt:3:\(column): warning: control character \(code) dropped"), result.stderr)
        }
        let text = try PDF.text(pdf)
        XCTAssertTrue(text.contains("abcd and ef."), text)
        XCTAssertFalse(text.contains("0001"), "no hex box: \(text)")
    }

    func testACharacterNoFontHasIsAWarningAtItsParagraph() throws {
        // Supplementary private use: no font on any machine this runs on should have a glyph for it.
        let missing = "\u{F0001}"
        let fonts = try Harness.run("fc-list", [":charset=f0001"])
        try XCTSkipUnless(String(decoding: fonts.stdout, as: UTF8.self).isEmpty, "a font covers U+F0001 here")
        let dir = try Harness.scratch()
        let (result, _) = try typeset(Array("""
            ---
            footer: "page {{page}} \(missing)"
            ---
            All drawable.

            Here \(missing) and \(missing)\u{F0002} again.

            Again \(missing) later.

            | a | b |
            |---|---|
            | 1 | \u{F0003} |

            """.utf8), in: dir)
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.filter { $0.contains("not in any installed font") }.map { String($0.prefix { $0 != " " }) },
                       ["doc.rt:2:24:", "doc.rt:6:13:", "doc.rt:12:7:"], result.stderr)
        // Each at the character's first place in the file (section 1), not its paragraph's start.
        XCTAssertTrue(result.stderr.contains("doc.rt:6:13: warning: character U+F0002 is not in any installed font"), result.stderr)
        XCTAssertTrue(result.stderr.contains("doc.rt:2:24: warning: character U+F0001 is not in any installed font"), result.stderr)
    }

    func testAWordOfAScriptWithoutAFontIsOneWarning() throws {
        let fonts = try Harness.run("fc-list", [":charset=0ba4"])
        try XCTSkipUnless(String(decoding: fonts.stdout, as: UTF8.self).isEmpty, "a Tamil font is installed here")
        let dir = try Harness.scratch()
        let (result, _) = try typeset(Array("Tamil: தமிழ்.\n".utf8), in: dir)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("doc.rt:1:8: warning: 5 characters are not in any installed font and would print "
            + "as empty boxes: U+0BA4 'த', U+0BAE 'ம', U+0BBF 'ி', U+0BB4 'ழ', U+0BCD '்'"), result.stderr)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
    }

    func testAllDrawableTextGivesNoGlyphWarning() throws {
        let dir = try Harness.scratch()
        let (result, _) = try typeset(Array("Plain text, “quotes”, Ünïcödé, Ελληνικά, кириллица.\n".utf8), in: dir)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
    }

    func testFloatOnAnInlineImageIsAWarningAtTheAttribute() throws {
        let dir = try Harness.scratch()
        try TestImage.writePNG(to: dir + "/i.png")
        let (result, pdf) = try typeset(Array("Before ![](i.png){float=left} after.\n\n![](i.png){float=right}\n\nText.\n".utf8), in: dir)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr.split(separator: "\n").map(String.init),
                       ["doc.rt:1:19: warning: float= is ignored: the image shares its paragraph with text "
                        + "(put it in a paragraph of its own to float it)"])
        let text = try PDF.text(pdf)
        XCTAssertTrue(text.contains("Before") && text.contains("after.") && text.contains("Text."), text)
    }

    func testInvalidUTF8IsALocatedErrorAndNoPDF() throws {
        let dir = try Harness.scratch()
        let (result, pdf) = try typeset(Array("ok\r\nab".utf8) + [0xC3, 0x28] + Array("\r\n".utf8), in: dir)
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "doc.rt:2:3: error: invalid UTF-8 sequence starting with byte 0xC3: save the file as UTF-8\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: pdf))
    }

    func testBOMIsIgnoredAndNotCountedInColumns() throws {
        let dir = try Harness.scratch()
        let (result, pdf) = try typeset([0xEF, 0xBB, 0xBF] + Array("[x]{bogus=1} Body text.\r\n".utf8), in: dir)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.hasPrefix("doc.rt:1:5: warning:"), result.stderr)
        let text = try characters(pdf)
        XCTAssertTrue(text.hasPrefix("\nx Body text."), text)
    }
}
