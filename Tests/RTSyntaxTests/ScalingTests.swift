// Inputs that used to take quadratic time: each is ~200 KB and must parse in under 2 s (usually well under 1 s) in a
// debug build on a loaded machine (a quadratic pass over 200 KB takes 10+ seconds).

import XCTest
@testable import RTSyntax

final class ScalingTests: XCTestCase {
    private static let bound = 2.0
    private static let size = ProcessInfo.processInfo.environment["RT_SCALING_SIZE"].flatMap { Int($0) } ?? 200_000

    private func repeated(_ piece: String, _ size: Int = ScalingTests.size) -> String {
        String(repeating: piece, count: max(1, size / piece.utf8.count))
    }

    /// Parses as `typeset` does (with the expansion pass, which is skipped when there is no `{{`).
    @discardableResult
    private func check(_ name: String, _ text: String, file: StaticString = #filePath, line: UInt = #line) -> ParseResult {
        let bytes = Array(text.utf8)
        if let only = ProcessInfo.processInfo.environment["RT_SCALING_ONLY"], !only.split(separator: ",").contains(Substring(name)) {
            return ParseResult(document: RTDocument(file: ""), diagnostics: [])
        }
        var result: ParseResult?
        var worst = 0.0
        for expansion in [true] {
            let options = ParseOptions(expansion: expansion ? ExpansionOptions(allowUndefined: true) : nil)
            let start = DispatchTime.now().uptimeNanoseconds
            result = RTParser.parse(bytes, file: "doc.rt", options: options)
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            worst = max(worst, seconds)
        }
        if ProcessInfo.processInfo.environment["RT_SCALING_VERBOSE"] != nil {
            print("scaling \(name): \(bytes.count) bytes in \(worst)s")
        }
        XCTAssertLessThan(worst, ScalingTests.bound, "\(name): \(bytes.count) bytes took \(worst)s", file: file, line: line)
        return result!
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
