// Letters of right-to-left and joining scripts are never spaced apart: spacing Arabic's joined letters breaks
// the joins (a gap in the baseline stroke), and Hebrew is set RTL beside it. Justification fills such lines
// with word space only.

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
}
