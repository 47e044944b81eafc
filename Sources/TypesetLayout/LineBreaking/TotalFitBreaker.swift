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
    /// Penalties only: a break between two letters of a word with no hyphenation point there (only inside
    /// stretches wider than the line, and only in the last pass); costs `letterBreakDemerits`.
    public var letterBreak: Bool = false
    /// Breaks only: how far the line ending here may hang into the right margin (its last character's
    /// protrusion), and the next line into the left margin (its first character's), points.
    public var protrudeRight: Double = 0
    public var protrudeLeft: Double = 0

    public static func box(_ width: Double) -> BreakItem { BreakItem(kind: .box, width: width) }
    public static func glue(_ width: Double, stretch: Double, shrink: Double) -> BreakItem {
        BreakItem(kind: .glue, width: width, stretch: stretch, shrink: shrink)
    }
    public static func penalty(_ width: Double, _ penalty: Double, flagged: Bool = false) -> BreakItem {
        BreakItem(kind: .penalty, width: width, penalty: penalty, flagged: flagged)
    }
    public static func letterBreak() -> BreakItem {
        BreakItem(kind: .penalty, width: 0, letterBreak: true)
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

    /// Largest badness (100 r^3) of a line in the first pass, which tries no hyphenation points
    /// (TeX's \pretolerance); a negative value skips that pass. 200 or 400 changed the benchmark report little
    /// (22.8% -> 22.4% hyphenated): in ~40-character columns of long words most paragraphs need hyphens.
    public var pretolerance = 100.0
    /// Largest badness in the second pass, with hyphenation (TeX's \tolerance), and in the third, which adds
    /// `emergencyStretch` to every line. Paragraphs that still have no feasible breaks go to a last pass that
    /// accepts any badness, ranked by its real value, and lets a line overflow only when nothing else reaches
    /// the end.
    public var tolerance = 200.0
    /// Added to every line's stretch in the third pass (TeX's \emergencystretch), points: spreads what must be
    /// loose over the paragraph's lines instead of one very loose line. 0 skips that pass: on the benchmark
    /// report 10pt made more lines loose (gaps p95 1.41 -> 1.43, lines over 2x 0.18% -> 0.42%).
    public var emergencyStretch = 0.0
    /// A break between letters (`BreakItem.letterBreak`): more than the worst line any other break could give.
    public var letterBreakDemerits = 1e17
    public var linePenalty = 10.0
    public var doubleHyphenDemerits = 10_000.0  // TeX's default: ladders of hyphens read badly
    public var finalHyphenDemerits = 5_000.0
    public var adjacentFitnessDemerits = 10_000.0
    /// Most consecutive lines ending in a hyphen (typesetters' usual limit); 0 means no limit.
    /// Only the last pass may exceed it, at a high cost.
    public var maxConsecutiveHyphens = 2
    /// Added when a paragraph of three lines or more would end in a runt: one word on a last line narrower
    /// than `runtFraction` of the measure (about a line of badness 600, so a slightly loose paragraph is
    /// preferred to a runt, a very loose one is not).
    public var runtDemerits = 4e5
    /// A third: with font expansion the breaks are freer, and a lone "forgotten." (a fifth of a column) read
    /// as a runt too; on the benchmark report this costs gaps p95 1.36 -> 1.37.
    public var runtFraction = 1.0 / 3
    /// Font expansion (pdfTeX's): a line's glyphs (boxes) may widen or narrow by this fraction of their
    /// width, on top of the glue's stretch and shrink. Never on a paragraph's last line (nor before any
    /// forced break), on a line without spaces, nor on a first line that starts with `firstLineRigid` points
    /// of list marker and tab (justification expands no line with a tab).
    public var expansion = 0.0
    public var firstLineRigid = 0.0
    /// How far the paragraph's first character may hang into the left margin, points.
    public var startProtrusion = 0.0
    /// Ragged text: stretch every line has at its end (TeX's `\rightskip` of `0pt plus` this), points; its
    /// spaces then come with none. 0 for justified text.
    public var raggedStretch = 0.0

    public init() {}

    /// Breaks `items` (which must end in a forced penalty) into lines `lineWidth(i)` points wide, where every
    /// line from `uniformFrom` on is as wide as line `uniformFrom` (so such lines need not be told apart: this keeps
    /// the active list short, as TeX's "easy lines" do). Hyphenation points are flagged penalties with a width
    /// (the hyphen); explicit hyphens are flagged penalties of no width, and every pass may break there.
    /// Never fails: with no feasible set of breaks it retries accepting any badness, then lets a line overflow.
    public func breakLines(_ items: [BreakItem], uniformFrom: Int = 0, lineWidth: (Int) -> Double) -> [ChosenBreak] {
        let uniformFrom = max(uniformFrom, 0)
        let widths = (0...uniformFrom).map(lineWidth)
        let words = Self.wordGlueCounts(items)
        var fallback: Pass? = nil
        if pretolerance >= 0, let pass = run(items, widths: widths, words: words, tolerance: pretolerance,
                                              hyphenate: false, emergency: false) {
            if !pass.endsInRunt { return pass.breaks }
            fallback = pass  // a runt: hyphenation may avoid it
        }
        func better(_ pass: Pass) -> [ChosenBreak] {
            guard let fallback else { return pass.breaks }
            return pass.demerits < fallback.demerits ? pass.breaks : fallback.breaks
        }
        if tolerance.isFinite, let pass = run(items, widths: widths, words: words, tolerance: tolerance,
                                               hyphenate: true, emergency: false) {
            return better(pass)
        }
        if tolerance.isFinite && emergencyStretch > 0,
           let pass = run(items, widths: widths, words: words, tolerance: tolerance, hyphenate: true,
                          emergency: false, extraStretch: emergencyStretch) {
            return better(pass)
        }
        let last = run(items, widths: widths, words: words, tolerance: .infinity, hyphenate: true, emergency: true)
        if let fallback, fallback.demerits <= last?.demerits ?? .infinity { return fallback.breaks }
        return last?.breaks ?? []
    }

    private struct Pass {
        var breaks: [ChosenBreak]
        var demerits: Double
        var endsInRunt: Bool
    }

    /// For each item, how many interword glues (glue after a box) come before it.
    private static func wordGlueCounts(_ items: [BreakItem]) -> [Int32] {
        var counts = [Int32](repeating: 0, count: items.count + 1)
        var n: Int32 = 0
        for i in items.indices {
            counts[i] = n
            if items[i].kind == .glue && i > 0 && items[i - 1].kind == .box && items[i].stretch < fillStretch { n += 1 }
        }
        counts[items.count] = n
        return counts
    }

    private struct Node {
        var item: Int
        var line: Int
        var fitness: Int
        /// Consecutive lines ending in a hyphen up to and including this one.
        var hyphens: Int
        var width: Double, stretch: Double, shrink: Double  // totals up to after the break
        var glyphs: Double  // total width of boxes before the break
        var room: Double  // protrusion of the next line's first character
        var demerits: Double
        var ratio: Double
        var previous: Int
        var runt = false
    }

    private struct Candidate {
        var line: Int, fitness: Int, hyphens: Int
        var demerits: Double
        var from: Int
        var ratio: Double
        var runt = false
    }

    /// Badness caps: a line with no stretch at all, and anything looser, in the last pass. Large enough that
    /// the last pass still tells a very loose line from a hopeless one, small enough that squares stay exact.
    private static let maxBadness = 1e8

    /// One pass; `widths[i]` is line i's width, the last one that of all later lines.
    private func run(_ items: [BreakItem], widths: [Double], words: [Int32], tolerance: Double, hyphenate: Bool,
                     emergency: Bool, extraStretch: Double = 0) -> Pass? {
        let uniformFrom = widths.count - 1
        var nodes: [Node] = [Node(item: -1, line: 0, fitness: 2, hyphens: 0, width: 0, stretch: 0, shrink: 0,
                                  glyphs: 0, room: startProtrusion, demerits: 0, ratio: 0, previous: -1)]
        var active: [Int] = [0]
        var width = 0.0, stretch = 0.0, shrink = 0.0, glyphs = 0.0
        // Best candidate per (line class, fitness, hyphen run) found at the current breakpoint.
        var candidates: [Candidate] = []

        for b in items.indices {
            let item = items[b]
            var isBreak = false
            switch item.kind {
            case .box:
                width += item.width
                glyphs += item.width
            case .glue:
                // After a box, as TeX; or after the glue of a space Pango allows no break after (the first of two
                // spaces in a row, which an infinite penalty precedes): the last space of a run is the break.
                isBreak = b > 0 && (items[b - 1].kind == .box
                                    || (items[b - 1].kind == .glue && b > 1 && items[b - 2].kind == .penalty
                                        && items[b - 2].penalty >= TotalFitBreaker.forcedPenalty))
            case .penalty:
                // Breaks between letters only in the last pass, where nothing else sets the paragraph.
                isBreak = item.penalty < TotalFitBreaker.forcedPenalty && (hyphenate || !item.flagged || item.width == 0)
                    && (emergency || !item.letterBreak)
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
                    let target = widths[min(a.line, uniformFrom)] + a.room + item.protrudeRight
                    let rigid = a.line == 0 ? firstLineRigid : 0
                    // Justification expands only lines with spaces and no tab (LineJustification): a line of a
                    // word too long for one (no glue) or a list item's first line (its marker's tab) gets no flex,
                    // or it was planned up to 2% past its width (an item's first line 3.6pt past its column).
                    let spaced = shrink > a.shrink || stretch > a.stretch
                    let flex = expansion > 0 && !forced && spaced && rigid == 0
                        ? expansion * max(glyphs - a.glyphs + breakWidth, 0) : 0
                    var ratio: Double
                    if natural < target {
                        let s = stretch - a.stretch + flex + extraStretch + raggedStretch
                        ratio = s > 0 ? (target - natural) / s : .infinity
                    } else if natural > target {
                        let s = shrink - a.shrink + flex
                        ratio = s > 0 ? (target - natural) / s : -.infinity
                    } else {
                        ratio = 0
                    }
                    let deactivate = ratio < -1 || forced
                    if ratio >= -1 {
                        // No stretch at all (one word on the line) counts as the worst badness.
                        let badness = ratio.isInfinite ? Self.maxBadness : min(100 * abs(ratio * ratio * ratio), Self.maxBadness)
                        if badness <= tolerance {
                            // The paragraph's last line (3rd or later): one word, narrower than runtFraction.
                            let runt = b == items.count - 1 && a.line >= 2 && natural < target * runtFraction
                                && words[b] - words[a.item + 1] < 1
                            addCandidate(from: active[k], node: a, badness: badness, ratio: ratio, item: item,
                                         flagged: flagged, forced: forced, emergency: emergency, runt: runt,
                                         uniformFrom: uniformFrom, into: &candidates)
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
                    candidates.append(Candidate(line: a.line + 1, fitness: 0, hyphens: 0, demerits: a.demerits + 1e20,
                                                from: deactivatedHere, ratio: -2))
                }
                if candidates.count > 1 { pruneDominated(&candidates, uniformFrom: uniformFrom) }
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
                        nodes.append(Node(item: b, line: c.line, fitness: c.fitness, hyphens: c.hyphens, width: w,
                                          stretch: y, shrink: z, glyphs: glyphs, room: item.protrudeLeft,
                                          demerits: c.demerits, ratio: c.ratio, previous: c.from, runt: c.runt))
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
        return Pass(breaks: breaks.reversed(), demerits: nodes[best].demerits, endsInRunt: nodes[best].runt)
    }

    /// Drops candidates that can never be on the best path, which keeps the active list short when any
    /// badness is allowed (the last pass): candidates at one break differ for the lines after them only by
    /// their fitness (at most `adjacentFitnessDemerits` more on the next line) and their hyphen run (a longer
    /// run allows less). So one with no longer a run, the same line class, and demerits lower by more than
    /// that bound is better whatever follows: the chosen breaks do not change.
    private func pruneDominated(_ candidates: inout [Candidate], uniformFrom: Int) {
        var kept = 0
        for i in candidates.indices {
            let c = candidates[i]
            let dominated = candidates.contains { d in
                min(d.line, uniformFrom) == min(c.line, uniformFrom) && d.hyphens <= c.hyphens
                    && d.demerits + adjacentFitnessDemerits < c.demerits
            }
            if !dominated {
                candidates[kept] = c
                kept += 1
            }
        }
        candidates.removeLast(candidates.count - kept)
    }

    private func addCandidate(from index: Int, node a: Node, badness: Double, ratio: Double, item: BreakItem,
                              flagged: Bool, forced: Bool, emergency: Bool, runt: Bool = false, uniformFrom: Int,
                              into candidates: inout [Candidate]) {
        let hyphens = flagged ? a.hyphens + 1 : 0
        var extra = 0.0
        if maxConsecutiveHyphens > 0 && hyphens > maxConsecutiveHyphens {
            guard emergency else { return }
            extra = 1e12  // only when nothing else sets the paragraph
        }
        let p = item.kind == .penalty ? item.penalty : 0
        var demerits = linePenalty + badness
        demerits *= demerits
        if p >= 0 { demerits += p * p } else if !forced { demerits -= p * p }
        if flagged && a.hyphens > 0 { demerits += doubleHyphenDemerits }
        if item.letterBreak { demerits += letterBreakDemerits }
        if forced && a.hyphens > 0 { demerits += finalHyphenDemerits }
        // Fitness classes: 0 very loose, 1 loose, 2 decent, 3 tight.
        let fitness = ratio < -0.5 ? 3 : ratio <= 0.5 ? 2 : ratio <= 1 ? 1 : 0
        if abs(fitness - a.fitness) > 1 { demerits += adjacentFitnessDemerits }
        demerits += a.demerits + extra + (runt ? runtDemerits : 0)
        let line = a.line + 1
        // Lines past `uniformFrom` compete regardless of their number: only the best per class survives.
        // The hyphen run is part of the class, as it limits what may follow.
        let lineClass = min(line, uniformFrom)
        let run = min(hyphens, max(maxConsecutiveHyphens, 1))
        if let i = candidates.firstIndex(where: {
            min($0.line, uniformFrom) == lineClass && $0.fitness == fitness
                && min($0.hyphens, max(maxConsecutiveHyphens, 1)) == run
        }) {
            if demerits < candidates[i].demerits {
                candidates[i] = Candidate(line: line, fitness: fitness, hyphens: hyphens, demerits: demerits,
                                          from: index, ratio: ratio, runt: runt)
            }
        } else {
            candidates.append(Candidate(line: line, fitness: fitness, hyphens: hyphens, demerits: demerits,
                                        from: index, ratio: ratio, runt: runt))
        }
    }
}
