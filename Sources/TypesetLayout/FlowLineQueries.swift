// What line-by-line placement beside shapes (FlowPlacement.swift) asks of a laid-out paragraph: how tall its
// lines are, where a line starts in the paragraph's text, and whether a line holds whole words.

import Foundation

extension ParagraphLayout {
    /// Whether `gap` and the lines' advances add up to more than `limit`. Only as many lines are laid out as it
    /// takes (a paragraph in pieces): a long paragraph met near a shape was laid out whole here first.
    func isTaller(than limit: Double, after gap: Double) -> Bool {
        // Advances are the line's height plus the line spacing: never negative unless the spacing is.
        if paragraph.style.lineSpacing < 0 { return gap + height > limit }
        var total = 0.0, i = 0
        while hasLine(i) {
            total += line(i).advance
            if gap + total > limit { return true }
            i += 1
        }
        return false
    }

    /// The line whose height sets the bands of a flowed paragraph: the first without an inline image that has
    /// line spacing after it, else the first without an image, else the first. Advances are the height plus
    /// the line spacing (but on the last line), so the first line without an image decides: found lazily.
    var nominalLine: LineBox {
        var i = 0, plain: LineBox? = nil
        while hasLine(i) {
            let box = line(i)
            if !box.hasAttachment {
                if box.advance > box.height { return box }
                if plain == nil { plain = box }
                if paragraph.style.lineSpacing <= 0 { break }  // no line has an advance above its height
            }
            i += 1
        }
        return plain ?? line(0)
    }

    /// An offset in the laid-out text (total-fit edits included) as an offset in the paragraph's text.
    func sourceOffset(_ offset: Int) -> Int {
        var shift = 0
        for e in sourceEdits {
            let start = e.offset + shift
            if offset < start { break }
            if offset < start + e.inserted.count { return e.end }
            shift += e.delta
        }
        return offset - shift
    }

    /// Where the text after line `i` starts, in this layout's source text (`length` after the last line).
    func nextStart(after i: Int, length: Int) -> Int {
        i + 1 < lines.count ? sourceOffset(lines[i + 1].startIndex) : length
    }

    /// Whether line `i` fits `width` without breaking inside a word (its words are not too wide for it).
    func holdsWords(line i: Int, width: Double, end: Int, bytes: [UInt8]) -> Bool {
        // (what hangs into the margins, protrusion, is not part of the measure)
        let adjust = lines[i].adjustment
        if lines[i].width - adjust.protrudeLeft - adjust.protrudeRight > width + 0.5 { return false }
        if i < breakKinds.count { return breakKinds[i] != .plain }
        guard end > 0, end < bytes.count else { return true }
        return !(ParagraphLayout.isInWord(bytes[end - 1]) && ParagraphLayout.isInWord(bytes[end]))
    }

    /// An ASCII letter or digit.
    static func isLetterOrDigit(_ b: UInt8) -> Bool {
        let lower = b | 0x20
        return (lower >= 0x61 && lower <= 0x7A) || (b >= 0x30 && b <= 0x39)
    }

    /// A byte inside a word: not a space, tab, line feed or hyphen, nor the last byte of a soft hyphen (C2 AD) or
    /// of a line separator (E2 80 A8).
    static func isInWord(_ b: UInt8) -> Bool { b != 0x20 && b != 0x09 && b != 0x0A && b != 0x2D && b != 0xAD && b != 0xA8 }
}
