// Text on a page flows around the page's exclusions and positioned shapes (RT section 4), also text set before
// one is met. The counting pass records where each is met (FlowState.met); when one came below text on its page
// the document is counted again with the shapes registered as their pages start (Paginator.earlyShapes), and
// drawn that way.

import TypesetIR

extension DocumentLayout {
    /// Whether an exclusion or a wrapping positioned shape may be met below text on its page: one after some
    /// content with no page break between. Shapes that open the document or follow a page break need no pass.
    static func mayHaveShapesBelowText(_ blocks: [LayoutBlock]) -> Bool {
        var textSincePageStart = false
        for block in blocks {
            switch block {
            case .pageBreak: textSincePageStart = false
            case .exclusion: if textSincePageStart { return true }
            case .shapeStart(let c) where c.position != nil:
                if textSincePageStart && c.wrapMargin != nil { return true }
            case .columnBreak, .columnSet, .shapeEnd: break
            default: textSincePageStart = true
            }
        }
        return false
    }

    /// The document counted again with `early` shapes in place from their pages' starts: what moves then is
    /// what the drawing pass sets (its page numbers and kept layouts come from this pass).
    static func recount(_ document: TypesetDocument, early: [Int: (exclusion: Exclusion, page: Int)], engine: LayoutEngine,
                        images: ImageCache, onCount: (_ counted: Int, _ total: Int?) -> Void) throws
        -> (Paginator, PaginationSummary, LayoutReuse) {
        let reuse = LayoutReuse()
        let counting = Paginator(document: document, engine: engine, images: images, totalPages: nil,
                                 placeRunningText: false, reuse: reuse)
        counting.earlyShapes = early
        counting.startPrefetch()
        defer { counting.prefetch?.stop() }
        let counted = try counting.run { page in onCount(page.number, nil) }
        return (counting, counted, reuse)
    }
}
