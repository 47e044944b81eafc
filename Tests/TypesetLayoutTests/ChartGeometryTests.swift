// Chart geometry without Pango or Cairo: round ticks (1-2-5 steps), bars proportional to their values on a
// zero-based axis, grouped and stacked bars, labels that never collide, a legend only for several series.

import XCTest
import RTSyntax
import TypesetIR
@testable import TypesetLayout

final class ChartGeometryTests: XCTestCase {
    /// A fixed-pitch stand-in for Pango: 5 pt per character, 10 pt high.
    let measure: ChartGeometry.Measure = { text, _ in (Double(text.count) * 5, 10) }

    private func spec(_ kind: ChartKind, _ categories: [String], _ series: [[Double]], stacked: Bool = false) -> ChartSpec {
        let names = series.indices.map { "s\($0)" }
        return ChartSpec(kind: kind, table: ChartTable(categories: categories, seriesNames: names, seriesValues: series), stacked: stacked)
    }

    // MARK: Ticks

    func testTicksAreRoundAndCoverTheData() {
        XCTAssertEqual(ChartTicks(low: 0, high: 25.6, maxCount: 8).values, [0, 5, 10, 15, 20, 25, 30])
        XCTAssertEqual(ChartTicks(low: 0, high: 1, maxCount: 6).values, [0, 0.2, 0.4, 0.6, 0.8, 1])
        XCTAssertEqual(ChartTicks(low: -3, high: 7, maxCount: 6).values, [-5, 0, 5, 10])
        XCTAssertEqual(ChartTicks(low: 0, high: 0, maxCount: 5).values, [0, 0.5, 1])
        XCTAssertEqual(ChartTicks(low: 1200, high: 1800, maxCount: 5).values, [1200, 1400, 1600, 1800])
        let small = ChartTicks(low: 0.013, high: 0.087, maxCount: 5)
        XCTAssertEqual(small.values, [0, 0.05, 0.1])
        XCTAssertEqual(small.values.map(small.label), ["0.00", "0.05", "0.10"])
        XCTAssertEqual(ChartTicks(low: 0, high: 3, maxCount: 8, wholeNumbers: true).values, [0, 1, 2, 3], "counts step by whole numbers")
        XCTAssertEqual(ChartTicks(low: 0, high: 3, maxCount: 8).values, [0, 0.5, 1, 1.5, 2, 2.5, 3])
        let whole = ChartTicks(low: 0, high: 40, maxCount: 5)
        XCTAssertEqual(whole.values.map(whole.label), ["0", "10", "20", "30", "40"])
    }

    func testEveryStepIsOneTwoOrFiveTimesAPowerOfTen() {
        var generator = SplitMix(state: 12)   // seeded: a failure can be replayed
        for _ in 0 ..< 2000 {
            let a = Double.random(in: -1e6 ... 1e6, using: &generator) / pow(10, Double(Int.random(in: 0 ... 8, using: &generator)))
            let b = a + Double.random(in: 1e-3 ... 1e5, using: &generator)
            let maxCount = Int.random(in: 2 ... 12, using: &generator)
            let t = ChartTicks(low: a, high: b, maxCount: maxCount)
            let mantissa = t.step / pow(10, log10(t.step).rounded(.down))
            XCTAssertTrue([1, 2, 5, 10].contains { abs(mantissa - Double($0)) < 1e-6 }, "step \(t.step) for \(a)...\(b)")
            XCTAssertLessThanOrEqual(t.values.count, maxCount + 1, "\(a)...\(b) max \(maxCount): \(t.values)")
            XCTAssertLessThanOrEqual(t.lower, a + t.step * 1e-6, "\(a)...\(b): \(t.values)")
            XCTAssertGreaterThanOrEqual(t.upper, b - t.step * 1e-6, "\(a)...\(b): \(t.values)")
        }
    }

    // MARK: Bars

    func testBarHeightsAreProportionalToValuesOnAZeroBasedAxis() {
        let values = [3.2, 12.9, 25.6, 1.4]
        let g = ChartGeometry(spec: spec(.bar, ["a", "b", "c", "d"], [values]), width: 400, height: 160, measure: measure)
        XCTAssertEqual(g.ticks.lower, 0)
        XCTAssertEqual(g.bars.count, 4)
        let perUnit = g.plotHeight / (g.ticks.upper - g.ticks.lower)
        for bar in g.bars {
            XCTAssertEqual(bar.height, values[bar.category] * perUnit, accuracy: 1e-9)
            XCTAssertEqual(bar.y + bar.height, g.valueY(0), accuracy: 1e-9, "bars stand on zero")
            XCTAssertGreaterThanOrEqual(bar.x, g.plotX)
            XCTAssertLessThanOrEqual(bar.x + bar.width, g.plotX + g.plotWidth + 1e-9)
        }
        XCTAssertTrue(g.swatches.isEmpty, "no legend for one series")
    }

    func testNegativeValuesHangBelowZero() {
        let g = ChartGeometry(spec: spec(.bar, ["a", "b"], [[4, -2]]), width: 300, height: 150, measure: measure)
        XCTAssertLessThan(g.ticks.lower, 0)
        let negative = g.bars[1]
        XCTAssertEqual(negative.y, g.valueY(0), accuracy: 1e-9)
        XCTAssertEqual(negative.height, g.valueY(-2) - g.valueY(0), accuracy: 1e-9)
    }

    func testGroupedBarsSitSideBySideAndStackedBarsPileUp() {
        let series: [[Double]] = [[5, 7, 9], [1, 2, 0], [3, 3, 3]]
        let grouped = ChartGeometry(spec: spec(.bar, ["x", "y", "z"], series), width: 360, height: 180, measure: measure)
        XCTAssertEqual(grouped.bars.count, 9)
        for category in 0 ..< 3 {
            let group = grouped.bars.filter { $0.category == category }.sorted { $0.x < $1.x }
            XCTAssertEqual(group.map(\.series), [0, 1, 2])
            for (a, b) in zip(group, group.dropFirst()) { XCTAssertLessThanOrEqual(a.x + a.width, b.x + 1e-9, "bars overlap") }
        }
        XCTAssertEqual(grouped.swatches.count, 3, "a legend entry per series")
        XCTAssertEqual(grouped.texts.filter { $0.role == .legend }.map(\.string), ["s0", "s1", "s2"])

        let stacked = ChartGeometry(spec: spec(.bar, ["x", "y", "z"], series, stacked: true), width: 360, height: 180, measure: measure)
        XCTAssertEqual(stacked.ticks.lower, 0)
        XCTAssertGreaterThanOrEqual(stacked.ticks.upper, 12)
        let perUnit = stacked.plotHeight / (stacked.ticks.upper - stacked.ticks.lower)
        for category in 0 ..< 3 {
            let pile = stacked.bars.filter { $0.category == category }.sorted { $0.series < $1.series }
            XCTAssertEqual(pile.first.map { $0.y + $0.height } ?? 0, stacked.valueY(0), accuracy: 1e-9)
            for (lower, upper) in zip(pile, pile.dropFirst()) { XCTAssertEqual(upper.y + upper.height, lower.y, accuracy: 1e-9) }
            let total = series.reduce(0) { $0 + $1[category] }
            XCTAssertEqual(pile.reduce(0) { $0 + $1.height }, total * perUnit, accuracy: 1e-9)
            XCTAssertEqual(Set(pile.map(\.x)).count, 1, "one column per category")
        }
    }

    // MARK: Labels

    /// Horizontal extents of the shown category labels, by anchor.
    private func labelSpans(_ g: ChartGeometry) -> [(Double, Double)] {
        g.texts.filter { $0.role == .category }.map { t in
            let w = Double(t.string.count) * 5
            return (t.x - w / 2, t.x + w / 2)
        }
    }

    func testShortLabelsStayHorizontalWithoutOverlap() {
        let g = ChartGeometry(spec: spec(.bar, ["a", "bb", "ccc"], [[1, 2, 3]]), width: 300, height: 120, measure: measure)
        XCTAssertEqual(g.labels, .horizontal)
        let spans = labelSpans(g)
        XCTAssertEqual(spans.count, 3)
        for (a, b) in zip(spans, spans.dropFirst()) { XCTAssertLessThan(a.1, b.0) }
    }

    func testCrowdedLabelsTurnAndThinOut() {
        let names = (1 ... 12).map { "suite\($0)" }
        let turned = ChartGeometry(spec: spec(.line, names, [names.indices.map(Double.init)]), width: 300, height: 150, measure: measure)
        XCTAssertEqual(turned.labels, .turned)
        XCTAssertTrue(turned.texts.filter { $0.role == .category }.allSatisfy { $0.angle > 0 })
        XCTAssertEqual(turned.texts.filter { $0.role == .category }.count, 12)

        let many = (1 ... 120).map { "build \($0)" }
        let thinned = ChartGeometry(spec: spec(.line, many, [many.indices.map(Double.init)]), width: 300, height: 150, measure: measure)
        guard case .thinned(let every) = thinned.labels else { return XCTFail("\(thinned.labels)") }
        let shown = thinned.texts.filter { $0.role == .category }
        XCTAssertEqual(shown.count, (120 + every - 1) / every)
        // Turned labels are lineHeight (10) apart or more, measured across their slant.
        let xs = shown.map(\.x)
        for (a, b) in zip(xs, xs.dropFirst()) { XCTAssertGreaterThanOrEqual((b - a) * 0.7071, 10) }
        // Every label lies inside the chart's box.
        for t in shown { XCTAssertGreaterThanOrEqual(t.x - (Double(t.string.count) * 5 + 5) * 0.7071, -1e-6) }
    }

    func testABarChartWithLongLabelsBecomesHorizontalBars() {
        let names = ["testOneMegabyteParagraphLayout", "testVariablesAndSectionsExpand", "testKeepWithNextAcrossColumns"]
        let g = ChartGeometry(spec: spec(.bar, names, [[1.2, 0.3, 2.5]]), width: 300, height: 120, measure: measure)
        XCTAssertEqual(g.kind, .hbar)
        let labels = g.texts.filter { $0.role == .category }
        XCTAssertEqual(labels.count, 3)
        XCTAssertTrue(labels.allSatisfy { $0.angle == 0 && $0.x <= g.plotX })
        // Horizontal bars: width proportional to value.
        let perUnit = g.plotWidth / (g.ticks.upper - g.ticks.lower)
        for bar in g.bars { XCTAssertEqual(bar.width, [1.2, 0.3, 2.5][bar.category] * perUnit, accuracy: 1e-9) }
    }

    func testTitleIsAboveThePlot() {
        var s = spec(.bar, ["a", "b"], [[1, 2]])
        s.title = "Slowest tests"
        let g = ChartGeometry(spec: s, width: 300, height: 120, measure: measure)
        let title = g.texts.first { $0.role == .title }
        XCTAssertEqual(title?.x, 150)
        XCTAssertLessThan((title?.y ?? .infinity) + 10, g.plotY)
    }
}

/// A small seeded generator (SplitMix64).
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
