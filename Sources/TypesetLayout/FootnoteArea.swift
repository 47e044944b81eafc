// Footnotes at the foot of the column where their marks land (contract section 4 "Footnote"), as TeX's
// insertions: the column's text area shrinks by the notes' height, a line whose notes do not fit (not even
// the first line of the last one) moves on to the next column, and what does not fit continues at the foot
// of the next column. Notes are drawn when their column is complete, under a short rule.

import TypesetIR

/// One line of a note. `gap` is the paragraph spacing above it (0 inside a paragraph, dropped at the top).
struct NoteLine {
    let layout: ParagraphLayout
    let index: Int
    let gap: Double
    /// The note's number.
    let number: Int
    /// Where a new note starts (its number): the mark's check keeps at least this line with the mark.
    let startsNote: Bool
    var box: LineBox { layout.line(index) }
}

/// The notes of the column being filled, the lines carried over from earlier columns, and which notes
/// have been set. A value: band balancing snapshots and restores it with the page.
struct FootnoteArea {
    /// Space between the column's text and the rule, the rule's thickness, and the space under it.
    static let ruleSpace = 9.0, ruleThickness = 0.5, ruleGap = 4.0
    static var ruleBlock: Double { ruleSpace + ruleThickness + ruleGap }
    static let ruleColor = Color(red: 0.35, green: 0.35, blue: 0.35)
    /// Carried lines take at most this share of a column that also holds text.
    static let carryShare = 0.5

    /// This column's note lines, top to bottom.
    private(set) var lines: [NoteLine] = []
    /// Height of the area: the rule block and the lines (0 when empty).
    private(set) var height = 0.0
    /// Lines that did not fit their column, for the foot of the next one (in order).
    var carry: [NoteLine] = []
    /// Notes of a positioned shape for a later column of this page (the first column the shape overlaps).
    var deferred: [(column: Int, lines: [NoteLine])] = []
    /// Notes set so far: every number up to `setThrough`, and the ones in `setAbove` (met out of order).
    private var setThrough = 0
    private var setAbove: Set<Int> = []

    var isEmpty: Bool { lines.isEmpty }

    func isSet(_ n: Int) -> Bool { n <= setThrough || setAbove.contains(n) }

    mutating func markSet(_ n: Int) {
        guard !isSet(n) else { return }
        if n == setThrough + 1 {
            setThrough = n
            while setAbove.remove(setThrough + 1) != nil { setThrough += 1 }
        } else {
            setAbove.insert(n)
        }
    }

    /// How much taller the area gets with `line` below the lines it has.
    func growth(_ line: NoteLine, after count: Int = 0) -> Double {
        (lines.isEmpty && count == 0 ? Self.ruleBlock : line.gap) + line.box.advance
    }

    mutating func append(_ line: NoteLine) {
        height += growth(line)
        lines.append(line)
    }

    /// Empties the area (the column is done) and returns its lines.
    mutating func takeLines() -> [NoteLine] {
        defer { lines = []; height = 0 }
        return lines
    }

    /// Where a note's number links back to: the line holding its (first) mark. Same name as in lowering.
    static func backAnchor(_ number: Int) -> String { "fnref-\(number)" }

    /// The note number a `footnote-N` destination names.
    static func number(_ destination: String) -> Int? {
        guard destination.hasPrefix("footnote-") else { return nil }
        return Int(destination.dropFirst(9))
    }
}

extension Array where Element == Int {
    /// Binary search in a sorted array (a paragraph's `footnoteMarks`).
    func sortedContains(_ n: Int) -> Bool {
        var lo = 0, hi = count
        while lo < hi {
            let mid = (lo + hi) / 2
            if self[mid] < n { lo = mid + 1 } else { hi = mid }
        }
        return lo < count && self[lo] == n
    }
}
