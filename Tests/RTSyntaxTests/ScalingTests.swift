// Inputs that used to take quadratic time, each checked to grow linearly: the same input at 25 KB and 100 KB,
// timed in one test (Growth.assertLinear), so no wall-clock budget can fail on a loaded machine.

import XCTest
@testable import RTSyntax

final class ScalingTests: XCTestCase {
    private static let size = ProcessInfo.processInfo.environment["RT_SCALING_SIZE"].flatMap { Int($0) } ?? 100_000
    /// The size `repeated` makes now: a quarter of `size`, then `size`.
    private var current = ScalingTests.size

    private func repeated(_ piece: String) -> String {
        String(repeating: piece, count: max(1, current / piece.utf8.count))
    }

    /// Parses as `typeset` does (with the expansion pass, which is skipped when there is no `{{`), at a
    /// quarter of the size and at the full size; returns the full-size result.
    @discardableResult
    private func check(_ name: String, _ text: @autoclosure () -> String, file: StaticString = #filePath,
                       line: UInt = #line) -> ParseResult {
        if let only = ProcessInfo.processInfo.environment["RT_SCALING_ONLY"], !only.split(separator: ",").contains(Substring(name)) {
            return ParseResult(document: RTDocument(file: ""), diagnostics: [])
        }
        let options = ParseOptions(expansion: ExpansionOptions(allowUndefined: true))
        var inputs: [Int: [UInt8]] = [:]
        for size in [ScalingTests.size / 4, ScalingTests.size] {
            current = size
            inputs[size] = Array(text().utf8)
        }
        var result = ParseResult(document: RTDocument(file: ""), diagnostics: [])
        Growth.assertLinear(name, size: ScalingTests.size / 4, file: file, line: line) { size in
            let parsed = RTParser.parse(inputs[size] ?? [], file: "doc.rt", options: options)
            if size == ScalingTests.size { result = parsed }
        }
        return result
    }

    func testBlockAttributeLines() {
        let r = check("{a=1} lines", repeated("{a=1}\n") + "para\n")
        if ProcessInfo.processInfo.environment["RT_SCALING_ONLY"] == nil {
            XCTAssertEqual(r.document.blocks.count, 1)
            XCTAssertEqual(r.document.blocks.first?.attributes.pairs.count, ScalingTests.size / 6)
        }
        check("{.s} lines", repeated("{.s #i}\n") + "para\n")
        check("{a=1} lines, nothing after", repeated("{a=1}\n"))
    }

    func testUnclosedCodeSpans() {
        check("`a", repeated("`a "))
        check("`a no space", repeated("`a"))
        check("``a", repeated("``a"))
        check("`a lines", repeated("`a `a\n"))
        check("mixed runs", repeated("`a ``b ```c "))
    }

    func testUnclosedBracketsAndInlineMarks() {
        for piece in ["[", "[a ", "![", "![a ", "{{", "{{a ", "{% ", "<", "<a ", "<a:b ", "==", "==a ", "~~", "~~a ",
                      "^", "^a ", "*", "*a ", "_a ", "**a ", "a* ", "[a]{", "[a]{b=", "[a]{\"", "{", "{a ",
                      "}", "]", "](", "[a](", "[a](b ", "\\", "&", "{{#a}} ", "{{/a}} ", "{{!", "}}", "%}"] {
            check(piece, repeated(piece))
            check(piece + " lines", repeated(piece + "\n"))
        }
    }

    func testManyBlocks() {
        check("::: openers", repeated("::: a\n"))
        check("::: closers", repeated(":::\n"))
        check("::: pairs", repeated("::: a\nx\n:::\n"))
        check("list items", repeated("- a\n"))
        check("ordered items", repeated("1. a\n"))
        check("nested item lines", repeated("- a\n  - b\n"))
        check("loose list", repeated("- a\n\n"))
        check("table", "| a | b |\n|---|---|\n" + repeated("| x | y |\n"))
        check("quotes", repeated("> a\n"))
        check("headings", repeated("# a {#x}\n"))
        check("heading braces", repeated("# a {\n"))
        check("fences", repeated("```\n"))
        check("unclosed fence", "```\n" + repeated("a\n"))
        check("comments", repeated("{% a %}\n"))
        check("unclosed comment lines", repeated("{%\n"))
        check("directives", repeated("@pagebreak\n"))
        check("paragraph lines", repeated("a\n"))
        check("blank lines", repeated("\n"))
        check("sections", repeated("{{#a}}\n"))
    }
}
