// Deep nesting (quotes in quotes, lists in lists, divs with margins) moves text away from the column's
// edges: past some depth every line holds one letter, or none, and text is lost. Indentation stops where
// the measure left would drop under `minimumMeasure` ems; a warning says so once, at the first block
// where it happens. Text is never crushed or dropped for it.

import RTSyntax

extension DocumentLowerer {
    /// The narrowest measure nesting may leave, in ems of the text's font.
    static let minimumMeasure = 8.0

    /// Keeps `inner` (a container's children, after `enteringContainer`) at least `minimumMeasure` wide:
    /// its edges move in from `outer`'s (the container's own context) only as far as that allows.
    mutating func limitNesting(_ inner: inout StyleState, outer: StyleState, at location: SourceLocation) {
        let minimum = Self.minimumMeasure * inner.character.fontSize
        let width = inner.columnWidth
        guard width - inner.containerLeft - inner.containerRight < minimum else { return }
        let left = max(outer.containerLeft, min(inner.containerLeft, width - outer.containerRight - minimum))
        let right = max(outer.containerRight, min(inner.containerRight, width - left - minimum))
        guard left < inner.containerLeft || right < inner.containerRight else { return }
        inner.containerLeft = left
        inner.containerRight = right
        warnDeepNesting(at: location)
    }

    /// A list's marker start and text edge, moved left when the text edge would leave less than
    /// `minimumMeasure`: never left of the enclosing text edge, never before the column.
    mutating func limitListEdges(markerStart: Double, textEdge: Double, state: StyleState,
                                 at location: SourceLocation) -> (markerStart: Double, textEdge: Double) {
        let minimum = Self.minimumMeasure * state.character.fontSize
        let limit = state.columnWidth - state.containerRight - state.marginRight - minimum
        guard textEdge > limit else { return (markerStart, textEdge) }
        let box = textEdge - markerStart
        let edge = max(limit, state.containerLeft)
        let start = max(min(markerStart, edge - box), 0)
        guard start < markerStart else { return (markerStart, textEdge) }
        warnDeepNesting(at: location)
        return (start, start + box)
    }

    private mutating func warnDeepNesting(at location: SourceLocation) {
        guard !warnedDeepNesting else { return }
        warnedDeepNesting = true
        diagnostics.append(.warning("quotes, lists or divs nested this deep would leave less than "
            + "\(Int(Self.minimumMeasure))em for text: they are not indented further", at: location))
    }
}
