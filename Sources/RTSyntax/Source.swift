// Source text as UTF-8 bytes with a line index and byte-offset -> line:column mapping.
// Everything hot works on bytes; columns are counted in Unicode scalars only when a location is asked for.

/// A line (or the part of a line left after container prefixes such as `> ` are stripped).
/// `start..<end` are byte offsets into `Source.text`, excluding the line break.
struct LineView: Sendable {
    var index: Int
    var start: Int
    var end: Int
}

struct Source: Sendable {
    let file: String
    /// `file`'s number in `SourceFiles`, looked up once: the parser makes a location for every node.
    let fileNumber: UInt32
    /// The file's text as prepared (InputText.swift: BOM removed, LF line ends, no control characters).
    let bytes: [UInt8]
    /// Where `InputCheck.prepare` dropped characters: columns after them still count them.
    let dropped: [Int]
    /// Working copy the parser reads: same length as `bytes`, comments overwritten with NUL (0),
    /// which cannot occur in valid input because NUL bytes are rejected up front.
    var text: [UInt8]
    /// Offset of each line's first byte.
    let lineStarts: [Int]
    /// Offset just past each line's content (before `\r\n` / `\n`).
    let lineEnds: [Int]
    /// Per line: offset of the first byte that is not a space or tab, and whether a tab comes before it.
    /// Lets indentation checks run in O(1) on deeply indented lines that are looked at once per nesting level.
    let leadEnds: [Int]
    let leadHasTab: [Bool]
    /// Number of scalars in `bytes[0 ..< k * 64]`: makes a column lookup O(64) on huge lines.
    private let chunkScalars: [Int]
    /// For `parseInlines(_:at:)`: the text starts at this line/column of some other file.
    let lineBase: Int
    let columnBase: Int
    /// Set when the text is the result of variable expansion: locations are looked up in the original files.
    var map: SourceMap? = nil

    init(file: String, bytes: [UInt8], lineBase: Int = 0, columnBase: Int = 0, dropped: [Int] = []) {
        self.file = file
        fileNumber = SourceFiles.number(file)
        self.bytes = bytes
        self.dropped = dropped
        self.text = bytes
        self.lineBase = lineBase
        self.columnBase = columnBase
        var starts: [Int] = []
        var ends: [Int] = []
        var lineStart = 0
        var i = 0
        let n = bytes.count
        while i < n {
            if bytes[i] == 0x0A {
                starts.append(lineStart)
                ends.append(i > lineStart && bytes[i - 1] == 0x0D ? i - 1 : i)
                lineStart = i + 1
            }
            i += 1
        }
        if lineStart < n {
            starts.append(lineStart)
            ends.append(bytes[n - 1] == 0x0D ? n - 1 : n)
        }
        lineStarts = starts
        lineEnds = ends
        var leads: [Int] = []
        var tabs: [Bool] = []
        leads.reserveCapacity(starts.count)
        for k in 0 ..< starts.count {
            var p = starts[k]
            var tab = false
            while p < ends[k] && (bytes[p] == 0x20 || bytes[p] == 0x09) {
                if bytes[p] == 0x09 { tab = true }
                p += 1
            }
            leads.append(p)
            tabs.append(tab)
        }
        leadEnds = leads
        leadHasTab = tabs
        var chunks = [Int](repeating: 0, count: n / 64 + 1)
        var count = 0
        i = 0
        while i < n {
            if i & 63 == 0 { chunks[i >> 6] = count }
            if bytes[i] & 0xC0 != 0x80 { count += 1 }
            i += 1
        }
        if n & 63 == 0 { chunks[n >> 6] = count }
        chunkScalars = chunks
    }

    var lineCount: Int { lineStarts.count }

    func line(_ index: Int) -> LineView {
        LineView(index: index, start: lineStarts[index], end: lineEnds[index])
    }

    private func scalarsBefore(_ offset: Int) -> Int {
        let offset = min(max(offset, 0), bytes.count)
        let chunk = offset >> 6
        var count = chunkScalars[chunk]
        bytes.withUnsafeBytes { b in
            var i = chunk << 6
            // Eight bytes at a time (every link asks for two or four locations): a continuation byte is
            // 10xxxxxx, so its top bit is set and the bit below, shifted up, is not.
            while i + 8 <= offset {
                let w = b.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                count += 8 - (w & ~(w << 1) & 0x8080_8080_8080_8080).nonzeroBitCount
                i += 8
            }
            while i < offset {
                if b[i] & 0xC0 != 0x80 { count += 1 }
                i += 1
            }
        }
        return count
    }

    /// 1-based line of the byte at `offset` (0-based line index).
    func lineIndex(of offset: Int) -> Int {
        guard !lineStarts.isEmpty else { return 0 }
        var lo = 0
        var hi = lineStarts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if lineStarts[mid] <= offset { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    func location(_ offset: Int) -> SourceLocation {
        if let map { return map.location(offset) }
        guard !lineStarts.isEmpty else {
            return SourceLocation(fileNumber: fileNumber, line: lineBase + 1, column: columnBase + 1)
        }
        let index = lineIndex(of: offset)
        var column = scalarsBefore(offset) - scalarsBefore(lineStarts[index]) + 1 + (index == 0 ? columnBase : 0)
        if !dropped.isEmpty { column += droppedCount(from: lineStarts[index], through: offset) }
        return SourceLocation(fileNumber: fileNumber, line: index + 1 + lineBase, column: column)
    }

    /// Dropped characters that stood in `start...offset` (binary search: there are usually none).
    private func droppedCount(from start: Int, through offset: Int) -> Int {
        func firstIndex(atLeast value: Int) -> Int {
            var lo = 0
            var hi = dropped.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if dropped[mid] < value { lo = mid + 1 } else { hi = mid }
            }
            return lo
        }
        return firstIndex(atLeast: offset + 1) - firstIndex(atLeast: start)
    }

    /// An end on the start's line, a few bytes on, is counted from the start: the same column as `location`
    /// gives, without a second search (a paragraph of 250,000 links asks for 750,000 ranges, issue 8).
    func range(_ start: Int, _ end: Int) -> SourceRange {
        let from = location(start)
        guard map == nil, dropped.isEmpty, !lineStarts.isEmpty, start >= 0, start <= end, end - start <= 64,
              end <= bytes.count else { return SourceRange(start: from, end: location(end)) }
        let index = lineIndex(of: start)
        guard index + 1 == lineStarts.count || end < lineStarts[index + 1] else {
            return SourceRange(start: from, end: location(end))
        }
        var scalars = 0
        for k in start ..< end where bytes[k] & 0xC0 != 0x80 { scalars += 1 }
        return SourceRange(start: from, end: SourceLocation(fileNumber: fileNumber, line: from.line, column: from.column + scalars))
    }

    func string(_ start: Int, _ end: Int) -> String {
        guard start < end else { return "" }
        return String(decoding: text[start ..< end], as: UTF8.self)
    }

    /// Start of line `index` (1-based line number in messages).
    func lineLocation(_ index: Int) -> SourceLocation {
        if let map { return map.location(index < lineStarts.count ? lineStarts[index] : bytes.count) }
        return SourceLocation(fileNumber: fileNumber, line: index + 1 + lineBase, column: 1 + (index == 0 ? columnBase : 0))
    }
}

// MARK: - Input checks

/// Bounds every reader of input shares (files, standard input, data files, text after includes).
public enum InputLimits {
    /// Larger input is refused: deeply nested containers cost (nesting cap x size), and no real document
    /// source comes near this (a 1 MB paragraph is fine).
    public static let maxBytes = 8 << 20
}

enum InputCheck {
    static let maxBytes = InputLimits.maxBytes

    static func sizeProblem(_ count: Int) -> String? {
        guard count > maxBytes else { return nil }
        return "input is too large: the limit is \(maxBytes >> 20) MB of RT text per file (split it with @include)"
    }

    /// Drops a UTF-8 byte order mark.
    static func removingBOM(_ bytes: [UInt8]) -> [UInt8] {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { return Array(bytes[3...]) }
        return bytes
    }

    /// Offset of the first byte that is not valid UTF-8 or is NUL, with a message; nil if the text is fine.
    static func firstProblem(_ b: [UInt8]) -> (offset: Int, message: String)? {
        var i = 0
        let n = b.count
        while i < n {
            let c = b[i]
            if c < 0x80 {
                if c == 0 {
                    return (i, "NUL byte in input: this looks like a binary file, not RT text (save it as UTF-8 text)")
                }
                i += 1
                continue
            }
            var need = 0
            var lower: UInt8 = 0x80
            var upper: UInt8 = 0xBF
            switch c {
            case 0xC2 ... 0xDF: need = 1
            case 0xE0: need = 2; lower = 0xA0
            case 0xE1 ... 0xEC, 0xEE ... 0xEF: need = 2
            case 0xED: need = 2; upper = 0x9F
            case 0xF0: need = 3; lower = 0x90
            case 0xF1 ... 0xF3: need = 3
            case 0xF4: need = 3; upper = 0x8F
            default:
                return (i, "invalid UTF-8 byte 0x\(hex(c)): save the file as UTF-8")
            }
            for k in 1 ... need {
                guard i + k < n else { return (i, "truncated UTF-8 sequence at end of file: save the file as UTF-8") }
                let d = b[i + k]
                let lo = k == 1 ? lower : 0x80
                let hi = k == 1 ? upper : 0xBF
                if d < lo || d > hi { return (i, "invalid UTF-8 sequence starting with byte 0x\(hex(c)): save the file as UTF-8") }
            }
            i += need + 1
        }
        return nil
    }

    private static func hex(_ c: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(c >> 4)], digits[Int(c & 15)]])
    }

    /// Line:column of a byte offset in possibly invalid text (columns count scalar lead bytes; lines end in
    /// LF, CRLF or CR).
    static func location(of offset: Int, in b: [UInt8], file: String) -> SourceLocation {
        var line = 1
        var column = 1
        var i = 0
        while i < offset && i < b.count {
            if b[i] == 0x0A || (b[i] == 0x0D && (i + 1 >= b.count || b[i + 1] != 0x0A)) {
                line += 1
                column = 1
            } else if b[i] == 0x0D {
                // The CR of a CRLF: the LF ends the line.
            } else if b[i] & 0xC0 != 0x80 {
                column += 1
            }
            i += 1
        }
        return SourceLocation(file: file, line: line, column: column)
    }
}

// MARK: - Byte helpers

enum Byte {
    static let tab: UInt8 = 0x09, lf: UInt8 = 0x0A, cr: UInt8 = 0x0D, space: UInt8 = 0x20
    static let bang: UInt8 = 0x21, quote: UInt8 = 0x22, hash: UInt8 = 0x23, percent: UInt8 = 0x25
    static let apostrophe: UInt8 = 0x27, lparen: UInt8 = 0x28, rparen: UInt8 = 0x29, star: UInt8 = 0x2A
    static let plus: UInt8 = 0x2B, minus: UInt8 = 0x2D, dot: UInt8 = 0x2E, colon: UInt8 = 0x3A
    static let lt: UInt8 = 0x3C, equals: UInt8 = 0x3D, gt: UInt8 = 0x3E, at: UInt8 = 0x40
    static let lbracket: UInt8 = 0x5B, backslash: UInt8 = 0x5C, rbracket: UInt8 = 0x5D, caret: UInt8 = 0x5E
    static let underscore: UInt8 = 0x5F, backtick: UInt8 = 0x60, lbrace: UInt8 = 0x7B, pipe: UInt8 = 0x7C
    static let rbrace: UInt8 = 0x7D, tilde: UInt8 = 0x7E

    static func isSpaceOrTab(_ c: UInt8) -> Bool { c == space || c == tab }
    static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
    static func isLetter(_ c: UInt8) -> Bool { (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A }
    static func isAlnum(_ c: UInt8) -> Bool { isDigit(c) || isLetter(c) }
    static func isASCIIPunctuation(_ c: UInt8) -> Bool {
        (c >= 0x21 && c <= 0x2F) || (c >= 0x3A && c <= 0x40) || (c >= 0x5B && c <= 0x60) || (c >= 0x7B && c <= 0x7E)
    }
}

extension Source {
    /// True when the line holds only spaces and tabs.
    func isBlank(_ l: LineView) -> Bool {
        if l.start <= leadEnds[l.index] { return leadEnds[l.index] >= l.end }
        var i = l.start
        while i < l.end {
            if !Byte.isSpaceOrTab(text[i]) { return false }
            i += 1
        }
        return true
    }

    /// True when the line held a comment and nothing else (now only NUL and white space).
    func isCommentOnly(_ l: LineView) -> Bool {
        if l.start <= leadEnds[l.index] && leadEnds[l.index] < l.end && text[leadEnds[l.index]] != 0 { return false }
        var sawComment = false
        var i = l.start
        while i < l.end {
            let c = text[i]
            if c == 0 { sawComment = true } else if !Byte.isSpaceOrTab(c) { return false }
            i += 1
        }
        return sawComment
    }

    /// Indentation in columns (a tab advances to the next multiple of 4) and the first non-blank offset.
    func indentation(_ l: LineView) -> (columns: Int, first: Int) {
        let lead = leadEnds[l.index]
        if l.start <= lead && !leadHasTab[l.index] { return (min(lead, l.end) - l.start, min(lead, l.end)) }
        var col = 0
        var i = l.start
        while i < l.end {
            let c = text[i]
            if c == Byte.space { col += 1 } else if c == Byte.tab { col += 4 - col % 4 } else { break }
            i += 1
        }
        return (col, i)
    }

    /// The line with up to `columns` columns of leading white space removed.
    func stripIndent(_ l: LineView, _ columns: Int) -> LineView {
        let lead = leadEnds[l.index]
        if l.start <= lead && !leadHasTab[l.index] {
            return LineView(index: l.index, start: min(lead, l.start + min(columns, lead - l.start)), end: l.end)
        }
        var col = 0
        var i = l.start
        while i < l.end && col < columns {
            let c = text[i]
            if c == Byte.space { col += 1 } else if c == Byte.tab { col += 4 - col % 4 } else { break }
            i += 1
        }
        return LineView(index: l.index, start: i, end: l.end)
    }

    /// `start..<end` without white space at either end.
    func trimmed(_ start: Int, _ end: Int) -> (Int, Int) {
        var s = start
        var e = end
        while s < e && Byte.isSpaceOrTab(text[s]) { s += 1 }
        while e > s && Byte.isSpaceOrTab(text[e - 1]) { e -= 1 }
        return (s, e)
    }
}
