// Inputs libFuzzer found (scripts/fuzz.sh), kept in Tests/Fixtures/found so they stay fixed.

import Foundation
import XCTest
@testable import RTSyntax

final class ParserFindingsTests: XCTestCase {
    private func fixture(_ name: String) throws -> [UInt8] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/found/" + name)
        return [UInt8](try Data(contentsOf: url))
    }

    /// Thousands of unclosed `::: n` lines repeated by sections: each nested div copied all the lines below
    /// it (100 levels x the document). With a one-item list the document stays small; the fuzzer's two-item
    /// list doubles it per section, which is the expansion bound's business. Every unclosed div is an error
    /// at its opener, and the work stays proportional to the text parsed.
    func testUnclosedDivOpenersInSections() throws {
        let data = DataValue.map([DataEntry(key: "xs", value: .list([.text("1")]))])
        let options = ParseOptions(expansion: ExpansionOptions(data: data, allowUndefined: true))
        let result = RTParser.parse(try fixture("div-openers-in-sections.rt"), file: "found.rt", options: options)
        let unclosed = result.diagnostics.filter { $0.message.hasPrefix("unclosed div") }
        XCTAssertFalse(unclosed.isEmpty)
        XCTAssertTrue(unclosed.allSatisfy { $0.location.map { $0.line >= 1 && $0.column >= 1 } ?? false })
        XCTAssertLessThan(result.parseSteps, 40 * max(result.parsedBytes, 1000))
    }
}
