// Inputs that once took quadratic time, cmark's pathological set among them. Each is parsed at two sizes and
// the parser's work counter (`ParseResult.parseSteps`: bytes, pieces and delimiters looked at) must grow in
// proportion: four times the input may cost at most `ratio` times the work, and no input may cost more than
// `perByte` steps a byte. No clock is read, so a loaded machine cannot make these fail.

import XCTest
@testable import RTSyntax

final class ScalingTests: XCTestCase {
    /// Bytes of the smaller input; the larger one is four times this.
    static let size = 5_000
    static let ratio = 5.0
    static let perByte = 40

    private func repeated(_ piece: String, _ size: Int) -> String {
        String(repeating: piece, count: max(1, size / piece.utf8.count))
    }

    private func steps(_ text: String) -> (Int, ParseResult) {
        let options = ParseOptions(expansion: ExpansionOptions(allowUndefined: true))
        let result = RTParser.parse(Array(text.utf8), file: "doc.rt", options: options)
        return (result.parseSteps, result)
    }

    /// Checks `make(size)` at two sizes; returns the larger parse.
    @discardableResult
    private func check(_ name: String, file: StaticString = #filePath, line: UInt = #line,
                       _ make: (Int) -> String) -> ParseResult {
        let small = make(Self.size)
        let large = make(4 * Self.size)
        let (a, _) = steps(small)
        let (b, result) = steps(large)
        let bytes = large.utf8.count
        XCTAssertLessThanOrEqual(Double(b), Self.ratio * Double(max(a, 1)) + 1000,
                                 "\(name): work grows faster than the input (\(a) steps for \(small.utf8.count) bytes, \(b) for \(bytes))",
                                 file: file, line: line)
        XCTAssertLessThanOrEqual(b, Self.perByte * bytes + 1000, "\(name): \(b) steps for \(bytes) bytes", file: file, line: line)
        return result
    }

    private func check(_ piece: String, file: StaticString = #filePath, line: UInt = #line) {
        check(piece, file: file, line: line) { repeated(piece, $0) }
        check(piece + " lines", file: file, line: line) { repeated(piece + "\n", $0) }
    }

    /// References above their definitions (as Markdown writes them) cost one inline parse, not two: the
    /// definitions are collected by a pass over the blocks alone first. The links still resolve.
    func testReferencesAboveTheirDefinitionsParseInlinesOnce() {
        let links = String(repeating: "[a] ", count: 5_000)
        let (below, result) = steps(links + "\n\n[a]: /x\n")
        let (above, _) = steps("[a]: /x\n\n" + links + "\n")
        XCTAssertLessThanOrEqual(Double(below), 1.2 * Double(above), "\(below) steps against \(above)")
        guard case .paragraph(let inlines)? = result.document.blocks.first?.kind else { return XCTFail("no paragraph") }
        let destinations = inlines.compactMap { inline -> String? in
            if case .link(let destination, _) = inline.kind { return destination } else { return nil }
        }
        XCTAssertEqual(destinations.count, 5_000)
        XCTAssertEqual(Set(destinations), ["/x"])
    }

    /// cmark's own pathological inputs (its test/pathological_tests.py), at the issue's sizes divided by ~16.
    func testCmarkPathologicalInputs() {
        for piece in ["[ a_", "a]", "[a", "{{", "*a **a ", "_a _", "a_ ", "*", "_", "* ", "<", "<a", "[a](", "![[[", "![",
                      "**_", "*_", "_*", "a*", "a**b", "a***b ", "[]{", "`", "``a", "[a]{", "[a]{\"", "[a](b \"", "](",
                      "[[a]](b)", "[a](<", "&#", "&a", "&amp;", "\\", "==", "~~", "^", "===a", "~a~~", "~~~a ", "~a ~~b~ ", "~~a ~b~~ ", "a~ *b ~~", "[a][", "[a][b]",
                      "[a][]", "[a] [b]: c\n", "[a]: <", "[a]: b \""] {
            check(piece)
        }
        check("nested [ then a") { String(repeating: "[", count: $0 - 1) + "a" }
        check("nested [ then ]") { String(repeating: "[", count: $0 / 2) + String(repeating: "]", count: $0 / 2) }
        check("nested links") { String(repeating: "[", count: $0 / 6) + "a" + String(repeating: "](b)", count: $0 / 6) }
        check("nested emphasis") { String(repeating: "*a ", count: $0 / 6) + String(repeating: "a* ", count: $0 / 6) }
        check("tilde closers past stars") { "~a " + repeated("*b ", $0 - 8) + "c~~" }
        check("nested strong") { String(repeating: "**a ", count: $0 / 8) + String(repeating: "a** ", count: $0 / 8) }
        check("backtick runs of every length") { size in
            var s = ""
            var k = 1
            while s.utf8.count < size {
                s += String(repeating: "`", count: k) + "a "
                k += 1
            }
            return s
        }
        check("nested quotes") { String(repeating: "> ", count: $0 / 2) + "a\n" }
        check("nested lists") { size in
            (0 ..< Int(Double(size).squareRoot())).map { String(repeating: "  ", count: $0) + "- a\n" }.joined()
        }
        check("reference links") { repeated("[a] ", $0 - 12) + "\n\n[a]: /x\n" }
        check("references above their definitions") { repeated("[a] [b][a] ", $0 - 12) + "\n\n[a]: /x\n" }
        check("long labels") { repeated("[" + String(repeating: "a", count: 990) + "] ", $0) }
        check("nested divs") { String(repeating: "::: a\n", count: $0 / 12) + String(repeating: ":::\n", count: $0 / 12) }
        check("table with short rows") { size in
            "|" + String(repeating: "a|", count: size / 8) + "\n|" + String(repeating: "-|", count: size / 8) + "\n"
                + String(repeating: "|\n", count: size / 4)
        }
    }

    func testBlockAttributeLines() {
        let r = check("{a=1} lines") { repeated("{a=1}\n", $0) + "para\n" }
        XCTAssertEqual(r.document.blocks.count, 1)
        XCTAssertEqual(r.document.blocks.first?.attributes.pairs.count, 4 * Self.size / 6)
        check("{.s} lines") { repeated("{.s #i}\n", $0) + "para\n" }
        check("{a=1} lines, nothing after") { repeated("{a=1}\n", $0) }
    }

    func testUnclosedCodeSpans() {
        for piece in ["`a ", "`a", "``a", "`a `a\n", "`a ``b ```c "] { check(piece) }
    }

    func testUnclosedBracketsAndInlineMarks() {
        for piece in ["[", "[a ", "![", "![a ", "{{", "{{a ", "{% ", "<", "<a ", "<a:b ", "==", "==a ", "~~", "~~a ",
                      "^", "^a ", "*", "*a ", "_a ", "**a ", "a* ", "[a]{", "[a]{b=", "[a]{\"", "{", "{a ",
                      "}", "]", "](", "[a](", "[a](b ", "\\", "&", "{{#a}} ", "{{/a}} ", "{{!", "}}", "%}"] {
            check(piece)
        }
    }

    func testManyBlocks() {
        for piece in ["::: a\n", ":::\n", "::: a\nx\n:::\n", "- a\n", "1. a\n", "- a\n  - b\n", "- a\n\n", "> a\n",
                      "# a {#x}\n", "# a {\n", "```\n", "~~~\n", "    a\n", "a\n===\n", "a\n---\n", "[a]: b\n",
                      "{% a %}\n", "{%\n", "@pagebreak\n", "a\n", "\n", "{{#a}}\n"] {
            check(piece)
        }
        check("table") { "| a | b |\n|---|---|\n" + repeated("| x | y |\n", $0) }
        check("unclosed fence") { "```\n" + repeated("a\n", $0) }
    }
}

/// Issue 8, links: a link whose content is plain text takes that text as it stands. Before, each link made a
/// piece for its text and collected it again (three pieces a link with the space after it); now two.
final class LinkPieceTests: XCTestCase {
    private func pieces(_ text: String, definitions: [String: LinkDefinition] = [:]) -> (pieces: Int, links: Int) {
        let src = Source(file: "doc.rt", bytes: Array(text.utf8))
        var parser = InlineParser(InlineInput(src: src, segments: [(0, text.utf8.count)]))
        parser.definitions = definitions
        let inlines = parser.run()
        let links = inlines.filter { if case .link = $0.kind { return true } else { return false } }.count
        // `run` frees its pieces before it returns: the count is the one it kept from before.
        return (parser.spentRecords.pieces, links)
    }

    func testPlainLinksMakeTwoPiecesEach() {
        let n = 2_000
        for (name, text, definitions) in [
            ("reference", String(repeating: "[a] ", count: n), ["a": LinkDefinition(destination: "/x")]),
            ("inline", String(repeating: "[a](/x) ", count: n), [:]),
        ] {
            let (made, links) = pieces(text, definitions: definitions)
            XCTAssertEqual(links, n, name)
            XCTAssertGreaterThanOrEqual(made, n, "\(name): \(made) pieces for \(n) links")
            XCTAssertLessThanOrEqual(made, 2 * n + 2, "\(name): \(made) pieces for \(n) links")
        }
    }

    /// The shortcut path gives the same tree as the general one (emphasis inside takes the general path).
    func testPlainLinkContentAndRange() {
        let src = Source(file: "doc.rt", bytes: Array("x [a\\*b](/y) z".utf8))
        var parser = InlineParser(InlineInput(src: src, segments: [(0, src.bytes.count)]))
        let inlines = parser.run()
        guard inlines.count == 3, case .link(let destination, let content) = inlines[1].kind,
              content.count == 1, case .text(let text) = content[0].kind else { return XCTFail("\(inlines)") }
        XCTAssertEqual(destination, "/y")
        XCTAssertEqual(text, "a*b")
        XCTAssertEqual(content[0].range.start.column, 4)
        XCTAssertEqual(content[0].range.end.column, 8)
        XCTAssertEqual(inlines[1].range.start.column, 3)
    }
}

/// A range whose end is on its start's line is counted from the start (issue 8): it must locate both ends as
/// `location` does, across multi-byte characters, line starts and a first line that starts at a column.
final class SourceRangeTests: XCTestCase {
    func testRangesLocateBothEndsAsLocationDoes() {
        let text = "ab Größe [x](/y)\nzweite Zeile 日本語 [a]\n\n  drei\n"
        for src in [Source(file: "doc.rt", bytes: Array(text.utf8)),
                    Source(file: "cell.rt", bytes: Array(text.utf8), lineBase: 4, columnBase: 7)] {
            let n = src.bytes.count
            for start in 0 ... n {
                for end in start ... min(n, start + 70) {
                    XCTAssertEqual(src.range(start, end), SourceRange(start: src.location(start), end: src.location(end)),
                                   "\(start)..<\(end)")
                }
            }
        }
    }
}
