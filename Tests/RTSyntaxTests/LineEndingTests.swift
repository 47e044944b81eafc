// Contract section 1: lines end in LF, CRLF or a lone CR, and every construct means the same with each;
// control characters are dropped with a located warning; invalid UTF-8 is a located error; a BOM is ignored.

import XCTest
@testable import RTSyntax

final class LineEndingTests: XCTestCase {
    /// Parses `text` (written with LF) as LF, CRLF and CR files, with expansion, includes and a template
    /// whose line ends are converted the same way.
    private func variants(_ text: String, files: [String: String] = [:], data: DataValue = .map([]),
                          template: String? = nil) -> [(ending: String, result: ParseResult)] {
        ["\n", "\r\n", "\r"].map { ending in
            @Sendable func convert(_ s: String) -> [UInt8] { Array(s.replacingOccurrences(of: "\n", with: ending).utf8) }
            var expansion = ExpansionOptions(data: data)
            if let template {
                expansion.template = "t"
                expansion.loadTemplate = { _, _ in ("t.rt", convert(template)) }
            }
            let options = ParseOptions(readFile: { path in files[path].map(convert) }, expansion: expansion)
            return (ending == "\n" ? "LF" : ending == "\r" ? "CR" : "CRLF", RTParser.parse(convert(text), file: "doc.rt", options: options))
        }
    }

    /// The whole tree (kinds, text, attributes and every source range) and all diagnostics, as text.
    private func dump(_ r: ParseResult) -> String {
        "\(r.document.blocks)\n\(String(describing: r.document.frontMatter))\n\(r.diagnostics.map(\.description))"
    }

    private func assertSame(_ text: String, files: [String: String] = [:], data: DataValue = .map([]), template: String? = nil,
                            expect: String? = nil, file: StaticString = #filePath, line: UInt = #line) {
        let all = variants(text, files: files, data: data, template: template)
        let reference = dump(all[0].result)
        XCTAssertFalse(reference.contains("\\r"), "a CR reached the tree", file: file, line: line)
        for (ending, result) in all.dropFirst() {
            XCTAssertEqual(dump(result), reference, "\(ending) differs from LF", file: file, line: line)
        }
        if let expect { XCTAssertEqual(show(all[0].result.document.blocks), expect, file: file, line: line) }
    }

    func testParagraphsAndBlankLines() {
        assertSame("first line\nsecond line\n\nthird\n", expect: "p[\"first line\" SB \"second line\"] p[\"third\"]")
        // No final line end, and blank lines holding spaces.
        assertSame("a\n  \n\nb", expect: "p[\"a\"] p[\"b\"]")
    }

    func testHardBreaks() {
        assertSame("one\\\ntwo  \nthree\n", expect: "p[\"one\" HB \"two\" HB \"three\"]")
    }

    func testCodeBlocksKeepTheirLines() {
        assertSame("```swift\nlet a = 1\n\n  let b = 2\n```\n\n````\n\nx  \n```\n````\n",
                   expect: "code(swift)[let a = 1\n\n  let b = 2] code(-)[\nx  \n```]")
    }

    func testFrontMatter() {
        let text = "---\ntitle: Report\nvars:\n  who: World\n---\n# Hi {{who}}\n"
        assertSame(text, expect: "h1#hi-world[\"Hi World\"]")
        XCTAssertEqual(variants(text).last?.result.document.frontMatter?["title"]?.scalar, "Report")
    }

    func testTablesListsQuotesAndBlockAttributes() {
        assertSame("| a | b |\n|:--|--:|\n| 1 | 2 |\n\n- one\n- two\n  more\n\n1. x\n\n   y\n\n> quoted\n> text\n\n{align=right}\npara\n",
                   expect: "table(2x1) list(bullet(\"-\"),1,.,tight)[item[p[\"one\"]] item[p[\"two\" SB \"more\"]]] "
                       + "list(decimal,1,.,loose)[item[p[\"x\"] p[\"y\"]]] quote[p[\"quoted\" SB \"text\"]] p{align=right}[\"para\"]")
    }

    func testDivsDirectivesCommentsAndSetextHeadings() {
        assertSame("::: note\ninside\n:::\n\n@pagebreak\n\ntext {% a\ncomment %} after\n\nTitle\n=====\n",
                   expect: "div{.note}[p[\"inside\"]] @pageBreak p[\"text\" SB \"after\"] h1#title[\"Title\"]")
    }

    func testIncludesAndVariables() {
        assertSame("before {{name}}\n\n@include part.rt\n\n{{#items}}\n- {{.}}\n{{/items}}\n",
                   files: ["part.rt": "included\nlines\n\n```\ncode\n```\n"],
                   data: .map([DataEntry(key: "name", value: .text("Ann")),
                               DataEntry(key: "items", value: .list([.text("x"), .text("y")]))]),
                   expect: "p[\"before Ann\"] p[\"included\" SB \"lines\"] code(-)[code] "
                       + "list(bullet(\"-\"),1,.,tight)[item[p[\"x\"]] item[p[\"y\"]]]")
    }

    func testTemplate() {
        assertSame("body\ntext\n", template: "---\ntitle: T\n---\nheader\n\n{{content}}\n\nfooter\n",
                   expect: "p[\"header\"] p[\"body\" SB \"text\"] p[\"footer\"]")
    }

    func testDiagnosticLocationsAreTheSame() {
        // Warnings and errors on later lines: the line and column must not depend on the line ends.
        let text = "para\n\n{bogus-key=1 align=sideways}\ntext\n\n[x]{size=huge}\n\n{{missing}}\n"
        assertSame(text)
        let r = variants(text).last!.result
        XCTAssertFalse(r.diagnostics.isEmpty)
        XCTAssertEqual(errors(r).map { loc($0.location) }, ["8:1"])
    }

    func testInvalidUTF8LocationWithCRLines() {
        for ending in ["\n", "\r\n", "\r"] {
            let bytes = Array("ok\(ending)ab".utf8) + [0xFF] + Array("\(ending)".utf8)
            let r = RTParser.parse(bytes, file: "bad.rt")
            XCTAssertEqual(errors(r).map(\.description), ["bad.rt:2:3: error: invalid UTF-8 byte 0xFF: save the file as UTF-8"],
                           "line end \(ending.debugDescription)")
        }
        // In an included file: the error names that file, line and column.
        let inc = RTParser.parse(Array("@include bad.rt\n".utf8), file: "doc.rt",
                                 options: ParseOptions(readFile: { _ in Array("x\r\ny\u{E9}".utf8).dropLast() + [0xC3] }))
        XCTAssertEqual(errors(inc).map { "\($0.location?.file ?? ""):\(loc($0.location))" }, ["bad.rt:2:2"])
    }

    func testBOMIsIgnoredAndNotCounted() {
        let r = RTParser.parse([0xEF, 0xBB, 0xBF] + Array("# T\r\n\r\n{bogus=1}\r\ntext {% open\r\n".utf8), file: "b.rt")
        XCTAssertEqual(show(r.document.blocks), "h1#t[\"T\"] p{bogus=1}[\"text {% open\"]")
        XCTAssertEqual(r.document.blocks.first.map { loc($0.range.start) }, "1:1")
        XCTAssertEqual(warnings(r).map { loc($0.location) }, ["4:6"])
        XCTAssertFalse(dump(r).contains("\u{FEFF}"))
    }

    // MARK: - Control characters

    func testControlCharactersAreDroppedWithAWarningAtTheirColumn() {
        let r = parse("abc\u{1}def\n\nx\u{7F}y\u{85}z\u{0C}\n")
        XCTAssertEqual(show(r.document.blocks), "p[\"abcdef\"] p[\"xyz\"]")
        XCTAssertEqual(warnings(r).map { loc($0.location) }, ["1:4", "3:2", "3:4", "3:6"])
        XCTAssertEqual(warnings(r).map { $0.message.split(separator: " ")[2] }, ["U+0001", "U+007F", "U+0085", "U+000C"])
    }

    func testColumnsAfterADroppedCharacterStillCountIt() {
        // An unclosed comment after two dropped characters on the same line (one of them C1, two bytes).
        let r = parse("\u{1}\u{9F}ab {% x\n")
        XCTAssertEqual(plainText(inlines(r)), "ab {% x")
        let bad = warnings(r).first { $0.message.contains("comment") }
        XCTAssertEqual(loc(bad?.location), "1:6")
        // The same through variable expansion (the source map goes through the dropped characters).
        let expanded = RTParser.parse(Array("\u{2}{{x}} {% y\n".utf8), file: "doc.rt",
                                      options: ParseOptions(expansion: ExpansionOptions(data: .map([DataEntry(key: "x", value: .text("v"))]))))
        XCTAssertEqual(plainText(inlines(expanded)), "v {% y")
        XCTAssertEqual(loc(warnings(expanded).first { $0.message.contains("comment") }?.location), "1:8")
    }

    func testControlCharacterWarningsAreCapped() {
        let text = String(repeating: "a\u{1}b\n", count: 100)
        let r = parse(text)
        XCTAssertEqual(warnings(r).count, InputCheck.maxControlWarnings + 1)
        let summary = warnings(r).last
        XCTAssertEqual(loc(summary?.location), "\(InputCheck.maxControlWarnings + 1):2")
        XCTAssertTrue(summary?.message.hasPrefix("80 more control characters on 80 more lines") ?? false, summary?.message ?? "")
        XCTAssertFalse(dump(r).contains("\u{1}"))
    }

    func testControlCharactersInIncludedFilesAreLocatedThere() {
        let r = parse("@include part.rt\n", files: ["part.rt": "line\r\nbad\u{1B}here\r\n"])
        XCTAssertEqual(warnings(r).map { $0.location?.description ?? "" }, ["part.rt:2:4"])
        XCTAssertEqual(show(r.document.blocks), "p[\"line\" SB \"badhere\"]")
    }

    private func inlines(_ r: ParseResult) -> [Inline] {
        if case .paragraph(let c)? = r.document.blocks.first?.kind { return c }
        return []
    }
}
