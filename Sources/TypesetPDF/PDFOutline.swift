// PDF bookmarks: each heading nested under the nearest heading of a lower level before it.

import CPangoCairo
import TypesetLayout

struct PDFOutline {
    /// Open ancestors: (level, cairo outline id), levels strictly increasing.
    private var stack: [(level: Int, id: Int32)] = []

    mutating func add(_ entries: [PlacedOutlineEntry], to surface: OpaquePointer) {
        for entry in entries {
            while let top = stack.last, top.level >= entry.level { stack.removeLast() }
            let parent = stack.last?.id ?? Int32(CAIRO_PDF_OUTLINE_ROOT)
            let flags = entry.level <= 1 ? CAIRO_PDF_OUTLINE_FLAG_OPEN : cairo_pdf_outline_flags_t(0)
            let id = cairo_pdf_surface_add_outline(surface, parent, entry.title,
                                                   "dest='\(PDFLinks.escape(entry.id))'", flags)
            stack.append((entry.level, id))
        }
    }
}
