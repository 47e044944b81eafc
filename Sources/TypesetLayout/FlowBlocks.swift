// Exclusions, floats, shaped containers and boxes met in the flow: registered where the paginator meets them
// (the paragraphs beside them are set in FlowPlacement.swift).

import Foundation
import RTSyntax
import TypesetIR

extension Paginator {
    /// Text on a page flows around its exclusions (RT section 4), also the text set before one is met: a
    /// pass that meets one below such text records it, and a second pass registers it as its page starts.
    func register(_ e: Exclusion, at index: Int, afterContent: Bool) {
        flow.exclusions[index] = (e, page.number)
        flow.met[index] = (e, page.number)
        if afterContent && earlyShapes[index] == nil { flow.metAfterContent = true }
    }

    /// Floats, exclusions and shaped containers met in the flow.
    func placeFlowBlock(_ block: LayoutBlock, at index: Int) throws {
        switch block {
        case .exclusion(let e):
            register(e, at: index, afterContent: pageHasContent || columnIndex > 0)
        case .shapeStart(let c) where c.position != nil:
            let m = document.page.margins, position = c.position!
            let width = c.width ?? region.frame.width
            // A box without a height may take the rest of the page; it ends where its content does.
            let height = c.height ?? (c.fitsContent ? max(document.page.contentHeight - position.y, 1) : width)
            let box = ColumnFrame(x: m.left + position.x, top: m.top + position.y,
                                  bottom: m.top + position.y + height, width: width)
            flow.positioned = (region, pendingSpace)
            region = FlowRegion(frame: box)
            region.skip(0.001)  // not a column top: the first paragraph's space-before places the text in the box
            pendingSpace = 0
            flow.container = (c.shape.scaled(width: width, height: height).offset(dx: box.x, dy: box.top),
                              box.bottom, page.number, columnIndex)
            // The rest of the page flows around it (RT section 4), as around an `@exclude` of its shape.
            let afterContent = pageHasContent || columnIndex > 0
            if let margin = c.wrapMargin, c.fitsContent {
                flow.pendingWrap = (index, position.x, position.y, width, margin, afterContent)
            } else if let margin = c.wrapMargin {
                let shape = c.shape.scaled(width: width, height: height).offset(dx: position.x, dy: position.y)
                register(Exclusion(shape: shape, pages: .this, margin: margin), at: index, afterContent: afterContent)
            }
        case .shapeStart(let c):
            var frame = region.frame
            let width = min(c.width ?? frame.width, frame.width), height = c.height ?? width
            var gap = region.isEmpty ? 0 : pendingSpace
            if !region.fits(gap + height) && !region.isEmpty {
                try nextColumn()
                frame = region.frame
                gap = 0
            }
            region.skip(gap)
            pendingSpace = 0
            let x = frame.x + (frame.width - width) / 2
            flow.container = (c.shape.scaled(width: width, height: height).offset(dx: x, dy: region.y),
                              region.y + height, page.number, columnIndex)
        case .shapeEnd where flow.positioned != nil:
            if let w = flow.pendingWrap {
                let used = region.y - (document.page.margins.top + w.y)
                let box = FlowShape.rect(x: w.x, y: w.y, width: w.width, height: max(used, 0))
                register(Exclusion(shape: box, pages: .this, margin: w.margin), at: w.index, afterContent: w.afterContent)
                flow.pendingWrap = nil
            }
            region = flow.positioned!.region
            pendingSpace = flow.positioned!.pendingSpace
            flow.positioned = nil
            flow.container = nil
        case .shapeEnd:
            if let c = flow.container, c.page == page.number, c.column == columnIndex, region.y < c.bottom {
                region.skip(c.bottom - region.y)
            }
            flow.container = nil
        case .float(let f):
            try placeFloat(f, at: index)
        case .boxStart(let b):
            try placeBoxStart(b)
        case .boxEnd:
            placeBoxEnd()
        default:
            break
        }
    }
}
