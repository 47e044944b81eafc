// Start-up (issue 14): what a build does before its first page without Foundation's heavier paths gives the
// same answers as those paths did. Counted and compared, not timed.

import CMalloc
import Foundation
import TypesetKit
import XCTest

final class StartUpTests: XCTestCase {
    /// `--jobs`' default reads the affinity mask and the cgroup quota itself (CoreCount.swift): it must agree
    /// with Foundation's activeProcessorCount, which it replaces.
    func testCoreCountAgreesWithFoundation() {
        XCTAssertEqual(TypesetRequest.coreCount, max(ProcessInfo.processInfo.activeProcessorCount, 1))
    }

    /// The malloc tuning MallocArenas applies reaches glibc (Sources/CMalloc): `mallopt` answers 1 when it takes
    /// a setting. A wrapper that tested for glibc before any header defined `__GLIBC__` compiled to nothing, and
    /// the 8 MB reference-link input peaked 55 MB higher without its trims.
    func testMallocTuningReachesGlibc() {
        let trimThreshold: Int32 = -1  // M_TRIM_THRESHOLD
        XCTAssertEqual(typeset_mallopt(trimThreshold, 256 << 10), 1)
    }
}
