// Characters no installed font can draw (contract section 1): Pango shapes them as a box showing the hex
// code (an unknown glyph). Each is a warning at its paragraph, never a silent box. The check costs one
// count per layout when every character has a glyph; the glyphs are walked only when some have none.

import CPangoCairo
import RTSyntax

public enum UnknownGlyphs {
    /// PANGO_GLYPH_UNKNOWN_FLAG (a C macro with a cast, not imported): the glyph is `codepoint | flag`.
    static let flag: UInt32 = 0x1000_0000
    /// PANGO_GLYPH_INVALID_INPUT: bytes that are not text, not a character.
    static let invalidInput: UInt32 = 0xFFFF_FFFF
    static let messageTail = "is not in any installed font and would print as an empty box: install a font that has it, or load one with 'fonts:'"

    /// One warning per distinct character `layout` has no glyph for, in order of first appearance.
    static func warnings(_ layout: OpaquePointer, at location: SourceLocation?) -> [Diagnostic] {
        guard pango_layout_get_unknown_glyphs_count(layout) > 0 else { return [] }
        var seen = Set<UInt32>()
        var found: [UInt32] = []
        guard let iter = pango_layout_get_iter(layout) else { return [] }
        repeat {
            guard let run = pango_layout_iter_get_run_readonly(iter), let glyphs = run.pointee.glyphs else { continue }
            let count = Int(glyphs.pointee.num_glyphs)
            guard count > 0, let infos = glyphs.pointee.glyphs else { continue }
            for k in 0 ..< count {
                let glyph = infos[k].glyph
                guard glyph & flag != 0, glyph != invalidInput else { continue }
                let codepoint = glyph & ~flag
                if seen.insert(codepoint).inserted { found.append(codepoint) }
            }
        } while pango_layout_iter_next_run(iter) != 0
        pango_layout_iter_free(iter)
        return found.map { .warning(message(for: $0), at: location) }
    }

    /// Whether `d` is one of `warnings`' (before `summarized` groups them).
    public static func isUnknownGlyph(_ d: Diagnostic) -> Bool {
        d.severity == .warning && d.message.hasPrefix("character U+") && d.message.hasSuffix(messageTail)
    }

    /// The character a `warnings` diagnostic is about (its message starts `character U+XXXX`).
    public static func scalar(in d: Diagnostic) -> Unicode.Scalar? {
        let rest = d.message.dropFirst("character U+".count).prefix { $0.isHexDigit }
        return UInt32(rest, radix: 16).flatMap(Unicode.Scalar.init)
    }

    static func message(for codepoint: UInt32) -> String {
        let hex = String(codepoint, radix: 16, uppercase: true)
        let name = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        if let scalar = Unicode.Scalar(codepoint), scalar.properties.generalCategory == .control {
            // Dropped when read from a file; this one came in another way (a variable's value).
            return "character \(name) (a control character, from a variable's value?) \(messageTail)"
        }
        guard let scalar = Unicode.Scalar(codepoint), !scalar.properties.generalCategory.isInvisible else {
            return "character \(name) \(messageTail)"
        }
        return "character \(name) '\(Character(scalar))' \(messageTail)"
    }

    /// Reports each character once, at its first paragraph (`diagnostics` in source order), and the characters
    /// first met in one paragraph in one warning (a word of a missing script is one warning, not one per letter).
    public static func summarized(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        var seen = Set<String>()
        var out: [Diagnostic] = []
        var groups: [SourceLocation?: (index: Int, names: [String])] = [:]
        for d in diagnostics {
            guard d.severity == .warning, d.message.hasPrefix("character U+"), d.message.hasSuffix(messageTail) else {
                out.append(d)
                continue
            }
            let name = String(d.message.dropFirst("character ".count).dropLast(messageTail.count + 1))
            let code = String(name.prefix { $0 != " " })
            guard seen.insert(code).inserted else { continue }
            if let group = groups[d.location] {
                groups[d.location]?.names.append(name)
                out[group.index].message = groupMessage(group.names + [name])
            } else {
                groups[d.location] = (out.count, [name])
                out.append(d)
            }
        }
        return out
    }

    static func groupMessage(_ names: [String]) -> String {
        let shown = names.prefix(8).joined(separator: ", ") + (names.count > 8 ? " and \(names.count - 8) more" : "")
        return "\(names.count) characters are not in any installed font and would print as empty boxes: \(shown); "
            + "install a font that has them, or load one with 'fonts:'"
    }
}

private extension Unicode.GeneralCategory {
    /// Controls, formats, separators and unassigned code points: quoting them would show nothing useful.
    var isInvisible: Bool {
        switch self {
        case .control, .format, .surrogate, .privateUse, .unassigned, .lineSeparator, .paragraphSeparator, .spaceSeparator:
            return true
        default:
            return false
        }
    }
}
