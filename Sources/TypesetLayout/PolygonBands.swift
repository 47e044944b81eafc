// Exact free intervals of a polygon over a line's band, for concave polygons too (a "U" or "C" shape has a
// notch that text may enter). The band is cut at every vertex y inside it; within each slice no vertex
// lies, so every edge crossing it is a straight segment and the polygon's cross-section is a fixed set of
// edge pairs (even-odd) whose ends move linearly: their extremes sit at the slice's top or bottom.

import Foundation

enum PolygonBand {
    /// The x ranges the polygon covers anywhere in `top...bottom` (union over the band), merged.
    static func covered(_ p: [Double], top: Double, bottom: Double) -> [(Double, Double)] {
        var out: [(Double, Double)] = []
        for slice in slices(p, top: top, bottom: bottom) {
            for (l, r) in slice { out.append((min(l.0, l.1), max(r.0, r.1))) }
        }
        // A horizontal edge lying in the band (the top of a shape just under the band) is covered too.
        let n = p.count / 2
        for i in 0..<n {
            let y1 = p[2 * i + 1], y2 = p[2 * ((i + 1) % n) + 1]
            if y1 == y2, y1 >= top, y1 <= bottom {
                let x1 = p[2 * i], x2 = p[2 * ((i + 1) % n)]
                out.append((min(x1, x2), max(x1, x2)))
            }
        }
        return merged(out)
    }

    /// The x ranges inside the polygon at every height of `top...bottom` (intersection over the band).
    static func inside(_ p: [Double], top: Double, bottom: Double) -> [(Double, Double)] {
        let ys = stride(from: 1, to: p.count, by: 2).map { p[$0] }
        guard let low = ys.min(), let high = ys.max(), top >= low - 0.001, bottom <= high + 0.001 else { return [] }
        var result: [(Double, Double)]? = nil
        for slice in slices(p, top: max(top, low), bottom: min(bottom, high)) {
            let spans = slice.compactMap { (l, r) -> (Double, Double)? in
                let a = max(l.0, l.1), b = min(r.0, r.1)
                return a < b ? (a, b) : nil
            }
            result = result.map { intersect($0, spans) } ?? spans
        }
        return result ?? []
    }

    /// For each slice of the band: the cross-section's edge pairs, each as (left x at slice top, at slice
    /// bottom) and (right x at top, at bottom).
    private static func slices(_ p: [Double], top: Double, bottom: Double) -> [[((Double, Double), (Double, Double))]] {
        let n = p.count / 2
        guard n >= 3, bottom >= top else { return [] }
        var cuts = [top, bottom]
        for i in 0..<n where p[2 * i + 1] > top && p[2 * i + 1] < bottom { cuts.append(p[2 * i + 1]) }
        cuts.sort()
        var out: [[((Double, Double), (Double, Double))]] = []
        for k in 0..<(cuts.count - 1) {
            let y0 = cuts[k], y1 = cuts[k + 1]
            guard y1 > y0 || cuts.count == 2 else { continue }
            let mid = (y0 + y1) / 2
            var crossings: [(mid: Double, y0: Double, y1: Double)] = []
            for i in 0..<n {
                let ax = p[2 * i], ay = p[2 * i + 1], bx = p[2 * ((i + 1) % n)], by = p[2 * ((i + 1) % n) + 1]
                guard min(ay, by) < mid, max(ay, by) > mid else { continue }
                func x(_ y: Double) -> Double { ax + (bx - ax) * (y - ay) / (by - ay) }
                crossings.append((x(mid), x(y0), x(y1)))
            }
            crossings.sort { $0.mid < $1.mid }
            var pairs: [((Double, Double), (Double, Double))] = []
            var j = 0
            while j + 1 < crossings.count {
                pairs.append(((crossings[j].y0, crossings[j].y1), (crossings[j + 1].y0, crossings[j + 1].y1)))
                j += 2
            }
            out.append(pairs)
        }
        return out
    }

    static func merged(_ spans: [(Double, Double)]) -> [(Double, Double)] {
        var out: [(Double, Double)] = []
        for s in spans.sorted(by: { $0.0 < $1.0 }) {
            if let last = out.last, s.0 <= last.1 { out[out.count - 1].1 = max(last.1, s.1) } else { out.append(s) }
        }
        return out
    }

    static func intersect(_ a: [(Double, Double)], _ b: [(Double, Double)]) -> [(Double, Double)] {
        var out: [(Double, Double)] = []
        for x in a {
            for y in b {
                let lo = max(x.0, y.0), hi = min(x.1, y.1)
                if lo < hi { out.append((lo, hi)) }
            }
        }
        return merged(out)
    }
}
