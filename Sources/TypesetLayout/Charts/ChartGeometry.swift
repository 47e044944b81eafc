// A chart's drawing as plain geometry (points, origin top-left of the chart's box, y down): bars, lines, grid,
// axes, legend swatches and text positions. Pure Swift: text sizes come from a `measure` function, so the
// placement rules (round ticks, labels that never collide, legend rows) are testable without Pango or Cairo.
//
// Category labels: horizontal when the widest fits its slot; else turned 45 degrees; when even turned ones
// would touch, only every k-th is shown. A bar chart whose turned labels would take more than 40% of its
// height is drawn as `hbar` instead (labels then read horizontally at the left).

import Foundation
import TypesetIR

public struct ChartGeometry {
    public enum Anchor: Sendable { case start, middle, end }
    public enum TextRole: Sendable { case title, tick, category, legend }

    public struct Text: Sendable {
        public var string: String
        public var role: TextRole
        /// The anchor point; `horizontal`/`vertical` say which point of the text's box sits there (before turning).
        public var x: Double, y: Double
        public var horizontal: Anchor, vertical: Anchor
        /// Radians, counter-clockwise on the page (the text reads upwards).
        public var angle: Double = 0
    }

    public struct Box: Sendable {
        public var x: Double, y: Double, width: Double, height: Double
        public var color: Color
        /// Series and category of a bar; -1 for legend swatches.
        public var series = -1, category = -1
    }

    public struct Stroke: Sendable {
        public var points: [(x: Double, y: Double)]
        public var color: Color
        public var width: Double
    }

    public struct Dot: Sendable { public var x: Double, y: Double, radius: Double, color: Color }

    public enum LabelPlacement: Equatable, Sendable {
        case horizontal, turned
        /// Turned, and only every `every`-th label shown.
        case thinned(every: Int)
    }

    /// Width and height of `string` set in `role`'s font, points.
    public typealias Measure = (String, TextRole) -> (width: Double, height: Double)

    public let width: Double, height: Double
    /// The kind drawn: `hbar` when a bar chart's labels asked for it.
    public internal(set) var kind: ChartKind
    public internal(set) var labels: LabelPlacement = .horizontal
    public internal(set) var ticks = ChartTicks(low: 0, high: 1, maxCount: 2)
    /// The plotting area (inside the axes).
    public internal(set) var plotX = 0.0, plotY = 0.0, plotWidth = 0.0, plotHeight = 0.0
    public internal(set) var bars: [Box] = []
    public internal(set) var swatches: [Box] = []
    public internal(set) var grid: [Stroke] = []
    public internal(set) var axes: [Stroke] = []
    public internal(set) var lines: [Stroke] = []
    public internal(set) var dots: [Dot] = []
    public internal(set) var texts: [Text] = []

    let spec: ChartSpec
    let measure: Measure
    static let gridColor = Color(red: 0.85, green: 0.85, blue: 0.85)
    static let gap = 4.0

    /// Font size of a role for a body size (the chart's text is the document's body font).
    public static func fontSize(_ role: TextRole, body: Double) -> Double {
        role == .title ? body * 1.1 : max(body * 0.85, 5)
    }

    public init(spec: ChartSpec, width: Double, height: Double, measure: @escaping Measure) {
        self.spec = spec
        self.measure = measure
        self.width = max(width, 20)
        self.height = max(height, 20)
        kind = spec.kind
        var top = 0.0
        if let title = spec.title {
            texts.append(Text(string: title, role: .title, x: self.width / 2, y: 0, horizontal: .middle, vertical: .start))
            top = measure(title, .title).height + Self.gap
        }
        if spec.table.seriesNames.count > 1 {
            top = legend(below: top)
        } else if let name = spec.table.seriesNames.first {
            // One series: its field name labels the values, above the plot's left edge.
            texts.append(Text(string: name, role: .tick, x: 0, y: top, horizontal: .start, vertical: .start))
            top += measure(name, .tick).height + Self.gap / 2
        }
        guard count > 0 else { return }
        if kind == .hbar || !vertical(top: top) {
            horizontal(top: top)
            // On horizontal bars the values run along the bottom: their name goes to the right end.
            if seriesCount == 1, let k = texts.firstIndex(where: { $0.role == .tick }) {
                texts[k].x = self.width
                texts[k].horizontal = .end
            }
        }
    }

    var count: Int { spec.table.categories.count }
    /// Labels as shown: a label of more than 100 characters is cut (the description keeps it whole).
    var categories: [String] { spec.table.categories.map { $0.count > 100 ? String($0.prefix(99)) + "…" : $0 } }
    var seriesCount: Int { spec.table.seriesNames.count }
    func color(_ series: Int) -> Color { spec.colors.isEmpty ? .black : spec.colors[series % spec.colors.count] }

    /// Lowest and highest value the axis must show: bars include zero; stacked bars go up to the highest sum.
    var valueRange: (Double, Double) {
        let values = spec.table.seriesValues
        var lo: Double, hi: Double
        if spec.stacked {
            let sums = (0 ..< count).map { i in values.reduce(0) { $0 + $1[i] } }
            lo = 0; hi = sums.max() ?? 1
        } else {
            lo = values.joined().min() ?? 0; hi = values.joined().max() ?? 1
        }
        if kind != .line { lo = min(lo, 0); hi = max(hi, 0) }
        return (lo, hi)
    }

    /// Every value is a whole number (counts): ticks step by 1 or more.
    var wholeNumbers: Bool { spec.table.seriesValues.joined().allSatisfy { $0 == $0.rounded() } }

    // MARK: - Vertical: bar and line

    /// Lays out a `bar` or `line` chart; false when a bar chart's labels need `hbar` instead.
    private mutating func vertical(top: Double) -> Bool {
        let lineHeight = max(measure("0", .tick).height, 1)
        let plotTop = top + lineHeight / 2
        var shown = categories
        let widest = widestLabel(shown), firstWidth = measure(shown[0], .category).width
        let (lo, hi) = valueRange
        var bottom = lineHeight + Self.gap, left = 0.0, slot = 1.0
        for _ in 0 ..< 2 {  // the bottom margin and the tick labels' width depend on each other once
            let plotH = max(height - plotTop - bottom, 10)
            ticks = ChartTicks(low: lo, high: hi, maxCount: max(2, chartCount((plotH / (lineHeight * 2)).rounded(.down) + 1, limit: 8)),
                               wholeNumbers: wholeNumbers)
            let tickWidth = ticks.values.map { measure(ticks.label($0), .tick).width }.max() ?? 0
            left = tickWidth + Self.gap + 3
            slot = max(width - left - 2, 10) / Double(count)
            if widest <= slot - Self.gap {
                labels = .horizontal
                bottom = lineHeight + Self.gap
                continue
            }
            let depth = (widest + lineHeight) * 0.7071 + Self.gap
            if kind == .bar && depth > 0.4 * height { return false }
            let every = chartCount(lineHeight * 1.5 / slot, limit: max(count, 1))
            labels = every == 1 ? .turned : .thinned(every: every)
            bottom = min(depth, 0.45 * height)
            // The first label reaches left of its slot's centre; the plot moves right to keep it in the box.
            left = max(left, (min(firstWidth, bottom / 0.7071) + lineHeight / 2) * 0.7071 - slot / 2 + 1)
            slot = max(width - left - 2, 10) / Double(count)
        }
        if labels != .horizontal && (widest + lineHeight) * 0.7071 + Self.gap > bottom {
            let room = (bottom - Self.gap) / 0.7071 - lineHeight
            for i in stride(from: 0, to: count, by: labelStep) { shown[i] = truncate(shown[i], to: room) }
        }
        plotX = left
        plotY = plotTop
        plotWidth = slot * Double(count)
        plotHeight = max(height - plotTop - bottom, 10)
        let plotBottom = plotY + plotHeight
        for t in ticks.values {
            let y = valueY(t)
            grid.append(Stroke(points: [(plotX, y), (plotX + plotWidth, y)], color: Self.gridColor, width: 0.5))
            texts.append(Text(string: ticks.label(t), role: .tick, x: plotX - Self.gap - 1, y: y, horizontal: .end, vertical: .middle))
        }
        let baseline = kind == .line ? plotBottom : valueY(0)
        axes.append(Stroke(points: [(plotX, baseline), (plotX + plotWidth, baseline)], color: .black, width: 0.8))
        for i in stride(from: 0, to: count, by: labelStep) {
            let cx = plotX + (Double(i) + 0.5) * slot
            if labels == .horizontal {
                texts.append(Text(string: shown[i], role: .category, x: cx, y: plotBottom + 3, horizontal: .middle, vertical: .start))
            } else {
                texts.append(Text(string: shown[i], role: .category, x: cx, y: plotBottom + Self.gap, horizontal: .end, vertical: .middle,
                                  angle: .pi / 4))
            }
        }
        if kind == .line { drawLines(slot: slot) } else { drawBars(slot: slot, along: false) }
        return true
    }

    /// Every how many categories a label is shown.
    var labelStep: Int {
        if case .thinned(let every) = labels { return every }
        return 1
    }

    /// The widest label's width, measuring only the 24 longest by characters (thousands of labels stay cheap).
    func widestLabel(_ labels: [String]) -> Double {
        let longest = labels.count <= 24 ? labels : Array(labels.sorted { $0.count > $1.count }.prefix(24))
        return longest.map { measure($0, .category).width }.max() ?? 0
    }

    /// y of a value on a vertical chart.
    func valueY(_ v: Double) -> Double {
        plotY + plotHeight - (v - ticks.lower) / (ticks.upper - ticks.lower) * plotHeight
    }

    /// x of a value on an `hbar` chart.
    func valueX(_ v: Double) -> Double {
        plotX + (v - ticks.lower) / (ticks.upper - ticks.lower) * plotWidth
    }

    private mutating func drawLines(slot: Double) {
        for s in 0 ..< seriesCount {
            let points = spec.table.seriesValues[s].enumerated().map { (plotX + (Double($0.offset) + 0.5) * slot, valueY($0.element)) }
            lines.append(Stroke(points: points, color: color(s), width: 1.5))
            if count <= 40 { dots += points.map { Dot(x: $0.0, y: $0.1, radius: 2, color: color(s)) } }
        }
    }

    /// Grouped or stacked bars; `along` is true for `hbar` (bars grow rightwards, categories go down).
    mutating func drawBars(slot: Double, along: Bool) {
        let values = spec.table.seriesValues
        let group = slot * (spec.stacked || seriesCount == 1 ? 0.6 : 0.8)
        let thickness = spec.stacked ? group : group / Double(seriesCount)
        for i in 0 ..< count {
            var base = 0.0
            for s in 0 ..< seriesCount {
                let v = values[s][i]
                let from = spec.stacked ? base : min(v, 0), to = spec.stacked ? base + v : max(v, 0)
                base += v
                let offset = Double(i) * slot + (slot - group) / 2 + (spec.stacked ? 0 : Double(s) * thickness)
                if along {
                    let x0 = valueX(from), x1 = valueX(to)
                    bars.append(Box(x: x0, y: plotY + offset, width: x1 - x0, height: thickness, color: color(s), series: s, category: i))
                } else {
                    let y0 = valueY(to), y1 = valueY(from)
                    bars.append(Box(x: plotX + offset, y: y0, width: thickness, height: y1 - y0, color: color(s), series: s, category: i))
                }
            }
        }
    }

    /// `text` cut to fit `room` points, ending in an ellipsis (the full text is in the chart's description).
    func truncate(_ text: String, to room: Double) -> String {
        guard measure(text, .category).width > room else { return text }
        var chars = Array(text)
        while !chars.isEmpty && measure(String(chars) + "…", .category).width > room {
            chars.removeLast(max(1, chars.count / 8))
        }
        return String(chars) + "…"
    }
}
