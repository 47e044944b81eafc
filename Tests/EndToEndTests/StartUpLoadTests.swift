// Start-up (issue 14): the CLI starts loading libqpdf before it reads the input when, and only when, the build
// writes a tagged PDF (TypesetKit/StartUp.swift). Counted with the dynamic loader's own log, not timed.

import Foundation
import XCTest

final class StartUpLoadTests: XCTestCase {
    /// How many times a one-page build with `arguments` loaded libqpdf (`LD_DEBUG=files` lines).
    private func qpdfLoads(_ arguments: [String], environment: [String: String] = [:]) throws -> Int {
        let dir = try Harness.scratch()
        try Harness.write("---\ntitle: One page\n---\n# A heading\n\nA paragraph of text.\n", to: dir + "/doc.rt")
        var env = environment
        env["LD_DEBUG"] = "files"
        let result = try Harness.typeset(["doc.rt"] + arguments, environment: env, cwd: dir)
        XCTAssertEqual(result.status, 0, result.stderr)
        return result.stderr.split(separator: "\n")
            .filter { $0.contains("file=libqpdf") && $0.contains("dynamically loaded") }.count
    }

    func testATaggedPDFLoadsLibqpdfOnce() throws {
        XCTAssertEqual(try qpdfLoads(["-o", "doc.pdf"]), 1)
        XCTAssertEqual(try qpdfLoads([]), 1, "no -o: a PDF named after the input")
    }

    func testImagesAndUntaggedPDFsNeverLoadLibqpdf() throws {
        XCTAssertEqual(try qpdfLoads(["-o", "doc.png"]), 0)
        XCTAssertEqual(try qpdfLoads(["-o", "doc.svg"]), 0)
        XCTAssertEqual(try qpdfLoads(["-o", "doc.pdf"], environment: ["TYPESET_UNTAGGED": "1"]), 0)
    }
}
