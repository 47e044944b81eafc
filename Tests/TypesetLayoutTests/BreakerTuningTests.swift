@testable import TypesetLayout
import XCTest

/// TYPESET_BREAKER: the overrides Benchmarks/hyphen_tradeoff.py sweeps, parsed and clamped.
final class BreakerTuningTests: XCTestCase {
    func testParsesKnownKeysAndReportsTheRest() {
        let parsed = BreakerTuning.parse("hyphen-penalty=1500, tolerance=3000 space-shrink=5 tolerance=x bogus=1 word")
        XCTAssertEqual(parsed.values["hyphen-penalty"], 1500)
        XCTAssertEqual(parsed.values["tolerance"], 3000)
        XCTAssertEqual(parsed.values["space-shrink"], 0.9)  // clamped: spaces never vanish
        XCTAssertEqual(parsed.values.count, 3)
        XCTAssertEqual(parsed.unknown, ["tolerance=x", "bogus=1", "word"])
    }

    func testNonFiniteValuesAreRejected() {
        let parsed = BreakerTuning.parse("tolerance=inf hyphen-penalty=nan")
        XCTAssertTrue(parsed.values.isEmpty)
        XCTAssertEqual(parsed.unknown.count, 2)
    }

    func testWithoutOverridesTheBreakerKeepsItsDefaults() throws {
        try XCTSkipIf(!BreakerTuning.overrides.isEmpty, "TYPESET_BREAKER is set")
        var breaker = TotalFitBreaker()
        BreakerTuning.apply(to: &breaker)
        XCTAssertEqual(breaker.tolerance, TotalFitBreaker().tolerance)
        XCTAssertEqual(TotalFitLines.hyphenPenalty, 350)
    }
}
