// `-o` never destroys what typeset did not write: directories, the input, devices, other people's files.

import Foundation
import XCTest

final class OutputSafetyTests: XCTestCase {
    private func makeFolder(_ name: String = #function) throws -> String {
        let dir = try Harness.scratch(name)
        try Harness.write("Hello\n", to: dir + "/ok.rt")
        try Harness.write("Hello {{undefined}}\n", to: dir + "/bad.rt")
        return dir
    }

    func testDirectoryTargetIsAnErrorAndUntouched() throws {
        let dir = try makeFolder()
        try FileManager.default.createDirectory(atPath: dir + "/victim", withIntermediateDirectories: true)
        try Harness.write("precious", to: dir + "/victim/f")
        for input in ["ok.rt", "bad.rt"] {
            let result = try Harness.typeset([input, "-o", "victim"], cwd: dir)
            XCTAssertEqual(result.status, 1, result.stderr)
            XCTAssertEqual(try String(contentsOfFile: dir + "/victim/f", encoding: .utf8), "precious")
        }
    }

    func testOutputThatIsTheInputIsRefused() throws {
        let dir = try makeFolder()
        for input in ["ok.rt", "bad.rt"] {
            let before = try String(contentsOfFile: dir + "/" + input, encoding: .utf8)
            let result = try Harness.typeset([input, "-o", input], cwd: dir)
            XCTAssertNotEqual(result.status, 0)
            XCTAssertEqual(try String(contentsOfFile: dir + "/" + input, encoding: .utf8), before, "\(input) was changed")
        }
    }

    func testDevicesAreWrittenIntoNotReplaced() throws {
        let dir = try makeFolder()
        XCTAssertEqual(try Harness.typeset(["ok.rt", "-o", "/dev/null"], cwd: dir).status, 0)
        XCTAssertEqual(try Harness.typeset(["bad.rt", "-o", "/dev/null"], cwd: dir).status, 1)
        let attributes = try FileManager.default.attributesOfItem(atPath: "/dev/null")
        XCTAssertEqual(attributes[.type] as? FileAttributeType, .typeCharacterSpecial, "/dev/null was replaced")
    }

    func testOnlyOurOwnStaleOutputIsRemoved() throws {
        let dir = try makeFolder()
        try Harness.write("not a PDF at all", to: dir + "/notes.pdf")
        XCTAssertEqual(try Harness.typeset(["bad.rt", "-o", "notes.pdf"], cwd: dir).status, 1)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/notes.pdf"), "a file typeset did not write was deleted")
        XCTAssertEqual(try Harness.typeset(["ok.rt", "-o", "ours.pdf"], cwd: dir).status, 0)
        XCTAssertEqual(try Harness.typeset(["bad.rt", "-o", "ours.pdf"], cwd: dir).status, 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/ours.pdf"), "a stale PDF of ours was left")
    }
}

final class PDFValidityTests: XCTestCase {
    /// The same image twice on one page: still one image object, and a PDF that `qpdf --check` accepts.
    func testRepeatedImageOnAPageIsValidAndStoredOnce() throws {
        let dir = try Harness.scratch()
        let icon = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples/check-icon.png").path
        try FileManager.default.copyItem(atPath: icon, toPath: dir + "/i.png")
        try Harness.write("One ![a](i.png) two ![b](i.png) three ![c](i.png).\n", to: dir + "/doc.rt")
        XCTAssertEqual(try Harness.typeset(["doc.rt"], cwd: dir).status, 0)
        let check = try Harness.run("qpdf", ["--check", dir + "/doc.pdf"])
        XCTAssertEqual(check.status, 0, String(decoding: check.stdout, as: UTF8.self) + check.stderr)
        let rows = try PDF.tool("pdfimages", ["-list", dir + "/doc.pdf"]).split(separator: "\n").dropFirst(2)
            .map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        let list = rows.filter { $0[2] == "image" }  // the alpha channel is listed as its own "smask" row
        XCTAssertEqual(list.count, 3, "three uses")
        let objects = Set(list.map { $0[10] })
        XCTAssertEqual(objects.count, 1, "one stored image")
    }
}
