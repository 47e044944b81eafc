// Pipe tables: header row, delimiter row (`:--` `:-:` `--:` `-.-` `---`), body rows.

extension BlockParser {
    /// Cells of a row as trimmed `start..<end` offsets; pipes escaped as `\|` do not split.
    func splitRow(_ l: LineView) -> [(Int, Int)] {
        var (s, e) = src.trimmed(l.start, l.end)
        if s < e && text[s] == Byte.pipe { s += 1 }
        var cells: [(Int, Int)] = []
        var cellStart = s
        var k = s
        var endsWithPipe = false
        while k < e {
            let c = text[k]
            if c == Byte.backslash {
                k += 2
                continue
            }
            if c == Byte.pipe {
                cells.append(src.trimmed(cellStart, k))
                cellStart = k + 1
                endsWithPipe = k == e - 1
            }
            k += 1
        }
        if !endsWithPipe { cells.append(src.trimmed(cellStart, e)) }
        return cells
    }

    func hasPipe(_ l: LineView) -> Bool {
        var k = l.start
        while k < l.end {
            if text[k] == Byte.backslash { k += 2; continue }
            if text[k] == Byte.pipe { return true }
            k += 1
        }
        return false
    }

    func delimiterRow(_ l: LineView) -> [ColumnAlignment]? {
        guard hasPipe(l) else { return nil }
        var out: [ColumnAlignment] = []
        for (s, e) in splitRow(l) {
            guard s < e else { return nil }
            let left = text[s] == Byte.colon
            let right = text[e - 1] == Byte.colon && e - 1 > s
            let coreStart = left ? s + 1 : s
            let coreEnd = right ? e - 1 : e
            var dashes = 0
            var dots = 0
            var k = coreStart
            while k < coreEnd {
                switch text[k] {
                case Byte.minus: dashes += 1
                case Byte.dot: dots += 1
                default: return nil
                }
                k += 1
            }
            guard dashes >= 1, dots <= 1 else { return nil }
            if dots == 1 {
                out.append(.decimal)
            } else {
                switch (left, right) {
                case (true, true): out.append(.center)
                case (true, false): out.append(.left)
                case (false, true): out.append(.right)
                case (false, false): out.append(.none)
                }
            }
        }
        return out.isEmpty ? nil : out
    }

    /// A line starting `Table:` (after up to three spaces): a table caption when a table is next to it.
    func startsTableCaption(_ l: LineView) -> Bool {
        var s = l.start
        while s < l.end && s - l.start < 3 && text[s] == Byte.space { s += 1 }
        let prefix = Array("Table:".utf8)
        guard l.end - s >= prefix.count else { return false }
        return (0..<prefix.count).allSatisfy { text[s + $0] == prefix[$0] }
    }

    /// For a line with a pipe over a delimiter row: its cells and the delimiter row's columns. A table starts
    /// only when they are as many (GFM: "the header row must match the delimiter row in the number of cells. If
    /// not, a table will not be recognized"; the lines are then paragraph text, with `mismatchWarning`).
    func tableRows(_ lines: Lines, _ i: Int) -> (cells: Int, columns: Int)? {
        guard i + 1 < lines.count, hasPipe(lines[i]), let columns = delimiterRow(lines[i + 1])?.count else { return nil }
        return (splitRow(lines[i]).count, columns)
    }

    func tableStarts(_ lines: Lines, _ i: Int) -> Bool {
        tableRows(lines, i).map { $0.cells == $0.columns } ?? false
    }

    /// Why the header row `l` over a delimiter row starts no table (the lines are set as text, as on GitHub).
    func mismatchWarning(_ l: LineView, _ rows: (cells: Int, columns: Int)) -> Diagnostic {
        .warning("this looks like a pipe table, but its header row has \(rows.cells) cells and the delimiter row below "
                 + "it \(rows.columns): it is set as text, as GitHub does; give both rows the same number of cells",
                 at: src.location(src.indentation(l).first))
    }

    mutating func table(_ lines: Lines, _ i: Int) -> (Block, Int) {
        let alignments = delimiterRow(lines[i + 1]) ?? []
        let columns = alignments.count
        let header = row(lines[i], columns: columns, what: "header row")
        var rows: [[TableCell]] = []
        var j = i + 2
        while j < lines.count, !src.isBlank(lines[j]), hasPipe(lines[j]) {
            ctx.steps += 1 + lines[j].end - lines[j].start
            rows.append(row(lines[j], columns: columns, what: "row"))
            j += 1
        }
        let start = src.indentation(lines[i]).first
        let range = src.range(start, max(start, lines[j - 1].end))
        return (Block(.table(Table(alignments: alignments, header: header, rows: rows)), range: range), j)
    }

    private mutating func row(_ l: LineView, columns: Int, what: String) -> [TableCell] {
        let cells = splitRow(l)
        // The header row has `columns` cells (tableStarts); a body row may have more (GFM ignores them).
        if cells.count > columns {
            ctx.diagnostics.append(.warning("table \(what) has \(cells.count) cells but the delimiter row has \(columns) columns: the extra cells are dropped",
                                            at: src.location(cells[columns].0)))
        }
        var out: [TableCell] = []
        out.reserveCapacity(min(cells.count, columns))  // exactly: grown by doubling, a 3-cell row kept room for 4
        for (s, e) in cells.prefix(columns) {
            out.append(TableCell(content: inlines([(s, e)], tableCell: true), range: src.range(s, e)))
        }
        // Short rows stay short (lowering fills them): padding here made a wide table of empty rows quadratic.
        return out
    }
}
