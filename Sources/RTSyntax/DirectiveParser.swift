// Divs (`::: styles {attrs}` ... `:::`) and `@` directives, including `@include`.

extension BlockParser {
    static let knownDirectives: Set<String> = ["pagebreak", "columnbreak", "toc", "include", "exclude", "chart"]

    // MARK: - Div

    struct DivMarker {
        var start: Int
        var restStart: Int
        var isCloser: Bool
    }

    func divMarker(_ l: LineView) -> DivMarker? {
        let (indent, p) = src.indentation(l)
        guard indent <= 3 else { return nil }
        var k = p
        while k < l.end && text[k] == Byte.colon { k += 1 }
        guard k - p >= 3 else { return nil }
        let rest = src.trimmed(k, l.end)
        return DivMarker(start: p, restStart: rest.0, isCloser: rest.0 == rest.1)
    }

    mutating func div(_ lines: Lines, _ i: Int, _ marker: DivMarker, depth: Int) -> (Block, Int) {
        let opener = lines[i]
        let attributes = divAttributes(marker.restStart, src.trimmed(marker.restStart, opener.end).1)
        let j = divEnd(lines, i)
        let closed = j < lines.count
        if !closed {
            ctx.diagnostics.append(.error("unclosed div: add a line ':::' to close the div opened here",
                                          at: src.location(marker.start)))
        }
        let blocks = parseBlocks(lines.window(i + 1, j), depth: depth + 1)
        let endLine = closed ? lines[j] : lines[j - 1]
        let range = src.range(marker.start, max(marker.start, endLine.end))
        return (Block(.div(blocks), attributes: attributes, range: range), closed ? j + 1 : j)
    }

    /// Index of the `:::` closing the div opened at `lines[i]` (skipping fenced code, counting nested
    /// divs), or `lines.count`. One scan also pairs every div opened inside, and the nested parses look
    /// those up: otherwise each of n nested (or unclosed) openers would scan to the end again.
    mutating func divEnd(_ lines: Lines, _ i: Int) -> Int {
        if let known = divClosers[lines[i].start] {
            let j = i + known.distance
            // Only valid for the same run of lines the scan saw (same closer line, or same end).
            if known.closerStart >= 0 {
                if j < lines.count && lines[j].start == known.closerStart { return j }
            } else if j == lines.count && lines.last?.start == known.lastStart {
                return j
            }
        }
        var open: [Int] = [i]
        var fence: Fence? = nil
        var j = i + 1
        while j < lines.count {
            let l = lines[j]
            let stripped = src.stripIndent(l, Int.max)
            if let open = fence {
                if isFenceClose(stripped, open) { fence = nil }
            } else if let f = fenceOpen(stripped) {
                fence = f
            } else if let m = divMarker(l) {
                if !m.isCloser {
                    open.append(j)
                } else {
                    let opener = open.removeLast()
                    if opener != i {
                        divClosers[lines[opener].start] = DivCloser(distance: j - opener, closerStart: l.start, lastStart: -1)
                    }
                    if open.isEmpty { return j }
                }
            }
            j += 1
        }
        let lastStart = lines.last?.start ?? -1
        for opener in open where opener != i {
            divClosers[lines[opener].start] = DivCloser(distance: lines.count - opener, closerStart: -1, lastStart: lastStart)
        }
        return j
    }

    /// `note warning {box=true}`: style names and/or one attribute block.
    mutating func divAttributes(_ start: Int, _ end: Int) -> Attributes {
        var attrs = Attributes()
        var k = start
        while k < end {
            if Byte.isSpaceOrTab(text[k]) {
                k += 1
                continue
            }
            if text[k] == Byte.lbrace {
                if let close = AttributeParser.findClose(text, open: k, end: end) {
                    attrs = attrs.merging(parseAttributes(k + 1, close))
                    k = close + 1
                } else {
                    ctx.diagnostics.append(.warning("unclosed '{' in the div line: add '}'", at: src.location(k)))
                    attrs = attrs.merging(parseAttributes(k + 1, end))
                    k = end
                }
                continue
            }
            var w = k
            while w < end && !Byte.isSpaceOrTab(text[w]) && text[w] != Byte.lbrace { w += 1 }
            let nameStart = text[k] == Byte.dot ? k + 1 : k
            if nameStart < w {
                attrs.styles.append(StyleName(src.string(nameStart, w), range: src.range(nameStart, w)))
            }
            k = w
        }
        return attrs
    }

    // MARK: - Directives

    /// `@name` at the start of a line: offsets of the name.
    func directiveName(_ l: LineView) -> (Int, Int)? {
        let (indent, p) = src.indentation(l)
        guard indent <= 3, p + 1 < l.end, text[p] == Byte.at, Byte.isLetter(text[p + 1]) else { return nil }
        var k = p + 1
        while k < l.end && (Byte.isAlnum(text[k]) || text[k] == Byte.minus || text[k] == Byte.underscore) { k += 1 }
        guard k == l.end || Byte.isSpaceOrTab(text[k]) else { return nil }
        return (p + 1, k)
    }

    /// A line is a directive only when `@` starts a directive name (RT section 9): `@someone said hi` is a
    /// paragraph. A name one or two letters away from a directive's (`@pagebrake`) is most likely a typo:
    /// its line is still set as text, with a warning at the name.
    mutating func isDirective(_ nameStart: Int, _ nameEnd: Int) -> Bool {
        let name = src.string(nameStart, nameEnd)
        if Self.knownDirectives.contains(name) { return true }
        if let near = Self.knownDirectives.sorted().first(where: { Self.isNearMiss(name.lowercased(), $0) }) {
            ctx.diagnostics.append(.warning("'@\(name)' is not a directive (did you mean @\(near)?): the line is set as text; write \\@ to keep a literal @ quiet",
                                            at: src.location(nameStart - 1)))
        }
        return false
    }

    /// Within two edits (insert, delete, replace) of `known`, for names of at least four letters.
    static func isNearMiss(_ name: String, _ known: String) -> Bool {
        let a = Array(name.utf8), b = Array(known.utf8)
        guard a.count >= 4, abs(a.count - b.count) <= 2 else { return false }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + [Int](repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count] <= 2
    }

    mutating func directive(_ l: LineView, _ nameStart: Int, _ nameEnd: Int, depth: Int) -> [Block] {
        let name = src.string(nameStart, nameEnd)
        let (argStart, argEnd) = src.trimmed(nameEnd, l.end)
        let arguments = src.string(argStart, argEnd)
        let at = src.location(nameStart - 1)
        let range = src.range(nameStart - 1, max(nameEnd, argEnd))
        func simple(_ d: Directive, _ me: inout BlockParser) -> [Block] {
            if !arguments.isEmpty {
                me.ctx.diagnostics.append(.warning("'@\(name)' takes no arguments: remove '\(arguments)'", at: me.src.location(argStart)))
            }
            return [Block(.directive(d), range: range)]
        }
        switch name {
        case "pagebreak": return simple(.pageBreak, &self)
        case "columnbreak": return simple(.columnBreak, &self)
        case "toc": return [toc(argStart, argEnd, range: range)]
        case "include": return include(arguments, at: at, depth: depth)
        case "exclude":
            guard let block = exclude(argStart, argEnd, range: range, at: at) else { return [] }
            return [block]
        case "chart":
            guard let block = chart(argStart, argEnd, range: range, at: at) else { return [] }
            return [block]
        default:
            ctx.diagnostics.append(.warning("unknown directive '@\(name)': use @pagebreak, @columnbreak, @toc, @include, @exclude or @chart (write \\@ for a literal @)",
                                            at: at))
            return [Block(.directive(.unknown(name: name, arguments: arguments)), range: range)]
        }
    }

    /// `@exclude SHAPE [pages=..] [margin=..]`: SHAPE is `name(...)`, kept as written.
    mutating func exclude(_ s: Int, _ e: Int, range: SourceRange, at: SourceLocation) -> Block? {
        var k = s
        while k < e && Byte.isLetter(text[k]) { k += 1 }
        let shapeName = src.string(s, k)
        var depthCount = 0
        var close = -1
        if k < e && text[k] == Byte.lparen {
            var p = k
            while p < e {
                if text[p] == Byte.lparen { depthCount += 1 }
                if text[p] == Byte.rparen {
                    depthCount -= 1
                    if depthCount == 0 {
                        close = p
                        break
                    }
                }
                p += 1
            }
        }
        guard close >= 0 else {
            // A warning, not an error: the document renders without the exclusion (RT section 8).
            ctx.diagnostics.append(.warning("@exclude needs a shape: rect(x, y, w, h), circle(cx, cy, r), ellipse(cx, cy, rx, ry) or polygon(x1 y1, x2 y2, ...); ignored",
                                            at: s < e ? src.location(s) : at))
            return nil
        }
        if !["rect", "circle", "ellipse", "polygon"].contains(shapeName) {
            ctx.diagnostics.append(.warning("unknown @exclude shape '\(shapeName)': use rect, circle, ellipse or polygon",
                                            at: src.location(s)))
        }
        let options = parseAttributes(close + 1, e)
        for pair in options.pairs where pair.key != "pages" && pair.key != "margin" {
            ctx.diagnostics.append(.warning("unknown @exclude option '\(pair.key)': use pages=all|N|N-M|this or margin=LEN",
                                            at: pair.keyRange.start))
        }
        if !options.styles.isEmpty || options.id != nil {
            ctx.diagnostics.append(.warning("@exclude options are key=value pairs (pages=..., margin=...)", at: src.location(close + 1)))
        }
        return Block(.directive(.exclude(shape: src.string(s, close + 1), options: options.pairs)), range: range)
    }

    /// `@toc [depth=N] [title="..."]`: values are checked when lowering.
    mutating func toc(_ s: Int, _ e: Int, range: SourceRange) -> Block {
        let reported = ctx.diagnostics.count
        let options = parseAttributes(s, e)
        for pair in options.pairs where pair.key != "depth" && pair.key != "title" && ctx.diagnostics.count == reported {
            ctx.diagnostics.append(.warning("unknown @toc option '\(pair.key)': use depth=N or title=\"...\"",
                                            at: pair.keyRange.start))
        }
        if ctx.diagnostics.count == reported && (!options.styles.isEmpty || options.id != nil || (options.pairs.isEmpty && s < e)) {
            ctx.diagnostics.append(.warning("@toc options are key=value pairs (depth=2, title=Contents)", at: src.location(s)))
        }
        return Block(.directive(.toc(options: options.pairs)), range: range)
    }

    // MARK: - Include

    mutating func include(_ argument: String, at: SourceLocation, depth: Int) -> [Block] {
        var path = argument
        if path.count >= 2, let f = path.first, f == "\"" || f == "'", path.last == f {
            path = String(path.dropFirst().dropLast())
        }
        guard !path.isEmpty else {
            ctx.diagnostics.append(.error("@include needs a file path, like '@include chapter1.rt'", at: at))
            return []
        }
        let resolved = RTParser.resolve(path, relativeTo: at.file)
        if ctx.includeStack.contains(resolved) {
            let chain = (ctx.includeStack + [resolved]).joined(separator: " -> ")
            ctx.diagnostics.append(.error("include cycle: \(chain); remove one of these @include lines", at: at))
            return []
        }
        if ctx.includeStack.count > BlockParser.maxIncludeDepth {
            ctx.diagnostics.append(.error("includes nest more than \(BlockParser.maxIncludeDepth) files deep: flatten the chain of @include files",
                                          at: at))
            return []
        }
        if ctx.textBoundHit { return [] }   // reported once, at the include that crossed the bound
        if let refusal = ctx.options.root?.refusal(resolved) {
            ctx.diagnostics.append(.error(refusal, at: at))
            return []
        }
        guard let read = ctx.options.readFile, let raw = read(resolved) else {
            ctx.diagnostics.append(.error("cannot read included file '\(resolved)': check the path (it is relative to the including file's folder)",
                                          at: at))
            return []
        }
        if !ctx.includedFiles.contains(resolved) { ctx.includedFiles.append(resolved) }
        if let problem = InputCheck.sizeProblem(raw.count) {
            ctx.diagnostics.append(.error(problem, at: at))
            return []
        }
        let prepared: PreparedText
        switch InputCheck.prepare(raw, file: resolved) {
        case .failure(let error):
            ctx.diagnostics.append(error)
            return []
        case .success(let text): prepared = text
        }
        ctx.diagnostics += prepared.warnings
        var sub = Source(file: resolved, bytes: prepared.bytes, dropped: prepared.dropped)
        var firstLine = 0
        switch FrontMatterParser.closingLine(sub) {
        case .some(let closing):
            ctx.diagnostics.append(.warning("front matter is not allowed in an included file and is ignored: move it to the main file",
                                            at: sub.lineLocation(0)))
            firstLine = (closing ?? 0) + 1
        case .none:
            break
        }
        if var expansion = ctx.options.expansion {
            // Included text sees the same values; the main file's template wraps only the main file.
            expansion.template = nil
            expansion.data = ctx.variables.merging(expansion.data)
            let steps: Int
            (sub, firstLine, steps) = Expansion.expandInclude(sub, firstLine: firstLine, options: expansion, diagnostics: &ctx.diagnostics,
                                                              unlessInCode: &ctx.unlessInCode)
            ctx.expansionSteps += steps
        }
        ctx.textBytes += sub.bytes.count
        if ctx.textBytes > InputCheck.maxBytes {
            ctx.textBoundHit = true
            let input = ctx.includeStack.first ?? at.file
            ctx.diagnostics.append(.error("'\(input)' with its @include files is too large: the limit is \(InputCheck.maxBytes >> 20) MB "
                + "of text after includes and expansion (does a file include another many times?)", at: at))
            return []
        }
        CommentStripper.strip(&sub, from: firstLine, diagnostics: &ctx.diagnostics)
        var parser = BlockParser(src: sub, ctx: ctx)
        parser.ctx.includeStack.append(resolved)
        let lines = Lines((firstLine ..< sub.lineCount).map { sub.line($0) })
        let blocks = parser.parseBlocks(lines, depth: depth)
        ctx = parser.ctx
        ctx.includeStack.removeLast()
        return blocks
    }
}
