// The public face of the parser: bytes in, syntax tree and diagnostics out. Never throws, never traps.

public enum RTParser {
    /// Parses a whole `.rt` file. `file` is the name used in locations (a path or `<stdin>`);
    /// `@include` paths are resolved against its folder and read through `options.readFile`.
    public static func parse(_ bytes: [UInt8], file: String, options: ParseOptions = .init()) -> ParseResult {
        if let problem = InputCheck.sizeProblem(bytes.count) {
            return ParseResult(document: RTDocument(file: file), diagnostics: [.error(problem, at: SourceLocation(file: file, line: 1, column: 1))])
        }
        let prepared: PreparedText
        switch InputCheck.prepare(bytes, file: file) {
        case .failure(let error): return ParseResult(document: RTDocument(file: file), diagnostics: [error])
        case .success(let text): prepared = text
        }
        var src = Source(file: file, bytes: prepared.bytes, dropped: prepared.dropped)
        var ctx = ParseContext(options: options)
        ctx.diagnostics += prepared.warnings
        ctx.includeStack = [normalize(file)]
        var firstLine = 0
        var frontMatter: FrontMatter? = nil
        switch FrontMatterParser.closingLine(src) {
        case .none:
            break
        case .some(.none):
            ctx.diagnostics.append(.error("unclosed front matter: add a line '---' (or '...') after the YAML that starts here",
                                          at: src.lineLocation(0)))
            firstLine = 1
        case .some(.some(let closing)):
            frontMatter = FrontMatterParser.parse(src, closing: closing, diagnostics: &ctx.diagnostics)
            firstLine = closing + 1
        }
        var templateFile: String? = nil
        var expansionSeconds = 0.0
        if let expansion = options.expansion, !ctx.diagnostics.contains(where: { $0.severity == .error }) {
            let clock = ContinuousClock.now
            defer { expansionSeconds = Self.seconds(since: clock) }
            let expanded = Expansion.run(src, firstLine: firstLine, frontMatter: frontMatter, options: expansion, root: options.root,
                                         diagnostics: &ctx.diagnostics)
            src = expanded.source
            frontMatter = expanded.frontMatter
            templateFile = expanded.templateFile
            firstLine = expanded.firstLine
            ctx.expansionSteps = expanded.steps
            ctx.unlessInCode = expanded.unlessInCode
            ctx.variables = Expansion.variables(of: frontMatter)
        }
        CommentStripper.strip(&src, from: firstLine, diagnostics: &ctx.diagnostics)
        ctx.textBytes = src.bytes.count
        var parser = BlockParser(src: src, ctx: ctx)
        let lines = Lines((firstLine ..< src.lineCount).map { src.line($0) })
        // A reference may be used above its definition (Markdown puts them at the end): when the text may hold
        // a definition (`]:`), a first pass of blocks alone collects them, so that inlines are parsed once,
        // knowing every definition (a paragraph of 50,000 such references was parsed twice).
        if Self.mayDefine(src.text) {
            var collect = ctx
            collect.skipInlines = true
            var first = BlockParser(src: src, ctx: collect)
            _ = first.parseBlocks(lines, depth: 0)
            var again = ctx
            again.linkDefinitions = first.ctx.linkDefinitions
            again.steps = first.ctx.steps
            parser = BlockParser(src: src, ctx: again)
        }
        var blocks = parser.parseBlocks(lines, depth: 0)
        // A definition the first pass did not see (none is known to exist): parse once more, knowing them all.
        if !parser.ctx.missedLabels.isDisjoint(with: parser.ctx.linkDefinitions.keys) {
            var again = ctx
            again.linkDefinitions = parser.ctx.linkDefinitions
            again.steps = parser.ctx.steps
            parser = BlockParser(src: src, ctx: again)
            blocks = parser.parseBlocks(lines, depth: 0)
        }
        var ids = HeadingIDs(used: parser.ctx.usedIDs)
        ids.assign(&blocks)
        let outsideCode = Self.outsideCodeBlocks(parser.ctx.unlessInCode, blocks)
        let document = RTDocument(file: file, frontMatter: frontMatter, blocks: blocks)
        var result = ParseResult(document: document,
                                 diagnostics: HTMLInlines.firstPerUnknownTag(parser.ctx.diagnostics) + outsideCode,
                                 includedFiles: parser.ctx.includedFiles,
                                 templateFile: templateFile)
        result.expansionSeconds = expansionSeconds
        result.expansionSteps = parser.ctx.expansionSteps
        result.parseSteps = parser.ctx.steps
        result.parsedBytes = src.text.count
        return result
    }

    /// The variable errors the expander held back that are not in a code block after all (a paragraph, a list
    /// item's text): those in one keep their tag as written, as in a fenced block.
    static func outsideCodeBlocks(_ pending: [Diagnostic], _ blocks: [Block]) -> [Diagnostic] {
        guard !pending.isEmpty else { return [] }
        var code: [SourceRange] = []
        func collect(_ blocks: [Block]) {
            for block in blocks {
                switch block.kind {
                case .codeBlock: code.append(block.range)
                case .blockQuote(let inner), .div(let inner), .footnoteDefinition(_, let inner): collect(inner)
                case .list(let list): for item in list.items { collect(item.blocks) }
                default: break
                }
            }
        }
        collect(blocks)
        // Code blocks do not overlap: sorted by start, a location is in the last one starting at or before it.
        // (One binary search each: 16,000 indented blocks each with an undefined name took 50 s scanned in turn.)
        func key(_ l: SourceLocation) -> (String, Int, Int) { (l.file, l.line, l.column) }
        code.sort { key($0.start) < key($1.start) }
        func inCode(_ at: SourceLocation) -> Bool {
            var lo = 0, hi = code.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if key(code[mid].start) <= key(at) { lo = mid + 1 } else { hi = mid }
            }
            guard lo > 0 else { return false }
            let r = code[lo - 1]
            return r.start.file == at.file && key(at) <= key(r.end)
        }
        var seen: Set<SourceLocation> = []
        return pending.filter { d in d.location.map { !inCode($0) && seen.insert($0).inserted } ?? true }
    }

    /// Whether `]:` occurs (with removed comments, zero bytes, between): every link reference definition
    /// and footnote definition holds it.
    static func mayDefine(_ text: [UInt8]) -> Bool {
        var afterBracket = false
        for byte in text {
            if byte == 0x3A && afterBracket { return true }
            if byte != 0 { afterBracket = byte == 0x5D }
        }
        return false
    }

    private static func seconds(since start: ContinuousClock.Instant) -> Double {
        let d = ContinuousClock.now - start
        return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }

    /// Parses one piece of inline markup (front matter `header:` / `footer:`); locations start at `location`.
    public static func parseInlines(_ text: String, at location: SourceLocation) -> (inlines: [Inline], diagnostics: [Diagnostic]) {
        let src = Source(file: location.file, bytes: Array(text.utf8),
                         lineBase: max(0, location.line - 1), columnBase: max(0, location.column - 1))
        let segments = (0 ..< src.lineCount).map { (src.lineStarts[$0], src.lineEnds[$0]) }
        let result = InlineParser.parse(InlineInput(src: src, segments: segments))
        return (result.inlines, result.diagnostics)
    }

    /// Heading id from text: lower case, runs of non-alphanumerics become `-`, no `-` at either end.
    public static func slug(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var dash = false
        for scalar in text.lowercased().unicodeScalars {
            let p = scalar.properties
            // Marks and joiners belong to their word (a Hindi virama, Arabic vowels, the Persian ZWNJ in
            // `نرم‌افزار`), as GitHub keeps them: a README's links to such headings name them so.
            let inWord = p.isAlphabetic || p.generalCategory == .decimalNumber
                || (!out.isEmpty && !dash && (p.generalCategory == .nonspacingMark || p.generalCategory == .spacingMark
                    || p.generalCategory == .enclosingMark || scalar.value == 0x200C || scalar.value == 0x200D))
            if inWord {
                if dash && !out.isEmpty { out.append("-") }
                dash = false
                out.append(scalar)
            } else {
                dash = true
            }
        }
        return String(out)
    }

    /// `path` relative to the folder of `file` (absolute paths stay), with `.` and `..` folded.
    static func resolve(_ path: String, relativeTo file: String) -> String {
        if path.hasPrefix("/") { return normalize(path) }
        var folder = ""
        if file != "<stdin>", let slash = file.lastIndex(of: "/") { folder = String(file[...slash]) }
        return normalize(folder + path)
    }

    static func normalize(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
                continue
            }
            if part == ".." && absolute { continue }
            parts.append(part)
        }
        let joined = parts.joined(separator: "/")
        return absolute ? "/" + joined : (joined.isEmpty ? "." : joined)
    }
}
