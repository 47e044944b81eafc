// The tagging stage leaves cairo's own structure tree out of the file (CairoStructureTree.swift): which objects
// are cairo's tree, read from objects written as cairo 1.16 writes them, and which are kept.

@testable import TypesetPDF
import XCTest

final class CairoStructureTreeTests: XCTestCase {
    func testReferencesAreNumberGenerationR() {
        func refs(_ s: String) -> [Int] { CairoStructureTree.references(in: Array(s.utf8)[...]) }
        XCTAssertEqual(refs("/K [ 3 0 R 4 0 R ]"), [3, 4])
        XCTAssertEqual(refs("<< /Nums [\n   0 12 0 R\n   1 13 0 R\n  ]\n>>"), [12, 13])
        XCTAssertEqual(refs("<< /Length 5 0 R/Filter /FlateDecode >>"), [5])
        XCTAssertEqual(refs("<< /Type /MCR /Pg 7 0 R /MCID 2 >>"), [7])
        XCTAssertEqual(refs("12 0 obj\n<< /K 3 >>"), [], "an object's header and an MCID are not references")
        XCTAssertEqual(refs("/R 1 0 /Rx 2 0 R"), [2], "names are not the keyword R")
        XCTAssertEqual(refs("[1 0 R]"), [1])
        XCTAssertEqual(refs("99999999999999999999999 0 R").count, 1, "a number too long for Int does not trap")
    }

    /// A small file as cairo writes it: catalog 1, pages 2 and 3, an annotation 4, elements 10-13, the parent
    /// tree 20 with page arrays 21 and 22, the root 30, and a font 40 that is not the tree's.
    private let objects: [Int: String] = [
        1: "<< /Type /Catalog /Pages 5 0 R /StructTreeRoot 30 0 R >>",
        2: "<< /Type /Page /Parent 5 0 R /StructParents 0 >>",
        3: "<< /Type /Page /Parent 5 0 R /StructParents 1 >>",
        4: "<< /Type /Annot /Subtype /Link /StructParent 2 >>",
        10: "<< /Type /StructElem\n   /S /Document\n   /P 30 0 R\n   /K [ 11 0 R 12 0 R ]\n>>",
        11: "<< /Type /StructElem\n   /S /P\n   /P 10 0 R\n   /Pg 2 0 R\n   /K 0\n>>",
        12: "<< /Type /StructElem\n   /S /Link\n   /P 10 0 R\n   /Pg 2 0 R\n   /K [ 4 0 R 1 ]\n>>",
        13: "<< /Type /StructElem\n   /S /P\n   /P 10 0 R\n   /Pg 3 0 R\n   /K [ 0 \n       << /Type /MCR /Pg 2 0 R /MCID 3 >> ]\n>>",
        20: "<< /Nums [\n   0 21 0 R\n   1 22 0 R\n   2 12 0 R\n  ]\n>>",
        21: "[\n  11 0 R\n  12 0 R\n]",
        22: "[\n  13 0 R\n]",
        30: "<< /Type /StructTreeRoot\n   /ParentTree 20 0 R\n   /K [ 10 0 R ]\n>>",
        40: "<< /Type /Font /Subtype /Type0 /BaseFont /DejaVuSerif >>",
    ]

    private func found(root: Int, _ objects: [Int: String]) -> [Int] {
        func bytes(_ n: Int) -> [UInt8]? { objects[n].map { Array("\(n) 0 obj\n\($0)\nendobj\n".utf8) } }
        return CairoStructureTree.objects(root: root, heads: { body in
            for n in objects.keys.sorted() { body(n, bytes(n)!.prefix(64)) }
        }, bytes: bytes).sorted()
    }

    func testTheTreeItsParentTreeAndPageArraysAreFound() {
        XCTAssertEqual(found(root: 30, objects), [10, 11, 12, 13, 20, 21, 22, 30])
    }

    func testNothingIsFoundWhenTheRootIsNotCairos() {
        XCTAssertEqual(found(root: 1, objects), [], "the catalog is not a structure tree root")
        XCTAssertEqual(found(root: 99, objects), [], "no such object")
    }

    func testAnArrayThatHoldsMoreThanElementsIsKept() {
        var changed = objects
        changed[22] = "[\n  13 0 R\n  40 0 R\n]"
        XCTAssertEqual(found(root: 30, changed), [10, 11, 12, 13, 20, 21, 30])
    }

    func testAParentTreeNotAsCairoWritesItIsKept() {
        var changed = objects
        changed[20] = "<< /Kids [ 21 0 R ] >>"
        XCTAssertEqual(found(root: 30, changed), [10, 11, 12, 13, 30])
    }
}
