// Knuth-Plass total-fit line breaking over boxes, glue and penalties (Knuth & Plass 1981, TeX's \linebreak),
// with a width per line (TeX's \parshape): the breaks minimise the sum of per-line demerits over the whole
// paragraph instead of filling each line greedily. Knows nothing about Pango; `BreakItems` feeds it.

/// One element of a paragraph for the breaker. Widths in points.
public struct BreakItem: Sendable {
    public enum Kind: UInt8, Sendable { case box, glue, penalty }
    public var kind: Kind
    public var width: Double
    public var stretch: Double = 0
    public var shrink: Double = 0
    /// Penalties only: cost of breaking here; `<= -forcedPenalty` forces a break, `>= forcedPenalty` forbids it.
    public var penalty: Double = 0
    /// Penalties only: a hyphen break (two in a row cost `doubleHyphenDemerits`).
    public var flagged: Bool = false

    public static func box(_ width: Double) -> BreakItem { BreakItem(kind: .box, width: width) }
    public static func glue(_ width: Double, stretch: Double, shrink: Double) -> BreakItem {
        BreakItem(kind: .glue, width: width, stretch: stretch, shrink: shrink)
    }
    public static func penalty(_ width: Double, _ penalty: Double, flagged: Bool = false) -> BreakItem {
        BreakItem(kind: .penalty, width: width, penalty: penalty, flagged: flagged)
    }
}

/// A chosen break: the line ends at item `item` (a glue or penalty; glue is dropped, a penalty's width is drawn).
public struct ChosenBreak: Sendable, Equatable {
    public var item: Int
    /// Adjustment ratio of the line that ends here: > 0 stretched, < 0 shrunk, < -1 overfull.
    public var ratio: Double
}

public struct TotalFitBreaker {
    public static let forcedPenalty = 10_000.0
    /// Stretch that stands for TeX's `fil` (the glue ending a paragraph).
    public static let fillStretch = 1e7

    /// Largest badness (100 r^3) a line may have in the first pass; the second pass accepts any.
    /// High, because in a narrow column (~7 spaces a line) TeX's 200 leaves most paragraphs without a
    /// feasible set of breaks; demerits still prefer the even lines. 10,000 is r = 4.6.
    public var tolerance = 10_000.0
    public var linePenalty = 10.0
    public var doubleHyphenDemerits = 10_000.0  // TeX's default: ladders of hyphens read badly
    public var finalHyphenDemerits = 5_000.0
    public var adjacentFitnessDemerits = 10_000.0

    public init() {}

    /// Breaks `items` (which must end in a forced penalty) into lines `lineWidth(i)` points wide, where every
    /// line from `uniformFrom` on is as wide as line `uniformFrom` (so such lines need not be told apart: this keeps
    /// the active list short, as TeX's "easy lines" do).
    /// Never fails: with no feasible set of breaks it retries accepting any badness, then lets a line overflow.
    public func breakLines(_ items: [BreakItem], uniformFrom: Int = 0, lineWidth: (Int) -> Double) -> [ChosenBreak] {
        let widths = { (line: Int) in lineWidth(min(line, uniformFrom)) }
        if let breaks = run(items, lineWidth: widths, uniformFrom: uniformFrom, tolerance: tolerance, emergency: false) {
            return breaks
        }
        return run(items, lineWidth: widths, uniformFrom: uniformFrom, tolerance: .infinity, emergency: true) ?? []
    }

    private struct Node {
        var item: Int
        var line: Int
        var fitness: Int
        var width: Double, stretch: Double, shrink: Double  // totals up to after the break
        var demerits: Double
        var ratio: Double
        var previous: Int
        var flagged: Bool
    }

    private func run(_ items: [BreakItem], lineWidth: (Int) -> Double, uniformFrom: Int, tolerance: Double,
                     emergency: Bool) -> [ChosenBreak]? {
        var nodes: [Node] = [Node(item: -1, line: 0, fitness: 2, width: 0, stretch: 0, shrink: 0, demerits: 0,
                                  ratio: 0, previous: -1, flagged: false)]
        var active: [Int] = [0]
        var width = 0.0, stretch = 0.0, shrink = 0.0
        // Best candidate per (line, fitness) found at the current breakpoint.
        var candidates: [(line: Int, fitness: Int, demerits: Double, from: Int, ratio: Double)] = []
        var widthCache: [Double] = []

        func widthOf(line: Int) -> Double {
            let line = min(line, uniformFrom)
            while widthCache.count <= line { widthCache.append(lineWidth(widthCache.count)) }
            return widthCache[line]
        }

        for b in items.indices {
            let item = items[b]
            var isBreak = false
            switch item.kind {
            case .box:
                width += item.width
            case .glue:
                isBreak = b > 0 && items[b - 1].kind == .box
            case .penalty:
                isBreak = item.penalty < TotalFitBreaker.forcedPenalty
            }
            if isBreak {
                let forced = item.kind == .penalty && item.penalty <= -TotalFitBreaker.forcedPenalty
                let breakWidth = item.kind == .penalty ? item.width : 0
                let flagged = item.kind == .penalty && item.flagged
                candidates.removeAll(keepingCapacity: true)
                var deactivatedHere = -1
                var k = 0
                var kept = 0
                while k < active.count {
                    let a = nodes[active[k]]
                    let natural = width - a.width + breakWidth
                    let target = widthOf(line: a.line)
                    var ratio: Double
                    if natural < target {
                        let s = stretch - a.stretch
                        ratio = s > 0 ? (target - natural) / s : .infinity
                    } else if natural > target {
                        let s = shrink - a.shrink
                        ratio = s > 0 ? (target - natural) / s : -.infinity
                    } else {
                        ratio = 0
                    }
                    let deactivate = ratio < -1 || forced
                    if ratio >= -1 {
                        // No stretch at all (one word on the line) counts as the worst finite badness.
                        let badness = ratio.isInfinite ? 1e6 : min(100 * abs(ratio * ratio * ratio), 1e6)
                        if badness <= tolerance {
                            addCandidate(from: active[k], node: a, badness: badness, ratio: ratio, item: item,
                                         flagged: flagged, forced: forced, uniformFrom: uniformFrom,
                                         into: &candidates)
                        }
                    }
                    if deactivate {
                        deactivatedHere = active[k]
                    } else {
                        active[kept] = active[k]
                        kept += 1
                    }
                    k += 1
                }
                active.removeLast(active.count - kept)
                if candidates.isEmpty && active.isEmpty && emergency && deactivatedHere >= 0 {
                    // Overfull: break here after the last node that could not reach here, so the paragraph goes on.
                    let a = nodes[deactivatedHere]
                    candidates.append((a.line + 1, 0, a.demerits + 1e9, deactivatedHere, -2))
                }
                if !candidates.isEmpty {
                    // Totals after the break: glue and penalties at the start of a line are discarded.
                    var w = width, y = stretch, z = shrink
                    var j = b
                    while j < items.count {
                        let next = items[j]
                        if next.kind == .box { break }
                        if next.kind == .penalty && next.penalty <= -TotalFitBreaker.forcedPenalty && j > b { break }
                        if next.kind == .glue { w += next.width; y += next.stretch; z += next.shrink }
                        j += 1
                    }
                    for c in candidates {
                        nodes.append(Node(item: b, line: c.line, fitness: c.fitness, width: w, stretch: y, shrink: z,
                                          demerits: c.demerits, ratio: c.ratio, previous: c.from, flagged: flagged))
                        active.append(nodes.count - 1)
                    }
                }
                if active.isEmpty && !forced {
                    return nil
                }
            }
            if item.kind == .glue {
                width += item.width
                stretch += item.stretch
                shrink += item.shrink
            }
        }
        // The best node at the final forced break.
        var best = -1
        for n in active where nodes[n].item == items.count - 1 {
            if best < 0 || nodes[n].demerits < nodes[best].demerits { best = n }
        }
        guard best >= 0 else { return nil }
        var breaks: [ChosenBreak] = []
        var n = best
        while n > 0 {
            breaks.append(ChosenBreak(item: nodes[n].item, ratio: nodes[n].ratio))
            n = nodes[n].previous
        }
        return breaks.reversed()
    }

    private func addCandidate(from index: Int, node a: Node, badness: Double, ratio: Double, item: BreakItem,
                              flagged: Bool, forced: Bool, uniformFrom: Int,
                              into candidates: inout [(line: Int, fitness: Int, demerits: Double, from: Int, ratio: Double)]) {
        let p = item.kind == .penalty ? item.penalty : 0
        var demerits = linePenalty + badness
        demerits *= demerits
        if p >= 0 { demerits += p * p } else if !forced { demerits -= p * p }
        if flagged && a.flagged { demerits += doubleHyphenDemerits }
        if forced && a.flagged { demerits += finalHyphenDemerits }
        // Fitness classes: 0 very loose, 1 loose, 2 decent, 3 tight.
        let fitness = ratio < -0.5 ? 3 : ratio <= 0.5 ? 2 : ratio <= 1 ? 1 : 0
        if abs(fitness - a.fitness) > 1 { demerits += adjacentFitnessDemerits }
        demerits += a.demerits
        let line = a.line + 1
        // Lines past `uniformFrom` compete regardless of their number: only the best per fitness class survives.
        let lineClass = min(line, uniformFrom)
        if let i = candidates.firstIndex(where: { min($0.line, uniformFrom) == lineClass && $0.fitness == fitness }) {
            if demerits < candidates[i].demerits { candidates[i] = (line, fitness, demerits, index, ratio) }
        } else {
            candidates.append((line, fitness, demerits, index, ratio))
        }
    }
}
