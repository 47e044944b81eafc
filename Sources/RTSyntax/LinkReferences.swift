// Link reference definitions (`[label]: destination "title"`) and the labels that use them (section 9):
// `[text][label]`, collapsed `[label][]` and shortcut `[label]`. A definition may come after its use, so the
// block parser collects them all and, when a label missed on the first pass is defined later, parses again.

struct LinkDefinition: Sendable, Equatable {
    var destination: String
    var title: String?
}

extension BlockParser {
    /// Takes the link reference definitions at the start of a paragraph's lines into `ctx` and drops
    /// those lines from `segments`.
    mutating func takeDefinitions(_ segments: inout [(Int, Int)]) {
        guard let first = segments.first, first.0 < first.1, text[first.0] == Byte.lbracket else { return }
        let input = InlineInput(src: src, segments: segments)
        let (found, consumed) = LinkReferences.definitions(input.buf)
        ctx.steps += consumed + 1
        guard !found.isEmpty else { return }
        for (label, definition) in found where ctx.linkDefinitions[label] == nil {
            ctx.linkDefinitions[label] = definition
        }
        if consumed >= input.buf.count {
            segments.removeAll()
        } else {
            segments.removeFirst(input.buf[..<consumed].reduce(0) { $0 + ($1 == Byte.lf ? 1 : 0) })
        }
    }
}

enum LinkReferences {
    static let maxLabel = 999

    /// Matching key of a label: whitespace runs as one space, trimmed, case-folded (`ẞ` and `SS` match).
    static func normalize<C: Collection>(_ label: C) -> String where C.Element == UInt8 {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(label.count)
        var space = false
        for c in label where c != 0 {
            if c == Byte.space || c == Byte.tab || c == Byte.lf || c == Byte.cr {
                space = !bytes.isEmpty
                continue
            }
            if space { bytes.append(Byte.space) }
            space = false
            bytes.append(c)
        }
        // ASCII (almost every label) folds byte by byte to what the Unicode case mappings below give it.
        if bytes.allSatisfy({ $0 < 0x80 }) {
            for k in bytes.indices where bytes[k] >= 0x41 && bytes[k] <= 0x5A { bytes[k] |= 0x20 }
            return String(decoding: bytes, as: UTF8.self)
        }
        return String(decoding: bytes, as: UTF8.self).lowercased().uppercased().lowercased()
    }

    /// Whether `b[s..<e]` can be a label: not blank, at most 999 bytes, no unescaped bracket.
    static func isLabel(_ b: [UInt8], _ s: Int, _ e: Int) -> Bool {
        guard e - s <= maxLabel, s < e else { return false }
        var k = s
        var blank = true
        while k < e {
            let c = b[k]
            if c == Byte.backslash && k + 1 < e {
                blank = false
                k += 2
                continue
            }
            if c == Byte.lbracket || c == Byte.rbracket { return false }
            if c > Byte.space { blank = false }
            k += 1
        }
        return !blank
    }

    /// Offset of the `]` closing a label that starts after `open` (a `[`), when the label is valid.
    static func labelEnd(_ b: [UInt8], open: Int, end: Int) -> Int? {
        var k = open + 1
        let limit = min(end, open + 1 + maxLabel + 1)
        while k < limit {
            let c = b[k]
            if c == Byte.backslash { k += 2; continue }
            if c == Byte.lbracket { return nil }
            if c == Byte.rbracket { return isLabel(b, open + 1, k) ? k : nil }
            k += 1
        }
        return nil
    }

    /// Definitions at the start of a paragraph's text `b` (lines joined by LF): each with its normalized
    /// label, and the offset where the rest of the paragraph starts (0: none; always at a line start).
    static func definitions(_ b: [UInt8]) -> (found: [(String, LinkDefinition)], consumed: Int) {
        var found: [(String, LinkDefinition)] = []
        var at = 0
        while at < b.count, b[at] == Byte.lbracket, let (label, definition, next) = definition(b, at) {
            found.append((label, definition))
            at = next
        }
        return (found, at)
    }

    /// One definition starting at `b[s]` (a `[`): label, definition, offset after its last line.
    private static func definition(_ b: [UInt8], _ s: Int) -> (String, LinkDefinition, Int)? {
        let n = b.count
        guard let close = labelEnd(b, open: s, end: n), close + 1 < n, b[close + 1] == Byte.colon,
              b[s + 1] != 0x5E else { return nil } // `[^x]:` is a footnote
        var k = skipSpace(b, close + 2, newline: true)
        guard let (dest, afterDest) = destination(b, k) else { return nil }
        let label = normalize(b[(s + 1) ..< close])
        let plain = LinkDefinition(destination: dest, title: nil)
        // The destination's line may end here; a title may follow on the same or the next line.
        let lineEnd = skipSpace(b, afterDest, newline: false)
        let endsLine = lineEnd == n || b[lineEnd] == Byte.lf
        guard lineEnd > afterDest || endsLine else { return nil } // `[a]: b"c"`: no space before the title
        k = skipSpace(b, afterDest, newline: true)
        if let (title, afterTitle) = title(b, k), k > afterDest {
            let end = skipSpace(b, afterTitle, newline: false)
            if end == n || b[end] == Byte.lf {
                return (label, LinkDefinition(destination: dest, title: title), min(n, end + 1))
            }
        }
        guard endsLine else { return nil }
        return (label, plain, min(n, lineEnd + 1))
    }

    static func skipSpace(_ b: [UInt8], _ from: Int, newline: Bool) -> Int {
        var k = from
        var lines = 0
        while k < b.count && (Byte.isSpaceOrTab(b[k]) || (newline && b[k] == Byte.lf && lines == 0)) {
            if b[k] == Byte.lf { lines += 1 }
            k += 1
        }
        return k
    }

    /// `<...>` or a run without spaces or control characters and with balanced parentheses.
    static func destination(_ b: [UInt8], _ s: Int) -> (String, Int)? {
        let n = b.count
        var k = s
        var out: [UInt8] = []
        if k < n && b[k] == Byte.lt {
            k += 1
            while k < n && b[k] != Byte.gt {
                if b[k] == Byte.lf || b[k] == Byte.lt { return nil }
                if b[k] == Byte.backslash && k + 1 < n && Byte.isASCIIPunctuation(b[k + 1]) { k += 1 }
                out.append(b[k])
                k += 1
            }
            guard k < n else { return nil }
            return (decoded(out), k + 1)
        }
        var depth = 0
        while k < n && b[k] > Byte.space && b[k] != 0x7F {
            let c = b[k]
            if c == Byte.backslash && k + 1 < n && Byte.isASCIIPunctuation(b[k + 1]) {
                out.append(b[k + 1])
                k += 2
                continue
            }
            if c == Byte.lparen { depth += 1 }
            if c == Byte.rparen {
                if depth == 0 { break }
                depth -= 1
            }
            out.append(c)
            k += 1
        }
        guard depth == 0, k > s else { return nil }
        return (decoded(out), k)
    }

    /// `"..."`, `'...'` or `(...)` starting at `b[s]`, backslash escapes honoured; no blank line inside.
    static func title(_ b: [UInt8], _ s: Int) -> (String, Int)? {
        let n = b.count
        guard s < n else { return nil }
        let open = b[s]
        let close: UInt8
        switch open {
        case Byte.quote, Byte.apostrophe: close = open
        case Byte.lparen: close = Byte.rparen
        default: return nil
        }
        var k = s + 1
        var out: [UInt8] = []
        var previousLF = false
        while k < n && b[k] != close {
            let c = b[k]
            if open == Byte.lparen && c == Byte.lparen { return nil }
            if c == Byte.lf {
                if previousLF { return nil }
                previousLF = true
            } else if !Byte.isSpaceOrTab(c) {
                previousLF = false
            }
            if c == Byte.backslash && k + 1 < n && Byte.isASCIIPunctuation(b[k + 1]) {
                k += 1
            }
            out.append(b[k])
            k += 1
        }
        guard k < n else { return nil }
        return (decoded(out), k + 1)
    }

    private static func decoded(_ bytes: [UInt8]) -> String {
        String(decoding: EntityReference.decode(bytes.filter { $0 != 0 }), as: UTF8.self)
    }
}

extension InlineParser {
    /// `]` at `close` ends a reference link when a definition matches: `[text][label]`, `[label][]` or
    /// `[label]`. Returns the destination and the offset after the link.
    mutating func reference(textStart: Int, close: Int) -> (String, Int)? {
        let n = buf.count
        var label = (textStart, close)
        var end = close + 1
        if end < n && buf[end] == Byte.lbracket {
            if end + 1 < n && buf[end + 1] == Byte.rbracket {
                end += 2 // collapsed
            } else if let labelClose = LinkReferences.labelEnd(buf, open: end, end: n) {
                steps += labelClose - end
                label = (end + 1, labelClose)
                end = labelClose + 1
            }
        }
        // A shortcut's text is its label; text holding brackets or over 999 bytes is none.
        guard label.0 < label.1, buf[label.0] != 0x5E, LinkReferences.isLabel(buf, label.0, label.1) else { return nil }
        steps += label.1 - label.0
        if let last = lastLabel, last.count == label.1 - label.0, last.elementsEqual(buf[label.0 ..< label.1]) {
            return lastLabelDestination.map { ($0, end) }
        }
        let key = LinkReferences.normalize(buf[label.0 ..< label.1])
        let destination = definitions[key]?.destination
        if destination == nil { missedLabels.insert(key) }
        lastLabel = Array(buf[label.0 ..< label.1])
        lastLabelDestination = destination
        return destination.map { ($0, end) }
    }
}
