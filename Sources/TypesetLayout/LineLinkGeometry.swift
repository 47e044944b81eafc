// x ranges of the links on one Pango line, from one pass over the line's glyphs.
import CPangoCairo

/// `pango_layout_line_get_x_ranges` walks every glyph of a run twice for each call, so a line of n links cost
/// O(n × glyphs on the line). This table holds each left-to-right cluster start's x once and answers with
/// Pango's own integer arithmetic (pango_glyph_string_index_to_x_full for a boundary between clusters). It
/// answers nil where that arithmetic would differ (right-to-left runs, a boundary inside a cluster, a last
/// cluster that is not one printable ASCII character, which Pango might split by grapheme); the caller then
/// asks Pango. The alignment offset Pango adds is learned from the first answer Pango gives on the line.
struct LineLinkGeometry {
    private struct Run {
        var offset: Int, end: Int, x: Int32, width: Int32
        var first: Int, count: Int  // the run's cluster starts in `starts`
        var simple: Bool  // left to right with clusters in logical order
    }

    private let line: UnsafeMutablePointer<PangoLayoutLine>
    private let text: UnsafePointer<CChar>?
    private let lineStart: Int, lineEnd: Int
    private var runs: [Run] = []
    private var starts: [(index: Int, x: Int32)] = []  // cluster starts, run-relative x
    private var xOffset: Int32?
    /// Calls of `pango_layout_line_get_x_ranges` made (tests bound it per line).
    private(set) var pangoCalls = 0

    init(line: UnsafeMutablePointer<PangoLayoutLine>) {
        self.line = line
        text = line.pointee.layout.map { pango_layout_get_text($0) } ?? nil
        lineStart = Int(line.pointee.start_index)
        lineEnd = lineStart + Int(line.pointee.length)
        guard line.pointee.resolved_dir == PANGO_DIRECTION_LTR.rawValue else { return }
        var acc: Int32 = 0
        var node = line.pointee.runs
        while let n = node {
            node = n.pointee.next
            guard let data = n.pointee.data else { continue }
            let run = data.assumingMemoryBound(to: PangoGlyphItem.self).pointee
            guard let item = run.item, let glyphs = run.glyphs else { continue }
            let offset = Int(item.pointee.offset)
            var r = Run(offset: offset, end: offset + Int(item.pointee.length), x: acc, width: 0,
                        first: starts.count, count: 0, simple: item.pointee.analysis.level % 2 == 0)
            var last: Int32 = -1
            for g in 0..<Int(max(glyphs.pointee.num_glyphs, 0)) {
                let cluster = glyphs.pointee.log_clusters[g]
                if cluster < last { r.simple = false }
                if cluster != last { starts.append((offset + Int(cluster), r.width)); last = cluster }
                r.width = r.width &+ glyphs.pointee.glyphs[g].geometry.width
            }
            r.count = starts.count - r.first
            runs.append(r)
            acc = acc &+ r.width  // Pango adds each run's pango_glyph_string_get_width
        }
    }

    /// Pango's x ranges (Pango units, from the layout's left edge) of a byte range of the line, into `out`
    /// (emptied first; one buffer serves every link of the line).
    mutating func xRanges(_ range: Range<Int>, into out: inout [(Int32, Int32)]) {
        out.removeAll(keepingCapacity: true)
        guard ranges(range, into: &out) else { return pangoRanges(range, into: &out) }
        if let xOffset {
            for k in out.indices { out[k] = (out[k].0 &+ xOffset, out[k].1 &+ xOffset) }
            return
        }
        let mine = out
        pangoRanges(range, into: &out)
        if let a = mine.first, let b = out.first, mine.count == out.count {
            let offset = b.0 &- a.0
            if zip(mine, out).allSatisfy({ $0.0 &+ offset == $1.0 && $0.1 &+ offset == $1.1 }) { xOffset = offset }
        }
    }

    private mutating func pangoRanges(_ range: Range<Int>, into out: inout [(Int32, Int32)]) {
        out.removeAll(keepingCapacity: true)
        pangoCalls += 1
        var ranges: UnsafeMutablePointer<Int32>? = nil
        var count: Int32 = 0
        pango_layout_line_get_x_ranges(line, cInt(range.lowerBound), cInt(range.upperBound), &ranges, &count)
        defer { g_free(ranges) }
        guard let ranges else { return }
        for k in 0..<Int(max(count, 0)) { out.append((ranges[2 * k], ranges[2 * k + 1])) }
    }

    /// The ranges without the alignment offset; false where only Pango knows.
    private func ranges(_ range: Range<Int>, into result: inout [(Int32, Int32)]) -> Bool {
        guard let text, !runs.isEmpty, range.lowerBound >= lineStart, range.upperBound <= lineEnd else { return false }
        for run in runs where range.lowerBound < run.end && range.upperBound > run.offset {
            guard run.simple else { return false }
            let s = max(range.lowerBound, run.offset), e = min(range.upperBound, run.end)
            guard let (k, sx) = start(s, in: run) else { return false }
            // The last character: one cluster of one printable ASCII byte, whose trailing edge is the next
            // cluster's x (or the run's width).
            var j = k
            while j + 1 < run.first + run.count && starts[j + 1].index < e { j += 1 }
            guard starts[j].index == e - 1, (0x20...0x7E).contains(UInt8(bitPattern: text[e - 1])) else { return false }
            let ex: Int32
            if e == run.end {
                ex = run.width
            } else {
                guard j + 1 < run.first + run.count, starts[j + 1].index == e else { return false }
                ex = starts[j + 1].x
            }
            result.append((run.x &+ min(sx, ex), run.x &+ max(sx, ex)))
        }
        return true
    }

    /// The cluster starting at byte `index` of `run` (its slot in `starts` and x), found by binary search.
    private func start(_ index: Int, in run: Run) -> (Int, Int32)? {
        var lo = run.first, hi = run.first + run.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if starts[mid].index < index { lo = mid + 1 } else { hi = mid }
        }
        guard lo < run.first + run.count, starts[lo].index == index else { return nil }
        return (lo, starts[lo].x)
    }
}
