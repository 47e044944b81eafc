// The tagging stage's new file packs its own objects into compressed object streams and ends in a
// cross-reference stream (ObjectStreams.swift). Read back with qpdf: every object is where the table says,
// with the bytes it was given, whether packed, written plain because it grew large, or a stream.

import CPangoCairo
import CQpdf
import Foundation
import XCTest
@testable import TypesetPDF

final class ObjectStreamTests: XCTestCase {
    func testPlacesComeBackAsAdded() {
        var packed = PackedObjects()
        packed.add([5, 9, 7], stream: 40)
        packed.add([100_000], stream: 41)
        XCTAssertEqual(packed.place(9)?.stream, 40)
        XCTAssertEqual(packed.place(9)?.index, 1)
        XCTAssertEqual(packed.place(7)?.index, 2)
        XCTAssertEqual(packed.place(100_000)?.stream, 41)
        XCTAssertEqual(packed.place(100_000)?.index, 0)
        XCTAssertNil(packed.place(6))
        XCTAssertNil(packed.place(-1))
        XCTAssertNil(packed.place(1 << 40))
        XCTAssertFalse(packed.contains(40), "the stream itself is not packed")
    }

    func testStreamDataListsNumbersAndOffsetsFirst() {
        var pack = ObjectStreamPack()
        pack.entries = [(12, 0), (13, 6)]
        let (data, first) = pack.data(bodies: Array("<< >>\n[1 2]\n".utf8))
        XCTAssertEqual(String(decoding: data, as: UTF8.self), "12 0 13 6\n<< >>\n[1 2]\n")
        XCTAssertEqual(first, 10)
        var body = Array("<< /A 1 >>\nendobj\n".utf8)
        ObjectStreamPack.trimEnd(&body)
        XCTAssertEqual(String(decoding: body, as: UTF8.self), "<< /A 1 >>\n")
    }

    func testCrossReferenceEntriesAreTypeFieldAndIndex() {
        var packed = PackedObjects()
        packed.add([3], stream: 2)
        let deflate = DeflateStream()
        CrossReferenceStream.write(size: 4, width: 2, offset: { $0 == 1 ? 15 : $0 == 2 ? 0x1234 : nil },
                                   packed: packed, into: deflate)
        XCTAssertTrue(deflate.succeeded)
        var length = uLong(64)
        var out = [UInt8](repeating: 0, count: 64)
        XCTAssertEqual(uncompress(&out, &length, deflate.output, uLong(deflate.output.count)), Z_OK)
        XCTAssertEqual(Array(out[..<Int(length)]), [
            0, 0, 0, 0xFF, 0xFF,      // 0: free, generation 65535
            1, 0, 15, 0, 0,           // 1: at offset 15
            1, 0x12, 0x34, 0, 0,      // 2: at offset 0x1234
            2, 0, 2, 0, 0,            // 3: in stream 2, first
        ])
        XCTAssertEqual(CrossReferenceStream.width(largest: 255), 1)
        XCTAssertEqual(CrossReferenceStream.width(largest: 256), 2)
        XCTAssertEqual(CrossReferenceStream.width(largest: 1 << 32), 5)
    }

    /// A cairo file updated with small objects (packed), one that grows past a chunk (written plain), a stream
    /// between them, and enough small ones for several object streams: qpdf finds each with its bytes.
    func testPackedPlainAndStreamObjectsReadBack() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("objstm-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/a.pdf"
        let surface = cairo_pdf_surface_create(path, 100, 100)
        let cr = cairo_create(surface)
        cairo_rectangle(cr, 10, 10, 20, 20)
        cairo_fill(cr)
        cairo_show_page(cr)
        cairo_destroy(cr)
        cairo_surface_finish(surface)
        cairo_surface_destroy(surface)

        var update = try IncrementalUpdate(replacing: path)
        update.startPacking()
        var expected: [Int: String] = [:]
        for k in 0 ..< 1200 {
            let n = update.reserve()
            expected[n] = "[\(k) /Small]"
            try update.put(n, expected[n]!)
        }
        let large = update.reserve()
        let items = (0 ..< 60_000).map { "\($0)" }.joined(separator: " ")
        try update.begin(large)
        try update.write("[")
        for chunk in stride(from: 0, to: items.utf8.count, by: 10_000) {
            let utf8 = Array(items.utf8)
            try update.write(String(decoding: utf8[chunk ..< min(chunk + 10_000, utf8.count)], as: UTF8.self))
        }
        try update.write("]")
        try update.end()
        let stream = update.reserve()
        try update.putStream(stream, "/Kind /Test", Data("stream data".utf8))
        let after = update.reserve()
        expected[after] = "<< /After true >>"
        try update.put(after, expected[after]!)
        try update.stopPacking()
        try update.finish()

        let check = try PDFTool.run("qpdf", ["--check", path])
        XCTAssertTrue(check.contains("No syntax or stream encoding errors"), check)
        let xref = try PDFTool.run("qpdf", ["--show-xref", path])
        let compressed = xref.split(separator: "\n").filter { $0.contains("compressed; stream") }
        XCTAssertEqual(compressed.count, 1201, "the small objects and the last one are packed")
        XCTAssertGreaterThan(Set(compressed.map { $0.split(separator: ",").first ?? "" }).count, 2,
                             "in several object streams")
        XCTAssertTrue(xref.contains("\(large)/0: uncompressed"), "the large object is written plain")
        XCTAssertTrue(xref.contains("\(stream)/0: uncompressed"))
        let numbers = expected.keys.sorted()
        for n in [numbers[0], numbers[600], numbers[numbers.count - 2], after] {
            let shown = try PDFTool.run("qpdf", ["--show-object=\(n)", path]).trimmingCharacters(in: .whitespacesAndNewlines)
            XCTAssertEqual(shown.replacingOccurrences(of: " ", with: ""), expected[n]?.replacingOccurrences(of: " ", with: ""))
        }
        let largeShown = try PDFTool.run("qpdf", ["--show-object=\(large)", path])
        XCTAssertTrue(largeShown.hasPrefix("[ 0 1 2") && largeShown.contains("59999 ]"), String(largeShown.prefix(40)))
        XCTAssertEqual(try PDFTool.run("qpdf", ["--show-object=\(stream)", "--raw-stream-data", path]), "stream data")
    }
}
