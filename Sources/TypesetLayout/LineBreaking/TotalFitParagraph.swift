// Total-fit breaking of one paragraph, end to end: measure, plan, rewrite the text with the breaks, shape it
// once more and justify the lines. ParagraphLayout calls it for justified paragraphs, and for ragged ones with
// hyphenation on (their lines are not justified).

import CPangoCairo
import Foundation
import TypesetIR

enum TotalFitParagraph {
    typealias Shape = (TextAttachment, ImageSurface, PangoRectangle)

    /// What the layout needs afterwards: the runs and inline objects at their offsets in the edited text.
    struct Result {
        var runs: [AttributeRun]
        var shapes: [Shape]
        var edits: [TextEdit]
        var plan: [PlannedBreak]
        /// Whether the words were measured one by one (false: the paragraph was shaped to measure it).
        var measuredByWords: Bool
        /// Per line: expansion, protrusion and letter-spacing the justification used.
        var adjustments: [LineAdjustment] = []
        /// The decorations of the edited text, when it was set on the layout again (nil: those set first).
        var decorations: RunDecorations? = nil
    }

    /// Whether paragraphs may be measured by words (`TYPESET_MEASURE=exact` turns it off, for comparisons).
    /// (getenv, not ProcessInfo: that copies the whole environment through Foundation at start-up, issue 14.)
    nonisolated(unsafe) static var measureByWords = getenv("TYPESET_MEASURE").map { String(cString: $0) } != "exact"

    /// Breaks the paragraph whose text and attributes are set on `pl` (no width), leaving the chosen lines in
    /// it, justified. `text` is the layout's text; `runs` and `shapes` its attributes.
    static func layout(_ pl: OpaquePointer, text: String, runs: [AttributeRun], shapes: [Shape], base: FontKey,
                       style: ParagraphStyle, engine: LayoutEngine, hyphenator: Hyphenator?, hyphenWidth: Double,
                       lineWidth: @escaping (Int) -> Double, maxSpaceFactor: Double = .infinity) -> Result {
        var text = text
        let widths = [lineWidth(0), lineWidth(1)]
        let result = text.withUTF8 { buffer -> Result in
            // Breaks a worker planned for this very paragraph (`--jobs`): measuring and planning again would
            // give the same plan, so only the rewriting and the final shaping are left.
            if let given = engine.plannedLines,
               given.matches(text: buffer, runs: runs, widths: widths, maxSpaceFactor: maxSpaceFactor),
               let result = realise(pl, source: .planned(given.plan), text: buffer, runs: runs, shapes: shapes,
                                    base: base, style: style, hyphenator: hyphenator, hyphenWidth: hyphenWidth,
                                    lineWidth: lineWidth, byWords: given.byWords, maxSpaceFactor: maxSpaceFactor) {
                LayoutWork.countFromPlan()
                return result
            }
            if engine.plansOnly {
                return planOnly(pl, text: buffer, runs: runs, shapes: shapes, base: base, style: style,
                                engine: engine, hyphenator: hyphenator, hyphenWidth: hyphenWidth, lineWidth: lineWidth,
                                widths: widths, maxSpaceFactor: maxSpaceFactor)
            }
            if measureByWords && WordMeasure.isEligible(runs: runs, base: base, hasAttachments: !shapes.isEmpty,
                                                        text: buffer),
               let m = WordMeasure.cache(for: engine).measure(text: buffer, runs: runs, base: base, engine: engine) {
                let result = realise(pl, source: .measured(m), text: buffer, runs: runs, shapes: shapes, base: base,
                                     style: style, hyphenator: hyphenator, hyphenWidth: hyphenWidth,
                                     lineWidth: lineWidth, byWords: true, maxSpaceFactor: maxSpaceFactor)
                if let result { return result }
                // A line came out wider than planned: measure exactly (back to the original text first).
                ParagraphLayout.setText(pl, buffer)
                ParagraphLayout.setAttributes(pl, runs: runs, shapes: shapes, base: base, style: style)
            }
            let exact = ParagraphMeasurement.exact(layout: pl, text: buffer)
                ?? ParagraphMeasurement(attrs: [], advance: [], clusterStart: [])
            // Exact: never nil (only a paragraph measured by words can come out wider than planned).
            return realise(pl, source: .measured(exact), text: buffer, runs: runs, shapes: shapes, base: base,
                           style: style, hyphenator: hyphenator, hyphenWidth: hyphenWidth, lineWidth: lineWidth,
                           byWords: false, maxSpaceFactor: maxSpaceFactor)
                ?? Result(runs: runs, shapes: shapes, edits: [], plan: [], measuredByWords: false)
        }
        return result
    }

    /// A worker planning for the drawing thread (`LayoutEngine.plansOnly`): measures and plans, keeps the plan
    /// in `engine.recordedLines`, and leaves the text rewriting and the final shaping to the drawing thread. The
    /// layout is thrown away; its text is emptied so that nothing after this shapes it. A plan measured by words
    /// is checked there (a line wider than planned: measured exactly there, as with one thread).
    private static func planOnly(_ pl: OpaquePointer, text buffer: UnsafeBufferPointer<UInt8>, runs: [AttributeRun],
                                 shapes: [Shape], base: FontKey, style: ParagraphStyle, engine: LayoutEngine,
                                 hyphenator: Hyphenator?, hyphenWidth: Double, lineWidth: @escaping (Int) -> Double,
                                 widths: [Double], maxSpaceFactor: Double) -> Result {
        var byWords = false
        var measurement: ParagraphMeasurement? = nil
        if measureByWords && WordMeasure.isEligible(runs: runs, base: base, hasAttachments: !shapes.isEmpty, text: buffer) {
            measurement = WordMeasure.cache(for: engine).measure(text: buffer, runs: runs, base: base, engine: engine)
            byWords = measurement != nil
        }
        let m = measurement ?? ParagraphMeasurement.exact(layout: pl, text: buffer)
            ?? ParagraphMeasurement(attrs: [], advance: [], clusterStart: [])
        let plan = plan(measurement: m, text: buffer, shapes: shapes, base: base, style: style,
                        hyphenator: hyphenator, hyphenWidth: hyphenWidth, lineWidth: lineWidth)
        engine.recordedLines = PlannedLines(text: Array(buffer), runs: runs, widths: widths,
                                            maxSpaceFactor: maxSpaceFactor, plan: plan, byWords: byWords)
        pango_layout_set_text(pl, "", 0)
        return Result(runs: runs, shapes: shapes, edits: [], plan: plan, measuredByWords: byWords)
    }

    /// Expansion: none beside inline images (they must not move against scaled text); a list marker and its
    /// tab keep their width (the text after the tab expands, from the tab stop). Right-to-left paragraphs: no
    /// optical margins (their line ends are other characters) and no expansion, so the breaker plans exactly
    /// the room justification will give. Ragged text (`ParagraphLayout.isRaggedTotalFit`): no expansion, and
    /// `ragged` is the room at each line's end in points (0: justified).
    private static func settings(_ buffer: UnsafeBufferPointer<UInt8>, shapes: [Shape], base: FontKey,
                                 style: ParagraphStyle) -> (limit: Double, protrude: Bool, indented: Bool, ragged: Double) {
        let rtl = style.baseDirection == .auto ? buffer.withMemoryRebound(to: CChar.self) {
            pango_find_base_dir($0.baseAddress, Int32(clamping: $0.count)) == PANGO_DIRECTION_RTL
        } : style.baseDirection == .rightToLeft
        let ragged = style.alignment == .justify ? 0 : TotalFitLines.raggedStretch * base.size
        return (shapes.isEmpty && !rtl && ragged == 0 ? style.expansionLimit : 0, style.protrusion && !rtl,
                style.firstLineHeadIndent > style.headIndent, ragged)
    }

    private static func plan(measurement: ParagraphMeasurement, text buffer: UnsafeBufferPointer<UInt8>,
                             shapes: [Shape], base: FontKey, style: ParagraphStyle, hyphenator: Hyphenator?,
                             hyphenWidth: Double, lineWidth: @escaping (Int) -> Double) -> [PlannedBreak] {
        let (limit, protrude, indented, ragged) = settings(buffer, shapes: shapes, base: base, style: style)
        var breaker = TotalFitBreaker()
        BreakerTuning.apply(to: &breaker)
        breaker.expansion = limit
        breaker.raggedStretch = ragged
        return TotalFitLines.plan(measurement: measurement, text: buffer, hyphenator: hyphenator,
                                  hyphenWidth: hyphenWidth, breaker: breaker, uniformFrom: 1,
                                  protrude: protrude, indentedStart: indented, lineWidth: lineWidth)
    }

    /// Where realise takes the line breaks from.
    private enum Source {
        case measured(ParagraphMeasurement)
        case planned([PlannedBreak])
    }

    /// Plans, edits and justifies. With `byWords`, returns nil when a line does not fit its width.
    private static func realise(_ pl: OpaquePointer, source: Source,
                                text buffer: UnsafeBufferPointer<UInt8>, runs: [AttributeRun], shapes: [Shape],
                                base: FontKey, style: ParagraphStyle, hyphenator: Hyphenator?, hyphenWidth: Double,
                                lineWidth: @escaping (Int) -> Double, byWords: Bool,
                                maxSpaceFactor: Double) -> Result? {
        let (limit, protrude, indented, ragged) = settings(buffer, shapes: shapes, base: base, style: style)
        let plan: [PlannedBreak]
        switch source {
        case .planned(let given): plan = given
        case .measured(let measurement):
            plan = self.plan(measurement: measurement, text: buffer, shapes: shapes, base: base, style: style,
                             hyphenator: hyphenator, hyphenWidth: hyphenWidth, lineWidth: lineWidth)
        }
        let edits = TotalFitLines.edits(for: plan, text: buffer)
        var result = Result(runs: runs, shapes: shapes, edits: edits, plan: plan, measuredByWords: byWords)
        var edited: [UInt8] = []
        if !edits.isEmpty {
            edited = TotalFitLines.apply(edits, to: buffer)
            result.runs = runs.map { run in
                AttributeRun(range: TotalFitLines.map(run.range.lowerBound, through: edits)
                                 ..< TotalFitLines.map(run.range.upperBound, through: edits),
                             attributes: run.attributes)
            }
            result.shapes = shapes.map { shape in
                var attachment = shape.0
                attachment.offset = TotalFitLines.map(attachment.offset, through: edits)
                return (attachment, shape.1, shape.2)
            }
            edited.withUnsafeBufferPointer { ParagraphLayout.setText(pl, $0) }
            result.decorations = ParagraphLayout.setAttributes(pl, runs: result.runs, shapes: result.shapes, base: base,
                                                               style: style)
        }
        // Ragged lines keep their spaces as Pango set them (only a line planned too wide would shrink them).
        let justify: (Int) -> Bool = { i in
            guard i < plan.count, ragged == 0 else { return false }
            switch plan[i].kind {
            case .space, .hyphen, .plain: return true
            case .forced, .end: return false
            }
        }
        let expansion: (Int) -> Double = { _ in limit }
        let justified: (fits: Bool, lines: [LineAdjustment])
        if edits.isEmpty {
            justified = LineJustification.justify(layout: pl, text: buffer, justify: justify, lineWidth: lineWidth,
                                                  maxFactor: maxSpaceFactor, expansion: expansion, protrude: protrude,
                                                  indentedStart: indented)
        } else {
            justified = edited.withUnsafeBufferPointer {
                LineJustification.justify(layout: pl, text: $0, justify: justify, lineWidth: lineWidth,
                                          maxFactor: maxSpaceFactor, expansion: expansion, protrude: protrude,
                                                  indentedStart: indented)
            }
        }
        result.adjustments = justified.lines
        return justified.fits || !byWords ? result : nil
    }
}

/// Line breaks planned for one paragraph by a worker (`--jobs`), handed to the thread that lays it out for good:
/// the plan is a function of the text, runs, line widths and fonts (every engine loads the same), so reusing it
/// gives the layout that planning again would.
struct PlannedLines: @unchecked Sendable {
    var text: [UInt8]
    var runs: [AttributeRun]
    /// The first line's width and the others'.
    var widths: [Double]
    var maxSpaceFactor: Double
    var plan: [PlannedBreak]
    var byWords: Bool

    func matches(text other: UnsafeBufferPointer<UInt8>, runs: [AttributeRun], widths: [Double],
                 maxSpaceFactor: Double) -> Bool {
        widths == self.widths && maxSpaceFactor == self.maxSpaceFactor && runs == self.runs
            && text.elementsEqual(other)
    }
}
