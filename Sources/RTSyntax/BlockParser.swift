// Block grammar (section 4). Containers (quotes, list items, divs) are parsed by stripping their prefix
// from each line and parsing the stripped lines again, with a nesting cap so no input can exhaust the stack.

/// State shared by the parsers of the main file and every included file.
struct ParseContext {
    let options: ParseOptions
    var diagnostics: [Diagnostic] = []
    /// Undefined or map-valued variables outside fences and code spans: errors unless the parser puts them in an
    /// indented code block (checked after parsing, `RTParser.outsideCodeBlocks`).
    var unlessInCode: [Diagnostic] = []
    var usedIDs: Set<String> = []
    var includeStack: [String] = []
    var includedFiles: [String] = []
    var deepWarned = false
    /// Text of the document so far after includes and expansion: bounded like one file, so files that
    /// include each other many times cannot multiply into gigabytes.
    var textBytes = 0
    var textBoundHit = false
    /// Expansion work so far (main file and includes), reported in `ParseResult.expansionSteps`.
    var expansionSteps = 0
    /// Front matter `vars` and metadata of the main file, for expanding included files.
    var variables = DataValue.map([])
    /// Link reference definitions by normalized label (the first one wins).
    var linkDefinitions: [String: LinkDefinition] = [:]
    /// Labels used before any definition for them was seen: a later definition means a second pass.
    var missedLabels: Set<String> = []
    /// Blocks only (RTParser's first pass, which collects the link reference definitions): no inline parsing.
    var skipInlines = false
    /// Work done (lines and bytes looked at, inline parser steps): tests check it grows linearly.
    var steps = 0
    /// Source lines taken as lazy paragraph continuations inside quotes and list items.
    var lazyLines: Set<Int> = []
    /// HTML container tags left open by earlier HTML blocks (their `align` reaches the blocks between).
    var html = HTMLBlockState()

    init(options: ParseOptions) { self.options = options }
}

struct BlockParser {
    static let maxDepth = 100
    static let maxIncludeDepth = 32

    let src: Source
    let text: [UInt8]
    var ctx: ParseContext
    /// Div openers already paired by an enclosing div's scan, by the opener line's start offset.
    var divClosers: [Int: DivCloser] = [:]

    struct DivCloser {
        /// Lines from the opener to its closer (or to the end of the lines scanned).
        var distance: Int
        /// Start offset of the closer line; -1 when unclosed.
        var closerStart: Int
        /// When unclosed: start offset of the last line scanned.
        var lastStart: Int
    }

    init(src: Source, ctx: ParseContext) {
        self.src = src
        self.text = src.text
        self.ctx = ctx
    }

    // MARK: - Block sequence

    mutating func parseBlocks(_ lines: Lines, depth: Int) -> [Block] {
        var blocks: [Block] = []
        var pending: Attributes? = nil
        var pendingAt: SourceLocation? = nil
        let flat = depth >= BlockParser.maxDepth
        if flat && !ctx.deepWarned, let l = lines.first(where: { !src.isBlank($0) }) {
            ctx.deepWarned = true
            ctx.diagnostics.append(.warning("blocks nested more than \(BlockParser.maxDepth) levels deep: the inner lines are kept as plain paragraphs",
                                            at: src.location(l.start)))
        }
        var i = 0
        while i < lines.count {
            let l = lines[i]
            ctx.steps += 1
            if src.isBlank(l) || src.isCommentOnly(l) {
                if pending != nil && src.isBlank(l) {
                    // Block attributes bind to the very next line only (section 6); silently when the line
                    // between came out empty from variable expansion (`{.dateline}` above an empty `{{#date}}`).
                    if src.map?.isWrittenBlank(l.start) ?? true {
                        ctx.diagnostics.append(.warning("block attributes apply to nothing: a blank line separates "
                            + "them from the block below; remove it", at: pendingAt))
                    }
                    pending = nil
                    pendingAt = nil
                }
                i += 1
                continue
            }
            var produced: [Block] = []
            var fromHTML = false
            if flat {
                let (block, next) = paragraph(lines, i, flat: true)
                produced = block.map { [$0] } ?? []
                i = next
            } else if startsIndentedCode(l) {
                let (block, next) = indentedCode(lines, i)
                produced = [block]
                i = next
            } else if let fence = fenceOpen(l) {
                let (block, next) = codeBlock(lines, i, fence)
                produced = [block]
                i = next
            } else if let heading = heading(l) {
                produced = [heading]
                i += 1
            } else if isRule(l) {
                produced = [Block(.rule, range: lineRange(l))]
                i += 1
            } else if let (open, close) = blockAttributeLine(l) {
                let attrs = parseAttributes(open + 1, close)
                // Appended in place: `merging` would copy the accumulated lists once per line (quadratic).
                if pending == nil { pending = attrs } else { pending!.append(attrs) }
                pendingAt = pendingAt ?? src.location(open)
                i += 1
                continue
            } else if let (nameStart, nameEnd) = directiveName(l), isDirective(nameStart, nameEnd) {
                produced = directive(l, nameStart, nameEnd, depth: depth)
                i += 1
            } else if let marker = divMarker(l) {
                if marker.isCloser {
                    ctx.diagnostics.append(.warning("':::' closes no open div: remove this line", at: src.location(marker.start)))
                    i += 1
                    continue
                }
                let (block, next) = div(lines, i, marker, depth: depth)
                produced = [block]
                i = next
            } else if quoteMarker(l) != nil {
                let (block, next) = blockQuote(lines, i, depth: depth)
                produced = [block]
                i = next
            } else if let marker = listMarker(l) {
                let (block, next) = list(lines, i, marker, depth: depth)
                produced = [block]
                i = next
            } else if let end = htmlBlockStart(l, interrupting: false) {
                (produced, i) = htmlBlock(lines, i, end)
                fromHTML = true
            } else if let start = footnoteDefinitionStart(l) {
                let (block, next) = footnoteDefinition(lines, i, start, depth: depth)
                produced = [block]
                i = next
            } else {
                let rows = tableRows(lines, i)
                if let rows, rows.cells == rows.columns {
                    let (block, next) = table(lines, i)
                    produced = [block]
                    i = next
                } else {
                    if let rows { ctx.diagnostics.append(mismatchWarning(l, rows)) }
                    let (block, next) = paragraph(lines, i, flat: false)
                    produced = block.map { [$0] } ?? []
                    i = next
                }
            }
            if let p = pending, !produced.isEmpty {
                produced[0].attributes = p.merging(produced[0].attributes)
                pending = nil
                pendingAt = nil
            }
            if !fromHTML { alignInsideHTML(&produced) }
            for var block in produced {
                assignHeadingID(&block)
                if let id = block.attributes.id { ctx.usedIDs.insert(id) } // slugs must not take a div's or block's id
                blocks.append(block)
            }
        }
        if pending != nil {
            ctx.diagnostics.append(.warning("block attributes apply to nothing: put the '{...}' line directly above a block",
                                            at: pendingAt))
        }
        return blocks
    }

    /// Explicit `#id`s are taken as the parser meets them; headings without one get a slug id in a
    /// second pass (`HeadingIDs`), so an explicit id later in the document still wins.
    mutating func assignHeadingID(_ block: inout Block) {
        guard case .heading(let level, let content, let existing) = block.kind, existing.isEmpty,
              let explicit = block.attributes.id, !explicit.isEmpty else { return }
        if ctx.usedIDs.contains(explicit) {
            ctx.diagnostics.append(.warning("id '\(explicit)' is used twice: links to it go to the first one; choose another #id",
                                            at: block.range.start))
        }
        ctx.usedIDs.insert(explicit)
        block.kind = .heading(level: level, content: content, id: explicit)
    }

    // MARK: - Helpers

    func lineRange(_ l: LineView) -> SourceRange {
        let (s, e) = src.trimmed(l.start, l.end)
        return src.range(s, max(s, e))
    }

    mutating func parseAttributes(_ s: Int, _ e: Int) -> Attributes {
        let src = self.src
        return AttributeParser.parse(src.text, s, e, locate: { src.location($0) }, diagnostics: &ctx.diagnostics)
    }

    mutating func inlines(_ segments: [(Int, Int)], tableCell: Bool = false) -> [Inline] {
        if ctx.skipInlines { return [] }
        var input = InlineInput(src: src, segments: segments)
        input.tableCell = tableCell
        let result = InlineParser.parse(input, definitions: ctx.linkDefinitions)
        ctx.diagnostics.append(contentsOf: result.diagnostics)
        ctx.steps += result.steps
        ctx.missedLabels.formUnion(result.missedLabels)
        return result.inlines
    }

    /// Does this line start a block that ends a paragraph above it?
    func interruptsParagraph(_ l: LineView) -> Bool {
        // Indented four columns or more, a line only continues the paragraph (it cannot start code).
        if !src.isBlank(l) && src.indentation(l).columns >= 4 { return false }
        if src.isBlank(l) || fenceOpen(l) != nil || headingLevel(l) != nil || isRule(l) || quoteMarker(l) != nil
            || divMarker(l) != nil || blockAttributeLine(l) != nil || htmlBlockStart(l, interrupting: true) != nil {
            return true
        }
        if let (s, e) = directiveName(l), BlockParser.knownDirectives.contains(src.string(s, e)) { return true }
        if let m = listMarker(l), !m.isEmpty {
            if m.bullet != 0 { return true }
            return markerValue(m, in: m.style) == 1
        }
        return false
    }

    // MARK: - Paragraph

    mutating func paragraph(_ lines: Lines, _ i: Int, flat: Bool) -> (Block?, Int) {
        var segments: [(Int, Int)] = []
        var j = i
        while j < lines.count {
            let l = lines[j]
            ctx.steps += 1 + l.end - l.start
            if src.isBlank(l) { break }
            // A lazy continuation line is paragraph text, never a setext underline (CommonMark).
            if j > i && !flat && !segments.isEmpty, !ctx.lazyLines.contains(l.index), let level = setextLevel(l) {
                takeDefinitions(&segments)
                if !segments.isEmpty { return (setextHeading(segments, level: level, underline: l), j + 1) }
            }
            if j > i && !flat && interruptsParagraph(l) { break }
            // A pipe table right under a line of text starts there (GFM, as GitHub shows it): a header row with
            // as many cells as the delimiter row below it ends the paragraph.
            if j > i && !flat && src.indentation(l).columns < 4, let rows = tableRows(lines, j) {
                if rows.cells == rows.columns { break }
                ctx.diagnostics.append(mismatchWarning(l, rows))
            }
            // `Table: caption` right above a pipe table ends there (pandoc's table caption, section 4).
            if j > i && !flat && startsTableCaption(lines[i]) && tableStarts(lines, j) { break }
            j += 1
            if src.isCommentOnly(l) { continue }
            var s = l.start
            while s < l.end && text[s] == Byte.space { s += 1 }
            segments.append((s, l.end))
        }
        if var lastSegment = segments.last {
            while lastSegment.1 > lastSegment.0 && Byte.isSpaceOrTab(text[lastSegment.1 - 1]) && text[lastSegment.1 - 1] != Byte.tab {
                lastSegment.1 -= 1
            }
            // A hard break whose next line came out empty from expansion (an empty `{{#date}}` line below it,
            // section 6) is not printed; a `\` that ends a paragraph as written stays literal (CommonMark).
            let emptiedBelow = j < lines.count && src.isBlank(lines[j]) && !(src.map?.isWrittenBlank(lines[j].start) ?? true)
            var backslashes = 0
            while emptiedBelow && backslashes < lastSegment.1 - lastSegment.0
                && text[lastSegment.1 - 1 - backslashes] == Byte.backslash {
                backslashes += 1
            }
            if backslashes % 2 == 1 { lastSegment.1 -= 1 }
            segments[segments.count - 1] = lastSegment
        }
        takeDefinitions(&segments)
        if segments.isEmpty && j > i && !src.isCommentOnly(lines[i]) { return (nil, j) }
        let first = segments.first ?? (lines[i].start, lines[i].start)
        let range = src.range(first.0, segments.last?.1 ?? first.1)
        let content = inlines(segments)
        // A paragraph holding only an image is an image block. Looked at in place, stopping at the second
        // visible inline (a filtered copy cost a copy of every inline of a paragraph of 250,000 links).
        var visible: Int? = nil
        for k in content.indices {
            if case .text(let t) = content[k].kind, t.utf8.allSatisfy({ $0 == Byte.space }) { continue }
            if visible != nil { visible = nil; break }
            visible = k
        }
        if let k = visible, case .image(let image) = content[k].kind {
            return (Block(.imageBlock(image), range: range), j)
        }
        return (Block(.paragraph(content), range: range), j)
    }

    // MARK: - Heading

    func headingLevel(_ l: LineView) -> (level: Int, contentStart: Int)? {
        let (indent, p) = src.indentation(l)
        guard indent <= 3 else { return nil }
        var k = p
        while k < l.end && text[k] == Byte.hash && k - p < 7 { k += 1 }
        let level = k - p
        guard level >= 1 && level <= 6 else { return nil }
        guard k == l.end || Byte.isSpaceOrTab(text[k]) else { return nil }
        return (level, k)
    }

    mutating func heading(_ l: LineView) -> Block? {
        guard let (level, contentStart) = headingLevel(l) else { return nil }
        var (s, e) = src.trimmed(contentStart, l.end)
        // Optional closing #s, as in Markdown.
        var k = e
        while k > s && text[k - 1] == Byte.hash { k -= 1 }
        if k < e && (k == s || Byte.isSpaceOrTab(text[k - 1])) { e = k }
        (s, e) = src.trimmed(s, e)
        let attributes: Attributes
        (e, attributes) = headingAttributes(s, e)
        let content = inlines([(s, e)])
        return Block(.heading(level: level, content: content, id: ""), attributes: attributes, range: lineRange(l))
    }

    // MARK: - Rule

    func isRule(_ l: LineView) -> Bool {
        let (indent, p) = src.indentation(l)
        guard indent <= 3, p < l.end else { return false }
        let c = text[p]
        guard c == Byte.star || c == Byte.minus || c == Byte.underscore else { return false }
        var count = 0
        var k = p
        while k < l.end {
            if text[k] == c { count += 1 } else if !Byte.isSpaceOrTab(text[k]) { return false }
            k += 1
        }
        return count >= 3
    }

    // MARK: - Code block

    struct Fence {
        var indent: Int
        /// Backtick or tilde.
        var char: UInt8
        var length: Int
        var language: String?
        var start: Int
    }

    func fenceOpen(_ l: LineView) -> Fence? {
        let (indent, p) = src.indentation(l)
        guard indent <= 3, p < l.end, text[p] == Byte.backtick || text[p] == Byte.tilde else { return nil }
        let c = text[p]
        var k = p
        while k < l.end && text[k] == c { k += 1 }
        guard k - p >= 3 else { return nil }
        let (s, e) = src.trimmed(k, l.end)
        var w = s
        while w < e && c == Byte.backtick { // a backtick fence's info string has no backtick (it would be code)
            if text[w] == Byte.backtick { return nil }
            w += 1
        }
        var wordEnd = s
        while wordEnd < e && !Byte.isSpaceOrTab(text[wordEnd]) { wordEnd += 1 }
        return Fence(indent: indent, char: c, length: k - p, language: wordEnd > s ? src.string(s, wordEnd) : nil, start: p)
    }

    /// A line of at least as many of the fence's characters as opened it, and nothing else.
    func isFenceClose(_ l: LineView, _ fence: Fence) -> Bool {
        let (indent, p) = src.indentation(l)
        guard indent <= 3 else { return false }
        var k = p
        while k < l.end && text[k] == fence.char { k += 1 }
        return k - p >= fence.length && src.trimmed(k, l.end).0 == l.end
    }

    mutating func codeBlock(_ lines: Lines, _ i: Int, _ fence: Fence) -> (Block, Int) {
        var j = i + 1
        var body: [UInt8] = []
        var closed = false
        while j < lines.count {
            let l = lines[j]
            ctx.steps += 1 + l.end - l.start
            if isFenceClose(l, fence) {
                closed = true
                break
            }
            let stripped = src.stripIndent(l, fence.indent)
            if j > i + 1 { body.append(Byte.lf) }
            // Verbatim from the original bytes: comments are not removed inside code.
            body.append(contentsOf: src.bytes[stripped.start ..< stripped.end])
            j += 1
        }
        let last = closed ? lines[j] : lines[max(i, j - 1)]
        if !closed {
            let what = fence.char == Byte.tilde ? "tildes" : "backticks"
            ctx.diagnostics.append(.warning("unclosed code block: add a line of \(fence.length) \(what) to close the block opened here (it runs to the end)",
                                            at: src.location(fence.start)))
        }
        let range = src.range(fence.start, max(fence.start, last.end))
        let block = Block(.codeBlock(language: fence.language, text: String(decoding: body, as: UTF8.self)), range: range)
        return (block, closed ? j + 1 : j)
    }

    // MARK: - Block attributes line

    /// `{...}` alone on a line (not `{{variable}}` or `{% comment %}`): offsets of the braces.
    func blockAttributeLine(_ l: LineView) -> (Int, Int)? {
        let first = src.indentation(l).first
        guard first < l.end, text[first] == Byte.lbrace else { return nil }
        let (s, e) = src.trimmed(first, l.end)
        guard e - s >= 2, text[s] == Byte.lbrace, text[e - 1] == Byte.rbrace,
              text[s + 1] != Byte.lbrace, text[s + 1] != Byte.percent else { return nil }
        guard AttributeParser.findClose(text, open: s, end: e) == e - 1 else { return nil }
        return (s, e - 1)
    }

    // MARK: - Block quote

    /// Offset just after `> ` (or `>`), when the line is a quote line.
    func quoteMarker(_ l: LineView) -> Int? {
        let (indent, p) = src.indentation(l)
        guard indent <= 3, p < l.end, text[p] == Byte.gt else { return nil }
        var k = p + 1
        if k < l.end && Byte.isSpaceOrTab(text[k]) { k += 1 }
        return k
    }

    mutating func blockQuote(_ lines: Lines, _ i: Int, depth: Int) -> (Block, Int) {
        var inner: [LineView] = []
        var j = i
        var lastContent = lines[i]
        var previousIsText = false
        while j < lines.count {
            let l = lines[j]
            ctx.steps += 1
            if let k = quoteMarker(l) {
                let stripped = LineView(index: l.index, start: k, end: l.end)
                inner.append(stripped)
                previousIsText = !src.isBlank(stripped) && !interruptsParagraph(stripped)
                    && quoteMarker(stripped) == nil
                lastContent = l
            } else if previousIsText && !src.isBlank(l) && !interruptsParagraph(l) {
                inner.append(l) // lazy continuation of a paragraph in the quote
                ctx.lazyLines.insert(l.index)
                lastContent = l
            } else {
                break
            }
            j += 1
        }
        let start = src.indentation(lines[i]).first
        let range = src.range(start, max(start, lastContent.end))
        let blocks = parseBlocks(Lines(inner), depth: depth + 1)
        let firstLine = inner.first.map { src.location($0.start).line }
        if let alert = Self.alert(blocks, firstLine: firstLine) { return (alert(range), j) }
        return (Block(.blockQuote(blocks), range: range), j)
    }
}
