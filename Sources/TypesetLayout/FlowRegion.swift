// Where lines go. The paginator only asks a region "does a line of height h fit, and where is its slot?",
// so a region whose width varies down the column (exclusion paths, shapes) can replace this one later:
// it would hand out narrower slots and the paragraph would be re-broken at the slot's width.

import TypesetIR

/// A column rectangle on a page, points, y down.
public struct ColumnFrame: Sendable, Equatable {
    public var x: Double
    public var top: Double
    public var bottom: Double
    public var width: Double
    public var height: Double { bottom - top }
}

/// The space one line occupies.
struct LineSlot {
    var x: Double
    var top: Double
    var width: Double
}

/// A column being filled from top to bottom.
struct FlowRegion {
    static let epsilon = 0.001

    let frame: ColumnFrame
    /// Top of the next line box.
    private(set) var y: Double
    /// Nothing placed yet: space before a block is dropped here.
    private(set) var isEmpty = true
    /// Bottom of the text area: the frame's bottom less the footnotes at its foot (FootnoteArea.swift).
    private(set) var floor: Double

    init(frame: ColumnFrame) {
        self.frame = frame
        y = frame.top
        floor = frame.bottom
    }

    /// Height left between the next line's top and the bottom of the text area.
    var remaining: Double { floor - y }

    func fits(_ height: Double) -> Bool { y + height <= floor + FlowRegion.epsilon }

    /// Footnotes take the column's foot up to `value`.
    mutating func setFloor(_ value: Double) { floor = min(value, frame.bottom) }

    /// Takes a slot `height` tall after `gap` of space; the next slot starts `advance` below its top.
    mutating func take(gap: Double, height: Double, advance: Double) -> LineSlot {
        let top = y + gap
        y = top + advance
        isEmpty = false
        return LineSlot(x: frame.x, top: top, width: frame.width)
    }

    /// Moves down `dy` with nothing placed (past a shape nothing fits beside).
    mutating func skip(_ dy: Double) {
        y += dy
        if dy > 0 { isEmpty = false }
    }

    /// The column frames of a page, left to right.
    static func columns(of geometry: PageGeometry) -> [ColumnFrame] {
        let n = max(geometry.columns, 1)
        let width = geometry.columnWidth
        let top = geometry.margins.top
        let bottom = geometry.height - geometry.margins.bottom
        return (0..<n).map { i in
            ColumnFrame(x: geometry.margins.left + Double(i) * (width + geometry.columnGap), top: top, bottom: bottom,
                        width: width)
        }
    }
}
