// Inline HTML (sections 5 and 9): the inline parser turns each complete tag into a `.rawHTML` node; this pass
// pairs start and end tags within one list of inlines (a stack; each node is moved at most once per
// level), giving `<b>` `<i>` `<a href>` ... their RT meaning, `<br>` a hard break, `<img>` an image.
// Unpaired and meaningless tags vanish and their text stays; unknown names get a warning.

extension InlineParser {
    /// A complete tag at `buf[i]` becomes a `.rawHTML` node; nil: not a tag (an autolink or a literal `<`).
    mutating func inlineHTML(_ i: Int) -> Int? {
        guard let t = HTMLScan.tag(buf, i) else { return nil }
        flushText()
        let tag = HTMLTag(name: t.name, isClosing: t.closing, attributes: t.attributes, range: input.range(i, t.end))
        appendNode(.rawHTML(tag), i, t.end)
        return t.end
    }
}

enum HTMLInlines {
    static let maxDepth = 100

    /// `inlines` with every `.rawHTML` node resolved, at every level.
    static func resolve(_ inlines: [Inline], diagnostics: inout [Diagnostic]) -> [Inline] {
        guard containsTag(inlines) else { return inlines }
        var warned: Set<String> = []
        return resolve(inlines, warned: &warned, diagnostics: &diagnostics)
    }

    private static func containsTag(_ inlines: [Inline]) -> Bool {
        inlines.contains { inline in
            if case .rawHTML = inline.kind { return true }
            return children(inline).map(containsTag) ?? false
        }
    }

    private static func children(_ inline: Inline) -> [Inline]? {
        switch inline.kind {
        case .strong(let c), .emphasis(let c), .underline(let c), .strikethrough(let c), .superscript(let c),
             .subscript(let c), .highlight(let c), .link(_, let c), .span(let c, _):
            return c
        default:
            return nil
        }
    }

    private static func replacingChildren(_ inline: Inline, _ c: [Inline]) -> Inline {
        var out = inline
        switch inline.kind {
        case .strong: out.kind = .strong(c)
        case .emphasis: out.kind = .emphasis(c)
        case .underline: out.kind = .underline(c)
        case .strikethrough: out.kind = .strikethrough(c)
        case .superscript: out.kind = .superscript(c)
        case .subscript: out.kind = .subscript(c)
        case .highlight: out.kind = .highlight(c)
        case .link(let d, _): out.kind = .link(destination: d, content: c)
        case .span(_, let a): out.kind = .span(content: c, attributes: a)
        default: break
        }
        return out
    }

    static func resolve(_ inlines: [Inline], warned: inout Set<String>, diagnostics: inout [Diagnostic]) -> [Inline] {
        var out: [Inline] = []
        out.reserveCapacity(inlines.count)
        var stack: [(tag: HTMLTag, start: Int)] = []
        var open: [String: Int] = [:]
        var afterBreak = false
        // Inside `<script>` or `<style>`: code, not content, hidden up to its closing tag (as in HTML blocks).
        var hidden: String? = nil
        var lastClosing: [String: Int] = [:]   // one pass, so many `<script>` tags stay linear
        for (k, inline) in inlines.enumerated() {
            if case .rawHTML(let t) = inline.kind, t.isClosing, t.name == "script" || t.name == "style" { lastClosing[t.name] = k }
        }
        for (index, var inline) in inlines.enumerated() {
            if let name = hidden {
                if case .rawHTML(let tag) = inline.kind, tag.isClosing, tag.name == name { hidden = nil }
                continue
            }
            guard case .rawHTML(let tag) = inline.kind else {
                if afterBreak, case .text(let t) = inline.kind {   // `<br>\n  text`: the white space goes, as in HTML
                    let kept = String(t.drop { $0 == " " })
                    if kept.isEmpty { continue }
                    let dropped = t.utf8.count - kept.utf8.count
                    inline.literalOffsets = inline.literalOffsets.map { $0 - dropped }
                    inline.kind = .text(kept)
                }
                afterBreak = false
                if let c = children(inline), containsTag(c) {
                    out.append(replacingChildren(inline, resolve(c, warned: &warned, diagnostics: &diagnostics)))
                } else {
                    out.append(inline)
                }
                continue
            }
            switch HTMLTagRole.of(tag.name) {
            case .lineBreak:
                if !tag.isClosing {
                    if let last = out.last, case .text(let t) = last.kind, t.last == " " {
                        var trimmed = Substring(t)
                        while trimmed.last == " " { trimmed.removeLast() }
                        if trimmed.isEmpty { out.removeLast() } else { out[out.count - 1].kind = .text(String(trimmed)) }
                    }
                    out.append(Inline(.hardBreak, range: tag.range))
                    afterBreak = true
                }
            case .image:
                if !tag.isClosing, let image = image(tag) { out.append(Inline(.image(image), range: tag.range)) }
            case .inline:
                if !tag.isClosing {
                    if stack.count < maxDepth {
                        stack.append((tag, out.count))
                        open[tag.name, default: 0] += 1
                    }
                } else if open[tag.name, default: 0] > 0 {
                    // Tags left open inside this one vanish (their text stays where it is).
                    while let top = stack.popLast() {
                        open[top.tag.name, default: 1] -= 1
                        guard top.tag.name == tag.name else { continue }
                        let content = Array(out[top.start...])
                        out.removeSubrange(top.start...)
                        let range = SourceRange(start: top.tag.range.start, end: tag.range.end)
                        out.append(contentsOf: wrap(top.tag, content, range))
                        break
                    }
                }
            case .heading, .container, .rule:
                break   // inside a paragraph these only vanish
            case .unknown:
                warnUnknown(tag, warned: &warned, diagnostics: &diagnostics)
                // Only up to a closing tag in the paragraph: prose that names `<script>` keeps its text.
                if !tag.isClosing && (tag.name == "script" || tag.name == "style"), (lastClosing[tag.name] ?? -1) > index {
                    hidden = tag.name
                }
            }
        }
        return out
    }

    static func warnUnknown(_ tag: HTMLTag, warned: inout Set<String>, diagnostics: inout [Diagnostic]) {
        guard warned.insert(tag.name).inserted else { return }
        diagnostics.append(.warning(unknownMessage(tag.name), at: tag.range.start))
    }

    /// One message per name, so the document-wide filter (`firstPerUnknownTag`) can keep only the first.
    static func unknownMessage(_ name: String) -> String {
        // A script's or style sheet's text is not content: it goes with the tag (HTMLBlocks hides it).
        if name == "script" || name == "style" {
            return "HTML tag <\(name)> has no meaning in RT: the tag is dropped, and its text up to </\(name)>"
        }
        return "HTML tag <\(name)> has no meaning in RT: the tag is dropped and its text kept"
    }

    /// Keeps the first warning about each tag name in the whole document (unknown tags, `<pre>` set as code).
    static func firstPerUnknownTag(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        var seen: Set<String> = []
        return diagnostics.filter { d in
            guard d.severity == .warning, d.message.hasPrefix("HTML tag <") else { return true }
            return seen.insert(d.message).inserted
        }
    }

    private static func wrap(_ tag: HTMLTag, _ content: [Inline], _ range: SourceRange) -> [Inline] {
        let kind: InlineKind
        switch tag.name {
        case "b", "strong": kind = .strong(content)
        case "i", "em": kind = .emphasis(content)
        case "u": kind = .underline(content)
        case "s", "del": kind = .strikethrough(content)
        case "sub": kind = .subscript(content)
        case "sup": kind = .superscript(content)
        case "mark": kind = .highlight(content)
        case "code", "kbd": kind = .code(plainText(content))
        case "a":
            if let href = tag["href"], !href.isEmpty {
                kind = .link(destination: href, content: content)
            } else if let id = tag["id"] ?? tag["name"], !id.isEmpty {
                kind = .span(content: content, attributes: Attributes(id: id))   // `<a name="top">`: a link target
            } else {
                return content
            }
        default:
            return content   // <span>
        }
        return [Inline(kind, range: range)]
    }

    /// An HTML length as RT writes it: `120` -> `120px`, `50%` stays; `100px;` (as some generators write it)
    /// loses the `;`; anything else is ignored, as browsers do.
    static func htmlLength(_ written: String) -> String? {
        var value = Substring(written.trimmingSpaces)
        while value.last == ";" || value.last == " " { value.removeLast() }
        var number = value
        var unit = ""
        if number.hasSuffix("px") { number.removeLast(2); unit = "px" } else if number.hasSuffix("%") { number.removeLast(); unit = "%" }
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), Double(number) != nil else { return nil }
        return String(number) + (unit.isEmpty ? "px" : unit)
    }

    /// `<img src alt width height>`; `width`/`height` are CSS pixels unless they name a unit (section 5).
    static func image(_ tag: HTMLTag) -> ImageReference? {
        guard let src = tag["src"], !src.isEmpty else { return nil }
        var attributes = Attributes()
        for key in ["width", "height"] {
            guard let value = htmlLength(tag[key] ?? "") else { continue }
            attributes.pairs.append(AttributePair(key: key, value: value, keyRange: tag.range, valueRange: tag.range))
        }
        // Both sizes: HTML stretches the picture to them (RT's own default keeps its proportions, `fit=contain`).
        if attributes.pairs.count == 2 {
            attributes.pairs.append(AttributePair(key: "fit", value: "fill", keyRange: tag.range, valueRange: tag.range))
        }
        return ImageReference(alt: tag["alt"] ?? "", path: src, attributes: attributes, range: tag.range)
    }
}
