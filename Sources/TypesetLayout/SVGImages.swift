// SVG images through librsvg: parsed once per file and drawn into a cairo recording surface, which the PDF
// surface replays as vector operations (a form XObject of paths and text, never an image). Drawing at load
// time reports a document librsvg cannot draw where the image is placed, not halfway through the PDF.
//
// Bounds: the file size is checked when lowering (ImageLimits.maxSVGBytes); librsvg's default flags keep its
// XML and element limits (no RSVG_HANDLE_FLAG_UNLIMITED); the handle is made from bytes with no base file,
// so librsvg loads no external file at all (only `data:` URLs); the intrinsic size obeys the raster limits.

import CPangoCairo
import CRsvg
import Foundation
import TypesetIR

enum SVGImages {
    /// CSS px per inch: librsvg's lengths in pt, mm, in resolve to px at this resolution.
    static let dpi = 96.0
    /// Size when the SVG gives neither an absolute width/height nor a viewBox (CSS's default object size).
    static let defaultSize = (width: 300.0, height: 150.0)

    static func load(_ bytes: [UInt8], path: String) -> Result<ImageSurface, ImageError> {
        guard typeset_svg_load() != 0 else {
            let reason = typeset_svg_unavailable().map { String(cString: $0) } ?? "librsvg cannot be loaded"
            return .failure(ImageError(path: path, reason: "cannot be drawn (\(reason))"))
        }
        var error: UnsafeMutablePointer<CChar>? = nil
        let handle = bytes.withUnsafeBufferPointer { buffer in
            typeset_svg_new(buffer.baseAddress, UInt(buffer.count), &error)
        }
        guard let handle else {
            let reason = (take(error) ?? "unknown error").trimmingCharacters(in: .whitespacesAndNewlines)
            return .failure(ImageError(path: path, reason: "is not a readable SVG (\(reason))"))
        }
        _ = take(error)
        defer { typeset_svg_free(handle) }
        typeset_svg_set_dpi(handle, dpi)
        let (width, height) = intrinsicSize(handle)
        guard width.isFinite, height.isFinite, width > 0, height > 0 else {
            return .failure(ImageError(path: path, reason: "has no area (its width or height is zero)"))
        }
        if let problem = ImageLimits.sizeProblem(width: width, height: height) {
            return .failure(ImageError(path: path, reason: "is \(problem)"))
        }
        var extents = cairo_rectangle_t(x: 0, y: 0, width: width, height: height)
        guard let recording = cairo_recording_surface_create(CAIRO_CONTENT_COLOR_ALPHA, &extents) else {
            return .failure(ImageError(path: path, reason: "cannot be drawn (out of memory)"))
        }
        let cr = cairo_create(recording)
        let drawn = typeset_svg_render(handle, UnsafeMutableRawPointer(cr), 0, 0, width, height, &error)
        let status = cairo_status(cr)
        cairo_destroy(cr)
        let message = take(error)
        guard drawn != 0, status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(recording)
            let reason = message ?? String(cString: cairo_status_to_string(status))
            return .failure(ImageError(path: path, reason: "cannot be drawn (\(reason))"))
        }
        return .success(ImageSurface(surface: recording, width: width, height: height))
    }

    /// Width and height in CSS px: the absolute width/height, else the viewBox, else 300 x 150.
    static func intrinsicSize(_ handle: OpaquePointer) -> (Double, Double) {
        var width = 0.0, height = 0.0
        if typeset_svg_size_in_pixels(handle, &width, &height) != 0 { return (width, height) }
        if typeset_svg_viewbox(handle, &width, &height) != 0 { return (width, height) }
        return defaultSize
    }

    /// A message from the loader, freeing it.
    private static func take(_ message: UnsafeMutablePointer<CChar>?) -> String? {
        guard let message else { return nil }
        defer { free(message) }
        return String(cString: message)
    }
}
