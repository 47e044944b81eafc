// Where a paragraph's lines go across its column. Indents are physical (`margin-left` is the head indent, on the
// left), except where lowering set `mirrorEdges`: a right-to-left list item mirrors them inside the list's
// container, so its marker, its hanging indent and its nested lists are on the right, and a right-to-left contents
// entry keeps the page number's room at the left (TocLeaders.swift). Pango already puts the indent of a
// right-to-left layout (the first line's, or the hanging one) at the right end of the layout's box.

import TypesetIR

struct ParagraphBox: Equatable {
    /// The layout box's left edge from the column's left edge (the smaller of the two left edges its lines have).
    var left: Double
    /// The layout box's right edge from the column's right edge (likewise).
    var right: Double
    /// Whether the indents are mirrored (a right-to-left paragraph in a list, or a contents entry).
    var mirrored: Bool

    /// The box of a paragraph with `style`, laid out in `direction` (its own: `ParagraphLayout.baseDirection`).
    init(_ style: ParagraphStyle, direction: BaseDirection) {
        let start = min(style.firstLineHeadIndent, style.headIndent)
        if direction == .rightToLeft, let edges = style.mirrorEdges {
            left = edges.left + (style.tailIndent - edges.right)
            right = edges.right + (start - edges.left)
            mirrored = true
        } else {
            left = start
            right = style.tailIndent
            mirrored = false
        }
    }

    /// The box of `paragraph`, whose direction is looked for only when it could matter (`mirrorEdges` is set).
    init(of paragraph: AttributedParagraph) {
        let style = paragraph.style
        self.init(style, direction: style.mirrorEdges == nil ? .auto : ParagraphLayout.baseDirection(of: paragraph))
    }

    /// The left and right edges (from the column's edges) of the paragraph's first line, or of its other lines.
    func edges(_ style: ParagraphStyle, firstLine: Bool) -> (left: Double, right: Double) {
        let indent = firstLine ? style.firstLineHeadIndent : style.headIndent
        guard mirrored, let edges = style.mirrorEdges else { return (indent, style.tailIndent) }
        return (left, edges.right + (indent - edges.left))
    }
}
