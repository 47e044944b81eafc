import XCTest
@testable import RTSyntax

final class RobustnessTests: XCTestCase {
    /// Work per byte of input the parser may do (its step counter, not the clock: see ScalingTests).
    private static let stepsPerByte = 40

    func testOneMegabyteParagraph() {
        var text = ""
        let piece = "Some *emphasis* and `code` with snake_case, [a link](https://x.org) and 2*3 stuff. "
        while text.utf8.count < 1_000_000 { text += piece }
        let result: ParseResult? = parse(text)
        XCTAssertLessThan(result?.parseSteps ?? 0, Self.stepsPerByte * text.utf8.count)
        guard case .paragraph(let c)? = result?.document.blocks.first?.kind else { return XCTFail() }
        XCTAssertEqual(result?.document.blocks.count, 1)
        XCTAssertGreaterThan(c.count, 30_000)
    }

    func testPathologicalInlinesStayFast() {
        let cases = [
            String(repeating: "[", count: 200_000) + String(repeating: "]", count: 200_000),
            String(repeating: "[a](", count: 100_000),
            String(repeating: "[a]{\"", count: 80_000),
            String(repeating: "*a _b ", count: 80_000),
            String(repeating: "`` ` ", count: 80_000),
            String(repeating: "<a:", count: 100_000),
            String(repeating: "{{", count: 100_000),
            String(repeating: "{% ", count: 100_000),
            String(repeating: "**", count: 100_000) + "x" + String(repeating: "**", count: 100_000),
            String(repeating: "![", count: 100_000) + String(repeating: "](x)", count: 100_000),
        ]
        for text in cases {
            let r: ParseResult? = parse(text)
            XCTAssertLessThan(r?.parseSteps ?? 0, Self.stepsPerByte * text.utf8.count, "\(text.prefix(12))...")
            XCTAssertEqual(r?.document.blocks.count, 1, "\(text.prefix(12))")
        }
    }

    func testDeepEmphasisIsCappedWithWarning() {
        let text = String(repeating: "**", count: 5_000) + "x" + String(repeating: "**", count: 5_000)
        let r = parse(text)
        XCTAssertEqual(warnings(r).count, 1)
        XCTAssertTrue(errors(r).isEmpty)
        func depth(_ inlines: [Inline]) -> Int {
            inlines.map { inline -> Int in
                switch inline.kind {
                case .strong(let c), .emphasis(let c), .span(let c, _), .link(_, let c): return 1 + depth(c)
                default: return 1
                }
            }.max() ?? 0
        }
        guard case .paragraph(let c) = r.document.blocks[0].kind else { return XCTFail() }
        XCTAssertLessThanOrEqual(depth(c), InlineParser.maxDepth + 1)
        XCTAssertEqual(plainText(c).filter { $0 == "x" }.count, 1)
    }

    func testDeepSpansAreCapped() {
        let text = String(repeating: "[", count: 3_000) + "x" + String(repeating: "]{a=1}", count: 3_000)
        let r = parse(text)
        XCTAssertEqual(warnings(r).filter { $0.message.contains("nested") }.count, 1)
    }

    private func listDepth(_ blocks: [Block]) -> Int {
        var depth = 0
        var current = blocks
        while let first = current.first, case .list(let l) = first.kind {
            depth += 1
            current = l.items.first?.blocks.last.map { [$0] } ?? []
        }
        return depth
    }

    func testTenThousandNestedListsOnOneLine() {
        let r = parse(String(repeating: "- ", count: 10_000) + "x")
        XCTAssertEqual(r.document.blocks.count, 1)
        XCTAssertEqual(warnings(r).filter { $0.message.contains("nested more than") }.count, 1)
        XCTAssertEqual(listDepth(r.document.blocks), BlockParser.maxDepth)
    }

    func testDeeplyIndentedLists() {
        var text = ""
        for k in 0 ..< 1_000 { text += String(repeating: " ", count: 2 * k) + "- item \(k)\n" }
        let r: ParseResult? = parse(text)
        // Containers are parsed by stripping and reparsing, so work is at most maxDepth times the size.
        XCTAssertLessThan(r?.parseSteps ?? 0, Self.stepsPerByte * text.utf8.count)
        XCTAssertEqual(r?.document.blocks.count, 1)
        XCTAssertEqual(listDepth(r?.document.blocks ?? []), BlockParser.maxDepth)
    }

    func testDeepQuotesAndDivs() {
        let quotes = parse(String(repeating: ">", count: 20_000) + " deep")
        XCTAssertEqual(quotes.document.blocks.count, 1)
        XCTAssertEqual(warnings(quotes).count, 1)
        let divs = parse(String(repeating: "::: a\n", count: 5_000) + "x\n" + String(repeating: ":::\n", count: 5_000))
        XCTAssertEqual(divs.document.blocks.count, 1)
        XCTAssertTrue(errors(divs).isEmpty)
        let unclosed = parse(String(repeating: "::: a\n", count: 300))
        XCTAssertFalse(errors(unclosed).isEmpty)
    }

    func testDeepYAMLIsRefused() {
        let r = parse("---\nx: " + String(repeating: "[", count: 10_000) + "\n---\nbody")
        XCTAssertEqual(errors(r).count, 1)
        XCTAssertEqual(show(r.document.blocks), "p[\"body\"]")
        let dashes = parse("---\nx:\n" + String(repeating: "- ", count: 5_000) + "a\n---\n")
        XCTAssertEqual(errors(dashes).count, 1)
    }

    func testRandomBytesNeverCrash() {
        var rng = SystemRandomNumberGenerator()
        let alphabet = Array("*_~^=[](){}<>!`\\|#-:.@% \t\nab1é".utf8)
        for _ in 0 ..< 300 {
            let n = Int.random(in: 0 ..< 400, using: &rng)
            let bytes = (0 ..< n).map { _ in alphabet.randomElement(using: &rng)! }
            let r = RTParser.parse(bytes, file: "fuzz.rt")
            for d in r.diagnostics { XCTAssertNotNil(d.location) }
        }
        for _ in 0 ..< 200 {
            let bytes = (0 ..< 200).map { _ in UInt8.random(in: 0 ... 255, using: &rng) }
            _ = RTParser.parse(bytes, file: "fuzz.rt")
        }
    }
}
