// The tagging stage compresses page content at zlib level 1 unless qpdf would read the result with the warning
// "input stream is complete but output may still be valid" (Deflate.readsCleanlyInQPDF models how qpdf 11
// inflates). The fixture is a page stream from a fuzzed document (pipeline fuzz seed 240107267) that the model
// first passed and `qpdf --check` warned about: the model is checked against qpdf itself here.

import Foundation
import XCTest
import CQpdf
@testable import TypesetPDF

final class QPDFInflateModelTests: XCTestCase {
    private func fixture() throws -> [UInt8] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/flate/qpdf-boundary-page-stream.bin")
        return [UInt8](try Data(contentsOf: url))
    }

    private func inflated(_ compressed: [UInt8]) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 1 << 20)
        var length = uLongf(out.count)
        let status = uncompress(&out, &length, compressed, uLong(compressed.count))
        XCTAssertEqual(status, Z_OK)
        return Array(out.prefix(Int(length)))
    }

    /// A one-page PDF whose page content is `stream` (zlib data), with a correct cross-reference table.
    private func pdf(content stream: [UInt8], name: String) throws -> String {
        var bytes = Array("%PDF-1.5\n".utf8)
        var offsets: [Int] = []
        func object(_ text: String, stream: [UInt8]? = nil) {
            offsets.append(bytes.count)
            bytes += Array("\(offsets.count) 0 obj\n\(text)\n".utf8)
            if let stream { bytes += Array("stream\n".utf8) + stream + Array("\nendstream\n".utf8) }
            bytes += Array("endobj\n".utf8)
        }
        object("<< /Type /Catalog /Pages 2 0 R >>")
        object("<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
        object("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << >> /Contents 4 0 R >>")
        object("<< /Filter /FlateDecode /Length \(stream.count) >>", stream: stream)
        let xref = bytes.count
        bytes += Array("xref\n0 \(offsets.count + 1)\n0000000000 65535 f \n".utf8)
        for offset in offsets { bytes += Array(String(format: "%010d 00000 n \n", offset).utf8) }
        bytes += Array("trailer\n<< /Size \(offsets.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n".utf8)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("inflate-model-\(name)-\(UUID().uuidString).pdf").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    func testTheModelSeesTheStreamQPDFWarnsAbout() throws {
        let compressed = try fixture()
        XCTAssertFalse(compressed.withUnsafeBytes(Deflate.readsCleanlyInQPDF))
        let check = try PDFTool.qpdfCheck(try pdf(content: compressed, name: "fixture"))
        XCTAssertTrue(check.output.contains("input stream is complete but output may still be valid"), check.output)
    }

    func testTheStageCompressesThatPageSoQPDFReadsItCleanly() throws {
        let content = try inflated(try fixture())
        XCTAssertGreaterThan(content.count, 300_000)
        let packed = try XCTUnwrap(Deflate.fast(Data(content)))
        XCTAssertNotEqual([UInt8](packed), try fixture(), "zlib level 1 alone gives the stream qpdf warns about")
        XCTAssertTrue(packed.withUnsafeBytes(Deflate.readsCleanlyInQPDF))
        XCTAssertEqual(try inflated([UInt8](packed)), content)
        let check = try PDFTool.qpdfCheck(try pdf(content: [UInt8](packed), name: "packed"))
        XCTAssertEqual(check.status, 0, check.output)
        XCTAssertFalse(check.output.contains("WARNING"), check.output)
    }
}
