// One lock around Pango's font metrics, so that `--jobs 2` breaks lines exactly as `--jobs 1` does, and around its
// glyph extents and the drawing of a page, so that no thread's FreeType face is closed under it by cairo.

import CPangoCairo
import Foundation

/// Pango (1.50) measures a font's metrics the first time they are asked for, per font and language, and keeps
/// them. The approximate character width in them comes from a small layout, made behind a process-wide
/// `static int in_get_metrics` that stops recursion but is not per thread. When a worker's font map measures a
/// font at the same moment as the paginating thread's, one of them sees the flag set, skips the measuring and
/// keeps a width of 0 for good. Pango's line breaker uses three times that width as its margin for looking at
/// break opportunities inside an item, so the same text then broke differently from run to run (seen with
/// Arabic next to characters no font has, broken inside a word in a narrow column).
///
/// Every font the engines load is of one class (pangocairo's fontconfig font); its `get_metrics` is wrapped
/// once, before any engine exists, so that only one thread at a time runs it. The lock is recursive because
/// measuring lays out text, which asks for metrics again on the same thread. A cached answer takes the lock
/// only for a list lookup.
enum FontMetricsGuard {
    typealias GetMetrics = @convention(c) (UnsafeMutablePointer<PangoFont>?, OpaquePointer?)
        -> UnsafeMutablePointer<PangoFontMetrics>?

    private static let lock = NSRecursiveLock()
    nonisolated(unsafe) private static var unguarded: GetMetrics? = nil
    typealias GetGlyphExtents = @convention(c) (UnsafeMutablePointer<PangoFont>?, PangoGlyph,
                                                UnsafeMutablePointer<PangoRectangle>?, UnsafeMutablePointer<PangoRectangle>?) -> Void
    nonisolated(unsafe) private static var unguardedExtents: GetGlyphExtents? = nil

    /// Runs `body` (the paginating thread drawing a page with `--jobs` above 1) while no worker
    /// measures glyphs. cairo 1.16 keeps at most 10 FreeType faces open for the whole process and closes the
    /// least recently used one when it opens another; a face one thread reads while another thread's glyph
    /// lookup opens an eleventh is closed under it (a NULL face in cairo-ft, inside `cairo_show_text_glyphs`:
    /// 382 pages of real READMEs in many faces crashed about one run in three with `--jobs 2`). Workers reach
    /// cairo-ft through Pango's glyph extents and metrics, which are wrapped to take the same lock.
    static func withCairoFonts<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// Installs the wrapper the first time it is read; engines read it in `init`.
    static let installed: Bool = {
        guard let classPointer = referencedFontClass() else { return false }
        // Kept referenced for the process: the class must not be finalized while the wrapper is in it.
        let fontClass = classPointer.assumingMemoryBound(to: PangoFontClass.self)
        guard let original = fontClass.pointee.get_metrics else { return false }
        unguarded = original
        let guarded: GetMetrics = { font, language in
            FontMetricsGuard.lock.lock()
            defer { FontMetricsGuard.lock.unlock() }
            return FontMetricsGuard.unguarded?(font, language)
        }
        fontClass.pointee.get_metrics = guarded
        if let extents = fontClass.pointee.get_glyph_extents {
            unguardedExtents = extents
            let guardedExtents: GetGlyphExtents = { font, glyph, ink, logical in
                FontMetricsGuard.lock.lock()
                defer { FontMetricsGuard.lock.unlock() }
                FontMetricsGuard.unguardedExtents?(font, glyph, ink, logical)
            }
            fontClass.pointee.get_glyph_extents = guardedExtents
        }
        return true
    }()

    /// The class of pangocairo's fontconfig fonts, referenced. libpangocairo exports its type function though
    /// no installed header declares it; should a build hide it, the class comes from a font loaded once.
    private static func referencedFontClass() -> UnsafeMutableRawPointer? {
        typealias TypeFunction = @convention(c) () -> GType
        if let symbol = dlsym(nil, "pango_cairo_fc_font_get_type") {
            return g_type_class_ref(unsafeBitCast(symbol, to: TypeFunction.self)())
        }
        guard let fontMap = pango_cairo_font_map_new() else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(fontMap)) }
        guard let context = pango_font_map_create_context(fontMap) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(context)) }
        guard let description = pango_font_description_from_string("Sans 12") else { return nil }
        defer { pango_font_description_free(description) }
        guard let font = pango_font_map_load_font(fontMap, context, description) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(font)) }
        let instance = UnsafeMutableRawPointer(font).assumingMemoryBound(to: GTypeInstance.self)
        guard let type = instance.pointee.g_class?.pointee.g_type else { return nil }
        return g_type_class_ref(type)
    }
}
