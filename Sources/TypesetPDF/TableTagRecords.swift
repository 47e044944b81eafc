// What tagging keeps of a table row's cells until the structure tree is written. Each cell's sequence held its
// own structure path (`... Table > TBody > TR > TD`, four nodes, about 160 bytes) plus its run: a 212,000-row
// table kept some 110 MB of them (issue 8). One record per row holds the path down to the row group (shared
// with the rows before it on the page), the TR, and each sequence's cell id.

import TypesetIR

final class TableRowMarks {
    /// The path down to the THead or TBody: the same array for consecutive rows of one group.
    let group: [StructureNode]
    let row: StructureNode
    /// The cells' node (type and `/Scope`), with the id of the first sequence's cell.
    let cell: StructureNode
    /// Each sequence's cell id, in MCID order.
    private(set) var ids: [Int32]

    init?(_ nodes: [StructureNode], sharing previous: TableRowMarks?) {
        guard let cell = nodes.last, let id = Int32(exactly: cell.id), Self.isCellPath(nodes) else { return nil }
        let group = nodes.dropLast(2)
        if let previous, previous.group.count == group.count, zip(previous.group, group).allSatisfy({ $0.id == $1.id }) {
            self.group = previous.group
        } else {
            self.group = Array(group)
        }
        row = nodes[nodes.count - 2]
        self.cell = cell
        ids = [id]
    }

    /// Adds the next sequence when it is a cell of this row like the others; false otherwise.
    func append(_ nodes: [StructureNode]) -> Bool {
        guard nodes.count == group.count + 2, let cell = nodes.last, let id = Int32(exactly: cell.id),
              nodes[nodes.count - 2].id == row.id, cell.type == self.cell.type, cell.scope == self.cell.scope,
              cell.alt == nil, cell.language == self.cell.language, cell.listNumbering == nil else { return false }
        ids.append(id)
        return true
    }

    var largestID: Int { max(group.reduce(row.id) { max($0, $1.id) }, Int(ids.max() ?? 0)) }

    /// The cell of sequence `k` of the row.
    func cell(_ k: Int) -> StructureNode {
        var cell = self.cell
        cell.id = Int(ids[k])
        return cell
    }

    /// The full path of sequence `k` of the row.
    func nodes(_ k: Int) -> [StructureNode] {
        var cell = self.cell
        cell.id = Int(ids[k])
        return group + [row, cell]
    }

    /// `... TR > TD|TH` whose cell has no attributes beyond a header's scope.
    static func isCellPath(_ nodes: [StructureNode]) -> Bool {
        guard nodes.count >= 2, let cell = nodes.last, cell.type == "TD" || cell.type == "TH",
              nodes[nodes.count - 2].type == "TR" else { return false }
        return cell.alt == nil && cell.listNumbering == nil
    }
}
