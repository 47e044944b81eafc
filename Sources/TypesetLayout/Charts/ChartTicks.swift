// Round tick values for a chart's value axis: steps of 1, 2 or 5 times a power of ten, covering the data.

import Foundation

public struct ChartTicks: Equatable, Sendable {
    public var values: [Double]
    public var step: Double
    public var lower: Double { values.first ?? 0 }
    public var upper: Double { values.last ?? 1 }

    /// At most `maxCount` ticks (at least 2) from a round value at or below `low` to one at or above `high`.
    /// `low == high` widens to a unit range (or to [0, 1] at zero). `wholeNumbers` (counts) keeps steps >= 1.
    public init(low: Double, high: Double, maxCount: Int, wholeNumbers: Bool = false) {
        var lo = min(low, high), hi = max(low, high)
        if !(lo.isFinite && hi.isFinite && (hi - lo).isFinite) { lo = 0; hi = 1 }  // data is bounded; this is a guard
        if hi - lo < 1e-12 * max(abs(hi), 1) {
            if lo == 0 { hi = 1 } else if lo > 0 { lo = 0 } else { hi = 0 }
        }
        let count = max(maxCount, 2)
        let raw = (hi - lo) / Double(count - 1)
        let magnitude = pow(10, (log10(raw)).rounded(.down))
        var step = 10 * magnitude
        var first = 0.0, last = 0.0
        for factor in [1.0, 2.0, 5.0, 10.0, 20.0] {
            let candidate = factor * magnitude
            if wholeNumbers && candidate < 1 { continue }
            let f = (lo / candidate + 1e-9).rounded(.down), l = (hi / candidate - 1e-9).rounded(.up)
            if l - f + 1 <= Double(count) { step = candidate; first = f; last = l; break }
        }
        if first == 0 && last == 0 {  // no factor fitted (not reached for finite input): two ticks around the data
            first = (lo / step).rounded(.down); last = max(first + 1, (hi / step).rounded(.up))
        }
        self.step = step
        values = stride(from: first, through: last + 0.5, by: 1).map { ($0 * step).cleaned }
    }

    /// Tick labels with as many decimals as the step needs (`0.25` steps: two).
    public func label(_ v: Double) -> String {
        guard step >= 1e-6, step.isFinite, abs(v) < 1e15 else { return String(format: "%g", v) }
        let decimals = max(0, Int((-log10(step) + 0.999_999).rounded(.down)))
        let text = String(format: "%.\(decimals)f", v)
        return text.hasPrefix("-") && Double(text) == 0 ? String(text.dropFirst()) : text
    }
}

/// `x` rounded up as a count in 1...limit (a non-finite or huge `x` is `limit`): no trap on any input.
func chartCount(_ x: Double, limit: Int) -> Int {
    guard x.isFinite else { return limit }
    return Int(min(max(x.rounded(.up), 1), Double(limit)))
}

extension Double {
    /// Removes binary noise from a multiple of a round step (0.30000000000000004 -> 0.3).
    var cleaned: Double { Double(String(format: "%.12g", self)) ?? self }
}
