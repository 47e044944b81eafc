// The parts of ChartGeometry beyond vertical charts: the `hbar` layout and the legend rows.

import Foundation
import TypesetIR

extension ChartGeometry {
    /// Categories down the left (horizontal labels, cut at 40% of the width), values along the bottom.
    mutating func horizontal(top: Double) {
        kind = .hbar
        labels = .horizontal
        let lineHeight = max(measure("0", .tick).height, 1)
        let bottom = lineHeight + Self.gap
        plotY = top
        plotHeight = max(height - top - bottom, 10)
        let slot = plotHeight / Double(count)
        let room = 0.4 * width
        let every = chartCount(lineHeight * 1.1 / slot, limit: max(count, 1))
        if every > 1 { labels = .thinned(every: every) }
        var shown = categories
        for i in stride(from: 0, to: count, by: every) { shown[i] = truncate(shown[i], to: room) }
        plotX = min(widestLabel(shown), room) + Self.gap + 2
        let (lo, hi) = valueRange
        var maxCount = 6
        for _ in 0 ..< 2 {  // tick count from the tick labels' width, which depends on the ticks
            ticks = ChartTicks(low: lo, high: hi, maxCount: maxCount, wholeNumbers: wholeNumbers)
            let widest = ticks.values.map { measure(ticks.label($0), .tick).width }.max() ?? 10
            plotWidth = max(width - plotX - widest / 2 - 2, 10)
            maxCount = max(2, chartCount((plotWidth / (widest + 24)).rounded(.down) + 1, limit: 8))
        }
        ticks = ChartTicks(low: lo, high: hi, maxCount: maxCount, wholeNumbers: wholeNumbers)
        let plotBottom = plotY + plotHeight
        for t in ticks.values {
            let x = valueX(t)
            grid.append(Stroke(points: [(x, plotY), (x, plotBottom)], color: Self.gridColor, width: 0.5))
            texts.append(Text(string: ticks.label(t), role: .tick, x: x, y: plotBottom + 3, horizontal: .middle, vertical: .start))
        }
        let zero = valueX(0)
        axes.append(Stroke(points: [(zero, plotY), (zero, plotBottom)], color: .black, width: 0.8))
        for i in stride(from: 0, to: count, by: every) {
            texts.append(Text(string: shown[i], role: .category, x: plotX - Self.gap - 2, y: plotY + (Double(i) + 0.5) * slot,
                              horizontal: .end, vertical: .middle))
        }
        drawBars(slot: slot, along: true)
    }

    /// One swatch and name per series, in centred rows under `top`; returns the y below the legend.
    mutating func legend(below top: Double) -> Double {
        let swatch = 8.0, spacing = 12.0
        let entries = spec.table.seriesNames.map { ($0, measure($0, .legend)) }
        let lineHeight = entries.map(\.1.height).max() ?? 10
        var rows: [[(String, Double)]] = [[]]
        var rowWidth = 0.0
        for (name, size) in entries {
            let w = swatch + 3 + size.width
            if !rows[rows.count - 1].isEmpty && rowWidth + spacing + w > width {
                rows.append([]); rowWidth = 0
            }
            rowWidth += (rows[rows.count - 1].isEmpty ? 0 : spacing) + w
            rows[rows.count - 1].append((name, size.width))
        }
        var y = top
        var series = 0
        for row in rows {
            let total = row.reduce(0) { $0 + swatch + 3 + $1.1 } + spacing * Double(row.count - 1)
            var x = max((width - total) / 2, 0)
            for (name, textWidth) in row {
                let height = kind == .line ? 2.5 : swatch
                swatches.append(Box(x: x, y: y + (lineHeight - height) / 2, width: swatch, height: height, color: color(series)))
                texts.append(Text(string: name, role: .legend, x: x + swatch + 3, y: y + lineHeight / 2, horizontal: .start, vertical: .middle))
                x += swatch + 3 + textWidth + spacing
                series += 1
            }
            y += lineHeight + 2
        }
        return y + Self.gap
    }
}
