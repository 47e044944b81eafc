@testable import TypesetLayout
import Foundation
import TypesetIR
import XCTest

/// Words wider than a narrow justified column break only at their hyphenation points, with a visible hyphen
/// (a break between letters used to cost less than one loose line: "Donaudampfschifffah|rts..."); in ragged
/// text with hyphenation on too (Pango's wrapping broke it between any two letters: "consideration-|s").
final class LongWordBreakTests: XCTestCase {
    /// The text of each line of a one-column PDF, top to bottom.
    private func lines(_ path: String) throws -> [String] {
        var rows: [(y: Double, words: [PDFTool.Word])] = []
        for w in try PDFTool.words(path).sorted(by: { ($0.page, $0.yMax, $0.xMin) < ($1.page, $1.yMax, $1.xMin) }) {
            if let last = rows.last, abs(last.y - w.yMax) < 2 { rows[rows.count - 1].words.append(w) }
            else { rows.append((w.yMax, [w])) }
        }
        return rows.map { $0.words.map(\.text).joined(separator: " ") }
    }

    /// Sets `before word after` justified, hyphenated, in `lang`, `width` points wide; returns the fragments
    /// of `word` as set (each but the last as it ends its line).
    private func fragments(of word: String, before: String, after: String, lang: String, width: Double,
                           alignment: TextAlignment = .justify, name: String) throws -> [String] {
        var style = ParagraphStyle()
        style.alignment = alignment
        style.hyphenate = true
        style.language = lang
        var attributes = CharacterAttributes()
        attributes.language = lang
        var doc = Fixture.document([.paragraph(Fixture.paragraph(before + " " + word + " " + after, style: style,
                                                                 attributes: attributes))])
        doc.language = lang
        doc.page.width = width + 80
        doc.page.margins = EdgeInsets(all: 40)
        let rows = try lines(PDFTool.render(doc, name: name, untagged: true))
        // The lines holding the word: the one ending in its first letters, then each line's first word.
        var parts: [String] = []
        var rest = Substring(word)
        for row in rows where !rest.isEmpty {
            let tokens = row.split(separator: " ").map(String.init)
            let core = { (t: String) in t.hasSuffix("-") ? String(t.dropLast()) : t }
            if parts.isEmpty {
                guard let last = tokens.last, core(last).count >= 2, rest.hasPrefix(core(last)) else { continue }
                parts.append(last)
            } else {
                guard rest.hasPrefix(core(tokens[0])) else { break }
                parts.append(tokens[0])
            }
            rest = rest.dropFirst(core(parts.last!).count)
        }
        XCTAssertTrue(rest.isEmpty, "the whole word is set: \(rows)")
        return parts
    }

    private func assertBreaksAtHyphenationPoints(_ word: String, _ parts: [String], lang: String) throws {
        let hyphenator = try XCTUnwrap(HyphenationDictionaries.hyphenator(for: lang).hyphenator)
        let points = Set(hyphenator.hyphenationPoints(word))
        XCTAssertGreaterThan(parts.count, 1, "the word is wider than the column: \(parts)")
        var at = 0
        for part in parts.dropLast() {
            XCTAssertTrue(part.hasSuffix("-"), "a visible hyphen ends \(part) (\(parts))")
            at += part.dropLast().unicodeScalars.count
            XCTAssertTrue(points.contains(at), "break after \(part) is a hyphenation point (\(parts))")
        }
        XCTAssertEqual(parts.map { $0.hasSuffix("-") ? String($0.dropLast()) : $0 }.joined(), word)
    }

    func testGermanCompoundBreaksOnlyAtHyphenationPoints() throws {
        let word = "Donaudampfschifffahrtsgesellschaftskapitänsmütze"
        let parts = try fragments(of: word, before: "Die", after: "liegt auf dem Tisch neben der Tür.",
                                  lang: "de", width: 120, name: "longword-de")
        try assertBreaksAtHyphenationPoints(word, parts, lang: "de")
    }

    func testEnglishLongWordBreaksOnlyAtHyphenationPoints() throws {
        let word = "pneumonoultramicroscopicsilicovolcanoconiosis"
        let parts = try fragments(of: word, before: "The word", after: "is long and rarely used in print.",
                                  lang: "en", width: 110, name: "longword-en")
        try assertBreaksAtHyphenationPoints(word, parts, lang: "en")
    }

    func testLongWordInRaggedTextBreaksOnlyAtHyphenationPoints() throws {
        let word = "pneumonoultramicroscopicsilicovolcanoconiosis"
        let parts = try fragments(of: word, before: "The word", after: "is long and rarely used in print.",
                                  lang: "en", width: 110, alignment: .left, name: "longword-en-ragged")
        try assertBreaksAtHyphenationPoints(word, parts, lang: "en")
    }
}
