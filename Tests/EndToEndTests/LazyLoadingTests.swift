// Start-up (issue 14): what only some documents need is loaded only for them. `--verbose` names what a build
// loaded on demand; a plain one-page document loads nothing, hyphenation loads its language's patterns and
// nothing else, an SVG image loads librsvg. Counted, not timed.

import Foundation
import XCTest

final class LazyLoadingTests: XCTestCase {
    /// The words after "typeset: loaded on demand: " in a verbose run of `source` (with `files` beside it).
    private func loadedOnDemand(_ source: String, files: [String: String] = [:], name: String = #function) throws -> [String] {
        let dir = try Harness.scratch(name)
        for (file, text) in files { try Harness.write(text, to: dir + "/" + file) }
        try Harness.write(source, to: dir + "/doc.rt")
        let result = try Harness.typeset(["doc.rt", "-o", "doc.pdf", "--verbose"], cwd: dir)
        XCTAssertEqual(result.status, 0, result.stderr)
        let prefix = "typeset: loaded on demand: "
        guard let line = result.stderr.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) else {
            XCTFail("no '\(prefix)' line in: \(result.stderr)")
            return []
        }
        let words = line.dropFirst(prefix.count).split(separator: " ").map(String.init)
        return words == ["nothing"] ? [] : words
    }

    private let page = """
        ---
        title: One page
        columns: 2
        justify: true
        footer: "\\t{{page}}\\t"
        ---
        # A heading

        A paragraph with *emphasis*, `code` and a [link](https://example.org), justified in two columns of
        ordinary length so that the line breaker has something to do. Another sentence follows it here.
        """

    func testAPlainDocumentLoadsNothingOnDemand() throws {
        XCTAssertEqual(try loadedOnDemand(page), [], "no hyphenation patterns and no librsvg without hyphenation or SVG")
    }

    func testHyphenationLoadsOnlyItsLanguagesPatterns() throws {
        let hyphenated = page.replacingOccurrences(of: "justify: true", with: "justify: true\nhyphenate: true")
        let loaded = try loadedOnDemand(hyphenated)
        XCTAssertEqual(loaded.count, 1, "\(loaded)")
        XCTAssertTrue(loaded.first?.hasSuffix("/hyph_en_US.dic") == true, "\(loaded)")
        // A paragraph in German hyphenates too: its patterns join, and nothing else does.
        let german = hyphenated + "\n\n::: {lang=de}\nSilbentrennungsmusterdatei wird geladen.\n:::\n"
        let both = try loadedOnDemand(german)
        XCTAssertEqual(both.map { ($0 as NSString).lastPathComponent }, ["hyph_de_DE.dic", "hyph_en_US.dic"], "\(both)")
    }

    /// libqpdf (and the gnutls, nettle, gmp, p11-kit... it pulls in) is opened with dlopen by tagged builds only:
    /// the binary does not name it, so no run pays for loading and relocating it at start.
    func testQpdfIsNotLinkedButTaggingStillWorks() throws {
        let dynamic = try Harness.run("readelf", ["-d", Harness.binary])
        XCTAssertEqual(dynamic.status, 0, dynamic.stderr)
        let needed = String(decoding: dynamic.stdout, as: UTF8.self).split(separator: "\n").filter { $0.contains("(NEEDED)") }
        XCTAssertFalse(needed.isEmpty, "readelf lists no NEEDED entries")
        XCTAssertFalse(needed.contains { $0.contains("libqpdf") || $0.contains("libgnutls") }, "\(needed)")
        // The tagging stage loaded it: the PDF has its structure tree (Harness.typeset ran qpdf --check on it).
        let dir = try Harness.scratch()
        try Harness.write(page, to: dir + "/doc.rt")
        let result = try Harness.typeset(["doc.rt", "-o", "doc.pdf"], cwd: dir)
        XCTAssertEqual(result.status, 0, result.stderr)
        let catalog = try Harness.run("qpdf", ["--show-object=trailer", dir + "/doc.pdf"])
        let root = String(decoding: catalog.stdout, as: UTF8.self)
        XCTAssertEqual(catalog.status, 0, catalog.stderr)
        let number = root.range(of: "/Root ").map { root[$0.upperBound...].prefix { $0.isNumber } } ?? ""
        let object = try Harness.run("qpdf", ["--show-object=\(number)", dir + "/doc.pdf"])
        XCTAssertTrue(String(decoding: object.stdout, as: UTF8.self).contains("/StructTreeRoot"),
                      "no structure tree in the catalog: the tagging stage did not run")
    }

    func testAnSVGImageLoadsLibrsvg() throws {
        let svg = #"<svg xmlns="http://www.w3.org/2000/svg" width="96" height="48"><rect width="96" height="48"/></svg>"#
        XCTAssertEqual(try loadedOnDemand(page + "\n\n![box](box.svg)\n", files: ["box.svg": svg]), ["librsvg"])
        // A PNG is not an SVG: librsvg stays unloaded.
        let png = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples/check-icon.png").path
        let dir = try Harness.scratch()
        try FileManager.default.copyItem(atPath: png, toPath: dir + "/icon.png")
        try Harness.write(page + "\n\n![icon](icon.png)\n", to: dir + "/doc.rt")
        let result = try Harness.typeset(["doc.rt", "-o", "doc.pdf", "-v"], cwd: dir)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("typeset: loaded on demand: nothing\n"), result.stderr)
    }
}
