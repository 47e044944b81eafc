// Where code is, as far as the textual variable expansion needs to know (section 7: an undefined
// `{{name}}` inside code stays literal). Fences are tracked line by line; code spans are found on
// the line of a tag, once per line, by pairing backtick runs of equal length (linear in the line).

/// Open fenced code block while scanning lines: backtick or tilde fences, as CommonMark.
struct FenceTracker {
    private(set) var char: UInt8 = 0
    private(set) var length = 0

    var isOpen: Bool { length > 0 }

    /// Updates the state with the line starting at `i`. Indentation and `>` are skipped whatever their depth:
    /// a fence in a list item or a quote is code too (the block parser decides the rest).
    mutating func line(_ b: [UInt8], _ i: Int) {
        var p = i
        while p < b.count && (Byte.isSpaceOrTab(b[p]) || b[p] == Byte.gt) { p += 1 }
        guard p < b.count, b[p] == Byte.backtick || b[p] == Byte.tilde else { return }
        let c = b[p]
        var n = 0
        while p + n < b.count && b[p + n] == c { n += 1 }
        guard n >= 3 else { return }
        if length == 0 {
            char = c
            length = n
            return
        }
        guard c == char, n >= length else { return }
        var q = p + n
        while q < b.count && Byte.isSpaceOrTab(b[q]) { q += 1 }
        if q >= b.count || b[q] == Byte.lf || b[q] == Byte.cr {
            length = 0
            char = 0
        }
    }
}

/// Code spans of one line: `[start, end)` byte ranges between paired backtick runs.
struct LineCodeSpans {
    private var lineStart = -1
    private var spans: [(start: Int, end: Int)] = []
    private var cursor = 0

    /// Whether `i` (on the line starting at `lineStart`) is inside a code span. Queries on one line come in
    /// increasing order, so a cursor walks the spans once.
    mutating func contains(_ b: [UInt8], lineStart: Int, _ i: Int) -> Bool {
        if lineStart != self.lineStart {
            self.lineStart = lineStart
            spans = Self.spans(b, from: lineStart)
            cursor = 0
        }
        while cursor < spans.count && spans[cursor].end <= i { cursor += 1 }
        return cursor < spans.count && spans[cursor].start <= i
    }

    static func spans(_ b: [UInt8], from start: Int) -> [(start: Int, end: Int)] {
        var runs: [(pos: Int, len: Int)] = []
        var k = start
        while k < b.count && b[k] != Byte.lf {
            if b[k] == Byte.backslash && k + 1 < b.count && b[k + 1] == Byte.backtick {
                k += 2
                continue
            }
            if b[k] == Byte.backtick {
                var e = k + 1
                while e < b.count && b[e] == Byte.backtick { e += 1 }
                runs.append((k, e - k))
                k = e
            } else {
                k += 1
            }
        }
        // Runs of each length in order; an opener pairs with the next run of its length after it.
        var byLength: [Int: [Int]] = [:]
        for (index, run) in runs.enumerated() { byLength[run.len, default: []].append(index) }
        var cursors: [Int: Int] = [:]
        var out: [(start: Int, end: Int)] = []
        var r = 0
        while r < runs.count {
            let run = runs[r]
            let list = byLength[run.len] ?? []
            var c = cursors[run.len] ?? 0
            while c < list.count && list[c] <= r { c += 1 }
            cursors[run.len] = c
            guard c < list.count else {
                r += 1
                continue
            }
            let close = list[c]
            out.append((run.pos + run.len, runs[close].pos))
            r = close + 1
        }
        return out
    }
}
