// IR attribute runs -> PangoAttrList. Runs are UTF-8 byte ranges, which are exactly Pango's indices.

import CPangoCairo
import TypesetIR

enum AttributeBuilder {
    /// Fills `list` with the attributes of `runs` that differ from the layout's base font `base`
    /// (set on the layout as its font description) or from Pango's defaults. Colours, underlines and strike
    /// lines go to `decorations` when it is given: the layout's runs get them after line breaking
    /// (RunDecorations.swift), which keeps a paragraph of thousands of styled spans linear; backgrounds go there
    /// too, to be measured with the lines and filled by the renderer (LineBackgrounds.swift).
    /// `text`: the layout's text, for `mergingLinks` (nil: the runs as they are).
    static func build(runs: [AttributeRun], base: FontKey, into list: AttributeListHandle,
                      decorations: RunDecorations? = nil, text: UnsafePointer<CChar>? = nil,
                      expansionSpacing: [Int: Double] = [:]) {
        func decorate(_ attribute: UnsafeMutablePointer<PangoAttribute>?, _ range: Range<Int>) {
            guard let attribute else { return }
            if let decorations { decorations.add(attribute, range) } else { list.insert(attribute, range) }
        }
        let runs = text.map { mergingLinks(runs, text: $0) } ?? runs
        for run in runs where !run.range.isEmpty {
            let a = run.attributes
            let r = run.range
            if a.fontFamily != base.family {
                a.fontFamily.withCString { list.insert(pango_attr_family_new($0), r) }
            }
            if a.fontSize != base.size {
                list.insert(pango_attr_size_new_absolute(toPango(a.fontSize)), r)
            }
            let weight = min(max(a.weight, 100), 1000)
            if weight != base.weight {
                list.insert(pango_attr_weight_new(PangoWeight(rawValue: UInt32(clamping: weight))), r)
            }
            if a.style != base.style {
                list.insert(pango_attr_style_new(a.style.pangoStyle), r)
            }
            if a.isDrawnByRenderer {
                // The renderer draws these glyphs itself (stroked, slanted or scaled). Pango still sets the text,
                // at alpha 257/65535 (0 means "unset" to Pango, and cairo drops anything at or below 255 as clear),
                // so it stays selectable and searchable in the PDF.
                decorate(pango_attr_foreground_new(65535, 65535, 65535), r)
                decorate(pango_attr_foreground_alpha_new(257), r)
            } else if a.color != .black {
                let c = a.color
                decorate(pango_attr_foreground_new(channel(c.red), channel(c.green), channel(c.blue)), r)
                if c.alpha < 1 { decorate(pango_attr_foreground_alpha_new(channel(c.alpha)), r) }
            }
            if let bg = a.background {
                if let decorations {
                    // Measured with the lines and filled before them (LineBackgrounds.swift); alpha 0 is
                    // opaque, as Pango reads it.
                    decorations.addBackground(r, LineBackground.Color(red: channel(bg.red), green: channel(bg.green),
                                                                      blue: channel(bg.blue),
                                                                      alpha: bg.alpha < 1 ? channel(bg.alpha) : 0))
                } else {
                    list.insert(pango_attr_background_new(channel(bg.red), channel(bg.green), channel(bg.blue)), r)
                    if bg.alpha < 1 { list.insert(pango_attr_background_alpha_new(channel(bg.alpha)), r) }
                }
            }
            if a.underline != .none && a.underline != .thick && !a.isDrawnByRenderer {
                decorate(pango_attr_underline_new(a.underline.pangoUnderline), r)
                if let c = a.underlineColor {
                    decorate(pango_attr_underline_color_new(channel(c.red), channel(c.green), channel(c.blue)), r)
                }
            }
            if a.strike == .single && !a.isDrawnByRenderer {
                // Pango draws one strike line; the renderer draws `double` itself (RunEffects).
                decorate(pango_attr_strikethrough_new(1), r)
                if let c = a.strikeColor {
                    decorate(pango_attr_strikethrough_color_new(channel(c.red), channel(c.green), channel(c.blue)), r)
                }
            }
            if a.baselineShift != 0 {
                list.insert(pango_attr_rise_new(toPango(a.baselineShift)), r)
            }
            // Expansion is drawn with a horizontal scale (RunEffects); here it reserves its width as letter
            // spacing: measured (ExpansionSpacing), else estimated from an average advance of half an em.
            let spacing = a.letterSpacing + (a.expansion == 0 ? 0
                : expansionSpacing[r.lowerBound] ?? a.expansion * a.fontSize * expansionAdvance)
            if spacing != 0 {
                list.insert(pango_attr_letter_spacing_new(toPango(spacing)), r)
            }
            var features = a.fontFeatures ?? ""
            if !a.ligatures { features += features.isEmpty ? "liga=0, clig=0" : ", liga=0, clig=0" }
            if !features.isEmpty {
                features.withCString { list.insert(pango_attr_font_features_new($0), r) }
            }
            if a.smallCaps {
                list.insert(pango_attr_variant_new(PANGO_VARIANT_SMALL_CAPS), r)
            }
            if let language = a.language {
                let lang = language.withCString { pango_language_from_string($0) }
                list.insert(pango_attr_language_new(lang), r)
            }
            // strokeWidth/strokeColor, shadow, obliqueAngle and the scale of expansion are drawn by the renderer.
        }
    }

    /// Links as Pango should see them. Each boundary in the attribute list starts a Pango item, drawn as a text
    /// object of its own, and a paragraph of links (`[a] [b] ...`) would cost two per link, each link's and each
    /// space's (issue 8). So a link's run and a neighbour with the same Pango attributes become one range, and a
    /// run of spaces beside a link whose only difference is its colour takes the link's (spaces draw nothing).
    /// Link areas still come from the runs as they were (ParagraphLayout.linkSpans).
    static func mergingLinks(_ runs: [AttributeRun], text: UnsafePointer<CChar>) -> [AttributeRun] {
        guard runs.contains(where: { $0.link != nil }) else { return runs }
        let length = strlen(text)
        func spacesOnly(_ r: Range<Int>) -> Bool {
            r.lowerBound >= 0 && r.upperBound <= length && r.allSatisfy { text[$0] == 0x20 }
        }
        // A paragraph of links alternates between a few attribute sets: what is known of a pair is kept (by
        // the identity of their shared attributes) instead of comparing copies of them for every link.
        var pairs: [PairKey: PairFacts] = [:]
        func facts(_ a: AttributeRun, _ b: AttributeRun) -> PairFacts {
            let key = PairKey(a: a.attributesIdentity, b: b.attributesIdentity)
            if let known = pairs[key] { return known }
            let x = a.attributes, y = b.attributes
            let made = PairFacts(mergeable: !x.hasRenderEffects && !y.hasRenderEffects, same: samePango(x, y),
                                 secondTakesFirst: recolourable(y, as: x), firstTakesSecond: recolourable(x, as: y))
            if pairs.count < 64 { pairs[key] = made }
            return made
        }
        var out: [AttributeRun] = []
        out.reserveCapacity(runs.count)
        for run in runs where !run.range.isEmpty {
            guard let last = out.last, last.range.upperBound == run.range.lowerBound,
                  last.link != nil || run.link != nil else {
                out.append(run)
                continue
            }
            let known = facts(last, run)
            guard known.mergeable else {
                out.append(run)
                continue
            }
            // The merged range keeps the attributes of one of the two (their shared storage, not a new copy).
            var merged: AttributeRun
            if known.same || spacesOnly(run.range) && known.secondTakesFirst {
                merged = last
            } else if spacesOnly(last.range), known.firstTakesSecond {
                merged = run
            } else {
                out.append(run)
                continue
            }
            merged.range = last.range.lowerBound ..< run.range.upperBound
            out[out.count - 1] = merged
        }
        return out
    }

    private struct PairKey: Hashable { var a, b: ObjectIdentifier }
    private struct PairFacts { var mergeable, same, secondTakesFirst, firstTakesSecond: Bool }

    /// Whether two runs set the same Pango attributes (a link's target is not one).
    private static func samePango(_ a: CharacterAttributes, _ b: CharacterAttributes) -> Bool {
        var a = a, b = b
        a.link = nil
        b.link = nil
        return a == b
    }

    /// Whether spaces set with `spaces` look the same in `other`'s colour: nothing drawn under or through them.
    private static func recolourable(_ spaces: CharacterAttributes, as other: CharacterAttributes) -> Bool {
        guard spaces.background == nil, spaces.underline == .none, spaces.strike == .none else { return false }
        var recoloured = spaces
        recoloured.color = other.color
        return samePango(recoloured, other)
    }

    /// The average glyph advance, in ems, that expansion's reserved width assumes.
    static let expansionAdvance = 0.55

    @inline(__always) static func channel(_ v: Double) -> UInt16 {
        v.isNaN ? 0 : UInt16((min(max(v, 0), 1) * 65535).rounded())
    }
}

extension UnderlineStyle {
    var pangoUnderline: PangoUnderline {
        switch self {
        case .none: return PANGO_UNDERLINE_NONE
        case .single: return PANGO_UNDERLINE_SINGLE
        case .double: return PANGO_UNDERLINE_DOUBLE
        // Pango has no thick underline: LOW sits below descenders and reads as heavier.
        case .thick: return PANGO_UNDERLINE_LOW
        // Pango's error underline is its squiggly line.
        case .wavy: return PANGO_UNDERLINE_ERROR
        }
    }
}

extension CharacterAttributes {
    /// Stroke, synthetic slant and expansion: the renderer draws these runs' glyphs and decorations itself.
    public var isDrawnByRenderer: Bool { strokeWidth != 0 || obliqueAngle != 0 || expansion != 0 }

    /// Anything the renderer adds to what Pango draws (shadows and double strikes too).
    public var hasRenderEffects: Bool { isDrawnByRenderer || shadow != nil || strike == .double || underline == .thick }
}
