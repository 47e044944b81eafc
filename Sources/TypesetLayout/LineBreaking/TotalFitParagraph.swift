// Total-fit breaking of one paragraph, end to end: measure, plan, rewrite the text with the breaks, shape it
// once more and justify the lines. ParagraphLayout calls it for justified paragraphs.

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
    }

    /// Whether paragraphs may be measured by words (`TYPESET_MEASURE=exact` turns it off, for comparisons).
    nonisolated(unsafe) static var measureByWords =
        ProcessInfo.processInfo.environment["TYPESET_MEASURE"] != "exact"

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
        if engine.recordsPlans {
            engine.recordedLines = text.withUTF8 {
                PlannedLines(text: Array($0), runs: runs, widths: widths, maxSpaceFactor: maxSpaceFactor,
                             plan: result.plan, byWords: result.measuredByWords)
            }
        }
        return result
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
        var breaker = TotalFitBreaker()
        // Expansion: none beside inline images (they must not move against scaled text); a list marker and
        // its tab keep their width (the text after the tab expands, from the tab stop).
        // Right-to-left paragraphs: no optical margins (their line ends are other characters) and no expansion,
        // so the breaker plans exactly the room justification will give.
        let rtl = buffer.withMemoryRebound(to: CChar.self) {
            pango_find_base_dir($0.baseAddress, Int32(clamping: $0.count)) == PANGO_DIRECTION_RTL
        }
        let limit = shapes.isEmpty && !rtl ? style.expansionLimit : 0
        breaker.expansion = limit
        let protrude = style.protrusion && !rtl
        let indented = style.firstLineHeadIndent > style.headIndent
        let plan: [PlannedBreak]
        switch source {
        case .planned(let given): plan = given
        case .measured(let measurement):
            plan = TotalFitLines.plan(measurement: measurement, text: buffer, hyphenator: hyphenator,
                                      hyphenWidth: hyphenWidth, breaker: breaker, uniformFrom: 1,
                                      protrude: protrude, indentedStart: indented, lineWidth: lineWidth)
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
            ParagraphLayout.setAttributes(pl, runs: result.runs, shapes: result.shapes, base: base, style: style)
        }
        let justify: (Int) -> Bool = { i in
            guard i < plan.count else { return false }
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
