// Locations keep their file as a number (SourceFiles.swift): what a reader sees of a location, its file, line
// and column, equality and hashing, must be what it was with the name stored in each location.

import Dispatch
import XCTest
@testable import RTSyntax

final class SourceFilesTests: XCTestCase {
    func testLocationsGiveBackTheirFileName() {
        let names = ["doc.rt", "chapters/one.rt", "<stdin>", "", "dir with spaces/ü.rt", "a:b.rt"]
        for name in names {
            let at = SourceLocation(file: name, line: 3, column: 7)
            XCTAssertEqual(at.file, name)
            XCTAssertEqual(at.description, "\(name):3:7")
        }
        var moved = SourceLocation(file: "first.rt", line: 1, column: 1)
        moved.file = "second.rt"
        XCTAssertEqual(moved.file, "second.rt")
        XCTAssertEqual(moved, SourceLocation(file: "second.rt", line: 1, column: 1))
    }

    func testEqualityAndHashingFollowTheName() {
        let a = SourceLocation(file: "same.rt", line: 2, column: 4)
        let b = SourceLocation(file: String("same.rt".reversed().reversed()), line: 2, column: 4)
        XCTAssertEqual(a, b)
        XCTAssertEqual(Set([a, b]).count, 1)
        XCTAssertNotEqual(a, SourceLocation(file: "other.rt", line: 2, column: 4))
        XCTAssertNotEqual(a, SourceLocation(file: "same.rt", line: 2, column: 5))
    }

    /// The parser's locations (made from the file's number) equal those made from the name, and name the file.
    func testParsedNodesNameTheirFile() throws {
        let result = RTParser.parse(Array("# Title\n\nSome *text* here.\n".utf8), file: "parsed-file.rt")
        let blocks = result.document.blocks
        XCTAssertEqual(blocks.count, 2)
        XCTAssertEqual(blocks[1].range.start, SourceLocation(file: "parsed-file.rt", line: 3, column: 1))
        XCTAssertEqual(blocks[1].range.start.file, "parsed-file.rt")
    }

    /// Threads that number names at once agree on every number, and no name is lost.
    func testNumberingFromManyThreadsAgrees() {
        let names = (0..<200).map { "threaded-\($0).rt" }
        let results = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: 4 * names.count)
        defer { results.deallocate() }
        nonisolated(unsafe) let base = results.baseAddress!
        DispatchQueue.concurrentPerform(iterations: 4) { t in
            for k in names.indices {
                let index = (k + 37 * t) % names.count
                (base + t * names.count + index).pointee = SourceFiles.number(names[index])
            }
        }
        for k in names.indices {
            let first = results[k]
            for t in 1..<4 { XCTAssertEqual(results[t * names.count + k], first, names[k]) }
            XCTAssertEqual(SourceFiles.name(first), names[k])
        }
        XCTAssertEqual(Set(names.indices.map { results[$0] }).count, names.count)
    }
}
