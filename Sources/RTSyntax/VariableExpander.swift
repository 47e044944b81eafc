// Mustache-style expansion (RT section 7), done on the text before parsing: `{{name}}`, `{{a.b}}`, `{{.}}`,
// sections `{{#x}}..{{/x}}` over lists (once for any other truthy value), inverted `{{^x}}..{{/x}}`,
// `{{! comment}}`. Inserted values are escaped so they show literally. A line holding only a section tag
// disappears (Mustache's standalone rule), so sections can repeat list items and table rows.
// A template's `{{content}}` pastes in the document body, itself expanded.

struct VariableExpander {
    static let maxDepth = 100
    static let maxOutput = InputCheck.maxBytes

    indirect enum Node {
        case text(file: Int, start: Int, end: Int)
        /// `offset`: the `{{` of the tag, for locations; `end`: just after its `}}`. `inCode`: inside a fenced code
        /// block or a code span, where values go in raw and an undefined name stays as written.
        case variable(name: String, file: Int, offset: Int, end: Int, inCode: Bool, lineStart: Bool)
        case section(name: String, inverted: Bool, children: [Node], file: Int, offset: Int)
    }

    var data: DataValue
    var allowUndefined: Bool
    var map: SourceMap
    var output: [UInt8] = []
    /// Output bytes read so far by `inAutolink`, and the last `<` among them still open.
    private var angleScan = 0
    private var openAngle: Int? = nil
    /// Output bytes read again for attribute lines above empty sections: reported with `work` in the expansion's
    /// steps, which tests hold linear (not counted against `maxIdleSteps`). `inAutolink` reads each byte once.
    private(set) var lookedBack = 0
    /// The output's length when `separateAttributeLine` last looked at its last line.
    private var lineChecked = -1
    var diagnostics: [Diagnostic] = []
    /// Undefined (or map-valued) names outside fences and code spans, kept as written: errors unless the parser
    /// finds them in an indented code block (section 7 keeps undefined names in code literally; `    echo {{x}}`
    /// after a blank line is code, and only the parser knows a list item's content column).
    var unlessInCode: [Diagnostic] = []
    /// The parsed document body, pasted at a template's `{{content}}`.
    var content: [Node]? = nil
    private var reported: Set<SourceLocation> = []
    private(set) var overflowed = false
    /// Template nodes rendered so far. Output size bounds most work (a million `{{x}}` is a large report,
    /// not an attack), but nested sections over lists multiply (a section inside itself repeats for every
    /// item at every level) while tags alone on their lines write nothing: so the steps may exceed the
    /// bytes written by at most `maxIdleSteps`, which only such nesting reaches.
    private(set) var work = 0
    static let maxIdleSteps = 2_000_000

    init(files: [Source], data: DataValue, allowUndefined: Bool) {
        self.map = SourceMap(files: files)
        self.data = data
        self.allowUndefined = allowUndefined
    }

    /// Quick check: text without `{{` needs no expansion.
    static func needsExpansion(_ b: [UInt8], from start: Int) -> Bool {
        var i = max(start, 0)
        while i + 1 < b.count {
            if b[i] == Byte.lbrace && b[i + 1] == Byte.lbrace { return true }
            i += 1
        }
        return false
    }

    // MARK: - Parsing tags

    /// Parses `files[file]` from byte `start` into a tree of text, variables and sections.
    mutating func parse(file: Int, from start: Int) -> [Node] {
        let src = map.files[file]
        let b = src.bytes
        var stack: [(name: String, inverted: Bool, offset: Int, nodes: [Node])] = [("", false, 0, [])]
        var textStart = start
        var i = start
        var lineStart = start
        var fence = FenceTracker()
        var codeSpans = LineCodeSpans()
        var commentCloser = PairSearch(first: Byte.percent, second: Byte.rbrace, sameLine: false)
        var tagCloser = PairSearch(first: Byte.rbrace, second: Byte.rbrace, sameLine: true)
        // Whether only spaces and tabs come before `i` on its line: scanned once per line, not once per tag.
        var blankLine = -1
        var blankUpTo = 0
        var blankSoFar = true
        func blankBefore(_ i: Int) -> Bool {
            if blankLine != lineStart {
                blankLine = lineStart
                blankUpTo = lineStart
                blankSoFar = true
            }
            while blankSoFar && blankUpTo < i {
                if !Byte.isSpaceOrTab(b[blankUpTo]) { blankSoFar = false }
                blankUpTo += 1
            }
            return blankSoFar
        }
        func flush(_ end: Int) {
            if end > textStart { stack[stack.count - 1].nodes.append(.text(file: file, start: textStart, end: end)) }
        }
        while i < b.count {
            if i == lineStart { fence.line(b, i) }
            let c = b[i]
            if c == Byte.lf {
                i += 1
                lineStart = i
                continue
            }
            if c == Byte.backslash && i + 1 < b.count && b[i + 1] != Byte.lf {
                i += 2
                continue
            }
            guard c == Byte.lbrace, i + 1 < b.count else { i += 1; continue }
            if b[i + 1] == Byte.percent && !fence.isOpen, let close = commentCloser.find(in: b, from: i + 2) {
                i = close + 2   // comments stay verbatim (the parser strips them); tags inside are not expanded
                continue
            }
            guard b[i + 1] == Byte.lbrace, let close = tagCloser.find(in: b, from: i + 2)
            else { i += 1; continue }
            var inner = String(decoding: b[(i + 2) ..< close], as: UTF8.self).trimmingSpacesAndTabs()
            let sigil = inner.first
            let end = close + 2
            if sigil == "#" || sigil == "^" || sigil == "/",
               fence.isOpen || codeSpans.contains(b, lineStart: lineStart, i),
               !isSection(String(inner.dropFirst()).trimmingSpacesAndTabs(), closing: sigil == "/",
                          open: stack.count > 1 ? stack[stack.count - 1].name : nil) {
                i = end   // `{{#each items}}` in a Handlebars sample: kept as written, like an undefined name (section 7)
                continue
            }
            if sigil == "#" || sigil == "^" || sigil == "/" || sigil == "!" {
                inner = String(inner.dropFirst()).trimmingSpacesAndTabs()
                // Standalone: the tag alone on its line takes the whole line with it.
                var lineEnd = end
                while lineEnd < b.count && Byte.isSpaceOrTab(b[lineEnd]) { lineEnd += 1 }
                let before = blankBefore(i)
                let after = lineEnd >= b.count || b[lineEnd] == Byte.lf || b[lineEnd] == Byte.cr
                if before && after {
                    flush(lineStart)
                    if lineEnd < b.count && b[lineEnd] == Byte.cr { lineEnd += 1 }
                    textStart = min(b.count, lineEnd + 1)
                } else {
                    flush(i)
                    textStart = end
                }
                let at = src.location(i)
                switch sigil {
                case "#", "^":
                    if inner.isEmpty { diagnostics.append(.error("a section needs a name, like {{#items}}", at: at)) }
                    if stack.count > Self.maxDepth {
                        diagnostics.append(.error("sections nest more than \(Self.maxDepth) deep", at: at))
                        return []
                    }
                    stack.append((inner, sigil == "^", i, []))
                case "/":
                    if stack.count == 1 {
                        diagnostics.append(.error("'{{/\(inner)}}' closes a section that was never opened", at: at))
                    } else if stack[stack.count - 1].name != inner {
                        let open = stack[stack.count - 1]
                        diagnostics.append(.error("'{{/\(inner)}}' does not match the open section '{{\(open.inverted ? "^" : "#")\(open.name)}}' at \(src.location(open.offset)); close that one first",
                                                  at: at))
                    } else {
                        let open = stack.removeLast()
                        stack[stack.count - 1].nodes.append(.section(name: open.name, inverted: open.inverted,
                                                                     children: open.nodes, file: file, offset: open.offset))
                    }
                default:
                    break   // {{! comment}}
                }
                i = max(textStart, end)
                if textStart > end { lineStart = textStart }
                continue
            }
            flush(i)
            if inner.isEmpty {
                diagnostics.append(.error("empty variable '{{}}': write a name, like {{title}}", at: src.location(i)))
            } else {
                let atLineStart = blankBefore(i)
                let inCode = fence.isOpen || codeSpans.contains(b, lineStart: lineStart, i)
                stack[stack.count - 1].nodes.append(.variable(name: inner, file: file, offset: i, end: end, inCode: inCode,
                                                              lineStart: atLineStart))
            }
            textStart = end
            i = end
        }
        flush(b.count)
        while stack.count > 1 {
            let open = stack.removeLast()
            diagnostics.append(.error("unclosed section '{{\(open.inverted ? "^" : "#")\(open.name)}}': add '{{/\(open.name)}}' after its content",
                                      at: src.location(open.offset)))
            stack[stack.count - 1].nodes.append(contentsOf: open.nodes)
        }
        return stack[0].nodes
    }

    /// Inside code, whether a section tag is meant as one: a closer of the open section, an opener inside a
    /// section, or an opener whose name is defined.
    private func isSection(_ name: String, closing: Bool, open: String?) -> Bool {
        if closing { return open == name }
        if open != nil { return true }
        let first = name.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? name
        return data[first] != nil
    }

    /// Finds the next two-byte closer (optionally not past the end of the line). Searches start at
    /// non-decreasing offsets, so the last answer is reused while it still holds: many unclosed `{{`
    /// or `{%` cost one scan in all instead of one scan each.
    struct PairSearch {
        let first: UInt8
        let second: UInt8
        let sameLine: Bool
        /// The last search: the closer found (`found`), or where it stopped without one (`stop`).
        private var found = -1
        private var stop = -1

        init(first: UInt8, second: UInt8, sameLine: Bool) {
            self.first = first
            self.second = second
            self.sameLine = sameLine
        }

        mutating func find(in b: [UInt8], from start: Int) -> Int? {
            if start <= found { return found }
            if start <= stop { return nil }
            var k = start
            while k + 1 < b.count {
                if sameLine && b[k] == Byte.lf {
                    stop = k
                    return nil
                }
                if b[k] == first && b[k + 1] == second {
                    found = k
                    return k
                }
                k += 1
            }
            stop = b.count
            return nil
        }
    }

    // MARK: - Rendering

    /// Renders `nodes` with `context` as the scopes (innermost last).
    mutating func render(_ nodes: [Node], context: [DataValue]) {
        let saved = scopes
        scopes = context
        renderNodes(nodes)
        scopes = saved
    }

    /// One stack of scopes, pushed and popped around a section's items: copying the context for every item
    /// of nested sections costs as much as the rest of the work.
    private var scopes: [DataValue] = []

    private mutating func renderNodes(_ nodes: [Node]) {
        for node in nodes {
            if overflowed { return }
            work += 1
            if work > output.count + Self.maxIdleSteps {
                overflowed = true
                diagnostics.append(.error("variable expansion does more than \(Self.maxIdleSteps) steps that write nothing: check nested "
                    + "sections over lists (a section inside itself repeats for every item at every level)", at: map.files[0].location(0)))
                return
            }
            switch node {
            case .text(let file, let start, let end):
                map.add(outputStart: output.count, file: file, originStart: start, verbatim: true)
                output.append(contentsOf: map.files[file].bytes[start ..< end])
            case .variable(let name, let file, let offset, let end, let inCode, let lineStart):
                if name == "content", let body = content {
                    content = nil   // pasted once: a template's `{{content}}` inside a section does not repeat it
                    renderNodes(body)
                    continue
                }
                guard let value = lookup(name) else {
                    if inCode {   // `${{ secrets.TOKEN }}` in a code sample: kept as written (section 7)
                        map.add(outputStart: output.count, file: file, originStart: offset, verbatim: true)
                        output.append(contentsOf: map.files[file].bytes[offset ..< end])
                        continue
                    }
                    // Not in a fence or a code span, it may still be indented code (after a blank line, in a quote or
                    // a list item): only the parser can tell, so the tag stays and the error waits for it.
                    if !allowUndefined {
                        keepAsWritten(file: file, offset: offset, end: end)
                        let at = map.files[file].location(offset)
                        if reported.insert(at).inserted { unlessInCode.append(undefinedError(name, at: at)) }
                    }
                    continue
                }
                if case .map = value {
                    // A map has no text to show: in a code sample the tag documents the syntax (this project's
                    // README shows `{{.}}` outside any section, where `.` is the whole data) and stays as written;
                    // elsewhere it is an error, unless the parser finds it in indented code.
                    keepAsWritten(file: file, offset: offset, end: end)
                    let at = map.files[file].location(offset)
                    if !inCode && reported.insert(at).inserted { unlessInCode.append(mapError(name, at: at)) }
                    continue
                }
                map.add(outputStart: output.count, file: file, originStart: offset, verbatim: false)
                insert(text(of: value, name: name, file: file, offset: offset), raw: inCode || inAutolink(),
                       atLineStart: lineStart)
            case .section(let name, let inverted, let children, let file, let offset):
                let before = output.count
                defer { if output.count == before { separateAttributeLine(file: file, offset: offset) } }
                let value = lookup(name) ?? .null
                if inverted {
                    if !value.isTruthy { renderNodes(children) }
                } else if case .list(let items) = value {
                    for item in items {
                        scopes.append(item)
                        renderNodes(children)
                        scopes.removeLast()
                    }
                } else if value.isTruthy {
                    scopes.append(value)
                    renderNodes(children)
                    scopes.removeLast()
                }
            }
            if output.count > Self.maxOutput && !overflowed {
                overflowed = true
                diagnostics.append(.error("variable expansion makes the document larger than \(Self.maxOutput >> 20) MB: check nested sections",
                                          at: map.files[0].location(0)))
            }
        }
    }

    /// A section that wrote nothing right below a block attribute line (`{.dateline}` over an empty
    /// `{{#date}}`): a blank line that was not written takes its place, so the attributes apply to nothing,
    /// silently, instead of restyling the block after the section (RT section 6). Elsewhere an empty
    /// section's lines vanish (Mustache's standalone rule) and the lines around it stay together.
    private mutating func separateAttributeLine(file: Int, offset: Int) {
        // Each line is looked at once however many empty sections follow it (nested sections over lists render
        // millions), and at most 4 KB of it: an attribute line is short.
        guard output.last == 0x0A, output.count != lineChecked else { return }
        lineChecked = output.count
        var start = output.count - 1
        let floor = max(0, start - 4096)
        while start > floor && output[start - 1] != 0x0A { start -= 1 }
        lookedBack += output.count - start
        guard start == 0 || output[start - 1] == 0x0A else { return }
        var line = output[start ..< output.count - 1]
        while let f = line.first, f == 0x20 || f == 0x09 { line = line.dropFirst() }
        while let l = line.last, l == 0x20 || l == 0x09 || l == 0x0D { line = line.dropLast() }
        guard line.first == UInt8(ascii: "{"), line.last == UInt8(ascii: "}"), line.dropFirst().first != UInt8(ascii: "{"),
              line.dropFirst().first != UInt8(ascii: "%") else { return }
        map.add(outputStart: output.count, file: file, originStart: offset, verbatim: false)
        output.append(0x0A)
    }

    private func lookup(_ name: String) -> DataValue? {
        if name == "." { return scopes.last }
        if !name.utf8.contains(UInt8(ascii: ".")) {
            for scope in scopes.reversed() { if let value = scope[name] { return value } }
            return nil
        }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        for scope in scopes.reversed() {
            guard var value = scope[parts[0]] else { continue }
            for part in parts.dropFirst() {
                guard let next = value[part] else { return nil }
                value = next
            }
            return value
        }
        return nil
    }

    private func undefinedError(_ name: String, at: SourceLocation) -> Diagnostic {
        .error("undefined variable '\(name)': define it in front matter 'vars', with --data FILE or -D \(name)=VALUE (or pass --allow-undefined)",
               at: at)
    }

    /// Copies the tag as written (undefined in code, a map in code, or waiting for the parser's verdict).
    private mutating func keepAsWritten(file: Int, offset: Int, end: Int) {
        map.add(outputStart: output.count, file: file, originStart: offset, verbatim: true)
        output.append(contentsOf: map.files[file].bytes[offset ..< end])
    }

    private func mapError(_ name: String, at: SourceLocation) -> Diagnostic {
        .error("'\(name)' is a map, not a value: use a section {{#\(name)}}..{{/\(name)}} or a field like {{\(name).key}}", at: at)
    }

    private mutating func text(of value: DataValue, name: String, file: Int, offset: Int) -> String {
        switch value {
        case .text(let s): return s
        case .null: return ""
        case .list(let items): return items.compactMap { if case .text(let s) = $0 { return s } else { return nil } }.joined(separator: ", ")
        case .map: return ""  // never reached: a map is kept as written and reported by `render`
        }
    }

    /// Appends a value as literal text: one line, NUL-free, ASCII punctuation backslash-escaped outside code.
    /// At a line start the value's first word could open a block (`- `, `1.`, `---`, `#`), so its punctuation is
    /// escaped too, all but quotes (never block markup): smart punctuation still curls `"` and `'`, and
    /// `--` or `...` after the first word.
    private mutating func insert(_ value: String, raw: Bool, atLineStart: Bool) {
        var firstWord = atLineStart
        var sawText = false
        for (i, byte) in value.utf8.enumerated() {
            switch byte {
            case 0: output.append(contentsOf: [0xEF, 0xBF, 0xBD])
            case Byte.lf, Byte.cr:
                output.append(Byte.space)
                if sawText { firstWord = false }
            default:
                if byte == Byte.space && sawText { firstWord = false }
                if byte != Byte.space { sawText = true }
                let markup = !Self.safePunctuation.contains(byte) || (firstWord && byte != 0x22 && byte != 0x27)
                    || (byte == UInt8(ascii: "&") && Self.startsEntity(Array(value.utf8.dropFirst(i).prefix(48)), at: 0))
                if !raw && Byte.isASCIIPunctuation(byte) && markup {
                    output.append(Byte.backslash)
                }
                output.append(byte)
            }
        }
    }

    /// Whether the output ends inside an autolink being written (`<{{url}}>`, `<https://x.org/{{path}}>`):
    /// backslash escapes are not read there, so a value goes in as it is. The output is read once, as it grows:
    /// `openAngle` is the last `<` with no space, line end or `>` after it.
    private mutating func inAutolink() -> Bool {
        while angleScan < output.count {
            switch output[angleScan] {
            case UInt8(ascii: "<"): openAngle = angleScan
            case Byte.lf, Byte.space, UInt8(ascii: ">"): openAngle = nil
            default: break
            }
            angleScan += 1
        }
        guard let k = openAngle else { return false }
        let after = output[(k + 1)...].prefix(34)
        if after.isEmpty { return true }  // `<{{url}}>`
        // `<scheme:...`: 2 to 32 letters, digits, `+ . -`, the first a letter, then a colon.
        guard let colon = after.firstIndex(of: UInt8(ascii: ":")), colon - k - 1 >= 2, colon - k - 1 <= 32,
              let first = after.first, (first | 0x20) >= 97 && (first | 0x20) <= 122 else { return false }
        return after[..<colon].allSatisfy { Byte.isAlnum($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") }
    }

    /// Whether the `&` at `i` starts an entity reference (`&copy;`, `&#169;`, `&#xA9;`), which the parser would
    /// decode: a value's `&amp;` stays as written (section 7). A URL's `&b=2` is no entity and is left alone.
    static func startsEntity(_ b: [UInt8], at i: Int) -> Bool {
        var k = i + 1
        func isDigit(_ c: UInt8) -> Bool { c >= 48 && c <= 57 }
        func isHex(_ c: UInt8) -> Bool { isDigit(c) || (c | 0x20 >= 97 && c | 0x20 <= 102) }
        func isAlnum(_ c: UInt8) -> Bool { isDigit(c) || (c | 0x20 >= 97 && c | 0x20 <= 122) }
        if k < b.count && b[k] == UInt8(ascii: "#") {
            k += 1
            let hex = k < b.count && (b[k] == UInt8(ascii: "x") || b[k] == UInt8(ascii: "X"))
            if hex { k += 1 }
            let start = k
            while k < b.count && k - start < 8 && (hex ? isHex(b[k]) : isDigit(b[k])) { k += 1 }
            return k > start && k < b.count && b[k] == UInt8(ascii: ";")
        }
        let start = k
        while k < b.count && k - start < 32 && isAlnum(b[k]) { k += 1 }
        return k > start && k < b.count && b[k] == UInt8(ascii: ";")
    }

    /// Never markup in the middle of a line: left unescaped so values read naturally in code spans and URLs.
    private static let safePunctuation: Set<UInt8> = Set(",.;?/'\"%&$():@-+!#".utf8)
}

extension String {
    /// Without leading and trailing spaces and tabs. Foundation's `trimmingCharacters(in:)` goes through NSString
    /// and CharacterSet: code and metadata a one-page build would otherwise load for its `{{page}}` (issue 14).
    func trimmingSpacesAndTabs() -> String {
        let u = utf8
        guard let first = u.firstIndex(where: { $0 != 32 && $0 != 9 }) else { return "" }
        let last = u.lastIndex(where: { $0 != 32 && $0 != 9 }) ?? first
        return String(self[first...last])
    }
}
