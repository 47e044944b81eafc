// Every template's starter document (`typeset new NAME`) renders cleanly with no data and with every
// variable set: no stray markup, no attribute line leaking its alignment onto the body.

import Foundation
import XCTest

final class TemplateStarterTests: XCTestCase {
    private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// The first word of each starter's body, set flush left.
    private let firstBodyWord = ["article": "The", "invoice": "Billed", "letter": "Thank", "newsletter": "The",
                                 "report": "What"]

    /// Variables a template reads (`{{name}}`, `{{#name}}`), without the per-page fields.
    private func variables(of template: String) throws -> [String] {
        let text = try String(contentsOf: root.appendingPathComponent("Templates/\(template).rt"), encoding: .utf8)
        let regex = try NSRegularExpression(pattern: #"\{\{[#^/]?([a-z]+)\}\}"#)
        let names = regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
            Range($0.range(at: 1), in: text).map { String(text[$0]) }
        }
        return Set(names).subtracting(["content", "page", "pages", "section"]).sorted()
    }

    func testStartersRenderCleanlyWithAndWithoutData() throws {
        let dir = try Harness.scratch()
        for (name, first) in firstBodyWord.sorted(by: { $0.key < $1.key }) {
            XCTAssertEqual(try Harness.typeset(["new", name, name + ".rt"], cwd: dir).status, 0, name)
            let names = try variables(of: name)
            XCTAssertFalse(names.isEmpty, name)
            for withData in [false, true] {
                let defines = withData ? names.flatMap { ["-D", "\($0)=v\($0)"] } : []
                let out = "\(name)\(withData ? "-data" : "").pdf"
                let result = try Harness.typeset([name + ".rt", "-o", out] + defines, cwd: dir)
                let label = "\(name) \(withData ? "with every variable" : "without data")"
                XCTAssertEqual(result.status, 0, "\(label): \(result.stderr)")
                XCTAssertEqual(result.stderr, "", label)
                let pdf = dir + "/" + out
                let text = try PDF.text(pdf)
                for stray in ["\\", "{{", "}}", "{.", "{#"] {
                    XCTAssertFalse(text.contains(stray), "\(label): '\(stray)' printed:\n\(text)")
                }
                if withData {
                    for variable in names where variable != "title" || name != "letter" {
                        XCTAssertTrue(text.contains("v\(variable)"), "\(label): \(variable) missing:\n\(text)")
                    }
                }
                // The body starts flush left: another line (a heading, the next paragraph) starts at its x.
                let words = try PDF.words(pdf).filter { $0.page == 1 }
                let body = try XCTUnwrap(words.last { $0.text == first && $0.yMin > 50 }, label)
                let lineStarts = Dictionary(grouping: words, by: { ($0.yMin * 10).rounded() }).values
                    .map { $0.map(\.xMin).min() ?? 0 }
                // (within 1pt: a line starting with W or A hangs 0.5pt into the margin, protrusion)
                XCTAssertGreaterThanOrEqual(lineStarts.filter { abs($0 - body.xMin) < 1 }.count, 2,
                                            "\(label): '\(first)' is not flush left")
                if withData && (name == "letter" || name == "invoice") {
                    // The dateline and the total stay right-aligned.
                    let right = try XCTUnwrap(words.map(\.xMax).max())
                    let marker = name == "letter" ? "vdate" : "vtotal**"
                    let word = try XCTUnwrap(words.first { $0.text.hasPrefix(marker.replacingOccurrences(of: "*", with: "")) }, label)
                    XCTAssertEqual(word.xMax, right, accuracy: 0.5, "\(label): '\(word.text)' is not right-aligned")
                }
            }
        }
    }
}
