@testable import TypesetLayout
import Foundation
import XCTest

/// Hyphenation patterns of every language Debian's `hyphen-*` packages install (scripts/install-deps.sh).
final class LanguageHyphenationTests: XCTestCase {
    private func hyphenator(_ tag: String) throws -> Hyphenator {
        try XCTUnwrap(HyphenationDictionaries.hyphenator(for: tag).hyphenator, "no patterns for \(tag): run scripts/install-deps.sh")
    }

    private func hyphenated(_ word: String, _ h: Hyphenator) -> String {
        let points = Set(h.hyphenationPoints(word))
        var out = ""
        for (i, s) in word.unicodeScalars.enumerated() {
            if points.contains(i) { out += "-" }
            out.unicodeScalars.append(s)
        }
        return out
    }

    func testGermanCompoundsSplitAtTheirWords() throws {
        let de = try hyphenator("de")
        // Latin-1 file, two levels (NEXTLEVEL): compound boundaries first, then each word.
        XCTAssertEqual(hyphenated("Donaudampfschifffahrtsgesellschaftskapitänsmütze", de),
                       "Do-nau-dampf-schiff-fahrts-ge-sell-schafts-ka-pi-täns-müt-ze")
        XCTAssertEqual(hyphenated("Silbentrennung", de), "Sil-ben-tren-nung")
        XCTAssertEqual([de.leftMin, de.rightMin], [2, 2], "TeX's German minimums: the file gives none")
        XCTAssertTrue(try hyphenator("de-CH") === de, "de, de-CH share one loaded (symlinked) file")
        XCTAssertTrue(try hyphenator("de-AT-1996") === de)
    }

    func testFrenchSpanishRussianAndOthersAtPatternPoints() throws {
        XCTAssertEqual(hyphenated("anticonstitutionnellement", try hyphenator("fr")), "an-ti-cons-ti-tu-tion-nel-le-ment")
        XCTAssertEqual(hyphenated("electroencefalografía", try hyphenator("es")), "elec-troen-ce-fa-lo-gra-fía")
        // KOI8-R file.
        XCTAssertEqual(hyphenated("Достопримечательности", try hyphenator("ru")), "До-сто-при-ме-ча-тель-но-сти")
        // ISO8859-2 and ISO8859-7 files.
        XCTAssertEqual(hyphenated("nejneobhospodařovávatelnějšími", try hyphenator("cs")),
                       "nej-ne-ob-hos-po-da-řo-vá-va-tel-něj-šími")
        XCTAssertEqual(hyphenated("ελευθερία", try hyphenator("el")), "ε-λευ-θε-ρί-α")
        XCTAssertEqual(hyphenated("Rzeczpospolita", try hyphenator("pl")), "Rzecz-po-spo-li-ta")
        XCTAssertEqual(hyphenated("jernbanestasjon", try hyphenator("nb")), "jern-bane-sta-sjon")
        XCTAssertTrue(try hyphenator("no") === (try hyphenator("nb")), "Norwegian `no` is Bokmål")
        let words = ["it": "precipitevolissimevolmente", "nl": "ziekenhuisopname", "pt": "inconstitucionalissimamente",
                     "pt-BR": "paralelepípedo", "sv": "järnvägsstation", "da": "jernbanestation", "nn": "jernbanestasjon",
                     "hu": "megszentségteleníthetetlenségeskedéseitekért", "ro": "electroencefalografie",
                     "uk": "бібліотека", "en-GB": "hyphenation"]
        for (tag, word) in words {
            XCTAssertGreaterThan(try hyphenator(tag).hyphenationPoints(word).count, 1, "\(tag) \(word)")
        }
    }

    func testMinimumFragmentsPerLanguage() throws {
        let sv = try hyphenator("sv")
        XCTAssertEqual([sv.leftMin, sv.rightMin], [1, 2], "the file's LEFTHYPHENMIN / RIGHTHYPHENMIN win")
        XCTAssertEqual([try hyphenator("fr").leftMin, try hyphenator("fr").rightMin], [2, 2])
        XCTAssertEqual([try hyphenator("en").leftMin, try hyphenator("en").rightMin], [2, 3])
        XCTAssertEqual([try hyphenator("cs").leftMin, try hyphenator("cs").rightMin], [2, 3], "TeX's Czech default")
        for (tag, word) in [("de", "Donaudampfschifffahrtsgesellschaftskapitänsmütze"), ("ru", "Достопримечательности"),
                            ("cs", "nejneobhospodařovávatelnějšími"), ("el", "ελευθερία"), ("sv", "järnvägsstationerna")] {
            let h = try hyphenator(tag)
            let n = word.unicodeScalars.count
            let points = h.hyphenationPoints(word)
            XCTAssertFalse(points.isEmpty, tag)
            XCTAssertTrue(points.allSatisfy { $0 >= h.leftMin && n - $0 >= h.rightMin }, "\(tag): \(points)")
        }
        // A pattern that would break after every letter shows the minimums at work.
        let h = Hyphenator(dictionary: "UTF-8\nLEFTHYPHENMIN 3\nRIGHTHYPHENMIN 2\n1a1\n1b1\n")
        XCTAssertEqual(h.hyphenationPoints("abababa"), [3, 4, 5])
    }

    func testCompoundLevelAndCompoundMinimums() {
        // Level 1 splits "lampen|schirm" (6); level 2 hyphenates each part as a word of its own. Beside the joint
        // the compound minimums (3) hold: no "lamp-e|n" (4), no "sc-h" (8).
        let h = Hyphenator(dictionary: "UTF-8\nLEFTHYPHENMIN 1\nRIGHTHYPHENMIN 1\nCOMPOUNDLEFTHYPHENMIN 3\n"
                           + "COMPOUNDRIGHTHYPHENMIN 3\nn1s\nNEXTLEVEL\n1m\n1p\n1r\n1h\n1e\n")
        XCTAssertEqual([h.compoundLeftMin, h.compoundRightMin], [3, 3])
        XCTAssertEqual(h.hyphenationPoints("lampenschirm"), [2, 3, 6, 10, 11])
        XCTAssertEqual(h.hyphenationPoints("LampenSchirm"), [2, 3, 6, 10, 11])
    }

    func testLegacyCharsetsDecode() throws {
        let dir = NSTemporaryDirectory() + "hyph-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // "ä1ö" in Latin-1, "ж1з" in KOI8-R (ж = 0xD6, з = 0xDA), cp1251 (ж = 0xE6, з = 0xE7).
        let files: [(String, [UInt8], String, [Int])] = [
            ("ISO8859-1", [0xE4, 0x31, 0xF6], "aäöa", [2]),
            ("KOI8-R", [0xD6, 0x31, 0xDA], "ажза", [2]),
            ("microsoft-cp1251", [0xE6, 0x31, 0xE7], "ажза", [2]),
        ]
        for (charset, pattern, word, points) in files {
            let path = dir + "/\(charset).dic"
            let bytes = Array("\(charset)\nLEFTHYPHENMIN 1\nRIGHTHYPHENMIN 1\n".utf8) + pattern + [10]
            FileManager.default.createFile(atPath: path, contents: Data(bytes))
            let h = try XCTUnwrap(Hyphenator(contentsOf: path), charset)
            XCTAssertEqual(h.hyphenationPoints(word), points, charset)
            XCTAssertEqual(h.hyphenationPoints(word.uppercased()), points, "\(charset): capitals match lower-case patterns")
        }
        FileManager.default.createFile(atPath: dir + "/x.dic", contents: Data("EBCDIC-X\n1a1\n".utf8))
        XCTAssertNil(Hyphenator(contentsOf: dir + "/x.dic"), "an unknown charset is no patterns, not garbage")
    }

    func testTagsMapToFiles() {
        XCTAssertEqual(HyphenationDictionaries.candidateFilesForTesting("pt-BR").first, "hyph_pt_BR.dic")
        XCTAssertEqual(HyphenationDictionaries.candidateFilesForTesting("de-CH-1901").first, "hyph_de_CH.dic")
        XCTAssertEqual(HyphenationDictionaries.candidateFilesForTesting("sr-Latn-RS").first, "hyph_sr_RS.dic")
        XCTAssertEqual(Array(HyphenationDictionaries.candidateFilesForTesting("no").prefix(2)), ["hyph_nb_NO.dic", "hyph_nb.dic"])
        XCTAssertEqual(HyphenationDictionaries.candidateFilesForTesting("nn").first, "hyph_nn_NO.dic")
    }

    func testGermanLoadsBothLevels() throws {
        XCTAssertGreaterThan(try hyphenator("de").patternCount, 75_000, "69,000 compound patterns + 8,700 word patterns")
    }
}
