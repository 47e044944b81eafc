import XCTest
@testable import RTSyntax

final class FileTests: XCTestCase {
    func testFrontMatterWithLocations() throws {
        let r = parse("---\ntitle: My Report\nmargin: [2cm, 3cm]\nstyles:\n  h1: {size: 18pt}\nempty:\n---\n# Hi")
        XCTAssertTrue(r.diagnostics.isEmpty, "\(r.diagnostics)")
        let fm = try XCTUnwrap(r.document.frontMatter)
        XCTAssertEqual(fm.entries.map(\.key), ["title", "margin", "styles", "empty"])
        XCTAssertEqual(fm["title"]?.scalar, "My Report")
        XCTAssertEqual(loc(fm.entries[0].keyLocation), "2:1")
        XCTAssertEqual(loc(fm["title"]?.location), "2:8")
        guard case .sequence(let margins) = fm["margin"]?.kind else { return XCTFail() }
        XCTAssertEqual(margins.compactMap(\.scalar), ["2cm", "3cm"])
        XCTAssertEqual(loc(margins[1].location), "3:15")
        guard case .mapping(let styles) = fm["styles"]?.kind, case .mapping(let h1) = styles[0].value.kind else { return XCTFail() }
        XCTAssertEqual(h1[0].key, "size")
        XCTAssertEqual(loc(h1[0].keyLocation), "5:8")
        guard case .null = fm["empty"]?.kind else { return XCTFail("empty value should be null") }
        XCTAssertEqual(show(r.document.blocks), "h1#hi[\"Hi\"]")
    }

    func testBadYAMLIsErrorAtMappedLine() {
        let r = parse("---\ntitle: ok\nlist: [a, b\nnext: 1\n---\ntext")
        XCTAssertEqual(errors(r).count, 1)
        let line = errors(r)[0].location?.line ?? 0
        XCTAssertTrue((3 ... 5).contains(line), "error at line \(line): \(errors(r))")
        XCTAssertEqual(show(r.document.blocks), "p[\"text\"]")
        let tab = parse("---\ntitle: a\n\tbad: b\n---\n")
        XCTAssertEqual(errors(tab).first?.location?.line, 3)
    }

    func testNonMappingAndUnclosedFrontMatter() {
        let list = parse("---\n- a: 1\n- b: 2\n---\n")
        XCTAssertEqual(errors(list).count, 1)
        XCTAssertEqual(loc(errors(list)[0].location), "2:1")
        // Without a colon no line can be YAML's 'key: value': CommonMark's rule, list, rule.
        let markdown = parse("---\n- a\n- b\n---\n")
        XCTAssertEqual(markdown.diagnostics.count, 0)
        XCTAssertEqual(show(markdown.document.blocks).prefix(8), "hr list(")
        let unclosed = parse("---\ntitle: x\n\nbody")
        XCTAssertEqual(errors(unclosed).count, 1)
        XCTAssertEqual(loc(errors(unclosed)[0].location), "1:1")
    }

    func testDashLineLaterIsARule() {
        let r = parse("text\n\n---\n")
        XCTAssertNil(r.document.frontMatter)
        XCTAssertEqual(show(r.document.blocks), "p[\"text\"] hr")
    }

    func testInvalidUTF8IsErrorAtByte() {
        var bytes = Array("ok\nab".utf8)
        bytes.append(0xFF)
        bytes += Array("cd\n".utf8)
        let r = RTParser.parse(bytes, file: "bad.rt")
        XCTAssertEqual(errors(r).count, 1)
        XCTAssertEqual(errors(r)[0].location?.description, "bad.rt:2:3")
        let truncated = RTParser.parse(Array("é".utf8).dropLast() + [], file: "t.rt")
        XCTAssertEqual(errors(truncated).count, 1)
        let overlong = RTParser.parse([0x61, 0xC0, 0xAF], file: "t.rt")
        XCTAssertEqual(loc(errors(overlong).first?.location), "1:2")
        let surrogate = RTParser.parse([0xED, 0xA0, 0x80], file: "t.rt")
        XCTAssertEqual(errors(surrogate).count, 1)
    }

    func testNulByteIsError() {
        let r = RTParser.parse([0x61, 0x0A, 0x62, 0x00, 0x63], file: "bin.rt")
        XCTAssertEqual(errors(r).count, 1)
        XCTAssertEqual(loc(errors(r)[0].location), "2:2")
        XCTAssertTrue(r.document.blocks.isEmpty)
    }

    func testBOMAndCRLF() {
        let r = RTParser.parse([0xEF, 0xBB, 0xBF] + Array("# Title\r\nline one\r\nline two\\\r\nend\r\n".utf8), file: "w.rt")
        XCTAssertTrue(r.diagnostics.isEmpty)
        XCTAssertEqual(show(r.document.blocks), "h1#title[\"Title\"] p[\"line one\" SB \"line two\" HB \"end\"]")
        XCTAssertEqual(loc(r.document.blocks[0].range.start), "1:1")
        XCTAssertEqual(loc(r.document.blocks[1].range.end), "4:4")
        let fm = RTParser.parse(Array("---\r\ntitle: x\r\n---\r\nbody".utf8), file: "w.rt")
        XCTAssertEqual(fm.document.frontMatter?["title"]?.scalar, "x")
    }

    func testEmptyAndBlankFiles() {
        XCTAssertTrue(RTParser.parse([], file: "e.rt").document.blocks.isEmpty)
        XCTAssertTrue(RTParser.parse([], file: "e.rt").diagnostics.isEmpty)
        XCTAssertTrue(parse("\n\n   \n\t\n").document.blocks.isEmpty)
        XCTAssertEqual(parse("---\n---\n").document.frontMatter?.entries.count, 0)
    }

    func testTabsInText() {
        XCTAssertEqual(show(blocks("Name\tPrice\n\tindented")), "p[\"Name\" TAB \"Price\" SB TAB \"indented\"]")
    }

    func testIncludes() {
        let files = [
            "book/ch/one.rt": "# One\n\n@include ../parts/two.rt\n",
            "book/parts/two.rt": "---\ntitle: ignored\n---\n# Two\n\n::: x\nbad\n",
        ]
        let r = parse("# Book\n@include ch/one.rt\nend", file: "book/main.rt", files: files)
        XCTAssertEqual(show(r.document.blocks), "h1#book[\"Book\"] h1#one[\"One\"] h1#two[\"Two\"] div{.x}[p[\"bad\"]] p[\"end\"]")
        XCTAssertEqual(r.includedFiles, ["book/ch/one.rt", "book/parts/two.rt"])
        XCTAssertEqual(r.document.blocks[2].range.start.file, "book/parts/two.rt")
        XCTAssertEqual(loc(r.document.blocks[2].range.start), "4:1")
        XCTAssertEqual(warnings(r).map { $0.location?.description ?? "" }, ["book/parts/two.rt:1:1"])
        XCTAssertEqual(errors(r).map { $0.location?.description ?? "" }, ["book/parts/two.rt:6:1"])
    }

    func testIncludeErrors() {
        let missing = parse("a\n\n@include nope.rt", files: [:])
        XCTAssertEqual(errors(missing).map { loc($0.location) }, ["3:1"])
        XCTAssertTrue(errors(missing)[0].message.contains("nope.rt"))
        let cycle = parse("@include a.rt", file: "main.rt", files: ["a.rt": "@include b.rt", "b.rt": "x\n\n@include a.rt"])
        XCTAssertEqual(errors(cycle).count, 1)
        XCTAssertEqual(errors(cycle)[0].location?.description, "b.rt:3:1")
        XCTAssertTrue(errors(cycle)[0].message.contains("cycle"))
        let selfInclude = parse("@include main.rt", file: "main.rt")
        XCTAssertEqual(errors(selfInclude).count, 1)
        var chain: [String: String] = [:]
        for k in 0 ..< 50 { chain["f\(k).rt"] = "p\(k)\n\n@include f\(k + 1).rt" }
        let deep = parse("@include f0.rt", files: chain)
        XCTAssertEqual(errors(deep).count, 1)
        XCTAssertTrue(errors(deep)[0].message.contains("nest"))
        let badBytes = RTParser.parse(Array("@include b.rt".utf8), file: "m.rt",
                                      options: ParseOptions(readFile: { _ in [0x41, 0x0A, 0xFE] }))
        XCTAssertEqual(errors(badBytes).map { $0.location?.description ?? "" }, ["b.rt:2:1"])
    }

    func testDiagnosticDescription() {
        let r = parse("::: open\n")
        XCTAssertEqual(r.diagnostics.first?.description,
                       "doc.rt:1:1: error: unclosed div: add a line ':::' to close the div opened here")
    }
}

final class DuplicateFrontMatterKeyTests: XCTestCase {
    func testDuplicateKeyWarnsAtTheSecondAndKeepsTheFirst() {
        let r = RTParser.parse(Array("---\ntitle: a\ntitle: b\n---\nText\n".utf8), file: "doc.rt")
        let warnings = r.diagnostics.filter { $0.severity == .warning }
        XCTAssertEqual(warnings.map { $0.location?.line }, [3])
        XCTAssertEqual(r.document.frontMatter?["title"]?.scalar, "a")
    }
}
