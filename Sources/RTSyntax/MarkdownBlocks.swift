// CommonMark block forms that RT takes over unchanged (section 9): setext headings and indented code.

extension BlockParser {
    /// 1 for a `===` underline, 2 for `---`: up to three spaces, one character repeated, trailing spaces.
    func setextLevel(_ l: LineView) -> Int? {
        let (indent, p) = src.indentation(l)
        guard indent <= 3, p < l.end, text[p] == Byte.equals || text[p] == Byte.minus else { return nil }
        let c = text[p]
        var k = p
        while k < l.end && text[k] == c { k += 1 }
        guard src.trimmed(k, l.end).0 == l.end else { return nil }
        return c == Byte.equals ? 1 : 2
    }

    /// The paragraph lines in `segments` set as a heading of `level` (trailing `{attrs}` as on `#` headings).
    mutating func setextHeading(_ segments: [(Int, Int)], level: Int, underline: LineView) -> Block {
        var segments = segments
        var attributes = Attributes()
        if let (s, e) = segments.last {
            let (end, attrs) = headingAttributes(s, e)
            segments[segments.count - 1].1 = end
            attributes = attrs
        }
        let content = inlines(segments)
        let start = segments.first?.0 ?? underline.start
        let range = src.range(start, max(start, underline.end))
        return Block(.heading(level: level, content: content, id: ""), attributes: attributes, range: range)
    }

    /// `{attrs}` at the end of heading text `s..<e`: the text's new end and the attributes.
    mutating func headingAttributes(_ s: Int, _ e: Int) -> (Int, Attributes) {
        var (s, e) = src.trimmed(s, e)
        guard e > s && text[e - 1] == Byte.rbrace && !(e - 2 >= s && text[e - 2] == Byte.rbrace) else { return (e, Attributes()) }
        var open = e - 2
        while open >= s && text[open] != Byte.lbrace { open -= 1 }
        guard open >= s && (open == s || Byte.isSpaceOrTab(text[open - 1]))
            && AttributeParser.findClose(text, open: open, end: e) == e - 1 else { return (e, Attributes()) }
        let attributes = parseAttributes(open + 1, e - 1)
        (s, e) = src.trimmed(s, open)
        return (e, attributes)
    }

    /// A line indented four columns or more (not continuing a paragraph) starts indented code.
    func startsIndentedCode(_ l: LineView) -> Bool {
        !src.isBlank(l) && src.indentation(l).columns >= 4
    }

    /// Indented lines (and blank lines between them) with four columns of indentation removed.
    mutating func indentedCode(_ lines: Lines, _ i: Int) -> (Block, Int) {
        var j = i
        var last = i
        while j < lines.count {
            let l = lines[j]
            ctx.steps += 1 + l.end - l.start
            if src.isBlank(l) {
                j += 1
                continue
            }
            guard src.indentation(l).columns >= 4 else { break }
            last = j
            j += 1
        }
        var body: [UInt8] = []
        for k in i ... last {
            let stripped = src.stripIndent(lines[k], 4)
            if k > i { body.append(Byte.lf) }
            if !src.isBlank(lines[k]) || stripped.start < stripped.end {
                body.append(contentsOf: src.bytes[stripped.start ..< stripped.end])
            }
        }
        let start = src.stripIndent(lines[i], 4).start
        let range = src.range(start, max(start, lines[last].end))
        return (Block(.codeBlock(language: nil, text: String(decoding: body, as: UTF8.self)), range: range), last + 1)
    }
}
