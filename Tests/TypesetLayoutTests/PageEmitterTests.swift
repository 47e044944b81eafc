// The page writer keeps what a page draws alive until the page is written: cairo's recording of the page holds
// only a copy-on-write snapshot of an SVG's recording surface, and destroying that surface on the main thread
// during the write crashed cairo_show_page (TYPESET_PAGE_WRITER race).

import CPangoCairo
import XCTest
@testable import TypesetPDF

final class PageEmitterTests: XCTestCase {
    private final class Drawn {}

    func testWhatAPageDrawsLivesUntilThePageIsWritten() throws {
        let surface = try XCTUnwrap(cairo_recording_surface_create(CAIRO_CONTENT_COLOR_ALPHA, nil))
        defer { cairo_surface_destroy(surface) }
        let cr = try XCTUnwrap(cairo_create(surface))
        defer { cairo_destroy(cr) }
        let emitter = PageEmitter(background: true)
        weak var watched: Drawn?
        do {
            let drawn = Drawn()
            watched = drawn
            emitter.showPage(cr, number: 1, keeping: drawn)
        }
        XCTAssertNotNil(watched, "released before the page was written")
        XCTAssertEqual(try emitter.wait(), 1)
        XCTAssertNil(watched, "kept after the page was written")
    }
}
