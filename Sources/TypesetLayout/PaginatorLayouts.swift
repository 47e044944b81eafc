// Where the paginator gets a paragraph's layout when the counting pass did not keep one: from a worker that
// made it ahead (`--jobs`), from the layouts kept by the previous build (`--watch`), else laid out here.

import Foundation
import RTSyntax
import TypesetIR

extension Paginator {
    /// Starts the workers for this pass, at the first band's column width.
    func startPrefetch() {
        if let early = engine.earlyPrefetch.take() {
            early.adopt(document, width: frames[0].width)
            prefetch = early
        } else {
            prefetch = ParagraphPrefetch.start(document, width: frames[0].width, engine: engine)
        }
    }

    private func cacheKey(_ p: AttributedParagraph) -> ParagraphKey {
        ParagraphKey(p, width: frames[0].width, maxSpaceFactor: .infinity, lineBreaking: engine.lineBreaking)
    }

    /// The layout of block `i` at the current width: made by a worker, kept by the previous build, or made
    /// here (from a worker's line breaks when it planned them).
    func paragraphLayout(_ p: AttributedParagraph, at i: Int) -> ParagraphLayout {
        switch prefetch?.take(block: i, width: frames[0].width, engine: engine, images: images) {
        case .layout(let ahead):
            diagnostics += ahead.warnings
            engine.paragraphCache?.store(ahead, key: cacheKey(p))
            return ahead
        case .plan(let planned, let warnings):
            return laidOutHere(p, planned: planned, warnings: warnings, glyphWarningsHere: true)
        case .handBack(let warnings):
            return laidOutHere(p, warnings: warnings)
        case nil:
            if let cache = engine.paragraphCache, let kept = cache.layout(for: p, key: cacheKey(p)) { return kept }
            return laidOutHere(p)
        }
    }

    /// Lays `p` out on this thread (and keeps it for the next build when there is a cache). With `warnings`
    /// from a worker that laid it out first, those are reported (it met each once-only warning first), and
    /// with `glyphWarningsHere` this thread's missing-glyph warnings after them (the worker shaped nothing).
    func laidOutHere(_ p: AttributedParagraph, planned: PlannedLines? = nil, warnings: [Diagnostic]? = nil,
                     glyphWarningsHere: Bool = false) -> ParagraphLayout {
        engine.plannedLines = planned
        defer { engine.plannedLines = nil }
        var here: [Diagnostic] = []
        let layout = ParagraphLayout(p, columnWidth: frames[0].width, engine: engine, images: images,
                                     diagnostics: &here, ahead: true)
        if let warnings {
            diagnostics += warnings + (glyphWarningsHere ? here.filter(UnknownGlyphs.isUnknownGlyph) : [])
        } else {
            diagnostics += here
        }
        engine.paragraphCache?.store(layout, key: cacheKey(p))
        return layout
    }
}
