// Footnotes (contract section 4 "Footnote", pandoc syntax): `[^label]` marks, `[^label]: text` definitions
// anywhere at block level (further paragraphs indented four spaces), and inline notes `^[text]`.

enum Footnotes {
    /// An inline note inside an inline note inside ... deeper than this stays literal text
    /// (each level copies its text once, so the cap keeps the work linear).
    static let maxInlineDepth = 8

    /// End (exclusive) of a label `[^label]` whose `[` is at `open`: no spaces, no brackets, at most 999 bytes.
    static func labelEnd(_ b: [UInt8], open: Int, end: Int) -> Int? {
        guard open + 2 < end, b[open] == Byte.lbracket, b[open + 1] == Byte.caret else { return nil }
        var k = open + 2
        let limit = min(end, k + LinkReferences.maxLabel)
        while k < limit {
            let c = b[k]
            if c == Byte.rbracket { return k > open + 2 ? k : nil }
            if c == Byte.lbracket || c <= Byte.space || c == Byte.caret { return nil }
            k += 1
        }
        return nil
    }
}

// MARK: - Inline: `[^label]` and `^[text]`

extension InlineInput {
    /// The text `s..<e` of this input as an input of its own, keeping file positions.
    func slice(_ s: Int, _ e: Int) -> InlineInput {
        var out = InlineInput(src: src)
        out.buf = Array(buf[s ..< e])
        for k in segBuf.indices where segBuf[k] < e && (k + 1 == segBuf.count || segBuf[k + 1] > s) {
            let from = max(segBuf[k], s)
            out.segBuf.append(from - s)
            out.segFile.append(segFile[k] + (from - segBuf[k]))
        }
        return out
    }
}

extension InlineParser {
    /// `[^label]` at `i`: appends a reference and returns the position after it.
    mutating func footnoteReference(_ i: Int) -> Int? {
        guard let close = Footnotes.labelEnd(buf, open: i, end: buf.count) else { return nil }
        steps += close - i
        flushText()
        appendNode(.footnoteReference(label: LinkReferences.normalize(buf[(i + 2) ..< close])), i, close + 1)
        return close + 1
    }

    /// `^[text]` at `i` (checked before `^` as a superscript delimiter): the text between the brackets,
    /// brackets balanced, parsed as inlines. Without a closing bracket the `^` is an ordinary delimiter.
    mutating func inlineFootnote(_ i: Int) -> Int {
        guard footnoteDepth < Footnotes.maxInlineDepth, let close = matchingBracket(i + 1) else {
            return delimiterRun(i)
        }
        flushText()
        var inner = InlineParser(input.slice(i + 2, close))
        inner.footnoteDepth = footnoteDepth + 1
        inner.definitions = definitions
        let content = HTMLInlines.resolve(inner.run(), diagnostics: &inner.diagnostics)
        diagnostics.append(contentsOf: inner.diagnostics)
        steps += inner.steps
        missedLabels.formUnion(inner.missedLabels)
        appendNode(.inlineFootnote(content), i, close + 1)
        return close + 1
    }

    /// The `]` that closes the `[` at `open` (backslash escapes skipped), from one forward scan that records
    /// every pair, so many unclosed `^[` cost no more than one pass.
    private mutating func matchingBracket(_ open: Int) -> Int? {
        if footnoteBrackets == nil {
            var pairs: [Int: Int] = [:]
            var stack: [Int] = []
            var k = 0
            while k < buf.count {
                steps += 1
                switch buf[k] {
                case Byte.backslash: k += 1
                case Byte.backtick:
                    // A code span's brackets are its text (`^[see `x]` here]`): skip to its closing run.
                    var j = k + 1
                    while j < buf.count && buf[j] == Byte.backtick { j += 1 }
                    if let close = runStart(length: j - k, atOrAfter: j) { k = close + (j - k) } else { k = j }
                    continue
                case Byte.lbracket: stack.append(k)
                case Byte.rbracket: if let o = stack.popLast() { pairs[o] = k }
                default: break
                }
                k += 1
            }
            footnoteBrackets = pairs
        }
        return footnoteBrackets?[open]
    }

    /// The first backtick run of exactly `length` starting at or after `from` (binary search in the index).
    private mutating func runStart(length: Int, atOrAfter from: Int) -> Int? {
        guard let list = runsByLength[length] else { return nil }
        var lo = 0, hi = list.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if list[mid] < from { lo = mid + 1 } else { hi = mid }
        }
        steps += 1
        return lo < list.count ? list[lo] : nil
    }
}

// MARK: - Block: `[^label]: text`

extension BlockParser {
    /// `[^label]:` at the start of `l` (up to three spaces in): the label's bytes and where the text starts.
    func footnoteDefinitionStart(_ l: LineView) -> (label: String, textStart: Int)? {
        let (indent, p) = src.indentation(l)
        guard indent <= 3, let close = Footnotes.labelEnd(text, open: p, end: l.end),
              close + 1 < l.end, text[close + 1] == Byte.colon else { return nil }
        var s = close + 2
        while s < l.end && Byte.isSpaceOrTab(text[s]) { s += 1 }
        return (LinkReferences.normalize(text[(p + 2) ..< close]), s)
    }

    /// The definition at line `i`: its first paragraph (with lazy continuation lines), then any blank-separated
    /// lines indented four columns or more, de-indented and parsed as blocks.
    mutating func footnoteDefinition(_ lines: Lines, _ i: Int, _ start: (label: String, textStart: Int),
                                     depth: Int) -> (Block, Int) {
        let first = lines[i]
        var inner: [LineView] = [LineView(index: first.index, start: start.textStart, end: first.end)]
        var j = i + 1
        var last = first
        while j < lines.count, !src.isBlank(lines[j]), !interruptsParagraph(lines[j]),
              footnoteDefinitionStart(lines[j]) == nil {
            ctx.steps += 1
            inner.append(lines[j])
            last = lines[j]
            j += 1
        }
        // Indented continuation paragraphs, blank lines between them kept.
        var k = j
        while k < lines.count {
            ctx.steps += 1
            let l = lines[k]
            if src.isBlank(l) {
                k += 1
                continue
            }
            guard src.indentation(l).columns >= 4 else { break }
            while j < k {
                inner.append(lines[j])
                j += 1
            }
            inner.append(src.stripIndent(l, 4))
            last = l
            k += 1
            j = k
        }
        let blocks = parseBlocks(Lines(inner), depth: depth + 1)
        let startOffset = src.indentation(first).first
        let block = Block(.footnoteDefinition(label: start.label, blocks: blocks),
                          range: src.range(startOffset, max(startOffset, last.end)))
        return (block, j)
    }
}
