// Helpers: build IR documents by hand and inspect PDFs with poppler / mupdf tools.

import Foundation
import RTSyntax
import TypesetIR
import TypesetLayout
import TypesetPDF
import XCTest

enum Fixture {
    static let lorem = """
        Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et \
        dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex \
        ea commodo consequat. Duis aute irure dolor in reprehenderit in voluptate velit esse cillum dolore eu fugiat \
        nulla pariatur.
        """

    static func attributes(size: Double = 10, weight: Int = 400, style: FontStyle = .normal,
                           family: String = "DejaVu Serif", link: LinkTarget? = nil) -> CharacterAttributes {
        var a = CharacterAttributes()
        a.fontSize = size
        a.weight = weight
        a.style = style
        a.fontFamily = family
        a.link = link
        return a
    }

    /// A paragraph from pieces of text, each with its attributes.
    static func paragraph(_ pieces: [(String, CharacterAttributes)], style: ParagraphStyle = ParagraphStyle(),
                          anchors: [String] = [], outline: OutlineEntry? = nil,
                          attachments: [TextAttachment] = []) -> AttributedParagraph {
        var text = ""
        var runs: [AttributeRun] = []
        for (s, a) in pieces {
            let start = text.utf8.count
            text += s
            runs.append(AttributeRun(range: start..<text.utf8.count, attributes: a))
        }
        return AttributedParagraph(text: text, runs: runs, style: style, attachments: attachments, anchors: anchors,
                                   outline: outline)
    }

    static func paragraph(_ text: String, style: ParagraphStyle = ParagraphStyle(),
                          attributes: CharacterAttributes = CharacterAttributes()) -> AttributedParagraph {
        paragraph([(text, attributes)], style: style)
    }

    static func heading(_ title: String, level: Int, id: String) -> AttributedParagraph {
        var style = ParagraphStyle()
        style.keepWithNext = true
        style.spaceBefore = 12
        style.spaceAfter = 6
        return paragraph([(title, attributes(size: 16 - Double(level) * 2, weight: 700))], style: style,
                         outline: OutlineEntry(level: level, title: title, id: id))
    }

    static func document(_ blocks: [LayoutBlock], columns: Int = 1) -> TypesetDocument {
        var doc = TypesetDocument()
        doc.blocks = blocks
        doc.page.columns = columns
        doc.metadata.creationDate = 1_700_000_000
        return doc
    }
}

enum PDFTool {
    static func temporaryPath(_ name: String) -> String {
        let dir = NSTemporaryDirectory() + "typeset-layout-tests-\(getpid())"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir + "/" + name + ".pdf"
    }

    @discardableResult
    /// `untagged`: for a test that measures the hyphens the line breaker adds through pdftotext (tagged, their
    /// text is empty; the glyphs are drawn at the same place either way, see AddedHyphenTests).
    static func render(_ document: TypesetDocument, name: String, untagged: Bool = false) throws -> String {
        let path = temporaryPath(name)
        if untagged { setenv("TYPESET_UNTAGGED", "1", 1) }
        defer { if untagged { unsetenv("TYPESET_UNTAGGED") } }
        _ = try PDFRenderer.render(document, to: path)
        assertValid(path)
        return path
    }

    /// `qpdf --check` finds no damage and no warning: every PDF a test writes goes through this.
    static func assertValid(_ path: String, file: StaticString = #filePath, line: UInt = #line) {
        guard let check = try? qpdfCheck(path) else { XCTFail("qpdf did not run", file: file, line: line); return }
        XCTAssertEqual(check.status, 0, "qpdf --check \(path): \(check.output)", file: file, line: line)
        XCTAssertFalse(check.output.contains("WARNING"), "qpdf --check \(path): \(check.output)", file: file, line: line)
    }

    /// `qpdf --check`: its exit status and everything it printed (warnings go to standard error).
    static func qpdfCheck(_ path: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/qpdf")
        process.arguments = ["--check", path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    /// Runs a tool and returns its standard output.
    static func run(_ tool: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/" + tool)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    static func pageCount(_ path: String) throws -> Int {
        let info = try run("pdfinfo", [path])
        let line = info.split(separator: "\n").first { $0.hasPrefix("Pages:") } ?? ""
        return Int(line.split(separator: " ").last ?? "") ?? -1
    }

    struct Word { var text: String; var xMin: Double; var yMin: Double; var xMax: Double; var yMax: Double; var page: Int }

    /// Words with their boxes (`pdftotext -bbox`), y down from the page top, in points.
    static func words(_ path: String) throws -> [Word] {
        let html = try run("pdftotext", ["-bbox", path, "-"])
        var words: [Word] = []
        var page = 0
        for line in html.split(separator: "\n") {
            if line.contains("<page ") { page += 1; continue }
            guard line.contains("<word ") else { continue }
            func value(_ key: String) -> Double {
                guard let r = line.range(of: key + "=\"") else { return .nan }
                let rest = line[r.upperBound...]
                return Double(rest.prefix { $0 != "\"" }) ?? .nan
            }
            guard let open = line.range(of: "\">"), let close = line.range(of: "</word>") else { continue }
            words.append(Word(text: String(line[open.upperBound..<close.lowerBound]), xMin: value("xMin"),
                              yMin: value("yMin"), xMax: value("xMax"), yMax: value("yMax"), page: page))
        }
        return words
    }
}
