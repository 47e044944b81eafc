// Tagged PDF (RT section 10): the structure tree read back with qpdf, the reading order with poppler, every
// painting operator marked, the catalog and XMP, and the PDF/UA faults reported where they are written.

import Foundation
import XCTest
#if canImport(FoundationXML)
import FoundationXML
#endif

final class TaggedPDFTests: XCTestCase {
    static let icon = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Examples/check-icon.png").standardized.path

    /// Typesets `source` next to a copy of the check icon; returns the PDF and the run.
    func build(_ source: String, arguments: [String] = [], environment: [String: String] = [:],
               name: String = #function) throws -> (pdf: String, result: RunResult) {
        let dir = try Harness.scratch(name)
        try FileManager.default.copyItem(atPath: Self.icon, toPath: dir + "/icon.png")
        try Harness.write(source, to: dir + "/doc.rt")
        let result = try Harness.typeset([dir + "/doc.rt", "-o", dir + "/doc.pdf"] + arguments, environment: environment)
        return (dir + "/doc.pdf", result)
    }

    private var rows: String { (1...40).map { "| r\($0) | v\($0) |" }.joined(separator: "\n") }

    private var structured: String {
        """
        ---
        page: 300pt x 300pt
        margin: 20pt
        header: "Running head"
        ---
        @toc

        # Alpha heading

        First paragraph with a [link](https://example.com/a).

        - item one
        - item two
          1. inner a
          2. inner b
        - item three

        > Quoted words.

        ```
        code line
        ```

        ![A red square](icon.png){width=40pt}

        ## Beta heading

        | Key | Value |
        |---|---|
        \(rows)

        Closing text with a note[^n].

        [^n]: The note text.

        """
    }

    func testStructureTreeHoldsEveryElementInSourceOrder() throws {
        let (pdf, result) = try build(structured)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertGreaterThan(try PDF.pageCount(pdf), 2)
        let document = try QPDFJSON(pdf).structureTree()
        XCTAssertEqual(document.type, "Document")
        let top = document.children.map(\.type).filter { $0 != "Note" }
        XCTAssertEqual(top, ["TOC", "H1", "P", "L", "BlockQuote", "Code", "Figure", "H2", "Table", "P"], document.outline)
        XCTAssertEqual(document.children[0].children.map(\.type), ["TOCI", "TOCI"])

        let list = try XCTUnwrap(document.children.first { $0.type == "L" })
        XCTAssertEqual(list.outline, "L(LI(Lbl LBody(P)) LI(Lbl LBody(P L(LI(Lbl LBody(P)) LI(Lbl LBody(P))))) LI(Lbl LBody(P)))")

        // One Table across pages: one header row (TH heading its column), every body row once.
        XCTAssertEqual(document.all("Table").count, 1)
        let table = document.all("Table")[0]
        XCTAssertEqual(table.children.map(\.type), ["THead", "TBody"])
        XCTAssertEqual(table.all("TR").count, 41)
        XCTAssertEqual(table.all("TH").map(\.scope), ["Column", "Column"])
        XCTAssertEqual(table.all("TD").count, 80)

        XCTAssertEqual(document.all("Figure").first?.alt, "A red square")
        let link = try XCTUnwrap(document.all("Link").first)
        XCTAssertEqual(link.annotations.count, 1, "the Link element holds its annotation")
        XCTAssertEqual(document.all("Note").first?.children.map(\.type), ["P"])
        XCTAssertEqual(document.all("Code").count, 1)
    }

    func testLinkAnnotationsPointBackThroughTheParentTree() throws {
        let (pdf, result) = try build(structured)
        XCTAssertEqual(result.status, 0, result.stderr)
        let json = try QPDFJSON(pdf)
        let root = json.dictionary(json.catalog["/StructTreeRoot"])
        let nums = json.numberTree(root["/ParentTree"])
        XCTAssertFalse(nums.isEmpty)
        var parents: [Int: Any] = [:]
        for k in stride(from: 0, to: nums.count - 1, by: 2) { if let key = nums[k] as? Int { parents[key] = nums[k + 1] } }
        let document = try json.structureTree()
        XCTAssertEqual(document.children[2].type, "P")
        let linkRef = try XCTUnwrap(document.children[2].all("Link").first?.annotations.first)
        let annotation = json.dictionary(linkRef)
        let key = try XCTUnwrap(annotation["/StructParent"] as? Int)
        let parent = json.dictionary(parents[key])
        XCTAssertEqual(parent["/S"] as? String, "/Link")
        XCTAssertEqual(QPDFJSON.text(annotation["/Contents"]), "Link to https://example.com/a")
        XCTAssertEqual(root["/ParentTreeNextKey"] as? Int, parents.keys.max().map { $0 + 1 })
    }

    func testEveryPaintingOperatorIsMarkedContentOrArtifact() throws {
        let (pdf, result) = try build(structured)
        XCTAssertEqual(result.status, 0, result.stderr)
        let marking = try Self.marking(pdf)
        XCTAssertEqual(marking.unmarked, [], "painted outside marked content")
        XCTAssertGreaterThan(marking.painted, 50)
        XCTAssertGreaterThan(marking.artifacts, 2, "header, rules: artifacts")
        XCTAssertFalse(try PDF.text(pdf).contains("Private"))
    }

    /// Every example (footnotes at the column foot, charts, SVG figures, exclusions, drop caps, tables): everything
    /// they paint is inside a structure element's marked content or an artifact.
    func testEveryExampleIsFullyMarked() throws {
        let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Examples").standardized.path
        let all = try FileManager.default.contentsOfDirectory(atPath: examples).filter { $0.hasSuffix(".rt") }.sorted()
        XCTAssertGreaterThan(all.count, 12)
        for name in all + ["markdown/README.md"] {
            let out = try Harness.scratch("marked-\(name.replacingOccurrences(of: "/", with: "-"))") + "/out.pdf"
            let result = try Harness.typeset([examples + "/" + name, "-o", out])
            XCTAssertEqual(result.status, 0, "\(name): \(result.stderr)")
            let marking = try Self.marking(out)
            XCTAssertEqual(marking.unmarked, [], "\(name): painted outside marked content")
            XCTAssertGreaterThan(marking.painted, 0, name)
            let json = try QPDFJSON(out)
            // cairo's own structure tree (the stage writes its own) and the lengths of replaced streams are not
            // copied: every object is one a reader reaches.
            XCTAssertEqual(json.unreachable, [], "\(name): objects nothing refers to")
            let tree = try json.structureTree()
            if ["tour.rt", "tech-report.rt"].contains(name) {
                XCTAssertFalse(tree.all("Figure").isEmpty, "\(name): figures are Figure elements")
            }
            if name == "tour.rt" { XCTAssertFalse(tree.all("Note").isEmpty, "tour.rt: footnotes are Note elements") }
        }
    }

    /// Painting operators in every page's content streams, and those outside any marked-content sequence.
    static func marking(_ pdf: String) throws -> (painted: Int, artifacts: Int, unmarked: [String]) {
        let json = try QPDFJSON(pdf)
        var pages: [[String: Any]] = []
        var queue: [Any?] = [json.catalog["/Pages"]]
        while let next = queue.popLast() {
            let node = json.dictionary(next)
            if let kids = node["/Kids"] as? [Any] { queue += kids.reversed().map { $0 } } else { pages.append(node) }
        }
        var artifacts = 0, painted = 0, unmarked: [String] = []
        for page in pages {
            let contents = page["/Contents"]
            let refs = (contents as? [Any]) ?? [contents as Any]
            for ref in refs {
                let text = String(decoding: try XCTUnwrap(json.streamData(ref)), as: UTF8.self)
                var depth = 0
                for line in text.split(separator: "\n") {
                    let t = line.trimmingCharacters(in: .whitespaces)
                    if t.hasSuffix("BDC") || t.hasSuffix("BMC") {
                        depth += 1
                        if t.hasPrefix("/Artifact") { artifacts += 1 }
                        continue
                    }
                    if t == "EMC" { depth -= 1; continue }
                    let op = t.split(separator: " ").last.map(String.init) ?? ""
                    let paints = ["f", "f*", "S", "B", "B*", "b", "Do", "sh"].contains(op) || t.hasSuffix("Tj") || t.hasSuffix("TJ")
                    guard paints else { continue }
                    painted += 1
                    if depth <= 0 { unmarked.append(t) }
                }
            }
        }
        return (painted, artifacts, unmarked)
    }

    func testTwoColumnsWithExclusionAndFloatReadInSourceOrder() throws {
        let words = "river bridge market tower garden library survey record column page order reader"
            .split(separator: " ")
        let paragraphs = (1...14).map { n in
            "Para\(String(format: "%02d", n)) " + (0..<45).map { words[($0 * 7 + n) % words.count] }.joined(separator: " ") + "."
        }
        var body = paragraphs[0..<3].joined(separator: "\n\n")
        body += "\n\n@exclude circle(50%, 45%, 50pt) margin=6pt\n\n"
        body += paragraphs[3..<6].joined(separator: "\n\n")
        body += "\n\n![Icon](icon.png){float=right width=40pt}\n\n"
        body += paragraphs[6...].joined(separator: "\n\n")
        let (pdf, result) = try build("---\ncolumns: 2\njustify: true\nfooter: \"\\t{{page}}\\t\"\n---\n" + body + "\n")
        XCTAssertEqual(result.status, 0, result.stderr)
        let text = try PDF.tool("pdfinfo", ["-struct-text", pdf])
        let order = text.components(separatedBy: "Para").dropFirst().compactMap { Int($0.prefix(2)) }
        XCTAssertEqual(order, Array(1...14), text)
        XCTAssertTrue(text.contains("Figure"), text)
    }

    /// Reading order (section 10): a figure's caption right after the figure, a table's right before the table
    /// (they were gathered into one paragraph at the end), and an image in running text is a Figure inside its
    /// paragraph, not an element read before it.
    func testCaptionsAndInlineImagesAreReadWhereTheyStand() throws {
        let source = "# T\n\n![Cat](icon.png){caption=\"A cat\"}\n\nThen words.\n\nTable: Prices\n\n"
            + "| a | b |\n|---|---|\n| 1 | 2 |\n\nBefore ![inline alt](icon.png) after.\n"
        let (pdf, result) = try build(source)
        XCTAssertEqual(result.status, 0, result.stderr)
        let document = try QPDFJSON(pdf).structureTree()
        XCTAssertEqual(document.children.map(\.type), ["H1", "Figure", "Caption", "P", "Caption", "Table", "P"], document.outline)
        let last = try XCTUnwrap(document.children.last)
        XCTAssertEqual(last.children.map(\.type), ["Figure"], document.outline)
        XCTAssertEqual(last.children.first?.alt, "inline alt")
        let text = try PDF.tool("pdfinfo", ["-struct-text", pdf])
        let order = ["Figure 1: A cat", "Then words.", "Table 1: Prices", "Before"].compactMap { text.range(of: $0)?.lowerBound }
        XCTAssertEqual(order.count, 4, text)
        XCTAssertEqual(order, order.sorted(), text)
    }

    /// cairo wraps a ligature in an ActualText span; lifted out of the paragraph's sequence, the words after it
    /// still belong to the paragraph (poppler drops them otherwise) and copying gives the letters, not the ligature.
    func testTextAfterALigatureStaysInItsParagraph() throws {
        let (pdf, result) = try build("The first office fills the file and ends here.\n\nSecond paragraph.\n")
        XCTAssertEqual(result.status, 0, result.stderr)
        let text = try PDF.tool("pdfinfo", ["-struct-text", pdf])
        let paragraph = text.components(separatedBy: "P (block)").dropFirst().first ?? ""
        XCTAssertTrue(paragraph.contains("ends here."), text)
        XCTAssertFalse(paragraph.contains("Second"), text)
        let copied = try PDF.text(pdf)
        XCTAssertTrue(copied.contains("The first office fills the file"), copied)
    }

    func testCatalogInfoAndXMPIdentifyTheStandards() throws {
        let (pdf, result) = try build("---\nlang: de\npdf-standard: [a-2a]\n---\n# Erster Titel\n\nText.\n\n::: {lang=fr}\nBonjour.\n:::\n",
                                      arguments: ["--pdf-standard", "ua-1"], environment: ["SOURCE_DATE_EPOCH": "1700000000"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let json = try QPDFJSON(pdf)
        let catalog = json.catalog
        XCTAssertEqual(QPDFJSON.text(catalog["/Lang"]), "de")
        XCTAssertEqual(json.dictionary(catalog["/MarkInfo"])["/Marked"] as? Bool, true)
        XCTAssertEqual(json.dictionary(catalog["/ViewerPreferences"])["/DisplayDocTitle"] as? Bool, true)
        let intent = try XCTUnwrap((catalog["/OutputIntents"] as? [Any])?.first as? [String: Any])
        XCTAssertEqual(intent["/S"] as? String, "/GTS_PDFA1")
        XCTAssertEqual(json.dictionary(intent["/DestOutputProfile"])["/N"] as? Int, 3)
        XCTAssertEqual(QPDFJSON.text(json.info["/Title"]), "Erster Titel", "no title key: the first level-1 heading")
        XCTAssertEqual(QPDFJSON.text(json.info["/CreationDate"]), "D:20231114221320Z")
        let document = try json.structureTree()
        XCTAssertEqual(document.all("P").compactMap(\.lang), ["fr"], "only the paragraph whose lang differs")

        let xmp = try XCTUnwrap(json.streamData(catalog["/Metadata"]))
        XCTAssertNil(json.dictionary(catalog["/Metadata"])["/Filter"], "PDF/A: metadata unfiltered")
        let fields = XMPFields(xmp)
        XCTAssertEqual(fields["pdfaid:part"], "2")
        XCTAssertEqual(fields["pdfaid:conformance"], "A")
        XCTAssertEqual(fields["pdfuaid:part"], "1")
        XCTAssertEqual(fields["rdf:li"], "Erster Titel")
        XCTAssertEqual(fields["xmp:CreateDate"], "2023-11-14T22:13:20Z")
        XCTAssertEqual(fields["pdfaSchema:prefix"], "pdfuaid", "PDF/A describes the pdfuaid schema")
    }

    /// PDF/A-2 6.2.8: an image's /Interpolate must be false or absent; cairo writes true for its default filter.
    func testPDFAImagesDoNotInterpolate() throws {
        let source = "Icon ![a check mark](icon.png) inline.\n\n![the check mark again](icon.png){width=3cm}\n"
        let (archival, result) = try build(source, arguments: ["--pdf-standard", "a-2b"], name: "archival")
        XCTAssertEqual(result.status, 0, result.stderr)
        let objects = try PDF.objects(archival)
        XCTAssertTrue(objects.contains("/Interpolate false"), "no image drawn")
        XCTAssertFalse(objects.contains("/Interpolate true"))
        let (plain, plainResult) = try build(source, name: "plain")
        XCTAssertEqual(plainResult.status, 0, plainResult.stderr)
        XCTAssertTrue(try PDF.objects(plain).contains("/Interpolate true"), "smooth scaling outside PDF/A")
    }

    /// One PDF/A part per file: a-2b with a-3b keeps part 2 with a warning; levels of one part claim the
    /// strongest (a-2a over a-2b), the same in every run.
    func testCombinedPDFALevelsClaimOnePartAndTheStrongestLevel() throws {
        let (two, result) = try build("# T\n\nText.\n", arguments: ["--pdf-standard", "a-2b,a-3b"], name: "parts")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("warning: a PDF can claim only one PDF/A part: a-3b dropped, PDF/A-2 kept"), result.stderr)
        let fields = XMPFields(try XCTUnwrap(try QPDFJSON(two).streamData(QPDFJSON(two).catalog["/Metadata"])))
        XCTAssertEqual(fields["pdfaid:part"], "2")
        for run in 0..<3 {
            let (levels, r) = try build("# T\n\nText.\n", arguments: ["--pdf-standard", "a-2b,a-2u,a-2a"], name: "levels\(run)")
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertFalse(r.stderr.contains("warning"), r.stderr)
            let xmp = XMPFields(try XCTUnwrap(try QPDFJSON(levels).streamData(QPDFJSON(levels).catalog["/Metadata"])))
            XCTAssertEqual(xmp["pdfaid:conformance"], "A")
        }
    }

    func testTitleFallsBackToTheFileName() throws {
        let (pdf, result) = try build("Just text.\n")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(QPDFJSON.text(try QPDFJSON(pdf).info["/Title"]), "doc")
    }

    func testUAFaultsAreErrorsAtTheirLocation() throws {
        let source = "# One\n\n### Three\n\n![](icon.png)\n\n![](icon.png){decorative=true}\n\n| | |\n|---|---|\n| 1 | 2 |\n"
        let (pdf, result) = try build("---\npdf-standard: [ua-1]\n---\n" + source)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("doc.rt:6:1: error: heading level 3 follows level 1"), result.stderr)
        XCTAssertTrue(result.stderr.contains("doc.rt:8:1: error: an image needs alt text"), result.stderr)
        XCTAssertFalse(result.stderr.contains("doc.rt:10:"), "a decorative image needs no alt: \(result.stderr)")
        XCTAssertTrue(result.stderr.contains("doc.rt:12:1: error: a table needs a header row"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: pdf))
        // Without ua-1 the same document builds, tagged.
        let (plain, ok) = try build(source, name: "plain")
        XCTAssertEqual(ok.status, 0, ok.stderr)
        XCTAssertEqual(try QPDFJSON(plain).structureTree().all("Figure").count, 1, "the decorative image is an artifact")
    }

    func testUnknownStandardIsAUsageError() throws {
        let (_, result) = try build("Text.\n", arguments: ["--pdf-standard", "a-9z"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("unknown --pdf-standard 'a-9z'"), result.stderr)
    }

    /// cairo writes a structure tree of its own (an element per marked-content sequence); the stage writes the
    /// one the catalog names and leaves cairo's out: it was a third of a tagged report's bytes.
    func testOnlyTheTreeTheCatalogNamesIsWritten() throws {
        let (pdf, result) = try build(structured, arguments: ["--pdf-standard", "a-2b,ua-1"])
        XCTAssertEqual(result.status, 0, result.stderr)
        PDF.assertValid(pdf)
        let json = try QPDFJSON(pdf)
        XCTAssertEqual(json.unreachable, [])
        let elements = json.objects.values.filter {
            (($0 as? [String: Any])?["value"] as? [String: Any])?["/Type"] as? String == "/StructElem"
        }
        let tree = try json.structureTree()
        func count(_ e: TaggedElement) -> Int { 1 + e.children.reduce(0) { $0 + count($1) } }
        XCTAssertEqual(elements.count, count(tree), "every element in the file is one of the tree's")
        XCTAssertEqual(tree.all("H1").count, 1)
        XCTAssertGreaterThan(tree.all("Link").count, 1, "the link and the contents' entries")
    }

    /// Past 32 keys the parent tree is a number tree (a root with /Kids, leaves with /Limits), and the elements
    /// are packed into compressed object streams: a long document's tree stays small and readable.
    func testALongDocumentsParentTreeIsANumberTreeAndItsElementsArePacked() throws {
        let body = (1...120).map { "Paragraph number \($0) with a [link](https://example.com/\($0))." }.joined(separator: "\n\n")
        let (pdf, result) = try build("---\npage: 200pt x 160pt\nmargin: 20pt\n---\n" + body + "\n")
        XCTAssertEqual(result.status, 0, result.stderr)
        PDF.assertValid(pdf)
        let pages = try PDF.pageCount(pdf)
        XCTAssertGreaterThan(pages, 20)
        let json = try QPDFJSON(pdf)
        let root = json.dictionary(json.catalog["/StructTreeRoot"])
        let parentTree = json.dictionary(root["/ParentTree"])
        let kids = try XCTUnwrap(parentTree["/Kids"] as? [Any], "a number tree")
        XCTAssertGreaterThan(kids.count, 1)
        XCTAssertNil(parentTree["/Nums"])
        let nums = json.numberTree(root["/ParentTree"])
        let keys = stride(from: 0, to: nums.count, by: 2).compactMap { nums[$0] as? Int }
        XCTAssertEqual(keys, Array(0 ..< pages + 120), "every page, then every link, in key order")
        XCTAssertEqual(root["/ParentTreeNextKey"] as? Int, pages + 120)
        XCTAssertEqual(json.unreachable, [])
        let xref = try PDF.tool("qpdf", ["--show-xref", pdf])
        let packed = xref.split(separator: "\n").filter { $0.contains("compressed; stream") }.count
        XCTAssertGreaterThan(packed, 3 * 120, "elements, annotations and pages are packed")
    }

    func testSameInputSameBytes() throws {
        let env = ["SOURCE_DATE_EPOCH": "1700000000"]
        let (a, r1) = try build(structured, arguments: ["--pdf-standard", "a-2b,ua-1"], environment: env, name: "a")
        let (b, r2) = try build(structured, arguments: ["--pdf-standard", "a-2b,ua-1"], environment: env, name: "b")
        XCTAssertEqual(r1.status, 0, r1.stderr)
        XCTAssertEqual(r2.status, 0, r2.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: a)), try Data(contentsOf: URL(fileURLWithPath: b)))
    }
}

/// The text of each XMP element by qualified name (the first of each).
func XMPFields(_ data: Data) -> [String: String] {
    final class Collector: NSObject, XMLParserDelegate {
        var fields: [String: String] = [:]
        var stack: [String] = []
        var text = ""
        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            stack.append(qualifiedName ?? name)
            text = ""
        }
        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }
        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            let key = stack.popLast() ?? name
            let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if fields[key] == nil, !value.isEmpty { fields[key] = value }
            text = ""
        }
    }
    let parser = XMLParser(data: data)
    let collector = Collector()
    parser.delegate = collector
    XCTAssertTrue(parser.parse(), "XMP is not well-formed XML")
    return collector.fields
}
