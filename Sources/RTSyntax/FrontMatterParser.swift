// Front matter (section 2): the YAML mapping between a first line `---` and the next `---` or `...`.
// Parsed with Yams; node marks are shifted so every location names the real file line.

import Yams

enum FrontMatterParser {
    static let maxDepth = 100
    static let maxNodes = 100_000

    static func isDashLine(_ src: Source, _ index: Int, _ c: UInt8 = Byte.minus) -> Bool {
        let (s, e) = src.trimmed(src.lineStarts[index], src.lineEnds[index])
        return e - s == 3 && src.text[s] == c && src.text[s + 1] == c && src.text[s + 2] == c
            && src.lineStarts[index] == s
    }

    /// Index of the closing `---` (or YAML's end-of-document `...`) line when line 0 opens front matter;
    /// nil when the file has none. `.some(nil)`: opened but never closed.
    /// A `---` block with text but no colon on any line cannot be a YAML mapping: it is Markdown (a rule, then a
    /// setext heading or a paragraph), as CommonMark reads `---` / `Foo` / `---`. Never closed, it is front matter
    /// (missing its `---`) only when its first line has a colon, like YAML's first key.
    static func closingLine(_ src: Source) -> Int?? {
        guard src.lineCount > 0, isDashLine(src, 0) else { return nil }
        var k = 1
        while k < src.lineCount && !isDashLine(src, k) && !isDashLine(src, k, Byte.dot) { k += 1 }
        let closed = k < src.lineCount
        var hasText = false
        var hasColon = false
        for line in 1 ..< (closed ? k : min(2, src.lineCount)) {
            let (s, e) = src.trimmed(src.lineStarts[line], src.lineEnds[line])
            if s < e && src.text[s] != UInt8(ascii: "#") { hasText = true }
            if src.text[s ..< e].contains(UInt8(ascii: ":")) { hasColon = true }
        }
        if hasText && !hasColon { return nil }
        return closed ? .some(k) : .some(nil)
    }

    /// Parses lines 1..<closing of `src`. Lines in Yams marks are 1-based within the YAML text, which
    /// starts on file line 2.
    static func parse(_ src: Source, closing: Int, diagnostics: inout [Diagnostic]) -> FrontMatter {
        let range = SourceRange(start: src.lineLocation(0), end: src.location(src.lineEnds[closing]))
        let yamlStart = src.lineStarts[min(1, closing)]
        let yamlEnd = src.lineStarts[closing]
        let yaml = src.string(yamlStart, yamlEnd)
        func loc(_ mark: Mark?) -> SourceLocation {
            guard let mark else { return src.lineLocation(1) }
            return SourceLocation(file: src.file, line: mark.line + 1 + src.lineBase, column: max(1, mark.column))
        }
        if let problem = nestingProblem(src.text[yamlStart ..< yamlEnd]) {
            diagnostics.append(.error(problem, at: src.lineLocation(1)))
            return FrontMatter(entries: [], range: range)
        }
        let root: Node?
        do {
            root = try YAMLCompose.compose(yaml)
        } catch let error as YamlError {
            var (message, mark) = describe(error)
            // An unclosed construct (`[`, `{`, a quote) is only noticed at the end of the YAML, which is the
            // closing `---`; the place it was opened is where the user needs to look.
            if let problemLine = mark?.line, problemLine >= closing,
               let opened = contextMark(error) {
                mark = opened
                message += " (opened here and never closed)"
            }
            diagnostics.append(.error("front matter is not valid YAML: \(message); fix the YAML between the '---' lines",
                                      at: loc(mark)))
            return FrontMatter(entries: [], range: range)
        } catch {
            diagnostics.append(.error("front matter is not valid YAML: \(error)", at: src.lineLocation(1)))
            return FrontMatter(entries: [], range: range)
        }
        guard let root else { return FrontMatter(entries: [], range: range) }
        guard case .mapping(let mapping) = root else {
            diagnostics.append(.error("front matter must be a YAML mapping of 'key: value' lines (like 'title: My report')",
                                      at: loc(root.mark)))
            return FrontMatter(entries: [], range: range)
        }
        var budget = maxNodes
        let entries = pairs(mapping, depth: 0, budget: &budget, loc: loc, diagnostics: &diagnostics)
        if budget <= 0 {
            diagnostics.append(.error("front matter is too large (more than \(maxNodes) values, maybe through aliases): simplify it",
                                      at: src.lineLocation(1)))
        }
        return FrontMatter(entries: entries, range: range)
    }

    private static func pairs(_ mapping: Node.Mapping, depth: Int, budget: inout Int,
                              loc: (Mark?) -> SourceLocation, diagnostics: inout [Diagnostic]) -> [YAMLPair] {
        var out: [YAMLPair] = []
        for (key, value) in mapping {
            guard budget > 0 else { break }
            guard case .scalar(let k) = key else {
                diagnostics.append(.warning("front matter keys must be plain words; this key is ignored", at: loc(key.mark)))
                continue
            }
            if out.contains(where: { $0.key == k.string }) {
                diagnostics.append(.warning("duplicate key '\(k.string)': the first one is used; remove this one",
                                            at: loc(k.mark)))
                continue
            }
            out.append(YAMLPair(key: k.string, keyLocation: loc(k.mark),
                                value: convert(value, depth: depth + 1, budget: &budget, loc: loc, diagnostics: &diagnostics)))
        }
        return out
    }

    private static func convert(_ node: Node, depth: Int, budget: inout Int,
                                loc: (Mark?) -> SourceLocation, diagnostics: inout [Diagnostic]) -> YAMLValue {
        budget -= 1
        let at = loc(node.mark)
        guard depth < maxDepth, budget > 0 else { return YAMLValue(.null, at: at) }
        switch node {
        case .scalar(let s):
            if node.null != nil { return YAMLValue(.null, at: at) }
            return YAMLValue(.scalar(s.string), at: at)
        case .sequence(let seq):
            var items: [YAMLValue] = []
            for item in seq {
                guard budget > 0 else { break }
                items.append(convert(item, depth: depth + 1, budget: &budget, loc: loc, diagnostics: &diagnostics))
            }
            return YAMLValue(.sequence(items), at: at)
        case .mapping(let m):
            return YAMLValue(.mapping(pairs(m, depth: depth + 1, budget: &budget, loc: loc, diagnostics: &diagnostics)), at: at)
        }
    }

    private static func contextMark(_ error: YamlError) -> Mark? {
        switch error {
        case .scanner(let context?, _, _, _), .parser(let context?, _, _, _), .composer(let context?, _, _, _):
            return context.mark
        default:
            return nil
        }
    }

    private static func describe(_ error: YamlError) -> (String, Mark?) {
        switch error {
        case .scanner(let context, let problem, let mark, _),
             .parser(let context, let problem, let mark, _),
             .composer(let context, let problem, let mark, _):
            if let context { return ("\(problem) (\(context.text))", mark) }
            return (problem, mark)
        case .reader(let problem, _, _, _):
            return (problem, nil)
        default:
            return ("\(error)", nil)
        }
    }

    /// Yams builds its tree recursively: refuse absurd nesting before handing the text over.
    private static func nestingProblem(_ text: ArraySlice<UInt8>) -> String? {
        let b = Array(text)
        var flow = 0
        var indicators = 0
        var indent = 0
        var atLineStart = true
        var quote: UInt8 = 0
        for (k, c) in b.enumerated() {
            if c == Byte.lf {
                indicators = 0
                indent = 0
                atLineStart = true
                quote = 0
                continue
            }
            if atLineStart && c == Byte.space { indent += 1 } else { atLineStart = false }
            if quote != 0 {
                if c == quote { quote = 0 }
                continue
            }
            let nextIsSpace = k + 1 >= b.count || b[k + 1] == Byte.space || b[k + 1] == Byte.lf
            switch c {
            case Byte.quote, Byte.apostrophe: quote = c
            case Byte.lbracket, Byte.lbrace: flow += 1
            case Byte.rbracket, Byte.rbrace: flow = max(0, flow - 1)
            case Byte.minus, Byte.colon, 0x3F: if nextIsSpace { indicators += 1 }
            default: break
            }
            if flow > maxDepth || indicators > maxDepth || indent > maxDepth * 4 {
                return "front matter nests too deeply (more than \(maxDepth) levels): simplify it"
            }
        }
        return nil
    }
}
