// Issue 9 points 14 and issue 8's option values: usage errors are exit 2 with a message that names the
// real problem; `--watch` says what each build wrote; `measure` prints figures a person can read.

import Foundation
import XCTest

final class CommandLineUsageTests: XCTestCase {
    func testUnknownOptionIsNamedEvenWithoutInput() throws {
        for arguments in [["--bogus"], ["-q", "--bogus"], ["a.rt", "--bogus"]] {
            let result = try Harness.typeset(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments)")
            XCTAssertTrue(result.stderr.lowercased().contains("unknown option '--bogus'"), "\(arguments): \(result.stderr)")
        }
        let missing = try Harness.typeset(["-q"])
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.stderr.contains("missing input"), missing.stderr)
    }

    func testUnknownOutputExtensionIsAUsageError() throws {
        let dir = try Harness.scratch()
        try Harness.write("Hello.\n", to: dir + "/a.rt")
        let result = try Harness.typeset(["a.rt", "-o", "x.docx"], cwd: dir)
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("unknown output type '.docx'"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/x.docx"))
        for name in ["x.PDF", "x.svg", "x.png", "noextension"] {
            XCTAssertEqual(try Harness.typeset(["a.rt", "-o", name], cwd: dir).status, 0, name)
        }
    }

    func testBadMeasureWidthsAreUsageErrors() throws {
        let dir = try Harness.scratch()
        try Harness.write("Hello.\n", to: dir + "/m.rt")
        for width in ["0", "0cm", "99999999999pt", "-5cm", "nan", "inf", "wide", String(repeating: "9", count: 400)] {
            let result = try Harness.typeset(["measure", "m.rt", "--width=\(width)"], cwd: dir)
            XCTAssertEqual(result.status, 2, "--width \(width): \(result.stderr)")
        }
    }

    func testMeasurePrintsHundredthsOfAPoint() throws {
        let dir = try Harness.scratch()
        try Harness.write("Hello, this is a line or two of text to measure at a width in centimetres.\n", to: dir + "/m.rt")
        let result = try Harness.typeset(["measure", "m.rt", "--width", "8cm"], cwd: dir)
        XCTAssertEqual(result.status, 0, result.stderr)
        let json = String(decoding: result.stdout, as: UTF8.self)
        XCTAssertTrue(json.contains("\"width\":226.77"), json)
        XCTAssertFalse(json.contains("226.771"), json)
    }

    /// Each build in `--watch` says what it wrote, how many pages and how long it took.
    func testWatchReportsEachBuild() throws {
        let dir = try Harness.scratch()
        try Harness.write("Hello.\n", to: dir + "/w.rt")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Harness.binary)
        process.arguments = ["w.rt", "-o", "w.pdf", "--watch"]
        process.currentDirectoryURL = URL(fileURLWithPath: dir)
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        defer { if process.isRunning { process.terminate() }; process.waitUntilExit() }
        var seen = ""
        func builds() -> Int { seen.components(separatedBy: "typeset: wrote w.pdf (").count - 1 }
        /// Reads until `done` or `most` builds were reported (or the watcher stopped).
        func waitUntil(most: Int, _ done: () -> Bool) {
            while !done() && builds() < most {
                let chunk = errors.fileHandleForReading.availableData
                if chunk.isEmpty { return }
                seen += String(decoding: chunk, as: UTF8.self)
            }
        }
        waitUntil(most: 1) { false }
        XCTAssertTrue(seen.contains("typeset: wrote w.pdf (1 page, "), seen)
        sleep(1)
        // Written in place, as many editors save: a poll may see the file half written and build that, and
        // then builds again once the write is done (WatchedInputs). The last build has both pages.
        try Harness.write("Hello.\n\n@pagebreak\n\nAgain.\n", to: dir + "/w.rt")
        waitUntil(most: 6) { seen.contains("typeset: wrote w.pdf (2 pages, ") }
        XCTAssertTrue(seen.contains("typeset: wrote w.pdf (2 pages, "), seen)
        XCTAssertGreaterThanOrEqual(builds(), 2, seen)
    }
}

final class MeasureBreakTests: XCTestCase {
    /// Issue 9 point 5: a `@pagebreak` in `measure` ended a page a million points tall. It counts as the end
    /// of a page of the document's own height, as in a real render.
    func testPageBreakCountsAsOneDocumentPage() throws {
        let dir = try Harness.scratch()
        try Harness.write("---\npage: A5\nmargin: 2cm\n---\nFirst page.\n\n@pagebreak\n\nSecond page.\n", to: dir + "/b.rt")
        let result = try Harness.typeset(["measure", "b.rt", "--width", "8cm"], cwd: dir)
        XCTAssertEqual(result.status, 0, result.stderr)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Double])
        let contentHeight = 595.2756 - 2 * 72 / 2.54 * 2
        let height = try XCTUnwrap(json["height"])
        XCTAssertGreaterThan(height, contentHeight, "\(json)")
        XCTAssertLessThan(height, contentHeight + 30, "\(json)")
        XCTAssertEqual(json["pages"], 2)
        XCTAssertEqual(json["lines"], 2)
    }
}
