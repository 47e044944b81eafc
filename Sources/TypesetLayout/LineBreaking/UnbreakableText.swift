// Text with no line-break opportunity for more than a few lines (`aaaa…`, `[ a_[ a_…`, `<<<<…`: UAX #14
// allows no break after `[ ` nor between `_` and `[`) is broken by Pango at character boundaries where a line is
// full. Pango finds each such break by shaping all the rest of its item again and trying word breaks before
// character breaks, so this text cost time quadratic in each layout (4 to 17 µs a character in pieces of a few
// lines). Here the text is shaped once without a width, the line ends are planned from the cumulative advances
// as Pango chooses them, and each planned line is made a Pango item of its own (an attribute boundary), so
// Pango shapes every line once: linear, about 0.9 µs a character (C probe on Pango 1.50). Pango still makes
// every break itself; item boundaries go only where Pango breaks the same with them as without (itemStarts:
// in a column a letter or two wide it did not), so a plan that is off costs time, not a different line.

import CPangoCairo
import Foundation
import TypesetIR

enum UnbreakableText {
    /// The first stretch of `bytes[from..<upTo]` longer than `minLength` bytes with no line-break opportunity
    /// inside it (its bounds are opportunities or the scanned range's ends), or nil.
    static func stretch(_ bytes: [UInt8], from: Int, upTo: Int, minLength: Int, code: Bool,
                        language: OpaquePointer?) -> Range<Int>? {
        guard upTo - from > minLength, !surelyBreakable(bytes, from: from, upTo: upTo, every: minLength, code: code)
        else { return nil }
        let opportunities = breaks(bytes, from: from, upTo: upTo, code: code, language: language)
        var last = from
        for b in opportunities + [upTo] {
            if b - last > minLength { return last..<b }
            last = b
        }
        return nil
    }

    /// Byte offsets in `from..<upTo` (exclusive of `from`) where a line may start: Pango's line breaks and hard
    /// breaks, and in wrapped code the places after punctuation where CodeWrap adds a break.
    static func breaks(_ bytes: [UInt8], from: Int, upTo: Int, code: Bool, language: OpaquePointer?) -> [Int] {
        var charCount = 0
        for k in from..<upTo where bytes[k] & 0xC0 != 0x80 { charCount += 1 }
        var attrs = [PangoLogAttr](repeating: PangoLogAttr(), count: charCount + 1)
        bytes.withUnsafeBufferPointer { all in
            guard let base = all.baseAddress else { return }
            (base + from).withMemoryRebound(to: CChar.self, capacity: upTo - from) { chars in
                pango_get_log_attrs(chars, Int32(clamping: upTo - from), 0, language, &attrs,
                                    Int32(clamping: charCount + 1))
            }
        }
        var result: [Int] = []
        var ch = 0
        for k in from..<upTo where bytes[k] & 0xC0 != 0x80 {
            if k > from && (attrs[ch].is_line_break != 0 || attrs[ch].is_mandatory_break != 0
                            || (code && ParagraphLayout.isCodeBreak(bytes, at: k))) {
                result.append(k)
            }
            ch += 1
        }
        return result
    }

    /// Whether every `every` bytes of the range hold a place that is a break opportunity in any context: a
    /// hard break, or the start of a letter, digit or other ASCII ordinary character (class AL, or OP) after
    /// spaces that follow printable ASCII other than an opening bracket or a quote (UAX #14 LB18 allows the
    /// break; LB14 and LB15, which forbid it, need those before the spaces). A cheap test that spares almost
    /// all prose the full analysis.
    private static func surelyBreakable(_ bytes: [UInt8], from: Int, upTo: Int, every: Int, code: Bool) -> Bool {
        var last = from
        var beforeSpaces: UInt8 = 0  // the last byte before the current run of spaces
        var k = from + 1
        while k < upTo {
            let b = bytes[k], previous = bytes[k - 1]
            if previous != 0x20 { beforeSpaces = previous }
            if previous == 0x0A || (previous == 0x20 && startsAfterSpace(b) && endsBeforeSpace(beforeSpaces)) {
                last = k
            } else if k - last > every {
                return false
            }
            k += 1
        }
        return upTo - last <= every
    }

    @inline(__always) private static func startsAfterSpace(_ b: UInt8) -> Bool {
        isAlnum(b) || "*#&@^~<=>`([{".utf8.contains(b)
    }

    @inline(__always) private static func endsBeforeSpace(_ b: UInt8) -> Bool {
        b > 0x20 && b < 0x7F && !"([{\"'".utf8.contains(b)
    }

    @inline(__always) private static func isAlnum(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b | 0x20 >= 0x61 && b | 0x20 <= 0x7A)
    }

    /// Where lines start in a stretch measured by `m` (`byteOf`: each character's byte offset), given each
    /// line's width in Pango units, as Pango 1.50 breaks text that has no other break: a line ends at the last
    /// character boundary where its text fits, counting the hyphen Pango adds inside a word and not a space
    /// the line ends with; the first boundary when none fits.
    static func lineStarts(_ m: ParagraphMeasurement, chars n: Int, byteOf: [Int], hyphen: Int,
                           lineWidth: (Int) -> Int32, maxLines: Int) -> [Int] {
        var starts: [Int] = []
        var c = 0
        func extra(_ k: Int) -> Int {
            if m.attrs[k].break_inserts_hyphen != 0 {
                return m.attrs[k].break_removes_preceding != 0 && k > c ? hyphen - Int(m.advance[k - 1]) : hyphen
            }
            return k > c && m.attrs[k - 1].is_white != 0 ? -Int(m.advance[k - 1]) : 0
        }
        while c < n && starts.count < maxLines {
            let limit = Int(lineWidth(starts.count))
            var width = 0, best = -1, k = c
            while true {
                let over = width + extra(k) > limit
                if over && best >= 0 { break }
                if k == n { break }
                if k > c && m.attrs[k].is_char_break != 0 { best = k }
                width += Int(m.advance[k])
                k += 1
            }
            guard k < n, best > c else { break }  // the rest fits on this line, or it has no boundary
            starts.append(byteOf[best])
            c = best
        }
        return starts
    }

    /// Plans the lines of the unbreakable stretch that starts `window`'s text (a paragraph's part, as a piece of
    /// it is laid out): where its lines start, which of those start a Pango item (`itemStarts`) and where the
    /// stretch ends, all in the window's offsets, at most `maxLines` lines. Nil when the window cannot be planned
    /// so (an image or a tab in it), or its lines cannot be handed to Pango as items (`itemStarts`).
    static func planLines(_ window: AttributedParagraph, columnWidth: Double, engine: LayoutEngine, markIndent: Double,
                          maxLines: Int) -> (starts: [Int], items: [Int], end: Int)? {
        let style = window.style
        guard window.attachments.isEmpty, !window.text.utf8.contains(9), !window.text.isEmpty else { return nil }
        let handle = LayoutHandle(engine: engine)
        let pl = handle.layout
        let base = FontKey(window.runs.first?.attributes ?? CharacterAttributes())
        pango_layout_set_font_description(pl, engine.fontDescription(base))
        let bytes = Array(window.text.utf8)
        LayoutWork.countMeasured(bytes.count)
        guard let m = bytes.withUnsafeBufferPointer({ buffer -> ParagraphMeasurement? in
            ParagraphLayout.setText(pl, buffer)
            ParagraphLayout.setAttributes(pl, runs: window.runs, shapes: [], base: base, style: style)
            return ParagraphMeasurement.exact(layout: pl, text: buffer)
        }) else { return nil }
        var byteOf: [Int] = []
        byteOf.reserveCapacity(m.charCount + 1)
        for (k, b) in bytes.enumerated() where b & 0xC0 != 0x80 { byteOf.append(k) }
        byteOf.append(bytes.count)
        guard byteOf.count == m.charCount + 1 else { return nil }
        let code = style.wrap == .char
        var end = m.charCount
        for c in 0..<m.charCount {
            if c > 0 && (m.attrs[c].is_line_break != 0 || m.attrs[c].is_mandatory_break != 0
                         || (code && ParagraphLayout.isCodeBreak(bytes, at: byteOf[c]))) {
                end = c
                break
            }
        }
        // Line widths as ParagraphLayout gives them to Pango: its indent takes room from the first line (positive)
        // or from all the others (negative, hanging); wrapped code hangs by the width of its mark.
        let left = min(style.firstLineHeadIndent, style.headIndent)
        let width = max(columnWidth - left - style.tailIndent, 1)
        let indent = code && style.firstLineHeadIndent == style.headIndent ? -toPango(markIndent)
            : toPango(style.firstLineHeadIndent - style.headIndent)
        let full = toPango(width)
        let first = indent >= 0 ? full &- indent : full, others = indent >= 0 ? full : full &+ indent
        let hyphen = Int(toPango(engine.hyphenWidth(base)))
        let starts = lineStarts(m, chars: end, byteOf: byteOf, hyphen: hyphen, lineWidth: { $0 == 0 ? first : others },
                                maxLines: maxLines)
        guard let items = itemStarts(m, lineStarts: starts, end: end, byteOf: byteOf, hyphen: hyphen,
                                     lineWidth: { $0 == 0 ? first : others }) else { return nil }
        return (starts, items, byteOf[end])
    }

    /// Planned lines an item may hold at most; a stretch whose lines would need longer items is not planned.
    static let maxItemLines = 8

    /// The planned line starts that begin a Pango item (an attribute boundary), in bytes; nil when the plan
    /// cannot be given to Pango safely. Pango takes a whole item that fits in the room a line has left, without
    /// the hyphen that ending the line after it then adds: with every planned line an item of its own, a line a
    /// letter or two wide (14pt in a 19pt column) was set with the next on one line, past the column's edge. So
    /// an item ends after line j only where lines j and j + 1 together are wider than a line and a hyphen (the
    /// next item cannot fit beside line j), and an item of several lines only where its last two lines are too
    /// (its rest cannot fit on one line); inside an item Pango breaks where it was planned. In a column a few
    /// letters wide, where lines pair up nowhere, the stretch is not planned (Pango breaks it in short pieces).
    static func itemStarts(_ m: ParagraphMeasurement, lineStarts starts: [Int], end: Int, byteOf: [Int], hyphen: Int,
                           lineWidth: (Int) -> Int32) -> [Int]? {
        guard !starts.isEmpty else { return starts }
        var chars: [Int] = [0]  // line i is characters chars[i] ..< chars[i + 1]; the last one ends at `end`
        chars.reserveCapacity(starts.count + 2)
        var c = 0
        for start in starts {  // byte offsets to character indices (both ascending)
            while c < byteOf.count && byteOf[c] < start { c += 1 }
            chars.append(c)
        }
        chars.append(max(end, c))
        var widths: [Int] = []
        widths.reserveCapacity(chars.count - 1)
        for line in 0 ..< chars.count - 1 {
            var w = 0
            for k in chars[line] ..< min(chars[line + 1], m.advance.count) { w += Int(m.advance[k]) }
            widths.append(w)
        }
        func apart(_ j: Int) -> Bool { widths[j] + widths[j + 1] > Int(lineWidth(j)) + hyphen }
        var items: [Int] = []
        items.reserveCapacity(starts.count)
        var first = 0  // the current item's first line
        for b in 1 ..< widths.count {  // a boundary at the start of line b ends the item at line b - 1
            if apart(b - 1) && (b - 1 == first || apart(b - 2)) {
                items.append(starts[b - 1])
                first = b
            } else if b - first >= maxItemLines {
                return nil
            }
        }
        return items
    }
}

extension LayoutWork {
    /// Text shaped without a width to plan the lines of unbreakable stretches (UnbreakableText).
    public static var bytesMeasured: Int {
        get { measureLock.withLock { measured } }
        set { measureLock.withLock { measured = newValue } }
    }
    /// Lines of planned pieces that Pango started somewhere else than planned (the plan was off: slower, as right).
    public static var unplannedBreaks: Int {
        get { measureLock.withLock { unplanned } }
        set { measureLock.withLock { unplanned = newValue } }
    }
    static func countMeasured(_ bytes: Int) { measureLock.withLock { measured += bytes } }
    static func countUnplanned(_ lines: Int) { measureLock.withLock { unplanned += lines } }
}

private let measureLock = NSLock()
nonisolated(unsafe) private var measured = 0  // guarded by `measureLock`
nonisolated(unsafe) private var unplanned = 0  // guarded by `measureLock`
