// What tagging keeps of a table's cells until the structure tree is written. Each cell's sequence held its
// own structure path (`... Table > TBody > TR > TD`, four nodes, about 160 bytes) plus its run, then one record
// per row (~200 bytes): a 212,000-row table kept 110, then 44 MB of them (issue 8). One record holds the
// consecutive rows of one group whose rows and cells look alike: the path down to the row group, the TR and
// cell nodes once, and 32-bit ids: some 20 bytes a row.

import TypesetIR

final class TableRowMarks {
    /// The path down to the THead or TBody: the same array for consecutive records of one group.
    let group: [StructureNode]
    /// The rows' node (type and attributes; the id is the first row's).
    let row: StructureNode
    /// The cells' node (type and `/Scope`; the id is the first sequence's cell's).
    let cell: StructureNode
    /// Each row's id, and where its sequences end in `cellIDs`.
    private(set) var rowIDs: [Int32]
    private(set) var rowEnds: [Int32]
    /// Each sequence's cell id, in MCID order.
    private(set) var cellIDs: [Int32]

    init?(_ nodes: [StructureNode], sharing previous: TableRowMarks?) {
        guard let cell = nodes.last, let id = Int32(exactly: cell.id), Self.isCellPath(nodes),
              let rowID = Int32(exactly: nodes[nodes.count - 2].id) else { return nil }
        let group = nodes.dropLast(2)
        if let previous, previous.group.count == group.count, zip(previous.group, group).allSatisfy({ $0.id == $1.id }) {
            self.group = previous.group
        } else {
            self.group = Array(group)
        }
        row = nodes[nodes.count - 2]
        self.cell = cell
        rowIDs = [rowID]
        rowEnds = [1]
        cellIDs = [id]
    }

    /// Adds the next sequence when it is a cell like the others, of the last row or of a next row like it in
    /// the same group; false otherwise.
    func append(_ nodes: [StructureNode]) -> Bool {
        guard nodes.count == group.count + 2, let cell = nodes.last, let id = Int32(exactly: cell.id),
              cell.type == self.cell.type, cell.scope == self.cell.scope, cell.alt == nil,
              cell.language == self.cell.language, cell.listNumbering == nil,
              let rowID = Int32(exactly: nodes[nodes.count - 2].id),
              let end = Int32(exactly: cellIDs.count + 1) else { return false }
        if rowID != rowIDs[rowIDs.count - 1] {
            var next = nodes[nodes.count - 2]
            next.id = row.id
            guard next == row, zip(group, nodes).allSatisfy({ $0.id == $1.id }) else { return false }
            rowIDs.append(rowID)
            rowEnds.append(end)
        } else {
            rowEnds[rowEnds.count - 1] = end
        }
        cellIDs.append(id)
        return true
    }

    var largestID: Int {
        max(group.reduce(0) { max($0, $1.id) }, Int(rowIDs.max() ?? 0), Int(cellIDs.max() ?? 0))
    }

    var rowCount: Int { rowIDs.count }

    /// Row `k`'s node.
    func row(_ k: Int) -> StructureNode {
        var row = self.row
        row.id = Int(rowIDs[k])
        return row
    }

    /// Row `k`'s sequences (indexes into the record's sequences).
    func sequences(ofRow k: Int) -> Range<Int> { (k == 0 ? 0 : Int(rowEnds[k - 1])) ..< Int(rowEnds[k]) }

    /// The cell of sequence `s` of the record.
    func cell(_ s: Int) -> StructureNode {
        var cell = self.cell
        cell.id = Int(cellIDs[s])
        return cell
    }

    /// The full path of sequence `s` of the record.
    func nodes(_ s: Int) -> [StructureNode] {
        let k = rowEnds.firstIndex { Int($0) > s } ?? rowEnds.count - 1
        return group + [row(k), cell(s)]
    }

    /// `... TR > TD|TH` whose cell has no attributes beyond a header's scope.
    static func isCellPath(_ nodes: [StructureNode]) -> Bool {
        guard nodes.count >= 2, let cell = nodes.last, cell.type == "TD" || cell.type == "TH",
              nodes[nodes.count - 2].type == "TR" else { return false }
        return cell.alt == nil && cell.listNumbering == nil
    }
}
