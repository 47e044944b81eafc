// Two engines (the paginating thread's and a worker's) measuring fonts at the same time must both get whole
// metrics: Pango 1.50 guards the measuring with one process-wide flag, and the loser kept an approximate
// character width of 0, which changes where Pango's breaker breaks inside a word (`--jobs 2` then differed from
// `--jobs 1`). FontMetricsGuard.swift serialises the measuring.

import CPangoCairo
import Foundation
@testable import TypesetLayout
import XCTest

final class FontMetricsRaceTests: XCTestCase {
    /// Loads `count` fonts new to `engine` (sizes no other test uses) and measures each; returns how many came
    /// back without an approximate character width.
    private static func measureFreshFonts(_ engine: LayoutEngine, sizeBase: Double, count: Int) -> Int {
        var widthless = 0
        let language = pango_language_from_string("ar")
        for i in 0..<count {
            guard let description = pango_font_description_from_string("DejaVu Sans") else { continue }
            defer { pango_font_description_free(description) }
            pango_font_description_set_absolute_size(description, (sizeBase + Double(i) * 0.01) * pangoScale)
            guard let font = pango_font_map_load_font(engine.fontMap, engine.context, description) else { continue }
            defer { g_object_unref(UnsafeMutableRawPointer(font)) }
            guard let metrics = pango_font_get_metrics(font, language) else { continue }
            if pango_font_metrics_get_approximate_char_width(metrics) <= 0 { widthless += 1 }
            pango_font_metrics_unref(metrics)
        }
        return widthless
    }

    func testFontsMeasuredOnTwoThreadsAtOnceGetTheirWholeMetrics() {
        let count = 150
        let engines = [LayoutEngine(), LayoutEngine()]
        let start = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        let results = Counts()
        for k in 0..<2 {
            done.enter()
            Thread {
                start.wait()
                let widthless = FontMetricsRaceTests.measureFreshFonts(engines[k], sizeBase: 31.0 + Double(k) * 3,
                                                                    count: count)
                results.add(widthless)
                done.leave()
            }.start()
        }
        start.signal()
        start.signal()
        done.wait()
        XCTAssertEqual(results.total, 0, "\(results.total) of \(2 * count) fonts were measured without a character width")
    }

    private final class Counts: @unchecked Sendable {
        private let lock = NSLock()
        private var sum = 0
        func add(_ n: Int) { lock.lock(); sum += n; lock.unlock() }
        var total: Int { lock.lock(); defer { lock.unlock() }; return sum }
    }
}
