// What the total-fit breaker needs to know about a paragraph (break opportunities and per-character advances),
// measured either exactly, from the paragraph shaped by Pango, or cheaply, from words shaped once per process.
//
// Why: realising the chosen lines needs the text shaped again with its line separators, so measuring by shaping
// the whole paragraph shaped every justified paragraph twice. Most engines measure words instead: a word's
// advances depend only on its font and bytes, so each distinct word is shaped once (with `pango_shape`, in the
// face Pango's itemizer picks first for the description) and reused; break opportunities come from
// `pango_get_log_attrs` on the text, which is what a layout computes too. What this ignores is kerning between a
// word and a space (none in common text faces). The only shaping left is the final one; `TotalFitParagraph`
// checks its lines still fit and falls back to the exact measurement when one does not.

import CPangoCairo
import TypesetIR

/// Break opportunities and advances of a paragraph's characters.
struct ParagraphMeasurement {
    /// One per character plus one for the end of the text (Pango's convention).
    var attrs: [PangoLogAttr]
    /// Pango units per character; a cluster's width goes to its first character.
    var advance: [Int32]
    var clusterStart: [Bool]
    var charCount: Int { advance.count }

    /// From `layout`, laid out without a width (one line per hard break): the exact measurement.
    static func exact(layout: OpaquePointer, text: UnsafeBufferPointer<UInt8>) -> ParagraphMeasurement? {
        var attrCount: Int32 = 0
        guard let pointer = pango_layout_get_log_attrs_readonly(layout, &attrCount), attrCount > 1 else { return nil }
        let charCount = Int(attrCount) - 1
        var byteChar = [Int32](repeating: 0, count: text.count + 1)
        var c = 0
        for (i, b) in text.enumerated() where b & 0xC0 != 0x80 {
            byteChar[i] = Int32(clamping: c)
            c += 1
        }
        var m = ParagraphMeasurement(attrs: Array(UnsafeBufferPointer(start: pointer, count: Int(attrCount))),
                                     advance: [Int32](repeating: 0, count: charCount),
                                     clusterStart: [Bool](repeating: false, count: charCount))
        TotalFitLines.forEachGlyph(in: pango_layout_get_lines_readonly(layout)) { byte, width in
            let ch = Int(byteChar[byte])
            m.advance[ch] += width
            m.clusterStart[ch] = true
        }
        return m
    }
}

/// Words shaped once per engine, keyed by face and bytes. Lives on the engine's Pango context (see `cache(for:)`),
/// so it is only used under the engine's lock, like the context itself.
final class WordMeasure {
    private struct WordKey: Hashable {
        var font: Int32
        var bytes: [UInt8]
    }
    private struct Shaped {
        var advance: [Int32]  // per character of the word
        var clusterStart: [Bool]
        var complete: Bool  // every character has a glyph in the face
    }
    private let context: OpaquePointer
    private var fonts: [OpaquePointer] = []  // PangoFont, owned
    private var fontIndex: [FontKey: Int32] = [:]
    private var words: [WordKey: Shaped] = [:]
    private var glyphs = allocated(pango_glyph_string_new(), "a glyph string")
    /// The layouts' language (none of the fast path's runs sets its own).
    private let language: OpaquePointer?

    private init(context: OpaquePointer) {
        self.context = context
        language = pango_context_get_language(context)
    }

    deinit {
        for f in fonts { g_object_unref(UnsafeMutableRawPointer(f)) }
        pango_glyph_string_free(glyphs)
    }

    private static let dataKey = "typeset-word-measure"

    /// The engine's cache, created on first use and freed with the engine's context.
    static func cache(for engine: LayoutEngine) -> WordMeasure {
        let object = UnsafeMutableRawPointer(engine.context).assumingMemoryBound(to: GObject.self)
        if let existing = g_object_get_data(object, dataKey) {
            return Unmanaged<WordMeasure>.fromOpaque(existing).takeUnretainedValue()
        }
        let made = WordMeasure(context: engine.context)
        g_object_set_data_full(object, dataKey, Unmanaged.passRetained(made).toOpaque()) { pointer in
            if let pointer { Unmanaged<WordMeasure>.fromOpaque(pointer).release() }
        }
        return made
    }

    /// Whether a paragraph may be measured by words: runs that change only the face (family, size, weight,
    /// style) or how it is drawn, no inline objects, and text in Latin script with nothing Pango treats specially when it
    /// lays out a paragraph (controls, hard breaks, soft hyphens, bidi, combining marks).
    static func isEligible(runs: [AttributeRun], base: FontKey, hasAttachments: Bool,
                           text: UnsafeBufferPointer<UInt8>) -> Bool {
        if hasAttachments { return false }
        for run in runs {
            let a = run.attributes
            if a.letterSpacing != 0 || a.expansion != 0 || a.fontFeatures != nil || a.smallCaps || !a.ligatures || a.language != nil {
                return false
            }
        }
        var i = 0
        while i < text.count {
            let b = text[i]
            if b < 0x80 {
                if b < 0x20 || b == 0x7F { return false }
                i += 1
                continue
            }
            var utf8 = UTF8()
            var iterator = text[i...].makeIterator()
            guard case .scalarValue(let s) = utf8.decode(&iterator) else { return false }
            let v = s.value
            let latin = (0xA0...0x24F).contains(v) && v != 0xAD
            let punctuation = (0x2010...0x2027).contains(v) || (0x2030...0x205E).contains(v) || v == 0x20AC
                || (0x2000...0x200A).contains(v)
            if !(latin || punctuation) { return false }
            i += UTF8.width(s)
        }
        return true
    }

    /// Measures an eligible paragraph, or nil when a character has no glyph in its face (then Pango would fall
    /// back to another font, which only the exact measurement sees) or no face loads.
    func measure(text: UnsafeBufferPointer<UInt8>, runs: [AttributeRun], base: FontKey,
                 engine: LayoutEngine) -> ParagraphMeasurement? {
        guard let textBase = text.baseAddress else { return nil }
        var charCount = 0
        for b in text where b & 0xC0 != 0x80 { charCount += 1 }
        var attrs = [PangoLogAttr](repeating: PangoLogAttr(), count: charCount + 1)
        textBase.withMemoryRebound(to: CChar.self, capacity: text.count) { chars in
            pango_get_log_attrs(chars, Int32(clamping: text.count), 0, language, &attrs, Int32(clamping: charCount + 1))
        }
        var m = ParagraphMeasurement(attrs: attrs, advance: [Int32](repeating: 0, count: charCount),
                                     clusterStart: [Bool](repeating: false, count: charCount))
        guard let baseFont = font(base, engine: engine) else { return nil }
        var runIndex = 0
        var byte = 0, ch = 0
        while byte < text.count {
            // The face at `byte`; runs are sorted and do not overlap, bytes no run covers take the base face.
            while runIndex < runs.count && runs[runIndex].range.upperBound <= byte { runIndex += 1 }
            var face = baseFont
            var runEnd = text.count
            if runIndex < runs.count {
                let run = runs[runIndex]
                if run.range.lowerBound <= byte {
                    guard let runFont = font(FontKey(run.attributes), engine: engine) else { return nil }
                    face = runFont
                    runEnd = run.range.upperBound
                } else {
                    runEnd = run.range.lowerBound
                }
            }
            // A word: one space, or characters up to the next space or face change.
            var end = byte
            if attrs[ch].is_white != 0 {
                end += Self.charLength(text[byte])
            } else {
                var c = ch
                while end < runEnd && attrs[c].is_white == 0 {
                    end += Self.charLength(text[end])
                    c += 1
                }
            }
            end = min(end, runEnd)
            let key = WordKey(font: face, bytes: Array(text[byte..<end]))
            let shaped: Shaped
            if let cached = words[key] {
                shaped = cached
            } else {
                shaped = shape(key)
                words[key] = shaped
            }
            guard shaped.complete, ch + shaped.advance.count <= charCount else { return nil }
            for k in 0..<shaped.advance.count {
                m.advance[ch + k] = shaped.advance[k]
                m.clusterStart[ch + k] = shaped.clusterStart[k]
            }
            ch += shaped.advance.count
            byte = end
        }
        return m
    }

    @inline(__always) private static func charLength(_ lead: UInt8) -> Int {
        lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
    }

    /// nil when Pango loads no font for the description (no fonts configured at all): the caller then takes the
    /// exact measurement, whose layout reports the missing glyphs as usual.
    private func font(_ key: FontKey, engine: LayoutEngine) -> Int32? {
        if let index = fontIndex[key] { return index }
        // The face the itemizer takes first for this description: Pango's fontset for it, first font.
        guard let loaded = pango_context_load_font(context, engine.fontDescription(key)) else { return nil }
        fonts.append(OpaquePointer(loaded))
        let index = Int32(clamping: fonts.count - 1)
        fontIndex[key] = index
        return index
    }

    private func shape(_ key: WordKey) -> Shaped {
        // Character index of each byte that starts a character (-1 inside one): a word may be very long.
        var charAt = [Int](repeating: -1, count: key.bytes.count)
        var count = 0
        for (i, b) in key.bytes.enumerated() where b & 0xC0 != 0x80 {
            charAt[i] = count
            count += 1
        }
        var out = Shaped(advance: [Int32](repeating: 0, count: count),
                         clusterStart: [Bool](repeating: false, count: count), complete: true)
        var analysis = PangoAnalysis()
        analysis.font = UnsafeMutablePointer(fonts[Int(key.font)])
        analysis.level = 0
        analysis.gravity = UInt8(PANGO_GRAVITY_SOUTH.rawValue)
        analysis.script = UInt8(PANGO_SCRIPT_LATIN.rawValue)
        analysis.language = language
        key.bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                pango_shape_with_flags(chars.baseAddress, Int32(clamping: chars.count), chars.baseAddress, Int32(clamping: chars.count),
                                       &analysis, glyphs, PANGO_SHAPE_NONE)
            }
        }
        let g = glyphs.pointee
        for i in 0..<Int(g.num_glyphs) {
            let glyph = g.glyphs[i]
            if glyph.glyph & PANGO_GLYPH_UNKNOWN_FLAG != 0 { out.complete = false }
            let cluster = Int(g.log_clusters[i])
            guard cluster >= 0, cluster < charAt.count, charAt[cluster] >= 0 else { out.complete = false; continue }
            let c = charAt[cluster]
            out.advance[c] += glyph.geometry.width
            out.clusterStart[c] = true
        }
        return out
    }
}
