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
