// `box=true` divs: the content is already indented by border and padding (lowering), so placing a box is
// keeping track of where its fragment in the current column starts and drawing background and border
// around it when the column ends or the box closes. Broken boxes are sliced (CSS
// `box-decoration-break: slice`): a fragment that continues has no bottom edge, the next one no top edge,
// and the padding is only at the box's real top and bottom.

import TypesetIR

/// A box being placed.
struct OpenBox {
    var style: BoxStyle
    /// Top of the box's fragment in the current column; nil between a column's end and the next one.
    var fragmentTop: Double?
    /// Where the fragment's background goes in `page.rects`: under whatever the box's content drew.
    var rectIndex = 0
    /// The box's first fragment is still open: it gets the top edge.
    var isFirstFragment = true
}

extension Paginator {
    func placeBoxStart(_ style: BoxStyle) throws {
        let border = style.border?.width ?? 0
        var gap = region.isEmpty ? 0 : pendingSpace + style.spaceBefore
        // Not even the top edge and a line or two fit: start the box in the next column.
        if !region.isEmpty && !region.fits(gap + border + style.padding.top + 24) {
            try nextColumn()
            gap = 0
        }
        region.skip(gap)
        boxes.append(OpenBox(style: style, fragmentTop: region.y, rectIndex: page.rects.count))
        region.skip(border + style.padding.top)
        pendingSpace = 0
    }

    func placeBoxEnd() {
        guard var box = boxes.popLast() else { return }
        let style = box.style
        region.skip(style.padding.bottom + (style.border?.width ?? 0))
        if box.fragmentTop == nil { box.fragmentTop = region.y }
        drawBoxFragment(box, bottom: region.y, isLast: true)
        pendingSpace = style.spaceAfter
    }

    /// The column ends: each open box draws its fragment down to the column's bottom.
    func closeBoxFragments() {
        for k in boxes.indices.reversed() where boxes[k].fragmentTop != nil {
            drawBoxFragment(boxes[k], bottom: max(region.floor, region.y), isLast: false)
            boxes[k].fragmentTop = nil
            boxes[k].isFirstFragment = false
        }
    }

    /// A new column starts: open boxes continue from its top.
    func openBoxFragments() {
        for k in boxes.indices where boxes[k].fragmentTop == nil {
            boxes[k].fragmentTop = region.y
            boxes[k].rectIndex = page.rects.count
        }
    }

    private func drawBoxFragment(_ box: OpenBox, bottom: Double, isLast: Bool) {
        guard let top = box.fragmentTop, bottom > top + FlowRegion.epsilon else { return }
        let style = box.style, frame = region.frame
        let x = frame.x + style.headIndent, width = frame.width - style.headIndent - style.tailIndent
        guard width > 0 else { return }
        if let background = style.background {
            page.rects.insert(PlacedRect(kind: .background, x: x, y: top, width: width, height: bottom - top,
                                         color: background), at: min(box.rectIndex, page.rects.count))
        }
        guard let border = style.border else { return }
        let w = border.width, height = bottom - top
        func edge(_ x: Double, _ y: Double, _ width: Double, _ height: Double) {
            page.rects.append(PlacedRect(kind: .border, x: x, y: y, width: width, height: height, color: border.color))
        }
        edge(x, top, w, height)
        edge(x + width - w, top, w, height)
        if box.isFirstFragment { edge(x, top, width, w) }
        if isLast { edge(x, bottom - w, width, w) }
    }
}
