// Start-up (issue 14): what a build does before its first page without Foundation's heavier paths gives the
// same answers as those paths did. Counted and compared, not timed.

import Foundation
import TypesetKit
import XCTest

final class StartUpTests: XCTestCase {
    /// `--jobs`' default reads the affinity mask and the cgroup quota itself (CoreCount.swift): it must agree
    /// with Foundation's activeProcessorCount, which it replaces.
    func testCoreCountAgreesWithFoundation() {
        XCTAssertEqual(TypesetRequest.coreCount, max(ProcessInfo.processInfo.activeProcessorCount, 1))
    }
}
