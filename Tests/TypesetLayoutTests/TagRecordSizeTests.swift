// What tagging keeps per marked-content sequence (issue 8: 7.5 MB of text in 16 narrow columns made 3 million
// sequences, ~300 MB of records). Counted, not timed: the records of a page of one paragraph do not grow with
// its lines, and the structure tree built from them reads back exactly what was recorded.

import TypesetIR
@testable import TypesetLayout
import XCTest
@testable import TypesetPDF

final class TagRecordSizeTests: XCTestCase {
    private let paragraph = [StructureNode(id: 1, type: "Sect"), StructureNode(id: 2, type: "P")]

    /// A page of `lines` lines of one paragraph, every other one ending in an added hyphen (a sequence of its
    /// own, continued by the hyphen's span), as 16 narrow columns make.
    private func page(lines: Int) -> (marks: PageMarks, silent: [UInt64], continuations: [Int: [Int]]) {
        var marks = PageMarks(), silent: [UInt64] = [], continuations: [Int: [Int]] = [:]
        for i in 0 ..< lines {
            if i % 2 == 0 {
                SilentMCIDs.insert(marks.count, into: &silent)
                continuations[marks.count] = [lines + i / 2]
            }
            marks.append(.content(paragraph))
        }
        return (marks, silent, continuations)
    }

    func testOneParagraphsSequencesAreOneRunWhateverTheirNumber() {
        for lines in [100, 1_000, 10_000] {
            let (marks, silent, _) = page(lines: lines)
            XCTAssertEqual(marks.count, lines)
            XCTAssertEqual(marks.runs.count, 1, "\(lines) lines")
            XCTAssertEqual(silent.count, (lines + 63) / 64, "one bit per sequence")
        }
        var mixed = PageMarks()
        let cell = { (id: Int) in [StructureNode(id: 10, type: "Table"), StructureNode(id: id, type: "TD")] }
        for id in 11 ... 20 { mixed.append(.content(cell(id))) }
        mixed.append(.artifact)
        mixed.append(.artifact)
        mixed.append(.content(cell(20)))
        XCTAssertEqual(mixed.runs.count, 10 + 1 + 1, "each cell its own run, artifacts together")
        XCTAssertEqual(mixed.count, 13)
    }

    func testTheTreeReadsBackEverySequenceInOrder() {
        let lines = 2_000
        let (marks, silentBits, map) = page(lines: lines)
        var silent = SilentMCIDs()
        silent.appendPage(silentBits)
        XCTAssertEqual(silent[0], Set(stride(from: 0, to: lines, by: 2)))
        let continuations = PageContinuations(map)
        XCTAssertEqual(Array(continuations.of(4)), [Int32(lines + 2)])
        XCTAssertTrue(continuations.of(5).isEmpty)

        let tree = StructureTree(pages: [marks, marks], continuations: [continuations, continuations])
        XCTAssertEqual(tree.elements.keys, [1, 2])
        XCTAssertEqual(tree.top, [1])
        XCTAssertEqual(tree.elements[1]?.children, [2])
        // Each sequence, then the span that continues it, page after page.
        var expected: [StructureTree.Content] = []
        for page in 0 ..< 2 {
            for i in 0 ..< lines {
                expected.append(.mcid(page: page, mcid: i))
                if i % 2 == 0 { expected.append(.mcid(page: page, mcid: lines + i / 2)) }
            }
        }
        XCTAssertEqual(Array(tree.elements[2]?.content ?? []), expected)
        XCTAssertEqual(tree.owners.count, 2)
        XCTAssertEqual(tree.ownerIDs(page: 1), [Int?](repeating: 2, count: lines + lines / 2))
    }

    func testLinksAndArtifactsKeepTheirPlaces() {
        var marks = PageMarks()
        marks.append(.artifact)
        marks.append(.content(paragraph))
        marks.append(.content(paragraph))
        let area = LinkArea(target: .destination("a"), x: 0, y: 0, width: 10, height: 10)
        var links = RecordedLinks()
        links.append(owner: paragraph, area: area)
        links.endPage()
        let tree = StructureTree(pages: [marks], links: links)
        // A link annotation takes no MCID: its Link element holds only the annotation, under the paragraph.
        XCTAssertEqual(tree.ownerIDs(page: 0), [nil, 2, 2])
        XCTAssertEqual(tree.linkElements.map { tree.id($0.element) }, [1 << 41])
        XCTAssertEqual(Array(tree.elements[1 << 41]?.content ?? []), [.annotation(page: 0, index: 0)])
        XCTAssertEqual(tree.elements.keys, [1, 2, 1 << 41])
        XCTAssertEqual(tree.elements[2]?.children, [1 << 41])
        XCTAssertEqual(Array(tree.elements[2]?.content ?? []), [.mcid(page: 0, mcid: 1), .mcid(page: 0, mcid: 2)])
    }

    /// A table's rows are one record (not a four-node path a cell, nor a record a row: issue 8), and the tree
    /// built from it is the one the paths make: Table > TBody > TR > TD, each cell owning its sequence(s).
    func testTableRowsKeepOneRecordEach() {
        let table = [StructureNode(id: 1, type: "Sect"), StructureNode(id: 2, type: "Table"), StructureNode(id: 3, type: "TBody")]
        var header = StructureNode(id: 0, type: "TH")
        header.scope = "Column"
        var marks = PageMarks()
        var id = 4
        var expectedOwners: [Int?] = []
        for row in 0 ..< 50 {
            let tr = StructureNode(id: id, type: "TR")
            for column in 0 ..< 3 {
                var cell = row == 0 ? header : StructureNode(id: 0, type: "TD")
                cell.id = id + 1 + column
                let path = table + [tr, cell]
                marks.append(.content(path))
                expectedOwners.append(cell.id)
                if column == 1 {  // a cell's second sequence (a line ending in an added hyphen)
                    marks.append(.content(path))
                    expectedOwners.append(cell.id)
                }
            }
            if row == 0 { marks.append(.artifact); expectedOwners.append(nil) }
            id += 4
        }
        XCTAssertEqual(marks.count, 50 * 4 + 1)
        XCTAssertEqual(marks.runs.count, 3, "the header row's record, the artifact, one record for the body rows")
        guard case .cells(let first) = marks.runs[0].mark, case .cells(let body) = marks.runs[2].mark
        else { return XCTFail("rows not packed") }
        XCTAssertEqual(first.rowCount, 1)
        XCTAssertEqual(body.rowCount, 49)
        XCTAssertEqual(body.sequences(ofRow: 1), 4 ..< 8, "each row's sequences, the second cell's two among them")
        XCTAssertEqual(first.nodes(0).last?.scope, "Column")
        XCTAssertEqual(body.nodes(5).map(\.id), [1, 2, 3, 12, 14])

        let tree = StructureTree(pages: [marks])
        XCTAssertEqual(tree.ownerIDs(page: 0), expectedOwners)
        XCTAssertEqual(tree.top, [1])
        XCTAssertEqual(tree.elements[2]?.children, [3])
        XCTAssertEqual(tree.elements[3]?.children, Array(stride(from: 4, to: 4 + 50 * 4, by: 4)))
        XCTAssertEqual(tree.elements[4]?.children, [5, 6, 7])
        XCTAssertEqual(tree.elements[5]?.node.scope, "Column")
        XCTAssertEqual(tree.elements[9]?.node.type, "TD")
        XCTAssertEqual(Array(tree.elements[10]?.content ?? []), [.mcid(page: 0, mcid: 6), .mcid(page: 0, mcid: 7)])
    }

    /// A link waits for the tagging stage in 40 bytes: its owner path and target are kept once while they
    /// repeat (a paragraph of links to one place holds one of each), and each one reads back as recorded.
    func testRecordedLinksKeepOwnersAndTargetsOnce() {
        XCTAssertEqual(MemoryLayout<RecordedLinks.Entry>.stride, 40)
        let other = [StructureNode(id: 1, type: "Sect"), StructureNode(id: 3, type: "P")]
        var links = RecordedLinks()
        for page in 0 ..< 3 {
            for k in 0 ..< 10_000 {
                let area = LinkArea(target: .url("/x"), x: Double(k), y: Double(page), width: 5, height: 12)
                links.append(owner: paragraph, area: area)
            }
            links.append(owner: other, area: LinkArea(target: .destination("a\(page)"), x: 1, y: 2, width: 3, height: 4))
            links.endPage()
        }
        XCTAssertEqual(links.pageCount, 3)
        XCTAssertEqual(links.count(page: 1), 10_001)
        // The paragraph's path and `/x` again after each page's last link: three of each kind, not 30,003.
        XCTAssertEqual(links.tableSizes.owners, 6)
        XCTAssertEqual(links.tableSizes.targets, 6)
        let area = links.area(page: 2, index: 9_999)
        XCTAssertEqual(area.target, .url("/x"))
        XCTAssertEqual([area.x, area.y, area.width, area.height], [9_999, 2, 5, 12])
        XCTAssertEqual(links.area(page: 1, index: 10_000).target, .destination("a1"))
        XCTAssertEqual(links.owner(page: 1, index: 10_000).map(\.id), [1, 3])
        XCTAssertEqual(links.owner(page: 0, index: 5).map(\.id), [1, 2])
        links.release(page: 0)
        XCTAssertEqual(links.count(page: 0), 0)
        XCTAssertEqual(links.count(page: 1), 10_001)
    }
}
