// Lowering's side of tagging (RT section 10): the open structure elements while blocks are lowered, the
// path each paragraph, cell and image gets, and the PDF/UA checks that are faults of the document itself.

import RTSyntax

/// The structure elements open at the current point of lowering, and the next id to hand out.
struct StructureState {
    var stack: [StructureNode] = []
    var nextID = 1
    /// The document's `lang`: elements only carry a language that differs from it.
    var documentLanguage = "en"
    var standards: Set<PDFStandard> = []
    /// The level of the previous heading, for the PDF/UA check on skipped levels.
    var lastHeadingLevel = 0
}

extension DocumentLowerer {
    var checksUA: Bool { structure.standards.contains(.ua1) }

    mutating func newStructureNode(_ type: String) -> StructureNode {
        defer { structure.nextID += 1 }
        return StructureNode(id: structure.nextID, type: type)
    }

    /// Lowers `body` inside a new element of `type`.
    mutating func withStructure(_ type: String, _ body: (inout DocumentLowerer) -> Void) {
        structure.stack.append(newStructureNode(type))
        body(&self)
        structure.stack.removeLast()
    }

    /// The path of a new element of `type` under the open ones.
    mutating func structurePath(_ type: String, language: String? = nil) -> StructurePath {
        var node = newStructureNode(type)
        if let language, language != structure.documentLanguage { node.language = language }
        return StructurePath(structure.stack + [node])
    }

    /// What an emitted paragraph is: a paragraph that is only an image is that image's Figure.
    mutating func tag(_ paragraph: inout AttributedParagraph, as type: String) {
        if paragraph.attachments.count == 1, paragraph.text == "\u{FFFC}" {
            paragraph.structure = paragraph.attachments[0].image.structure ?? structurePath("P")
            return
        }
        let path = structurePath(type, language: paragraph.style.language)
        paragraph.structure = path
        // An image inside the text is a Figure inside its paragraph, read with it (not before it, as an element
        // of its own made when the image was lowered). It gets an id after the paragraph's: children follow
        // their parent in id order.
        for i in paragraph.attachments.indices {
            guard var figure = paragraph.attachments[i].image.structure, figure.nodes.count == path.nodes.count,
                  Array(figure.nodes.dropLast()) == Array(path.nodes.dropLast()), let own = figure.nodes.last else { continue }
            var node = newStructureNode(own.type)
            node.alt = own.alt
            figure = StructurePath(path.nodes + [node])
            paragraph.attachments[i].image.structure = figure
        }
    }

    /// A Figure for an image, with its alt text; `decorative=true` makes it an artifact (no element).
    mutating func tagImage(_ image: inout ImageAttachment, alt: String, decorative: Bool) {
        if decorative { return }
        if alt.isEmpty && checksUA {
            diagnostics.append(.error("an image needs alt text for PDF/UA (or decorative=true)", at: image.location))
        }
        var path = structurePath("Figure")
        path.nodes[path.nodes.count - 1].alt = alt
        image.structure = path
    }

    /// PDF/UA: headings go down one level at a time (H1 then H3 skips H2).
    mutating func checkHeadingLevel(_ level: Int, at location: SourceLocation) {
        let previous = structure.lastHeadingLevel
        structure.lastHeadingLevel = level
        guard checksUA, previous > 0, level > previous + 1 else { return }
        diagnostics.append(.error("heading level \(level) follows level \(previous): PDF/UA does not allow a skipped level", at: location))
    }

    /// Table > THead/TBody > TR > TH/TD over the lowered cells; header cells head their column.
    mutating func tagTable(_ table: inout TableBlock) {
        // No copy of `table.cells` is held: tagging changes it in place.
        let rowCount = table.cells.rowCount, columnCount = table.cells.columnCount
        let emptyHeader = (0 ..< min(table.headerRowCount, rowCount)).allSatisfy { r in
            (0 ..< columnCount).allSatisfy { table.cells.isEmpty(r, $0) }
        }
        if emptyHeader && checksUA, let location = table.location {
            diagnostics.append(.error("a table needs a header row for PDF/UA", at: location))
        }
        let tableNode = newStructureNode("Table")
        var headerCell = StructureNode(id: 0, type: "TH")
        headerCell.scope = "Column"
        // Ids as before packing: per row its group (first row of each), TR, then each cell and its figures.
        table.cells.startTagging(TableTagging(table: structure.stack + [tableNode], head: nil, body: nil,
                                              headerRowCount: table.headerRowCount, headerCell: headerCell))
        var group = tableNode
        for r in 0 ..< rowCount {
            let isHeader = r < table.headerRowCount
            if r == 0 || r == table.headerRowCount { group = newStructureNode(isHeader ? "THead" : "TBody") }
            table.cells.tagRow(r, id: newStructureNode("TR").id, group: group)
            for c in 0 ..< columnCount {
                table.cells.setCellID(newStructureNode(isHeader ? "TH" : "TD").id, row: r, column: c)
                guard let k = table.cells.richIndex(r, c) else { continue }
                var cell = table.cells.richCell(k)
                guard let path = cell.structure?.nodes else { continue }
                var changed = false
                for a in cell.attachments.indices {
                    guard let alt = cell.attachments[a].image.structure?.owner?.alt else { continue }
                    var figure = newStructureNode("Figure")
                    figure.alt = alt
                    cell.attachments[a].image.structure = StructurePath(path + [figure])
                    changed = true
                }
                if changed { table.cells.setRichCell(k, cell) }
            }
        }
    }

    /// A TOC element reserved where `@toc` stands, so it reads there although its entries come at the end.
    mutating func tocStructure() -> [StructureNode] { structure.stack + [newStructureNode("TOC")] }

    mutating func tagTocEntry(_ entry: inout TocEntry, toc: [StructureNode]) {
        entry.paragraph.structure = StructurePath(toc + [newStructureNode("TOCI")])
    }
}

extension ListBlock {
    /// The PDF `/ListNumbering` of the list's markers.
    var numberingName: String {
        switch style {
        case .bullet: return "Disc"
        case .decimal: return "Decimal"
        case .lowerAlpha: return "LowerAlpha"
        case .upperAlpha: return "UpperAlpha"
        case .lowerRoman: return "LowerRoman"
        case .upperRoman: return "UpperRoman"
        }
    }
}

extension DocumentLowerer {
    mutating func openStructure(_ type: String) { structure.stack.append(newStructureNode(type)) }

    mutating func closeStructure(_ count: Int) { structure.stack.removeLast(min(count, structure.stack.count)) }

    /// The list item's first paragraph starts with its label (`label` under the LI, before the LBody).
    mutating func labelLastParagraph(_ label: StructureNode, text: String) {
        guard let last = output.indices.last, case .paragraph(var p) = output[last], var path = p.structure,
              p.text.hasPrefix(text), structure.stack.count >= 1 else { return }
        path.labelNodes = Array(structure.stack.dropLast()) + [label]
        path.labelText = text
        p.structure = path
        output[last] = .paragraph(p)
    }
}
