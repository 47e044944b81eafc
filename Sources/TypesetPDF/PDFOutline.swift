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
            // Every level open, so the outline reads the same at any depth.
            let flags = CAIRO_PDF_OUTLINE_FLAG_OPEN
            let id = cairo_pdf_surface_add_outline(surface, parent, entry.title,
                                                   "dest='\(PDFLinks.destinationName(entry.id))'", flags)
            stack.append((entry.level, id))
        }
    }
}
