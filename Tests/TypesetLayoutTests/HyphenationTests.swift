import TypesetLayout
import XCTest

final class HyphenationTests: XCTestCase {
    private func english() throws -> Hyphenator {
        let found = HyphenationDictionaries.hyphenator(for: "en")
        return try XCTUnwrap(found.hyphenator, "install hyphen-en-us (/usr/share/hyphen/hyph_en_US.dic)")
    }

    private func hyphenated(_ word: String, _ h: Hyphenator) -> String {
        var out = ""
        let points = Set(h.hyphenationPoints(word))
        for (i, s) in word.unicodeScalars.enumerated() {
            if points.contains(i) { out += "-" }
            out.unicodeScalars.append(s)
        }
        return out
    }

    func testKnownEnglishWords() throws {
        let h = try english()
        XCTAssertEqual(h.leftMin, 2)
        XCTAssertEqual(h.rightMin, 3)
        XCTAssertEqual(hyphenated("hyphenation", h), "hy-phen-ation")
        XCTAssertEqual(hyphenated("typesetting", h), "type-set-ting")
        XCTAssertEqual(hyphenated("algorithm", h), "al-go-rithm")
        XCTAssertEqual(hyphenated("Community", h), "Com-mu-nity")
        XCTAssertEqual(h.hyphenationPoints("cat"), [])  // shorter than leftMin + rightMin
    }

    func testHeaderAndPatternsFromText() {
        let h = Hyphenator(dictionary: "UTF-8\nLEFTHYPHENMIN 1\nRIGHTHYPHENMIN 1\n% comment\na1b\n")
        XCTAssertEqual(h.leftMin, 1)
        XCTAssertEqual(h.rightMin, 1)
        XCTAssertEqual(h.hyphenationPoints("abab"), [1, 3])
        XCTAssertEqual(h.hyphenationPoints("ÄBAB"), [3])  // non-ASCII scalars count as one letter each
    }

    func testLanguageFileNamesAndMissingLanguages() {
        XCTAssertEqual(Array(HyphenationDictionaries.candidateFilesForTesting("de").prefix(2)),
                       ["hyph_de_DE.dic", "hyph_de.dic"])
        XCTAssertEqual(HyphenationDictionaries.candidateFilesForTesting("en-GB").first, "hyph_en_GB.dic")
        let missing = HyphenationDictionaries.hyphenator(for: "xx-test")
        XCTAssertNil(missing.hyphenator)
        XCTAssertTrue(missing.isNewlyMissing)
        XCTAssertFalse(HyphenationDictionaries.hyphenator(for: "xx-test").isNewlyMissing)  // warned once
    }
}
