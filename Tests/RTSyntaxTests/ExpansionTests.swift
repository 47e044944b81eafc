// Variables, sections and templates expanded before parsing; locations map back to what was written.

import XCTest
@testable import RTSyntax

final class ExpansionTests: XCTestCase {
    private func expand(_ text: String, data: DataValue = .map([]), allowUndefined: Bool = false,
                        template: (String, String)? = nil, files: [String: String] = [:]) -> ParseResult {
        var expansion = ExpansionOptions(data: data, allowUndefined: allowUndefined)
        if let template {
            expansion.template = "t"
            expansion.loadTemplate = { _, _ in (template.0, Array(template.1.utf8)) }
        }
        let options = ParseOptions(readFile: { path in files[path].map { Array($0.utf8) } }, expansion: expansion)
        return RTParser.parse(Array(text.utf8), file: "doc.rt", options: options)
    }

    private func text(_ result: ParseResult) -> String {
        result.document.blocks.map { block -> String in
            switch block.kind {
            case .paragraph(let c), .heading(_, let c, _): return plainText(c)
            case .list(let l): return l.items.map { item in
                item.blocks.map { if case .paragraph(let c) = $0.kind { return plainText(c) } else { return "?" } }.joined()
            }.joined(separator: "|")
            case .table(let t): return "table \(t.rows.count) rows"
            default: return "?"
            }
        }.joined(separator: "\n")
    }

    private func map(_ pairs: [(String, DataValue)]) -> DataValue { .map(pairs.map { DataEntry(key: $0.0, value: $0.1) }) }

    /// Block attributes bind to the very next line: across a blank line they apply to nothing, with a warning,
    /// or silently when the line between came out empty from expansion (the letter's `{.dateline}`).
    func testBlockAttributesBindToTheNextLineOnly() {
        let written = expand("{.dateline}\n\nBody.\n")
        XCTAssertEqual(show(written.document.blocks), "p[\"Body.\"]")
        XCTAssertEqual(warnings(written).map { loc($0.location) }, ["1:1"])
        let expanded = expand("{.dateline}\n{{#date}}{{date}}{{/date}}\n\nBody.\n")
        XCTAssertEqual(show(expanded.document.blocks), "p[\"Body.\"]")
        XCTAssertEqual(expanded.diagnostics.count, 0, "\(expanded.diagnostics)")
        let set = expand("{.dateline}\n{{#date}}{{date}}{{/date}}\n\nBody.\n", data: map([("date", .text("May 1"))]))
        XCTAssertEqual(show(set.document.blocks), "p{.dateline}[\"May 1\"] p[\"Body.\"]")
        // The section on lines of its own, with no blank line after it: an empty one still separates the
        // attributes from the paragraph below (RT section 6), a full one gets them; inside a paragraph an
        // empty section's lines vanish and the paragraph stays one.
        let block = "{color=red}\n{{#date}}\nDated {{date}}\n{{/date}}\nBody.\n"
        let empty = expand(block)
        XCTAssertEqual(show(empty.document.blocks), "p[\"Body.\"]")
        XCTAssertEqual(empty.diagnostics.count, 0, "\(empty.diagnostics)")
        let full = expand(block, data: map([("date", .text("May 1"))]))
        XCTAssertEqual(show(full.document.blocks), "p{color=red}[\"Dated May 1\" SB \"Body.\"]")
        let inside = expand("One\n{{#date}}\nDated\n{{/date}}\nTwo\n")
        XCTAssertEqual(show(inside.document.blocks), "p[\"One\" SB \"Two\"]")
        // Attribute lines stacked directly above a block still all apply; a comment line between is no gap.
        let stacked = expand("{.a}\n{% note %}\n{.b}\nText\n")
        XCTAssertEqual(show(stacked.document.blocks), "p{.a .b}[\"Text\"]")
    }

    /// A hard break whose next line expanded to nothing is not printed (the invoice's `{{#date}}` line).
    func testHardBreakBeforeAnEmptySectionIsNotPrinted() {
        let result = expand("Billed to: Town\\\n{{#date}}Date: {{date}}{{/date}}\n\nNext\n")
        XCTAssertEqual(text(result), "Billed to: Town\nNext")
    }

    func testVariablePriorityFrontMatterBelowData() {
        let doc = "---\nvars:\n  a: front\n  b: front\n---\n{{a}} {{b}}\n"
        XCTAssertEqual(text(expand(doc, data: map([("b", .text("data"))]))), "front data")
    }

    func testSectionsRepeatListItemsAndStandaloneTagsVanish() {
        let data = map([("items", .list([map([("n", .text("one"))]), map([("n", .text("two"))])]))])
        let result = expand("{{#items}}\n- {{n}}\n{{/items}}\n", data: data)
        XCTAssertEqual(result.diagnostics, [])
        XCTAssertEqual(result.document.blocks.count, 1)
        XCTAssertEqual(text(result), "one|two")
    }

    func testTableRowsFromSection() {
        let data = map([("rows", .list([.text("a"), .text("b"), .text("c")]))])
        let result = expand("| x |\n|---|\n{{#rows}}\n| {{.}} |\n{{/rows}}\n", data: data)
        XCTAssertEqual(text(result), "table 3 rows")
    }

    func testInvertedSectionAndTruthiness() {
        let data = map([("none", .list([])), ("no", .text("false")), ("yes", .text("x"))])
        XCTAssertEqual(text(expand("{{^none}}empty{{/none}} {{^no}}off{{/no}} {{#yes}}on{{/yes}} {{^missing}}m{{/missing}}\n", data: data)),
                       "empty off on m")
    }

    func testValuesAreLiteralText() {
        let result = expand("Say {{v}}\n", data: map([("v", .text("**bold** [x](y) {{w}} `c` # h"))]))
        XCTAssertEqual(text(result), "Say **bold** [x](y) {{w}} `c` # h")
        let lineStart = expand("{{v}}\n", data: map([("v", .text("- not a list"))]))
        XCTAssertEqual(text(lineStart), "- not a list")
        // Entity references are markup too; a URL's query is left as it is.
        let entities = expand("A {{e}} B\n", data: map([("e", .text("&copy; &#169; &#xA9; &amp; &lt;b&gt; AT&T ?a=1&b=2"))]))
        XCTAssertEqual(text(entities), "A &copy; &#169; &#xA9; &amp; &lt;b&gt; AT&T ?a=1&b=2 B")
        let link = expand("<{{u}}>\n", data: map([("u", .text("https://x.org/?a=1&b=2"))]))
        XCTAssertEqual(text(link), "https://x.org/?a=1&b=2")
    }

    /// Looking back for an attribute line above an empty section reads each line once: empty sections under one
    /// long line cost work in proportion to the input (it was quadratic: 152 s for a 4 MB line).
    func testLookingBackStaysLinear() {
        func steps(_ text: String) -> Int {
            RTParser.parse(Array(text.utf8), file: "doc.rt",
                           options: ParseOptions(expansion: ExpansionOptions(data: map([("e", .text(""))])))).expansionSteps
        }
        let sections = { (n: Int) in String(repeating: "x", count: 40 * n) + "\n" + String(repeating: "{{#e}}\n{{/e}}\n", count: n) + "end\n" }
        let small = steps(sections(2_000)), large = steps(sections(8_000))
        XCTAssertLessThanOrEqual(Double(large), 5 * Double(small), "\(small) steps, then \(large)")
    }

    func testUndefinedVariableLocationAfterMultiLineSection() {
        let data = map([("xs", .list([.text("1"), .text("2")]))])
        let result = expand("intro\n{{#xs}}\nitem {{.}}\n\n{{/xs}}\nthen {{nope}}\n", data: data)
        XCTAssertEqual(result.diagnostics.map(\.description).first?.hasPrefix("doc.rt:6:6: error: undefined variable 'nope'"), true,
                       "\(result.diagnostics)")
        XCTAssertEqual(expand("{{nope}}\n", allowUndefined: true).diagnostics, [])
    }

    func testLaterDiagnosticsKeepTheirLines() {
        // The section shrinks two lines into one paragraph; the unclosed div below must still be at line 5.
        let data = map([("xs", .list([.text("a")]))])
        let result = expand("{{#xs}}\n{{.}}\n{{/xs}}\n\n::: note\nnever closed\n", data: data)
        XCTAssertTrue(result.diagnostics.contains { $0.location?.line == 5 && $0.severity == .error }, "\(result.diagnostics)")
    }

    func testUnclosedAndMismatchedSections() {
        let unclosed = expand("a\n  {{#open}} b\n")
        XCTAssertEqual(unclosed.diagnostics.first?.location, SourceLocation(file: "doc.rt", line: 2, column: 3))
        XCTAssertTrue(expand("{{#a}}x{{/b}}\n", data: map([("a", .text("1"))])).diagnostics.contains { $0.severity == .error })
        XCTAssertTrue(expand("{{/a}}\n").diagnostics.contains { $0.severity == .error })
    }

    func testIncludedFilesAreExpandedAndNamed() {
        let result = expand("---\nvars:\n  who: me\n---\n@include inc.rt\n", files: ["inc.rt": "Hi {{who}}\n\n{{gone}}\n"])
        // The undefined tag stays as written until the parser has seen it is not code; the build fails at it.
        XCTAssertTrue(text(result).hasPrefix("Hi me"), text(result))
        XCTAssertEqual(result.diagnostics.first?.location, SourceLocation(file: "inc.rt", line: 3, column: 1))
        XCTAssertEqual(result.diagnostics.first?.severity, .error)
    }

    func testTemplateWrapsBodyAndDocumentFrontMatterWins() {
        let template = "---\npage: A5\ntitle: Default\nvars:\n  x: tx\n  y: ty\n---\nBefore {{title}} {{x}} {{y}}\n\n{{content}}\n\nAfter {{bad}}\n"
        let result = expand("---\ntitle: Mine\nvars:\n  y: dy\n---\nBody\n", allowUndefined: false, template: ("t.rt", template))
        XCTAssertEqual(result.document.frontMatter?["page"]?.scalar, "A5")
        XCTAssertEqual(result.document.frontMatter?["title"]?.scalar, "Mine")
        XCTAssertEqual(text(result).split(separator: "\n").first, "Before Mine tx dy")
        XCTAssertTrue(text(result).contains("Body"))
        XCTAssertEqual(result.diagnostics.first?.location, SourceLocation(file: "t.rt", line: 12, column: 7))
    }

    func testCommentsAndEscapesAreNotExpanded() {
        XCTAssertEqual(expand("a {% {{old}} %} b \\{{x}}\n").diagnostics.filter { $0.severity == .error }, [])
    }

    func testDataFileParsesJSONAndYAML() throws {
        let json = try DataValue.parse(Array(#"{"a": [1, 2], "b": {"c": "d"}, "n": null}"#.utf8), file: "d.json").get()
        XCTAssertEqual(json["a"], .list([.text("1"), .text("2")]))
        XCTAssertEqual(json["b"]?["c"], .text("d"))
        XCTAssertEqual(json["n"], .null)
        guard case .failure(let problem) = DataValue.parse(Array("a: [\n".utf8), file: "d.yaml") else { return XCTFail() }
        XCTAssertEqual(problem.location?.file, "d.yaml")
    }

    func testExpansionBlowUpIsStopped() {
        let big = DataValue.list(Array(repeating: .text(String(repeating: "x", count: 1000)), count: 100))
        let data = map([("a", big), ("b", big)])
        let result = expand("{{#a}}{{#b}}{{.}}{{/b}}{{/a}}\n", data: data)
        XCTAssertTrue(result.diagnostics.contains { $0.message.contains("larger than") })
    }
}

/// Tag names are trimmed of spaces and tabs by hand (VariableExpander), not by Foundation's CharacterSet path.
final class TagTrimTests: XCTestCase {
    func testTrimsSpacesAndTabsOnly() {
        XCTAssertEqual(" \t page \t".trimmingSpacesAndTabs(), "page")
        XCTAssertEqual("a b".trimmingSpacesAndTabs(), "a b")
        XCTAssertEqual(" \t ".trimmingSpacesAndTabs(), "")
        XCTAssertEqual("".trimmingSpacesAndTabs(), "")
        XCTAssertEqual("\u{00A0}é\n".trimmingSpacesAndTabs(), "\u{00A0}é\n", "only ASCII space and tab are trimmed")
    }
}
