// `.svg` and `.png` output: the same page drawing as the PDF, through Cairo's SVG and image surfaces,
// one file per page. Links and bookmarks have no meaning there and are dropped by Cairo.

import CPangoCairo
import Foundation
import RTSyntax
import TypesetIR
import TypesetLayout

public enum PageImageRenderer {
    public enum Kind: Sendable { case svg, png }

    /// PNG resolution; a page larger than `maxPixels` on a side is drawn at a lower one.
    public static let pngDPI = 150.0
    public static let maxPixels = 10_000.0

    /// Lays out `document` and writes each page to the path `pathForPage(number)` returns.
    public static func render(_ document: TypesetDocument, kind: Kind, progress: (RenderProgress) -> Void = { _ in },
                              pathForPage: (Int) -> String) throws -> [Diagnostic] {
        let summary = try DocumentLayout.paginate(document, onCount: { counted, total in
            progress(total.map(RenderProgress.total) ?? .counted(counted))
        }) { page in
            let path = pathForPage(page.number)
            switch kind {
            case .svg:
                let surface = cairo_svg_surface_create(path, page.width, page.height)
                defer { cairo_surface_destroy(surface) }
                try draw(page, on: surface, scale: 1, path: path)
                cairo_surface_finish(surface)
                try check(cairo_surface_status(surface), path)
            case .png:
                let scale = min(pngDPI / 72, maxPixels / max(page.width, page.height, 1))
                let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, pixels(page.width * scale),
                                                         pixels(page.height * scale))
                defer { cairo_surface_destroy(surface) }
                try draw(page, on: surface, scale: scale, path: path)
                try check(cairo_surface_write_to_png(surface, path), path)
            }
            progress(.drawn(page.number))
        }
        return summary.diagnostics
    }

    private static func draw(_ page: Page, on surface: OpaquePointer?, scale: Double, path: String) throws {
        try check(cairo_surface_status(surface), path)
        guard let surface else { throw PDFRenderError(path: path, reason: PDFRenderer.describe(CAIRO_STATUS_NULL_POINTER)) }
        let context = CairoContext(surface: surface)
        let cr = context.cr
        cairo_set_source_rgb(cr, 1, 1, 1)   // paper, not transparency
        cairo_paint(cr)
        cairo_scale(cr, scale, scale)
        PDFRenderer.draw(page, on: cr)
        cairo_show_page(cr)
        try check(cairo_status(cr), path)
    }

    /// A side in pixels: at most maxPixels already, clamped all the same to cairo's largest image so that no
    /// page size can trap in the conversion.
    private static func pixels(_ length: Double) -> Int32 {
        length.isNaN ? 1 : Int32(min(max(length.rounded(), 1), 32_767))
    }

    private static func check(_ status: cairo_status_t, _ path: String) throws {
        if status != CAIRO_STATUS_SUCCESS { throw PDFRenderError(path: path, reason: PDFRenderer.describe(status)) }
    }
}
