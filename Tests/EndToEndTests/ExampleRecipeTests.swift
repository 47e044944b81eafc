// The recipes a new user copies from the README and Examples/: the CI report built by its own Makefile from a
// copy of the folder, the links between the project's documents, and every example of the language reference.

import Foundation
import XCTest

final class ExampleRecipeTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `cp -r Examples/ci-report DIR && make -C DIR TYPESET=...`: the README's recipe, with the built binary.
    func testCIReportMakefileBuildsFromACopy() throws {
        let dir = try Harness.scratch() + "/r"
        try FileManager.default.copyItem(atPath: Self.root.appendingPathComponent("Examples/ci-report").path, toPath: dir)
        for leftover in ["report.pdf", "report.d"] { try? FileManager.default.removeItem(atPath: dir + "/" + leftover) }
        let typeset = "TYPESET=" + Harness.binary

        let first = try Harness.run("make", ["-C", dir, typeset])
        XCTAssertEqual(first.status, 0, "make failed: \(first.stderr)")
        let pdf = dir + "/report.pdf"
        XCTAssertTrue(FileManager.default.fileExists(atPath: pdf), "no report.pdf")
        PDF.assertValid(pdf)
        let text = try PDF.text(pdf).replacingOccurrences(of: "\n", with: " ")
        for expected in ["Summary", "Project typeset", "commit 8fe9b69", "Failures", "TypesetLayoutTests.testDecimalTabs",
                         "RTSyntaxTests", "testOneMegabyteParagraph", "EndToEndTests", "testDepsFile"] {
            XCTAssertTrue(text.contains(expected), "'\(expected)' missing from the report: \(text)")
        }
        // Markup characters inside data values stay literal (section 7).
        XCTAssertTrue(text.contains("*not* markup"), text)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/report.d"), "no dependency file")

        // Nothing changed: make does nothing.
        let second = try Harness.run("make", ["-C", dir, typeset])
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertTrue(String(decoding: second.stdout, as: UTF8.self).contains("is up to date"),
                      String(decoding: second.stdout, as: UTF8.self))
    }

    /// Without `typeset` on PATH the Makefile says what to do instead of make's bare "No such file or directory".
    func testCIReportMakefileExplainsAMissingBinary() throws {
        let dir = try Harness.scratch() + "/r"
        try FileManager.default.copyItem(atPath: Self.root.appendingPathComponent("Examples/ci-report").path, toPath: dir)
        for leftover in ["report.pdf", "report.d"] { try? FileManager.default.removeItem(atPath: dir + "/" + leftover) }
        let result = try Harness.run("make", ["-C", dir, "TYPESET=typeset-not-installed-here"])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.stderr.contains("make install PREFIX="), result.stderr)
        XCTAssertTrue(result.stderr.contains("TYPESET="), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/report.pdf"))
    }

    /// A new user learns where the binary is before scrolling, and the recipe the tests run is the one printed.
    func testReadmeSaysWhereTheBinaryIsOnItsFirstScreen() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let firstScreen = readme.split(separator: "\n", omittingEmptySubsequences: false).prefix(30).joined(separator: "\n")
        XCTAssertTrue(firstScreen.contains(".build/release/typeset"), firstScreen)
        XCTAssertTrue(firstScreen.contains("make install PREFIX="), firstScreen)
        XCTAssertTrue(firstScreen.contains("export PATH=$PWD/.build/release:$PATH"), firstScreen)
        XCTAssertTrue(readme.contains("make -C Examples/ci-report TYPESET=$PWD/.build/release/typeset"))
        XCTAssertFalse(readme.contains("../shared/"), "the README links outside the repository")
    }

    /// Every relative link in the README, Examples/README.md and docs/ names a file inside the repository.
    func testDocumentLinksStayInsideTheRepository() throws {
        var documents = ["README.md", "Examples/README.md"]
        let docs = Self.root.appendingPathComponent("docs").path
        documents += ((try? FileManager.default.contentsOfDirectory(atPath: docs)) ?? [])
            .filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
        XCTAssertTrue(documents.contains("docs/rt-language.md"), "the language reference is missing")
        let rootPath = Self.root.standardizedFileURL.path
        for document in documents {
            let url = Self.root.appendingPathComponent(document)
            let text = try String(contentsOf: url, encoding: .utf8)
            for target in Self.markdownLinks(in: text) {
                if target.hasPrefix("#") || target.contains("://") || target.hasPrefix("mailto:") { continue }
                let path = String(target.split(separator: "#", maxSplits: 1)[0])
                let resolved = url.deletingLastPathComponent().appendingPathComponent(path).standardizedFileURL.path
                XCTAssertTrue(resolved.hasPrefix(rootPath + "/"), "\(document): '\(target)' leaves the repository")
                XCTAssertTrue(FileManager.default.fileExists(atPath: resolved), "\(document): '\(target)' does not exist")
            }
        }
    }

    /// Every ```rt example of docs/rt-language.md typesets with exit 0 and no diagnostics.
    /// (Examples that show a warning, an error or a construct not built yet are fenced as ```text.)
    func testLanguageReferenceExamplesTypesetCleanly() throws {
        let reference = Self.root.appendingPathComponent("docs/rt-language.md")
        let text = try String(contentsOf: reference, encoding: .utf8)
        let examples = Self.fencedBlocks(in: text, info: "rt")
        XCTAssertGreaterThanOrEqual(examples.count, 25, "the reference should show every construct")
        let dir = try Harness.scratch()
        try FileManager.default.copyItem(atPath: Self.root.appendingPathComponent("Examples/check-icon.png").path,
                                         toPath: dir + "/icon.png")
        for (index, example) in examples.enumerated() {
            let input = dir + "/example-\(index).rt"
            try Harness.write(example.text, to: input)
            let result = try Harness.typeset([input, "-o", dir + "/example-\(index).pdf"], cwd: dir)
            XCTAssertEqual(result.status, 0, "rt-language.md:\(example.line): \(result.stderr)")
            XCTAssertEqual(result.stderr, "", "rt-language.md:\(example.line) has diagnostics")
        }
    }

    // MARK: Helpers

    /// `[text](target)` targets, outside code spans and fenced code.
    static func markdownLinks(in text: String) -> [String] {
        var targets: [String] = []
        var inFence = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") || line.hasPrefix("~~~") { inFence.toggle(); continue }
            if inFence { continue }
            // Drop code spans so `[t](url)` written as an example is not a link.
            let parts = line.split(separator: "`", omittingEmptySubsequences: false)
            let prose = parts.enumerated().filter { $0.offset % 2 == 0 }.map(\.element).joined(separator: " ")
            var rest = Substring(prose)
            while let open = rest.range(of: "](") {
                let after = rest[open.upperBound...]
                guard let close = after.firstIndex(of: ")") else { break }
                let target = after[..<close].split(separator: " ").first.map(String.init) ?? ""
                if !target.isEmpty { targets.append(target) }
                rest = after[close...]
            }
        }
        return targets
    }

    /// The bodies of fenced blocks whose info string is exactly `info`, with the line each starts on.
    /// A fence closes on a line of at least as many backticks (CommonMark), so ```` can show ```.
    static func fencedBlocks(in text: String, info: String) -> [(text: String, line: Int)] {
        var blocks: [(text: String, line: Int)] = []
        var open: (fence: Int, indent: Int, wanted: Bool, start: Int)?
        var body: [Substring] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            // Fences inside list items are indented; their body loses the same indentation.
            let indent = line.prefix { $0 == " " }.count
            let trimmed = line.dropFirst(indent)
            let ticks = trimmed.prefix { $0 == "`" }.count
            let rest = trimmed.dropFirst(ticks).trimmingCharacters(in: .whitespaces)
            if let current = open {
                if ticks >= current.fence && rest.isEmpty {
                    if current.wanted { blocks.append((body.joined(separator: "\n") + "\n", current.start)) }
                    open = nil
                } else {
                    body.append(line.dropFirst(min(indent, current.indent)))
                }
            } else if ticks >= 3 {
                open = (ticks, indent, rest == info, number + 2)
                body = []
            }
        }
        return blocks
    }
}
