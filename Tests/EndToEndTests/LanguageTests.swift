// Languages in the PDF: smart punctuation by `lang`, hyphenation with each language's patterns, the warning
// where none exist, and right-to-left text justified without letter-spacing.

import Foundation
import XCTest

final class LanguageTests: XCTestCase {
    func testSmartPunctuationReachesThePDF() throws {
        let pdf = try Harness.typesetSource("""
            "Quoted," she said -- it's 1990--2000... `"code" --` stays.

            {lang=de}
            Er sagte: "Das ist 'gut'." \\"Gerade\\"

            {lang=fr}
            Il a dit "bonjour".
            """)
        let text = try PDF.text(pdf)
        XCTAssertTrue(text.contains("\u{201C}Quoted,\u{201D} she said \u{2013} it\u{2019}s 1990\u{2013}2000\u{2026} \"code\" -- stays."), text)
        XCTAssertTrue(text.contains("Er sagte: \u{201E}Das ist \u{201A}gut\u{2018}.\u{201C} \"Gerade\""), text)
        // The narrow no-break spaces inside guillemets come out of pdftotext as spaces.
        XCTAssertTrue(text.contains("Il a dit \u{AB} bonjour \u{BB}.") || text.contains("Il a dit \u{AB}\u{202F}bonjour\u{202F}\u{BB}."), text)
    }

    func testSmartFalseKeepsStraightCharacters() throws {
        let text = try PDF.text(try Harness.typesetSource("---\nsmart: false\n---\n\"Quoted\" -- it's...\n"))
        XCTAssertTrue(text.contains("\"Quoted\" -- it's..."), text)
    }

    /// The long German compound in a narrow justified column breaks at its hyphenation points (with the hyphen).
    func testGermanHyphenatesInANarrowJustifiedColumn() throws {
        let word = "Donaudampfschifffahrtsgesellschaftskapitänsmütze"
        let pdf = try Harness.typesetSource("""
            ---
            lang: de
            justify: true
            hyphenate: true
            page: 56mm x 120mm
            margin: 8mm
            ---
            Die \(word) gehört dem Kapitän, der mit seiner Mannschaft am frühen Morgen die Donau hinunterfährt.
            """, environment: ["TYPESET_UNTAGGED": "1"])  // tagged, an added hyphen copies as nothing
        let lines = try PDF.text(pdf, layout: true).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        // Follow the word over the lines: where each line boundary falls in it, and whether a hyphen marks it.
        var index = try XCTUnwrap(lines.firstIndex { $0.contains("Donau") }, "\(lines)")
        var piece = String(lines[index].split(separator: " ").last!)
        var offset = 0
        var hyphenBreaks: [Int] = []
        while true {
            let hyphen = piece.hasSuffix("-") && !word.dropFirst(offset).hasPrefix(piece)
            let fragment = hyphen ? String(piece.dropLast()) : piece
            XCTAssertTrue(word.dropFirst(offset).hasPrefix(fragment), "\(fragment) is not the word's next part: \(lines)")
            offset += fragment.count
            if offset >= word.count { break }
            if hyphen { hyphenBreaks.append(offset) }
            index += 1
            guard index < lines.count else { return XCTFail("the word never ends: \(lines)") }
            piece = String(lines[index].split(separator: " ").first!)
        }
        // Do-nau-dampf-schiff-fahrts-ge-sell-schafts-ka-pi-täns-müt-ze
        let points: Set<Int> = [2, 5, 10, 16, 22, 24, 28, 35, 37, 39, 43, 46]
        XCTAssertFalse(hyphenBreaks.isEmpty, "no hyphenation point used in the compound: \(lines)")
        XCTAssertTrue(hyphenBreaks.allSatisfy(points.contains), "\(hyphenBreaks) \(lines)")
    }

    func testFrenchAndRussianHyphenateAtPatternPoints() throws {
        let pdf = try Harness.typesetSource("""
            ---
            justify: true
            hyphenate: true
            page: 50mm x 150mm
            margin: 6mm
            ---
            {lang=fr}
            La constitution française anticonstitutionnellement interprétée.

            {lang=ru}
            Достопримечательности столицы привлекают многочисленных путешественников.
            """, environment: ["TYPESET_UNTAGGED": "1"])  // the added hyphens as text (tagged, they read as nothing)
        let lines = try PDF.text(pdf, layout: true).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let broken = lines.filter { $0.hasSuffix("-") }.compactMap { $0.split(separator: " ").last.map(String.init) }
        XCTAssertFalse(broken.isEmpty, "\(lines)")
        // Every fragment before a break ends at one of the patterns' points (libhyphen gives the same).
        let hyphenated = ["consti-tu-tion", "fran-çaise", "an-ti-cons-ti-tu-tion-nel-le-ment", "in-ter-pré-tée",
                          "До-сто-при-ме-ча-тель-но-сти", "сто-ли-цы", "при-вле-ка-ют", "мно-го-чис-лен-ных",
                          "пу-те-ше-ствен-ни-ков"]
        var allowed: Set<String> = []
        for word in hyphenated {
            let parts = word.split(separator: "-")
            for k in 1..<parts.count { allowed.insert(parts[..<k].joined() + "-") }
        }
        for fragment in broken { XCTAssertTrue(allowed.contains(fragment), "unexpected break \(fragment) in \(lines)") }
    }

    func testUnknownLanguageWarnsWithItsLocation() throws {
        let dir = try Harness.scratch()
        try Harness.write("---\nhyphenate: true\njustify: true\n---\nFirst.\n\n{lang=xx}\nUnknown words.\n", to: dir + "/doc.rt")
        let result = try Harness.typeset([dir + "/doc.rt", "-o", dir + "/doc.pdf"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("doc.rt:8:1: warning: no hyphenation patterns for language 'xx'"), result.stderr)
        XCTAssertFalse(result.stderr.contains("'en'"), result.stderr)
    }

    /// Arabic joins its letters: a loose justified line widens only its word spaces (the letters keep their
    /// natural advances, as in the same text set ragged), and both edges stay straight.
    func testRightToLeftJustifiesWithoutLetterSpacing() throws {
        let arabic = "المستشفيات والاستراتيجيات والمعلوماتية والمستشفيات الاستراتيجيات المعلوماتية بالإضافة للمستشفيات والاستراتيجيات"
        let hebrew = "עברית היא שפה שמית הנכתבת מימין לשמאל, והיא שפה רשמית במדינת ישראל. המילים הארוכות נשארות שלמות."
        func lines(_ align: String) throws -> [[PDF.Word]] {
            let pdf = try Harness.typesetSource("---\nfont: DejaVu Sans\npage: 60mm x 200mm\nmargin: 10mm\n---\n"
                + "{lang=ar align=\(align)}\n\(arabic)\n\n{lang=he align=\(align)}\n\(hebrew)\n", name: "rtl\(align)")
            let glyphs = try PDF.words(pdf).filter { $0.page == 1 }
            let rows = Dictionary(grouping: glyphs) { ($0.yMin * 10).rounded() }
            return rows.keys.sorted().map { rows[$0]!.sorted { $0.xMin < $1.xMin } }
        }
        func gaps(_ line: [PDF.Word]) -> [Double] { zip(line, line.dropFirst()).map { $1.xMin - $0.xMax } }
        let justified = try lines("justify"), ragged = try lines("right")
        let letterGap = { (ls: [[PDF.Word]]) in ls.flatMap(gaps).filter { $0 < 1 }.max() ?? 0 }
        XCTAssertLessThanOrEqual(letterGap(justified), letterGap(ragged) + 0.03, "letters spaced apart in a justified RTL line")
        let wordGaps = justified.flatMap(gaps).filter { $0 >= 1 }
        XCTAssertGreaterThan(wordGaps.max() ?? 0, 6, "the test needs a loose line (where LTR text would be letter-spaced)")
        // Full lines (with a space, not a paragraph's last) reach both margins: 10mm = 28.35pt, 170mm - 28.35pt.
        let left = 28.35, right = 60 / 25.4 * 72 - 28.35
        let full = justified.filter { !gaps($0).filter { $0 >= 1 }.isEmpty }
        XCTAssertGreaterThan(full.count, 3)
        for line in full.dropLast() where abs(line.first!.xMin - left) > 0.6 || abs(line.last!.xMax - right) > 0.6 {
            // A paragraph's last line is ragged: it may start anywhere but still ends at the right (RTL start).
            XCTAssertEqual(line.last!.xMax, right, accuracy: 0.6, "RTL line off the right edge")
        }
        let straight = full.filter { abs($0.first!.xMin - left) <= 0.6 && abs($0.last!.xMax - right) <= 0.6 }
        XCTAssertGreaterThanOrEqual(straight.count, 3, "justified RTL lines should meet both edges")
    }
}
