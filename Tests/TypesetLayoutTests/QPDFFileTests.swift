// qpdf reads cairo's file from a memory mapping (no system call per object), small or large: letting the mapped
// pages go does not change what is read afterwards, and the page tree read a few pages at a time
// (`pagesReadInTurn`) lists the pages qpdf lists, in its order.

import CPangoCairo
import Foundation
import XCTest
@testable import TypesetPDF

final class QPDFFileTests: XCTestCase {
    private var dir = ""

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("qpdffile-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// A cairo PDF of `pages` pages, each a filled rectangle, with an image of `noise` x `noise` random pixels
    /// on the first (random pixels do not compress: the file is at least 3 * noise^2 bytes).
    private func makePDF(_ name: String, pages: Int, noise: Int) -> String {
        let path = dir + "/" + name
        let surface = cairo_pdf_surface_create(path, 200, 200)
        let cr = cairo_create(surface)
        for page in 0 ..< pages {
            if page == 0 && noise > 0 {
                let image = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(noise), Int32(noise))
                cairo_surface_flush(image)
                let stride = Int(cairo_image_surface_get_stride(image))
                var generator = SystemRandomNumberGenerator()
                if let data = cairo_image_surface_get_data(image) {
                    for i in 0 ..< stride * noise { data[i] = UInt8.random(in: 0 ... 255, using: &generator) }
                }
                cairo_surface_mark_dirty(image)
                cairo_set_source_surface(cr, image, 0, 0)
                cairo_paint(cr)
                cairo_surface_destroy(image)
            }
            cairo_rectangle(cr, Double(page % 100), 10, 20, 20)
            cairo_fill(cr)
            cairo_show_page(cr)
        }
        cairo_destroy(cr)
        cairo_surface_finish(surface)
        cairo_surface_destroy(surface)
        return path
    }

    private func contents(_ pdf: QPDFFile, page: Int) -> Data? {
        pdf.streamData(pdf.key(pdf.page(page), "/Contents"))
    }

    func testASmallFileIsMappedAndReadsAlikeAfterItsPagesAreDropped() throws {
        let path = makePDF("small.pdf", pages: 30, noise: 0)
        let pdf = try QPDFFile(path: path)
        XCTAssertTrue(pdf.isMapped)
        XCTAssertEqual(pdf.pageCount, 30)
        let before = (0 ..< 30).map { contents(pdf, page: $0) }
        XCTAssertTrue(before.allSatisfy { ($0?.count ?? 0) > 0 })
        pdf.dropMappedPages()
        let after = (0 ..< 30).reversed().map { contents(pdf, page: $0) }.reversed()
        XCTAssertEqual(Array(after), before)
    }

    func testALargeFileIsMappedTooWithTheSameObjects() throws {
        let path = makePDF("large.pdf", pages: 3, noise: 1000)
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        XCTAssertGreaterThan(size, 3_000_000)
        let pdf = try QPDFFile(path: path)
        XCTAssertTrue(pdf.isMapped)
        XCTAssertEqual(pdf.pageCount, 3)
        let before = (0 ..< 3).map { contents(pdf, page: $0) }
        XCTAssertTrue(before.allSatisfy { ($0?.count ?? 0) > 0 })
        pdf.dropMappedPages()
        XCTAssertEqual((0 ..< 3).map { contents(pdf, page: $0) }, before)
    }

    func testPagesReadInTurnAreQPDFsPagesInOrder() throws {
        let path = makePDF("many.pdf", pages: 100, noise: 0)
        let pdf = try QPDFFile(path: path)
        let walked = try XCTUnwrap(pdf.pagesReadInTurn()).map(pdf.objectNumber)
        let listed = try QPDFFile(path: path)  // qpdf's own list, from a reader of its own
        XCTAssertEqual(walked.count, 100)
        XCTAssertEqual(walked, (0 ..< 100).map { listed.objectNumber(listed.page($0)) })
        // The handles read page by page serve the stage as qpdf's do.
        XCTAssertTrue(try XCTUnwrap(pdf.pagesReadInTurn()).allSatisfy { (pdf.streamData(pdf.key($0, "/Contents"))?.count ?? 0) > 0 })
    }

    /// A page tree of two levels (cairo writes one): the walk goes depth first, as qpdf does.
    func testPagesReadInTurnWalkANestedTreeInQPDFsOrder() throws {
        let path = dir + "/nested.pdf"
        try Data(Self.nestedTreePDF.utf8).write(to: URL(fileURLWithPath: path))
        let pdf = try QPDFFile(path: path)
        let walked = try XCTUnwrap(pdf.pagesReadInTurn()).map(pdf.objectNumber)
        XCTAssertEqual(walked, [4, 5, 6])
        XCTAssertEqual((0 ..< pdf.pageCount).map { pdf.objectNumber(pdf.page($0)) }, walked)
    }

    /// A tree that names a page twice is not walked (qpdf's own list is used then).
    func testPagesReadInTurnRefuseATreeThatRepeatsAPage() throws {
        let path = dir + "/repeated.pdf"
        try Data(Self.nestedTreePDF.replacingOccurrences(of: "/Kids [3 0 R 6 0 R]", with: "/Kids [3 0 R 4 0 R]").utf8)
            .write(to: URL(fileURLWithPath: path))
        XCTAssertNil(try QPDFFile(path: path).pagesReadInTurn())
    }

    /// Catalog 1, root node 2 with kids [3 (a node with pages 4 and 5), 6]. Offsets are left for qpdf to find
    /// (it rebuilds the cross-reference table of a file without one).
    private static let nestedTreePDF = """
        %PDF-1.4
        1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj
        2 0 obj << /Type /Pages /Kids [3 0 R 6 0 R] /Count 3 /MediaBox [0 0 100 100] >> endobj
        3 0 obj << /Type /Pages /Parent 2 0 R /Kids [4 0 R 5 0 R] /Count 2 >> endobj
        4 0 obj << /Type /Page /Parent 3 0 R >> endobj
        5 0 obj << /Type /Page /Parent 3 0 R >> endobj
        6 0 obj << /Type /Page /Parent 2 0 R >> endobj
        trailer << /Root 1 0 R /Size 7 >>
        %%EOF

        """

    func testAFileThatIsNotAPDFIsAnError() throws {
        let path = dir + "/not.pdf"
        try Data("not a pdf at all\n".utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try QPDFFile(path: path))
    }
}
