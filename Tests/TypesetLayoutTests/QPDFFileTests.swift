// qpdf reads a small file from a memory mapping (no system call per object) and a large one through stdio
// (its mapped pages would add its size to the peak): both give the same objects, and letting the mapped pages
// go does not change what is read afterwards.

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

    func testALargeFileIsReadThroughStdioWithTheSameObjects() throws {
        let path = makePDF("large.pdf", pages: 3, noise: 1000)
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        XCTAssertGreaterThan(size, QPDFFile.mappedLimit)
        let pdf = try QPDFFile(path: path)
        XCTAssertFalse(pdf.isMapped)
        XCTAssertEqual(pdf.pageCount, 3)
        XCTAssertTrue((0 ..< 3).allSatisfy { (contents(pdf, page: $0)?.count ?? 0) > 0 })
    }

    func testAFileThatIsNotAPDFIsAnError() throws {
        let path = dir + "/not.pdf"
        try Data("not a pdf at all\n".utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try QPDFFile(path: path))
    }
}
