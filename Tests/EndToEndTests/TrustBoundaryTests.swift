// RT section 11: a document reads files (includes, images, fonts, templates) only under the root; files named
// on the command line are trusted. Each refusal is an error at the reference that names --root.

import Foundation
import XCTest

final class TrustBoundaryTests: XCTestCase {
    /// dir/docs/d.rt (the document), dir/other/ (outside docs), docs/link.rt -> ../other/s.rt.
    private func layout() throws -> String {
        let dir = try Harness.scratch()
        for folder in ["docs", "other"] {
            try FileManager.default.createDirectory(atPath: dir + "/" + folder, withIntermediateDirectories: true)
        }
        try Harness.write("Secret text.\n", to: dir + "/other/s.rt")
        try Harness.write("Inside text.\n", to: dir + "/docs/inside.rt")
        try FileManager.default.createSymbolicLink(atPath: dir + "/docs/link.rt", withDestinationPath: "../other/s.rt")
        try TestImage.writePNG(to: dir + "/other/i.png")
        return dir
    }

    func testReferencesLeavingTheRootAreLocatedErrors() throws {
        let dir = try layout()
        try Harness.write("""
            Start.

            @include inside.rt

            @include ../../../../../../../etc/passwd

            @include link.rt

            @include /etc/hostname
            """, to: dir + "/docs/d.rt")
        let result = try Harness.typeset(["d.rt", "-o", "d.pdf"], cwd: dir + "/docs")
        XCTAssertEqual(result.status, 1)
        for line in [5, 7, 9] {
            XCTAssertTrue(result.stderr.contains("d.rt:\(line):1: error: "), "line \(line): \(result.stderr)")
        }
        XCTAssertEqual(result.stderr.components(separatedBy: "is outside the root folder").count - 1, 3, result.stderr)
        XCTAssertTrue(result.stderr.contains("--root"), result.stderr)
        XCTAssertFalse(result.stderr.contains("d.rt:3:1"), "an include under the root is fine: \(result.stderr)")
        XCTAssertFalse(result.stderr.contains("root:x:0"), "no file content leaks into messages")
    }

    func testImagesFontsAndTemplatesAreCheckedToo() throws {
        let dir = try layout()
        try Harness.write("---\nfonts: [/etc/shadow]\n---\nText ![](../other/i.png) here.\n", to: dir + "/docs/e.rt")
        let result = try Harness.typeset(["e.rt", "-o", "e.pdf"], cwd: dir + "/docs")
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("e.rt:2:9: error: '/etc/shadow' is outside the root folder"), result.stderr)
        XCTAssertTrue(result.stderr.contains("e.rt:4:6: error: '../other/i.png' is outside the root folder"), result.stderr)
        try Harness.write("---\ntemplate: ../other/s.rt\n---\nBody.\n", to: dir + "/docs/t.rt")
        let template = try Harness.typeset(["t.rt", "-o", "t.pdf"], cwd: dir + "/docs")
        XCTAssertEqual(template.status, 1)
        XCTAssertTrue(template.stderr.contains("t.rt:2:11: error: '"), template.stderr)
    }

    func testRootOptionAndDefaultRootWiden() throws {
        let dir = try layout()
        try Harness.write("Start.\n\n@include link.rt\n\n![](../other/i.png)\n", to: dir + "/docs/d.rt")
        // --root ..: the other folder is inside.
        let widened = try Harness.typeset(["d.rt", "-o", "d.pdf", "--root", ".."], cwd: dir + "/docs")
        XCTAssertEqual(widened.status, 0, widened.stderr)
        XCTAssertTrue(try PDF.text(dir + "/docs/d.pdf").contains("Secret text."))
        // From the parent folder the default root is the parent: `cd build && typeset ../docs/r.rt` reads `..`.
        let fromParent = try Harness.typeset(["docs/d.rt", "-o", "p.pdf"], cwd: dir)
        XCTAssertEqual(fromParent.status, 0, fromParent.stderr)
    }

    func testFilesOnTheCommandLineAreTrusted() throws {
        let dir = try layout()
        try Harness.write("---\nvars:\n  x: 1\n---\n{{content}}\n\n@include s.rt\n", to: dir + "/other/wrap.rt")
        try Harness.write("name: Ada\n", to: dir + "/other/data.yaml")
        try Harness.write("Hello {{name}}.\n", to: dir + "/docs/c.rt")
        let result = try Harness.typeset(["c.rt", "-o", "c.pdf", "--template", "../other/wrap.rt", "--data", "../other/data.yaml"],
                                         cwd: dir + "/docs")
        XCTAssertEqual(result.status, 0, result.stderr)
        let text = try PDF.text(dir + "/docs/c.pdf")
        XCTAssertTrue(text.contains("Hello Ada.") && text.contains("Secret text."), text)
    }
}
