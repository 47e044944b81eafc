// Justified text in slots beside shapes (issue 9): a narrow slot makes loose, letter-spaced lines, so there
// hyphenation comes first (the total-fit plan), then a ragged line, before gaps over ~1.6 spaces or any
// letter-spacing; a slot narrower than about 8 em is set ragged outright.

import TypesetIR

extension Paginator {
    static let raggedSlotEms = 8.0

    /// The largest space factor a justified line of `paragraph` (as written, with its own indents) may have in a
    /// slot `slot` points wide of a column `column` wide (`.infinity`: a whole-width line justifies as usual).
    static func maxSpaceFactor(slot: Double, column: Double, style paragraph: AttributedParagraph) -> Double {
        let style = paragraph.style
        let whole = column - max(style.headIndent, style.firstLineHeadIndent) - style.tailIndent
        guard slot < whole - 1, style.alignment == .justify else { return .infinity }
        let em = paragraph.runs.first?.attributes.fontSize ?? 10
        if slot < raggedSlotEms * em { return 1 }
        return LineJustification.trackingFrom
    }
}
