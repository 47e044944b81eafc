// `--watch` compares its inputs with their stamps from before each build read them: a save that lands while a
// build runs is a change the next poll sees (WatchedInputs.swift).

import Foundation
import TypesetKit
import XCTest

final class WatchedInputsTests: XCTestCase {
    private var dir = ""

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("watched-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    private func write(_ text: String, _ name: String) throws -> String {
        let path = dir + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// An editor that truncates and writes: the build reads the first half, the rest lands before the build ends.
    func testASaveThatLandsDuringTheBuildIsSeenByTheNextPoll() throws {
        let doc = try write("Hello.\n", "doc.rt")
        var inputs = WatchedInputs([doc])
        inputs.record {
            _ = try? write("Hello, half", "doc.rt")  // read by the build
            _ = try? write("Hello, half and the rest.\n", "doc.rt")  // written while the build goes on
            return [doc]
        }
        XCTAssertTrue(inputs.changed(), "the build read a file that changed after: it must be built again")
        inputs.record { [doc] }
        XCTAssertFalse(inputs.changed())
    }

    func testNothingChangedNothingToDoThenAnEditIsSeen() throws {
        let doc = try write("Hello.\n", "doc.rt")
        var inputs = WatchedInputs([doc])
        inputs.record { [doc] }
        XCTAssertFalse(inputs.changed())
        _ = try write("Hello again.\n", "doc.rt")
        XCTAssertTrue(inputs.changed())
    }

    /// A file the build finds (an include) is watched from then on; one it no longer reads is not.
    func testFilesTheBuildReadAreTheOnesWatched() throws {
        let doc = try write("@include part.rt\n", "doc.rt")
        let part = try write("Part.\n", "part.rt")
        var inputs = WatchedInputs([doc])
        inputs.record { [doc, part] }
        XCTAssertEqual(Set(inputs.files), [doc, part])
        XCTAssertFalse(inputs.changed())
        _ = try write("Part, edited.\n", "part.rt")
        XCTAssertTrue(inputs.changed())
        inputs.record { [doc] }
        _ = try write("Part, edited again.\n", "part.rt")
        XCTAssertFalse(inputs.changed())
    }

    /// Replaced by a rename (how many editors save), and deleted: both are changes.
    func testARenamedOrDeletedFileIsAChange() throws {
        let doc = try write("Hello.\n", "doc.rt")
        var inputs = WatchedInputs([doc])
        inputs.record { [doc] }
        let other = try write("Hello.\n", "new.rt")
        XCTAssertEqual(rename(other, doc), 0)
        XCTAssertTrue(inputs.changed(), "same bytes, another file (inode)")
        inputs.record { [doc] }
        XCTAssertEqual(unlink(doc), 0)
        XCTAssertTrue(inputs.changed())
    }
}
