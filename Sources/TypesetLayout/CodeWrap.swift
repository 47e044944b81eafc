// Code that wraps (`wrap=char`, section 4): break after a space or punctuation where there is one, else by
// character, and mark each wrapped piece with `↪` in the room of a hanging indent. The mark is drawn apart from
// the text, as an outline (Page.markLines), so copying the text leaves it out.

import CPangoCairo
import RTSyntax
import TypesetIR

extension ParagraphLayout {
    static let continuationMark = "\u{21AA}"
    /// U+200B ZERO WIDTH SPACE: a break opportunity that draws nothing.
    private static let zeroWidthSpace: [UInt8] = [0xE2, 0x80, 0x8B]

    /// Break opportunities after punctuation inside code lines that may be too long for `width` (Pango's line
    /// breaking allows none after `.` `(` `,` before letters). Lines that surely fit are left alone.
    static func codeBreakEdits(_ bytes: UnsafeBufferPointer<UInt8>, width: Double, fontSize: Double) -> [TextEdit] {
        // A monospace character is 0.6em: lines shorter than this many bytes cannot wrap.
        let fits = max(Int(width / (0.55 * max(fontSize, 1))), 1)
        var edits: [TextEdit] = []
        var lineStart = 0
        var i = 0
        while i <= bytes.count {
            if i == bytes.count || bytes[i] == 0x0A {
                if i - lineStart > fits {
                    for k in lineStart..<(i - 1) where isBreakAfter(bytes[k]) && isWordByte(bytes[k + 1]) {
                        edits.append(TextEdit(offset: k + 1, removed: 0, inserted: zeroWidthSpace))
                    }
                }
                lineStart = i + 1
            }
            i += 1
        }
        return edits
    }

    /// Runs moved through insertions, in one walk (runs and edits are both sorted).
    static func remap(_ runs: [AttributeRun], through edits: [TextEdit]) -> [AttributeRun] {
        var k = 0, shift = 0
        func mapped(_ offset: Int) -> Int {
            while k < edits.count && edits[k].end <= offset {
                shift += edits[k].delta
                k += 1
            }
            return offset + shift
        }
        return runs.map { run in
            let lower = mapped(run.range.lowerBound)
            return AttributeRun(range: lower..<max(lower, mapped(run.range.upperBound)), attributes: run.attributes)
        }
    }

    /// Whether wrapped code gets a break opportunity at `k` (see codeBreakEdits).
    static func isCodeBreak(_ bytes: [UInt8], at k: Int) -> Bool {
        k > 0 && k < bytes.count && isBreakAfter(bytes[k - 1]) && isWordByte(bytes[k])
    }

    private static func isBreakAfter(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "."), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: ":"), UInt8(ascii: "("),
             UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: "/"), UInt8(ascii: "\\"), UInt8(ascii: "="),
             UInt8(ascii: "&"), UInt8(ascii: "|"), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "?"):
            return true
        default:
            return false
        }
    }

    private static func isWordByte(_ b: UInt8) -> Bool { b != 0x20 && b != 0x09 && b != 0x0A }

    /// Whether line `i` continues the hard line above it (a wrapped piece of code gets the mark).
    func isContinuation(_ i: Int) -> Bool {
        guard i > 0, i < lines.count, paragraph.style.wrap == .char else { return false }
        return linePointers[i].pointee.is_paragraph_start == 0
    }
}

extension ParagraphLayout {
    /// The mark as a one-line layout in the code's font.
    static func markLayout(base: CharacterAttributes?, engine: LayoutEngine, images: ImageCache) -> ParagraphLayout {
        var attributes = base ?? CharacterAttributes()
        attributes.link = nil
        attributes.background = nil
        var style = ParagraphStyle()
        style.wrap = .none
        let text = continuationMark
        let paragraph = AttributedParagraph(text: text, runs: [AttributeRun(range: 0..<text.utf8.count, attributes: attributes)],
                                            style: style)
        var ignored: [Diagnostic] = []
        return ParagraphLayout(paragraph, columnWidth: 1000, engine: engine, images: images, diagnostics: &ignored)
    }
}
