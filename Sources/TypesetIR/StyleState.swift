// The resolved style at one point of the document: character attributes plus paragraph style, with the
// horizontal indents kept in RT's relative form until a paragraph is emitted.

import RTSyntax

struct StyleState: Hashable, Sendable {
    var character = CharacterAttributes()
    /// Everything but the indents, which are computed by `paragraphStyle()`.
    var paragraph = ParagraphStyle()
    /// RT `margin-left`, measured from the enclosing container's left edge (quote, list item, div).
    var marginLeft: Double = 0
    /// RT `margin-right`, measured from the enclosing container's right edge.
    var marginRight: Double = 0
    /// RT `indent`: first line, relative to `margin-left`.
    var indent: Double = 0
    /// Left and right edges of the enclosing container, from the column edges.
    var containerLeft: Double = 0
    var containerRight: Double = 0
    /// Inside a list: the edges of the container the outermost list sits in (`ParagraphStyle.mirrorEdges`).
    var mirrorEdges: MirrorEdges? = nil
    /// `bullet`: list bullet glyphs by nesting level (cycling); nil: the built-in `•` `◦` `▪`.
    var bullets: [String]? = nil
    /// Column width in points: what `%` means for paragraph lengths.
    var columnWidth: Double = 481.89

    /// NSParagraphStyle-style absolute indents (`firstLineHeadIndent = margin-left + indent`).
    func paragraphStyle() -> ParagraphStyle {
        var style = paragraph
        style.headIndent = containerLeft + marginLeft
        style.firstLineHeadIndent = style.headIndent + limitedIndent
        style.tailIndent = containerRight + marginRight
        style.mirrorEdges = mirrorEdges
        return style
    }

    /// `indent`, kept so that the first line has at least half of the paragraph's measure and starts no further
    /// left than the column's edge: `indent=3em` in a column 3.4em wide set the first word past the column, and
    /// `indent=-5cm` set the first line off the page (LaTeX does the same, with an overfull box at most).
    var limitedIndent: Double {
        let measure = columnWidth - containerLeft - marginLeft - containerRight - marginRight
        return min(max(indent, -(containerLeft + marginLeft)), max(measure / 2, 0))
    }

    /// The state children of a container start from: margins become the new container edges and the
    /// first-line indent is not inherited twice.
    func enteringContainer() -> StyleState {
        var inner = self
        inner.containerLeft += marginLeft
        inner.containerRight += marginRight
        inner.marginLeft = 0
        inner.marginRight = 0
        inner.mirrorEdges = nil  // a list item sets it again (ListLowering); a quote or div is not mirrored
        return inner
    }

    /// `em` is the current font size; `%` the column width (paragraph quantities).
    var paragraphLengthContext: LengthContext { LengthContext(fontSize: character.fontSize, percentBase: columnWidth) }
    /// `em` and `%` both refer to the current font size (font quantities).
    var fontLengthContext: LengthContext { LengthContext(fontSize: character.fontSize, percentBase: character.fontSize) }
}

/// Where a diagnostic about one attribute goes, and whether it should be reported at all (a style is
/// validated once where it is defined, then applied silently wherever it is used).
struct AttributeDiagnostics {
    var report: Bool
    var messages: [Diagnostic] = []

    mutating func warning(_ message: String, at location: SourceLocation) {
        if report { messages.append(.warning(message, at: location)) }
    }
}
