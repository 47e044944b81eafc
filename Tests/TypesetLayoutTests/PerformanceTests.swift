import Foundation
import TypesetIR
import TypesetLayout
import TypesetPDF
import XCTest

/// Timing of a ~35,000-word two-column report. Runs only with TYPESET_PERF=1 (build with -c release).
final class PerformanceTests: XCTestCase {
    static func report(words: Int = 35_000) -> TypesetDocument {
        let vocabulary = Fixture.lorem.split(separator: " ").map(String.init)
        var blocks: [LayoutBlock] = []
        var justified = ParagraphStyle()
        justified.alignment = .justify
        justified.spaceAfter = 4
        var count = 0, k = 0, paragraphIndex = 0
        while count < words {
            if paragraphIndex % 12 == 0 {
                blocks.append(.paragraph(Fixture.heading("Section \(paragraphIndex / 12 + 1)", level: 1 + (paragraphIndex / 12) % 2,
                                                         id: "s\(paragraphIndex)")))
            }
            let n = 60 + (paragraphIndex * 37) % 80
            var text = ""
            for i in 0..<n {
                if i > 0 { text += " " }
                text += vocabulary[(k + i * 7) % vocabulary.count]
            }
            k += n
            count += n
            paragraphIndex += 1
            blocks.append(.paragraph(Fixture.paragraph([(text + ".", Fixture.attributes())], style: justified)))
        }
        var doc = Fixture.document(blocks, columns: 2)
        var footer = RunningText()
        footer.center = [.field(.page, CharacterAttributes())]
        doc.footer = footer
        return doc
    }

    static func memory(_ key: String) -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix(key + ":") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
    }

    func testReportTiming() throws {
        guard ProcessInfo.processInfo.environment["TYPESET_PERF"] == "1" else { throw XCTSkip("set TYPESET_PERF=1") }
        var doc = Self.report()
        if let dump = ProcessInfo.processInfo.environment["TYPESET_PERF_DUMP"] {
            // The same paragraphs as plain text, one per line, for a bare C Pango loop to compare against.
            let text = doc.blocks.compactMap { block -> String? in
                if case .paragraph(let p) = block { return p.text }
                return nil
            }.joined(separator: "\n")
            try text.write(toFile: dump, atomically: false, encoding: .utf8)
        }
        let path = PDFTool.temporaryPath("report")
        _ = try PDFRenderer.render(doc, to: path)  // warm up fonts
        var times: [Double] = []
        for _ in 0..<5 {
            let start = Date()
            _ = try PDFRenderer.render(doc, to: path)
            times.append(Date().timeIntervalSince(start))
        }
        print("report: \(try PDFTool.pageCount(path)) pages, render best \(times.min()!) s, median \(times.sorted()[2]) s")
        var layoutOnly: [Double] = []
        for _ in 0..<3 {
            let start = Date()
            _ = try DocumentLayout.paginate(doc) { _ in }
            layoutOnly.append(Date().timeIntervalSince(start))
        }
        print("report: layout only best \(layoutOnly.min()!) s")
        print("report: peak RSS after streaming renders \(Self.memory("VmHWM")) kB")
        var big = doc
        for _ in 0..<4 { big.blocks += doc.blocks }
        let bigStart = Date()
        _ = try PDFRenderer.render(big, to: path)
        print("report x5: \(try PDFTool.pageCount(path)) pages in \(Date().timeIntervalSince(bigStart)) s, peak RSS \(Self.memory("VmHWM")) kB")
        let before = Self.memory("VmRSS")
        let held = DocumentLayout.pages(doc).0
        print("report: holding all \(held.count) pages' layouts adds \(Self.memory("VmRSS") - before) kB")
        doc.footer!.center += [.text(" / ", CharacterAttributes()), .field(.pages, CharacterAttributes())]
        let start = Date()
        _ = try PDFRenderer.render(doc, to: path)
        print("report with {{pages}} (two passes): \(Date().timeIntervalSince(start)) s")
    }
}
