// Issue 8: a paragraph of 50,000 reference links cost some 43,000 instructions a link in lowering alone. The
// work per link is counted here (runs, distinct shared attribute sets), not timed.

import RTSyntax
@testable import TypesetIR
import XCTest

final class LinkLoweringWorkTests: XCTestCase {
    private func links(_ n: Int) -> Block {
        let inlines = (0 ..< n).flatMap { _ in [link("/x", text("a")), text(" ")] }
        return Block(.paragraph(inlines), attributes: .empty, range: at(1))
    }

    /// `[a](/x) ` n times: one run for each link and one for each space between (the last space is dropped at
    /// the paragraph's end or not), and every run shares one of two attribute sets, the body's or the link's.
    func testTwoRunsPerLinkAndTwoSharedAttributeSets() throws {
        let n = 2_000
        let paragraph = try XCTUnwrap(lower([links(n)]).paragraphs.first)
        XCTAssertLessThanOrEqual(paragraph.runs.count, 2 * n)
        XCTAssertGreaterThanOrEqual(paragraph.runs.count, 2 * n - 1)
        let distinct = Set(paragraph.runs.map { ObjectIdentifier($0.shared) })
        XCTAssertEqual(distinct.count, 2, "runs alternating between body text and links share two attribute sets")
        let linked = paragraph.runs.filter { $0.attributes.link != nil }
        XCTAssertEqual(linked.count, n)
        XCTAssertEqual(Set(linked.map(\.attributes)).count, 1, "every link is styled the same")
    }

    /// The link style applied once for a paragraph of links gives what applying it to each gives: a link in
    /// bold text (another outside state) is still bold and link-coloured.
    func testLinkStyleFollowsTheStateOutside() throws {
        let block = Block(.paragraph([link("/x", text("a")), text(" "), strong(link("/y", text("b"))), text(" "),
                                      link("/z", text("c"))]), attributes: .empty, range: at(1))
        let paragraph = try XCTUnwrap(lower([block]).paragraphs.first)
        let a = try XCTUnwrap(paragraph.attributes(of: "a"))
        let b = try XCTUnwrap(paragraph.attributes(of: "b"))
        let c = try XCTUnwrap(paragraph.attributes(of: "c"))
        XCTAssertEqual(b.weight, 700)
        XCTAssertEqual(a.color, b.color)
        XCTAssertEqual(a.color, c.color)
        XCTAssertNotEqual(a.weight, 700)
        XCTAssertEqual(c.link, .url("/z"))
    }

    /// A destination repeated link after link is checked against the link policy once, and each link still
    /// reports what it must: its warning (a local file) and its internal target (resolved at the end).
    func testARepeatedDestinationIsCheckedOnce() {
        var lowerer = DocumentLowerer(options: LoweringOptions(), sheet: StyleSheet(), variables: [:])
        var builder = ParagraphBuilder()
        let inlines = (0 ..< 500).flatMap { _ in [link("/x", text("a")), text(" ")] }
            + [link("#top", text("b")), link("#top", text("c")), link("file:///a.txt", text("d")), link("file:///a.txt", text("e"))]
        lowerer.lowerInlines(inlines, StyleState().character, state: StyleState(), into: &builder)
        XCTAssertEqual(lowerer.linkChecks, 3, "one check per distinct destination in a row, not per link")
        XCTAssertEqual(lowerer.internalLinks.map(\.id), ["top", "top"])
        XCTAssertEqual(lowerer.diagnostics.filter { $0.severity == .warning }.count, 2, "each file link warns")
        XCTAssertEqual(builder.runs.filter { $0.attributes.link == .url("/x") }.count, 500)
    }
}

/// Issue 8: `` `a` `` x 250,000 spent 0.9 s of its lowering applying the `code` style (some 14 values parsed)
/// to each span. It is applied once per run of inlines; counted, not timed.
final class CodeLoweringWorkTests: XCTestCase {
    func testTheCodeStyleIsAppliedOncePerRunOfInlines() throws {
        var lowerer = DocumentLowerer(options: LoweringOptions(), sheet: StyleSheet(), variables: [:])
        var builder = ParagraphBuilder()
        let n = 2_000
        let inlines = (0 ..< n).flatMap { _ in [Inline(.code("a"), range: at(1)), text(" ")] }
            + [strong(Inline(.code("b"), range: at(1)))]
        lowerer.lowerInlines(inlines, StyleState().character, state: StyleState(), into: &builder)
        XCTAssertEqual(lowerer.codeStyleApplications, 2, "once for the paragraph's spans, once inside the bold")
        let code = builder.runs.filter { $0.attributes.fontFamily == "DejaVu Sans Mono" }
        XCTAssertEqual(code.count, n + 1, "each span its own run")
        XCTAssertTrue(code.allSatisfy { $0.attributes.background != nil }, "each with the code background")
        XCTAssertEqual(code.last?.attributes.weight, 700, "code inside bold text is bold")
        XCTAssertEqual(Set(code.dropLast().map { ObjectIdentifier($0.shared) }).count, 1, "sharing one attribute set")
    }
}
