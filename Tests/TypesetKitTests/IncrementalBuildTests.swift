// Incremental builds (`--watch`): after each edit the PDF is the same bytes as a clean build's, and an edit
// to one paragraph lays out only that paragraph again (counted, not timed).

import Foundation
import TypesetKit
import TypesetLayout
import XCTest

final class IncrementalBuildTests: XCTestCase {
    /// Sections of two paragraphs; with `numbered`, a toc, `{{pages}}`, footnotes and a cross-reference,
    /// whose numbers move when text is added above them.
    static func document(sections: Int, numbered: Bool, edit: (inout [String]) -> Void = { _ in }) -> [UInt8] {
        var front = ["---", "title: Incremental", "columns: 2", "justify: true", "hyphenate: true"]
        if numbered { front += ["footer: \"\\t{{page}} of {{pages}}\\t\"", "numbering: 1"] }
        var body: [String] = []
        if numbered { body += ["@toc depth=1", ""] }
        for s in 1...sections {
            body += ["# Section \(s) {#s\(s)}", ""]
            body += ["Paragraph one of section \(s): the layout of a paragraph depends on its text, its attributes "
                     + "and the width of its column, and on *nothing else* that an edit elsewhere could change.", ""]
            let note = numbered && s % 3 == 0 ? "^[A note in section \(s).]" : ""
            let reference = numbered && s % 10 == 0 ? " See [](#s\(s - 5))." : ""
            body += ["Paragraph two of section \(s) has **bold** words and a longer tail so that it is broken into "
                     + "several justified lines in a narrow column of a two-column page\(note).\(reference)", ""]
        }
        edit(&body)
        return Array((front + ["---", ""] + body).joined(separator: "\n").utf8)
    }

    private func build(_ source: [UInt8], to path: String, with incremental: IncrementalBuild?, jobs: Int = 1) throws -> Data {
        var request = TypesetRequest(input: .bytes(source, name: "doc.rt"), output: .file(path))
        request.sourceDateEpoch = 1_700_000_000
        request.jobs = jobs
        let outcome = incremental?.run(request) ?? Typesetter.run(request)
        XCTAssertTrue(outcome.succeeded, outcome.diagnostics.map(\.description).joined(separator: "\n"))
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    private func scratch() throws -> String {
        let dir = NSTemporaryDirectory() + "/typeset-incremental-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    func testEachEditGivesTheBytesOfACleanBuild() throws { try checkEdits(jobs: 1) }

    /// With two jobs a rebuild writes pages on a second thread (its layout workers have little to do).
    func testEachEditGivesTheBytesOfACleanBuildWithTwoJobs() throws { try checkEdits(jobs: 2) }

    private func checkEdits(jobs: Int) throws {
        let dir = try scratch()
        let edits: [(String, (inout [String]) -> Void)] = [
            ("original", { _ in }),
            ("one word changed", { body in
                if let k = body.firstIndex(where: { $0.hasPrefix("Paragraph one of section 20:") }) {
                    body[k] = body[k].replacingOccurrences(of: "nothing else", with: "nothing at all")
                }
            }),
            ("a paragraph with a note added near the top (later note numbers move)", { body in
                body.insert(contentsOf: ["A new paragraph with its own note^[Inserted.] pushes the rest down.", ""], at: 4)
            }),
            ("a section removed (toc, heading numbers and pages move)", { body in
                if let k = body.firstIndex(of: "# Section 2 {#s2}") { body.removeSubrange(k..<(k + 6)) }
            }),
            ("back to the original", { _ in }),
            ("letters outside Latin-1, a ligature and quotes near the top (cairo's glyph subsets grow)", { body in
                if let k = body.firstIndex(where: { $0.hasPrefix("Paragraph one of section 1:") }) {
                    body[k] = "Ωmega ﬁnds “quotes” — and Łódź. " + body[k]
                }
            }),
            ("back to the original again (the subsets shrink)", { _ in }),
            ("the same source again (every page from the last build)", { _ in }),
            ("a paragraph near the end gains a line (the pages after it shift)", { body in
                if let k = body.firstIndex(where: { $0.hasPrefix("Paragraph two of section 55 ") }) {
                    body[k] += " Enough words are added here to make the paragraph at least one line longer than before."
                }
            }),
            ("a heading renamed (the toc's text changes, the pages do not move)", { body in
                if let k = body.firstIndex(of: "# Section 30 {#s30}") { body[k] = "# Section Thirty {#s30}" }
            }),
        ]
        let incremental = IncrementalBuild()
        for (name, edit) in edits {
            let source = IncrementalBuildTests.document(sections: 60, numbered: true, edit: edit)
            let again = try build(source, to: dir + "/incremental.pdf", with: incremental, jobs: jobs)
            let clean = try build(source, to: dir + "/clean.pdf", with: nil)
            XCTAssertEqual(again, clean, "after '\(name)' the incremental PDF differs from a clean build")
        }
        XCTAssertGreaterThan(incremental.cache.hits, 100, "the rebuilds reused no layouts")
        XCTAssertGreaterThan(incremental.pageStreams.hits, 10, "the rebuilds reused no page content")
        // The first build lays out on the workers and writes pages itself; every rebuild hands them to the writer.
        XCTAssertEqual(incremental.pageStreams.buildsWithPageWriter, jobs > 1 ? edits.count - 1 : 0)
    }

    func testEditingOneParagraphLaysOutOnlyIt() throws {
        let dir = try scratch()
        let incremental = IncrementalBuild()
        LayoutWork.paragraphsLaidOut = 0
        _ = try build(IncrementalBuildTests.document(sections: 200, numbered: false), to: dir + "/a.pdf",
                      with: incremental)
        let full = LayoutWork.paragraphsLaidOut
        XCTAssertGreaterThanOrEqual(full, 600, "three paragraphs per section in a full build")

        let edited = IncrementalBuildTests.document(sections: 200, numbered: false) { body in
            if let k = body.firstIndex(where: { $0.hasPrefix("Paragraph two of section 150 ") }) {
                body[k] = body[k].replacingOccurrences(of: "longer tail", with: "much longer tail")
            }
        }
        LayoutWork.paragraphsLaidOut = 0
        let again = try build(edited, to: dir + "/b.pdf", with: incremental)
        XCTAssertLessThanOrEqual(LayoutWork.paragraphsLaidOut, 3, "an edit to one paragraph laid out more anew")
        XCTAssertGreaterThanOrEqual(LayoutWork.paragraphsLaidOut, 1)
        XCTAssertEqual(again, try build(edited, to: dir + "/clean.pdf", with: nil))
    }

    /// An edit that keeps the paragraph's line count leaves every other page's content as it was: the tagging
    /// stage rewrites only the edited page's stream and takes the others from the last build.
    func testEditingOneParagraphRewritesOnlyItsPage() throws {
        let dir = try scratch()
        let incremental = IncrementalBuild()
        let first = try build(IncrementalBuildTests.document(sections: 200, numbered: false), to: dir + "/a.pdf",
                              with: incremental)
        let pages = incremental.pageStreams.rewrites
        XCTAssertGreaterThanOrEqual(pages, 20, "a full build rewrites every page's content")
        XCTAssertEqual(incremental.pageStreams.hits, 0)
        let edited = IncrementalBuildTests.document(sections: 200, numbered: false) { body in
            if let k = body.firstIndex(where: { $0.hasPrefix("Paragraph one of section 150:") }) {
                body[k] = body[k].replacingOccurrences(of: "its text, its attributes", with: "its attributes, its text")
            }
        }
        let again = try build(edited, to: dir + "/b.pdf", with: incremental)
        XCTAssertNotEqual(again, first)
        let rewritten = incremental.pageStreams.rewrites - pages
        XCTAssertGreaterThanOrEqual(rewritten, 1, "the edited page was not rewritten")
        XCTAssertLessThanOrEqual(rewritten, 2, "an edit to one paragraph rewrote more pages than the one it is on")
        XCTAssertGreaterThanOrEqual(incremental.pageStreams.hits, pages - 2)
        XCTAssertEqual(again, try build(edited, to: dir + "/clean.pdf", with: nil))
    }

    /// The tagging stage replaces cairo's content streams instead of appending new ones: the file has one
    /// cross-reference section (a stream), holds no content stream that no page uses, and qpdf finds nothing wrong.
    func testTaggedFileHoldsEachPageContentOnce() throws {
        let dir = try scratch()
        let pdf = try build(IncrementalBuildTests.document(sections: 40, numbered: true), to: dir + "/a.pdf", with: nil)
        let text = String(decoding: pdf, as: UTF8.self)
        XCTAssertEqual(text.components(separatedBy: "startxref").count - 1, 1, "more than one cross-reference section")
        XCTAssertEqual(text.components(separatedBy: "/Type /XRef").count - 1, 1, "one cross-reference stream")
        XCTAssertFalse(text.contains("\ntrailer\n"), "cairo's table or an appended update's")
        let check = Process()
        check.executableURL = URL(fileURLWithPath: "/usr/bin/qpdf")
        check.arguments = ["--check", dir + "/a.pdf"]
        check.standardOutput = FileHandle.nullDevice
        try check.run()
        check.waitUntilExit()
        XCTAssertEqual(check.terminationStatus, 0, "qpdf --check fails")
        // Every stream object with page-content operators is some page's /Contents.
        let json = Process()
        json.executableURL = URL(fileURLWithPath: "/usr/bin/qpdf")
        json.arguments = ["--json", "--json-key=pages", dir + "/a.pdf"]
        let pipe = Pipe()
        json.standardOutput = pipe
        try json.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        json.waitUntilExit()
        let pages = (try JSONSerialization.jsonObject(with: output) as? [String: Any])?["pages"] as? [[String: Any]] ?? []
        let contents = Set(pages.flatMap { ($0["contents"] as? [String]) ?? [] })
        XCTAssertGreaterThan(pages.count, 3)
        let streams = text.components(separatedBy: " 0 obj\n<< /Filter /FlateDecode /Length ").count - 1
        XCTAssertEqual(contents.count, pages.count, "one content stream per page")
        XCTAssertGreaterThanOrEqual(streams, contents.count)
        XCTAssertFalse(text.contains(" Tf\n"), "an uncompressed cairo content stream was left in the file")
        // cairo compresses no stream of its own here: the stage compresses them all (only XMP stays plain text).
        let plain = text.components(separatedBy: " 0 obj\n").dropFirst().filter { object in
            guard let stream = object.range(of: ">>\nstream\n") else { return false }
            let dictionary = object[..<stream.lowerBound]
            return !dictionary.contains("/Filter") && !dictionary.contains("/Metadata")
        }
        XCTAssertEqual(plain.count, 0, "streams left uncompressed: \(plain.map { $0.prefix(60) })")
    }

    /// Images are decoded once across builds, and again when the file changes: the PDF follows the file.
    func testChangedImageFileIsReadAgain() throws {
        let dir = try scratch()
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples").path
        let pictures = ["check-icon.png", "tech-report-tests.png"].map { fixtures + "/" + $0 }
        try FileManager.default.copyItem(atPath: pictures[0], toPath: dir + "/picture.png")
        let source = Array("An image ![icon](picture.png){width=40pt} in a line.\n\nAnd a paragraph after it.\n".utf8)
        func build(to name: String, with incremental: IncrementalBuild?) throws -> Data {
            var request = TypesetRequest(input: .bytes(source, name: dir + "/doc.rt"), output: .file(dir + "/" + name))
            request.sourceDateEpoch = 1_700_000_000
            request.root = dir
            let outcome = incremental?.run(request) ?? Typesetter.run(request)
            XCTAssertTrue(outcome.succeeded, outcome.diagnostics.map(\.description).joined(separator: "\n"))
            return try Data(contentsOf: URL(fileURLWithPath: dir + "/" + name))
        }
        let incremental = IncrementalBuild()
        let first = try build(to: "a.pdf", with: incremental)
        XCTAssertEqual(try build(to: "b.pdf", with: incremental), first, "an unchanged rebuild changed the PDF")
        XCTAssertEqual(first, try build(to: "clean1.pdf", with: nil))
        // Another picture under the same name (a different size, so the stamp differs even within a second).
        try FileManager.default.removeItem(atPath: dir + "/picture.png")
        try FileManager.default.copyItem(atPath: pictures[1], toPath: dir + "/picture.png")
        let changed = try build(to: "c.pdf", with: incremental)
        XCTAssertNotEqual(changed, first, "the new picture did not reach the PDF")
        XCTAssertEqual(changed, try build(to: "clean2.pdf", with: nil))
    }
}
