import Foundation
import TypesetIR
@testable import TypesetLayout
import XCTest

/// Concave polygons: text enters a notch wide enough, and never the polygon itself.
final class ConcavePolygonTests: XCTestCase {
    private let m = PageGeometry().margins
    private let words = "Text enters the notch of the shape when the notch is wide enough for a word or two. "

    /// A "U" in content coordinates: arms 150-200 and 300-350 wide, 100-400 tall, the notch open at the top.
    private let u = "polygon(150pt 100pt, 200pt 100pt, 200pt 300pt, 300pt 300pt, 300pt 100pt, 350pt 100pt, 350pt 400pt, 150pt 400pt)"
    private var parts: [(x0: Double, y0: Double, x1: Double, y1: Double)] {
        [(150, 100, 200, 400), (300, 100, 350, 400), (150, 300, 350, 400)].map { ($0.0 + m.left, $0.1 + m.top, $0.2 + m.left, $0.3 + m.top) }
    }

    func testTextFlowsIntoTheNotchOfAUShapedExclusionButNeverIntoTheShape() {
        let (pages, _) = layOut("@exclude \(u)\n\n" + String(repeating: words, count: 30) + "\n")
        let lines = pages[0].lines
        for line in lines {
            let x0 = line.x, x1 = line.x + line.box.width, y0 = line.top, y1 = line.top + line.box.height
            for r in parts {
                XCTAssertFalse(x0 < r.x1 - 0.5 && x1 > r.x0 + 0.5 && y0 < r.y1 - 0.5 && y1 > r.y0 + 0.5,
                               "a line at \(x0)-\(x1), \(y0)-\(y1) enters the polygon")
            }
        }
        let notch = lines.filter { $0.x >= 200 + m.left - 0.5 && $0.x + $0.box.width <= 300 + m.left + 0.5
            && $0.top >= 100 + m.top && $0.top + $0.box.height <= 300 + m.top }
        XCTAssertGreaterThanOrEqual(notch.count, 8, "text fills the notch")
    }

    func testInsideAConcaveContainerEachBandGetsThePiecesOfBothArms() {
        let p = [0.0, 0, 100, 0, 100, 100, 0, 100, 0, 60, 60, 60, 60, 40, 0, 40]  // a "C" opening to the left
        let band = PolygonBand.inside(p, top: 10, bottom: 20)
        XCTAssertEqual(band.count, 1)
        XCTAssertEqual(band[0].0, 0, accuracy: 1e-9)
        XCTAssertEqual(band[0].1, 100, accuracy: 1e-9)
        let notch = PolygonBand.inside(p, top: 45, bottom: 55)
        XCTAssertEqual(notch.count, 1)
        XCTAssertEqual(notch[0].0, 60, accuracy: 1e-9, "the notch is not inside")
        XCTAssertTrue(PolygonBand.inside(p, top: 35, bottom: 45).allSatisfy { $0.0 >= 60 - 1e-9 }, "a band across the notch's edge")
        let covered = PolygonBand.covered([0, 0, 40, 0, 40, 100, 60, 100, 60, 0, 100, 0, 100, 120, 0, 120], top: 50, bottom: 60)
        XCTAssertEqual(covered.count, 2, "a U's arms, not its notch")
    }
}

/// `@exclude` without a shape or with a bad one: a warning where the problem is, and the document renders.
final class ExcludeDiagnosticTests: XCTestCase {
    func testMissingAndBadShapesAreWarningsAtTheirLocation() {
        let source = "Intro.\n\n@exclude\n\nText.\n\n@exclude   blob(1, 2)\n\n@exclude rect(1pt, 2pt)\n\n@exclude circle(1pt, 2pt, 3pt) pages=x\n"
        let (pages, diagnostics) = layOut(source)
        XCTAssertEqual(pages.count, 1)
        XCTAssertTrue(diagnostics.allSatisfy { $0.severity == .warning }, "\(diagnostics)")
        let found = diagnostics.map { d in "\(d.location!.line):\(d.location!.column) \(d.message.prefix(24))" }
        XCTAssertEqual(found.sorted(), ["11:32 bad value 'x' for 'pages", "3:1 @exclude needs a shape: ",
                                        "7:12 unknown @exclude shape \'", "9:1 bad @exclude shape 'rect"].sorted())
    }
}
