// Decimal tab stops put the LEFT edge of the decimal separator on the stop (RT section 5). Pango's decimal
// tab centres its decimal-point character on the stop instead, and a segment without that character ends at
// the stop. So the IR marks each tab segment's decimal separator with a zero-width U+2060 WORD JOINER right
// before it, and layout gives Pango the joiner as the decimal point: centring a zero-width character puts
// the separator's left edge exactly on the stop, and a number without a separator (no joiner) ends there.
// The joiner draws nothing, never allows a break, and PDF text extraction drops it.

extension AttributedParagraph {
    /// The zero-width character decimal tab stops align on.
    public static let decimalMark: Character = "\u{2060}"

    /// Whether the paragraph has decimal stops and a tab, i.e. whether marking can change anything.
    var needsDecimalMarks: Bool {
        style.tabStops.contains { $0.alignment == .decimal } && text.utf8.contains(9)
    }

    /// A copy with `decimalMark` inserted where each tab segment's number (the text from a TAB to the next TAB
    /// or line break) has its decimal separator: before the separator (`2.34`, `.5`, `15.`), or right after
    /// the integer part when there is none (`7 €`), so the number ends at the stop. Group separators inside
    /// the integer part (`1,234.5` in English, `1.234,5` in German, `1'234`) are skipped. A segment without
    /// digits gets no mark and ends at the stop. Runs and attachments keep their text.
    public func markingDecimalSeparators() -> AttributedParagraph {
        guard needsDecimalMarks, style.decimalSeparator.utf8.count == 1, let separator = style.decimalSeparator.utf8.first
        else { return self }
        let bytes = Array(text.utf8)
        func isDigit(_ i: Int) -> Bool { i >= 0 && i < bytes.count && bytes[i] >= 0x30 && bytes[i] <= 0x39 }
        let groupSeparators: Set<UInt8> = Set([UInt8(ascii: ","), UInt8(ascii: "."), UInt8(ascii: "'")]).subtracting([separator])
        var insertions: [Int] = []
        var i = 0, inSegment = false
        while i < bytes.count {
            let byte = bytes[i]
            if byte == 9 { inSegment = true; i += 1; continue }
            if byte == 10 || (byte == 0xE2 && i + 2 < bytes.count && bytes[i + 1] == 0x80 && bytes[i + 2] == 0xA8) {
                inSegment = false   // LF or U+2028
                i += 1
                continue
            }
            guard inSegment, isDigit(i) || (byte == separator && isDigit(i + 1)) else { i += 1; continue }
            var end = i
            while isDigit(end) || (end < bytes.count && groupSeparators.contains(bytes[end]) && isDigit(end + 1) && end > i) { end += 1 }
            insertions.append(end)   // at the separator if one follows, else right after the digits
            inSegment = false        // one number per segment
            i = end
        }
        guard !insertions.isEmpty else { return self }

        let mark = Array(String(Self.decimalMark).utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + insertions.count * mark.count)
        var previous = 0
        for p in insertions {
            out += bytes[previous..<p]
            out += mark
            previous = p
        }
        out += bytes[previous...]
        // An offset moves by one mark per insertion strictly before it: a mark goes with the run that follows it.
        func moved(_ offset: Int) -> Int {
            var lo = 0, hi = insertions.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if insertions[mid] < offset { lo = mid + 1 } else { hi = mid }
            }
            return offset + lo * mark.count
        }
        var copy = self
        copy.text = String(decoding: out, as: UTF8.self)
        copy.runs = runs.map { AttributeRun(range: moved($0.range.lowerBound)..<moved($0.range.upperBound), attributes: $0.attributes) }
        copy.attachments = attachments.map { TextAttachment(offset: moved($0.offset), image: $0.image) }
        return copy
    }
}
