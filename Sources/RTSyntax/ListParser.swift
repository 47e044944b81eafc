// Lists: `-` `*` `+` bullets and `1.` `1)` `a.` `A.` `i.` `I.` ordered markers; nesting by indentation.

extension BlockParser {
    struct ListMarker {
        /// The style this marker has when it starts a list.
        var style: ListMarkerStyle
        /// `-`, `*` or `+`; 0 for ordered markers.
        var bullet: UInt8
        /// Digits or letters of an ordered marker.
        var token: [UInt8]
        var delimiter: UInt8
        var indent: Int
        var start: Int
        var contentStart: Int
        /// Column (from the line view's start) where the item's content begins.
        var contentColumn: Int
        var isEmpty: Bool
    }

    func listMarker(_ l: LineView) -> ListMarker? {
        let (indent, p) = src.indentation(l)
        guard p < l.end else { return nil }
        let c = text[p]
        var markerEnd: Int
        var style: ListMarkerStyle
        var bullet: UInt8 = 0
        var token: [UInt8] = []
        var delimiter: UInt8 = Byte.dot
        if c == Byte.minus || c == Byte.star || c == Byte.plus {
            bullet = c
            style = .bullet(Character(Unicode.Scalar(c)))
            markerEnd = p + 1
        } else {
            var k = p
            if Byte.isDigit(c) {
                while k < l.end && Byte.isDigit(text[k]) && k - p < 10 { k += 1 }
                style = .decimal
            } else if Byte.isLetter(c) {
                let upper = c < 0x61
                while k < l.end && Byte.isLetter(text[k]) && (text[k] < 0x61) == upper && k - p < 9 { k += 1 }
                style = .lowerAlpha
            } else {
                return nil
            }
            guard k < l.end, text[k] == Byte.dot || text[k] == Byte.rparen else { return nil }
            token = Array(text[p ..< k])
            delimiter = text[k]
            markerEnd = k + 1
            if style != .decimal {
                guard markerEnd < l.end else { return nil } // `a.` alone is more likely text than an empty item
                let upper = token[0] < 0x61
                if token.count == 1 && token[0] | 0x20 != 0x69 {
                    style = upper ? .upperAlpha : .lowerAlpha
                } else if BlockParser.romanValue(token) != nil {
                    style = upper ? .upperRoman : .lowerRoman
                } else {
                    return nil
                }
            }
        }
        // Content column: marker width plus 1-4 spaces (more than 4: the content starts after one space).
        let markerColumn = indent + (markerEnd - p)
        var column = markerColumn
        var k = markerEnd
        while k < l.end && Byte.isSpaceOrTab(text[k]) {
            column += text[k] == Byte.tab ? 4 - column % 4 : 1
            k += 1
        }
        if k == l.end {
            return ListMarker(style: style, bullet: bullet, token: token, delimiter: delimiter, indent: indent, start: p,
                              contentStart: l.end, contentColumn: markerColumn + 1, isEmpty: true)
        }
        guard k > markerEnd else { return nil }
        var contentStart = k
        if column - markerColumn > 4 {
            column = markerColumn + 1
            contentStart = markerEnd + 1
        }
        return ListMarker(style: style, bullet: bullet, token: token, delimiter: delimiter, indent: indent, start: p,
                          contentStart: contentStart, contentColumn: column, isEmpty: false)
    }

    /// The number a marker stands for in a list of `style`, or nil when it cannot continue that list
    /// (so `i.` in a lettered list is the letter i, and `ii.` there starts a new list).
    func markerValue(_ m: ListMarker, in style: ListMarkerStyle) -> Int? {
        let upper = m.token.first.map { $0 < 0x61 } ?? false
        switch style {
        case .bullet: return m.bullet != 0 ? 1 : nil
        case .decimal:
            guard m.bullet == 0, m.token.allSatisfy(Byte.isDigit) else { return nil }
            return m.token.reduce(0) { $0 &* 10 &+ Int($1 - 0x30) }
        case .lowerAlpha, .upperAlpha:
            guard m.bullet == 0, m.token.count == 1, Byte.isLetter(m.token[0]), upper == (style == .upperAlpha) else { return nil }
            return Int(m.token[0] | 0x20) - 0x60
        case .lowerRoman, .upperRoman:
            guard m.bullet == 0, !m.token.isEmpty, Byte.isLetter(m.token[0]), upper == (style == .upperRoman) else { return nil }
            return BlockParser.romanValue(m.token)
        }
    }

    static func romanValue(_ token: [UInt8]) -> Int? {
        func digit(_ c: UInt8) -> Int? {
            switch c | 0x20 {
            case 0x69: return 1     // i
            case 0x76: return 5     // v
            case 0x78: return 10    // x
            case 0x6C: return 50    // l
            case 0x63: return 100   // c
            case 0x64: return 500   // d
            case 0x6D: return 1000  // m
            default: return nil
            }
        }
        var total = 0
        var k = 0
        while k < token.count {
            guard let v = digit(token[k]) else { return nil }
            if k + 1 < token.count, let next = digit(token[k + 1]), next > v {
                total += next - v
                k += 2
            } else {
                total += v
                k += 1
            }
        }
        guard total > 0, total < 4000, romanNumeral(total) == String(decoding: token.map { $0 | 0x20 }, as: UTF8.self) else { return nil }
        return total
    }


    mutating func list(_ lines: Lines, _ i: Int, _ firstMarker: ListMarker, depth: Int) -> (Block, Int) {
        let style = firstMarker.style
        let start = markerValue(firstMarker, in: style) ?? 1
        var items: [ListItem] = []
        var tight = true
        var j = i
        var listEnd = lines[i]
        // An item starts within three columns of the list's margin; four or more is indented code.
        while j < lines.count, !isRule(lines[j]), let m = listMarker(lines[j]), m.indent < 4, m.bullet == firstMarker.bullet,
              m.delimiter == firstMarker.delimiter, markerValue(m, in: style) != nil {
            if j > i && src.isBlank(lines[j - 1]) { tight = false }
            var firstLine = LineView(index: lines[j].index, start: m.contentStart, end: lines[j].end)
            let task = taskBox(&firstLine)
            var itemLines = [firstLine]
            var lastContent = j
            var previousIsText = !m.isEmpty
            var k = j + 1
            while k < lines.count {
                let l = lines[k]
                ctx.steps += 1
                if src.isBlank(l) {
                    itemLines.append(LineView(index: l.index, start: l.end, end: l.end))
                    previousIsText = false
                    k += 1
                    continue
                }
                let indent = src.indentation(l).columns
                if indent >= m.contentColumn {
                    itemLines.append(src.stripIndent(l, m.contentColumn))
                } else if previousIsText && !interruptsParagraph(l) && (listMarker(l) == nil || indent >= 4) {
                    // Lazy continuation (a marker indented four or more columns cannot start an item here).
                    // Kept indented when it looks like a marker, so the item's own parse reads it as text too.
                    ctx.lazyLines.insert(l.index)
                    itemLines.append(indent >= 4 && listMarker(l) != nil ? l : src.stripIndent(l, indent))
                } else {
                    break
                }
                previousIsText = !interruptsParagraph(itemLines[itemLines.count - 1])
                lastContent = k
                k += 1
            }
            itemLines.removeLast(k - 1 - lastContent) // trailing blank lines belong to no item
            let blocks = parseBlocks(Lines(itemLines), depth: depth + 1)
            if tight && BlockParser.hasBlankBetween(blocks) { tight = false }
            let range = src.range(m.start, max(m.start, lines[lastContent].end))
            items.append(ListItem(blocks: blocks, range: range, task: task))
            listEnd = lines[lastContent]
            j = lastContent + 1
            // Blank lines before a next item of this list keep the list going (and make it loose).
            var b = j
            while b < lines.count && src.isBlank(lines[b]) {
                ctx.steps += 1
                b += 1
            }
            if b > j, b < lines.count, !isRule(lines[b]), let next = listMarker(lines[b]), next.indent < 4,
               next.bullet == firstMarker.bullet,
               next.delimiter == firstMarker.delimiter, markerValue(next, in: style) != nil {
                j = b
                tight = false
            } else if b > j {
                break
            }
        }
        let list = ListBlock(style: style, start: start, delimiter: Character(Unicode.Scalar(firstMarker.delimiter)),
                             items: items, isTight: tight)
        let range = src.range(firstMarker.start, max(firstMarker.start, listEnd.end))
        return (Block(.list(list), range: range), j)
    }

    /// A blank line between two blocks of one item makes a list loose (Markdown).
    static func hasBlankBetween(_ blocks: [Block]) -> Bool {
        guard blocks.count > 1 else { return false }
        for k in 1 ..< blocks.count {
            let a = blocks[k - 1].range.end
            let b = blocks[k].range.start
            if a.file == b.file && b.line > a.line + 1 { return true }
        }
        return false
    }
}
