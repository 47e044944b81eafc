@testable import TypesetIR
import XCTest

/// The shared-value tables live for the process; `Lowering.releaseSharedValues` lets a lowered document's go.
final class SharedValuesTests: XCTestCase {
    func testReleasedTablesShareAgainFromEmpty() {
        var attributes = CharacterAttributes()
        attributes.fontSize = 13.25
        let first = Shared.of(attributes)
        XCTAssertTrue(Shared.of(attributes) === first, "equal values share one copy while the table holds it")
        Lowering.releaseSharedValues()
        let second = Shared.of(attributes)
        XCTAssertFalse(second === first, "the table let go of its copy")
        XCTAssertEqual(second, first, "a copy that is not shared is still equal")
        XCTAssertTrue(Shared.of(attributes) === second, "and the table fills again")
    }
}
