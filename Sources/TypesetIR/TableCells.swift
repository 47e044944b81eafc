// A table's cells in a compact form (issue 8: one AttributedParagraph per cell, with its own runs array and
// structure path, took about 1.6 KB a row; a 212,000-row table at the input bound took 770 MB). Plain cells
// are packed: their text is a slice of one UTF-8 buffer, their runs and style indexes into small shared tables,
// their structure path is made from the row's ids when the cell is asked for. Cells with more (images,
// anchors, footnote marks, page references) keep their paragraph. Layout asks for one row at a time.

import RTSyntax

public struct TableCells: Hashable, Sendable {
    public let columnCount: Int
    public private(set) var rowCount = 0
    /// Every packed cell's text, one after another in row-major order.
    private var text: [UInt8] = []
    /// Runs of the packed cells in order: where each ends in its cell's text, and its attributes (an index).
    private var runEnds: [UInt32] = []
    private var runAttributes: [UInt16] = []
    private var attributes: [Shared<CharacterAttributes>] = []
    private var styles: [Shared<ParagraphStyle>] = []
    private var cells: [PackedCell] = []
    /// Cells the packed form does not hold, whole.
    private var rich: [AttributedParagraph] = []
    /// The file of every packed cell's location.
    private var file: String?
    /// Set by tagging: where each row sits in the structure tree.
    private var tagging: TableTagging?

    public init(columnCount: Int) { self.columnCount = max(columnCount, 0) }

    /// Rows of `columnCount` cells (short rows are padded with empty unstyled cells).
    public init(columnCount: Int, rows: [[AttributedParagraph]]) {
        self.init(columnCount: columnCount)
        for row in rows { appendRow(row) }
    }

    public mutating func appendRow(_ row: [AttributedParagraph]) {
        for column in 0 ..< columnCount {
            append(column < row.count ? row[column] : AttributedParagraph(text: "", runs: [], style: ParagraphStyle()))
        }
        rowCount += 1
    }

    /// Cell `column` of row `row`, with its structure path when the table is tagged.
    public subscript(row: Int, column: Int) -> AttributedParagraph { cell(row, column, tagged: true) }

    /// Row `row`'s cells.
    public func row(_ row: Int, tagged: Bool = true) -> [AttributedParagraph] {
        (0 ..< columnCount).map { cell(row, $0, tagged: tagged) }
    }

    /// Every cell that is not packed (the only ones that can hold images, notes or page references).
    public var richCells: [AttributedParagraph] { rich }

    /// The rich cells changed by `change` (page numbers filled in, for one).
    public mutating func updateRichCells(_ change: (AttributedParagraph) -> AttributedParagraph) {
        rich = rich.map(change)
    }

    public func isEmpty(_ row: Int, _ column: Int) -> Bool {
        let packed = cells[row * columnCount + column]
        if packed.rich >= 0 { return rich[Int(packed.rich)].text.isEmpty }
        return textRange(row * columnCount + column).isEmpty
    }

    /// The cell without its structure path when `tagged` is false (measuring needs none).
    public func cell(_ row: Int, _ column: Int, tagged: Bool) -> AttributedParagraph {
        let index = row * columnCount + column
        let packed = cells[index]
        if packed.rich >= 0 { return rich[Int(packed.rich)] }
        let range = textRange(index)
        let string = String(decoding: text[range], as: UTF8.self)
        let firstRun = index == 0 ? 0 : Int(cells[index - 1].runEnd)
        var runs: [AttributeRun] = []
        runs.reserveCapacity(Int(packed.runEnd) - firstRun)
        var start = 0
        for k in firstRun ..< Int(packed.runEnd) {
            let end = Int(runEnds[k])
            runs.append(AttributeRun(range: start ..< end, shared: attributes[Int(runAttributes[k])]))
            start = end
        }
        var paragraph = AttributedParagraph(text: string, runs: runs, sharedStyle: styles[Int(packed.style)])
        if packed.line != PackedCell.noLine, let file {
            paragraph.location = SourceLocation(file: file, line: Int(packed.line), column: Int(packed.column))
        }
        if tagged, let tagging, row < tagging.rowIDs.count { paragraph.structure = tagging.path(row: row, cellID: tagging.rowIDs[row] + Int(packed.idOffset)) }
        return paragraph
    }

    private func textRange(_ index: Int) -> Range<Int> {
        (index == 0 ? 0 : Int(cells[index - 1].textEnd)) ..< Int(cells[index].textEnd)
    }

    private mutating func append(_ p: AttributedParagraph) {
        let previous = cells.last ?? PackedCell(textEnd: 0, runEnd: 0, line: 0, column: 0, style: 0, idOffset: 0, rich: -1)
        var packed = previous
        packed.rich = -1
        packed.idOffset = 0
        guard let style = Self.index(of: p.sharedStyle, in: &styles), isPackable(p),
              let textEnd = UInt32(exactly: text.count + p.text.utf8.count),
              let runEnd = UInt32(exactly: runEnds.count + p.runs.count) else {
            packed.rich = Int32(clamping: rich.count)
            rich.append(p)
            return cells.append(packed)
        }
        var kinds: [UInt16] = []
        for run in p.runs {
            guard let a = Self.index(of: run.shared, in: &attributes) else {
                packed.rich = Int32(clamping: rich.count)
                rich.append(p)
                return cells.append(packed)
            }
            kinds.append(a)
        }
        text += p.text.utf8
        for (run, kind) in zip(p.runs, kinds) {
            runEnds.append(UInt32(clamping: run.range.upperBound))
            runAttributes.append(kind)
        }
        packed.textEnd = textEnd
        packed.runEnd = runEnd
        packed.style = style
        if let location = p.location {
            if file == nil { file = location.file }
            packed.line = UInt32(clamping: location.line)
            packed.column = UInt32(clamping: location.column)
        } else {
            packed.line = PackedCell.noLine
        }
        cells.append(packed)
    }

    /// Whether the packed form holds all of `p`: text, contiguous runs, style and a location in the table's file.
    private func isPackable(_ p: AttributedParagraph) -> Bool {
        guard p.attachments.isEmpty, p.anchors.isEmpty, p.outline == nil, p.caption == nil, p.pageReferences.isEmpty,
              p.footnoteMarks.isEmpty, p.structure == nil, !p.runs.isEmpty, p.runs.count <= 4096 else { return false }
        if let location = p.location {
            guard file == nil || location.file == file, location.line >= 0, location.line < Int(PackedCell.noLine),
                  location.column >= 0, location.column <= Int(UInt32.max) else { return false }
        }
        var end = 0
        for run in p.runs {
            guard run.range.lowerBound == end else { return false }
            end = run.range.upperBound
        }
        return end == p.text.utf8.count
    }

    /// The index of a shared value, added when new; nil past what an index holds (then the cell stays whole).
    private static func index<Value>(of value: Shared<Value>, in table: inout [Shared<Value>]) -> UInt16? {
        // Most tables have a handful of styles: the last few are looked at first, then all (a bounded table).
        if let i = table.lastIndex(where: { $0 === value }) ?? table.lastIndex(of: value) { return UInt16(exactly: i) }
        guard table.count < Int(UInt16.max) else { return nil }
        table.append(value)
        return UInt16(table.count - 1)
    }
}

extension TableCells {
    /// Tagging starts: the path down to the Table element, and the header cell node to copy.
    mutating func startTagging(_ tagging: TableTagging) { self.tagging = tagging }

    /// Tagging: row `row` is element `id` in `group` (rows are tagged in order, before their cells).
    mutating func tagRow(_ row: Int, id: Int, group: StructureNode) {
        guard tagging != nil else { return }
        if row < (tagging?.headerRowCount ?? 0) { tagging?.head = group } else { tagging?.body = group }
        tagging?.rowIDs.append(id)
    }

    /// Tagging: cell (row, column) is element `id`. A cell whose offset from its row's id does not fit the
    /// packed form is kept whole from then on.
    mutating func setCellID(_ id: Int, row: Int, column: Int) {
        guard let tagging else { return }
        let index = row * columnCount + column
        if cells[index].rich < 0, let offset = UInt16(exactly: id - tagging.rowIDs[row]) {
            cells[index].idOffset = offset
            return
        }
        if cells[index].rich < 0 {
            let whole = cell(row, column, tagged: false)
            cells[index].rich = Int32(clamping: rich.count)
            rich.append(whole)
        }
        rich[Int(cells[index].rich)].structure = tagging.path(row: row, cellID: id)
    }

    /// The rich cell at (row, column), for tagging its images; nil for a packed cell.
    func richIndex(_ row: Int, _ column: Int) -> Int? {
        let r = cells[row * columnCount + column].rich
        return r >= 0 ? Int(r) : nil
    }

    func richCell(_ index: Int) -> AttributedParagraph { rich[index] }
    mutating func setRichCell(_ index: Int, _ cell: AttributedParagraph) { rich[index] = cell }

    /// Bytes the packed form holds (for the memory tests): arrays' elements, not their spare capacity.
    public var packedBytes: Int {
        text.count + runEnds.count * 4 + runAttributes.count * 2 + cells.count * MemoryLayout<PackedCell>.stride
            + (tagging?.rowIDs.count ?? 0) * MemoryLayout<Int>.stride
    }
}

struct PackedCell: Hashable, Sendable {
    static let noLine = UInt32.max
    var textEnd: UInt32
    var runEnd: UInt32
    var line: UInt32
    var column: UInt32
    var style: UInt16
    /// The cell's structure id less its row's (TR) id.
    var idOffset: UInt16
    /// Index into the rich cells, -1 for a packed cell.
    var rich: Int32
}

/// Where a table's rows sit in the structure tree: the path down to the table, its THead and TBody, each
/// row's TR id. A cell's path is made from these when it is asked for.
struct TableTagging: Hashable, Sendable {
    var table: [StructureNode]
    var head: StructureNode?
    var body: StructureNode?
    var headerRowCount: Int
    var rowIDs: [Int] = []
    /// A header cell (`TH` with its `/Scope`): copies share its attribute box.
    var headerCell: StructureNode
    var bodyCell = StructureNode(id: 0, type: "TD")

    func path(row: Int, cellID: Int) -> StructurePath {
        let isHeader = row < headerRowCount
        var nodes: [StructureNode] = []
        nodes.reserveCapacity(table.count + 3)
        nodes += table
        if let group = isHeader ? head : body { nodes.append(group) }
        nodes.append(StructureNode(id: rowIDs[row], type: "TR"))
        var cell = isHeader ? headerCell : bodyCell
        cell.id = cellID
        nodes.append(cell)
        return StructurePath(nodes)
    }
}

extension AttributeRun {
    init(range: Range<Int>, shared: Shared<CharacterAttributes>) {
        (lower, upper) = (Int32(clamping: range.lowerBound), Int32(clamping: range.upperBound))
        self.shared = shared
    }
}

extension AttributedParagraph {
    init(text: String, runs: [AttributeRun], sharedStyle: Shared<ParagraphStyle>) {
        self.text = text
        self.runs = runs
        self.sharedStyle = sharedStyle
        attachments = []
        anchors = []
    }
}

extension AttributedParagraph {
    /// Whether `other` has the same text, runs and style, shared attribute sets compared by identity (the same
    /// set is the same value; equal values in two sets only compare unequal). Cheap next to hashing the values:
    /// a table compares every cell (TableCellMemo). Paragraphs with images never match.
    public func hasSameLayoutInput(as other: AttributedParagraph) -> Bool {
        guard sharedStyle === other.sharedStyle, attachments.isEmpty, other.attachments.isEmpty,
              runs.count == other.runs.count, text == other.text else { return false }
        return zip(runs, other.runs).allSatisfy { $0.range == $1.range && $0.shared === $1.shared }
    }

    /// Hashes what `hasSameLayoutInput` compares.
    public func hashLayoutInput(into hasher: inout Hasher) {
        hasher.combine(text)
        hasher.combine(ObjectIdentifier(sharedStyle))
        for run in runs {
            hasher.combine(run.range.upperBound)
            hasher.combine(ObjectIdentifier(run.shared))
        }
    }
}
