// HTML blocks (section 9), started and ended as CommonMark says (types 1, 6 and 7), are never passed through:
// `<h1>`-`<h6>` become headings, `<hr>` a rule, the container tags (`<p>`, `<div>`, `<details>`, `<td>` ...)
// vanish and end a paragraph, inline tags get their meaning, and the text between stays as written (HTML text,
// not Markdown). `align="center"` on `<p>`, `<div>`, headings and `<center>` centres what they hold, also
// Markdown blocks between an opening and a closing tag in separate HTML blocks (`<div align="center">`,
// a blank line, `# Title`, `</div>`).

/// Container tags still open, across HTML blocks (with their alignment).
struct HTMLBlockState {
    var open: [(name: String, align: String?, location: SourceLocation)] = []
    var openCount: [String: Int] = [:]

    /// The innermost alignment in force, with where it was set.
    var align: (value: String, location: SourceLocation)? {
        for entry in open.reversed() { if let a = entry.align { return (a, entry.location) } }
        return nil
    }

    mutating func push(_ name: String, align: String?, at location: SourceLocation) {
        guard open.count < 1000 else { return }
        open.append((name, align, location))
        openCount[name, default: 0] += 1
    }

    /// Pops up to and including the innermost open `name`; nothing when none is open.
    mutating func close(_ name: String) {
        guard openCount[name, default: 0] > 0 else { return }
        while let top = open.popLast() {
            openCount[top.name, default: 1] -= 1
            if top.name == name { return }
        }
    }
}

extension BlockParser {
    enum HTMLBlockEnd {
        case blankLine
        /// Type 1 (`<pre>`, `<script>`, `<style>`, `<textarea>`): the line holding `</name>`.
        case endTag(String)
    }

    /// How the HTML block opening on this line ends; nil when the line does not open one. Type 7 (any
    /// complete tag alone on its line) cannot interrupt a paragraph.
    func htmlBlockStart(_ l: LineView, interrupting: Bool) -> HTMLBlockEnd? {
        let (indent, p) = src.indentation(l)
        guard indent <= 3, p < l.end, text[p] == Byte.lt, let (name, closing, nameEnd) = HTMLScan.name(text, p, end: l.end)
        else { return nil }
        if !closing && HTMLTagRole.rawTextNames.contains(name) { return .endTag(name) }
        if HTMLTagRole.blockNames.contains(name) {
            if nameEnd == l.end || Byte.isSpaceOrTab(text[nameEnd]) || text[nameEnd] == Byte.gt
                || (text[nameEnd] == 0x2F && nameEnd + 1 < l.end && text[nameEnd + 1] == Byte.gt) {
                return .blankLine
            }
        }
        guard !interrupting else { return nil }
        let line = Array(text[p ..< l.end])
        guard let tag = HTMLScan.tag(line, 0), src.trimmed(p + tag.end, l.end).0 == l.end else { return nil }
        return .blankLine
    }

    /// The HTML block from `lines[i]` as RT blocks, and the index after it.
    mutating func htmlBlock(_ lines: Lines, _ i: Int, _ end: HTMLBlockEnd) -> ([Block], Int) {
        var j = i
        switch end {
        case .blankLine:
            while j < lines.count && !src.isBlank(lines[j]) { j += 1 }
        case .endTag(let name):
            let closer = Array("</\(name)".utf8)
            while j < lines.count {
                let found = BlockParser.containsASCIICaseInsensitive(text, lines[j].start, lines[j].end, closer)
                j += 1
                if found { break }
            }
        }
        if case .endTag("pre") = end, let block = preformatted(lines, i, j) { return ([block], j) }
        var converter = HTMLBlockConverter(input: InlineInput(src: src, segments: lines[i ..< j].map { ($0.start, $0.end) }),
                                           state: ctx.html)
        let blocks = converter.run()
        ctx.html = converter.state
        ctx.diagnostics.append(contentsOf: converter.diagnostics)
        return (blocks, j)
    }

    /// `<pre>` ... `</pre>` (a README's directory tree or ASCII art): its text as a code block, lines and spaces kept,
    /// tags inside dropped and entity references decoded, as a browser shows it. Nil (the text is then set as
    /// paragraphs) when the block does not start with the tag or holds text after `</pre>`.
    mutating func preformatted(_ lines: Lines, _ i: Int, _ j: Int) -> Block? {
        let (_, p) = src.indentation(lines[i])
        let first = Array(text[p ..< lines[i].end])
        guard let open = HTMLScan.tag(first, 0), !open.closing, open.name == "pre" else { return nil }
        var body: [UInt8] = []
        for k in i ..< j {
            if k > i { body.append(Byte.lf) }
            body.append(contentsOf: text[(k == i ? p + open.end : lines[k].start) ..< lines[k].end])
        }
        let closer = Array("</pre".utf8)
        guard let at = BlockParser.lastASCIICaseInsensitive(body, closer),
              let close = HTMLScan.tag(body, at), close.closing, close.name == "pre",
              close.end <= body.count, body[close.end...].allSatisfy(Byte.isSpaceOrTab) else { return nil }
        body.removeSubrange(at...)
        var shown: [UInt8] = []
        var k = 0
        while k < body.count {
            if body[k] == Byte.lt, let tag = HTMLScan.tag(body, k) {  // `<b>`, `<a href>` inside: the text stays
                k = max(k + 1, tag.end)
                continue
            }
            shown.append(body[k])
            k += 1
        }
        shown = EntityReference.decode(shown)
        if shown.first == Byte.lf { shown.removeFirst() }  // a line end right after `<pre>` is not shown (HTML)
        while shown.last == Byte.lf || shown.last.map(Byte.isSpaceOrTab) == true { shown.removeLast() }
        ctx.diagnostics.append(.warning("HTML tag <pre> is set as a code block (in RT, write a ``` fence)",
                                        at: src.location(p)))
        return Block(.codeBlock(language: nil, text: String(decoding: shown, as: UTF8.self)),
                     range: src.range(p, max(p, lines[j - 1].end)))
    }

    static func lastASCIICaseInsensitive(_ t: [UInt8], _ needle: [UInt8]) -> Int? {
        guard t.count >= needle.count else { return nil }
        var k = t.count - needle.count
        while k >= 0 {
            if (0 ..< needle.count).allSatisfy({ (t[k + $0] | 0x20) == (needle[$0] | 0x20) }) { return k }
            k -= 1
        }
        return nil
    }

    /// Markdown blocks between an aligned opening tag and its closing tag take its alignment (put first, so
    /// the block's own `{align=...}` still wins).
    func alignInsideHTML(_ blocks: inout [Block]) {
        guard let (value, location) = ctx.html.align else { return }
        let range = SourceRange(at: location)
        for k in blocks.indices {
            blocks[k].attributes.pairs.insert(AttributePair(key: "align", value: value, keyRange: range, valueRange: range), at: 0)
        }
    }

    static func containsASCIICaseInsensitive(_ t: [UInt8], _ s: Int, _ e: Int, _ needle: [UInt8]) -> Bool {
        guard e - s >= needle.count, let first = needle.first else { return false }
        var k = s
        while k + needle.count <= e {
            if t[k] == first {
                var m = 1
                while m < needle.count && (t[k + m] | 0x20) == (needle[m] | 0x20) { m += 1 }
                if m == needle.count { return true }
            }
            k += 1
        }
        return false
    }
}

/// Turns the text of one HTML block into headings, paragraphs and rules.
struct HTMLBlockConverter {
    let input: InlineInput
    var state: HTMLBlockState
    var diagnostics: [Diagnostic] = []
    private var blocks: [Block] = []
    private var pending: [Inline] = []
    private var pendingStart = 0
    private var heading: (level: Int, tag: HTMLTag)? = nil
    private var warned: Set<String> = []
    /// Inside `<script>` or `<style>`: text is dropped.
    private var hiddenUntil: String? = nil

    init(input: InlineInput, state: HTMLBlockState) {
        self.input = input
        self.state = state
    }

    mutating func run() -> [Block] {
        let buf = input.buf
        var i = 0
        var textStart = 0
        var text: [UInt8] = []
        func flushText(_ end: Int) {
            if !text.isEmpty && hiddenUntil == nil {
                let s = HTMLEntities.decode(text[...])
                if pending.isEmpty { pendingStart = textStart }
                pending.append(Inline(.text(s), range: input.range(textStart, end)))
            }
            text.removeAll(keepingCapacity: true)
        }
        while i < buf.count {
            let c = buf[i]
            if c == Byte.lt, let t = HTMLScan.tag(buf, i) {
                flushText(i)
                let tag = HTMLTag(name: t.name, isClosing: t.closing, attributes: t.attributes, range: input.range(i, t.end))
                handle(tag, at: i)
                i = t.end
                textStart = i
                continue
            }
            if text.isEmpty { textStart = i }
            switch c {
            case 0: break                                         // a removed comment
            case Byte.lf, Byte.cr, Byte.tab: text.append(Byte.space)
            default: text.append(c)
            }
            i += 1
        }
        flushText(buf.count)
        flush(end: buf.count)
        return blocks
    }

    private mutating func handle(_ tag: HTMLTag, at offset: Int) {
        if let hidden = hiddenUntil {
            if tag.isClosing && tag.name == hidden { hiddenUntil = nil }
            return
        }
        switch HTMLTagRole.of(tag.name) {
        case .heading(let level):
            flush(end: offset)
            if tag.isClosing {
                state.close(tag.name)
            } else {
                heading = (level, tag)
                state.push(tag.name, align: tag["align"]?.lowercased(), at: tag.range.start)
            }
        case .container:
            flush(end: offset)
            if tag.isClosing {
                state.close(tag.name)
            } else if tag.name != "source" {
                let align = tag.name == "center" ? "center" : (tag.name == "p" || tag.name == "div") ? tag["align"]?.lowercased() : nil
                state.push(tag.name, align: align, at: tag.range.start)
            }
        case .rule:
            flush(end: offset)
            if !tag.isClosing { blocks.append(Block(.rule, range: tag.range)) }
        case .lineBreak, .image, .inline:
            if pending.isEmpty { pendingStart = offset }
            pending.append(Inline(.rawHTML(tag), range: tag.range))
        case .unknown:
            HTMLInlines.warnUnknown(tag, warned: &warned, diagnostics: &diagnostics)
            if HTMLTagRole.blockNames.contains(tag.name) || HTMLTagRole.rawTextNames.contains(tag.name) {
                flush(end: offset)   // `<li>`, `<ul>`, `<pre>`: a paragraph ends here
            }
            if !tag.isClosing && (tag.name == "script" || tag.name == "style") { hiddenUntil = tag.name }
        }
    }

    /// Ends the paragraph or heading being collected.
    private mutating func flush(end: Int) {
        defer {
            pending.removeAll()
            heading = nil
        }
        var content = HTMLInlines.resolve(pending, warned: &warned, diagnostics: &diagnostics)
        trimSpaces(&content)
        guard !content.isEmpty else { return }
        let range = input.range(pendingStart, max(pendingStart, end))
        if let (level, tag) = heading {
            var attributes = Attributes()
            if let id = tag["id"], !id.isEmpty { attributes.id = id }
            align(&attributes, tag["align"]?.lowercased(), tag.range)
            blocks.append(Block(.heading(level: level, content: content, id: ""), attributes: attributes, range: range))
        } else {
            var attributes = Attributes()
            align(&attributes, nil, range)
            blocks.append(Block(.paragraph(content), attributes: attributes, range: range))
        }
    }

    private func align(_ attributes: inout Attributes, _ own: String?, _ range: SourceRange) {
        let inherited = state.align
        guard let value = own ?? inherited?.value else { return }
        let at = own != nil ? range : SourceRange(at: inherited?.location ?? range.start)
        attributes.pairs.append(AttributePair(key: "align", value: value, keyRange: at, valueRange: at))
    }

    /// Drops white space at both ends of a paragraph (HTML's line breaks and indentation).
    private func trimSpaces(_ content: inout [Inline]) {
        while let first = content.first, case .text(let s) = first.kind {
            let t = String(s.drop { $0 == " " })
            if t.isEmpty { content.removeFirst() } else {
                let dropped = s.utf8.count - t.utf8.count
                content[0].literalOffsets = content[0].literalOffsets.map { $0 - dropped }
                content[0].kind = .text(t)
                break
            }
        }
        while let last = content.last, case .text(let s) = last.kind {
            var t = Substring(s)
            while t.last == " " { t.removeLast() }
            if t.isEmpty { content.removeLast() } else { content[content.count - 1].kind = .text(String(t)); break }
        }
    }
}
