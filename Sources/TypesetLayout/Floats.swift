// Floats: an image or a div's paragraphs placed at the left or right of the column, at the top of the space
// where the float is met (the next column if it does not fit), and registered as an exclusion rectangle
// (grown by its margin) for the text of that page.

import Foundation
import TypesetIR

extension Paginator {
    func placeFloat(_ f: FloatBox, at index: Int) throws {
        var frame = region.frame
        var width = min(f.width ?? frame.width / 3, frame.width)
        var height = 0.0
        var layouts: [ParagraphLayout] = []
        var surface: ImageSurface? = nil
        if let image = f.image {
            guard case .success(let s) = images.image(for: image, engine: engine) else { return }  // reported when lowering
            surface = s
            let naturalW = Double(s.pixelWidth) * 0.75, naturalH = Double(s.pixelHeight) * 0.75
            switch (image.width, image.height) {
            case let (w?, h?): width = w; height = h
            case let (w?, nil): width = w; height = naturalW > 0 ? w * naturalH / naturalW : w
            case let (nil, h?): height = h; width = naturalH > 0 ? h * naturalW / naturalH : h
            case (nil, nil): width = naturalW; height = naturalH
            }
            if width > frame.width { height *= frame.width / width; width = frame.width }
        } else {
            let padding = f.box?.padding ?? EdgeInsets(all: 0)
            let inner = max(width - padding.left - padding.right, 1)
            if f.box != nil { height += padding.top + padding.bottom }
            for (k, paragraph) in f.paragraphs.enumerated() {
                let layout = ParagraphLayout(paragraph, columnWidth: inner, engine: engine, images: images,
                                             diagnostics: &diagnostics)
                if k > 0 { height += f.paragraphs[k - 1].style.spaceAfter + paragraph.style.spaceBefore }
                height += layout.height
                layouts.append(layout)
            }
        }
        let gap = region.isEmpty ? 0 : pendingSpace
        if !region.fits(gap + height) && !region.isEmpty {
            try nextColumn()
            frame = region.frame
        }
        var top = region.isEmpty ? region.y : region.y + gap
        let x = f.side == .left ? frame.x : frame.x + frame.width - width
        // Floats met one after the other stack down the side instead of overlapping.
        var moved = true
        while moved {
            moved = false
            // Only floats met before this one (a band placed again meets them all again).
            for (key, other) in flow.floats where key < index && other.page == page.number {
                guard case let .rect(ox, oy, ow, oh) = other.shape.shape, ox < x + width, ox + ow > x,
                      oy < top + height, oy + oh > top else { continue }
                top = oy + oh + max(other.shape.margin, f.margin)
                moved = true
            }
        }
        if top + height > region.floor + FlowRegion.epsilon && !region.isEmpty {
            try nextColumn()
            return try placeFloat(f, at: index)
        }
        if let surface, let image = f.image {
            page.images.append(PlacedImage(path: image.path, image: surface, x: x, y: top, width: width,
                                           height: height, fit: image.fit, structure: image.structure))
        }
        var y = top
        var textX = x
        if let box = f.box {
            drawFloatBox(box, x: x, y: top, width: width, height: height)
            y += box.padding.top
            textX += box.padding.left
        }
        for (k, layout) in layouts.enumerated() {
            if k > 0 { y += f.paragraphs[k - 1].style.spaceAfter + layout.paragraph.style.spaceBefore }
            for (i, box) in layout.lines.enumerated() {
                page.lines.append(PlacedLine(paragraph: layout, lineIndex: i, originX: textX + layout.left,
                                             baseline: y + box.baselineOffset))
                for piece in layout.linkPieces(line: i) where isReachable(piece.target, from: layout) {
                    page.links.append(LinkArea(target: piece.target, x: textX + piece.x, y: y + box.baselineOffset - box.ascent,
                                               width: piece.width, height: box.ascent + box.descent))
                }
                y += box.advance
            }
        }
        pageHasContent = true
        flow.floats[index] = (page.number, PlacedShape(shape: .rect(x: x, y: top, width: width, height: height),
                                                       margin: f.margin))
        // Notes marked in the float: at the foot of the column it is drawn in, below it.
        let marks = newNotes(in: f.paragraphs)
        if !marks.isEmpty { takeNotes(marks, bodyBottom: max(region.y, top + height), markTop: top) }
    }

    /// A boxed float's background under its text and its border around it, as a `box=true` div draws them.
    private func drawFloatBox(_ box: BoxStyle, x: Double, y: Double, width: Double, height: Double) {
        if let background = box.background {
            page.rects.append(PlacedRect(kind: .background, x: x, y: y, width: width, height: height, color: background))
        }
        guard let border = box.border, border.width > 0 else { return }
        let w = border.width
        for (ex, ey, ew, eh) in [(x, y, w, height), (x + width - w, y, w, height), (x, y, width, w), (x, y + height - w, width, w)] {
            page.rects.append(PlacedRect(kind: .border, x: ex, y: ey, width: ew, height: eh, color: border.color))
        }
    }
}
