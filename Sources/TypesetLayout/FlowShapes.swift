// Shape geometry for text flow: the horizontal extent of a shape over a line's band (what an exclusion
// takes away), the span fully inside a shape over a band (what a shaped container offers), and the free
// intervals of a line once both are applied. Exact interval math, no polygon approximation of curves.

import Foundation
import TypesetIR

extension FlowShape {
    func offset(dx: Double, dy: Double) -> FlowShape {
        switch self {
        case let .rect(x, y, w, h): return .rect(x: x + dx, y: y + dy, width: w, height: h)
        case let .circle(cx, cy, r): return .circle(cx: cx + dx, cy: cy + dy, r: r)
        case let .ellipse(cx, cy, rx, ry): return .ellipse(cx: cx + dx, cy: cy + dy, rx: rx, ry: ry)
        case .polygon(let p): return .polygon(p.enumerated().map { $0.offset % 2 == 0 ? $0.element + dx : $0.element + dy })
        }
    }

    /// A shape given in fractions of a box, in the box's coordinates (a circle in a non-square box is the
    /// largest circle centred in it).
    func scaled(width: Double, height: Double) -> FlowShape {
        switch self {
        case let .rect(x, y, w, h): return .rect(x: x * width, y: y * height, width: w * width, height: h * height)
        case let .circle(cx, cy, r): return .circle(cx: cx * width, cy: cy * height, r: r * min(width, height))
        case let .ellipse(cx, cy, rx, ry): return .ellipse(cx: cx * width, cy: cy * height, rx: rx * width, ry: ry * height)
        case .polygon(let p): return .polygon(p.enumerated().map { $0.offset % 2 == 0 ? $0.element * width : $0.element * height })
        }
    }

    /// Top and bottom of the shape.
    var verticalExtent: (top: Double, bottom: Double) {
        switch self {
        case let .rect(_, y, _, h): return (y, y + h)
        case let .circle(_, cy, r): return (cy - r, cy + r)
        case let .ellipse(_, cy, _, ry): return (cy - ry, cy + ry)
        case .polygon(let p):
            let ys = stride(from: 1, to: p.count, by: 2).map { p[$0] }
            return (ys.min() ?? 0, ys.max() ?? 0)
        }
    }

    /// The x range the shape grown by `margin` covers anywhere in the band `top...bottom`; nil if it misses.
    /// Polygons: the range of the polygon within the band widened by `margin` (a superset of the true
    /// grown shape, so text never comes closer than `margin`).
    func outerSpan(top: Double, bottom: Double, margin m: Double) -> (Double, Double)? {
        switch self {
        case let .rect(x, y, w, h):
            guard bottom > y - m, top < y + h + m else { return nil }
            return (x - m, x + w + m)
        case let .circle(cx, cy, r):
            return FlowShape.ellipseOuter(cx: cx, cy: cy, rx: r + m, ry: r + m, top: top, bottom: bottom)
        case let .ellipse(cx, cy, rx, ry):
            return FlowShape.ellipseOuter(cx: cx, cy: cy, rx: rx + m, ry: ry + m, top: top, bottom: bottom)
        case .polygon(let p):
            let t = top - m, b = bottom + m
            var lo = Double.infinity, hi = -Double.infinity
            let n = p.count / 2
            for i in 0..<n {
                let x1 = p[2 * i], y1 = p[2 * i + 1], x2 = p[2 * ((i + 1) % n)], y2 = p[2 * ((i + 1) % n) + 1]
                // The part of this edge inside the band.
                let ya = min(y1, y2), yb = max(y1, y2)
                guard yb >= t, ya <= b else { continue }
                func x(at y: Double) -> Double { y2 == y1 ? x1 : x1 + (x2 - x1) * (y - y1) / (y2 - y1) }
                for y in [max(ya, t), min(yb, b)] {
                    let v = y2 == y1 ? x1 : x(at: y)
                    lo = min(lo, v); hi = max(hi, v)
                    if y2 == y1 { lo = min(lo, x2); hi = max(hi, x2) }
                }
            }
            guard lo <= hi else { return nil }
            return (lo - m, hi + m)
        }
    }

    private static func ellipseOuter(cx: Double, cy: Double, rx: Double, ry: Double, top: Double,
                                     bottom: Double) -> (Double, Double)? {
        guard bottom > cy - ry, top < cy + ry else { return nil }
        let dy = (top <= cy && cy <= bottom) ? 0 : min(abs(top - cy), abs(bottom - cy))
        let half = rx * (1 - (dy / ry) * (dy / ry)).squareRoot()
        return (cx - half, cx + half)
    }

    /// The x range inside the shape at every height of the band; nil if there is none.
    /// Polygons are taken as convex here (outermost crossings); FreeIntervals uses PolygonBand for them.
    func innerSpan(top: Double, bottom: Double) -> (Double, Double)? {
        let extent = verticalExtent
        guard top >= extent.top - 0.001, bottom <= extent.bottom + 0.001 else { return nil }
        switch self {
        case let .rect(x, _, w, _): return (x, x + w)
        case let .circle(cx, cy, r): return FlowShape.ellipseInner(cx: cx, cy: cy, rx: r, ry: r, top: top, bottom: bottom)
        case let .ellipse(cx, cy, rx, ry): return FlowShape.ellipseInner(cx: cx, cy: cy, rx: rx, ry: ry, top: top, bottom: bottom)
        case .polygon(let p):
            var ys = [top, bottom]
            for i in stride(from: 1, to: p.count, by: 2) where p[i] > top && p[i] < bottom { ys.append(p[i]) }
            var lo = -Double.infinity, hi = Double.infinity
            for y in ys {
                guard let span = FlowShape.polygonSpan(p, at: min(max(y, extent.top + 0.001), extent.bottom - 0.001)) else { return nil }
                lo = max(lo, span.0); hi = min(hi, span.1)
            }
            return lo < hi ? (lo, hi) : nil
        }
    }

    private static func ellipseInner(cx: Double, cy: Double, rx: Double, ry: Double, top: Double,
                                     bottom: Double) -> (Double, Double)? {
        let dy = max(abs(top - cy), abs(bottom - cy))
        guard dy < ry else { return nil }
        let half = rx * (1 - (dy / ry) * (dy / ry)).squareRoot()
        return (cx - half, cx + half)
    }

    /// Outermost crossings of the horizontal line at `y` with the polygon's edges.
    private static func polygonSpan(_ p: [Double], at y: Double) -> (Double, Double)? {
        let n = p.count / 2
        var lo = Double.infinity, hi = -Double.infinity
        for i in 0..<n {
            let x1 = p[2 * i], y1 = p[2 * i + 1], x2 = p[2 * ((i + 1) % n)], y2 = p[2 * ((i + 1) % n) + 1]
            guard min(y1, y2) <= y, max(y1, y2) >= y, y1 != y2 else { continue }
            let x = x1 + (x2 - x1) * (y - y1) / (y2 - y1)
            lo = min(lo, x); hi = max(hi, x)
        }
        return lo < hi ? (lo, hi) : nil
    }
}

/// A shape on a page, in page coordinates.
struct PlacedShape {
    var shape: FlowShape
    var margin: Double
}

enum FreeIntervals {
    /// The pieces of `base` (an x range) left free over the band `top...bottom`: inside `container` when
    /// given, outside every exclusion. Pieces narrower than `minimum` are dropped.
    static func compute(base: (Double, Double), top: Double, bottom: Double, container: FlowShape?,
                        exclusions: [PlacedShape], minimum: Double) -> [(x: Double, width: Double)] {
        var pieces = [(base.0, base.1)]
        if let container {
            // A polygon may be concave: inside it, a band can hold several pieces.
            let inner: [(Double, Double)]
            if case .polygon(let p) = container { inner = PolygonBand.inside(p, top: top, bottom: bottom) }
            else { inner = container.innerSpan(top: top, bottom: bottom).map { [$0] } ?? [] }
            pieces = PolygonBand.intersect(pieces, inner)
        }
        for exclusion in exclusions {
            let cuts: [(Double, Double)]
            if case .polygon(let p) = exclusion.shape {
                // Each covered range of the band, grown by the margin (a superset of the grown polygon).
                let m = exclusion.margin
                cuts = PolygonBand.merged(PolygonBand.covered(p, top: top - m, bottom: bottom + m).map { ($0.0 - m, $0.1 + m) })
            } else {
                cuts = exclusion.shape.outerSpan(top: top, bottom: bottom, margin: exclusion.margin).map { [$0] } ?? []
            }
            for cut in cuts {
                pieces = pieces.flatMap { piece -> [(Double, Double)] in
                    guard cut.1 > piece.0, cut.0 < piece.1 else { return [piece] }
                    var out: [(Double, Double)] = []
                    if cut.0 > piece.0 { out.append((piece.0, cut.0)) }
                    if cut.1 < piece.1 { out.append((cut.1, piece.1)) }
                    return out
                }
            }
        }
        return pieces.filter { $0.1 - $0.0 >= minimum }.map { (x: $0.0, width: $0.1 - $0.0) }
    }
}
