// The tagging stage writes link annotations, structure elements and the cross-reference table as bytes
// (PDFBytes.swift) instead of interpolated strings (issue 8: 50,000 links). The bytes must be what the string
// versions wrote, so the files stay the same.

import TypesetIR
@testable import TypesetLayout
import XCTest
@testable import TypesetPDF

final class PDFBytesTests: XCTestCase {
    private func bytes(_ make: (inout [UInt8]) -> Void) -> String {
        var out: [UInt8] = []
        make(&out)
        return String(decoding: out, as: UTF8.self)
    }

    func testIntegersReferencesAndXrefEntriesMatchTheStringForms() {
        for n in [0, 7, 9, 10, 99, 100, 12_345, 9_999_999_999, 10_000_000_000, Int.max, -1, -450, Int.min] {
            XCTAssertEqual(bytes { $0.appendInt(n) }, String(n))
            XCTAssertEqual(bytes { $0.appendRef(n) }, PDFSyntax.ref(n))
        }
        for offset in [0, 9, 15, 1_234_567, 9_999_999_999, 12_345_678_901] {
            XCTAssertEqual(bytes { $0.appendXrefEntry(offset) }, PDFSyntax.xrefEntry(offset))
        }
    }

    func testTextStringsMatchTheStringForm() {
        for s in ["", "a (b) c\\d", "plain", "Größe", "tab\there", "\u{7F}", "日本語 (x)"] {
            XCTAssertEqual(bytes { $0.appendPDFText(s) }, PDFSyntax.text(s))
        }
    }

    /// The annotation as the string version wrote it: rect rounded outwards, quad points to a thousandth,
    /// the URI percent-encoded where cairo 1.16 would break the string, the contents escaped.
    func testLinkAnnotationBytes() {
        let area = LinkArea(target: .url("https://x.org/a b(c)"), x: 72.5, y: 100.25, width: 10.125, height: 12)
        XCTAssertEqual(PDFLinks.annotation(area, structParent: 7, pageHeight: 842),
                       #"<< /Type /Annot /Subtype /Link /Rect [72 729 83 742] /QuadPoints [72.5 741.75 82.625 741.75 "#
                       + #"82.625 729.75 72.5 729.75] /BS << /W 0 >> /A << /Type /Action /S /URI "#
                       + #"/URI (https://x.org/a%20b%28c%29) >> /StructParent 7 /Contents (Link to https://x.org/a b\(c\)) /F 4 >>"#)
        let named = LinkArea(target: .destination("größe"), x: 0, y: 0, width: 1, height: 1)
        XCTAssertEqual(PDFLinks.annotation(named, structParent: 0, pageHeight: 10),
                       "<< /Type /Annot /Subtype /Link /Rect [0 9 1 10] /QuadPoints [0 10 1 10 1 9 0 9] /BS << /W 0 >> "
                       + "/Dest (gr%C3%B6%C3%9Fe) /StructParent 0 /Contents \(PDFSyntax.text("Link to #größe")) /F 4 >>")
    }
}

/// The cursor writes what the array appends wrote (PDFLinks.putNumber and friends, issue 8).
final class ByteCursorTests: XCTestCase {
    func testNumbersMatchTheArrayForms() {
        let values: [Double] = [0, 1, 9.5, 10, 56.693, 785.017, -3, -0.001, 0.05, 0.005, 12.5, 999.999, 1000, 123_456.789,
                                -98_765.4321, 1e13, 2e15, .infinity, .nan, 72.0005, 842]
        for v in values {
            var a: [UInt8] = []
            PDFLinks.appendNumber(v, to: &a)
            var b: [UInt8] = []
            b.appendWriting(maximum: 32) { PDFLinks.putNumber(v, to: &$0) }
            XCTAssertEqual(String(decoding: b, as: UTF8.self), String(decoding: a, as: UTF8.self), "\(v)")
        }
        for n in [0, 5, 10, 99, 100, 999, 1000, 12_345, Int.max, -1, -1000, Int.min] {
            var b: [UInt8] = [0x41]
            b.appendWriting(maximum: 24) { $0.putInt(n) }
            XCTAssertEqual(String(decoding: b, as: UTF8.self), "A" + String(n))
        }
    }

    func testAnnotationWithNamedDestinationAndUnicodeContents() {
        let area = LinkArea(target: .destination("Größe 1"), x: 10, y: 20, width: 30, height: 12)
        let text = PDFLinks.annotation(area, structParent: 3, pageHeight: 100)
        XCTAssertTrue(text.contains("/Dest (Gr%C3%B6%C3%9Fe%201)"), text)
        XCTAssertTrue(text.contains("/Contents " + PDFSyntax.text("Link to #Größe 1") + " /F 4 >>"), text)
    }
}
