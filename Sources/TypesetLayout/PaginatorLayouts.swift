// Where the paginator gets a paragraph's layout when the counting pass did not keep one: from a worker that
// made it ahead (`--jobs`), from the layouts kept by the previous build (`--watch`), else laid out here.

import Foundation
import RTSyntax
import TypesetIR

extension Paginator {
    /// Starts the workers for this pass, at the first band's column width.
    func startPrefetch() {
        prefetch = ParagraphPrefetch.start(document, width: frames[0].width, engine: engine)
    }

    private func cacheKey(_ p: AttributedParagraph) -> ParagraphKey {
        ParagraphKey(p, width: frames[0].width, maxSpaceFactor: .infinity, lineBreaking: engine.lineBreaking)
    }

    /// A layout of block `i` made at the current width by a worker or by the previous build.
    func madeElsewhere(_ p: AttributedParagraph, at i: Int) -> ParagraphLayout? {
        if let ahead = prefetch?.take(block: i, width: frames[0].width, engine: engine, images: images) {
            diagnostics += ahead.warnings
            engine.paragraphCache?.store(ahead, key: cacheKey(p))
            return ahead
        }
        guard let cache = engine.paragraphCache, let kept = cache.layout(for: p, key: cacheKey(p)) else { return nil }
        return kept
    }

    /// Lays `p` out on this thread (and keeps it for the next build when there is a cache).
    func laidOutHere(_ p: AttributedParagraph) -> ParagraphLayout {
        let layout = ParagraphLayout(p, columnWidth: frames[0].width, engine: engine, images: images,
                                     diagnostics: &diagnostics)
        engine.paragraphCache?.store(layout, key: cacheKey(p))
        return layout
    }
}
