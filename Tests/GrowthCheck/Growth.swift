// Shared by the unit test targets (a small target of its own: test targets cannot share a file).
// Complexity checks without a wall-clock budget (a loaded 2-core CI machine makes any budget flaky): the same
// work on an input of size n and 4n, timed in one test (again when the ratio looks bad). Linear work takes about 4 times as
// long, quadratic 16; the check fails only past `maxRatio`, and only when every attempt agrees.

import Foundation
import XCTest

public enum Growth {
    public static let maxRatio = 10.0

    public static func seconds(_ body: () -> Void) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    /// Runs `work(size)` and `work(4 * size)`; fails when the larger is more than `maxRatio` times slower in
    /// each of three attempts. A large run too quick to time reliably (under 50 ms) needs no ratio.
    public static func assertLinear(_ name: String, size: Int, file: StaticString = #filePath, line: UInt = #line,
                             _ work: (Int) -> Void) {
        guard let ratios = ratios(size: size, work) else { return }
        XCTFail("\(name): 4x the input took \(ratios.map { String(format: "%.1f", $0) }) times as long (linear is about 4)",
                file: file, line: line)
    }

    /// The ratios measured when every attempt was over `maxRatio`; nil when one was not (or too quick to time).
    public static func ratios(size: Int, attempts: Int = 3, _ work: (Int) -> Void) -> [Double]? {
        var ratios: [Double] = []
        for _ in 0 ..< attempts {
            let large = seconds { work(4 * size) }
            if large < 0.05 { return nil }
            let ratio = large / max(seconds { work(size) }, 1e-4)
            if ratio <= maxRatio { return nil }
            ratios.append(ratio)   // perhaps a burst of load: measure again
        }
        return ratios
    }
}
