// Text that is in the PDF but paints nothing, for outline-only runs (`stroke` > 0): the glyph outlines are
// stroked as paths, and the characters must still be searchable and copyable without any fill under the
// outline. PDF's way is text render mode 3, which cairo 1.16 cannot write; a cairo user font whose glyphs
// are empty does the same: a Type 3 font with a ToUnicode map, empty glyph procedures, and the real font's
// advances (so text extraction sees the same words at the same places).

import CPangoCairo
import Foundation

/// One user font per real font face, kept for the life of the process (there are only a few faces).
final class InvisibleFace: @unchecked Sendable {
    let face: OpaquePointer
    /// The real face at one unit, unhinted: advances and extents in em.
    let unit: OpaquePointer

    private init(real: OpaquePointer) {
        var identity = cairo_matrix_t()
        cairo_matrix_init_identity(&identity)
        let options = cairo_font_options_create()
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        unit = cairo_scaled_font_create(real, &identity, &identity, options)
        cairo_font_options_destroy(options)
        face = cairo_user_font_face_create()
        cairo_user_font_face_set_init_func(face) { scaled, _, extents in
            guard let me = InvisibleFace.owner(of: scaled), let extents else { return CAIRO_STATUS_SUCCESS }
            cairo_scaled_font_extents(me.unit, extents)
            return CAIRO_STATUS_SUCCESS
        }
        cairo_user_font_face_set_render_glyph_func(face) { scaled, glyph, _, extents in
            // Draws nothing, but reports the real glyph's box and advance, so the font's bbox and the text's
            // place on the line read as the real font's.
            guard let me = InvisibleFace.owner(of: scaled), let extents else { return CAIRO_STATUS_SUCCESS }
            var real = cairo_glyph_t(index: glyph, x: 0, y: 0)
            cairo_scaled_font_glyph_extents(me.unit, &real, 1, extents)
            return CAIRO_STATUS_SUCCESS
        }
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var faces: [OpaquePointer: InvisibleFace] = [:]  // guarded by `lock`
    nonisolated(unsafe) private static let key = UnsafeMutablePointer<cairo_user_data_key_t>.allocate(capacity: 1)

    static func face(for real: OpaquePointer) -> InvisibleFace {
        lock.lock()
        defer { lock.unlock() }
        if let known = faces[real] { return known }
        let made = InvisibleFace(real: real)
        cairo_font_face_reference(real)  // the key of `faces` must stay alive
        cairo_font_face_set_user_data(made.face, key, Unmanaged.passUnretained(made).toOpaque(), nil)
        faces[real] = made
        return made
    }

    private static func owner(of scaled: OpaquePointer?) -> InvisibleFace? {
        guard let face = cairo_scaled_font_get_font_face(scaled),
              let data = cairo_font_face_get_user_data(face, key) else { return nil }
        return Unmanaged<InvisibleFace>.fromOpaque(data).takeUnretainedValue()
    }
}

enum InvisibleText {
    /// Shows `run`'s characters in the invisible face at the run's glyph positions.
    static func show(_ run: EffectRun, on cr: OpaquePointer) {
        guard let scaled = pango_cairo_font_get_scaled_font(OpaquePointer(run.font)),
              let real = cairo_scaled_font_get_font_face(scaled),
              let pieces = clusters(run), !pieces.glyphs.isEmpty,
              let length = Int32(exactly: pieces.bytes.count), let glyphCount = Int32(exactly: pieces.glyphs.count),
              let clusterCount = Int32(exactly: pieces.clusters.count) else { return }
        var matrix = cairo_matrix_t()
        cairo_scaled_font_get_font_matrix(scaled, &matrix)
        cairo_save(cr)
        cairo_set_font_face(cr, InvisibleFace.face(for: real).face)
        cairo_set_font_matrix(cr, &matrix)
        cairo_set_source_rgb(cr, 0, 0, 0)  // paints nothing; black keeps the run's colours out of the stream
        cairo_show_text_glyphs(cr, run.text + pieces.bytes.lowerBound, length, pieces.glyphs, glyphCount,
                               pieces.clusters, clusterCount,
                               pieces.backward ? CAIRO_TEXT_CLUSTER_FLAG_BACKWARD : cairo_text_cluster_flags_t(0))
        cairo_restore(cr)
    }

    /// The run's glyphs (in page space) and their clusters over the byte range of text they come from.
    /// Empty and unknown glyphs are left out (Pango draws a box for an unknown one itself).
    static func clusters(_ run: EffectRun) -> (glyphs: [cairo_glyph_t], clusters: [cairo_text_cluster_t],
                                                  bytes: Range<Int>, backward: Bool)? {
        let g = run.glyphs.pointee
        let count = Int(g.num_glyphs)
        guard count > 0 else { return nil }
        let starts = (0..<count).map { Int(g.log_clusters[$0]) }
        let backward = count > 1 && starts[0] > starts[count - 1]
        // A cluster ends where the next one in text order starts (or at the end of the item).
        let sorted = Array(Set(starts)).sorted()
        func end(of start: Int) -> Int {
            var lo = 0, hi = sorted.count
            while lo < hi { let mid = (lo + hi) / 2; if sorted[mid] <= start { lo = mid + 1 } else { hi = mid } }
            return lo < sorted.count ? sorted[lo] : run.itemLength
        }
        var glyphs: [cairo_glyph_t] = []
        var groups: [cairo_text_cluster_t] = []
        var x = run.x
        var i = 0
        while i < count {
            var j = i, shown: Int32 = 0
            while j < count && starts[j] == starts[i] {
                let info = g.glyphs[j]
                if info.glyph != PANGO_GLYPH_EMPTY && info.glyph & PANGO_GLYPH_UNKNOWN_FLAG == 0 {
                    glyphs.append(cairo_glyph_t(index: UInt(info.glyph),
                                                x: x + Double(info.geometry.x_offset) / 1024,
                                                y: run.y + Double(info.geometry.y_offset) / 1024))
                    shown += 1
                }
                x += Double(info.geometry.width) / 1024
                j += 1
            }
            groups.append(cairo_text_cluster_t(num_bytes: Int32(clamping: end(of: starts[i]) - starts[i]), num_glyphs: shown))
            i = j
        }
        let first = starts.min() ?? 0, last = starts.max().map(end(of:)) ?? 0
        guard first < last else { return nil }
        // Cairo refuses clusters that do not add up to the text and glyphs exactly (and the context would stay in
        // error): should Pango ever hand over clusters out of order, one cluster covers the whole run.
        if groups.reduce(0, { $0 + Int($1.num_bytes) }) != last - first {
            groups = [cairo_text_cluster_t(num_bytes: Int32(clamping: last - first), num_glyphs: Int32(clamping: glyphs.count))]
        }
        // Backward clusters are listed in text order and take glyphs from the end of the array.
        return (glyphs, backward ? groups.reversed() : groups, (run.itemOffset + first)..<(run.itemOffset + last), backward)
    }
}
