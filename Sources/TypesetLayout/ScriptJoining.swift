// Letters of right-to-left and joining scripts are never spaced apart: spacing Arabic's joined letters breaks
// the joins (a gap in the baseline stroke), and Hebrew is set RTL beside it. Justification fills such lines
// with word space only. A word broken between two joined letters keeps them joined (`joinsAcross`).

import CPangoCairo

enum ScriptJoining {
    /// Scripts whose letters connect: spacing them apart breaks the connecting strokes.
    private static let joining: Set<UInt32> = [
        PANGO_SCRIPT_ARABIC.rawValue, PANGO_SCRIPT_SYRIAC.rawValue, PANGO_SCRIPT_NKO.rawValue,
        PANGO_SCRIPT_MONGOLIAN.rawValue, PANGO_SCRIPT_MANDAIC.rawValue, PANGO_SCRIPT_DEVANAGARI.rawValue,
        PANGO_SCRIPT_BENGALI.rawValue, PANGO_SCRIPT_GURMUKHI.rawValue,
    ].reduce(into: Set<UInt32>()) { $0.insert(UInt32($1)) }

    /// Whether a layout line holds a right-to-left run or a run of a joining script: then it gets no tracking.
    static func forbidsLetterSpacing(_ line: UnsafeMutablePointer<PangoLayoutLine>) -> Bool {
        var runNode = line.pointee.runs
        while let rn = runNode {
            let item = rn.pointee.data.assumingMemoryBound(to: PangoGlyphItem.self).pointee.item.pointee
            if item.analysis.level & 1 == 1 || joining.contains(UInt32(item.analysis.script)) { return true }
            runNode = rn.pointee.next
        }
        return false
    }

    /// Whether a break at byte `byte` of `text` falls between two letters that connect (`مكتبة` broken as
    /// `مكت|بة`), vowel marks passed over. Broken plainly, each side takes an end form (a final `ت` is three
    /// times as wide as a medial one) and the line is no longer as wide as the breaker measured it.
    static func joinsAcross(_ text: UnsafeBufferPointer<UInt8>, at byte: Int) -> Bool {
        guard byte > 0, byte < text.count, text[byte - 1] >= 0x80, text[byte] >= 0x80 else { return false }
        var before = byte
        for _ in 0..<8 {  // a letter and its marks
            repeat { before -= 1 } while before > 0 && text[before] & 0xC0 == 0x80
            let c = Protrusion.scalar(text, before)
            if typeset_join_skips(c) == 0 {
                guard typeset_joins_to_next(c) != 0 else { return false }
                break
            }
            if before == 0 { return false }
        }
        var after = byte
        for _ in 0..<8 {
            guard after < text.count else { return false }
            let c = Protrusion.scalar(text, after)
            if typeset_join_skips(c) == 0 { return typeset_joins_to_previous(c) != 0 }
            after += 1
            while after < text.count && text[after] & 0xC0 == 0x80 { after += 1 }
        }
        return false
    }
}
