// Comments `{% ... %}` and `<!-- ... -->` (inline or spanning lines) are removed before block parsing by overwriting
// them with NUL in the working copy: offsets and line numbers stay valid, and a line that held only
// a comment can be dropped instead of becoming a blank line that would split a paragraph.
// Fenced code and code spans are left alone: a `{%` there is literal text.

enum CommentStripper {
    static func strip(_ src: inout Source, from firstLine: Int, diagnostics: inout [Diagnostic]) {
        guard src.text.count >= 2, hasCommentOpener(src.text) else { return }
        var t = src.text
        var fence = 0
        var fenceChar: UInt8 = 0
        var noCloserAfter = Int.max // a failed search for `%}` need not be repeated
        var noHTMLCloserAfter: [Int: Int] = [:] // nor one for `-->`, `?>`, `]]>` or `>` (by HTMLInvisible.closers index)
        var line = firstLine
        var resume = -1 // offset to continue from after a comment that ended on this line
        var indented = IndentedCode()
        while line < src.lineCount {
            let lineStart = src.lineStarts[line]
            let e = src.lineEnds[line]
            if resume < 0 {
                if let (char, length) = fenceLength(t, lineStart, e), fence == 0 || char == fenceChar {
                    if fence == 0 {
                        fence = length
                        fenceChar = char
                    } else if length >= fence {
                        fence = 0
                    }
                    line += 1
                    continue
                }
                if fence > 0 {
                    line += 1
                    continue
                }
                if indented.isCode(t, lineStart, e, atStart: line == firstLine) {
                    line += 1
                    continue
                }
            }
            let spans = codeSpanEnds(t, lineStart, e)
            var i = max(lineStart, resume)
            resume = -1
            var jumped = false
            while i + 1 < e {
                let c = t[i]
                if c == Byte.backtick, let skip = spans[i] {
                    i = skip
                    continue
                }
                if c == Byte.backslash {
                    i += 2
                    continue
                }
                // `<!-- -->` (also `<!-->`, as CommonMark 0.31), `<?...?>`, `<![CDATA[...]]>`, `<!DOCTYPE ...>`:
                // nothing a browser shows. Unclosed, they stay text, silently.
                if c == Byte.lt, let kind = HTMLInvisible.opener(t, i, e) {
                    let closer = HTMLInvisible.closers[kind]
                    guard i + 2 < noHTMLCloserAfter[kind, default: Int.max],
                          let close = kind == 3 ? HTMLInvisible.declarationEnd(t, from: i + 2, end: e)
                                                : HTMLInvisible.find(closer, in: t, from: i + 2) else {
                        if kind != 3 { noHTMLCloserAfter[kind] = min(noHTMLCloserAfter[kind, default: Int.max], i) }
                        i += 2
                        continue
                    }
                    let end = close + closer.count
                    for k in i ..< end where t[k] != Byte.lf && t[k] != Byte.cr { t[k] = 0 }
                    let closeLine = src.lineIndex(of: close)
                    if closeLine != line {
                        line = closeLine
                        resume = end
                        jumped = true
                        break
                    }
                    i = end
                    continue
                }
                if c == Byte.lbrace && t[i + 1] == Byte.percent {
                    if i + 2 < noCloserAfter, let close = findCloser(t, from: i + 2) {
                        for k in i ..< close + 2 where t[k] != Byte.lf && t[k] != Byte.cr { t[k] = 0 }
                        let closeLine = src.lineIndex(of: close)
                        if closeLine != line {
                            line = closeLine
                            resume = close + 2
                            jumped = true
                            break
                        }
                        i = close + 2
                        continue
                    }
                    noCloserAfter = min(noCloserAfter, i)
                    diagnostics.append(.warning("unclosed comment: add '%}' to close the comment opened here (it is kept as text)",
                                                at: src.location(i)))
                    i += 2
                    continue
                }
                i += 1
            }
            if !jumped { line += 1 }
        }
        src.text = t
    }

    private static func hasCommentOpener(_ t: [UInt8]) -> Bool {
        var i = 0
        while i + 1 < t.count {
            if t[i] == Byte.lbrace && t[i + 1] == Byte.percent { return true }
            if t[i] == Byte.lt && HTMLInvisible.opener(t, i, t.count) != nil { return true }
            i += 1
        }
        return false
    }

    private static func findCloser(_ t: [UInt8], from start: Int) -> Int? {
        var k = start
        while k + 1 < t.count {
            if t[k] == Byte.percent && t[k + 1] == Byte.rbrace { return k }
            k += 1
        }
        return nil
    }

    /// Character and length of the backtick or tilde fence when the line (after indentation and `>`
    /// markers) starts with one.
    private static func fenceLength(_ t: [UInt8], _ s: Int, _ e: Int) -> (UInt8, Int)? {
        var k = s
        while k < e && (Byte.isSpaceOrTab(t[k]) || t[k] == Byte.gt) { k += 1 }
        guard k < e, t[k] == Byte.backtick || t[k] == Byte.tilde else { return nil }
        var n = k
        while n < e && t[n] == t[k] { n += 1 }
        return n - k >= 3 ? (t[k], n - k) : nil
    }

    /// For each backtick run on the line that opens a code span, the offset just past the span.
    private static func codeSpanEnds(_ t: [UInt8], _ s: Int, _ e: Int) -> [Int: Int] {
        var runs: [(Int, Int)] = []
        var k = s
        while k < e {
            if t[k] == Byte.backtick {
                var n = k + 1
                while n < e && t[n] == Byte.backtick { n += 1 }
                runs.append((k, n - k))
                k = n
            } else {
                k += 1
            }
        }
        guard runs.count >= 2 else { return [:] }
        // Pair runs of equal length left to right.
        var out: [Int: Int] = [:]
        var nextSame = [Int](repeating: -1, count: runs.count)
        var seen: [Int: Int] = [:]
        for r in stride(from: runs.count - 1, through: 0, by: -1) {
            nextSame[r] = seen[runs[r].1] ?? -1
            seen[runs[r].1] = r
        }
        var r = 0
        while r < runs.count {
            let m = nextSame[r]
            if m >= 0 {
                out[runs[r].0] = runs[m].0 + runs[m].1
                // Runs inside the span are not openers.
                r = m + 1
            } else {
                r += 1
            }
        }
        return out
    }
}

/// Lines of a top-level indented code block, where `<!-- -->` is literal text: four columns of indentation after
/// a blank line, outside any list (whose items indent their own paragraphs). An approximation of the block
/// parser's rule that needs no block structure; a list seen earlier makes it keep stripping.
struct IndentedCode {
    private var inCode = false
    private var previousBlank = false
    private var inList = false

    mutating func isCode(_ t: [UInt8], _ s: Int, _ e: Int, atStart: Bool) -> Bool {
        var k = s
        var columns = 0
        while k < e && Byte.isSpaceOrTab(t[k]) {
            columns = t[k] == Byte.tab ? (columns / 4 + 1) * 4 : columns + 1
            k += 1
        }
        if k == e {
            previousBlank = true
            return inCode
        }
        defer { previousBlank = false }
        if columns >= 4 && (inCode || ((previousBlank || atStart) && !inList)) {
            inCode = true
            return true
        }
        inCode = false
        if columns < 4 && startsListItem(t, k, e) {
            inList = true
        } else if columns == 0 {
            inList = false
        }
        return false
    }

    private func startsListItem(_ t: [UInt8], _ k: Int, _ e: Int) -> Bool {
        var n = k
        if t[n] == Byte.minus || t[n] == Byte.star || t[n] == Byte.plus {
            n += 1
        } else {
            while n < e && n - k < 9 && t[n] >= 0x30 && t[n] <= 0x39 { n += 1 }
            guard n > k, n < e, t[n] == Byte.dot || t[n] == 0x29 else { return false }
            n += 1
        }
        return n == e || Byte.isSpaceOrTab(t[n])
    }
}

/// HTML that a browser never shows, removed like a comment.
enum HTMLInvisible {
    static let closers: [[UInt8]] = [Array("-->".utf8), Array("?>".utf8), Array("]]>".utf8), Array(">".utf8)]

    /// Index into `closers` when `t[i]` (a `<`) opens a comment, processing instruction, CDATA or declaration.
    static func opener(_ t: [UInt8], _ i: Int, _ e: Int) -> Int? {
        guard i + 1 < e else { return nil }
        if t[i + 1] == 0x3F { return 1 }   // <?
        guard t[i + 1] == Byte.bang, i + 2 < e else { return nil }
        if i + 3 < e && t[i + 2] == Byte.minus && t[i + 3] == Byte.minus { return 0 }
        if i + 8 < e && t[(i + 2) ..< (i + 9)].elementsEqual("[CDATA[".utf8) { return 2 }
        return Byte.isLetter(t[i + 2]) ? 3 : nil
    }

    /// The `>` ending a declaration on its own line, before any other `<` (so scans never overlap, and a
    /// quote's `>` further down is not its end).
    static func declarationEnd(_ t: [UInt8], from start: Int, end: Int) -> Int? {
        var k = start
        while k < end && t[k] != Byte.lt {
            if t[k] == Byte.gt { return k }
            k += 1
        }
        return nil
    }

    /// Offset of the next `closer` at or after `start`.
    static func find(_ closer: [UInt8], in t: [UInt8], from start: Int) -> Int? {
        var k = start
        while k + closer.count <= t.count {
            if t[k] == closer[0] && t[k ..< (k + closer.count)].elementsEqual(closer) { return k }
            k += 1
        }
        return nil
    }
}
