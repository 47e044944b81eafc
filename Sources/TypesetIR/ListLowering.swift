// Lists: marker, TAB, text, with a tab stop and head indent at the text edge so wrapped lines hang there.
//
// Geometry (all from the column's left edge):
//   markerStart = container edge (+ the `list` style's margin-left for a top-level list)
//   textEdge    = markerStart + max(1.5em, widest marker of the list as set (measured with Pango) + 0.5em gap)
//   first line of an item:  firstLineHeadIndent = markerStart (ordered: where the marker ends 0.5em before
//                           textEdge), tab stop at textEdge, headIndent = textEdge
//   later paragraphs and nested lists of the item start at textEdge.
// Bullets: `•` `◦` `▪` by nesting level, or the `bullet` attribute's glyphs (on the `list` style or a list's
// block attributes; they cycle by level the same way).

import RTSyntax

extension DocumentLowerer {
    static let bulletGlyphs = ["\u{2022}", "\u{25E6}", "\u{25AA}"]   // • ◦ ▪ by nesting level
    static let openTaskBox = "\u{2610}"   // ☐
    static let doneTaskBox = "\u{2611}"   // ☑
    /// Space after a paragraph inside a tight list (no blank lines between items).
    static let tightListSpacing = 2.0
    /// Marker-to-text gap and the least marker box, in ems of the list's font.
    static let markerGap = 0.5
    static let minimumMarkerBox = 1.5

    /// The widest marker as set in the list's font: measured when lowering has a measurer, else estimated
    /// (0.5em per character: DejaVu Serif digits are 0.64em, a full stop 0.32em).
    func widestMarker(_ markers: [String], state: StyleState) -> Double {
        Set(markers).map { markerWidth($0, state: state) }.max() ?? 0
    }

    func markerWidth(_ marker: String, state: StyleState) -> Double {
        if let measurer = options.measurer { return measurer.width(of: marker, attributes: state.character) }
        return Double(max(marker.unicodeScalars.count, 1)) * 0.5 * state.character.fontSize
    }

    mutating func lowerList(_ list: ListBlock, block: Block, context: StyleState) {
        var state = context
        sheet.apply("list", to: &state)
        if listDepth > 0 { state.marginLeft = 0 }   // nested lists start at the parent item's text edge
        state = applying(block.attributes, to: state)

        let markers = list.items.indices.map { index -> String in
            // A task box replaces the bullet (section 9); an ordered item keeps its number and the box opens its
            // text, as GitHub shows `1. [x] done`.
            switch list.items[index].task {
            case .open where !list.isOrdered: return Self.openTaskBox
            case .done where !list.isOrdered: return Self.doneTaskBox
            default: return listMarker(list, index: index, bullets: state.bullets)
            }
        }
        let em = state.character.fontSize
        let (markerStart, textEdge) = limitListEdges(
            markerStart: state.containerLeft + state.marginLeft,
            textEdge: state.containerLeft + state.marginLeft
                + max(Self.minimumMarkerBox * em, widestMarker(markers, state: state) + Self.markerGap * em),
            state: state, at: block.range.start)

        var itemState = state.enteringContainer()
        itemState.mirrorEdges = state.mirrorEdges ?? MirrorEdges(left: state.containerLeft, right: state.containerRight)
        itemState.containerLeft = textEdge
        itemState.indent = 0
        // The list's own space-before/-after and break-before belong to its first/last paragraph only.
        itemState.paragraph.spaceBefore = context.paragraph.spaceBefore
        itemState.paragraph.spaceAfter = context.paragraph.spaceAfter
        itemState.paragraph.breakBefore = context.paragraph.breakBefore

        let firstOutput = output.count
        listDepth += 1
        openStructure("L")
        structure.stack[structure.stack.count - 1].listNumbering = list.numberingName
        for (index, item) in list.items.enumerated() {
            openStructure("LI")
            let label = newStructureNode("Lbl")
            openStructure("LBody")
            var rest = item.blocks[...]
            var builder = ParagraphBuilder()
            var paragraphState = itemState
            var location = item.range.start
            if let first = rest.first, case .paragraph(let inlines) = first.kind {
                paragraphState = applying(first.attributes, to: itemState)
                builder.append(markers[index] + "\t", paragraphState.character)
                if list.isOrdered, let task = item.task {
                    builder.append((task == .done ? Self.doneTaskBox : Self.openTaskBox) + " ", paragraphState.character)
                }
                lowerParagraphInlines(inlines, state: paragraphState, into: &builder)
                location = first.range.start
                rest = rest.dropFirst()
            } else {
                builder.append(markers[index], paragraphState.character)   // an item opening with a non-paragraph
            }
            var style = paragraphState.paragraphStyle()
            style.firstLineHeadIndent = markerStart
            if list.isOrdered {
                // Ordered markers end one gap before the text, as LaTeX's enumerate: `i.` and `iii.` line up
                // on their full stops.
                let width = markerWidth(markers[index], state: state)
                style.firstLineHeadIndent = max(markerStart, textEdge - Self.markerGap * em - width)
            }
            style.headIndent = textEdge
            style.tabStops = [TabStop(position: textEdge)] + style.tabStops.filter { $0.position > textEdge }
            emitParagraph(builder, style: style, base: paragraphState.character, location: location)
            labelLastParagraph(label, text: rest.count < item.blocks.count ? markers[index] + "\t" : markers[index])
            lowerBlocks(Array(rest), in: itemState)
            closeStructure(2)
        }
        closeStructure(1)
        listDepth -= 1
        applyEdgeSpacing(of: state, context: context, to: firstOutput..<output.count)

        if list.isTight {
            for i in firstOutput..<max(firstOutput, output.count - 1) {
                if case .paragraph(var paragraph) = output[i] {
                    paragraph.style.spaceAfter = min(paragraph.style.spaceAfter, Self.tightListSpacing)
                    output[i] = .paragraph(paragraph)
                }
            }
        }
    }

    /// `•`, `3.`, `c)`, `iv.`: numbered from `start`, bullets chosen by nesting depth, not by `-`/`*`/`+`.
    func listMarker(_ list: ListBlock, index: Int, bullets: [String]? = nil) -> String {
        let n = list.start + index
        let delimiter = String(list.delimiter)
        switch list.style {
        case .bullet:
            let glyphs = bullets ?? Self.bulletGlyphs
            return glyphs[listDepth % glyphs.count]
        case .decimal: return "\(n)\(delimiter)"
        case .lowerAlpha: return alphabeticNumeral(n) + delimiter
        case .upperAlpha: return alphabeticNumeral(n).uppercased() + delimiter
        case .lowerRoman: return romanNumeral(n) + delimiter
        case .upperRoman: return romanNumeral(n).uppercased() + delimiter
        }
    }
}

extension ListBlock {
    var isOrdered: Bool {
        if case .bullet = style { return false }
        return true
    }
}

/// 1 -> a, 26 -> z, 27 -> aa (spreadsheet columns); 0 and below fall back to digits.
func alphabeticNumeral(_ n: Int) -> String {
    guard n > 0 else { return String(n) }
    var n = n
    var scalars: [Unicode.Scalar] = []
    while n > 0 {
        n -= 1
        scalars.append(Unicode.Scalar(UInt8(97 + n % 26)))
        n /= 26
    }
    return String(String.UnicodeScalarView(scalars.reversed()))
}

