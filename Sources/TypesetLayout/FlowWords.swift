// Scanning a paragraph's bytes for words, for the line fragments beside shapes (FlowPlacement.swift): where a
// probe of the next word ends, and what counts as a word character there.

extension Paginator {
    /// The end of a probe from `offset`: its first word (at most 64 bytes), the blanks after it and the first
    /// character of the next word; nil when the text ends first or the word is longer. The probe's first line
    /// holds words exactly when the first line of all the text from `offset` does: greedy lines depend on no
    /// text after them, and either the first word fits (with a break at a blank or later) or it breaks inside.
    static func probeEnd(_ bytes: [UInt8], from offset: Int) -> Int? {
        var i = offset
        while i < bytes.count, i - offset <= 64, let n = wordCharacter(bytes, at: i) { i += n }
        guard i > offset, i < bytes.count, i - offset <= 64 else { return nil }
        let blanks = i
        while i < bytes.count, i - blanks <= 16, wordCharacter(bytes, at: i) == nil { i += characterLength(bytes[i]) }
        guard i < bytes.count, let n = wordCharacter(bytes, at: i) else { return nil }
        return min(i + n, bytes.count)
    }

    /// The length of the character at `i` when it is part of a word; nil for a break: space, tab, line feed,
    /// hyphen, soft hyphen (C2 AD), line separator (E2 80 A8). A blank is one byte or those sequences' first.
    static func wordCharacter(_ bytes: [UInt8], at i: Int) -> Int? {
        let b = bytes[i]
        if b < 0x80 { return b == 0x20 || b == 0x09 || b == 0x0A || b == 0x2D ? nil : 1 }
        if b == 0xC2, i + 1 < bytes.count, bytes[i + 1] == 0xAD { return nil }
        if b == 0xE2, i + 2 < bytes.count, bytes[i + 1] == 0x80, bytes[i + 2] == 0xA8 { return nil }
        return characterLength(b)
    }

    /// Whether the word from `offset` (to the next break) may be wider than `width`, at half an em a byte: a
    /// generous guess that only decides whether to measure it.
    func wordMayNotFit(_ bytes: [UInt8], from offset: Int, width: Double, fontSize: Double) -> Bool {
        var i = offset
        while i < bytes.count, let n = Self.wordCharacter(bytes, at: i) {
            i += n
            if Double(i - offset) * 0.5 * fontSize > width { return true }
        }
        return false
    }

    static func isASCIIAlphanumeric(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
    }

    static func characterLength(_ lead: UInt8) -> Int {
        lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
    }
}
