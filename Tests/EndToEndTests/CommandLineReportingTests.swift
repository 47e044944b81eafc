// What the command tells its user: the progress line on a terminal (and nothing in logs), --verbose
// timings, --help, measure for multi-column documents, located data-file errors.

import Foundation
import XCTest

final class CommandLineReportingTests: XCTestCase {
    /// Several hundred pages with `{{pages}}` in the footer: a counting pass, then drawing; over half a second.
    private func longDocument(in dir: String) throws {
        let words = ["type", "set", "line", "break", "column", "page", "glyph", "kerning", "measure", "leading"]
        var paragraphs: [String] = []
        for i in 0 ..< 3600 { paragraphs.append((0 ..< 80).map { words[($0 * 7 + i) % words.count] }.joined(separator: " ")) }
        try Harness.write("---\nfooter: \"{{page}} / {{pages}}\"\n---\n" + paragraphs.joined(separator: "\n\n") + "\n",
                          to: dir + "/long.rt")
    }

    func testProgressLineOnlyOnATerminal() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { throw XCTSkip("needs script(1) from util-linux") }
        let dir = try Harness.scratch()
        try longDocument(in: dir)
        // script(1) runs the command on a pseudo-terminal and copies what it prints to our pipe.
        let command = "'\(Harness.binary)' long.rt -o tty.pdf"
        let tty = try Harness.run("/usr/bin/script", ["-qfec", command, "/dev/null"], cwd: dir)
        XCTAssertEqual(tty.status, 0, tty.stderr)
        let shown = String(decoding: tty.stdout, as: UTF8.self)
        XCTAssertTrue(shown.contains("\r\u{1B}[K"), "rewritten in place: \(shown.debugDescription.prefix(300))")
        XCTAssertTrue(shown.range(of: #"typesetting page \d+ of \d+"#, options: .regularExpression) != nil,
                      shown.debugDescription.prefix(500) + "")
        XCTAssertTrue(shown.hasSuffix("\r\u{1B}[K"), "the line is cleared at the end")

        let quiet = try Harness.run("/usr/bin/script", ["-qfec", command + " --quiet", "/dev/null"], cwd: dir)
        XCTAssertEqual(String(decoding: quiet.stdout, as: UTF8.self), "", "--quiet prints no progress")

        let piped = try Harness.typeset(["long.rt", "-o", "pipe.pdf"], cwd: dir)
        XCTAssertEqual(piped.status, 0)
        XCTAssertEqual(piped.stderr, "", "no progress line when standard error is not a terminal")
        XCTAssertEqual(try PDF.pageCount(dir + "/pipe.pdf"), try PDF.pageCount(dir + "/tty.pdf"))
    }

    func testVerboseTimesEveryStageWithUnits() throws {
        let dir = try Harness.scratch()
        try Harness.write("---\nvars:\n  who: you\n---\n# Hi\n\nHello {{who}}.\n", to: dir + "/doc.rt")
        let result = try Harness.typeset(["doc.rt", "-v"], cwd: dir)
        XCTAssertEqual(result.status, 0, result.stderr)
        // Then the CPU seconds of layout+render's parts (what a --watch rebuild spends, issue 14).
        for stage in ["read", "expand", "parse", "lower", "layout+render", "write", "  cpu layout", "  cpu draw",
                      "  cpu show", "  cpu finish", "  cpu tagging"] {
            let pattern = "typeset: " + NSRegularExpression.escapedPattern(for: stage) + #" +\d+(\.\d+)? (ms|s)\n"#
            XCTAssertNotNil(result.stderr.range(of: pattern, options: .regularExpression), "\(stage) in \(result.stderr)")
        }
        XCTAssertTrue(result.stderr.contains("typeset: inputs: doc.rt"), result.stderr)
    }

    func testHelpListsEveryOption() throws {
        let help = String(decoding: try Harness.typeset(["--help"]).stdout, as: UTF8.self)
        for option in ["-o, --output", "-D", "--data", "--template", "--deps", "--allow-undefined", "-q, --quiet",
                       "-v, --verbose", "--watch", "--jobs", "--list-templates", "--version", "-h, --help",
                       "typeset new", "typeset measure"] {
            XCTAssertTrue(help.contains(option), "\(option) missing from --help")
        }
        let measure = String(decoding: try Harness.typeset(["measure", "--help"]).stdout, as: UTF8.self)
        XCTAssertTrue(measure.contains("--width"), measure)
    }

    /// `--width` is one column's width; `pages` must match what a real render of the document gives.
    func testMeasureMatchesARealRenderWithOneAndTwoColumns() throws {
        let dir = try Harness.scratch()
        let text = (0 ..< 120).map { "Paragraph \($0) " + String(repeating: "with some words to set ", count: 12) }
            .joined(separator: "\n\n") + "\n"
        for columns in [1, 2] {
            try Harness.write("---\ncolumns: \(columns)\n---\n" + text, to: dir + "/c\(columns).rt")
            XCTAssertEqual(try Harness.typeset(["c\(columns).rt"], cwd: dir).status, 0)
            // A4, 2 cm margins, 12 pt gap: one column of 481.89 pt, or two of 234.94 pt.
            let width = columns == 1 ? "481.89pt" : "234.94pt"
            let result = try Harness.typeset(["measure", "c\(columns).rt", "--width", width], cwd: dir)
            XCTAssertEqual(result.status, 0, result.stderr)
            let json = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Double] ?? [:]
            XCTAssertEqual(json["columns"], Double(columns))
            XCTAssertEqual(json["contentWidth"] ?? 0, 481.89, accuracy: 0.02)
            XCTAssertEqual(Int(json["pages"] ?? -1), try PDF.pageCount(dir + "/c\(columns).pdf"), "columns: \(columns)")
            XCTAssertGreaterThan(try PDF.pageCount(dir + "/c\(columns).pdf"), 1)
        }
        let one = try JSONSerialization.jsonObject(with: try Harness.typeset(["measure", "c1.rt", "--width", "234.94pt"], cwd: dir).stdout) as? [String: Double]
        let two = try JSONSerialization.jsonObject(with: try Harness.typeset(["measure", "c2.rt", "--width", "234.94pt"], cwd: dir).stdout) as? [String: Double]
        // Same column width, same lines; two balanced columns are half as tall.
        XCTAssertEqual(one?["lines"], two?["lines"])
        XCTAssertEqual((two?["height"] ?? 0) / (one?["height"] ?? 1), 0.5, accuracy: 0.05)
    }

    func testBadJSONDataFileNamesTheFileAndLine() throws {
        let dir = try Harness.scratch()
        try Harness.write("Hello {{a}}.\n", to: dir + "/doc.rt")
        try Harness.write("{\n  \"a\": [1, 2,\n  \"b\": 3\n}\n", to: dir + "/bad.json")
        let result = try Harness.typeset(["doc.rt", "--data", "bad.json"], cwd: dir)
        XCTAssertEqual(result.status, 1)
        XCTAssertNotNil(result.stderr.range(of: #"^bad\.json:[2-4]:\d+: error: "#, options: .regularExpression), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/doc.pdf"))
        try Harness.write("[1, 2]\n", to: dir + "/list.json")
        let list = try Harness.typeset(["doc.rt", "--data", "list.json"], cwd: dir)
        XCTAssertTrue(list.stderr.hasPrefix("list.json:1:1: error: "), list.stderr)
    }

    /// A template must also fit a bare document: no section left empty may strand a `{...}` line (letter did).
    func testEveryTemplateAroundABareDocumentWarnsNothing() throws {
        let dir = try Harness.scratch()
        try Harness.write("Just text.\n", to: dir + "/bare.rt")
        for name in ["article", "invoice", "letter", "newsletter", "report"] {
            let result = try Harness.typeset(["bare.rt", "--template", name, "-o", name + ".pdf"], cwd: dir)
            XCTAssertEqual(result.status, 0, "\(name): \(result.stderr)")
            XCTAssertEqual(result.stderr, "", name)
        }
    }
}
